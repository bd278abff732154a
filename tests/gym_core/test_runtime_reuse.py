"""A closed runtime serves its next user (gym_core/runtime.py): an in-process eval or validation closes the loop's
runtime in its `finally`, and whatever shares that runtime afterwards (a session fixture, the next test in the worker)
gets its browser, Playwright's driver and its control-API client opened again, instead of "the client has been
closed" or a dead browser."""

from __future__ import annotations

from gym_core import AsyncUIEnv
from gym_core.runtime import Runtime


async def test_an_env_on_a_closed_runtime_resets_steps_and_grades():
    rt = Runtime()
    first = AsyncUIEnv("mail", runtime=rt)
    try:
        await first.reset(seed=0)
        launches = rt.browser_launches
        await first.close()
        await rt.close()  # what an in-process `uigym eval`'s finally does to the runtime it shares

        again = AsyncUIEnv("mail", runtime=rt)
        try:
            obs, info = await again.reset(seed=0)
            assert obs["url"].endswith("/") or "inbox" in obs["url"], obs["url"]
            obs, reward, terminated, truncated, info = await again.step({"type": "scroll", "x": 640, "y": 400,
                                                                         "dx": 0, "dy": 200})
            assert not info.get("last_action_error"), info
            state = await rt.control(await rt.server("mail")).state(again.world_id)  # the control API's client
            assert state and "messages" in state
        finally:
            await again.close()
        assert rt.browser_launches == launches + 1
    finally:
        await rt.close()
