"""Gymnasium spaces for uigym's observations and actions."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from gym_core.actions import ActionError, parse_action

# Goals, URLs and error texts are free text: allow every printable character of the BMP's common blocks.
TEXT_CHARSET = frozenset(chr(i) for i in range(32, 0x3000)) | {"\n", "\t"}


def text_space(max_length: int = 100_000) -> spaces.Text:
    return spaces.Text(max_length=max_length, min_length=0, charset=TEXT_CHARSET)


def observation_space(width: int, height: int, max_steps: int = 500) -> spaces.Dict:
    return spaces.Dict(
        {
            "screenshot": spaces.Box(0, 255, shape=(height, width, 3), dtype=np.uint8),
            "url": text_space(4096),
            "goal": text_space(4096),
            "step": spaces.Discrete(max_steps + 1),
            "last_action_error": text_space(4096),
        }
    )


class ActionSpace(spaces.Space):
    """Any uigym action: a dict (or pydantic Action) validated by gym_core.actions."""

    KEYS = ["Enter", "Escape", "Tab", "Backspace", "ArrowDown", "ArrowUp", "a"]

    def __init__(self, width: int, height: int, seed: int | None = None):
        super().__init__(shape=None, dtype=None, seed=seed)
        self.width, self.height = width, height

    @property
    def is_np_flattenable(self) -> bool:
        return False

    def sample(self, mask: Any = None, probability: Any = None) -> dict:
        r = self.np_random
        x, y = int(r.integers(0, self.width)), int(r.integers(0, self.height))
        kind = r.choice(["click", "move", "scroll", "type", "keypress", "wait"])
        if kind == "click":
            return {"type": "click", "x": x, "y": y}
        if kind == "move":
            return {"type": "move", "x": x, "y": y}
        if kind == "scroll":
            return {"type": "scroll", "x": x, "y": y, "dx": 0, "dy": int(r.choice([-300, 300]))}
        if kind == "type":
            return {"type": "type", "text": "hello"}
        if kind == "keypress":
            return {"type": "keypress", "keys": [str(r.choice(self.KEYS))]}
        return {"type": "wait", "ms": 10}

    def contains(self, x: Any) -> bool:
        try:
            parse_action(x)
        except ActionError:
            return False
        return True

    def __repr__(self) -> str:
        return f"ActionSpace({self.width}x{self.height})"

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, ActionSpace) and (other.width, other.height) == (self.width, self.height)
