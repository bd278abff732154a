"""Data completeness: each declared search/filter path, tried with the app's query vocabulary through the
UI; an empty result page, or results that do not match the query, is a defect."""

from __future__ import annotations

import asyncio
import re
import time
import unicodedata
from typing import Any, Protocol
from urllib.parse import quote

from agent_harness.qa.report import Defect
from agent_harness.qa.spec import QueryPath
from gym_core.env import AsyncUIEnv


class PageDriver(Protocol):
    """What a query needs of the crawler's worker (agent_harness.qa.worker.Worker, which runs the queries)."""

    c: Any  # the crawler: its app declaration (c.qa) and timings
    env: AsyncUIEnv

    async def fresh(self, path: str) -> int | None: ...
    async def step(self, action: dict) -> None: ...
    async def frames(self, n: int = 2) -> None: ...
    async def shot(self) -> bytes: ...
    def page_events(self, st: Any, action: str, element: dict | None = None, shot: bytes | None = None,
                    box: list | None = None, default_page: str = "") -> list[Defect]: ...

RESULTS_JS = r"""
([sel, inner]) => {
  const out = [];
  for (const el of document.querySelectorAll(sel)) {
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1 || !el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true})) continue;
    let t;
    if (inner) { const parts = el.querySelectorAll(inner); t = Array.from(parts).map(p => p.innerText || p.textContent).join(' '); }
    else t = el.innerText || el.textContent;
    const extra = [el.getAttribute('aria-label') || '', el.getAttribute('title') || ''].join(' ');
    out.push({text: (t || '').replace(/\s+/g, ' ').trim(), extra: extra.trim(),
              box: [Math.round(r.left), Math.round(r.top), Math.round(r.width), Math.round(r.height)]});
  }
  return out;
}
"""


def fold(s: str) -> str:
    """Case-, accent- and spacing-insensitive form of a text."""
    s = unicodedata.normalize("NFKD", s or "")
    s = "".join(ch for ch in s if not unicodedata.combining(ch))
    s = s.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    return " ".join(s.lower().split())


def matches(text: str, expect: str, tokens: bool) -> bool:
    t = fold(text)
    e = fold(expect)
    if not tokens:
        return e in t
    return all(w in t for w in re.findall(r"\w+", e))


async def run_query(w: PageDriver, qp: QueryPath, q: str) -> None:
    from agent_harness.agents import OracleAgent
    from agent_harness.locate import TargetNotFound

    c = w.c
    if qp.url:
        path = qp.url.replace("{q}", quote(q, safe=""))
    else:
        path = qp.page or c.qa.start_pages[0]
    row = {"path": qp.name, "query": q, "url": path, "results": None, "ok": False, "verdict": ""}
    c.report.queries.append(row)
    status = await w.fresh(path)
    page = w.env.page
    el = {"role": "query", "name": f"{qp.name}: {q}", "group": f"query:{qp.name}:{q}"}
    action = (f"open {path}" if qp.url else f"on {path}: " + "; ".join(_describe_step(s) for s in (qp.steps or [])))
    action = action.replace("{q}", q)
    if status is not None and status >= 400:
        row["verdict"] = f"page answers {status}"
        c.add_defect(Defect("http_error", f"query {qp.name!r} with {q!r}: {path} answers {status}", page=path,
                            element=el, action=action, screenshot=await w.shot()))
        return
    if qp.steps:
        agent = OracleAgent(steps=qp.step_models(q))
        await agent.reset(w.env, None)
        try:
            for _ in range(40):
                a = await agent.act({})
                if a.get("type") == "done":
                    break
                await w.step(a)
        except (TargetNotFound, RuntimeError) as e:
            row["verdict"] = f"recipe failed: {e}"
            c.add_defect(Defect("query_error", f"query {qp.name!r} with {q!r}: {e}", page=path, element=el,
                                action=action, screenshot=await w.shot()))
            return
    wait = (c.qa.settle_ms + (c.qa.input_settle_ms if qp.steps else 0)) / 1000
    if wait:
        await asyncio.sleep(wait)
    await w.frames(2)
    results = await page.evaluate(RESULTS_JS, [qp.results, qp.match_in])
    deadline = time.monotonic() + c.qa.results_timeout_ms / 1000
    while len(results) < qp.min_results and time.monotonic() < deadline:  # a live search still answering
        await asyncio.sleep(0.2)
        results = await page.evaluate(RESULTS_JS, [qp.results, qp.match_in])
    page_now = _path(page.url)
    row["results"] = len(results)
    row["url"] = page_now
    shot = None
    w.page_events(None, action, el, default_page=page_now)
    if len(results) < qp.min_results:
        shot = await w.shot()
        row["verdict"] = "empty" if not results else f"only {len(results)} results"
        c.add_defect(Defect("empty_results",
                            f"query {qp.name!r} with {q!r} shows {len(results)} results (at least {qp.min_results} "
                            "expected: the seeded world should answer an ordinary query)",
                            page=page_now, element=el, action=action, screenshot=shot))
        return
    expect = qp.expect.replace("{q}", q)
    if qp.match != "none" and results:
        # In another page language a result may show the query's word as the catalog has it (a picklist's Other is
        # Sonstiges on a German page, the world keeps Other).
        shown = c.shown(expect)
        good = [r for r in results if any(matches(r["text"] + " " + r["extra"], e, qp.tokens) for e in {expect, shown})]
        bad = [r for r in results if r not in good]
        failed = (qp.match == "all" and bad) or (qp.match == "any" and not good)
        if failed:
            shot = await w.shot()
            first = bad[0] if bad else results[0]
            d = Defect("mismatched_results",
                       f"query {qp.name!r} with {q!r}: {len(bad)} of {len(results)} results do not contain "
                       f"{expect!r} (first: {first['text'][:100]!r})",
                       page=page_now, element=el | {"box": first["box"]}, action=action, screenshot=shot,
                       shot_box=first["box"])
            c.add_defect(d)
            row["verdict"] = f"{len(bad)} of {len(results)} do not match"
            return
    row["ok"] = True
    row["verdict"] = "ok"


def _describe_step(s: dict) -> str:
    for k in ("click", "fill", "double_click", "hover"):
        if k in s:
            t = s[k]
            name = t.get("name") or t.get("text") or t.get("placeholder") or t.get("label") or t.get("css")
            return f"{k} {t.get('role', '')} {name!r}" + (f" with {s['text']!r}" if k == "fill" else "")
    if "press" in s:
        return "press " + "+".join(s["press"])
    if "type" in s:
        return f"type {s['type']!r}"
    return ", ".join(s)


def _path(url: str) -> str:
    from urllib.parse import urlsplit

    p = urlsplit(url)
    return (p.path or "/") + ("?" + p.query if p.query else "")
