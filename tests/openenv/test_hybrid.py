"""The OpenEnv server in hybrid mode: one session takes screen actions and the app's tool calls side by side. The
observation carries the screenshot and the tool list; a tool call's result comes back with the screen after it; the
tool oracle's plan through the client reaches 1 on a world-changing task, a noop 0."""

from __future__ import annotations

import base64
import io

import pytest
from PIL import Image

from openenv_uigym import UIGymAction
from openenv_uigym.oracle import tool_plan
from tests.openenv.conftest import TASKS, Server, client


@pytest.fixture(scope="module")
def hybrid_server():
    server = Server("hybrid")
    yield server
    server.stop()


def test_screen_actions_and_tool_calls_in_one_session(hybrid_server):
    task = TASKS["crm"]  # completes a task: the world changes
    plan = tool_plan(task)
    with client(hybrid_server).sync() as env:
        first = env.reset(task=task)
        obs = first.observation
        assert Image.open(io.BytesIO(base64.b64decode(obs.screenshot))).size == (1280, 720)
        names = {t["function"]["name"] for t in obs.tools}
        assert {a["name"] for a in plan if a["type"] == "tool"} <= names and "done" in names
        moved = env.step(UIGymAction(type="move", x=20, y=20))  # a screen action in the same session
        assert not moved.observation.last_action_error and not moved.done
        result = moved
        for action in plan:
            result = env.step(UIGymAction.model_validate(action))
            assert not result.observation.last_action_error, (action, result.observation.last_action_error)
            if action["type"] == "tool":  # the call's result, and the page as the call left it
                assert result.observation.tool_result and result.observation.screenshot
        assert result.done and result.reward == 1.0
        state = env.state()
        assert state.mode == "hybrid" and state.verify["passed"] and state.step_count == len(plan) + 1

        env.reset(task=task)
        noop = env.step(UIGymAction(type="done"))
        assert noop.done and noop.reward == 0.0
        bad = env.reset(task=task)
        refused = env.step(UIGymAction(type="tool", name="no_such_tool", args={}))
        assert "unknown tool" in refused.observation.last_action_error and not refused.done
        assert bad.observation.goal == refused.observation.goal  # the session goes on
