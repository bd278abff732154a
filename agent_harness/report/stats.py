"""Numbers for reports: pass rates by group, pass@k, steps, tokens, time, error kinds.

Pass rates, mean rewards and pass@k are over graded episodes only (`agent_harness.results.graded`): an
ungraded episode (a judged task whose judge gave no verdict) is counted apart, never as a failure, and
`ungraded_note` says why and how to grade it.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from math import comb

from pathlib import Path

from rich.table import Table

from agent_harness.results import graded, is_graded, pass_rate, ungraded_reason

DIFFICULTY_ORDER = {"easy": 0, "medium": 1, "hard": 2}


def pass_at_k(n: int, c: int, k: int) -> float:
    """The unbiased pass@k estimator (Chen et al. 2021): the chance that at least one of k samples
    drawn without replacement from n (c of them passing) passes."""
    if k > n:
        raise ValueError(f"pass@{k} needs at least {k} samples, got {n}")
    if n - c < k:
        return 1.0
    return 1.0 - comb(n - c, k) / comb(n, k)


def ks_for(n: int) -> list[int]:
    """1, 2, 4, ... up to n, and n itself."""
    ks, k = [], 1
    while k <= n:
        ks.append(k)
        k *= 2
    if n >= 1 and ks[-1] != n:
        ks.append(n)
    return ks


def per_task(rows: list[dict]) -> dict[str, dict]:
    """task_id -> {n, c, ungraded, rows}: graded samples, passes among them, ungraded samples, all rows."""
    out: dict[str, dict] = defaultdict(lambda: {"n": 0, "c": 0, "ungraded": 0, "rows": []})
    for r in rows:
        t = out[r["task_id"]]
        if is_graded(r):
            t["n"] += 1
            t["c"] += bool(r.get("passed"))
        else:
            t["ungraded"] += 1
        t["rows"].append(r)
    for t in out.values():
        t["rows"].sort(key=lambda r: r.get("sample", 0))
    return dict(out)


def pass_at_ks(rows: list[dict]) -> dict[int, float]:
    """Mean pass@k over tasks, for k up to the smallest number of graded samples any task has (tasks
    with no graded sample are left out)."""
    tasks = {tid: t for tid, t in per_task(rows).items() if t["n"]}
    if not tasks:
        return {}
    n_min = min(t["n"] for t in tasks.values())
    return {k: sum(pass_at_k(t["n"], t["c"], k) for t in tasks.values()) / len(tasks) for k in ks_for(n_min)}


def error_kinds(rows: list[dict]) -> Counter:
    """Episode errors by kind, plus steps whose reply could not be parsed and actions the env refused."""
    kinds: Counter = Counter()
    for r in rows:
        if r.get("error"):
            kinds[r.get("error_kind") or str(r["error"]).split(":", 1)[0]] += 1
        if r.get("parse_errors"):
            kinds["unparsed reply (steps)"] += int(r["parse_errors"])
        if r.get("action_errors"):
            kinds["action error (steps)"] += int(r["action_errors"])
    return kinds


def summarize(rows: list[dict]) -> dict:
    """One group's numbers. `pass_rate` and `mean_reward` are over its `graded` episodes (None when none
    was graded); `ungraded` episodes are only counted. Steps, time, tokens and errors are over all."""
    n = len(rows)
    if not n:
        return {"episodes": 0, "tasks": 0, "graded": 0, "ungraded": 0, "pass_rate": None, "mean_reward": None,
                "mean_steps": 0.0, "mean_seconds": 0.0, "tokens": 0, "mean_tokens": 0.0, "mean_model_ms": 0.0,
                "parse_errors": 0, "action_errors": 0, "errors": 0, "passed": 0, "pass_at_k": {}}
    steps = sum(int(r.get("steps", 0)) for r in rows)
    calls = sum(int(r.get("model_calls", 0)) for r in rows)
    g = graded(rows)
    return {
        "episodes": n,
        "tasks": len({r["task_id"] for r in rows}),
        "graded": len(g),
        "ungraded": n - len(g),
        "passed": sum(1 for r in g if r.get("passed")),
        "pass_rate": pass_rate(rows),
        "mean_reward": sum(float(r.get("reward", 0)) for r in g) / len(g) if g else None,
        "mean_steps": steps / n,
        "mean_seconds": sum(float(r.get("seconds", 0)) for r in rows) / n,
        "tokens": sum(int(r.get("tokens", 0)) for r in rows),
        "mean_tokens": sum(int(r.get("tokens", 0)) for r in rows) / n,
        "prompt_tokens": sum(int(r.get("prompt_tokens", 0)) for r in rows),
        "completion_tokens": sum(int(r.get("completion_tokens", 0)) for r in rows),
        "mean_model_ms": (sum(float(r.get("model_ms", 0)) for r in rows) / calls) if calls else 0.0,
        "parse_errors": sum(int(r.get("parse_errors", 0)) for r in rows),
        "parse_error_rate": (sum(int(r.get("parse_errors", 0)) for r in rows) / calls) if calls else 0.0,
        "action_errors": sum(int(r.get("action_errors", 0)) for r in rows),
        "errors": sum(1 for r in rows if r.get("error")),
        "pass_at_k": pass_at_ks(rows),
    }


def group_by(rows: list[dict], key: str) -> list[tuple[str, dict]]:
    groups: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        groups[str(r.get(key) or "-")].append(r)
    order = (lambda g: (DIFFICULTY_ORDER.get(g, 9), g)) if key == "difficulty" else (lambda g: g)
    return [(g, summarize(groups[g])) for g in sorted(groups, key=order)]


def pass_at_k_table(rows: list[dict], title: str = "pass@k (mean over tasks)") -> Table:
    t = Table(title=title)
    ks = pass_at_ks(rows)
    for k in ks:
        t.add_column(f"pass@{k}", justify="right")
    t.add_row(*[f"{v:.1%}" for v in ks.values()])
    return t


def _short_reason(reason: str | None) -> str:
    """A verifier's ungraded_reason cut to its kind: "no judge configured", "judge timed out after 60 s"..."""
    if not reason:
        return "the judge gave no verdict"
    return reason.split(";")[0].split(":")[0].strip()[:60] or "the judge gave no verdict"


def ungraded_note(rows: list[dict], out: Path | None = None) -> str | None:
    """The line under a summary when episodes are ungraded: how many, why (from the trajectories' verifier
    reports under `out`, when given) and how to grade them. None when every episode was graded."""
    ungraded = [r for r in rows if not is_graded(r)]
    if not ungraded:
        return None
    why = Counter(_short_reason(ungraded_reason(out, r) if out is not None else None) for r in ungraded)
    reasons = ", ".join(k if len(why) == 1 else f"{k}: {v}" for k, v in why.most_common())
    n = len(ungraded)
    return (f"{n} episode{'s' if n != 1 else ''} ungraded ({reasons}), left out of pass rates. To grade "
            f"them, rerun with --judge-base-url URL --judge-model NAME --retry-errors "
            f"(see README.md#judged-tasks).")
