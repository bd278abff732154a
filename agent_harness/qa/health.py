"""Task health: every task's oracle gets 1, noop 0, each near-miss 0 (the eval's own validation), and its
goal passes the lint (names only what its world has, dates its frozen clock backs)."""

from __future__ import annotations

import datetime as dt
import html as htmllib
import re
import uuid

from agent_harness.qa.lint import lint_goal, task_known
from agent_harness.qa.report import Defect
from gym_core.env import WORLD_COOKIE
from gym_core.runtime import Runtime
from gym_core.server import AppServer


def page_text(markup: str) -> str:
    """A page's visible words plus its accessible names (aria-label, title, placeholder, alt)."""
    attrs = re.findall(r"\b(?:aria-label|title|placeholder|alt)\s*=\s*\"([^\"]*)\"", markup)
    body = re.sub(r"(?is)<(script|style)\b.*?</\1>", " ", markup)
    body = re.sub(r"(?s)<[^>]+>", " ", body)
    return htmllib.unescape(" ".join(body.split()) + "\n" + "\n".join(attrs))


async def lint_tasks(app: str, tasks: list, terms: list[str], runtime: Runtime | None = None) -> dict[str, list[str]]:
    """task id -> goal problems. Reads each task's start state (its seed, now and fixtures) and start page
    through the control API and plain HTTP: no browser."""
    runtime = runtime or Runtime.current()
    server: AppServer = await runtime.server(app)
    control = runtime.control(server)
    world = f"qa-lint-{uuid.uuid4().hex[:8]}"
    out: dict[str, list[str]] = {}
    try:
        for t in tasks:
            info = await control.reset(world, t.seed, t.now.isoformat() if t.now else None, t.fixtures)
            state = await control.state(world)
            r = await runtime.http.get(server.url + t.start_path, headers={"Cookie": f"{WORLD_COOKIE}={world}"},
                                       timeout=30.0)
            now = dt.datetime.fromisoformat(info["now"])
            known = task_known(t, state, page_text(r.text), terms)
            out[t.id] = lint_goal(t.goal, known, now)
    finally:
        try:
            await control.drop(world)
        except Exception:  # noqa: BLE001
            pass
    return out


async def task_health(app: str, tasks: list, terms: list[str], *, workers: int = 2, near_misses: bool = True,
                      runtime: Runtime | None = None) -> tuple[list[dict], list[Defect]]:
    from agent_harness.validate import validate_tasks

    runtime = runtime or Runtime.current()
    lint = await lint_tasks(app, tasks, terms, runtime)
    results = await validate_tasks(tasks, workers=workers, near_misses=near_misses)
    rows, defects = [], []
    by_id = {t.id: t for t in tasks}
    for r in results:
        t = by_id[r.task_id]
        rewards = {p.kind: (p.reward if p.error is None else f"error: {p.error[:120]}") for p in r.probes}
        problems = lint.get(t.id, [])
        rows.append({"id": t.id, "ok": r.ok and not problems, "rewards": rewards, "lint": problems})
        el = {"role": "task", "name": t.id, "group": t.id}
        if not r.ok:
            defects.append(Defect("task_invalid", r.failures().strip()[:1500], page=t.start_path, element=el,
                                  action="uigym tasks validate"))
        for p in problems:
            defects.append(Defect("goal_lint", f"goal {t.goal!r} {p}", page=t.start_path, element=el))
    return rows, defects
