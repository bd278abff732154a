"""The OpenEnv server in UI mode: the screen oracle's actions (recorded in-process on the same task and seed: the
same world, the same pixels) replayed through the client reach 1, a noop 0, on one task of each app; and 50
sessions dropped without a goodbye leave no browser context and no session behind."""

from __future__ import annotations

import asyncio
import base64
import io
import json
import time

import pytest
from PIL import Image

from openenv_uigym import UIGymAction
from openenv_uigym.oracle import play
from tests.openenv.conftest import TASKS, client


async def oracle_actions(task_id: str, runtime) -> list[dict]:
    """The screen oracle's actions on `task_id`, played in-process (uigym's AsyncUIEnv), and proven there: 1."""
    from agent_harness.agents.oracle import OracleAgent
    from gym_core.env import AsyncUIEnv
    from tasks import load_task

    task = load_task(task_id)
    env = AsyncUIEnv(task.app, runtime=runtime)
    agent = OracleAgent()
    actions: list[dict] = []
    try:
        obs, _ = await env.reset(task=task)
        await agent.reset(env, task)
        reward, done = 0.0, False
        while not done:
            action = await agent.act(obs)
            actions.append(action)
            obs, reward, terminated, truncated, _ = await env.step(action)
            done = terminated or truncated
        assert reward == 1.0, (task_id, actions)
    finally:
        await env.close()
    return actions


@pytest.mark.parametrize("app", sorted(TASKS))
async def test_screen_oracle_gets_1_and_noop_0_through_the_client(ui_server, runtime, app):
    task = TASKS[app]
    actions = await oracle_actions(task, runtime)
    with client(ui_server).sync() as env:
        first = env.reset(task=task)
        png = base64.b64decode(first.observation.screenshot)
        assert Image.open(io.BytesIO(png)).size == (1280, 720)
        assert first.observation.url.startswith("/") and first.observation.goal  # the path the agent is shown
        result = play(env, task, actions)
        assert result.done and result.reward == 1.0, (result.observation.last_action_error, actions)
        state = env.state()
        assert state.mode == "ui" and state.app == app and state.verify["passed"]
        assert state.step_count == len(actions)

        env.reset(task=task)
        noop = env.step(UIGymAction(type="done"))
        assert noop.done and noop.reward == 0.0


async def test_50_dropped_sessions_leave_no_browser_context(ui_server):
    """Each session resets (a world and a browser context of its own), then its socket is cut without a close
    frame; the server closes the session: its context and world are freed."""
    import websockets

    ws_url = ui_server.url.replace("http://", "ws://") + "/ws"
    base = await asyncio.to_thread(ui_server.idle)  # the tests before closed theirs

    async def open_and_reset():
        ws = await websockets.connect(ws_url, max_size=None, open_timeout=60)
        await ws.send(json.dumps({"type": "reset", "data": {"task": TASKS["mail"]}}))
        reply = json.loads(await asyncio.wait_for(ws.recv(), 300))
        assert reply["type"] == "observation", reply
        return ws

    peak = 0
    for batch in range(5):
        sockets = await asyncio.gather(*(open_and_reset() for _ in range(10)))
        held = await asyncio.to_thread(ui_server.stats)
        peak = max(peak, held["browser_contexts"] - base["browser_contexts"])
        assert held["sessions"] == 10, held
        for ws in sockets:
            ws.transport.abort()  # dropped: no close frame, the TCP connection cut
    assert peak >= 10  # the count sees the sessions' contexts while they live

    deadline = time.monotonic() + 120
    while True:
        now = await asyncio.to_thread(ui_server.stats)
        if now["sessions"] == 0 and now["browser_contexts"] == base["browser_contexts"]:
            break
        assert time.monotonic() < deadline, (base, now)
        await asyncio.sleep(0.5)
    # and the server still serves
    with client(ui_server).sync() as env:
        assert env.reset(task=TASKS["mail"]).observation.screenshot
