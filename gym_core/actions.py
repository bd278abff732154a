"""The agent's action space: mouse, keyboard and 'done', in screenshot pixel coordinates.

Actions are pydantic models discriminated on `type`, so an action is one JSON object:
    {"type": "click", "x": 412, "y": 96}
    {"type": "keypress", "keys": ["Control", "a"]}
    {"type": "done", "answer": "March 14"}
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from gym_core.keys import KeyError_, normalize_keys


class _Action(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Click(_Action):
    type: Literal["click"] = "click"
    x: int
    y: int
    button: Literal["left", "right", "middle"] = "left"


class DoubleClick(_Action):
    type: Literal["double_click"] = "double_click"
    x: int
    y: int


class Move(_Action):
    type: Literal["move"] = "move"
    x: int
    y: int


class Drag(_Action):
    type: Literal["drag"] = "drag"
    path: list[tuple[int, int]] = Field(min_length=2)


class Scroll(_Action):
    type: Literal["scroll"] = "scroll"
    x: int
    y: int
    dx: int = 0
    dy: int = 0


class Type(_Action):
    type: Literal["type"] = "type"
    text: str = Field(max_length=4000)


class KeyPress(_Action):
    type: Literal["keypress"] = "keypress"
    keys: list[str] = Field(min_length=1, max_length=5)  # pressed together as a chord, e.g. ["Control", "a"]


class Wait(_Action):
    type: Literal["wait"] = "wait"
    ms: int = Field(default=500, ge=0, le=10_000)


class Screenshot(_Action):
    type: Literal["screenshot"] = "screenshot"


class Done(_Action):
    type: Literal["done"] = "done"
    answer: str | None = None


class ToolUse(_Action):
    """A function call on the app (tool and hybrid modes): a tool of apps/<app>/tools.py and its arguments."""

    type: Literal["tool"] = "tool"
    name: str = Field(min_length=1, max_length=64)
    args: dict[str, Any] = Field(default_factory=dict)


class SwitchTab(_Action):
    """Bring another tab to the front (the workspace env, gym_core/workspace_env.py): an app's name ("crm")
    or its tab's number from 1, as Ctrl+1..3 counts them."""

    type: Literal["switch_tab"] = "switch_tab"
    tab: Union[int, str]


Action = Annotated[
    Union[Click, DoubleClick, Move, Drag, Scroll, Type, KeyPress, Wait, Screenshot, Done],
    Field(discriminator="type"),
]
ACTION_TYPES = ["click", "double_click", "move", "drag", "scroll", "type", "keypress", "wait", "screenshot", "done"]
# What each mode accepts: the screen's actions, the tools and done, or both.
TOOL_ACTION_TYPES = ["tool", "done"]
HYBRID_ACTION_TYPES = [*ACTION_TYPES, "tool"]
MODE_ACTION_TYPES = {"ui": ACTION_TYPES, "tools": TOOL_ACTION_TYPES, "hybrid": HYBRID_ACTION_TYPES}
# The workspace env's (several apps in tabs): each mode's, and switch_tab where there is a screen.
WORKSPACE_ACTION_TYPES = {"ui": [*ACTION_TYPES, "switch_tab"], "tools": TOOL_ACTION_TYPES,
                          "hybrid": [*HYBRID_ACTION_TYPES, "switch_tab"]}
_adapter: TypeAdapter = TypeAdapter(Annotated[Union[Click, DoubleClick, Move, Drag, Scroll, Type, KeyPress, Wait,
                                                    Screenshot, Done, ToolUse, SwitchTab], Field(discriminator="type")])


class ActionError(ValueError):
    """An action that cannot be performed; the env reports it in `last_action_error` and goes on."""


def _pydantic_message(e: ValidationError) -> str:
    parts = []
    for err in e.errors()[:3]:
        loc = ".".join(str(p) for p in err["loc"] if p not in HYBRID_ACTION_TYPES and p != "switch_tab")
        parts.append(f"{loc + ': ' if loc else ''}{err['msg']}")
    return "; ".join(parts)


def parse_action(value: Any, allowed: list[str] = ACTION_TYPES) -> Action:
    """Accepts an Action, a dict, or a JSON string; raises ActionError with a readable reason.
    `allowed`: the action types of the env's mode (MODE_ACTION_TYPES)."""
    if isinstance(value, BaseModel) and getattr(value, "type", None) in allowed:
        return value  # type: ignore[return-value]
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError as e:
            raise ActionError(f"action is not valid JSON: {e.msg}") from None
    if not isinstance(value, dict):
        raise ActionError(f"an action must be an object with a 'type', got {type(value).__name__}")
    kind = value.get("type")
    if kind not in allowed:
        raise ActionError(f"unknown action type {kind!r}; expected one of {', '.join(allowed)}")
    try:
        action = _adapter.validate_python(value)
    except ValidationError as e:
        raise ActionError(f"bad {kind} action: {_pydantic_message(e)}") from None
    if isinstance(action, KeyPress):
        try:
            normalize_keys(action.keys)
        except KeyError_ as e:
            raise ActionError(str(e)) from None
    return action


def action_to_dict(action: Action) -> dict:
    return action.model_dump(mode="json", exclude_none=True)
