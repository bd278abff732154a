"""Recovery keeps what the action did (issue #36), and an observation on Chromium's own error page says so (#42).

Faults go in through the env's one seam for them, `AsyncUIEnv.capture_fault` (awaited before every
screenshot; what it raises, the screenshot raises). Each case is an action with an effect of its own on the
toy app: a click that navigates, a change in place (a fetch), a form POST that redirects. Whatever the
browser does to the screenshots after it, the episode goes on at the page the action reached, with the
action's effect in the world exactly once, and info["recovered"] counts it; only a tab that is gone is
reopened, at the last page it reached.
"""

from __future__ import annotations

import asyncio
from typing import Awaitable, Callable

import pytest
from hypothesis import given, strategies as st
from playwright.async_api import Error as PlaywrightError

from agent_harness.agents import OracleAgent
from gym_core import AsyncUIEnv
from gym_core.env import CAPTURE_TRIES, png_to_array
from gym_core.tab import display_url
from tasks import load_task

TOY = "tests.fixture_apps.toy"
UNABLE = "Protocol error (Page.captureScreenshot): Unable to capture screenshot"


class CaptureFaults:
    """A capture_fault: the next `n` screenshots fail as Chromium fails them, after `before(env)` (e.g. closing
    the tab) has run; then screenshots are left alone."""

    def __init__(self) -> None:
        self.left = 0
        self.raised = 0
        self.before: Callable[[AsyncUIEnv], Awaitable[None]] | None = None

    def arm(self, n: int, before: Callable[[AsyncUIEnv], Awaitable[None]] | None = None) -> None:
        self.left, self.raised, self.before = n, 0, before

    async def __call__(self, env: AsyncUIEnv) -> None:
        if self.left <= 0:
            return
        self.left -= 1
        self.raised += 1
        if self.before is not None:
            before, self.before = self.before, None
            await before(env)
        raise PlaywrightError(UNABLE)


async def center(env: AsyncUIEnv, role: str, name: str) -> tuple[int, int]:
    b = await env.page.get_by_role(role, name=name).bounding_box()
    return int(b["x"] + b["width"] / 2), int(b["y"] + b["height"] / 2)


# Each case: (steps before the faulted one, the faulted action) from the toy's home page; the URL the
# action reaches; what the world must show (exactly once) afterwards.
async def _navigating_click(env: AsyncUIEnv) -> dict:
    x, y = await center(env, "link", "Second page")
    return {"type": "click", "x": x, "y": y}


async def _in_place_change(env: AsyncUIEnv) -> dict:
    x, y = await center(env, "button", "Star Note 0-1")
    return {"type": "click", "x": x, "y": y}


async def _form_post(env: AsyncUIEnv) -> dict:
    x, y = await center(env, "textbox", "Title")
    for a in ({"type": "click", "x": x, "y": y}, {"type": "type", "text": "Buy milk"}):
        obs, *_ = await env.step(a)
        assert obs["last_action_error"] == ""
    return {"type": "keypress", "keys": ["Enter"]}


def _world_after(kind: str, state: dict) -> None:
    notes = state["notes"]
    if kind == "navigating click":
        assert len(notes) == 5 and not any(n["starred"] for n in notes)
    elif kind == "in-place change":
        assert [n["starred"] for n in notes] == [True, False, False, False, False]
    else:  # posted once: not lost, not sent again
        assert [n["title"] for n in notes].count("Buy milk") == 1 and len(notes) == 6


CASES = {"navigating click": (_navigating_click, "/second"),
         "in-place change": (_in_place_change, "/"),
         "form POST that redirects": (_form_post, "/")}


@pytest.mark.parametrize("kind", list(CASES))
async def test_failed_screenshots_after_an_action_keep_what_it_did(runtime, kind):
    """0 to CAPTURE_TRIES-1 failed screenshots: the same tab, looked at again, nothing told the agent;
    CAPTURE_TRIES (a tab alive but unable to give a frame): reopened at the page the action reached."""
    prepare, reached = CASES[kind]
    faults = CaptureFaults()
    env = AsyncUIEnv(TOY, runtime=runtime)
    env.capture_fault = faults
    try:
        for n in range(CAPTURE_TRIES + 1):
            await env.reset(seed=0)
            action = await prepare(env)
            page = env.page
            await page.evaluate("window.__same_document = true")
            faults.arm(n)
            obs, _, term, trunc, info = await env.step(action)
            case = f"{kind}, {n} failed screenshots: {obs['last_action_error']!r}"
            assert faults.raised == n, case
            assert not term and not trunc, case
            assert obs["url"] == reached and env.page.url == env.server.url + reached, case
            assert info["recovered"] == (1 if n else 0), case
            _world_after(kind, await env.state())
            if n < CAPTURE_TRIES:
                assert obs["last_action_error"] == "" and env.page is page, case
                # An in-place change is still the same document: nothing was reloaded.
                kept = await page.evaluate("window.__same_document === true")
                assert kept == (kind == "in-place change"), case
            else:
                assert obs["last_action_error"] == (
                    f"browser error ({UNABLE}); recovered by reopening the page at {reached}"), case
                assert env.page is not page, case
            # The observation is the page as it is now, not an older picture.
            assert (obs["screenshot"] == png_to_array(await env.capture())).all(), case
            # The episode goes on from there.
            obs, *_ = await env.step({"type": "screenshot"})
            assert obs["last_action_error"] == "" and obs["url"] == reached, case
        _world_after(kind, await env.state())
    finally:
        await env.close()


async def _close_tab(env: AsyncUIEnv) -> None:
    await env.page.close()


async def _crash_tab(env: AsyncUIEnv) -> None:
    try:  # the renderer dies with the call: it may never answer
        await asyncio.wait_for(env.cdp.send("Page.crash"), 2)
    except (PlaywrightError, asyncio.TimeoutError):
        pass


@pytest.mark.parametrize("kind,gone", [("navigating click", _close_tab), ("form POST that redirects", _crash_tab)],
                         ids=["closed after a navigating click", "crashed after a form POST"])
async def test_a_tab_gone_after_an_action_is_reopened_where_the_action_got_to(runtime, kind, gone):
    prepare, reached = CASES[kind]
    faults = CaptureFaults()
    env = AsyncUIEnv(TOY, runtime=runtime)
    env.capture_fault = faults
    try:
        await env.reset(seed=0)
        action = await prepare(env)
        ctx = env.context
        faults.arm(1, before=gone)
        obs, _, term, _, info = await env.step(action)
        assert faults.raised == 1 and not term
        assert obs["url"] == reached and env.context is not ctx
        assert obs["last_action_error"].endswith(f"recovered by reopening the page at {reached}"), obs["last_action_error"]
        assert info["recovered"] == 1
        _world_after(kind, await env.state())
        x, y = await center(env, "button", "Star Note 0-2") if reached == "/" else await center(env, "link", "Back")
        obs, *_ = await env.step({"type": "click", "x": x, "y": y})
        assert obs["last_action_error"] == "" and obs["url"] == "/"
    finally:
        await env.close()


async def test_gold_solution_scores_with_a_screenshot_lost_after_its_typeahead_click(runtime):
    """The eval failure of issue #36: crm/contact-phone-01's click on a search result navigates to the
    contact, the screenshots after it fail, and the oracle's next target must still be there."""
    task = load_task("crm/contact-phone-01")
    faults = CaptureFaults()
    env = AsyncUIEnv(None, runtime=runtime)
    env.capture_fault = faults
    try:
        obs, _ = await env.reset(task=task)
        start = obs["url"]
        agent = OracleAgent()
        await agent.reset(env, task)
        faulted = None
        while True:
            action = await agent.act(obs)
            if faulted is None and agent.last_text == "oracle: click":  # the solution's first click: the result
                faults.arm(CAPTURE_TRIES - 1)
                faulted = env.steps + 1
            obs, reward, term, trunc, info = await env.step(action)
            assert obs["last_action_error"] == "", (env.steps, obs["last_action_error"])
            if env.steps == faulted:
                assert faults.raised == CAPTURE_TRIES - 1 and info["recovered"] == 1
                assert obs["url"] != start and "/Contact/" in obs["url"], obs["url"]
            if term or trunc:
                break
        assert faulted is not None and reward == 1.0, info["verify"]
        assert info["recovered"] == 1
    finally:
        await env.close()


async def test_an_observation_on_the_browsers_error_page_says_so(runtime):
    """A load Chromium cannot complete (a header past its limit; a request the env's guard blocks) shows its
    own error page: the observation's url is what failed to load and last_action_error says why; Back
    (Alt+ArrowLeft) returns to the app."""
    env = AsyncUIEnv(TOY, runtime=runtime)
    try:
        await env.reset(seed=0, start_path="/broken")
        app = env.server.url
        x, y = await center(env, "link", "Huge header")
        obs, _, term, _, info = await env.step({"type": "click", "x": x, "y": y})
        assert env.page.url.startswith("chrome-error://") and not term
        assert obs["url"] == "/huge-header"
        assert obs["last_action_error"] == f"the browser could not load {app}/huge-header: net::ERR_RESPONSE_HEADERS_TOO_BIG"
        assert env.trajectory[-1]["error"] == obs["last_action_error"]
        assert info["recovered"] == 0
        obs, *_ = await env.step({"type": "scroll", "x": 640, "y": 360, "dy": 100})  # still there: still said
        assert "ERR_RESPONSE_HEADERS_TOO_BIG" in obs["last_action_error"]

        obs, *_ = await env.step({"type": "keypress", "keys": ["alt", "left"]})
        assert obs["url"] == "/broken" and obs["last_action_error"] == ""

        x, y = await center(env, "link", "Another origin")
        obs, *_ = await env.step({"type": "click", "x": x, "y": y})
        assert obs["url"] == "http://127.0.0.1:9/elsewhere"
        assert obs["last_action_error"] == ("the browser could not load http://127.0.0.1:9/elsewhere: "
                                            "net::ERR_BLOCKED_BY_CLIENT (only the app's own pages can be opened)")
        obs, *_ = await env.step({"type": "keypress", "keys": ["Alt", "ArrowLeft"]})
        assert obs["url"] == "/broken" and obs["last_action_error"] == ""
        obs, *_ = await env.step({"type": "keypress", "keys": ["Alt", "ArrowRight"]})  # Forward: the error again
        assert "ERR_BLOCKED_BY_CLIENT" in obs["last_action_error"]
        obs, *_ = await env.step({"type": "keypress", "keys": ["Alt", "ArrowLeft"]})
        x, y = await center(env, "link", "Huge header")  # the app's page works as before
        assert obs["url"] == "/broken"
    finally:
        await env.close()


# ---------------------------------------------------------------- the observation's url, without a browser
APP = "http://127.0.0.1:5001"
_segment = st.text(st.sampled_from("abcXYZ09-._~%"), max_size=6)
_paths = st.lists(_segment, max_size=4).map(lambda parts: "/" + "/".join(parts))
_query = st.one_of(st.just(""), st.text(st.sampled_from("ab=&%20+"), min_size=1, max_size=8).map(lambda q: "?" + q))
_fragment = st.one_of(st.just(""), st.text(st.sampled_from("ab-_"), min_size=1, max_size=5).map(lambda f: "#" + f))


@given(path=_paths, query=_query, fragment=_fragment)
def test_a_page_of_the_app_is_shown_as_its_path(path, query, fragment):
    shown = display_url(APP + path + query + fragment, APP)
    assert shown == path + query + fragment and APP + shown == APP + path + query + fragment


@given(url=st.one_of(
    st.builds(lambda host, port, path: f"http://{host}:{port}{path}",
              st.sampled_from(["127.0.0.1", "localhost", "example.com"]), st.integers(1, 65535), _paths),
    st.builds(lambda path: "https://127.0.0.1:5001" + path, _paths),
    st.sampled_from(["chrome-error://chromewebdata/", "about:blank", "data:text/html,x",
                     "http://user:pw@127.0.0.1:5001/"])))
def test_a_url_off_the_apps_origin_is_shown_whole(url):
    shown = display_url(url, APP)
    if url.startswith(APP + "/"):
        assert shown == url[len(APP):]
    else:
        assert shown == url
