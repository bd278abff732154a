"""Numbers for reports: pass rates by group, pass@k, steps, tokens, time, error kinds."""

from __future__ import annotations

from collections import Counter, defaultdict
from math import comb

from rich.table import Table

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
    """task_id -> {n, c, rows} (samples and passes)."""
    out: dict[str, dict] = defaultdict(lambda: {"n": 0, "c": 0, "rows": []})
    for r in rows:
        t = out[r["task_id"]]
        t["n"] += 1
        t["c"] += bool(r.get("passed"))
        t["rows"].append(r)
    for t in out.values():
        t["rows"].sort(key=lambda r: r.get("sample", 0))
    return dict(out)


def pass_at_ks(rows: list[dict]) -> dict[int, float]:
    """Mean pass@k over tasks, for k up to the smallest number of samples any task has."""
    tasks = per_task(rows)
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
    n = len(rows)
    if not n:
        return {"episodes": 0, "tasks": 0, "pass_rate": 0.0, "mean_reward": 0.0, "mean_steps": 0.0,
                "mean_seconds": 0.0, "tokens": 0, "mean_tokens": 0.0, "mean_model_ms": 0.0, "parse_errors": 0,
                "action_errors": 0, "errors": 0, "passed": 0, "pass_at_k": {}}
    steps = sum(int(r.get("steps", 0)) for r in rows)
    calls = sum(int(r.get("model_calls", 0)) for r in rows)
    return {
        "episodes": n,
        "tasks": len({r["task_id"] for r in rows}),
        "passed": sum(1 for r in rows if r.get("passed")),
        "pass_rate": sum(1 for r in rows if r.get("passed")) / n,
        "mean_reward": sum(float(r.get("reward", 0)) for r in rows) / n,
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
