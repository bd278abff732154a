"""A crawler worker: one AsyncUIEnv (a browser context and a world) that runs jobs from the crawler's
queue: crawl a state (page checks, enumerate controls, queue probes) or probe a control (reach the state
again in a fresh world, act on the control as a person would, classify what happened)."""

from __future__ import annotations

import asyncio
import re
import time
import traceback
from collections import defaultdict

from playwright.async_api import Error as PlaywrightError

from agent_harness.qa import js
from agent_harness.qa.probe import Prober
from agent_harness.qa.report import Defect
from agent_harness.qa.states import ReplayError, State, group_key, path_of


class Worker(Prober):
    """Runs the crawler's jobs: crawl a state, or probe a control (agent_harness/qa/probe.py), in its own
    env and world (agent_harness/qa/driver.py)."""

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
        why = c.out_of_budget()
        if why:
            self._skip(job, why)
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

    def _skip(self, job, why: str) -> None:
        if job[0] == "probe":
            job[1].not_exercised += 1
        elif job[0] == "crawl":
            st = job[1]
            self.c.report.not_crawled.append({"url": st.url, "prefix": [a.describe() for a in st.prefix],
                                              "template": st.template, "why": why})
        elif job[0] == "query":
            self.c.report.errors.append(f"query {job[1].name!r} {job[2]!r}: not run ({why})")

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
