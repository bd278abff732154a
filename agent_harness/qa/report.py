"""QA findings and the two reports: report.json (machine-readable) and report.html (a person's view:
coverage table, defects by kind, a screenshot of each defect with the element outlined)."""

from __future__ import annotations

import html
import io
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from agent_harness.qa.spec import DEFECT_KINDS

KIND_TITLES = {
    "dead_control": "Controls that do nothing",
    "http_error": "Links and pages answering 4xx/5xx",
    "js_error": "Uncaught JavaScript errors",
    "console_error": "Console errors",
    "failed_request": "Failed requests",
    "broken_image": "Broken or blank images",
    "text_overflow": "Text overflowing its box",
    "unreachable": "Controls that cannot be reached",
    "unnamed": "Controls without an accessible name",
    "empty_results": "Empty result pages",
    "mismatched_results": "Results that do not match the query",
    "query_error": "Query recipes that could not be played",
    "task_invalid": "Tasks failing oracle 1 / noop 0 / near-miss 0",
    "goal_lint": "Task goals naming what the world lacks",
    "untranslated": "Words left in English on a page in another language",
}


@dataclass
class Defect:
    kind: str
    detail: str
    page: str = ""  # the URL path where it was seen
    template: str = ""  # the page's template (/thread/{n})
    state: str = ""  # how the page state was reached ("" = opened directly; else the actions before)
    element: dict | None = None  # {role, name, path, box}
    action: str = ""  # what QA did when it happened ("click button 'Send'")
    count: int = 1
    seen_on: list[str] = field(default_factory=list)  # other pages where the same finding was seen (first 10)
    allowed: str | None = None  # the allow-list reason, when declared benign
    screenshot: bytes | None = field(default=None, repr=False)
    shot_box: tuple | None = None  # the element's box on the screenshot
    shot_file: str | None = None

    def key(self) -> tuple:
        """Findings with the same key are one defect (seen `count` times): a control's group or an image
        wherever it appears; a page-level finding per page template."""
        el = self.element or {}
        group = el.get("group") or ""
        if group:
            if self.kind in ("text_overflow", "broken_image"):
                return (self.kind, group)  # the same box (every row's) or the same image, wherever it is
            return (self.kind, group, _shape(self.detail))
        if self.kind in ("js_error", "console_error", "failed_request"):
            return (self.kind, _shape(self.detail))  # the same script error on every page is one bug
        return (self.kind, self.template or self.page, el.get("name") or "", _shape(self.detail))

    def to_json(self) -> dict[str, Any]:
        el = None
        if self.element:
            el = {k: self.element.get(k) for k in ("role", "name", "path", "box") if self.element.get(k) is not None}
            el = el or None
        d = {"kind": self.kind, "detail": self.detail, "page": self.page, "template": self.template,
             "state": self.state, "element": el, "action": self.action, "count": self.count,
             "screenshot": self.shot_file}
        if self.seen_on:
            d["seen_on"] = self.seen_on
        if self.allowed:
            d["allowed"] = self.allowed
        return d


def _shape(s: str) -> str:
    import re

    return re.sub(r"\d+", "#", s or "")[:160]


@dataclass
class QAReport:
    app: str
    declared: bool = False
    config: dict = field(default_factory=dict)
    seconds: float = 0.0
    states: list[dict] = field(default_factory=list)  # coverage rows, one per crawled page/dialog state
    not_crawled: list[dict] = field(default_factory=list)  # discovered but over budget
    probes: list[dict] = field(default_factory=list)  # one per exercised control: what happened
    defects: list[Defect] = field(default_factory=list)
    allowed: list[Defect] = field(default_factory=list)
    queries: list[dict] = field(default_factory=list)
    tasks: list[dict] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # QA's own trouble (an element that vanished...)
    timings: dict = field(default_factory=dict)

    # ------------------------------------------------------------------ summary
    @property
    def ok(self) -> bool:
        return not self.defects

    def by_kind(self) -> dict[str, int]:
        c = Counter(d.kind for d in self.defects)
        return {k: c[k] for k in DEFECT_KINDS if c[k]}

    def coverage(self) -> dict[str, Any]:
        pages = [s for s in self.states if not s["prefix"]]
        outcomes = Counter(p["outcome"] for p in self.probes)
        return {
            "pages": len(pages),
            "templates": len({s["template"] for s in pages}),
            "dialog_states": len(self.states) - len(pages),
            "not_crawled": len(self.not_crawled),
            "elements_seen": sum(s["elements"] for s in self.states),
            "groups": sum(s["groups"] for s in self.states),
            "exercised": len(self.probes),
            "not_exercised": sum(s["not_exercised"] for s in self.states),
            "disabled": sum(s["disabled"] for s in self.states),
            "outcomes": dict(sorted(outcomes.items(), key=lambda kv: -kv[1])),
            "queries": len(self.queries),
            "tasks": len(self.tasks),
            "defects": len(self.defects),
            "defects_by_kind": self.by_kind(),
            "allowed": len(self.allowed),
            "qa_errors": len(self.errors),
            "seconds": round(self.seconds, 1),
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "app": self.app,
            "ok": self.ok,
            "declared": self.declared,
            "config": self.config,
            "coverage": self.coverage(),
            "defects": [d.to_json() for d in self.defects],
            "allowed": [d.to_json() for d in self.allowed],
            "states": self.states,
            "not_crawled": self.not_crawled,
            "probes": self.probes,
            "queries": self.queries,
            "tasks": self.tasks,
            "errors": self.errors,
            "timings": self.timings,
        }

    # ------------------------------------------------------------------ writing
    def write(self, out: Path, max_shots: int = 300) -> Path:
        out = Path(out)
        shots = out / "shots"
        shots.mkdir(parents=True, exist_ok=True)
        n = 0
        for d in self.defects + self.allowed:
            if d.screenshot is None or n >= max_shots:
                continue
            n += 1
            name = f"{n:03d}-{d.kind}.png"
            (shots / name).write_bytes(outline(d.screenshot, d.shot_box, d.kind))
            d.shot_file = f"shots/{name}"
        (out / "report.json").write_text(json.dumps(self.to_json(), indent=1, ensure_ascii=False) + "\n")
        (out / "report.html").write_text(render_html([self]))
        return out / "report.html"


def outline(png: bytes, box: tuple | None, label: str = "") -> bytes:
    """The screenshot with the element outlined in red (and a little caption)."""
    im = Image.open(io.BytesIO(png)).convert("RGB")
    if box:
        x, y, w, h = [int(v) for v in box]
        x0, y0 = max(0, x - 3), max(0, y - 3)
        x1, y1 = min(im.width - 1, x + w + 2), min(im.height - 1, y + h + 2)
        if x1 > x0 and y1 > y0:
            d = ImageDraw.Draw(im)
            for i in range(3):
                d.rectangle([x0 - i, y0 - i, x1 + i, y1 + i], outline=(229, 20, 20))
            if label:
                ty = y0 - 18 if y0 >= 20 else min(im.height - 16, y1 + 4)
                tw = 7 * len(label) + 8
                d.rectangle([x0, ty, x0 + tw, ty + 15], fill=(229, 20, 20))
                d.text((x0 + 4, ty + 2), label, fill=(255, 255, 255))
    buf = io.BytesIO()
    im.save(buf, format="PNG", optimize=False, compress_level=3)
    return buf.getvalue()


# ---------------------------------------------------------------------------- HTML
CSS = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:24px auto;max-width:1320px;color:#1f2328;padding:0 16px}
h1{font-size:24px;margin:0 0 4px} h2{font-size:19px;margin:32px 0 8px;border-bottom:1px solid #d0d7de;padding-bottom:4px}
h3{font-size:16px;margin:20px 0 8px}
table{border-collapse:collapse;margin:8px 0 16px;width:100%} th,td{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f6f8fa} td.n{text-align:right;font-variant-numeric:tabular-nums}
.ok{color:#1a7f37;font-weight:600} .bad{color:#cf222e;font-weight:600} .muted{color:#656d76}
.defect{border:1px solid #d0d7de;border-radius:6px;margin:12px 0;padding:10px 12px}
.defect .kind{display:inline-block;background:#cf222e;color:#fff;border-radius:10px;padding:0 8px;font-size:12px;margin-right:6px}
.defect.allowed .kind{background:#9a6700}
.defect img{max-width:100%;border:1px solid #d0d7de;margin-top:8px}
code{background:#f6f8fa;padding:1px 4px;border-radius:4px;font-size:12.5px;word-break:break-all}
details summary{cursor:pointer}
"""


def _e(s: Any) -> str:
    return html.escape(str(s if s is not None else ""))


def render_html(reports: list[QAReport]) -> str:
    parts = ["<!doctype html><html><head><meta charset='utf-8'><title>uigym QA: ",
             _e(", ".join(r.app for r in reports)), "</title><style>", CSS, "</style></head><body>"]
    parts.append(f"<h1>uigym QA: {_e(', '.join(r.app for r in reports))}</h1>")
    # Coverage, one row per app.
    parts.append("<h2>Coverage</h2><table><tr><th>app</th><th>pages (templates)</th><th>dialog / menu states</th>"
                 "<th>elements seen</th><th>groups</th><th>exercised</th><th>not exercised (caps)</th>"
                 "<th>queries</th><th>tasks</th><th>defects</th><th>seconds</th></tr>")
    for r in reports:
        c = r.coverage()
        cls = "ok" if r.ok else "bad"
        parts.append(
            f"<tr><td>{_e(r.app)}</td><td class=n>{c['pages']} ({c['templates']})</td><td class=n>{c['dialog_states']}</td>"
            f"<td class=n>{c['elements_seen']}</td><td class=n>{c['groups']}</td><td class=n>{c['exercised']}</td>"
            f"<td class=n>{c['not_exercised']}</td><td class=n>{c['queries']}</td><td class=n>{c['tasks']}</td>"
            f"<td class='n {cls}'>{c['defects']}</td><td class=n>{c['seconds']}</td></tr>")
    parts.append("</table>")
    for r in reports:
        parts.append(_app_section(r, multi=len(reports) > 1))
    parts.append("</body></html>")
    return "".join(parts)


def _app_section(r: QAReport, multi: bool) -> str:
    c = r.coverage()
    p = [f"<h2>{_e(r.app)}: " + ("<span class=ok>no defects</span>" if r.ok else f"<span class=bad>{len(r.defects)} defects</span>")
         + "</h2>"]
    if not r.declared:
        p.append("<p class=muted>This app declares no QA inputs (apps/&lt;app&gt;/qa.py): crawled from its start page, "
                 "no data-completeness queries.</p>")
    p.append("<h3>Defects by kind</h3><table><tr><th>kind</th><th>defects</th><th>allowed</th></tr>")
    allowed = Counter(d.kind for d in r.allowed)
    for k in DEFECT_KINDS:
        n = c["defects_by_kind"].get(k, 0)
        p.append(f"<tr><td>{_e(KIND_TITLES[k])} <span class=muted>({k})</span></td>"
                 f"<td class='n {'bad' if n else ''}'>{n}</td><td class=n>{allowed.get(k, 0) or ''}</td></tr>")
    p.append("</table>")
    p.append("<h3>What the controls did</h3><table><tr>" + "".join(f"<th>{_e(k)}</th>" for k in c["outcomes"])
             + "</tr><tr>" + "".join(f"<td class=n>{v}</td>" for v in c["outcomes"].values()) + "</tr></table>")
    p.append("<details><summary>Pages and states crawled "
             f"({len(r.states)}; {len(r.not_crawled)} more discovered but over the budget)</summary>"
             "<table><tr><th>page</th><th>template</th><th>reached by</th><th>elements</th><th>new groups</th>"
             "<th>exercised</th><th>not exercised</th><th>defects</th></tr>")
    for s in r.states:
        p.append(f"<tr><td><code>{_e(s['url'])}</code></td><td><code>{_e(s['template'])}</code></td>"
                 f"<td>{_e(' → '.join(s['prefix']) or 'opened directly')}</td><td class=n>{s['elements']}</td>"
                 f"<td class=n>{s['groups']}</td><td class=n>{s['exercised']}</td><td class=n>{s['not_exercised']}</td>"
                 f"<td class=n>{s['defects']}</td></tr>")
    p.append("</table>")
    if r.not_crawled:
        by_t = Counter((x["template"], x.get("why", "")) for x in r.not_crawled)
        p.append("<p class=muted>Discovered, not crawled (template: count, why): " + ", ".join(
            f"<code>{_e(t)}</code>: {n} ({_e(why)})" for (t, why), n in by_t.most_common(80)) + "</p>")
    p.append("</details>")
    if r.queries:
        p.append("<details><summary>Data completeness: "
                 f"{len(r.queries)} queries</summary><table><tr><th>path</th><th>query</th><th>results</th><th>verdict</th></tr>")
        for q in r.queries:
            p.append(f"<tr><td>{_e(q['path'])}</td><td>{_e(q['query'])}</td><td class=n>{_e(q.get('results'))}</td>"
                     f"<td class={'ok' if q['ok'] else 'bad'}>{_e(q['verdict'])}</td></tr>")
        p.append("</table></details>")
    if r.tasks:
        bad = sum(1 for t in r.tasks if not t["ok"])
        p.append(f"<details><summary>Task health: {len(r.tasks) - bad}/{len(r.tasks)} tasks healthy</summary>"
                 "<table><tr><th>task</th><th>oracle / noop / near-misses</th><th>goal lint</th></tr>")
        for t in r.tasks:
            probes = ", ".join(f"{k}={v}" for k, v in t.get("rewards", {}).items())
            p.append(f"<tr><td>{_e(t['id'])}</td><td>{_e(probes)}</td><td>{_e('; '.join(t.get('lint', [])) or 'ok')}</td></tr>")
        p.append("</table></details>")
    if r.errors:
        p.append(f"<details><summary>QA could not exercise {len(r.errors)} things</summary><ul>"
                 + "".join(f"<li>{_e(e)}</li>" for e in r.errors[:200]) + "</ul></details>")
    for title, items in (("Defects", r.defects), ("Allowed (declared benign)", r.allowed)):
        if not items:
            continue
        p.append(f"<h3>{title}</h3>")
        for d in items:
            el = d.element or {}
            what = (f"{_e(el.get('role', ''))} <b>{_e(el.get('name') or '(no name)')}</b>"
                    if el.get("role") or el.get("name") is not None and el.get("path") else "")
            p.append(f"<div class='defect{' allowed' if d.allowed else ''}'><span class=kind>{_e(d.kind)}</span>{what} "
                     f"<span class=muted>on</span> <code>{_e(d.page)}</code>"
                     + (f" <span class=muted>after</span> {_e(d.state)}" if d.state else "")
                     + (f" <span class=muted>×{d.count}</span>" if d.count > 1 else "")
                     + (f"<div class=muted>also on: {_e(', '.join(d.seen_on))}</div>" if d.seen_on else "")
                     + f"<div>{_e(d.detail)}</div>"
                     + (f"<div class=muted>QA did: {_e(d.action)}</div>" if d.action else "")
                     + (f"<div class=muted>allowed: {_e(d.allowed)}</div>" if d.allowed else "")
                     + (f"<div class=muted>element: <code>{_e(el.get('path'))}</code></div>" if el.get("path") else "")
                     + (f"<a href='{_e(d.shot_file)}'><img loading=lazy src='{_e(d.shot_file)}' alt='screenshot'></a>"
                        if d.shot_file else "")
                     + "</div>")
    return "".join(p)
