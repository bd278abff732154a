"""The OpenEnv server in tools mode, through the typed client and a raw WebSocket: the oracle's calls reach 1 and
a noop 0 on one task of each app, two sessions at once play in worlds of their own, and malformed input is
answered with an error while the session goes on."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest

from openenv_uigym import UIGymAction
from openenv_uigym.oracle import play, tool_plan
from tests.openenv.conftest import TASKS, client

OBS_KEYS = {"screenshot", "url", "goal", "step", "last_action_error", "tool_result", "a11y_tree", "marks", "tools",
            "truncated", "metadata"}


@pytest.mark.parametrize("app", sorted(TASKS))
def test_oracle_gets_1_and_noop_0(tools_server, app):
    task = TASKS[app]
    with client(tools_server).sync() as env:
        result = play(env, task, tool_plan(task))
        assert result.done and result.reward == 1.0, result.observation
        state = env.state()
        assert state.task_id == task and state.app == app and state.mode == "tools" and state.done
        assert state.verify["passed"] and state.verify["score"] == 1.0
        assert state.step_count == len(tool_plan(task))

        first = env.reset(task=task)
        assert first.reward is None and not first.done and first.observation.goal
        assert env.state().verify is None  # the report only once the episode is over
        noop = env.step(UIGymAction(type="done"))
        assert noop.done and noop.reward == 0.0
        assert env.state().verify["passed"] is False


def test_the_session_sees_no_solution_spec_or_control_api(tools_server):
    task = TASKS["crm"]
    with client(tools_server).sync() as env:
        first = env.reset(task=task)
        raw = first.observation.model_dump()
        assert set(raw) == OBS_KEYS | {"reward", "done"}
        names = {t["function"]["name"] for t in first.observation.tools}
        assert "done" in names and len(names) > 10  # the app's tools (as the tools env lists them), and done
        text = json.dumps(raw)
        assert "solution" not in text and "verify" not in text and "X-Gym-Token" not in text
        assert "/_gym" not in text and "/worlds/" not in text  # the control API's routes
        assert not first.observation.metadata
    # the HTTP API's schema has no route to the control API either
    paths = httpx.get(f"{tools_server.url}/openapi.json", timeout=30).json()["paths"]
    assert not any("world" in p or "control" in p or "token" in p for p in paths), sorted(paths)


async def test_two_sessions_at_once_in_worlds_of_their_own(tools_server):
    """A plays the task's gold calls while B, reset to the same task, waits and then says done: B's world is not
    A's (in a shared world B's end state would hold A's change and grade 1)."""
    task = TASKS["crm"]
    plan = tool_plan(task)
    a_acted = asyncio.Event()

    async def session_a():
        async with client(tools_server) as env:
            await env.reset(task=task)
            await b_reset.wait()
            for action in plan:
                result = await env.step(UIGymAction.model_validate(action))
            a_acted.set()
            return result, await env.state()

    b_reset = asyncio.Event()

    async def session_b():
        async with client(tools_server) as env:
            await env.reset(task=task)
            b_reset.set()
            await a_acted.wait()
            result = await env.step(UIGymAction(type="done"))
            return result, await env.state()

    (ra, sa), (rb, sb) = await asyncio.wait_for(asyncio.gather(session_a(), session_b()), 300)
    assert ra.reward == 1.0 and rb.reward == 0.0
    assert sa.episode_id != sb.episode_id
    # Both closed with their sockets: the server closes a session when its socket's close is handled, which can
    # come a moment after the client's `async with` returns (seen: 1 left, on a loaded machine).
    await asyncio.to_thread(tools_server.idle)


async def test_malformed_actions_get_errors_and_the_session_goes_on(tools_server):
    import websockets

    task = TASKS["crm"]
    ws_url = tools_server.url.replace("http://", "ws://") + "/ws"
    async with websockets.connect(ws_url, max_size=None) as ws:
        async def send(message) -> dict:
            await ws.send(message if isinstance(message, str) else json.dumps(message))
            return json.loads(await asyncio.wait_for(ws.recv(), 120))

        # a step before any reset: said, not a crash
        before = await send({"type": "step", "data": {"type": "done"}})
        assert before["type"] == "observation" and "reset" in before["data"]["observation"]["last_action_error"]
        # a reset the env cannot do: a clear error
        bad = await send({"type": "reset", "data": {"task": "crm/no-such-task"}})
        assert bad["type"] == "error" and "no task" in bad["data"]["message"]
        bad = await send({"type": "reset", "data": {"task": task, "colour": "red"}})
        assert bad["type"] == "error" and "unknown reset option" in bad["data"]["message"]
        bad = await send({"type": "reset", "data": {"split": "validation"}})
        assert bad["type"] == "error" and "unknown split" in bad["data"]["message"]
        ok = await send({"type": "reset", "data": {"task": task}})
        assert ok["type"] == "observation" and ok["data"]["observation"]["goal"]

        # not JSON; a field no action has; a number that is a string: the server's errors, the episode untouched
        err = await send("{not json")
        assert err["type"] == "error" and err["data"]["code"] == "INVALID_JSON"
        err = await send({"type": "step", "data": {"type": "tool", "name": "x", "bogus": 1}})
        assert err["type"] == "error" and err["data"]["code"] == "VALIDATION_ERROR"
        err = await send({"type": "step", "data": {"type": "click", "x": "left", "y": 1}})
        assert err["type"] == "error" and err["data"]["code"] == "VALIDATION_ERROR"
        # the env's own refusals: a screen action in tools mode, an unknown tool, arguments of the wrong shape
        for action, said in (({"type": "click", "x": 1, "y": 2}, "unknown action type"),
                             ({"type": "tool", "name": "launch_rocket", "args": {}}, "launch_rocket"),
                             ({"type": "tool", "name": "search_records", "args": {"nope": [1]}}, "nope")):
            obs = await send({"type": "step", "data": action})
            assert obs["type"] == "observation" and not obs["data"]["done"], obs
            assert said in obs["data"]["observation"]["last_action_error"], obs
        # and the session goes on: the gold calls still finish the task
        for action in tool_plan(task):
            obs = await send({"type": "step", "data": action})
        assert obs["data"]["done"] and obs["data"]["reward"] == 1.0, obs
        state = await send({"type": "state"})
        assert state["data"]["step_count"] == 3 + len(tool_plan(task))  # the refused actions cost a step each
        over = await send({"type": "step", "data": {"type": "done"}})
        assert over["type"] == "observation" and "over" in over["data"]["observation"]["last_action_error"]


def test_http_step_without_a_session_is_answered_not_a_500(tools_server):
    r = httpx.post(f"{tools_server.url}/step", json={"action": {"type": "done"}}, timeout=60)
    assert r.status_code == 200 and "reset" in r.json()["observation"]["last_action_error"]
    r = httpx.post(f"{tools_server.url}/step", json={"action": {"type": "done", "z": 1}}, timeout=60)
    assert r.status_code == 422


def test_reset_draws_from_tasks_and_split_by_seed(tools_server):
    with client(tools_server).sync() as env:
        a = env.reset(tasks="crm/complete-todays-task-*", split="train", seed=5)
        first = env.state().task_id
        b = env.reset(tasks="crm/complete-todays-task-*", split="train", seed=5)
        assert env.state().task_id == first and first.startswith("crm/complete-todays-task-")
        assert a.observation.goal == b.observation.goal and env.state().seed == 5
