"""Clone QA: prove an app's UI completeness and data completeness, and the health of its tasks.

    report = await run_qa("mail", QAConfig(pages=40, workers=2))
    report.write(Path("qa/mail"))          # report.json + report.html (+ shots/)
    report.ok                              # no defects

`uigym qa --app mail` is the command line (agent_harness/commands/qa.py); docs/qa.md is the manual,
including the declaration an app writes in apps/<app>/qa.py (agent_harness/qa/spec.py: AppQA).
"""

from __future__ import annotations

import time
import uuid

from agent_harness.qa.crawler import Crawler
from agent_harness.qa.language import crawl_lang
from agent_harness.qa.report import Defect, QAReport
from agent_harness.qa.spec import DEFECT_KINDS, AppQA, QueryPath, load_declaration, resolve_vocabulary
from agent_harness.qa.states import QAConfig
from gym_core.runtime import Runtime

__all__ = ["DEFECT_KINDS", "AppQA", "Defect", "QAConfig", "QAReport", "QueryPath", "load_declaration", "run_qa"]


async def _vocabulary(app: str, qa: AppQA, seed: int, runtime: Runtime) -> dict[str, list[str]]:
    if not any(not isinstance(v, list) for v in qa.vocabulary.values()):
        return resolve_vocabulary(qa, {})
    server = await runtime.server(app)
    control = runtime.control(server)
    world = f"qa-vocab-{uuid.uuid4().hex[:8]}"
    try:
        await control.reset(world, seed, None, [])
        state = await control.state(world)
    finally:
        try:
            await control.drop(world)
        except Exception:  # noqa: BLE001
            pass
    return resolve_vocabulary(qa, state)


async def run_qa(app: str, cfg: QAConfig | None = None, *, tasks: list | None = None,
                 qa: AppQA | None = None, runtime: Runtime | None = None) -> QAReport:
    """Crawl and exercise the app, run its declared queries and check its tasks. `tasks` overrides the
    bundled tasks of the app (None: those matching cfg.task_glob)."""
    cfg = cfg or QAConfig()
    declared = True
    if qa is None:
        qa, declared = load_declaration(app)
    runtime = runtime or Runtime.current()
    report = QAReport(app, declared=declared, config=cfg.as_dict())
    t0 = time.monotonic()
    crawler = Crawler(app, qa, cfg, report, runtime)
    if cfg.queries and qa.queries:
        vocab = await _vocabulary(app, qa, crawler.seed, runtime)
        for qp in qa.queries:
            for word in vocab[qp.vocab][: qp.max_queries or cfg.max_queries]:
                crawler.query_jobs.append(("query", qp, word))
    await crawler.run()
    report.timings["crawl_s"] = round(time.monotonic() - t0, 2)
    lang = crawl_lang(cfg.variant)
    if lang is not None:  # a page language other than English: no page the crawl reached shows English chrome
        from agent_harness.qa.language import language_defects
        from gym_core.variant import parse_variant

        t1 = time.monotonic()
        paths = [s.url for s in crawler.states if not s.prefix]
        for d in await language_defects(app, paths, lang, seed=crawler.seed, look=cfg.look,
                                        locale=parse_variant(cfg.variant).locale, runtime=runtime):
            crawler.add_defect(d)
        report.timings["language_s"] = round(time.monotonic() - t1, 2)

    if cfg.tasks or cfg.lint:
        if tasks is None:
            from tasks import select_tasks
            from tasks.schema import APPS

            tasks = select_tasks(cfg.task_glob, app=app) if app in APPS else []
        if tasks:
            from agent_harness.qa.health import task_health

            t1 = time.monotonic()
            rows, defects = await task_health(app, tasks, qa.goal_terms, workers=cfg.workers,
                                              near_misses=cfg.near_misses, validate=cfg.tasks, runtime=runtime,
                                              look=cfg.look, variant=cfg.variant)
            report.tasks = rows
            for d in defects:
                crawler.add_defect(d)
            report.timings["tasks_s"] = round(time.monotonic() - t1, 2)
    order = {k: i for i, k in enumerate(DEFECT_KINDS)}
    report.defects.sort(key=lambda d: (order.get(d.kind, 99), d.page, d.detail))
    report.seconds = time.monotonic() - t0
    return report
