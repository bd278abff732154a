"""One parsed action on the page with Chromium's mouse and keyboard, then the wait until its effects
are on screen (the renderer's round trip, requests in flight, a navigation it started).

A mixin of AsyncUIEnv (gym_core/env.py) over its BrowserTab (gym_core/tab.py): the tab's page, its
request and navigation counters, and its load wait.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from playwright.async_api import Error as PlaywrightError

from gym_core.actions import Action, ActionError, Click, DoubleClick, Drag, KeyPress, Move, Screenshot, Scroll, Type, Wait
from gym_core.keys import normalize_keys
from gym_core.page_scripts import ARM_SCROLL_JS
from gym_core.tab import BrowserTab


# Back and Forward, the way out of a page with nothing to click (Chromium's own error page among them).
HISTORY_KEYS = [["Alt", "ArrowLeft"], ["Alt", "ArrowRight"]]


class PageInput(BrowserTab):
    width: int
    height: int

    def _check_point(self, x: int, y: int) -> tuple[float, float]:
        """The screen point (x, y) as the page's point (CSS pixels: the screen's over the browser zoom of the
        episode's variant, gym_core/variant.py), or ActionError for one off the screen."""
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise ActionError(f"point ({x}, {y}) is outside the {self.width}x{self.height} screen")
        z = self.zoom
        return (x, y) if z == 1.0 else (x / z, y / z)

    async def _perform(self, a: Action) -> None:
        page = self.page
        marks = (self._navs, self._nav_requests)
        mouse = page.mouse
        if isinstance(a, Click):
            await mouse.click(*self._check_point(a.x, a.y), button=a.button)
        elif isinstance(a, DoubleClick):
            await mouse.dblclick(*self._check_point(a.x, a.y))
        elif isinstance(a, Move):
            await mouse.move(*self._check_point(a.x, a.y))
        elif isinstance(a, Drag):
            path = [self._check_point(x, y) for x, y in a.path]
            (x0, y0), rest = path[0], path[1:]
            await mouse.move(x0, y0)
            await mouse.down()
            for x, y in rest:
                await mouse.move(x, y, steps=4)
            await mouse.up()
        elif isinstance(a, Scroll):
            x, y = self._check_point(a.x, a.y)
            z = self.zoom
            dx, dy = (a.dx, a.dy) if z == 1.0 else (a.dx / z, a.dy / z)  # the wheel moves the page dx, dy screen pixels
            await mouse.move(x, y)
            # Chromium scrolls on its compositor thread: the page (and a screenshot) can see the scroll
            # several frames after the wheel, later still on a busy machine. Wait for the scroll event
            # when something there can scroll that way.
            armed = await self._eval_quietly(ARM_SCROLL_JS, [x, y, dx, dy])
            await mouse.wheel(dx, dy)
            if armed:
                await self._eval_quietly("() => window.__gymScrolled")
            await self._frames(2)
        elif isinstance(a, Type):
            await page.keyboard.type(a.text)
        elif isinstance(a, KeyPress):
            keys = normalize_keys(a.keys)
            for k in keys[:-1]:
                await page.keyboard.down(k)
            await page.keyboard.press(keys[-1])
            for k in reversed(keys[:-1]):
                await page.keyboard.up(k)
            if keys in HISTORY_KEYS:  # what a desktop Chromium does with them, and headless Chromium leaves undone
                await self._history(HISTORY_KEYS.index(keys))
        elif isinstance(a, Wait):
            await asyncio.sleep(a.ms / 1000)
        elif isinstance(a, Screenshot):
            return
        await self._settle(marks)

    async def _history(self, forward: int) -> None:
        """Back (0) or Forward (1) in the tab's history, as far as its commit; `_settle` waits for the load.
        Nothing happens where there is no page to go to, as in a browser."""
        go = self.page.go_forward if forward else self.page.go_back
        try:
            await go(wait_until="commit", timeout=self.config.settle_timeout_ms)
        except PlaywrightError:
            pass  # a history entry that failed to load shows Chromium's error page: the observation says so

    async def _eval_quietly(self, js: str, arg: Any = None) -> Any:
        """page.evaluate, or None when the page went away meanwhile (a navigation is not an action error)."""
        try:
            return await self.page.evaluate(js, arg)
        except PlaywrightError:
            return None

    async def _frames(self, n: int) -> None:
        js = "n => new Promise(r => { const f = k => k ? requestAnimationFrame(() => f(k - 1)) : r(); f(n); })"
        try:
            await self.page.evaluate(js, n)
        except PlaywrightError:
            pass

    async def _settle(self, marks: tuple[int, int]) -> None:
        """Wait until the action's effects are on screen: requests done, any navigation loaded."""
        timeout = self.config.settle_timeout_ms
        deadline = time.monotonic() + timeout / 1000
        try:
            # One round trip through the page's main thread: input handlers have run, and any
            # navigation they asked for has been announced.
            await self.page.evaluate("0")
        except PlaywrightError:
            pass  # the document went away under us: a navigation, handled below
        navs_before, requested_before = marks
        if self._nav_requests != requested_before:
            # Wait for the new document to commit (or for the navigation to come to nothing).
            while self._navs == navs_before and time.monotonic() < deadline:
                if self._inflight == 0 and time.monotonic() > deadline - timeout / 1000 + 1.0:
                    break  # cancelled, a download, or a 204: nothing will commit
                await asyncio.sleep(0.005)
        waited = await self._drain(deadline)
        if waited and self._navs == navs_before:
            try:
                await self.page.evaluate("0")  # the responses' handlers have updated the DOM
            except PlaywrightError:
                pass
            # A handler may navigate once its response is in (fetch, then location.reload()/href):
            # wait for that navigation to commit too.
            if self._nav_requests != requested_before:
                t_req = time.monotonic()
                while self._navs == navs_before and time.monotonic() < deadline:
                    if self._inflight == 0 and time.monotonic() > t_req + 1.0:
                        break  # nothing will commit
                    await asyncio.sleep(0.005)
        if self._navs != navs_before:
            try:
                await self.page.wait_for_load_state("load", timeout=max(1, (deadline - time.monotonic()) * 1000))
            except PlaywrightError:
                pass
            await self._after_load(deadline)
