"""Action formats: how a model writes uigym actions, and how its replies are read back.

    from agent_harness.formats import get_format, FormatContext
    fmt = get_format("uitars")
    ctx = FormatContext(screen=(1280, 720), image=(1092, 616), coords="abs")
    fmt.system_prompt(ctx)                                   # the action space, for the system message
    fmt.render({"type": "click", "x": 412, "y": 96}, ctx)    # Rendered: text / tool calls, as the model writes
    fmt.parse("Thought: ...\\nAction: click(start_box='(351,82)')", ctx).actions   # -> [{"type": "click", ...}]

Formats: json (uigym tool calls), openai (computer_call actions), anthropic (computer tool input),
uitars (Thought/Action text; coords abs or rel1000), qwen (Qwen2.5-VL computer_use tool calls),
pyautogui (code lines), gym (the RL environment's tools: click, type_text, ..., done). The eval harness
(agents/model.py), SFT export and RL rollouts use the same
render/parse, so training data and evaluation speak exactly the same texts.
"""

from __future__ import annotations

from typing import Any

from agent_harness.formats.anthropic_cua import AnthropicComputerUse
from agent_harness.formats.base import (
    SCROLL_CLICK_PX, SCROLL_STEP_PX, WAIT_DEFAULT_MS, ActionFormat, FormatContext, Parsed, ParseError, Rendered,
    RenderError, Reply, ToolCall, sample_actions,
)
from agent_harness.formats.gym_tools import GymTools, UigymJSON
from agent_harness.formats.openai_cua import OpenAIComputerUse
from agent_harness.formats.pyautogui_fmt import PyAutoGUI
from agent_harness.formats.qwen import QwenComputerUse
from agent_harness.formats.uitars import UITars

FORMATS: dict[str, ActionFormat] = {f.name: f for f in (
    UigymJSON(), OpenAIComputerUse(), AnthropicComputerUse(), UITars(), QwenComputerUse(), PyAutoGUI(), GymTools(),
)}
ALIASES = {"uigym": "json", "tools": "json", "computer_call": "openai", "claude": "anthropic", "ui-tars": "uitars",
           "qwen25vl": "qwen", "qwen2.5-vl": "qwen", "code": "pyautogui",
           "rl": "gym"}


def get_format(name: str) -> ActionFormat:
    key = ALIASES.get(name, name)
    if key not in FORMATS:
        raise ValueError(f"unknown action format {name!r}; known: {', '.join(FORMATS)}")
    return FORMATS[key]


def _ctx(screen_size: tuple[int, int], model_image_size: tuple[int, int] | None, coords: str) -> FormatContext:
    return FormatContext(screen=screen_size, image=model_image_size, coords=coords)


def render(fmt: str, action: Any, screen_size: tuple[int, int] = (1280, 720),
           model_image_size: tuple[int, int] | None = None, *, coords: str = "abs", thought: str = "") -> Rendered:
    """One uigym action (or a list) as the model would write it in format `fmt`."""
    f = get_format(fmt)
    ctx = _ctx(screen_size, model_image_size, coords)
    if isinstance(action, (list, tuple)):
        return f.render_many(action, ctx, thought)
    return f.render(action, ctx, thought)


def parse(fmt: str, reply: Reply | str | dict, screen_size: tuple[int, int] = (1280, 720),
          model_image_size: tuple[int, int] | None = None, *, coords: str = "abs",
          cursor: tuple[int, int] | None = None) -> list[dict]:
    """The uigym actions in a model's reply (screen pixels); raises ParseError."""
    ctx = _ctx(screen_size, model_image_size, coords)
    ctx.cursor = cursor
    return get_format(fmt).parse(reply, ctx).actions


__all__ = [
    "FORMATS", "ActionFormat", "FormatContext", "ParseError", "Parsed", "Rendered", "RenderError", "Reply", "ToolCall",
    "get_format", "render", "parse", "sample_actions", "SCROLL_CLICK_PX", "SCROLL_STEP_PX", "WAIT_DEFAULT_MS",
]
