"""AsyncUIEnv: one agent's view of one world, through one browser context in a shared Chromium.

This file is the episode (reset, act, observe, recover, close); the tab's lifecycle is gym_core/tab.py and
the mouse and keyboard with the wait for an action's effects are gym_core/page_input.py.

    env = AsyncUIEnv("mail")
    obs, info = await env.reset(task="mail/star-latest-from-ana")
    obs, reward, terminated, truncated, info = await env.step({"type": "click", "x": 400, "y": 200})

Reward is 0 until the episode ends (a `done` action or max_steps); then it is the verifier's score.
A bad action never ends the episode: it is reported in `last_action_error` and costs a step.
"""

from __future__ import annotations

import asyncio
import base64
import functools
import io
import time
from typing import Any, Awaitable, Callable

import numpy as np
from PIL import Image

try:
    import pyspng
except ImportError:  # pragma: no cover - optional speed-up
    pyspng = None
from playwright.async_api import Error as PlaywrightError

from apps import load_app_module

from gym_core.actions import ACTION_TYPES, HYBRID_ACTION_TYPES, Action, ToolUse, parse_action
from gym_core.config import EnvConfig
from gym_core.page_input import PageInput
from gym_core.page_scripts import MARKS_JS
from gym_core.perturb import draw, extra_steps, overlay_script, parse_perturb
from gym_core.variant import Variant, draw_variant, screen
from gym_core.runtime import Runtime
from gym_core.tab import app_path
from gym_core.spaces import (
    A11Y_TREE_MAX_CHARS, ERROR_MAX_CHARS, MARK_TEXT_MAX_CHARS, MAX_MARKS, OBSERVATION_OPTIONS, URL_MAX_CHARS, clip_text,
)
from gym_core.world_env import WorldEnv
from tasks import Task

CAPTURE_TRIES = 3  # screenshots of a live page before it is reopened (_capture_kept)


def _first_line(err: PlaywrightError) -> str:
    return ((err.message or str(err)).splitlines() or [""])[0]


def png_to_array(png: bytes) -> np.ndarray:
    """PNG -> HxWx3 uint8. libspng (pyspng) decodes about 3x faster than Pillow's path to numpy."""
    if pyspng is not None:
        arr = pyspng.load(png)
        return arr[..., :3] if arr.shape[-1] == 4 else arr
    with Image.open(io.BytesIO(png)) as im:
        return np.asarray(im.convert("RGB"), dtype=np.uint8)


@functools.lru_cache(maxsize=4)
def _blank_frame(width: int, height: int) -> np.ndarray:
    """The observation's screenshot when none is taken: one read-only black frame per viewport size."""
    frame = np.zeros((height, width, 3), dtype=np.uint8)
    frame.flags.writeable = False
    return frame


class AsyncUIEnv(PageInput, WorldEnv):
    def __init__(self, app: str | None = None, config: EnvConfig | None = None, runtime: Runtime | None = None,
                 world_id: str | None = None):
        super().__init__(app, config or EnvConfig(), runtime, world_id)
        self._init_tab()
        self.allowed_actions = HYBRID_ACTION_TYPES if self.config.tools else ACTION_TYPES
        self._park_s = self._capture_s = 0.0
        self.reset_phases: dict[str, float] = {}  # the last reset's phases in ms (see `reset`)

    @property
    def width(self) -> int:
        """The screen's width: the episode's drawn viewport (EnvConfig.perturb), else the configured one."""
        return (self.drawn.viewport or self.config.viewport)[0]

    @property
    def height(self) -> int:
        return (self.drawn.viewport or self.config.viewport)[1]

    def to_screen(self, x: float, y: float) -> tuple[int, int]:
        """A point of the page (CSS pixels of the viewport, what the DOM reads) as a point of the screen."""
        z = self.zoom
        return (int(x), int(y)) if z == 1.0 else (int(round(x * z)), int(round(y * z)))

    def begin_episode(self) -> None:
        """The caller reset the world and loaded a page itself: count steps from zero again."""
        self.steps, self.done, self.last_error = 0, False, ""

    async def perform(self, action: Any) -> None:
        """One action through the env's input path and settle, counted as a step, without the observation
        `step` takes (the caller screenshots when it needs to). Raises ActionError for a bad action."""
        self.steps += 1
        await self._perform(parse_action(action))

    # ------------------------------------------------------------------ reset
    async def reset(self, *, task: Task | str | dict | None = None, seed: int | None = None,
                    start_path: str | None = None, look: str | list[str] | None = None) -> tuple[dict, dict]:
        t0 = time.perf_counter()
        self._park_s = self._capture_s = 0.0
        task, reset_info = await self.reset_unopened(task=task, seed=seed, look=look)
        t1 = time.perf_counter()
        path = start_path or (task.start_path if task else "/")
        await self._open_page(self.server.url + path, parked=self._parked)
        t2 = time.perf_counter()
        obs = await self._observe()
        t3 = time.perf_counter()
        extra = {"tools": await self.tools()} if self.config.tools else {}
        if parse_perturb(self.config.perturb).any:
            extra["perturb"] = self.drawn.info()
        extra["variant"] = self.variant_info()
        info = self._info(reset=reset_info, **extra)
        t4 = time.perf_counter()
        # Where the reset went, in ms (bench/env.py prints it against the floor): the last episode's tab parked,
        # the world reset (control API, start state), the page opened (wipe, binding, load, fonts, late
        # requests), the first screenshot, and the observation and info built around it.
        self.reset_phases = {
            "park": self._park_s * 1000, "world": (t1 - t0 - self._park_s) * 1000, "open": (t2 - t1) * 1000,
            "capture": self._capture_s * 1000, "observe": (t3 - t2 - self._capture_s + t4 - t3) * 1000,
            "total": (t4 - t0) * 1000}
        return obs, info

    async def reset_unopened(self, *, task: Task | str | dict | None = None, seed: int | None = None,
                             look: str | list[str] | None = None,
                             fixtures: list[dict] | None = None) -> tuple[Task | None, dict]:
        """`reset`'s first half: the world reset and the episode's perturbation drawn, the page not opened yet (the
        workspace env opens a background tab's page when it first comes to the front, and gives each world its
        part of a workspace task's `fixtures`). -> (task, the reset info)."""
        task, app = self._take_task(task)
        reset_info = await self._reset_world(task, app, seed, look, fixtures)
        self._draw_perturbation(app, self.draw_key)
        return task, reset_info

    def _draw_perturbation(self, app: str, key: str) -> None:
        """The episode's screen perturbation (EnvConfig.perturb), drawn from `key`; the tab applies it as it
        opens the page (BrowserTab._apply_screen)."""
        drawn = draw(parse_perturb(self.config.perturb), app, self.look, key)
        # The episode's variant (gym_core/variant.py) over the perturbations' draw: the tab applies both as one screen.
        self.variant = draw_variant(self.config.variant, app, self.look, key, drawn)
        self.drawn = screen(self.variant, drawn)
        self.max_steps += extra_steps(self.drawn)  # the clicks that close the overlays come on top of the budget
        self._overlay_js = overlay_script(self.drawn, app, self._brand(app)) if self.drawn.overlays else None

    def variant_info(self) -> dict | None:
        """The episode's variant as info["variant"], the trajectory and the results row record it (JSON)."""
        v: Variant | None = getattr(self, "variant", None)
        if v is None:
            return None
        from apps import app_looks

        return v.info(app_looks(self.server.app)[0] if self.server is not None else None)

    def _brand(self, app: str) -> str:
        """The name the episode's look shows (an app served here under a name this process cannot import, such as
        a test or third-party clone: its name)."""
        try:
            spec = load_app_module(app).SPEC
        except KeyError:
            return app
        return spec.looks.get(self.look, spec.title)

    async def _before_world_reset(self) -> None:
        t = time.perf_counter()
        self._parked = await self.park_tab()
        self._park_s = time.perf_counter() - t

    # ------------------------------------------------------------------- step
    def _started(self) -> bool:
        return self.page is not None

    async def _act(self, action: Action) -> None:
        try:
            if isinstance(action, ToolUse):
                await self._call_tool(action)
                if self._ctx_origin != self.server.url:
                    # The app server was restarted during the call (WorldEnv._call_tool): the tab belongs to the
                    # old one's origin, so the page is opened again on the new one, at the path it was on.
                    await self._reopen("the app server was restarted")
                else:
                    # The screen shows what the call changed, as after any save: the page is loaded again.
                    await asyncio.wait_for(self._goto(self.page.url), self.config.action_timeout_s)
            else:
                await asyncio.wait_for(self._perform(action), self.config.action_timeout_s)
        except PlaywrightError as e:
            await self._recover(_first_line(e))
        except asyncio.TimeoutError:
            await self._recover(f"the page did not respond within {self.config.action_timeout_s:.0f}s")
        if self.drawn.overlay_step and self.steps == self.drawn.overlay_step:
            await self.show_overlays()  # the variant's overlays arrive mid-episode (gym_core/variant.py)
        self._note_error_page()

    def _page_url(self) -> str:
        return self.page.url if self.page is not None else ""

    async def _before_grade(self) -> None:
        await self._requests_done()

    async def _requests_done(self) -> None:
        """Before grading: a request the page sent late (after the last action settled) lands first,
        so the verifier never reads the world half-way through a save."""
        await self._drain(time.monotonic() + self.config.settle_timeout_ms / 1000)

    # ---------------------------------------------------------------- recover
    # A recovery keeps what the action did. The browser failing an action or a screenshot says nothing of
    # the page by itself (seen: "Unable to capture screenshot" right after a click that navigated, on a
    # loaded machine): while the tab is there, the env waits for what it is doing and looks again, on the
    # page the action reached. Only a tab that is gone (closed, crashed, its browser gone, or hung) is
    # reopened, in a fresh context, at the last page it reached; never at the page before the action, and
    # never by sending a request again (a reopen is a GET of that page). Every recovery counts in
    # info["recovered"]; the agent is told (last_action_error) only when something may be lost: the
    # action itself failed, or the page was reopened (an open dialog, a typed draft).
    async def _recover(self, msg: str) -> None:
        """The action failed in the browser: keep the page if it is there, else reopen it."""
        self.stats.recovered += 1
        if await self.page_alive():
            await self.page_settled()
            self._tell(f"browser error ({msg}); recovered on the same page ({self.shown_url()})")
        else:
            await self._reopen(msg)

    async def _reopen(self, msg: str) -> None:
        """Open the last page the tab reached in a fresh context (the world is intact)."""
        path = app_path(self.reached_url) if self.reached_url else (self.task.start_path if self.task else "/")
        try:
            await asyncio.to_thread(self.server.ensure_alive)  # a restarted server comes back on a new port
            await self._open_page(self.server.url + path, fresh=True)
            self._tell(f"browser error ({msg}); recovered by reopening the page at {path}")
        except Exception as e2:  # noqa: BLE001 - said in last_error, then raised: the episode cannot go on
            self._tell(f"browser error ({msg}); recovery failed: {e2}")
            raise

    def _note_error_page(self) -> None:
        """On Chromium's error page, the agent is told what could not be loaded."""
        err = self.error_page()
        if err:
            self._tell(err)

    def _tell(self, text: str) -> None:
        """Add `text` to what the agent is told about its last action (once, after what is there)."""
        if text not in self.last_error:
            self.last_error = f"{self.last_error}; {text}" if self.last_error else text

    # ---------------------------------------------------------------- observe
    # A test seam for fault injection: awaited at the start of every screenshot the env takes, with the env;
    # what it raises is what the screenshot raises (tests/gym_core/test_recovery.py). None in normal use.
    capture_fault: Callable[["AsyncUIEnv"], Awaitable[None]] | None = None

    async def capture(self) -> bytes:
        """PNG of the viewport, as the agent sees it."""
        if self.capture_fault is not None:
            await self.capture_fault(self)
        # optimizeForSpeed: a faster zlib level; the same pixels, ~40% less time, ~20% more bytes.
        params: dict[str, Any] = {"format": "png", "optimizeForSpeed": True}
        scale, zoom = self.drawn.scale or 1.0, self.zoom
        if scale != 1 or zoom != 1:
            # A page rendered at a device scale (EnvConfig.perturb "scale") is captured at its CSS size: a
            # screenshot pixel stays a click coordinate. The clip is in page coordinates: the visual viewport. At a
            # browser zoom (the variant's) the viewport is width/zoom CSS pixels, drawn here at the zoom (Chromium
            # draws the clip again at its scale): the window's size (gym_core/variant.py zoom_metrics).
            x, y = await self.page.evaluate("[visualViewport.pageLeft, visualViewport.pageTop]")
            params["clip"] = {"x": x, "y": y, "width": self.width / zoom, "height": self.height / zoom,
                              "scale": zoom / scale}
        r = await self._cdp.send("Page.captureScreenshot", params)
        return base64.b64decode(r["data"])

    async def _capture_kept(self) -> bytes:
        """The screenshot of the page the last action reached, taken again while that page is there.

        Chromium fails a capture now and then without anything being lost: a document replaced under it
        ("Not attached to an active page": a late navigation, a save that redirected after the action
        settled), or no frame to give on a loaded machine ("Unable to capture screenshot"). While the tab
        is alive the env waits for what it is doing (the navigation it started, the load) and takes the
        screenshot again, up to CAPTURE_TRIES times, counted once in info["recovered"] and not shown to the
        agent: the action's effect and the page are kept. A tab that is gone, hung (the screenshot timed
        out) or unable to give a frame at all is reopened at the last page it reached (`_reopen`)."""
        msg = ""
        for attempt in range(CAPTURE_TRIES):
            try:
                return await asyncio.wait_for(self.capture(), self.config.action_timeout_s)
            except PlaywrightError as e:
                msg, hung = _first_line(e), False
            except asyncio.TimeoutError:
                msg, hung = "the screenshot did not come back; the page hung", True
            if attempt == 0:
                self.stats.recovered += 1
            if hung or not await self.page_alive():
                break
            await self.page_settled()
        await self._reopen(msg)
        return await asyncio.wait_for(self.capture(), self.config.action_timeout_s)

    async def _observe(self) -> dict[str, Any]:
        if self.config.screenshots:
            t = time.perf_counter()
            png = await self._capture_kept()
            self._capture_s = time.perf_counter() - t
            self.last_png, frame = png, png_to_array(png)
        else:  # a player that never looks (EnvConfig.screenshots): no capture, a blank frame
            self.last_png, frame = None, _blank_frame(self.width, self.height)
        self._note_error_page()
        # Every value within its bound in gym_core.spaces.observation_space(self.config).
        obs: dict[str, Any] = {
            "screenshot": frame,
            "url": clip_text(self.shown_url(), URL_MAX_CHARS),
            "goal": self.goal,
            "step": self.steps,
            "last_action_error": clip_text(self.last_error, ERROR_MAX_CHARS),
        }
        # The optional keys come only from the table the observation space is built from.
        for flag, key in OBSERVATION_OPTIONS.items():
            if getattr(self.config, flag):
                obs[key] = await getattr(self, f"_observe_{key}")()
        return obs

    async def _observe_tool_result(self) -> str:
        return self.last_tool_result

    async def _observe_a11y_tree(self) -> str:
        try:
            tree = await self.page.locator("body").aria_snapshot()
        except PlaywrightError:
            tree = ""
        return clip_text(tree, A11Y_TREE_MAX_CHARS)

    async def _observe_marks(self) -> tuple[dict, ...]:
        """A tuple (gymnasium's Sequence holds tuples) of {id, role, name, box}, box an int64 array."""
        try:
            marks = await self.page.evaluate(MARKS_JS, [MAX_MARKS, MARK_TEXT_MAX_CHARS])
        except PlaywrightError:
            marks = []
        z = self.zoom  # the marks' boxes are the page's (CSS pixels): on the screen at a browser zoom, times zoom
        return tuple({"id": m["id"], "role": m["role"], "name": m["name"],
                      "box": np.array(m["box"] if z == 1.0 else [int(round(v * z)) for v in m["box"]], dtype=np.int64)}
                     for m in marks)

    # ------------------------------------------------------------------ close

    async def close(self) -> None:
        await self.close_context()
        await super().close()
