"""A look per episode in the env (issue #37): reset(look=...) shows the pages in that look, the look is in
`info`, a look the task's template is not carried by is refused with a clear message, the hybrid mode's
tools work in a second look (the tool surface is look-independent), and the Gymnasium face takes `look`."""

from __future__ import annotations

import gymnasium
import pytest

from apps import app_surface
from apps._shared.looks import UnknownLook
from gym_core import AsyncUIEnv, EnvConfig
from tasks import load_tasks

TASKS = load_tasks()


def _carried(app: str, look: str):
    lk = app_surface(app).looks[look]
    return next((t for t in TASKS if t.app == app and t.tools is not None and not t.tools.unsupported
                 and lk.carries(t.template)), None)


async def test_hybrid_tools_work_in_the_second_look_and_the_page_stays_in_it(runtime):
    task = _carried("mail", "outlook")
    if task is None:
        pytest.fail("the outlook look carries no mail template with a tool plan")
    env = AsyncUIEnv("mail", config=EnvConfig(tools=True, screenshots=False, images=False), runtime=runtime)
    try:
        obs, info = await env.reset(task=task, look="outlook")
        assert info["look"] == "outlook" and info["reset"]["look"] == "outlook"
        assert "Quill Mail" in await env.page.title()  # the look's brand, not the default look's
        for call in task.tools.solution:
            action = {"type": "done", **call.args} if call.tool == "done" else \
                {"type": "tool", "name": call.tool, "args": call.args}
            obs, reward, term, trunc, info = await env.step(action)
            assert obs["last_action_error"] == "", call
        assert term and reward == 1.0
        assert "Quill Mail" in await env.page.title()  # reloaded after the calls, still in the look
        obs, info = await env.reset(task=task)  # the next episode: the config's look again (the default)
        assert info["look"] == "gmail" and "Inkbox" in await env.page.title()
    finally:
        await env.close()


async def test_a_look_that_does_not_carry_the_template_is_refused(runtime):
    """A look that has not proved a template refuses its tasks at reset (here a look carrying one template)."""
    import dataclasses

    surface = app_surface("crm")
    saved = surface.looks["hubspot"]
    task = next(t for t in TASKS if t.app == "crm")
    surface.looks["hubspot"] = dataclasses.replace(saved, covers=frozenset({"no-such-template"}))
    env = AsyncUIEnv("crm", config=EnvConfig(screenshots=False, images=False), runtime=runtime)
    try:
        with pytest.raises(UnknownLook, match="does not carry template"):
            await env.reset(task=task, look="hubspot")
        _, info = await env.reset(task=task, look="random")  # drawn among the looks that carry it: the default
        assert info["look"] == "salesforce"
    finally:
        surface.looks["hubspot"] = saved
        await env.close()


def test_gym_make_takes_a_look_and_passes_check_env():
    from gymnasium.utils.env_checker import check_env

    task = _carried("food", "ubereats")
    if task is None:
        pytest.fail("the ubereats look carries no food template")
    env = gymnasium.make("uigym/food-v0", look="ubereats", task=task, viewport=(640, 400))
    try:
        check_env(env.unwrapped, skip_render_check=True)
        _, info = env.reset(seed=3)
        assert info["look"] == "ubereats"
        _, info = env.reset(seed=3, options={"look": "doordash"})
        assert info["look"] == "doordash"
    finally:
        env.close()
    # a look drawn per episode: the same seed draws the same look, and check_env's determinism holds
    env = gymnasium.make("uigym/food-v0", look="random", task=task, viewport=(640, 400))
    try:
        check_env(env.unwrapped, skip_render_check=True)
        looks = {env.reset(seed=s)[1]["look"] for s in range(12)}
        assert looks == {"doordash", "ubereats"}
        assert env.reset(seed=5)[1]["look"] == env.reset(seed=5)[1]["look"]
    finally:
        env.close()
