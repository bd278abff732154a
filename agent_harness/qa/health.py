"""Task health: every task's oracle gets 1, noop 0, each near-miss 0 (the eval's own validation), and its
goal passes the lint (names only what its world has, dates its frozen clock backs)."""

from __future__ import annotations

import datetime as dt
import html as htmllib
import json
import re
import uuid

from agent_harness.qa.lint import known_text, lint_goal, task_known
from agent_harness.qa.report import Defect
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
    worlds: dict[str, tuple[str, dt.datetime]] = {}  # many tasks share a world: read and fold each once
    pages: dict[tuple[str, str], str] = {}
    cookie: dict = {}  # the world's signed binding, from a reset (the same for every reset of `world`)
    try:
        for t in tasks:
            wkey = json.dumps([t.seed, t.now.isoformat() if t.now else None, t.fixtures], sort_keys=True, default=str)
            if wkey not in worlds:
                info = await control.reset(world, t.seed, t.now.isoformat() if t.now else None, t.fixtures)
                cookie = info["cookie"]
                worlds = {wkey: (known_text(await control.state(world)), dt.datetime.fromisoformat(info["now"]))} | (
                    worlds if len(worlds) < 4 else {})
                pages = {k: v for k, v in pages.items() if k[0] in worlds}
            elif (wkey, t.start_path) not in pages:
                info = await control.reset(world, t.seed, t.now.isoformat() if t.now else None, t.fixtures)
            state_text, now = worlds[wkey]
            if (wkey, t.start_path) not in pages:
                r = await runtime.http.get(server.url + t.start_path, headers={"Cookie": f"{cookie['name']}={cookie['value']}"},
                                           timeout=30.0)
                pages[(wkey, t.start_path)] = page_text(r.text)
            known = task_known(t, state_text, pages[(wkey, t.start_path)], terms)
            out[t.id] = lint_goal(t.goal, known, now)
    finally:
        try:
            await control.drop(world)
        except Exception:  # noqa: BLE001
            pass
    return out


async def task_health(app: str, tasks: list, terms: list[str], *, workers: int = 2, near_misses: bool = True,
                      validate: bool = True, runtime: Runtime | None = None,
                      look: str | None = None, variant: str | None = None) -> tuple[list[dict], list[Defect]]:
    """Goal lint for every task (cheap: no browser) and, with `validate`, the oracle / noop / near-miss
    episodes of `uigym tasks validate` (a browser episode each: the costly part)."""
    from agent_harness.validate import validate_tasks

    runtime = runtime or Runtime.current()
    lint = await lint_tasks(app, tasks, terms, runtime)
    results = await validate_tasks(tasks, workers=workers, near_misses=near_misses, look=look,
                                   variant=variant) if validate else []
    by_result = {r.task_id: r for r in results}
    rows, defects = [], []
    for t in tasks:
        r = by_result.get(t.id)
        rewards = {p.kind: (p.reward if p.error is None else f"error: {p.error[:120]}") for p in r.probes} if r else {}
        problems = lint.get(t.id, [])
        rows.append({"id": t.id, "ok": (r is None or r.ok) and not problems, "rewards": rewards, "lint": problems})
        el = {"role": "task", "name": t.id, "group": t.id}
        if r is not None and not r.ok:
            defects.append(Defect("task_invalid", r.failures().strip()[:1500], page=t.start_path, element=el,
                                  action="uigym tasks validate"))
        for p in problems:
            defects.append(Defect("goal_lint", f"goal {t.goal!r} {p}", page=t.start_path, element=el))
    return rows, defects
