"""What the envs of one event loop share: one Playwright, one Chromium, one HTTP client,
plus the process-wide app servers and a cache of start states."""

from __future__ import annotations

import asyncio
import json
import weakref
from collections import OrderedDict
from typing import Any
from urllib.parse import urlsplit

import httpx
from playwright.async_api import Browser, async_playwright

from gym_core.browser import guard_documents, launch_chromium, origin
from gym_core.server import AppServer, ControlClient, ServerPool

_default_pool: ServerPool | None = None


def default_server_pool() -> ServerPool:
    global _default_pool
    if _default_pool is None:
        _default_pool = ServerPool()
    return _default_pool


def _client() -> httpx.AsyncClient:
    return httpx.AsyncClient(limits=httpx.Limits(max_connections=64))


class Runtime:
    _by_loop: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Runtime]" = weakref.WeakKeyDictionary()

    def __init__(self, servers: ServerPool | None = None, headless: bool = True):
        self.servers = servers or default_server_pool()
        self.headless = headless
        self._pw = None
        # Two Chromiums at most, launched on first use: the one every env shows, and one whose pages load no
        # pictures at all (EnvConfig(images=False): Blink never requests them, see browser_for).
        self._browsers: dict[bool, Browser] = {}
        self._lock = asyncio.Lock()
        self._http = _client()
        self.browser_launches = 0
        self._start_states: OrderedDict[str, dict] = OrderedDict()
        # The envs' browser contexts (CDP ids): the browser-wide document guard applies to these.
        self.guarded_contexts: set[str] = set()

    @classmethod
    def adopt(cls, loop: asyncio.AbstractEventLoop, runtime: "Runtime") -> None:
        """Make `runtime` the loop's own (what `current()` returns there), unless the loop has one already:
        a background loop that made its runtime itself (agent_harness.train) gets it closed with the loop."""
        cls._by_loop.setdefault(loop, runtime)

    @classmethod
    def current(cls) -> "Runtime":
        loop = asyncio.get_running_loop()
        rt = cls._by_loop.get(loop)
        if rt is None:
            rt = cls._by_loop[loop] = Runtime()
        return rt

    @property
    def http(self) -> httpx.AsyncClient:
        """The client of the apps' control APIs, opened again after `close`: like the browser and Playwright's driver,
        which `browser` relaunches, so a runtime closed by one of its users (an in-process eval's or validation's
        `finally`) serves the next one on the loop instead of failing it ("the client has been closed")."""
        if self._http.is_closed:
            self._http = _client()
        return self._http

    async def browser(self, images: bool = True) -> Browser:
        """The shared Chromium, relaunched if it crashed or was closed. `images=False`: the one whose pages
        load no pictures (EnvConfig.images), a Chromium of its own because Blink's image setting is the
        browser's: its pages never even request them, where the env's request guard would see, pause and fail
        each one (a food page asks for ~90: a quarter of a food validation batch's time, bench/no_images.py)."""
        async with self._lock:
            browser = self._browsers.get(images)
            if browser is None or not browser.is_connected():
                if self._pw is None:
                    self._pw = await async_playwright().start()
                hosts = [urlsplit(page).hostname for page, _control in self.servers.urls.values()]
                browser = await launch_chromium(self._pw, headless=self.headless, allow_hosts=hosts, images=images)
                # Read at each request: a restarted app server comes back on new ports.
                await guard_documents(browser, lambda: {origin(u) for u in self.servers.page_urls()},
                                      self.guarded_contexts)
                self._browsers[images] = browser
                self.browser_launches += 1
            return browser

    async def server(self, app: str) -> AppServer:
        srv = await asyncio.to_thread(self.servers.get, app)
        if not srv.alive():
            await asyncio.to_thread(srv.ensure_alive)
        return srv

    def control(self, server: AppServer) -> ControlClient:
        return ControlClient(server, self.http)

    # Start states are deterministic per (app, seed, now, fixtures): fetch once, reuse.
    def cached_start_state(self, key: Any) -> dict | None:
        k = json.dumps(key, sort_keys=True, default=str)
        st = self._start_states.get(k)
        if st is not None:
            self._start_states.move_to_end(k)
        return st

    def store_start_state(self, key: Any, state: dict) -> None:
        k = json.dumps(key, sort_keys=True, default=str)
        self._start_states[k] = state
        while len(self._start_states) > 16:
            self._start_states.popitem(last=False)

    async def close(self) -> None:
        """Close the browser, stop Playwright's driver and close the HTTP client, each even if one
        before it failed (a crashed browser must not leave the driver process or the client open)."""
        try:
            for browser in self._browsers.values():
                try:
                    await browser.close()
                except Exception:  # noqa: BLE001 - already gone (crashed): the driver's stop ends it
                    pass
            self._browsers.clear()
            if self._pw is not None:
                pw, self._pw = self._pw, None
                await pw.stop()
        finally:
            await self._http.aclose()
        for loop, rt in list(Runtime._by_loop.items()):
            if rt is self:
                del Runtime._by_loop[loop]
