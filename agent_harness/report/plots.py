"""The HTML report's plots, rendered by matplotlib to PNG files beside index.html (the report opens offline):

- `pass_by_difficulty.png`, `pass_by_template.png`: each run's pass rate per group with its 95% interval
  as an error bar (clustered by template where the group holds two or more templates, Wilson's otherwise;
  both from `stats.summarize`, as the tables show them);
- `steps_to_success.png`: a histogram of the steps each passed episode took, per run.

matplotlib is the `report` extra; without it `write_plots` returns no plots and the report says so.
"""

from __future__ import annotations

from pathlib import Path

PLOTS = {"pass_by_difficulty.png": "Pass rate by difficulty (95% interval)",
         "pass_by_template.png": "Pass rate by template (95% interval)",
         "steps_to_success.png": "Steps to success (passed episodes)"}


def have_matplotlib() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def interval_of(s: dict) -> tuple[float, float] | None:
    """The interval a plot draws for a group's numbers: clustered by template when there is one, else Wilson."""
    return s.get("clustered") or s.get("wilson")


def _rate_plot(path: Path, title: str, labels: list[str], groups: list[str], cells: list[list[dict | None]],
               horizontal: bool) -> None:
    from matplotlib.figure import Figure

    n_runs = max(1, len(labels))
    size = (max(5.0, 0.6 * len(groups) * n_runs + 2), 4.0) if not horizontal else \
        (8.0, max(2.5, 0.28 * len(groups) * n_runs + 1.2))
    fig = Figure(figsize=size, dpi=100, layout="constrained")
    ax = fig.add_subplot()
    width = 0.8 / n_runs
    for i, label in enumerate(labels):
        pos, rate, lo, hi = [], [], [], []
        for j, _ in enumerate(groups):
            s = cells[i][j]
            if not s or s.get("pass_rate") is None:
                continue
            iv = interval_of(s) or (s["pass_rate"], s["pass_rate"])
            pos.append(j + (i - (n_runs - 1) / 2) * width)
            rate.append(s["pass_rate"])
            lo.append(s["pass_rate"] - iv[0])
            hi.append(iv[1] - s["pass_rate"])
        bar = ax.barh if horizontal else ax.bar
        bar(pos, rate, width * 0.95, label=label,
            **({"xerr": [lo, hi]} if horizontal else {"yerr": [lo, hi]}), capsize=3)
    ticks = (ax.set_yticks if horizontal else ax.set_xticks)
    ticks(range(len(groups)), groups, **({} if horizontal else {"rotation": 30 if len(groups) > 4 else 0}))
    (ax.set_xlim if horizontal else ax.set_ylim)(0, 1)
    (ax.set_xlabel if horizontal else ax.set_ylabel)("pass rate")
    if horizontal:
        ax.invert_yaxis()
    ax.set_title(title)
    if n_runs > 1:
        ax.legend(fontsize=8)
    fig.savefig(path)


def _steps_plot(path: Path, labels: list[str], steps: list[list[float]]) -> None:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6.0, 3.5), dpi=100, layout="constrained")
    ax = fig.add_subplot()
    top = max((max(s) for s in steps if s), default=1)
    bins = range(0, int(top) + 2)
    for label, s in zip(labels, steps):
        ax.hist(s, bins=bins, alpha=0.6, label=f"{label} ({len(s)} passed)")
    ax.set_xlabel("steps")
    ax.set_ylabel("passed episodes")
    ax.set_title(PLOTS["steps_to_success.png"])
    ax.legend(fontsize=8)
    fig.savefig(path)


def write_plots(out: Path, labels: list[str], breakdowns: list[dict], rows_by_run: list[list[dict]]) -> list[dict]:
    """The plots as PNG files in `out`; returns [{"file", "title"}] (empty without matplotlib). `breakdowns`:
    the report's [{"key", "groups": [{"name", "cells": [summarize() per run]}]}]."""
    if not have_matplotlib():
        return []
    made = []
    by_key = {b["key"]: b for b in breakdowns}
    for key, name in (("difficulty", "pass_by_difficulty.png"), ("template", "pass_by_template.png")):
        b = by_key.get(key)
        if not b:
            continue
        groups = [g["name"] for g in b["groups"]]
        cells = [[g["cells"][i] for g in b["groups"]] for i in range(len(labels))]
        _rate_plot(Path(out) / name, PLOTS[name], labels, groups, cells, horizontal=key == "template")
        made.append({"file": name, "title": PLOTS[name]})
    steps = [[float(r.get("steps", 0) or 0) for r in rows if r.get("passed") and not r.get("ungraded")]
             for rows in rows_by_run]
    _steps_plot(Path(out) / "steps_to_success.png", labels, steps)
    made.append({"file": "steps_to_success.png", "title": PLOTS["steps_to_success.png"]})
    return made
