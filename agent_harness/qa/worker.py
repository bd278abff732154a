"""A crawler worker: one AsyncUIEnv (a browser context and a world) that runs jobs from the crawler's
queue: crawl a state (page checks, enumerate controls, queue probes) or probe a control (reach the state
again in a fresh world, act on the control as a person would, classify what happened)."""

from __future__ import annotations

import asyncio
import json
import re
import time
import traceback
import uuid
from collections import defaultdict
from urllib.parse import urlsplit

from playwright.async_api import Error as PlaywrightError

from agent_harness.qa import js
from agent_harness.qa.events import Events
from agent_harness.qa.report import Defect
from agent_harness.qa.states import (
    ACTION_ROLES, CLOSE_NAME, NO_CONTENT_NAME, TYPE_TEXT, Act, ReplayError, State, path_of, group_key, pixels_changed,
    world_hash,
)
from gym_core.env import AsyncUIEnv, EnvConfig


class Worker:
    def __init__(self, crawler, i: int):  # crawler: agent_harness.qa.crawler.Crawler, which makes its workers
        self.c = crawler
        self.i = i
        self.env: AsyncUIEnv | None = None
        self.ev = Events(crawler.origin)
        self.control = None
        self._attached_page = None

    # ------------------------------------------------------------ env and world
    def _new_env(self) -> AsyncUIEnv:
        return AsyncUIEnv(self.c.app, EnvConfig(max_steps=10**9), runtime=self.c.runtime,
                          world_id=f"qa-{self.i}-{uuid.uuid4().hex[:8]}")

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

    # ------------------------------------------------------------ the job loop
    async def loop(self) -> None:
        """Take jobs until cancelled. A failing job is reported and never stops the worker."""
        c = self.c
        while True:
            job = await c.queue.get()
            try:
                await self._handle(job)
            except asyncio.CancelledError:
                raise
            except BaseException as e:  # noqa: BLE001 - the worker must outlive any job
                c.report.errors.append(f"QA worker error on a {job[0]} job: {type(e).__name__}: {e}")
            finally:
                c.queue.task_done()

    async def _handle(self, job) -> None:
        c = self.c
        if c.over_time():
            self._skip(job)
            return
        t0 = time.perf_counter()
        what = self._job_label(job)
        try:
            await asyncio.wait_for(self.run_job(job), c.cfg.job_timeout_s)
        except (TimeoutError, ReplayError, PlaywrightError, Exception) as e:  # noqa: BLE001
            msg = str(e).splitlines()[0] if str(e) else type(e).__name__
            if not isinstance(e, (ReplayError, asyncio.TimeoutError, PlaywrightError)):
                msg += " | " + traceback.format_exc(limit=3).replace("\n", " ")[-400:]
            c.report.errors.append(f"{what}: {type(e).__name__}: {msg}")
            if job[0] == "probe":
                job[1].not_exercised += 1
            await self._recycle()
        dt_ = time.perf_counter() - t0
        c.timings[f"{job[0]}_s"] += dt_
        c.timings[f"{job[0]}s"] += 1
        if c.cfg.verbose:
            import sys

            print(f"[qa w{self.i} {time.monotonic() - c.started:6.1f}s] {dt_:5.2f}s {what}", file=sys.stderr, flush=True)

    def _skip(self, job) -> None:
        if job[0] == "probe":
            job[1].not_exercised += 1
        elif job[0] == "crawl":
            st = job[1]
            self.c.report.not_crawled.append({"url": st.url, "prefix": [a.describe() for a in st.prefix],
                                              "template": st.template, "why": "time limit"})
        elif job[0] == "query":
            self.c.report.errors.append(f"query {job[1].name!r} {job[2]!r}: not run (time limit)")

    @staticmethod
    def _job_label(job) -> str:
        if job[0] == "crawl":
            st = job[1]
            return f"crawl {st.url}" + (f" after {st.label()}" if st.prefix else "")
        if job[0] == "probe":
            st, el = job[1], job[2]
            return f"probe {el['role']} {el['name']!r} on {st.url}" + (f" after {st.label()}" if st.prefix else "")
        return f"query {job[1].name!r} with {job[2]!r}"

    async def _recycle(self) -> None:
        """After a failed job: a fresh browser context (the world is reset by the next job anyway)."""
        if self.env is not None:
            try:
                await self.env.close_context()  # forgets the context first: a failed close leaves nothing behind
            except Exception:  # noqa: BLE001 - a broken context is what we are getting rid of
                pass
        self._attached_page = None

    async def run_job(self, job) -> None:
        kind = job[0]
        if kind == "crawl":
            await self.crawl(job[1])
        elif kind == "probe":
            await self.probe(job[1], job[2], job[3])
        elif kind == "query":
            from agent_harness.qa.queries import run_query

            await run_query(self, job[1], job[2])

    # ------------------------------------------------------------ crawl
    async def crawl(self, st: State) -> None:
        c = self.c
        status = await self.open_state(st)
        page = self.env.page
        if st.prefix:
            await self.env.fonts_ready()  # a dialog may use a font the page had not used yet
        if path_of(page.url) != st.url and not st.prefix:
            # A redirect: crawl the target instead (once).
            if status is not None and status < 400:
                c.propose(page.url, (), st.parent)
                st.template = c.templates(st.url) + " (redirects)"
                return
        if status is not None and status >= 400:
            if st.start:
                c.add_defect(Defect("http_error", f"start page answers {status}", page=st.url), st)
            elif st.via is not None and st.parent is not None:
                c.add_defect(Defect("http_error", f"leads to {st.url}, which answers {status}", page=st.parent.url,
                                    element=st.via, action="opened the link's target"), st.parent)
            else:
                c.report.errors.append(f"{st.url} answers {status} when opened in a fresh world")
            return
        st.digest = await self.digest()
        enum = await self.enumerate()
        checks = await page.evaluate(js.CHECKS_JS, {})
        ax = await self.ax_names(enum["elements"])
        shots: list[tuple[Defect, str | None]] = [(d, None) for d in self.page_events(st, "")]
        parent_known = st.parent.known if (st.parent is not None and st.prefix) else set()
        st.known = {e["path"] for e in enum["elements"]}

        # Controls: names, reachability, groups.
        by_group: dict[tuple, list[dict]] = defaultdict(list)
        for el in enum["elements"]:
            if el["path"] in parent_known:
                continue
            st.elements += 1
            axr = ax.get(el["path"])
            if axr is not None:
                el["ax_role"], el["ax_name"] = axr
            el_info = {"role": el.get("ax_role") or el["role"], "name": el["name"], "path": el["path"],
                       "box": el["box"], "group": repr(group_key(el, c.templates))}
            if el["how"] == "pointer" and el["role"] in ("generic", "none", "presentation"):
                d = Defect("unnamed", "looks clickable (pointer cursor) but has no role or accessible name: "
                                      f"an agent reading the accessibility tree cannot find it (text: {el['name']!r})",
                           page=st.url, state=st.label(), element=el_info)
                shots.append((c.add_defect(d, st), el["path"]))
            elif axr is not None and not (axr[1] or "").strip() and axr[0] not in ("generic", "none", "presentation"):
                d = Defect("unnamed", f"{axr[0]} without an accessible name (give it text or aria-label)",
                           page=st.url, state=st.label(), element=el_info)
                shots.append((c.add_defect(d, st), el["path"]))
            if el["disabled"] or el["readonly"]:
                st.disabled += 1
                continue
            if c.qa.skipped(el["role"], el["name"]):
                st.not_exercised += 1
                continue
            by_group[group_key(el, c.templates)].append(el)

        queued = 0
        for key, els in by_group.items():
            if key in c.groups:
                continue
            if queued >= c.cfg.max_elements:
                st.not_exercised += len(els[: c.cfg.samples])
                continue
            c.groups[key] = st.id
            st.groups += 1
            queued += 1
            picks = [els[0]] if len(els) == 1 or c.cfg.samples <= 1 else [els[0], els[len(els) // 2]][: c.cfg.samples]
            for el in picks[: c.cfg.samples]:
                c.queue.put_nowait(("probe", st, el, key))
            # The other links of a list are not clicked (their component is proven by the samples), but
            # where they lead is still crawled, and a target that answers 4xx/5xx is still that link's defect.
            for el in els:
                if el in picks or el["role"] != "link" or not el.get("href") or (el.get("raw_href") or "#")[:1] == "#":
                    continue
                c.propose(el["href"], (), st, via={"role": el["role"], "name": el["name"], "path": el["path"],
                                                   "box": el["box"], "group": repr(key) + el["href"]},
                          family=repr(key))

        # Page checks: images and text overflow.
        for im in checks["images"]:
            src = path_of(im["src"]) if im["src"] else "(no src)"
            d = Defect("broken_image", f"image {src} {im['problem']}", page=st.url, state=st.label(),
                       element={"role": "img", "name": im.get("alt") or "", "path": im["path"], "box": im["box"],
                                "group": "img:" + src})
            shots.append((c.add_defect(d, st), im["path"]))
        for ov in checks["overflow"]:
            d = Defect("text_overflow", f"text {ov['text']!r} {ov['how']} by {ov['amount']}px",
                       page=st.url, state=st.label(),
                       element={"role": ov["tag"], "name": ov["text"][:60], "path": ov["path"], "box": ov["box"],
                                "group": re.sub(r":nth-of-type\(\d+\)", "", ov["path"]) + " " + ov["how"]})
            shots.append((c.add_defect(d, st), ov["path"]))
        await self._shots(shots)

    async def _shots(self, shots: list[tuple[Defect, str | None]], cap: int = 8) -> None:
        """A screenshot of each new page-level defect, the element scrolled into view."""
        page = self.env.page
        base = None
        for d, path in shots[:cap]:
            if d.screenshot is not None:
                continue
            box = (d.element or {}).get("box")
            if path:
                try:
                    await page.evaluate(js.SCROLL_INTO_VIEW_JS, path)
                    b = await page.locator(path).first.bounding_box()
                    if b:
                        box = [b["x"], b["y"], b["width"], b["height"]]
                    d.screenshot = await self.shot()
                    d.shot_box = box
                    continue
                except PlaywrightError:
                    pass
            if base is None:
                await page.evaluate("scrollTo(0, 0)")
                base = await self.shot()
            d.screenshot, d.shot_box = base, box

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

    # ------------------------------------------------------------ probe
    async def hover(self, path: str, box: dict) -> tuple[int, int, dict]:
        """Move the mouse to the control's aim point and snap what is there: (x, y, snap)."""
        x, y = self.point(box)
        await self.step({"type": "move", "x": x, "y": y})
        await self.frames(2)
        return x, y, await self.snap(path, x, y)

    async def probe(self, st: State, el: dict, gkey: tuple) -> None:
        c, qa = self.c, self.c.qa
        await self.open_state(st)
        env, page = self.env, self.env.page
        act = Act(op=el["act"], path=el["path"], role=el.get("ax_role") or el["role"], name=el["name"],
                  text=TYPE_TEXT.get(el.get("type") or "", qa.type_text) if el["act"] == "type" else "")
        path, box = await self.locate(act)
        box, by_wheel, problem = await self.bring_into_view(path, box)
        el_info = {"role": act.role, "name": act.name, "path": path, "box": box, "group": repr(gkey)}
        if problem:
            await self._unreachable(st, act, f"{act.role} {act.name!r} is {problem}", el_info, box)
            return
        # Hover first (as the mouse gets there), then the baseline, then the action. Before the hover the
        # page is as the crawl saw it (st.known); what the hover or the action shows is a state to crawl.
        x, y, pre = await self.hover(path, box)
        hit = pre["hit"]
        if hit and not hit.startswith("hidden under"):
            # Look again before calling it covered: a scroll that landed late can have moved the page
            # between the measurement and the hover (seen once in a food crawl, not reproducible).
            box, _, _ = await self.bring_into_view(path, box)
            x, y, pre = await self.hover(path, box)
            hit = pre["hit"]
            el_info["box"] = box
        if hit and hit.startswith("hidden under"):
            c.report.probes.append(self._probe_row(st, act, "hidden", []))
            return
        if hit:
            await self._unreachable(st, act, f"a click at its centre lands elsewhere: {hit}", el_info, box)
            return
        hover_new = set(pre["paths"]) - st.known
        if hover_new and len(st.prefix) < c.cfg.depth:
            await self._maybe_state(st, Act("hover", path, act.role, act.name), hover_new, page.url)
        shot0 = await self.shot()
        dig0, field0 = pre["digest"], pre["field"]
        url0, navs0 = page.url, env.navigations
        self.ev.clear()
        await self.perform(act, path, x, y)

        effects: list[str] = []
        navigated = env.navigations != navs0 or page.url != url0
        bad_nav = [(u, s) for u, s in self.ev.navs if s >= 400]
        for p in list(self.ev.pages):
            try:
                await p.wait_for_load_state("load", timeout=5000)
            except PlaywrightError:
                pass
        bad_nav += [(u, s) for u, s in self.ev.navs if s >= 400 and (u, s) not in bad_nav]
        for u, s in bad_nav:
            c.add_defect(Defect("http_error", f"leads to {path_of(u)}, which answers {s}", page=st.url,
                                state=st.label(), element=el_info, action=act.describe(), screenshot=shot0,
                                shot_box=box), st)
        if navigated:
            effects.append("navigated")
            u0, u1 = urlsplit(url0), urlsplit(page.url)
            if not bad_nav and (u0.path, u0.query) != (u1.path, u1.query):
                c.propose(page.url, (), st)
        for p in self.ev.pages:
            effects.append("new_tab")
            try:
                if not bad_nav:
                    c.propose(p.url, (), st)
            except PlaywrightError:
                pass
        if el.get("download") and not self.ev.downloads:
            # An <a download> link: the download event only comes once the server answers, which on a busy
            # machine can take longer than the settle time.
            for _ in range(50):
                if self.ev.downloads:
                    break
                await asyncio.sleep(0.1)
        if self.ev.downloads:
            effects.append("download")
        if self.ev.dialogs or self.ev.choosers:
            effects.append("native_dialog")
        dig1 = ""
        post = None
        if not navigated:
            try:
                post = await self.snap(path)
            except PlaywrightError:
                if env.navigations == navs0:
                    raise
                navigated = True  # a late navigation (a timer) took the page away
                effects.insert(0, "navigated")
        if post is not None:
            new = set(post["paths"]) - set(pre["paths"])
            new_containers = set(post["containers"]) - set(pre["containers"])
            if new or new_containers:
                effects.append("opened")
                if new and len(st.prefix) < c.cfg.depth:
                    await self._maybe_state(st, act, new, page.url)
            dig1 = post["digest"]
            if dig1 != dig0:
                effects.append("dom_changed")
            field1 = post["field"]
            if field0 and field1 and (field0["value"] != field1["value"] or field0["checked"] != field1["checked"]):
                effects.append("input")
            if not effects:
                shot1 = await self.shot()
                if pixels_changed(shot0, shot1, box) > 8:
                    effects.append("pixels_changed")
        # The world: checked when nothing visible happened, and when the page went back to how it was.
        dismissed = (bool(st.prefix) and st.prefix[-1].op != "hover" and not navigated and bool(dig1)
                     and st.parent is not None and dig1 == st.parent.digest)
        errors = self.page_events(st, act.describe(), el_info, shot0, box)
        tooltip = False
        if not navigated and (not effects or dismissed):
            after = await self.world_hash()
            if not effects and act.role not in ACTION_ROLES and not el.get("selected"):
                tooltip = bool(el.get("title")) or await self._hover_shows(shot0, box)  # before any reload
            if after != await self.baseline(st):
                effects.append("state_changed")

        outcome = effects[0] if effects else "nothing"
        if dismissed and "state_changed" not in effects and not ({"navigated", "new_tab", "download", "native_dialog"}
                                                                & set(effects)):
            if CLOSE_NAME.search(act.name) or el.get("selected"):
                outcome = "closed"
            else:
                outcome = "nothing"
                c.add_defect(Defect("dead_control", f"{act.role} {act.name!r} only closes what "
                                    f"'{st.prefix[-1].describe()}' opened; nothing else happens", page=st.url, state=st.label(), element=el_info, action=act.describe(),
                                    screenshot=shot0, shot_box=box), st)
        elif not effects:
            if el.get("selected"):
                outcome = "already_selected"
            elif tooltip:
                outcome = "tooltip"
            elif errors:
                outcome = "error"
            else:
                what = {"type": f"typing {act.text!r} into it changes nothing",
                        "select": "choosing another option changes nothing"}.get(act.op, "clicking it")
                detail = (what if act.op != "click" else
                          "clicking it does nothing: no navigation, no change to the page or the world")
                c.add_defect(Defect("dead_control", f"{act.role} {act.name!r}: {detail}", page=st.url,
                                    state=st.label(), element=el_info, action=act.describe(), screenshot=shot0,
                                    shot_box=box), st)
        st.exercised += 1
        c.report.probes.append(self._probe_row(st, act, outcome, effects, by_wheel))

    async def _unreachable(self, st: State, act: Act, detail: str, el_info: dict, box: list) -> None:
        """A control a person cannot reach (off screen, covered): a defect, with the screen as it is."""
        shot = await self.shot()
        self.c.add_defect(Defect("unreachable", detail, page=st.url, state=st.label(), element=el_info,
                                 action=act.describe(), screenshot=shot, shot_box=box), st)
        st.exercised += 1
        self.c.report.probes.append(self._probe_row(st, act, "unreachable", []))

    def _probe_row(self, st: State, act: Act, outcome: str, effects: list[str], by_wheel: bool = True) -> dict:
        row = {"page": st.url, "state": st.label(), "role": act.role, "name": act.name, "op": act.op,
               "outcome": outcome, "effects": effects}
        if not by_wheel:
            row["scrolled_by_script"] = True
        return row

    async def _hover_shows(self, shot_hovered: bytes, box: list) -> bool:
        """Whether hovering the element shows something (a tooltip): move away and compare."""
        env = self.env
        far = (env.width - 1 if box[0] < env.width / 2 else 0, env.height - 1 if box[1] < env.height / 2 else 0)
        await self.step({"type": "move", "x": far[0], "y": far[1]})
        await self.frames(2)
        away = await self.shot()
        fx, fy = far
        return pixels_changed(shot_hovered, away, box, pad=6) > 8 and pixels_changed(
            shot_hovered, away, [fx - 40, fy - 40, 80, 80], pad=0) > 8

    @staticmethod
    def _new_controls(before: set, after: dict) -> set[str]:
        """Paths of controls that appeared (a control that merely renamed itself, Star -> Unstar, did not)."""
        return {e["path"] for e in after["elements"]} - before

    async def _maybe_state(self, st: State, act: Act, new: set[str], url: str) -> None:
        """A dialog, menu or revealed controls: a state worth crawling if it shows controls not yet known."""
        c = self.c
        if any((a.op, a.path) == (act.op, act.path) for a in st.prefix):
            return
        full = await self.enumerate()
        fresh = [e for e in full["elements"] if e["path"] in new]
        if not any(group_key(e, c.templates) not in c.groups for e in fresh):
            return
        c.propose(url, st.prefix + (act,), st)
