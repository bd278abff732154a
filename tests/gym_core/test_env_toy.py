"""The env's contract on a tiny fixture app: isolation, the closed browser, bad actions, the clock."""

from __future__ import annotations

import asyncio

import pytest

from playwright.async_api import Error as PlaywrightError

from gym_core import AsyncUIEnv, EnvConfig
from gym_core.env import CAPTURE_TRIES

TOY = "tests.fixture_apps.toy"


async def star_point(env: AsyncUIEnv, title: str) -> tuple[int, int]:
    b = await env.page.get_by_role("button", name=f"Star {title}").bounding_box()
    return int(b["x"] + b["width"] / 2), int(b["y"] + b["height"] / 2)


async def test_step_changes_world_and_bad_actions_cost_a_step(runtime):
    env = AsyncUIEnv(TOY, runtime=runtime)
    try:
        obs, info = await env.reset(seed=1)
        assert obs["screenshot"].shape == (720, 1280, 3) and obs["screenshot"].dtype.name == "uint8"
        assert obs["url"] == "/" and obs["step"] == 0 and obs["last_action_error"] == ""

        obs, r, term, trunc, _ = await env.step({"type": "click", "x": 1280, "y": 10})
        assert "outside the 1280x720 screen" in obs["last_action_error"]
        assert (r, term, trunc, obs["step"]) == (0.0, False, False, 1)

        obs, *_ = await env.step({"type": "keypress", "keys": ["NoSuchKey"]})
        assert "unknown key 'NoSuchKey'" in obs["last_action_error"]
        obs, *_ = await env.step({"type": "teleport"})
        assert "unknown action type 'teleport'" in obs["last_action_error"]
        obs, *_ = await env.step({"type": "click", "x": "left"})
        assert obs["last_action_error"].startswith("bad click action")

        x, y = await star_point(env, "Note 1-2")
        obs, *_ = await env.step({"type": "click", "x": x, "y": y})
        assert obs["last_action_error"] == "" and obs["step"] == 5
        state = await env.state()
        assert [n["starred"] for n in state["notes"]] == [False, True, False, False, False]
    finally:
        await env.close()


async def test_parallel_worlds_are_isolated(runtime):
    a, b = AsyncUIEnv(TOY, runtime=runtime), AsyncUIEnv(TOY, runtime=runtime)
    try:
        await asyncio.gather(a.reset(seed=2), b.reset(seed=2))
        pa, pb = await star_point(a, "Note 2-1"), await star_point(b, "Note 2-3")
        await asyncio.gather(a.step({"type": "click", "x": pa[0], "y": pa[1]}),
                             b.step({"type": "click", "x": pb[0], "y": pb[1]}))
        sa, sb = await asyncio.gather(a.state(), b.state())
        assert [n["starred"] for n in sa["notes"]] == [True, False, False, False, False]
        assert [n["starred"] for n in sb["notes"]] == [False, False, True, False, False]
        # And each page shows only its own world.
        assert await a.page.get_by_role("button", name="Unstar Note 2-1").count() == 0  # not reloaded yet
        await a.page.reload()
        assert await a.page.get_by_role("button", name="Unstar Note 2-1").count() == 1
        assert await a.page.get_by_role("button", name="Unstar Note 2-3").count() == 0
    finally:
        await a.close()
        await b.close()


async def test_reset_restores_the_pristine_world_and_same_pixels(runtime):
    env = AsyncUIEnv(TOY, runtime=runtime)
    try:
        obs0, _ = await env.reset(seed=4)
        s0 = await env.state()
        png0 = env.last_png
        x, y = await star_point(env, "Note 4-1")
        await env.step({"type": "click", "x": x, "y": y})
        assert (await env.state()) != s0
        obs1, _ = await env.reset(seed=4)
        assert await env.state() == s0
        assert env.last_png == png0
        assert (obs1["screenshot"] == obs0["screenshot"]).all()
    finally:
        await env.close()


async def test_reset_phases_account_for_the_reset(runtime):
    """AsyncUIEnv.reset_phases (what bench/reset.py prints against the floor): every phase measured, none
    negative, together the whole reset; a reset that parks the last episode's tab says so."""
    env = AsyncUIEnv(TOY, runtime=runtime)
    try:
        await env.reset(seed=1)
        first = dict(env.reset_phases)
        assert first["park"] < 1  # nothing to park before the first episode
        await env.reset(seed=1)
        ph = env.reset_phases
        assert set(ph) == {"park", "world", "open", "capture", "observe", "total"}
        assert all(v >= 0 for v in ph.values()) and ph["park"] > 0 and ph["capture"] > 0 and ph["open"] > 0
        assert abs(sum(v for k, v in ph.items() if k != "total") - ph["total"]) < 1.0
    finally:
        await env.close()


async def test_a_parked_tab_stays_bound_to_its_world(runtime):
    """park_tab wipes the tab and parks it, still bound to the env's world (cookie and clock): the QA driver resets
    the world and loads its page itself after parking (a park that unbound it left every QA replay on a page
    of no world)."""
    env = AsyncUIEnv(TOY, runtime=runtime)
    try:
        await env.reset(seed=2)
        assert await env.park_tab()
        assert [c["name"] for c in await env.context.cookies()] == ["uigym_world"]
        await env.page.goto(env.server.url + "/")
        assert await env.page.get_by_role("button", name="Star Note 2-1").count() == 1
        assert await env.page.evaluate("new Date().toISOString()") == "2026-03-12T10:24:00.000Z"
    finally:
        await env.close()


async def test_browser_clock_is_the_worlds_frozen_now(runtime):
    env = AsyncUIEnv(TOY, runtime=runtime)
    try:
        await env.reset(seed=0)
        shown = await env.page.locator("#clock").text_content()
        assert shown == "2026-03-12T10:24:00.000Z"
        await asyncio.sleep(0.3)
        assert await env.page.evaluate("new Date().toISOString()") == "2026-03-12T10:24:00.000Z"
    finally:
        await env.close()


async def test_navigation_and_typing_settle(runtime):
    env = AsyncUIEnv(TOY, runtime=runtime)
    try:
        await env.reset(seed=0)
        link = await env.page.get_by_role("link", name="Second page").bounding_box()
        obs, *_ = await env.step({"type": "click", "x": int(link["x"] + 5), "y": int(link["y"] + 5)})
        assert obs["url"] == "/second"
        back = await env.page.get_by_role("link", name="Back").bounding_box()
        obs, *_ = await env.step({"type": "click", "x": int(back["x"] + 5), "y": int(back["y"] + 5)})
        assert obs["url"] == "/"
        box = await env.page.get_by_role("textbox", name="Title").bounding_box()
        await env.step({"type": "click", "x": int(box["x"] + 5), "y": int(box["y"] + 5)})
        await env.step({"type": "type", "text": "Buy milk"})
        obs, *_ = await env.step({"type": "keypress", "keys": ["Enter"]})
        titles = [n["title"] for n in (await env.state())["notes"]]
        assert titles[-1] == "Buy milk"
        assert await env.page.get_by_text("Buy milk").count() == 1  # the post-redirect page is loaded
    finally:
        await env.close()


async def test_crashed_page_is_recovered_and_reported(runtime):
    env = AsyncUIEnv(TOY, runtime=runtime)
    try:
        await env.reset(seed=0)
        x, y = await star_point(env, "Note 0-1")
        await env.page.close()  # as if the tab crashed
        obs, r, term, trunc, info = await env.step({"type": "click", "x": x, "y": y})
        assert "recovered" in obs["last_action_error"]
        assert info["recovered"] == 1 and not term
        obs, *_ = await env.step({"type": "click", "x": x, "y": y})
        assert obs["last_action_error"] == ""
        assert (await env.state())["notes"][0]["starred"] is True
    finally:
        await env.close()


async def test_screenshot_lost_to_a_navigation_commit_is_taken_again_not_reported(runtime):
    """Chromium drops a capture whose document is replaced under it ("Not attached to an active page"):
    while the tab is alive it is taken again, unseen by the agent (counted in info); a tab that cannot give
    a frame at all is reopened where it is (tests/gym_core/test_recovery.py has every case)."""
    env = AsyncUIEnv(TOY, runtime=runtime)
    try:
        await env.reset(seed=0)
        failures = []

        async def lose(_env):
            if failures:
                failures.pop()
                raise PlaywrightError("Protocol error (Page.captureScreenshot): Not attached to an active page")

        env.capture_fault = lose
        failures[:] = ["lost"]
        x, y = await star_point(env, "Note 0-1")
        obs, _, term, _, info = await env.step({"type": "click", "x": x, "y": y})
        assert obs["last_action_error"] == "" and info["recovered"] == 1 and not term
        assert obs["screenshot"].shape == (720, 1280, 3) and obs["screenshot"].any()
        assert not failures  # the loss did happen

        failures[:] = ["lost"] * CAPTURE_TRIES
        obs, *_, info = await env.step({"type": "scroll", "x": 640, "y": 360, "dy": 100})
        assert "recovered by reopening the page at /" in obs["last_action_error"] and info["recovered"] == 2
    finally:
        await env.close()


async def test_crashed_app_server_is_restarted(runtime):
    env = AsyncUIEnv(TOY, runtime=runtime)
    try:
        await env.reset(seed=0)
        env.server.proc.kill()
        env.server.proc.wait()
        obs, info = await env.reset(seed=0)  # the pool restarts the server, the episode starts
        assert env.server.alive() and obs["url"] == "/"
    finally:
        await env.close()


async def test_hung_page_is_recovered_not_waited_on_forever(runtime):
    env = AsyncUIEnv(TOY, config=EnvConfig(action_timeout_s=3), runtime=runtime)
    try:
        await env.reset(seed=0)
        b = await env.page.get_by_role("button", name="Freeze").bounding_box()
        # The click lands, then the page's main thread spins forever: no step may wait forever. Chromium
        # can still answer the click step's screenshot from its compositor (on a quiet machine the spin
        # starts after it), so the hang surfaces on that step or at the latest on the next action.
        obs, *_ = await env.step({"type": "click", "x": int(b["x"] + 5), "y": int(b["y"] + 5)})
        if not obs["last_action_error"]:
            obs, *_ = await env.step({"type": "type", "text": "x"})
        err = obs["last_action_error"]
        assert ("did not respond" in err or "page hung" in err) and "recovered" in err, err
        assert obs["url"] == "/" and env.stats.recovered >= 1
        x, y = await star_point(env, "Note 0-1")
        obs, *_ = await env.step({"type": "click", "x": x, "y": y})
        assert obs["last_action_error"] == ""
        assert (await env.state())["notes"][0]["starred"] is True
    finally:
        await env.close()


async def test_reused_tab_is_as_clean_as_a_new_context(runtime):
    """reset() wipes the env's tab instead of opening a new context: nothing of the last episode may
    show through (storage, cookies, history, hover, another world's cached images, extra tabs)."""
    env = AsyncUIEnv(TOY, runtime=runtime)
    fresh = AsyncUIEnv(TOY, runtime=runtime, config=EnvConfig(reuse_context=False))
    try:
        await env.reset(seed=5)
        ctx, page = env.context, env.page
        await page.evaluate("""() => { sessionStorage.setItem('s', 1); localStorage.setItem('l', 1);
                                       document.cookie = 'leftover=1; path=/'; }""")
        await ctx.new_page()  # another tab (the app's pages cannot open one: their CSP has no allow-popups)
        await page.goto(env.server.url + "/second")
        await page.go_back()
        x, y = await star_point(env, "Note 5-2")
        await env.step({"type": "click", "x": x, "y": y})  # leaves the button hovered

        obs, _ = await env.reset(seed=6)
        assert env.context is ctx and env.page is page  # the same tab, reused
        assert len(ctx.pages) == 1
        leftovers = await page.evaluate("""() => [sessionStorage.length, localStorage.length, document.cookie,
                                                 history.length]""")
        assert leftovers == [0, 0, "", 1]  # the world cookie is HttpOnly: not in document.cookie
        assert [c["name"] for c in await ctx.cookies()] == ["uigym_world"]

        # Same pixels as a brand-new context on the same world: no hover, no seed-5 badges from the cache.
        obs_fresh, _ = await fresh.reset(seed=6)
        assert env.last_png == fresh.last_png
        assert (obs["screenshot"] == obs_fresh["screenshot"]).all()
    finally:
        await env.close()
        await fresh.close()


async def test_a_reset_of_a_hung_tab_opens_a_new_context(runtime):
    env = AsyncUIEnv(TOY, runtime=runtime, config=EnvConfig(action_timeout_s=3))
    try:
        await env.reset(seed=0)
        ctx = env.context
        await env.page.evaluate("setTimeout(() => { while (true) {} }, 0)")
        obs, _ = await asyncio.wait_for(env.reset(seed=0), 60)
        assert env.context is not ctx
        assert obs["url"] == "/" and obs["last_action_error"] == ""
    finally:
        await env.close()


async def test_scroll_is_on_screen_when_the_step_returns(runtime):
    """Chromium scrolls on its compositor thread; the step waits for the scroll event, so the page (and
    the step's screenshot) already show it: in a scroll box, on the page, and not at all past the end."""
    env = AsyncUIEnv(TOY, runtime=runtime)
    try:
        await env.reset(seed=1, start_path="/long")
        obs, *_ = await env.step({"type": "scroll", "x": 100, "y": 100, "dx": 0, "dy": 200})
        assert obs["last_action_error"] == ""
        assert await env.page.evaluate("() => [document.getElementById('box').scrollTop, scrollY]") == [200, 0]
        await env.step({"type": "scroll", "x": 100, "y": 600, "dx": 0, "dy": 300})
        assert await env.page.evaluate("() => scrollY") == 300
        shot = obs["screenshot"]
        obs, *_ = await env.step({"type": "scroll", "x": 100, "y": 600, "dx": 0, "dy": 10**6})
        bottom = await env.page.evaluate("() => document.scrollingElement.scrollHeight - innerHeight")
        assert await env.page.evaluate("() => scrollY") == bottom
        obs2, *_ = await env.step({"type": "scroll", "x": 100, "y": 600, "dx": 0, "dy": 500})  # nothing left
        assert obs2["last_action_error"] == "" and (obs2["screenshot"] == obs["screenshot"]).all()
        assert not (shot == obs["screenshot"]).all()
    finally:
        await env.close()


async def test_screenshots_off_takes_none_and_keeps_the_contract(runtime):
    """EnvConfig(screenshots=False) (task validation's scripted probes): no capture at all (the fault seam
    would raise), a blank frame of the viewport's shape inside the observation space, and the actions and the
    world exactly as with screenshots."""
    from gym_core.spaces import observation_space

    env = AsyncUIEnv(TOY, EnvConfig(screenshots=False, viewport=(800, 600)), runtime=runtime)

    async def never(_env):
        raise AssertionError("a screenshot was taken")

    env.capture_fault = never
    try:
        obs, _ = await env.reset(seed=3)
        assert obs["screenshot"].shape == (600, 800, 3) and not obs["screenshot"].any()
        assert observation_space(env.config).contains(obs) and env.last_png is None
        x, y = await star_point(env, "Note 3-2")
        obs, *_ = await env.step({"type": "click", "x": x, "y": y})
        assert obs["last_action_error"] == "" and observation_space(env.config).contains(obs)
        assert [n["starred"] for n in (await env.state())["notes"]] == [False, True, False, False, False]
    finally:
        await env.close()
