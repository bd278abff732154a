"""Gymnasium spaces for uigym's observations and actions.

The observation space is built from the EnvConfig that builds the observation: the always-present keys
(screenshot, url, goal, step, last_action_error) plus one key per observation option that is on
(OBSERVATION_OPTIONS). The env (gym_core.env.AsyncUIEnv._observe) adds optional keys only through the
same table and clips every text to the bound declared here, so what it returns is in the space.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from gym_core.perturb import MAX_EXTRA_STEPS, parse_perturb, screen_sizes
from gym_core.actions import (
    ACTION_TYPES, HYBRID_ACTION_TYPES, TOOL_ACTION_TYPES, ActionError, Click, DoubleClick, Drag, Move, Scroll,
    parse_action,
)

# What FreeText.sample() draws from (and the old charset of every text key): the printable
# characters of the BMP's common blocks. Not a limit on what a text observation may hold.
TEXT_CHARSET = frozenset(chr(i) for i in range(32, 0x3000)) | {"\n", "\t"}

# Bounds of the text observations, in characters (code points).
URL_MAX_CHARS = 2 * 1024 * 1024  # Chromium's own URL limit (url::kMaxURLChars): a longer one never loads
GOAL_MAX_CHARS = 16_384  # a task's goal; reset() refuses a longer one rather than cut it
ERROR_MAX_CHARS = 4096  # last_action_error is clipped to this (an error can echo a long bad action)
A11Y_TREE_MAX_CHARS = 1_000_000  # the accessibility tree is clipped to this (the largest clone page is ~10x smaller)
MARK_TEXT_MAX_CHARS = 80  # a mark's role and name are clipped to this
MAX_MARKS = 1000  # marks past this many on one screen are left out (ids are 0..MAX_MARKS-1)
TOOL_RESULT_MAX_CHARS = 200_000  # a tool's JSON result is clipped to this (tools cap their lists well below)
CLIPPED = "…"  # ends a clipped text, within its bound

# The observation's optional parts: the EnvConfig switch that turns one on -> the key it adds. The env
# produces these keys only through this table (AsyncUIEnv._observe) and observation_space() declares
# them only through it, so a new option added here gets both or fails loudly (a KeyError) in both.
OBSERVATION_OPTIONS: dict[str, str] = {"a11y_tree": "a11y_tree", "set_of_marks": "marks", "tools": "tool_result"}


def _task_max_steps() -> int:
    """The largest max_steps a task may ask for (the `le` bound of tasks.schema.Task.max_steps)."""
    from tasks.schema import Task

    return next(m.le for m in Task.model_fields["max_steps"].metadata if getattr(m, "le", None) is not None)


class FreeText(spaces.Text):
    """Any str of min_length..max_length characters, whatever characters it holds.

    A page's text, a URL the agent typed, an error echoing a bad action can hold any Unicode character;
    gymnasium's Text would need the whole of Unicode as its charset to contain them (a million-entry
    table per space). `character_set` is what `sample()` draws from, not a limit on `contains()`; for
    the same reason these strings are not flattenable to a fixed charset's indices."""

    def __init__(self, max_length: int, *, min_length: int = 0, seed: Any = None):
        super().__init__(max_length, min_length=min_length, charset=TEXT_CHARSET, seed=seed)

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and self.min_length <= len(x) <= self.max_length

    @property
    def is_np_flattenable(self) -> bool:
        return False

    def __repr__(self) -> str:
        return f"FreeText({self.min_length}, {self.max_length})"

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, FreeText) and (other.min_length, other.max_length) == (self.min_length, self.max_length)


def clip_text(text: str, max_chars: int) -> str:
    """`text` within `max_chars` characters; a clipped one ends with CLIPPED."""
    if len(text) <= max_chars:
        return text
    return text[: max_chars - len(CLIPPED)] + CLIPPED


def text_space(max_length: int = 100_000) -> FreeText:
    return FreeText(max_length)


def marks_space(width: int, height: int) -> spaces.Sequence:
    """Set-of-marks: a tuple of the interactive elements on screen, each {id, role, name, box}, where
    box is [x, y, w, h] of the element's visible part, in screenshot pixels (within the screen)."""
    return spaces.Sequence(spaces.Dict({
        "id": spaces.Discrete(MAX_MARKS),
        "role": FreeText(MARK_TEXT_MAX_CHARS),
        "name": FreeText(MARK_TEXT_MAX_CHARS),
        "box": spaces.Box(low=np.array([0, 0, 1, 1]), high=np.array([width - 1, height - 1, width, height]),
                          shape=(4,), dtype=np.int64),
    }))


class FrameSpace(spaces.Space):
    """The screenshot when the screen's size is drawn per episode (EnvConfig.perturb "viewport"): a uint8
    HxWx3 frame of one of `sizes` ((width, height) pairs). A Box has one shape; this is the honest space of
    frames of a few: every frame the env returns is one of them, and `sample()` draws a size, then pixels."""

    def __init__(self, sizes: tuple[tuple[int, int], ...], seed: Any = None):
        super().__init__(shape=None, dtype=np.uint8, seed=seed)
        self.sizes = tuple((int(w), int(h)) for w, h in sizes)

    def contains(self, x: Any) -> bool:
        return (isinstance(x, np.ndarray) and x.dtype == np.uint8 and x.ndim == 3 and x.shape[2] == 3
                and (x.shape[1], x.shape[0]) in self.sizes)

    def sample(self, mask: Any = None, probability: Any = None) -> np.ndarray:
        w, h = self.sizes[int(self.np_random.integers(len(self.sizes)))]
        return self.np_random.integers(0, 256, size=(h, w, 3), dtype=np.uint8)

    @property
    def is_np_flattenable(self) -> bool:
        return False

    def __repr__(self) -> str:
        return f"FrameSpace({', '.join(f'{w}x{h}' for w, h in self.sizes)})"

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, FrameSpace) and other.sizes == self.sizes


def screen_bounds(config: Any) -> tuple[int, int]:
    """The largest screen (width, height) an env made with `config` shows: the configured viewport, or with
    the viewport perturbation on the largest size it draws (gym_core/perturb.py). An action space's points lie
    within it; a point off the episode's smaller screen is refused (last_action_error), as any off-screen point."""
    sizes = screen_sizes(parse_perturb(getattr(config, "perturb", None)), config.viewport)
    return max(w for w, _ in sizes), max(h for _, h in sizes)


def screenshot_space(config: Any) -> spaces.Space:
    """A Box of the configured viewport's shape; with the viewport perturbation on, a FrameSpace of the sizes
    it draws (the screenshot is the episode's drawn size, in CSS pixels whatever the device scale)."""
    sizes = screen_sizes(parse_perturb(getattr(config, "perturb", None)), config.viewport)
    if len(sizes) == 1:
        width, height = sizes[0]
        return spaces.Box(0, 255, shape=(height, width, 3), dtype=np.uint8)
    return FrameSpace(sizes)


def _optional_space(key: str, width: int, height: int) -> spaces.Space:
    return {"a11y_tree": lambda: FreeText(A11Y_TREE_MAX_CHARS), "marks": lambda: marks_space(width, height),
            "tool_result": lambda: FreeText(TOOL_RESULT_MAX_CHARS)}[key]()


def max_observed_step(config: Any) -> int:
    """The largest `step` an observation can show: the config's max_steps, else the largest a task or
    free play (default_max_steps) may have; with the overlays perturbation on, plus the most steps closing
    them can add (gym_core.perturb.extra_steps)."""
    extra = MAX_EXTRA_STEPS if parse_perturb(getattr(config, "perturb", None)).overlays else 0  # AsyncUIEnv.reset
    return (config.max_steps or max(_task_max_steps(), config.default_max_steps)) + extra


def observation_space(config: Any) -> spaces.Dict:
    """The observation space of an env made with `config` (a gym_core.env.EnvConfig)."""
    width, height = screen_bounds(config)  # a mark's box lies within the episode's screen, at most this
    parts: dict[str, spaces.Space] = {
        "screenshot": screenshot_space(config),
        "url": FreeText(URL_MAX_CHARS),
        "goal": FreeText(GOAL_MAX_CHARS),
        "step": spaces.Discrete(max_observed_step(config) + 1),
        "last_action_error": FreeText(ERROR_MAX_CHARS),
    }
    for flag, key in OBSERVATION_OPTIONS.items():
        if getattr(config, flag):
            parts[key] = _optional_space(key, width, height)
    return spaces.Dict(parts)


def tool_observation_space(config: Any) -> spaces.Dict:
    """Tool mode's observation (gym_core.tool_env.AsyncToolEnv): text only, no screen."""
    return spaces.Dict({
        "goal": FreeText(GOAL_MAX_CHARS),
        "step": spaces.Discrete(max_observed_step(config) + 1),
        "last_action_error": FreeText(ERROR_MAX_CHARS),
        "tool_result": FreeText(TOOL_RESULT_MAX_CHARS),
    })


# What sample() types and presses: printable ASCII and a few accented letters (typed as text); single
# keys and chords that stay inside the page (no key here closes, reloads or leaves the tab).
TYPE_CHARSET = (
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,;:-_@#&()'\"/?!éñüß"
)
SAMPLE_KEYS = [
    "Enter", "Escape", "Tab", "Backspace", "Delete", "ArrowDown", "ArrowUp", "ArrowLeft", "ArrowRight",
    "Home", "End", "PageUp", "PageDown", " ", "a", "z", "1", "/", "?",
]
SAMPLE_CHORDS = [["Control", "a"], ["Control", "c"], ["Control", "v"], ["Control", "z"], ["Shift", "Tab"],
                 ["Shift", "ArrowDown"], ["Control", "Enter"]]
SAMPLE_MAX_WAIT_MS = 500  # a sampled wait is at most this long (the action allows 10 s)


class ActionSpace(spaces.Space):
    """Any uigym action: a dict (or pydantic Action) validated by gym_core.actions, whose points lie on
    the width x height screen.

    `sample()` draws the action type uniformly from ACTION_TYPES (all ten: click, double_click, move,
    drag, scroll, type, keypress, wait, screenshot, done), then valid arguments for it, from the space's
    own seeded generator (`ActionSpace(w, h, seed=1)` or `.seed(1)`: the same seed, the same actions).
    Like Discrete's, `mask` (int8, one 0/1 per type in ACTION_TYPES' order) limits the types drawn and
    `probability` (float64, one per type, summing to 1) weighs them."""

    TYPES = ACTION_TYPES
    KEYS = SAMPLE_KEYS

    def __init__(self, width: int, height: int, seed: int | np.random.Generator | None = None,
                 tool_names: tuple[str, ...] = ()):
        super().__init__(shape=None, dtype=None, seed=seed)
        self.width, self.height = width, height
        self.tool_names = tuple(tool_names)  # what a sampled tool call names (hybrid and tool modes)

    @property
    def is_np_flattenable(self) -> bool:
        return False

    def _type_weights(self, mask: Any, probability: Any) -> np.ndarray:
        types = self.TYPES
        n = len(types)
        if mask is not None and probability is not None:
            raise ValueError("only one of `mask` or `probability` can be given")
        if mask is not None:
            mask = np.asarray(mask)
            if mask.shape != (n,) or mask.dtype != np.int8 or not np.all((mask == 0) | (mask == 1)):
                raise ValueError(f"`mask` must be an int8 array of {n} zeros and ones (one per {types})")
            if not mask.any():
                raise ValueError("`mask` allows no action type")
            return mask / mask.sum()
        if probability is not None:
            p = np.asarray(probability, dtype=np.float64)
            if p.shape != (n,) or np.any(p < 0) or not np.isclose(p.sum(), 1):
                raise ValueError(f"`probability` must be {n} non-negative floats summing to 1 (one per {types})")
            return p
        return np.full(n, 1 / n)

    def _point(self) -> tuple[int, int]:
        r = self.np_random
        return int(r.integers(0, self.width)), int(r.integers(0, self.height))

    def sample(self, mask: Any = None, probability: Any = None) -> dict:
        r = self.np_random
        kind = self.TYPES[int(r.choice(len(self.TYPES), p=self._type_weights(mask, probability)))]
        if kind == "tool":
            return self._sample_tool()
        if kind in ("click", "double_click", "move"):
            x, y = self._point()
            action = {"type": kind, "x": x, "y": y}
            if kind == "click":
                action["button"] = str(r.choice(["left", "right", "middle"], p=[0.8, 0.1, 0.1]))
            return action
        if kind == "drag":
            return {"type": "drag", "path": [list(self._point()) for _ in range(int(r.integers(2, 5)))]}
        if kind == "scroll":
            x, y = self._point()
            dx = 0 if r.random() < 0.8 else int(r.integers(-600, 601))
            return {"type": "scroll", "x": x, "y": y, "dx": dx, "dy": int(r.integers(-1000, 1001))}
        if kind == "type":
            n = int(r.integers(1, 21))
            return {"type": "type", "text": "".join(r.choice(list(TYPE_CHARSET), size=n))}
        if kind == "keypress":
            if r.random() < 0.25:
                return {"type": "keypress", "keys": list(SAMPLE_CHORDS[int(r.integers(len(SAMPLE_CHORDS)))])}
            return {"type": "keypress", "keys": [SAMPLE_KEYS[int(r.integers(len(SAMPLE_KEYS)))]]}
        if kind == "wait":
            return {"type": "wait", "ms": int(r.integers(0, SAMPLE_MAX_WAIT_MS + 1))}
        if kind == "done":
            return {"type": "done"} if r.random() < 0.5 else {"type": "done", "answer": str(int(r.integers(0, 100)))}
        return {"type": kind}  # screenshot: no arguments

    def _sample_tool(self) -> dict:
        r = self.np_random
        name = self.tool_names[int(r.integers(len(self.tool_names)))] if self.tool_names else "unknown_tool"
        return {"type": "tool", "name": name, "args": {}}

    def contains(self, x: Any) -> bool:
        try:
            a = parse_action(x, self.TYPES)
        except ActionError:
            return False
        if isinstance(a, (Click, DoubleClick, Move, Scroll)):
            points = [(a.x, a.y)]
        elif isinstance(a, Drag):
            points = list(a.path)
        else:
            points = []
        return all(0 <= px < self.width and 0 <= py < self.height for px, py in points)

    def to_jsonable(self, sample_n: list) -> list:
        return [x if isinstance(x, dict) else parse_action(x, self.TYPES).model_dump(mode="json", exclude_none=True)
                for x in sample_n]

    def from_jsonable(self, sample_n: list) -> list:
        return list(sample_n)

    def __repr__(self) -> str:
        return f"ActionSpace({self.width}x{self.height})"

    def __eq__(self, other: Any) -> bool:
        return type(other) is type(self) and (other.width, other.height) == (self.width, self.height)


class HybridActionSpace(ActionSpace):
    """The hybrid mode's actions: the screen's ten and a tool call ({"type": "tool", "name", "args"}).
    A sampled tool call names one of `tool_names` with no arguments (the app answers a missing one with
    a clear error, as it would a model's)."""

    TYPES = HYBRID_ACTION_TYPES

    def __repr__(self) -> str:
        return f"HybridActionSpace({self.width}x{self.height}, {len(self.tool_names)} tools)"

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, HybridActionSpace) and super().__eq__(other) and other.tool_names == self.tool_names


class ToolActionSpace(ActionSpace):
    """Tool mode's actions: a tool call or done. No screen: points never occur."""

    TYPES = TOOL_ACTION_TYPES

    def __init__(self, tool_names: tuple[str, ...] = (), seed: int | np.random.Generator | None = None):
        super().__init__(1, 1, seed=seed, tool_names=tool_names)

    def __repr__(self) -> str:
        return f"ToolActionSpace({len(self.tool_names)} tools)"

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, ToolActionSpace) and other.tool_names == self.tool_names
