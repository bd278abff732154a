"""The wire types: every action uigym's env takes has its place in UIGymAction, and nothing else does."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from gym_core.actions import HYBRID_ACTION_TYPES, parse_action
from openenv_uigym import UIGymAction, UIGymObservation, UIGymState
from openenv_uigym.server.uigym_environment import Settings


def test_action_types_are_the_envs():
    assert set(UIGymAction.model_fields["type"].annotation.__args__) == set(HYBRID_ACTION_TYPES)


@pytest.mark.parametrize("action", [
    {"type": "click", "x": 4, "y": 5}, {"type": "click", "x": 4, "y": 5, "button": "right"},
    {"type": "double_click", "x": 1, "y": 2}, {"type": "move", "x": 1, "y": 2},
    {"type": "drag", "path": [[1, 2], [3, 4]]}, {"type": "scroll", "x": 1, "y": 2, "dy": 300},
    {"type": "type", "text": "hi"}, {"type": "keypress", "keys": ["Control", "a"]}, {"type": "wait", "ms": 10},
    {"type": "screenshot"}, {"type": "done"}, {"type": "done", "answer": "42"},
    {"type": "tool", "name": "search_mail", "args": {"query": "from:ana"}},
])
def test_every_env_action_goes_through_unchanged(action):
    wire = UIGymAction.model_validate(action)
    back = wire.to_env()
    assert parse_action(back, HYBRID_ACTION_TYPES).model_dump(mode="json", exclude_none=True) == \
        parse_action(action, HYBRID_ACTION_TYPES).model_dump(mode="json", exclude_none=True)
    assert "metadata" not in back


def test_the_wire_refuses_what_no_action_has():
    with pytest.raises(ValidationError):
        UIGymAction.model_validate({"type": "click", "x": 1, "y": 2, "z": 3})
    with pytest.raises(ValidationError):
        UIGymAction.model_validate({"type": "fly"})
    with pytest.raises(ValidationError):
        UIGymAction.model_validate({"type": "click", "x": "left"})


def test_observation_and_state_fields():
    assert {"screenshot", "url", "goal", "step", "last_action_error", "tool_result", "a11y_tree", "marks", "tools",
            "reward", "done"} <= set(UIGymObservation.model_fields)
    assert {"episode_id", "task_id", "app", "mode", "seed", "look", "step_count", "verify"} <= set(UIGymState.model_fields)


def test_settings_refuse_unknown_mode_and_app():
    with pytest.raises(ValueError, match="mode"):
        Settings(mode="screen")
    with pytest.raises(ValueError, match="app"):
        Settings(app="calendar")
