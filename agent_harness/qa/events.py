"""What a page did while the crawler acted on it: load errors, console errors, failed requests, bad
responses, navigations, dialogs and file choosers, collected from Playwright's events."""

from __future__ import annotations

import asyncio

from agent_harness.qa.states import quiet
from gym_core.env import AsyncUIEnv


class Events:
    """What the browser reported while a job ran: errors, failed and bad requests, navigations, new tabs,
    native dialogs and downloads."""

    def __init__(self, origin: str):
        self.origin = origin
        self.clear()

    def clear(self) -> None:
        self.js_errors: list[tuple[str, str]] = []  # (page url, message)
        self.console: list[tuple[str, str]] = []
        self.failed: list[tuple[str, str, str, str]] = []  # (page url, request url, type, reason)
        self.bad: list[tuple[str, str, str, int]] = []  # (page url, request url, type, status) of subresources
        self.navs: list[tuple[str, int]] = []  # main-frame navigation responses (url, status)
        self.pages: list = []
        self.dialogs: list[str] = []
        self.downloads: list[str] = []
        self.choosers = 0

    def attach(self, env: AsyncUIEnv) -> None:
        ctx, page = env.context, env.page
        ctx.on("weberror", self._on_weberror)
        ctx.on("console", self._on_console)
        ctx.on("requestfailed", self._on_failed)
        ctx.on("response", self._on_response)
        ctx.on("page", self._on_page)
        ctx.on("dialog", self._on_dialog)
        page.on("download", lambda d: self.downloads.append(d.suggested_filename))
        page.on("filechooser", self._on_chooser)

    @staticmethod
    def _page_url(page) -> str:
        try:
            return page.url if page is not None else ""
        except Exception:  # noqa: BLE001
            return ""

    def _on_weberror(self, we) -> None:
        err = we.error
        msg = f"{getattr(err, 'name', '') or 'Error'}: {getattr(err, 'message', '') or err}"
        stack = (getattr(err, "stack", "") or "").splitlines()
        where = next((ln.strip() for ln in stack[1:3] if ln.strip()), "")
        self.js_errors.append((self._page_url(we.page), msg + (f" ({where})" if where else "")))

    def _on_console(self, msg) -> None:
        if msg.type != "error":
            return
        text = msg.text
        if text.startswith("Failed to load resource"):
            return  # the response itself is reported (failed_request / broken_image)
        self.console.append((self._page_url(msg.page), text))

    def _on_failed(self, req) -> None:
        reason = req.failure or ""
        if "ERR_ABORTED" in reason:
            return  # cancelled by a navigation or an AbortController: not a failure
        try:
            page_url = req.frame.url
        except Exception:  # noqa: BLE001
            page_url = ""
        self.failed.append((page_url, req.url, req.resource_type, reason))

    def _on_response(self, resp) -> None:
        req = resp.request
        try:
            nav = req.is_navigation_request() and resp.frame.parent_frame is None
        except Exception:  # noqa: BLE001
            nav = False
        if nav:
            self.navs.append((resp.url, resp.status))
            return
        if resp.status >= 400:
            try:
                page_url = resp.frame.url
            except Exception:  # noqa: BLE001
                page_url = ""
            self.bad.append((page_url, resp.url, req.resource_type, resp.status))

    def _on_page(self, page) -> None:
        self.pages.append(page)

    def _on_dialog(self, dialog) -> None:
        self.dialogs.append(f"{dialog.type}: {dialog.message[:120]}")
        asyncio.ensure_future(quiet(dialog.accept()))

    def _on_chooser(self, _chooser) -> None:
        self.choosers += 1

