"""The env's one browser tab: its context, the request guard, the world cookie, and its lifecycle
between episodes (parked on an empty page, wiped clean, or replaced by a new context).

A mixin of AsyncUIEnv (gym_core/env.py), which supplies the world (`server`, `runtime`, `config`,
`world_now`, the cookie binding); this file is the tab and nothing else.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import time
from typing import TYPE_CHECKING
from urllib.parse import urlsplit, urlunsplit

from playwright.async_api import BrowserContext, Page
from playwright.async_api import Error as PlaywrightError

from gym_core.browser import origin
from gym_core.page_scripts import INIT_SCRIPT
from apps import display_cookie
from gym_core.perturb import Drawn
from gym_core.variant import font_sizes, zoom_metrics
from gym_core.server import ServerError

if TYPE_CHECKING:
    from gym_core.config import EnvConfig
    from gym_core.runtime import Runtime
    from gym_core.server import AppServer

PARKED_PATH = "/_shared/static/parked.html"  # an empty page of every app's origin (park_tab)
ERROR_PAGE_SCHEME = "chrome-error://"  # the URL of the page Chromium shows for a load it could not complete


def app_path(url: str) -> str:
    """The path of a URL with its query and fragment: where it is on its origin ('/' for none)."""
    parts = urlsplit(url)
    return urlunsplit(("", "", parts.path or "/", parts.query, parts.fragment))


def display_url(url: str, app_url: str) -> str:
    """A URL as an observation gives it: its path on the app's origin (`app_url`'s), else all of it."""
    o = origin(url)
    return app_path(url) if o is not None and o == origin(app_url) else url


class BrowserTab:
    # From the env this is mixed into.
    config: EnvConfig
    runtime: Runtime
    server: AppServer
    world_now: dt.datetime | None
    _binding: dict
    width: int
    height: int

    def _init_tab(self) -> None:
        self.context: BrowserContext | None = None
        self.page: Page | None = None
        self._inflight = 0  # the tab's requests in flight
        self._navs = 0  # main-frame navigations committed
        self._nav_requests = 0  # navigations the renderer announced
        self._cdp = None
        self._ctx_origin = ""
        self._ctx_id = ""  # the browser context's CDP id
        self._parked = False
        self._reached_url = ""  # the last page of the app's origin the main frame committed (see reached_url)
        self._nav_failure: tuple[str, str] | None = None  # (url, net error) of the main frame's last failed load
        self._crashed = False  # the renderer of the tab crashed (Playwright's `crash` event)
        # The episode's screen perturbation (gym_core/perturb.py), set by the env at reset; applied to the tab
        # before each page is opened (`_apply_screen`). What the tab's context has now: the metrics the env's CDP
        # session set (None: the context's own), the colour scheme, the overlays' init script.
        self.drawn = Drawn()
        self._overlay_js: str | None = None
        self._screen_set: tuple[int, int, float] | None = None
        self._dark_set = False
        self._contrast_set = False
        self._font_set: float | None = None  # the default font size factor the tab has (None: Chromium's own)
        self.variant = None  # the episode's variant (gym_core/variant.py): its density and locale go in a cookie
        self._overlay_id: str | None = None
        self._ctx_viewport = (0, 0)  # the viewport the context was made with
        self._ctx_images = True

    @property
    def zoom(self) -> float:
        """The episode's browser zoom (its variant's; 1.0 without): a screen pixel is 1/zoom CSS pixels."""
        return zoom_metrics(self.width, self.height, self.drawn.zoom)[2]

    @property
    def css_size(self) -> tuple[int, int]:
        """The page's viewport in CSS pixels (innerWidth, innerHeight): the screen's size at 100% zoom."""
        return zoom_metrics(self.width, self.height, self.drawn.zoom)[:2]

    # ------------------------------------------------------- public seams for tools that drive the page
    # The QA crawler resets worlds and navigates itself, takes its own screenshots, and needs the CDP
    # session and the navigation count to judge what an action did; these are its (and only its) handles.
    @property
    def cdp(self):
        """The page's CDP session (None before reset and after close_context)."""
        return self._cdp

    @property
    def navigations(self) -> int:
        """Main-frame navigations of the current context so far (a change means an action navigated)."""
        return self._navs

    async def fonts_ready(self) -> None:
        try:
            await asyncio.wait_for(self.page.evaluate("document.fonts.ready.then(() => true)"), 5)
        except (PlaywrightError, asyncio.TimeoutError):
            pass

    # --------------------------------------------------------------- lifecycle
    async def park_tab(self) -> bool:
        """Before the world is reset under it, the last episode's tab lets go of it: its requests in
        flight finish (against the old world), then it is wiped and parked on an empty page, so nothing
        it does later (a lazy image, a timer's fetch, a late POST) reaches the new world, or reads it
        half-restored (seen: a QA crawl's late image got a 500). Parked on an empty static page of the
        app's origin, not about:blank: leaving the origin would cost a new renderer process each episode.
        A tab that cannot be wiped is closed with its context. True: the tab is parked, clean, and can
        be reused; it stays bound to the env's world (its cookie and clock), so a caller that resets the world
        and loads a page itself (the QA driver) sees that world."""
        if self.page is None or self.page.is_closed():
            return False
        await self._drain(time.monotonic() + 2.0)
        if self.config.reuse_context and await self._try_wipe_tab():
            try:
                await asyncio.wait_for(self.page.goto(self.server.url + PARKED_PATH), 5)
                self._inflight = 0
                return True
            except (PlaywrightError, asyncio.TimeoutError):
                pass
        await self.close_context()
        return False

    async def _open_page(self, url: str, fresh: bool = False, parked: bool = False) -> None:
        """Show `url` in a clean tab: the env's tab wiped clean (or parked clean by `park_tab`), or a
        brand-new context."""
        wiped = parked or (not fresh and self.config.reuse_context and await self._try_wipe_tab())
        if not wiped:
            await self._new_context()
        elif parked:
            # The new world's binding (it carries the episode's look, which may differ from the last one's), its display
            # cookie (the variant's density and locale, none for the defaults) and clock: the wipe that parked the tab
            # set the old ones.
            await self.context.clear_cookies(name=display_cookie()[0])
            await self.context.add_cookies(self._world_cookies())
            if self.world_now is not None:
                await self.context.clock.set_fixed_time(self.world_now.replace(tzinfo=dt.timezone.utc))
        await self._apply_screen()
        await self._goto(url)
        if wiped:
            try:
                await self._cdp.send("Page.resetNavigationHistory")  # Back leads nowhere, as in a new tab
            except PlaywrightError:
                pass

    async def _apply_screen(self) -> None:
        """The episode's perturbation on the tab, before its first page (gym_core/perturb.py): the window's size
        and device scale through the env's own CDP session (Playwright fixes a context's scale for its life, and
        a new context per drawn scale would give up the reused tab, 3x cheaper; the override outlives
        navigations, and the env never calls Playwright's set_viewport_size, so nothing else sets the metrics
        of a context once it has); the colour scheme; the overlays' init script, on the same CDP session, taken
        off and replaced each episode. Each is sent only where the tab's context differs from the episode's."""
        # A browser zoom (the variant's, gym_core/variant.py) lays the page out in width/zoom CSS pixels, drawn at the
        # zoom by the capture (AsyncUIEnv.capture): the window, and the screenshot, keep their size.
        screen = (*self.css_size, float(self.drawn.scale or 1.0))
        if screen != (self._screen_set or (*self._ctx_viewport, 1.0)):
            await self._cdp.send("Emulation.setDeviceMetricsOverride", {
                "width": screen[0], "height": screen[1], "deviceScaleFactor": screen[2], "mobile": False})
            self._screen_set = screen
        if self.drawn.dark != self._dark_set or self.drawn.contrast != self._contrast_set:
            await self.page.emulate_media(color_scheme="dark" if self.drawn.dark else "light",
                                          forced_colors="active" if self.drawn.contrast else "none")
            self._dark_set, self._contrast_set = self.drawn.dark, self.drawn.contrast
        if (self.drawn.font or None) != self._font_set:
            await self._cdp.send("Page.setFontSizes", {"fontSizes": font_sizes(self.drawn.font)})
            self._font_set = self.drawn.font or None
        if self._overlay_id is not None:
            await self._cdp.send("Page.removeScriptToEvaluateOnNewDocument", {"identifier": self._overlay_id})
            self._overlay_id = None
        if self._overlay_js and not self.drawn.overlay_step:
            r = await self._cdp.send("Page.addScriptToEvaluateOnNewDocument", {"source": self._overlay_js})
            self._overlay_id = r["identifier"]

    async def show_overlays(self) -> None:
        """The episode's overlays appear now, on the page the tab shows, and on every page it opens after (the
        variant's overlays "mid": after a seeded step). Dismissed ones stay dismissed, as on load."""
        if not self._overlay_js or self._overlay_id is not None or self.page is None:
            return
        try:
            r = await self._cdp.send("Page.addScriptToEvaluateOnNewDocument", {"source": self._overlay_js})
            self._overlay_id = r["identifier"]
            await self._cdp.send("Runtime.evaluate", {"expression": self._overlay_js})
        except PlaywrightError:
            return  # the tab went away: the recovery reopens it, with the script for its next page

    async def _new_context(self) -> None:
        await self.close_context()
        browser = await self.runtime.browser(images=self.config.images)
        ctx = await browser.new_context(
            viewport={"width": self.width, "height": self.height},
            device_scale_factor=1,
            locale=self.config.locale,
            timezone_id=self.config.timezone,
            reduced_motion="reduce",
            service_workers="block",
            # A download lands nowhere (no clone's task needs one, and the page cannot see one either way):
            # nothing of an episode is left on disk, and nothing outlives a reset.
            accept_downloads=False,
        )
        self._ctx_origin = self.server.url
        self._ctx_viewport = (self.width, self.height)
        self._ctx_images = self.config.images  # the browser it is in (Runtime.browser)
        self._screen_set, self._dark_set, self._overlay_id = None, False, None
        self._contrast_set, self._font_set = False, None
        # The env shows one tab: a window the app opens is closed at once (no clone opens one).
        ctx.on("page", self._close_popup)
        await ctx.add_cookies(self._world_cookies())
        await ctx.add_init_script(INIT_SCRIPT)
        if self.world_now is not None:
            await ctx.clock.set_fixed_time(self.world_now.replace(tzinfo=dt.timezone.utc))
        self.context = ctx
        page = await ctx.new_page()
        self._inflight = 0
        page.on("request", self._on_request)
        page.on("requestfinished", self._on_request_done)
        page.on("requestfailed", self._on_request_failed)
        page.on("framenavigated", self._on_nav)
        self._crashed, self._nav_failure = False, None
        page.on("crash", self._on_crash)
        self.page = page
        # Screenshots straight from the DevTools protocol: the same pixels as page.screenshot(),
        # without its per-call bookkeeping (a step should cost about one bare screenshot).
        self._cdp = await ctx.new_cdp_session(page)
        # A link click or form submit starts its navigation a task later than the click itself;
        # the renderer announces it at once with frameRequestedNavigation, so settle can wait for it.
        self._cdp.on("Page.frameRequestedNavigation", self._on_nav_requested)
        await self._cdp.send("Page.enable")
        await self._guard_requests()
        info = await self._cdp.send("Target.getTargetInfo")
        self._ctx_id = info["targetInfo"].get("browserContextId", "")
        self.runtime.guarded_contexts.add(self._ctx_id)  # the browser-wide document guard (gym_core/browser.py)

    async def _guard_requests(self) -> None:
        """Only this app's pages' origin (scheme, host and port) is reachable. The control API listens
        on another port, so it is out of reach like any other origin; the pages' own CSP is the other
        lock (apps/_shared/sandbox.py), and it keeps the page from opening tabs this guard does not see; the
        runtime's browser-wide document guard is the browser's own lock on those (gym_core/browser.py).

        Every request of the tab pauses in the browser until we allow it (Fetch domain). Playwright's
        own `context.route` would do the same but turns the HTTP cache off, which makes every page
        load re-fetch and re-parse the app's CSS and fonts (~40% of a reset)."""
        origin_ = origin(self.server.url)
        cdp = self._cdp

        async def decide(ev: dict) -> None:
            ok = origin(ev["request"]["url"]) == origin_ and (
                self.config.images or ev.get("resourceType") != "Image")  # EnvConfig.images
            try:
                if ok:
                    await cdp.send("Fetch.continueRequest", {"requestId": ev["requestId"]})
                else:
                    await cdp.send("Fetch.failRequest", {"requestId": ev["requestId"], "errorReason": "BlockedByClient"})
            except PlaywrightError:
                pass  # the tab went away meanwhile

        cdp.on("Fetch.requestPaused", lambda ev: asyncio.ensure_future(decide(ev)))
        await cdp.send("Fetch.enable", {"patterns": [{"urlPattern": "*"}]})

    def _close_popup(self, page: Page) -> None:
        if page is not self.page and self.page is not None:
            asyncio.ensure_future(self._quiet_close(page))

    @staticmethod
    async def _quiet_close(page: Page) -> None:
        try:
            await page.close()
        except PlaywrightError:
            pass

    def _world_cookies(self) -> list[dict]:
        """The world binding and, where the episode's variant moves its density or locale, the display cookie that
        says so (apps/_shared/display.py)."""
        name, value = display_cookie(**(getattr(self.variant, "display", None) or {}))
        if not value:  # the defaults: no cookie at all, as before variants
            return [self._world_cookie()]
        return [self._world_cookie(), {"name": name, "value": value, "url": self.server.url, "httpOnly": True,
                                       "sameSite": "Strict"}]

    def _world_cookie(self) -> dict:
        """The world binding: HttpOnly, so page JS can neither read nor replace it; SameSite=Strict."""
        return {"name": self._binding["name"], "value": self._binding["value"], "url": self.server.url,
                "httpOnly": True, "sameSite": "Strict"}

    async def _try_wipe_tab(self) -> bool:
        try:  # a page that hangs (a script in a loop) cannot be wiped: it gets a new context
            return await asyncio.wait_for(self._wipe_tab(), 5)
        except asyncio.TimeoutError:
            return False

    async def _wipe_tab(self) -> bool:
        """Make the env's open tab as clean as a new context's, if it can be. False: it can't be
        (none open, another app's, or not on the app's origin, whose session storage we must clear).
        Hover does not outlive the document, so the next page load starts with nothing hovered
        (tests/gym_core/test_env_toy.py checks all of this against a new context's pixels)."""
        page, ctx = self.page, self.context
        if page is None or ctx is None or page.is_closed() or self._ctx_origin != self.server.url:
            return False
        if self._ctx_images != self.config.images:  # the tab is in the other browser (Runtime.browser)
            return False
        if not page.url.startswith(self.server.url + "/"):
            return False
        try:
            for other in ctx.pages:
                if other is not page:
                    await other.close()
            # Session storage belongs to the tab and survives navigation: clear it from the page.
            await page.evaluate("() => sessionStorage.clear()")
            await self._cdp.send("Storage.clearDataForOrigin", {
                "origin": self.server.url, "storageTypes": "local_storage,indexeddb,cache_storage,file_systems"})
            await ctx.clear_cookies()
            await ctx.add_cookies(self._world_cookies())
            if self.world_now is not None:
                await ctx.clock.set_fixed_time(self.world_now.replace(tzinfo=dt.timezone.utc))
        except PlaywrightError:
            return False
        self._inflight = 0
        return True

    async def _goto(self, url: str) -> None:
        try:
            await self.page.goto(url, wait_until="load")
        except PlaywrightError as e:
            raise ServerError(f"could not open {url}: {e.message.splitlines()[0]}") from None
        # Lazy images do not hold up `load`: the first observation waits for them as a step would
        # (seen: a fresh server's first food home page had 44 card pictures still coming, so episode 1
        # showed grey cards and every later episode, served from the cache, showed the pictures).
        await self._after_load(time.monotonic() + self.config.settle_timeout_ms / 1000)

    async def _after_load(self, deadline: float) -> None:
        """A loaded page is on screen once its fonts are ready and the requests it made after `load`
        (lazy images, fetches) are in and handled."""
        await self.fonts_ready()
        await self._drain(deadline)
        try:
            await self.page.evaluate("0")
        except PlaywrightError:
            pass

    def _on_request(self, _req) -> None:
        self._inflight += 1

    def _on_request_done(self, _req) -> None:
        self._inflight = max(0, self._inflight - 1)

    def _on_request_failed(self, req) -> None:
        self._on_request_done(req)
        try:
            main = req.is_navigation_request() and req.frame.parent_frame is None
        except PlaywrightError:  # a request of no frame (a worker's)
            main = False
        if main:
            self._nav_failure = (req.url, req.failure or "failed")

    def _on_nav(self, frame) -> None:
        if frame.parent_frame is None:
            self._navs += 1
            url = frame.url
            if not url.startswith(ERROR_PAGE_SCHEME):
                self._nav_failure = None
            if self.server is not None and origin(url) == origin(self.server.url) and not url.startswith(
                    self.server.url + PARKED_PATH):
                self._reached_url = url

    def _on_crash(self, _page) -> None:
        self._crashed = True

    # ------------------------------------------------------ where the tab is
    @property
    def reached_url(self) -> str:
        """The last page of the app the tab's main frame committed, whether or not a screenshot of it was
        taken: where a tab that is gone is reopened (the URL the last action reached, never the one before
        it). '' before the first page of the app."""
        return self._reached_url

    def error_page(self) -> str:
        """'' unless the tab shows Chromium's own error page (a load the browser could not complete: a
        response it refused, a refused connection, a request the env's guard blocked); then what it
        could not load and why, as the agent is told."""
        if self.page is None or not self.page.url.startswith(ERROR_PAGE_SCHEME):
            return ""
        if self._nav_failure is None:
            return f"the browser shows an error page ({self.page.url})"
        url, why = self._nav_failure
        hint = " (only the app's own pages can be opened)" if "ERR_BLOCKED_BY_CLIENT" in why else ""
        return f"the browser could not load {url}: {why}{hint}"

    def shown_url(self) -> str:
        """The page's URL as the observation gives it: a path (with query and fragment) on the app's
        origin, else the whole URL; on Chromium's error page, the URL it failed to load (what its address
        bar shows), else the error page's own."""
        if self.page is None:
            return ""
        url = self.page.url
        if url.startswith(ERROR_PAGE_SCHEME) and self._nav_failure is not None:
            url = self._nav_failure[0]
        return display_url(url, self.server.url if self.server is not None else "")

    async def page_alive(self) -> bool:
        """Is the tab still there to be looked at: not closed, not crashed, its browser connected, and its
        main thread answering within a few seconds (a page spinning in a script loop is as good as gone)."""
        page = self.page
        if page is None or page.is_closed() or self._crashed:
            return False
        browser = page.context.browser
        if browser is not None and not browser.is_connected():
            return False
        try:
            await asyncio.wait_for(page.evaluate("0"), min(5.0, self.config.action_timeout_s))
        except (PlaywrightError, asyncio.TimeoutError):
            return False
        return not self._crashed

    async def page_settled(self) -> None:
        """Wait (within the settle timeout) for what the page is doing to finish: its requests in flight
        (a navigation's own among them), then the load of the document it is on, its fonts and late requests."""
        deadline = time.monotonic() + self.config.settle_timeout_ms / 1000
        await self._drain(deadline)
        try:
            await self.page.wait_for_load_state("load", timeout=max(1, (deadline - time.monotonic()) * 1000))
        except PlaywrightError:
            pass
        await self._after_load(deadline)

    def _on_nav_requested(self, _params) -> None:
        self._nav_requests += 1

    async def _drain(self, deadline: float) -> bool:
        """Wait (until `deadline`) for the page's requests in flight to finish. True if there were any."""
        waited = False
        while self._inflight > 0 and time.monotonic() < deadline:
            waited = True
            await asyncio.sleep(0.002)
        return waited

    async def close_context(self) -> None:
        ctx, self.context, self.page, self._cdp, self._ctx_origin = self.context, None, None, None, ""
        self.runtime.guarded_contexts.discard(self._ctx_id)
        self._ctx_id = ""
        if ctx is not None:
            try:
                await asyncio.wait_for(ctx.close(), 15)
            except (PlaywrightError, asyncio.TimeoutError):
                pass
