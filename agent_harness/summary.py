"""The end-of-run summary: pass rate by app and difficulty, mean steps and time, in 80 columns.

Every number comes from `agent_harness.report.stats.summarize` (the HTML report's too): pass rates and mean
rewards are over graded episodes; ungraded ones (a judged task whose judge gave no verdict) have their own
column and a line under the table saying why and how to grade them.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from rich import box
from rich.console import Console
from rich.table import Table

from agent_harness.report.budget import budget_line
from agent_harness.report.stats import DIFFICULTY_ORDER, fmt_interval, summarize, ungraded_note

# (header, justify). Headers break only where they have a line break, and each column is at least as wide
# as its longest header line, so no header is ever cut; the widest table (9 columns, 5-digit counts) is
# under 80 characters.
SUMMARY_COLUMNS = [("app", "left"), ("difficulty", "left"), ("episodes", "right"), ("ungraded", "right"),
                   ("errors", "right"), ("pass\nrate", "right"), ("mean\nreward", "right"),
                   ("mean\nsteps", "right"), ("mean\nsecs", "right")]
# The pass rate's 95% intervals: Wilson's (episodes independent) and clustered by template (instances of a
# template pass or fail together), with the spread of steps and time (standard deviations).
INTERVAL_COLUMNS = [("group", "left"), ("graded", "right"), ("pass\nrate", "right"), ("95% CI\nWilson", "right"),
                    ("95% CI by\ntemplate", "right"), ("tem-\nplates", "right"), ("steps\nsd", "right"),
                    ("secs\nsd", "right")]
SPLIT_COLUMNS = [("split", "left"), ("episodes", "right"), ("ungraded", "right"), ("errors", "right"),
                 ("pass\nrate", "right"), ("mean\nreward", "right")]


def group_stats(rows: list[dict], keys: tuple[str, ...] = ("app", "difficulty")) -> list[dict]:
    """`summarize` per group of `keys`, and for all rows (keyed "all"), sorted with "all" last."""
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for r in rows:
        groups[tuple(r.get(k) for k in keys)].append(r)
        groups[("all",) + ("",) * (len(keys) - 1)].append(r)
    out = [{**dict(zip(keys, key)), **summarize(rs)} for key, rs in groups.items()]
    out.sort(key=lambda s: (s[keys[0]] == "all", str(s[keys[0]]),
                            DIFFICULTY_ORDER.get(str(s.get("difficulty")), 9)))
    return out


def _pct(v: float | None) -> str:
    return "-" if v is None else f"{v:.0%}"


def _num(v: float | None, digits: int) -> str:
    return "-" if v is None else f"{v:.{digits}f}"


def _table(title: str, columns: list[tuple[str, str]]) -> Table:
    t = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, padding=(0, 1, 0, 0))
    for header, justify in columns:
        t.add_column(header, justify=justify, no_wrap=True,  # type: ignore[arg-type]
                     min_width=max(len(line) for line in header.splitlines()))
    return t


def summary_table(rows: list[dict], title: str = "uigym eval") -> Table:
    t = _table(title, SUMMARY_COLUMNS)
    for s in group_stats(rows):
        t.add_row(str(s["app"]), str(s["difficulty"] or ""), str(s["episodes"]), str(s["ungraded"]),
                  str(s["errors"]), _pct(s["pass_rate"]), _num(s["mean_reward"], 2), _num(s["mean_steps"], 1),
                  _num(s["mean_seconds"], 1), style="bold" if s["app"] == "all" else None)
    return t


def generalisation_table(rows: list[dict]) -> Table:
    """Pass rate by generalisation split: the instance split (train/test), held-out seeds, held-out templates."""
    t = _table("by generalisation split", SPLIT_COLUMNS)
    for s in group_stats(rows, ("generalisation",)):
        t.add_row(str(s["generalisation"]), str(s["episodes"]), str(s["ungraded"]), str(s["errors"]),
                  _pct(s["pass_rate"]), _num(s["mean_reward"], 2),
                  style="bold" if s["generalisation"] == "all" else None)
    return t


def attack_table(rows: list[dict]) -> Table | None:
    """Injection tasks (README: Judgement tasks): how often the injected instruction was carried out (the attack
    success rate, ASR), by app, beside the pass rate; None when the run has no injection episode."""
    hit = [r for r in rows if r.get("attack_succeeded") is not None]
    if not hit:
        return None
    from agent_harness.report.stats import attack_rate

    t = _table("injection: attack success rate", [("app", "left"), ("episodes", "right"), ("attacks\nsucceeded", "right"),
                                                  ("ASR", "right"), ("pass\nrate", "right")])
    for app in sorted({r["app"] for r in hit}) + ["all"]:
        g = [r for r in hit if app == "all" or r["app"] == app]
        a = attack_rate(g)
        t.add_row(app, str(a["attacks"]), str(a["attacks_succeeded"]), _pct(a["asr"]),
                  _pct(sum(1 for r in g if r.get("passed")) / len(g)), style="bold" if app == "all" else None)
    return t


def look_table(rows: list[dict]) -> Table:
    """Pass rate by look: (app, look), a held-out look marked."""
    from apps import held_out_looks

    t = _table("by look", [("app", "left"), ("look", "left")] + SPLIT_COLUMNS[1:])
    for s in group_stats(rows, ("app", "look")):
        held = s["app"] != "all" and s["look"] in held_out_looks(str(s["app"]))
        t.add_row(str(s["app"]), str(s["look"] or "") + (" (held out)" if held else ""), str(s["episodes"]), str(s["ungraded"]), str(s["errors"]),
                  _pct(s["pass_rate"]), _num(s["mean_reward"], 2), style="bold" if s["app"] == "all" else None)
    return t


def variant_table(rows: list[dict]) -> Table | None:
    """Pass rate per value of each variant axis the episodes differ on (issue 45), with its 95% intervals; None
    where every episode had the same variant."""
    from agent_harness.report.stats import variant_breakdowns

    groups = variant_breakdowns(rows)
    if not groups:
        return None
    t = _table("by variant axis", [("axis", "left"), ("value", "left"), ("graded", "right"), ("pass\nrate", "right"),
                                   ("95% CI\nWilson", "right"), ("95% CI by\ntemplate", "right")])
    for key, values in groups.items():
        for value, s in values:
            t.add_row(key.split(":", 1)[1], value, str(s["graded"]), _pct(s["pass_rate"]), fmt_interval(s["wilson"]),
                      fmt_interval(s["clustered"]))
    return t


def interval_table(rows: list[dict]) -> Table:
    """The pass rate with its 95% intervals for all episodes, each app and each difficulty."""
    t = _table("95% intervals (by template: clustered, see README.md#reports)", INTERVAL_COLUMNS)
    groups = [("all", summarize(rows), "bold")]
    for key in ("app", "difficulty"):
        names = sorted({str(r.get(key) or "-") for r in rows},
                       key=lambda g: (DIFFICULTY_ORDER.get(g, 9), g) if key == "difficulty" else g)
        if len(names) > 1:
            groups += [(g, summarize([r for r in rows if str(r.get(key) or "-") == g]), None) for g in names]
    for name, s, style in groups:
        t.add_row(name, str(s["graded"]), _pct(s["pass_rate"]), fmt_interval(s["wilson"]),
                  fmt_interval(s["clustered"]), str(s["clusters"]), _num(s["sd_steps"], 1),
                  _num(s["sd_seconds"], 1), style=style)
    return t


def reliability_table(rows: list[dict]) -> Table | None:
    """pass@k (some sample passes) and pass^k (all k pass), mean over tasks; None with one sample a task."""
    s = summarize(rows)
    if len(s["pass_at_k"]) < 2:
        return None
    t = _table("over samples (mean over tasks)", [("k", "right"), ("pass@k", "right"), ("pass^k", "right")])
    for k, v in s["pass_at_k"].items():
        t.add_row(str(k), _pct(v), _pct(s["pass_hat_k"].get(k)))
    return t


def print_summary(rows: list[dict], title: str = "uigym eval", console: Console | None = None,
                  out: Path | None = None) -> None:
    """The tables, then the ungraded line when some episode got no grade (its reason read from the
    trajectories under `out`, the run folder, when given)."""
    console = console or Console()
    console.print(summary_table(rows, title))
    console.print(interval_table(rows))
    reliability = reliability_table(rows)
    if reliability is not None:
        console.print(reliability)
    if len({r.get("generalisation") for r in rows}) > 1:  # e.g. bundled test tasks beside held-out worlds
        console.print(generalisation_table(rows))
    if len({r.get("look") for r in rows}) > 1:  # several looks (issue #37): the pass rate in each
        console.print(look_table(rows))
    variants = variant_table(rows)
    if variants is not None:  # episodes in several variants (issue 45): the pass rate per axis value
        console.print(variants)
    attacks = attack_table(rows)
    if attacks is not None:  # injection tasks: the attack success rate beside the pass rate
        console.print(attacks)
    if out is not None:  # the run's step budget (agent_harness/report/budget.py), in every report
        console.print(budget_line(out), markup=False, highlight=False)
    note = ungraded_note(rows, out)
    if note:
        console.print(note, style="yellow", markup=False, highlight=False)
