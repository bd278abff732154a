"""The wire types of uigym's OpenEnv environment: pydantic models on OpenEnv's Action / Observation / State.

The action is uigym's own action format (gym_core/actions.py) as one flat model: `type` names the action and
the fields it takes are set, the rest left out. Which fields a type needs, their bounds and which types a mode
accepts are checked by the env's own parser (`gym_core.actions.parse_action`, through `WorldEnv.step`), not
here: a click without `y`, or a tool call in UI mode, comes back as `last_action_error` and the session goes on.
What this model refuses itself (an unknown field, a string where a number goes) is refused by OpenEnv's
server before the env sees it: an error message, the session open.
"""

from __future__ import annotations

from typing import Any, Literal, Optional

from openenv.core.env_server.types import Action, Observation, State
from pydantic import Field

# gym_core.actions.HYBRID_ACTION_TYPES (kept equal by tests/openenv/test_models.py).
ActionType = Literal["click", "double_click", "move", "drag", "scroll", "type", "keypress", "wait", "screenshot",
                     "done", "tool"]


class UIGymAction(Action):
    """One uigym action, e.g. {"type": "click", "x": 412, "y": 96}, {"type": "keypress", "keys": ["Enter"]},
    {"type": "tool", "name": "search_mail", "args": {"query": "from:ana"}} (tools and hybrid modes) or
    {"type": "done", "answer": "March 14"}."""

    type: ActionType = Field(description="the action: a screen action (ui, hybrid), `tool` (tools, hybrid) or `done`")
    x: Optional[int] = Field(default=None, description="click/double_click/move/scroll: pixels from the left")
    y: Optional[int] = Field(default=None, description="click/double_click/move/scroll: pixels from the top")
    button: Optional[Literal["left", "right", "middle"]] = Field(default=None, description="click: the button")
    path: Optional[list[tuple[int, int]]] = Field(default=None, description="drag: the points, at least two")
    dx: Optional[int] = Field(default=None, description="scroll: pixels right")
    dy: Optional[int] = Field(default=None, description="scroll: pixels down")
    text: Optional[str] = Field(default=None, description="type: the text typed into the focused field")
    keys: Optional[list[str]] = Field(default=None, description="keypress: keys pressed together, e.g. ['Control', 'a']")
    ms: Optional[int] = Field(default=None, description="wait: milliseconds")
    answer: Optional[str] = Field(default=None, description="done: the answer, where the goal asks a question")
    name: Optional[str] = Field(default=None, description="tool: the tool's name (the reset's `tools` list)")
    args: Optional[dict[str, Any]] = Field(default=None, description="tool: the tool's arguments")

    def to_env(self) -> dict[str, Any]:
        """The action as uigym's env takes it (gym_core.actions): the fields given, without OpenEnv's metadata."""
        return self.model_dump(mode="json", exclude_none=True, exclude={"metadata"})


class UIGymObservation(Observation):
    """What the agent sees after a reset or a step. `reward` is 0 until the episode ends, then the verifier's
    score of the end state; `done` is set when the agent said done or ran out of steps (`truncated`)."""

    screenshot: Optional[str] = Field(default=None, description="the screen as a base64 PNG (ui, hybrid; None in tools)")
    url: str = Field(default="", description="the page's URL (ui, hybrid)")
    goal: str = Field(default="", description="the task's goal")
    step: int = Field(default=0, description="steps taken in this episode")
    last_action_error: str = Field(default="", description="why the last action failed or was refused ('' if it did not)")
    tool_result: Optional[str] = Field(default=None, description="the last tool call's result as JSON (tools, hybrid)")
    a11y_tree: Optional[str] = Field(default=None, description="the page's accessibility tree (server started with a11y)")
    marks: Optional[list[dict[str, Any]]] = Field(default=None, description="set-of-marks: {id, role, name, box} "
                                                                             "(server started with marks)")
    tools: Optional[list[dict[str, Any]]] = Field(default=None, description="after reset in tools/hybrid mode: the "
                                                                             "app's tools in OpenAI function form")
    truncated: bool = Field(default=False, description="the episode ended on its step budget, not on `done`")


class UIGymState(State):
    """The session's episode: its ids, where it runs, and once it is over the verifier's report."""

    task_id: Optional[str] = None
    app: Optional[str] = None
    mode: str = "ui"
    seed: Optional[int] = None
    look: Optional[str] = None
    max_steps: Optional[int] = None
    done: bool = False
    reward: Optional[float] = None
    verify: Optional[dict[str, Any]] = Field(default=None, description="the verifier's report (score, passed, each "
                                                                        "check), once the episode is over")


__all__ = ["UIGymAction", "UIGymObservation", "UIGymState", "ActionType"]
