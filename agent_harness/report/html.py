"""`uigym report`: a static HTML report of one or more eval runs (no server, no CDN).

    write_report([Path("runs/a"), Path("runs/b")], Path("report"))  ->  report/index.html

index.html: every run's summary (pass rate, pass@k, steps, tokens, time, errors), breakdowns by
app, difficulty and template side by side (pass rates over graded episodes; ungraded ones counted apart,
with a line saying why and how to grade them), error kinds, and a per-task grid comparing the runs
(A passes where B fails...). Each episode has a page: the goal, the verifier's report per check, and
every step's screenshot (the screen the model saw) with its action drawn on it: click markers, drag
paths, scroll arrows, typed text and keys, plus the model's text, parse errors and action errors.

Screenshots are referenced by relative paths into the run folders (keep the report next to them, as
OUT/report/ is), or copied into the report with `copy_images=True` so the folder stands alone.
"""

from __future__ import annotations

import html
import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from agent_harness.report.stats import (BREAKDOWN_KEYS, DIFFICULTY_ORDER, VARIANT_KEYS, error_kinds, fmt_interval,
                                        per_task, summarize, task_reliability, ungraded_note)
from agent_harness.report.budget import budget_line
from agent_harness.report.compare import compare_runs
from agent_harness.report.plots import write_plots
from agent_harness.report.training import training_run_of
from agent_harness.report.stats import breakdowns as stats_breakdowns
from agent_harness.results import latest_results, read_results

TEMPLATES = Path(__file__).parent / "templates"


@dataclass
class Run:
    idx: int
    label: str
    agent: str
    path: Path
    rows: list[dict]
    summary: dict = field(default_factory=dict)
    ungraded_note: str | None = None
    budget: str = ""
    training: str | None = None  # "step N of training run X" for a periodic eval

    @property
    def name(self) -> str:
        return self.label


def load_runs(dirs: list[Path]) -> list[Run]:
    """One Run per (folder, agent label) found in the folders' results.jsonl."""
    runs: list[Run] = []
    for d in dirs:
        d = Path(d)
        if not (d / "results.jsonl").exists():
            raise FileNotFoundError(f"{d} has no results.jsonl (is it an eval output folder?)")
        rows = latest_results(read_results(d))
        labels = sorted({r.get("agent", "?") for r in rows})
        for label in labels or ["(empty)"]:
            mine = [r for r in rows if r.get("agent", "?") == label]
            runs.append(Run(idx=len(runs), label=label, agent=label, path=d, rows=mine))
    names = [r.label for r in runs]
    for r in runs:  # same label in two folders: tell them apart by folder
        if names.count(r.label) > 1:
            r.label = f"{r.label} ({r.path.name})"
    for r in runs:
        r.summary = summarize(r.rows)
        r.ungraded_note = ungraded_note(r.rows, r.path)
        r.budget = budget_line(r.path)
        of = training_run_of(r.path)
        if of:
            r.training = (f"the periodic eval at step {of[1]} of the training run {of[0]}: "
                          f"uigym report {of[0]} draws its learning curve")
    return runs


# ------------------------------------------------------------------------ overlays
def _esc(s: Any) -> str:
    return html.escape(str(s), quote=True)


def _label(x: float, y: float, text: str, w: int, h: int, color: str) -> str:
    text = text if len(text) <= 60 else text[:59] + "\u2026"
    tw = 9.3 * len(text) + 16
    lx = min(max(4, x + 18), w - tw - 4)
    ly = min(max(4, y - 34), h - 30)
    return (f'<rect x="{lx:.0f}" y="{ly:.0f}" width="{tw:.0f}" height="26" rx="5" fill="{color}" opacity="0.92"/>'
            f'<text x="{lx + 7:.0f}" y="{ly + 18:.0f}" font-size="15" font-family="monospace" fill="#fff">'
            f'{_esc(text)}</text>')


def _banner(text: str, w: int, h: int, color: str) -> str:
    text = text.replace("\n", "\u21b5")
    text = text if len(text) <= 90 else text[:89] + "\u2026"
    tw = min(w - 16, 11.2 * len(text) + 24)
    return (f'<rect x="8" y="{h - 44}" width="{tw:.0f}" height="34" rx="6" fill="{color}" opacity="0.92"/>'
            f'<text x="18" y="{h - 21}" font-size="18" font-family="monospace" fill="#fff">{_esc(text)}</text>')


def overlay_svg(action: Any, viewport: tuple[int, int], parse_error: str = "") -> Markup:
    """The action drawn over a screenshot of `viewport` size (SVG in the screenshot's pixel space)."""
    w, h = viewport
    parts: list[str] = []
    red, blue, green, gray, purple = "#e53935", "#1e88e5", "#2e7d32", "#546e7a", "#8e24aa"
    a = action if isinstance(action, dict) else {}
    t = a.get("type")
    if parse_error:
        parts.append(_banner("unparsed reply: " + parse_error, w, h, red))
    elif t in ("click", "double_click", "move") and isinstance(a.get("x"), (int, float)):
        x, y = a["x"], a["y"]
        color = {"click": red if a.get("button", "left") == "left" else purple, "double_click": red,
                 "move": blue}[t]
        dash = ' stroke-dasharray="5 4"' if t == "move" else ""
        parts.append(f'<circle cx="{x}" cy="{y}" r="16" fill="none" stroke="{color}" stroke-width="3"{dash}/>')
        if t == "double_click":
            parts.append(f'<circle cx="{x}" cy="{y}" r="24" fill="none" stroke="{color}" stroke-width="2"/>')
        parts.append(f'<line x1="{x - 24}" y1="{y}" x2="{x + 24}" y2="{y}" stroke="{color}" stroke-width="1.5"/>'
                     f'<line x1="{x}" y1="{y - 24}" x2="{x}" y2="{y + 24}" stroke="{color}" stroke-width="1.5"/>'
                     f'<circle cx="{x}" cy="{y}" r="3" fill="{color}"/>')
        name = {"click": "click" if a.get("button", "left") == "left" else f"{a.get('button')} click",
                "double_click": "double click", "move": "hover"}[t]
        parts.append(_label(x, y, f"{name} ({x}, {y})", w, h, color))
    elif t == "drag" and isinstance(a.get("path"), list) and len(a["path"]) >= 2:
        pts = " ".join(f"{p[0]},{p[1]}" for p in a["path"])
        (x0, y0), (x1, y1) = a["path"][0], a["path"][-1]
        parts.append(f'<polyline points="{pts}" fill="none" stroke="{blue}" stroke-width="4" '
                     f'marker-end="url(#arrow)" stroke-linejoin="round"/>'
                     f'<circle cx="{x0}" cy="{y0}" r="7" fill="{blue}"/>')
        parts.append(_label(x1, y1, f"drag ({x0}, {y0}) \u2192 ({x1}, {y1})", w, h, blue))
    elif t == "scroll" and isinstance(a.get("x"), (int, float)):
        x, y, dx, dy = a["x"], a["y"], a.get("dx", 0) or 0, a.get("dy", 0) or 0
        norm = max(1.0, (dx * dx + dy * dy) ** 0.5)
        length = min(140.0, 40 + norm / 4)
        ex, ey = x + dx / norm * length, y + dy / norm * length
        parts.append(f'<circle cx="{x}" cy="{y}" r="6" fill="{green}"/>'
                     f'<line x1="{x}" y1="{y}" x2="{ex:.0f}" y2="{ey:.0f}" stroke="{green}" stroke-width="5" '
                     f'marker-end="url(#arrow-green)"/>')
        parts.append(_label(x, y, f"scroll dx={dx} dy={dy}", w, h, green))
    elif t == "type":
        parts.append(_banner(f"\u2328 type \u201c{a.get('text', '')}\u201d", w, h, purple))
    elif t == "keypress":
        parts.append(_banner("\u2328 " + "+".join(str(k) for k in a.get("keys", [])), w, h, purple))
    elif t == "done":
        ans = a.get("answer")
        parts.append(_banner("done" + (f": {ans}" if ans is not None else ""), w, h, green))
    elif t in ("wait", "screenshot"):
        parts.append(_banner(t + (f" {a.get('ms')} ms" if t == "wait" else ""), w, h, gray))
    elif a:
        parts.append(_banner(json.dumps(a)[:80], w, h, gray))
    defs = ('<defs><marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" '
            f'orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="{blue}"/></marker>'
            '<marker id="arrow-green" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" '
            f'orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="{green}"/></marker></defs>')
    return Markup(f'<svg class="overlay" viewBox="0 0 {w} {h}" preserveAspectRatio="none" '
                  f'xmlns="http://www.w3.org/2000/svg">{defs}{"".join(parts)}</svg>')


def describe_action(action: Any) -> str:
    if not isinstance(action, dict):
        return str(action)
    t = action.get("type", "?")
    rest = {k: v for k, v in action.items() if k != "type"}
    return t + (" " + json.dumps(rest, ensure_ascii=False) if rest else "")


# ------------------------------------------------------------------------- writing
def _episode_page_name(row: dict) -> str:
    return f"{row['task_id'].replace('/', '__')}__s{row.get('sample', 0)}.html"


class _Images:
    def __init__(self, out: Path, copy: bool):
        self.out, self.copy = out, copy

    def ref(self, src: Path, page_dir: Path, run: Run, rel_in_run: str) -> str | None:
        if not src.exists():
            return None
        if self.copy:
            dst = self.out / "img" / str(run.idx) / rel_in_run
            dst.parent.mkdir(parents=True, exist_ok=True)
            if not dst.exists():
                shutil.copyfile(src, dst)
            return os.path.relpath(dst, page_dir)
        return os.path.relpath(src.resolve(), page_dir.resolve())


def _load_traj(run: Run, row: dict) -> dict | None:
    p = run.path / row.get("episode_dir", "") / "trajectory.json"
    if not p.exists():
        return None
    try:
        return json.loads(p.read_text())
    except (json.JSONDecodeError, OSError):
        return None


def write_report(run_dirs: list[Path], out: Path, *, title: str | None = None, copy_images: bool = False) -> Path:
    """Write the report to `out` (index.html + episode pages); returns the index path."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    runs = load_runs([Path(d) for d in run_dirs])
    env = Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=select_autoescape(["html", "jinja"]),
                      trim_blocks=True, lstrip_blocks=True)
    env.filters["pct"] = lambda v: f"{v:.0%}" if v is not None else "-"  # None: nothing graded
    env.filters["num"] = lambda v, d=1: f"{v:,.{d}f}" if isinstance(v, (int, float)) else "-"
    env.filters["interval"] = fmt_interval
    env.filters["tojson_pretty"] = lambda v: json.dumps(v, indent=1, ensure_ascii=False)
    images = _Images(out, copy_images)
    css = (TEMPLATES / "report.css").read_text()

    # Episode pages.
    ep_dir = out / "episodes"
    for run in runs:
        page_dir = ep_dir / str(run.idx)
        page_dir.mkdir(parents=True, exist_ok=True)
        for row in run.rows:
            traj = _load_traj(run, row)
            steps = []
            viewport = tuple((traj or {}).get("viewport") or (1280, 720))
            edir = run.path / row.get("episode_dir", "")
            prev = (traj or {}).get("first_screenshot", "000.png")
            for s in (traj or {}).get("steps", []):
                steps.append({
                    **s,
                    "before": images.ref(edir / prev, page_dir, run, f"{row.get('episode_dir')}/{prev}"),
                    "overlay": overlay_svg(s.get("action"), viewport, s.get("parse_error") or ""),
                    "described": describe_action(s.get("action")),
                })
                prev = s.get("screenshot") or prev
            final = images.ref(edir / prev, page_dir, run, f"{row.get('episode_dir')}/{prev}") if traj else None
            row["_page"] = f"episodes/{run.idx}/{_episode_page_name(row)}"
            page = env.get_template("episode.html.jinja").render(
                css=css, run=run, row=row, traj=traj or {}, steps=steps, final=final, viewport=viewport,
                index=os.path.relpath(out / "index.html", page_dir), title=title or "uigym report")
            (page_dir / _episode_page_name(row)).write_text(page)

    # The per-task grid: one line per task, one cell per run.
    task_ids = sorted({r["task_id"] for run in runs for r in run.rows})
    meta: dict[str, dict] = {}
    for run in runs:
        for r in run.rows:
            meta.setdefault(r["task_id"], {"app": r.get("app"), "difficulty": r.get("difficulty"),
                                           "template": r.get("template")})
    grid = []
    per_run_tasks = [per_task(run.rows) for run in runs]
    per_run_rel = [task_reliability(run.rows) for run in runs]
    for tid in task_ids:
        cells = []
        for pt, rel in zip(per_run_tasks, per_run_rel):
            t = pt.get(tid)
            cells.append(None if t is None else {"n": t["n"], "c": t["c"], "rows": t["rows"],
                                                  "rate": t["c"] / t["n"] if t["n"] else None,
                                                  "pass_hat_k": rel[tid]["pass_hat_k"]})
        rates = [c["rate"] for c in cells if c is not None and c["rate"] is not None]
        grid.append({"task_id": tid, **meta.get(tid, {}), "cells": cells,
                     "differs": len(set(rates)) > 1})
    versus = None
    if len(runs) == 2:
        a, b = per_run_tasks
        both = [t for t in task_ids if a.get(t, {}).get("n") and b.get(t, {}).get("n")]  # graded in both
        versus = {
            "a_only": [t for t in both if a[t]["c"] and not b[t]["c"]],
            "b_only": [t for t in both if b[t]["c"] and not a[t]["c"]],
            "both": [t for t in both if a[t]["c"] and b[t]["c"]],
            "neither": [t for t in both if not a[t]["c"] and not b[t]["c"]],
            # `uigym compare`'s paired test and verdict, run 0 as A
            "verdict": compare_runs(runs[0].rows, runs[1].rows, runs[0].label, runs[1].label)["verdict"],
        }
    breakdowns = []
    per_run = [stats_breakdowns(run.rows) for run in runs]  # the one source of every group's numbers
    for key in BREAKDOWN_KEYS + VARIANT_KEYS:  # a variant axis where the episodes' values differ (issue 45)
        if not any(key in pr for pr in per_run):
            continue  # results written before the splits (or the looks, or the modes) existed
        by_run = [dict(pr.get(key, [])) for pr in per_run]
        groups = sorted({g for br in by_run for g in br},
                        key=lambda g: (DIFFICULTY_ORDER.get(g, 9), g) if key == "difficulty" else g)
        breakdowns.append({"key": key, "groups": [{"name": g, "cells": [br.get(g) for br in by_run]} for g in groups]})
    plots = write_plots(out, [r.label for r in runs], breakdowns, [r.rows for r in runs])
    all_kinds = sorted({k for run in runs for k in error_kinds(run.rows)})
    kinds = [{"kind": k, "counts": [error_kinds(run.rows).get(k, 0) for run in runs]} for k in all_kinds]
    ks = sorted({k for run in runs for k in run.summary["pass_at_k"]})
    index = env.get_template("index.html.jinja").render(
        css=css, runs=runs, grid=grid, versus=versus, breakdowns=breakdowns, kinds=kinds, ks=ks, plots=plots,
        attacks=any(run.summary.get("attacks") for run in runs),  # the ASR column, when a run has injection tasks
        title=title or ("uigym report: " + " vs ".join(r.label for r in runs)))
    path = out / "index.html"
    path.write_text(index)
    return path
