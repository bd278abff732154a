"""The crawler: every reachable page and dialog state, every visible control exercised in a fresh world.

Work is a queue of jobs run by a few workers, each owning one AsyncUIEnv (one browser context and one
world) in the shared Chromium:

- crawl(state): reset the world, open the state's URL, replay the actions that reach it (a dialog or
  menu opened by a click, a row's actions shown by a hover), run the page checks (load errors, broken
  images, text overflow, nameless and unreachable controls), enumerate its controls, and queue a probe
  for each new group of controls;
- probe(state, control): reset, reach the state again, scroll the control into view with the wheel,
  hover it, then click / type / choose as a person would, and classify what happened (navigated,
  opened something, changed the DOM or the pixels, changed the world's state, or nothing). Pages and
  states it reveals become new crawl jobs.

A world reset is the control API's reset plus a page load in the same context (cookies and storage
cleared), so a probe costs a page load and a few screenshots, not a new browser context.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from urllib.parse import urlsplit

from agent_harness.qa.jobqueue import JobQueue
from agent_harness.qa.report import Defect, QAReport
from agent_harness.qa.spec import AppQA
from agent_harness.qa.states import Act, QAConfig, State, Templates, path_of
from agent_harness.qa.worker import Worker
from gym_core.runtime import Runtime


# ------------------------------------------------------------------------ the crawler
class Crawler:
    def __init__(self, app: str, qa: AppQA, cfg: QAConfig, report: QAReport, runtime: Runtime | None = None):
        self.app = app
        self.qa = qa
        self.cfg = cfg
        self.report = report
        self.runtime = runtime or Runtime.current()
        self.seed = cfg.seed if cfg.seed is not None else qa.seed
        self.templates = Templates()
        self.states: list[State] = []
        self.seen_states: set = set()
        self.per_template: Counter = Counter()
        self.groups: dict[tuple, int] = {}  # group key -> id of the state that owns it
        self.defect_index: dict[tuple, Defect] = {}
        self.queue: asyncio.Queue = JobQueue(cfg.order_seed)
        self.started = 0.0
        self.origin = ""
        self.workers: list[Worker] = []
        self.timings: Counter = Counter()
        self.query_jobs: list = []
        self.jobs_started = 0
        self._english: dict[str, str] = {}
        self._names: dict[str, str] | None = None

    def _catalog(self) -> dict[str, str]:
        """The app's catalog in the crawl's page language, as names read it ({} in English)."""
        if self._names is None:
            from agent_harness.qa.language import crawl_lang
            from apps import ui_names

            lang = crawl_lang(self.cfg.variant)
            self._names = {} if lang is None else ui_names(self.app, lang)
            self._english = {v: k for k, v in self._names.items()}
        return self._names

    def english(self, name: str) -> str:
        """An accessible name as the English page says it: in a crawl in another page language (the variant's lang),
        the app catalog's English for it, so the rules that read names (a Close button; the declaration's allow
        list) hold in every language. The name itself where the catalog has none."""
        self._catalog()
        return self._english.get(name, name)

    def shown(self, text: str) -> str:
        """The words a page in the crawl's language shows for the English `text` (a picklist value the world holds in
        English: Other is Sonstiges on a German page). `text` itself where the catalog has none."""
        return self._catalog().get(text, text)

    # ------------------------------------------------------------- bookkeeping
    def over_time(self) -> bool:
        return bool(self.cfg.time_limit_s) and time.monotonic() - self.started > self.cfg.time_limit_s

    def out_of_budget(self) -> str | None:
        """Why no more jobs start (a cap reached), or None. Counts the job about to start when it is None."""
        if self.over_time():
            return "time limit"
        if self.cfg.max_jobs and self.jobs_started >= self.cfg.max_jobs:
            return "job budget"
        self.jobs_started += 1
        return None

    def add_defect(self, d: Defect, state: State | None = None) -> Defect:
        """Record a finding; the same finding seen again only counts. Returns the recorded defect."""
        if not d.template and d.page:
            d.template = self.templates(d.page)
        allow = self.qa.allowed(d.to_json() | {"element": d.element or {}})
        name = (d.element or {}).get("name")
        if allow is None and name and self.english(name) != name:  # the declaration names it in English
            allow = self.qa.allowed(d.to_json() | {"element": {**d.element, "name": self.english(name)}})
        if allow is not None:
            d.allowed = allow.reason
        k = d.key() + (bool(d.allowed),)
        if k in self.defect_index:
            seen = self.defect_index[k]
            seen.count += 1
            if d.page and d.page != seen.page and d.page not in seen.seen_on and len(seen.seen_on) < 10:
                seen.seen_on.append(d.page)
            if d.element and d.element.get("path") and not (seen.element or {}).get("path"):
                seen.element, seen.screenshot, seen.shot_box = d.element, d.screenshot, d.shot_box
            elif seen.screenshot is None and d.screenshot is not None:
                seen.screenshot, seen.shot_box = d.screenshot, d.shot_box
            return seen
        self.defect_index[k] = d
        (self.report.allowed if d.allowed else self.report.defects).append(d)
        if state is not None and not d.allowed:
            state.defects += 1
        return d

    def propose(self, url: str, prefix: tuple[Act, ...], parent: State | None, start: bool = False,
                via: dict | None = None, family: str | None = None) -> State | None:
        """Queue a state to crawl, within the budgets. `family`: the targets of one list's links count as one
        template (a label list's pages are the same kind of page, whatever their URLs)."""
        parts = urlsplit(url)
        if parts.scheme and (f"{parts.scheme}://{parts.netloc}" != self.origin):
            return None
        path = path_of(url)
        if path.startswith(("/_gym", "/_shared/static", "/static/")):
            return None
        if self.qa.excluded(path):
            return None
        key = (path, tuple((a.op, a.path, a.name) for a in prefix))
        if key in self.seen_states:
            return None
        self.seen_states.add(key)
        template = self.templates(path)
        row = {"url": path, "prefix": [a.describe() for a in prefix], "template": template}
        if len(prefix) > self.cfg.depth:
            return None
        if not prefix and not start and self.per_template[template] >= self.cfg.per_template:
            self.report.not_crawled.append(row | {"why": "per-template cap"})
            return None
        if family is not None and self.per_template[family] >= self.cfg.per_template:
            self.report.not_crawled.append(row | {"why": "per-list cap"})
            return None
        if sum(1 for x in self.states if not x.start) >= self.cfg.pages and not start:
            self.report.not_crawled.append(row | {"why": "page budget"})
            return None
        if not prefix:
            self.per_template[template] += 1
        if family is not None:
            self.per_template[family] += 1
        st = State(len(self.states), path, prefix, template, parent=parent, start=start, via=via)
        self.states.append(st)
        self.queue.put_nowait(("crawl", st))
        return st

    # ------------------------------------------------------------------ run
    async def run(self) -> None:
        self.started = time.monotonic()
        server = await self.runtime.server(self.app)
        self.origin = server.url
        for p in self.qa.start_pages:
            self.propose(self.origin + p, (), None, start=True)
        for job in self.query_jobs:
            self.queue.put_nowait(job)
        n = max(1, self.cfg.workers)
        self.workers = [Worker(self, i) for i in range(n)]
        tasks = [asyncio.create_task(w.loop()) for w in self.workers]
        try:
            await self.queue.join()
        finally:
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await asyncio.gather(*(w.close() for w in self.workers), return_exceptions=True)
        self.report.states = [s.row() for s in self.states]
        self.report.timings.update({k: round(v, 2) for k, v in self.timings.items()})

