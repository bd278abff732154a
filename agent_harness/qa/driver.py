"""A crawler worker's hands: its env (a browser context and a world), a pristine world with a page loaded,
the page's controls and what Chromium's accessibility tree names them, reaching a recorded state again,
acting on a control as a person would (scrolled into view, aimed, through the env's input path), and the
browser's reports of the page as defects."""

from __future__ import annotations

import asyncio
import json
import time
import uuid

from playwright.async_api import Error as PlaywrightError

from agent_harness.qa import js
from agent_harness.qa.events import Events
from agent_harness.qa.report import Defect
from agent_harness.qa.states import (
    NO_CONTENT_NAME, Act, ReplayError, State, path_of, world_hash,
)
from gym_core.env import AsyncUIEnv, EnvConfig



class Driver:
    def __init__(self, crawler, i: int):  # crawler: agent_harness.qa.crawler.Crawler, which makes its workers
        self.c = crawler
        self.i = i
        self.env: AsyncUIEnv | None = None
        self.ev = Events(crawler.origin)
        self.control = None
        self._attached_page = None

    def _new_env(self) -> AsyncUIEnv:
        return AsyncUIEnv(self.c.app, EnvConfig(max_steps=10**9, look=self.c.cfg.look,
                                                  variant=self.c.cfg.variant), runtime=self.c.runtime,
                          world_id=f"qa-{self.i}-{uuid.uuid4().hex[:8]}")

    # ------------------------------------------------------------ env and world
    async def close(self) -> None:
        if self.env is not None:
            await self.env.close()
            self.env = None

    async def fresh(self, path: str) -> int | None:
        """A pristine world and `path` loaded in it; the page's load events are in self.ev."""
        t0 = time.perf_counter()
        c = self.c
        if self.env is None:
            self.env = self._new_env()
        env = self.env
        # The env's own reset wipe (the last page's requests drained, other tabs, storage, cookies; parked on
        # an empty page while the world resets); a tab it cannot wipe (none yet, hung, elsewhere) is replaced
        # by a new context.
        if not await env.park_tab():
            await env.reset(seed=c.seed, start_path=path)
            self.control = c.runtime.control(env.server)
        if self._attached_page is not env.page:
            self.ev.attach(env)
            self._attached_page = env.page
        await self.control.reset(env.world_id, c.seed, None, [])
        page = env.page
        await page.mouse.move(env.width - 1, env.height - 1)
        self.ev.clear()
        resp = await page.goto(env.server.url + path, wait_until="load")
        await env.fonts_ready()
        env.begin_episode()
        c.timings["reset_s"] += time.perf_counter() - t0
        c.timings["resets"] += 1
        return resp.status if resp is not None else None

    async def step(self, action: dict) -> None:
        """One user action through the env's own action path (mouse/keyboard + settle), without the
        observation env.step would take (QA takes its screenshots when it needs them)."""
        await self.env.perform(action)

    async def frames(self, n: int = 2) -> None:
        try:
            await self.env.page.evaluate(js.FRAMES_JS, n)
        except PlaywrightError:
            pass

    async def shot(self) -> bytes:
        return await self.env.capture()

    async def digest(self) -> str:
        try:
            return await self.env.page.evaluate(js.DIGEST_JS)
        except PlaywrightError:
            return ""

    async def world_hash(self) -> str:
        st = await self.control.state(self.env.world_id)
        return world_hash(st)

    async def baseline(self, st: State) -> str:
        """The world's hash right after reaching the state, before any action: measured once per state, on
        first need (a fresh reset; most probes never need it, and reading a big world is not free)."""
        if not st.world_hash:
            await self.open_state(st)
            st.world_hash = await self.world_hash()
        return st.world_hash

    async def enumerate(self, lite: bool = False) -> dict:
        """The visible controls. `lite`: only their paths, roles and names (cheap; for noticing what appeared)."""
        return await self.env.page.evaluate(js.ENUM_JS, {
            "selector": js.CONTROL_SELECTOR, "rep": self.c.cfg.rep, "pointer": not lite, "lite": lite})

    async def snap(self, path: str | None = None, x: int | None = None, y: int | None = None) -> dict:
        """Visible controls (paths), open containers, DOM digest, the target's field, URL, hit test: one call."""
        return await self.env.page.evaluate(js.SNAP_JS, {"selector": js.CONTROL_SELECTOR, "path": path,
                                                          "x": x, "y": y})

    # ------------------------------------------------------------ locating and acting
    async def locate(self, act: Act) -> tuple[str, list]:
        """The element's path and box now (the recorded path, or the same role+name elsewhere on the page)."""
        page = self.env.page
        box = await page.evaluate(js.LOCATE_JS, act.path)
        if box:
            return act.path, box
        enum = await self.enumerate(lite=True)
        for el in enum["elements"]:
            if el["role"] == act.role and el["name"] == act.name:
                box = await page.evaluate(js.LOCATE_JS, el["path"])
                if box:
                    return el["path"], box
        raise ReplayError(f"{act.describe()} is not on the page any more ({act.path})")

    @staticmethod
    def _clickable(view: dict | None) -> bool:
        """Its centre is in the part of it a user sees (not cut off by the viewport or a scroll box)."""
        if not view or not view["vis"]:
            return False
        x, y, w, h = view["box"]
        vx, vy, vw, vh = view["vis"]
        cx, cy = x + w / 2, y + h / 2
        return vx <= cx <= vx + vw and vy <= cy <= vy + vh

    async def bring_into_view(self, path: str, box: list) -> tuple[list, bool, str | None]:
        """Wheel-scroll (over the nearest scrollable box, else the page) until the element's centre is in the
        part of it a user can see. Returns its box, whether the wheel was enough (else it was scrolled into
        view by script, which the probe row records), and why a user cannot reach it at all (or None)."""
        env = self.env
        page = env.page
        w, h = env.width, env.height
        view = await page.evaluate(js.VIEW_JS, path)
        last = None
        for _ in range(8):
            if view is None:
                raise ReplayError(f"{path} is gone or has no box")
            if self._clickable(view):
                return view["box"], True, None
            _, by, _, bh = view["box"]
            sc = view["scroller"]
            if sc:
                mx = min(max(sc[0] + sc[2] / 2, 2), w - 3)
                my = min(max(sc[1] + sc[3] / 2, 2), h - 3)
            else:
                mx, my = w / 2, h / 2
            dy = int(by + bh / 2 - my)
            if dy == 0 or view["box"] == last:
                break
            last = view["box"]
            # The env's scroll step returns once the scroll has landed (it waits for the scroll event).
            await self.step({"type": "scroll", "x": int(mx), "y": int(my), "dx": 0, "dy": dy})
            view = await page.evaluate(js.VIEW_JS, path)
        problem = await page.evaluate(js.REACH_JS, path)
        if problem == "gone":
            raise ReplayError(f"{path} is gone")
        if problem and not problem.startswith(("covered", "hidden")):
            return (view or {}).get("box") or box, False, problem
        await page.evaluate(js.SCROLL_INTO_VIEW_JS, path)
        await self.frames(1)
        view = await page.evaluate(js.VIEW_JS, path)
        if view is None:
            raise ReplayError(f"{path} has no box")
        return view["box"], False, None

    def point(self, box: list) -> tuple[int, int]:
        """The centre of the part of the element on the screen. None of it there (the page moved it away
        again after it was scrolled into view) is a replay error, not a click at the screen's edge."""
        w, h = self.env.width, self.env.height
        x0, y0 = max(box[0], 0), max(box[1], 0)
        x1, y1 = min(box[0] + box[2], w - 1), min(box[1] + box[3], h - 1)
        if x1 <= x0 or y1 <= y0:
            raise ReplayError(f"the element at {[round(v) for v in box]} is off the {w}x{h} screen after scrolling")
        return int((x0 + x1) / 2), int((y0 + y1) / 2)

    async def perform(self, act: Act, path: str, x: int, y: int) -> None:
        if act.op == "hover":
            await self.step({"type": "move", "x": x, "y": y})
        elif act.op == "click":
            await self.step({"type": "click", "x": x, "y": y})
        elif act.op == "type":
            await self.step({"type": "click", "x": x, "y": y})
            await self.step({"type": "keypress", "keys": ["Control", "a"]})
            await self.step({"type": "type", "text": act.text})
            if self.c.qa.input_settle_ms:
                await asyncio.sleep(self.c.qa.input_settle_ms / 1000)
        elif act.op == "select":
            await self.step({"type": "click", "x": x, "y": y})
            await self.step({"type": "keypress", "keys": ["ArrowDown"]})
            await self.step({"type": "keypress", "keys": ["Enter"]})
        elif act.op == "slide":
            await self.step({"type": "click", "x": x, "y": y})
            await self.step({"type": "keypress", "keys": ["ArrowRight"]})
        if self.c.qa.settle_ms:
            await asyncio.sleep(self.c.qa.settle_ms / 1000)
        await self.frames(2)

    async def open_state(self, st: State) -> int | None:
        status = await self.fresh(st.url)
        for act in st.prefix:
            path, box = await self.locate(act)
            box, _, problem = await self.bring_into_view(path, box)
            if problem:
                raise ReplayError(f"{act.describe()}: {problem}")
            x, y = self.point(box)
            await self.perform(act, path, x, y)
        return status

    async def hover(self, path: str, box: dict) -> tuple[int, int, dict]:
        """Move the mouse to the control's aim point and snap what is there: (x, y, snap)."""
        x, y = self.point(box)
        await self.step({"type": "move", "x": x, "y": y})
        await self.frames(2)
        return x, y, await self.snap(path, x, y)

    # ------------------------------------------------------------ what the browser reports
    async def ax_names(self, elements: list[dict]) -> dict[str, tuple[str, str]]:
        """path -> (role, name) as Chromium's accessibility tree has them, for the controls whose name our
        page-side reading finds empty or takes from content where the role takes none from content."""
        cdp = self.env.cdp
        out: dict[str, tuple[str, str]] = {}
        for e in elements:
            if not (e.get("name_src") == "none" or (e.get("name_src") == "content" and e["role"] in NO_CONTENT_NAME)):
                continue
            r = await cdp.send("Runtime.evaluate", {"expression": f"document.querySelector({json.dumps(e['path'])})"})
            oid = (r.get("result") or {}).get("objectId")
            if not oid:
                continue
            try:
                tree = await cdp.send("Accessibility.getPartialAXTree", {"objectId": oid, "fetchRelatives": False})
            finally:
                await cdp.send("Runtime.releaseObject", {"objectId": oid})
            nodes = [n for n in tree.get("nodes", []) if not n.get("ignored")]
            if nodes:
                n = nodes[0]
                out[e["path"]] = ((n.get("role") or {}).get("value") or "", str((n.get("name") or {}).get("value") or ""))
        return out

    def page_events(self, st: State | None, action: str, element: dict | None = None, shot: bytes | None = None,
                     box: list | None = None, default_page: str = "") -> list[Defect]:
        """Defects from the browser's reports since the last clear (load errors, or a control's). An error on
        another page (after a navigation) belongs to that page, not to the control."""
        c, ev = self.c, self.ev
        found: list[Defect] = []
        here_url = st.url if st is not None else default_page

        def add(kind, detail, page_url, group=None):
            page = path_of(page_url) if page_url else here_url
            here = page == here_url
            el = element if here else None
            if group:  # the finding is about a resource, not about the control that showed it
                el = {"group": group}
            d = Defect(kind, detail, page=page, state=st.label() if (here and st) else "",
                       element=el, action=action, screenshot=shot,
                       shot_box=box if (here and not group) else None)
            found.append(c.add_defect(d, st))

        for page_url, msg in ev.js_errors:
            add("js_error", f"uncaught {msg}", page_url)
        for page_url, msg in ev.console:
            add("console_error", f"console.error: {msg[:300]}", page_url)
        for page_url, url, rtype, reason in ev.failed:
            if "BLOCKED_BY_CLIENT" in reason:
                add("failed_request", f"{rtype} request to {url} blocked: the app must not reach other origins "
                                      f"or the control API", page_url)
            elif rtype == "image":
                add("broken_image", f"image {path_of(url)} did not load", page_url, group="img:" + path_of(url))
            else:
                add("failed_request", f"{rtype} request {url} failed ({reason})", page_url)
        for page_url, url, rtype, status in ev.bad:
            if rtype == "image":
                add("broken_image", f"image {path_of(url)} did not load", page_url, group="img:" + path_of(url))
            else:
                add("failed_request", f"{rtype} request {path_of(url)} answered {status}", page_url)
        return found
