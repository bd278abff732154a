"""Numbers for reports: pass rates by group, pass@k, steps, tokens, time, error kinds.

Pass rates, mean rewards and pass@k are over graded episodes only (`agent_harness.results.graded`): an
ungraded episode (a judged task whose judge gave no verdict) is counted apart, never as a failure, and
`ungraded_note` says why and how to grade it.

`summarize` is the one function every report reads a group's numbers from (the terminal summary and the
HTML report): the pass rate with two 95% intervals (`wilson`, which takes episodes as independent, and
`clustered_interval`, which does not: instances of one template share a layout and a solution, so they
pass or fail together), pass@k and pass^k over tasks, and the mean and standard deviation of steps and
time. `breakdowns` applies it per app, difficulty, template, split, look and mode.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from math import comb, sqrt
from statistics import mean, pstdev, stdev

from pathlib import Path

from rich.table import Table

from agent_harness.results import graded, is_graded, pass_rate, ungraded_reason

DIFFICULTY_ORDER = {"easy": 0, "medium": 1, "hard": 2, "long": 3}


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


Z95 = 1.959963984540054  # the two-sided 95% normal quantile


def wilson(c: float, n: float, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval of c passes in n independent trials (None when n is 0). `c` and `n` may be
    fractional (an effective sample size). Always inside [0, 1] and around c / n."""
    if n <= 0:
        return None
    p = min(1.0, max(0.0, c / n))
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


def counted_rows(rows: list[dict]) -> list[dict]:
    """The rows a training run's periodic eval counts (agent_harness/train/evaluate.py's metrics, and the
    learning curve's intervals): those that ended without an error (a crashed episode says nothing of the
    checkpoint), or all of them when every one errored."""
    return [r for r in rows if not r.get("error")] or rows


def cluster_of(row: dict) -> str:
    """The unit episodes are not independent within: the task's template (its task id when it has none)."""
    return str(row.get("template") or row.get("task_id"))


def design_effect(rows: list[dict]) -> float | None:
    """How much the pass rate's variance grows because episodes cluster by template: the cluster-robust
    (CR1) variance of the proportion over the binomial one, floored at 1 (never narrower than independent
    episodes). None with fewer than two clusters (nothing to estimate it from)."""
    g = graded(rows)
    by: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for r in g:
        by[cluster_of(r)][0] += bool(r.get("passed"))
        by[cluster_of(r)][1] += 1
    k, n = len(by), len(g)
    if k < 2:
        return None
    p = sum(c for c, _ in by.values()) / n
    if p in (0.0, 1.0):
        return 1.0  # every cluster agrees: no spread to inflate
    cr1 = k / (k - 1) * sum((c - p * m) ** 2 for c, m in by.values()) / (n * n)
    return max(1.0, cr1 / (p * (1 - p) / n))


def clustered_interval(rows: list[dict], z: float = Z95) -> tuple[float, float] | None:
    """The pass rate's 95% interval with episodes clustered by template: Wilson's at Kish's effective sample
    size n / deff, deff being `design_effect`. None with fewer than two templates graded."""
    g = graded(rows)
    deff = design_effect(g)
    if deff is None:
        return None
    c = sum(1 for r in g if r.get("passed"))
    return wilson(c / deff, len(g) / deff, z)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """pass^k (Yao et al. 2024, tau-bench): the chance that k samples drawn without replacement from n
    (c of them passing) all pass."""
    if k > n:
        raise ValueError(f"pass^{k} needs at least {k} samples, got {n}")
    return comb(c, k) / comb(n, k)


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


def pass_hat_ks(rows: list[dict]) -> dict[int, float]:
    """Mean pass^k over tasks (all k samples pass), for the same ks as `pass_at_ks`."""
    tasks = {tid: t for tid, t in per_task(rows).items() if t["n"]}
    if not tasks:
        return {}
    n_min = min(t["n"] for t in tasks.values())
    return {k: sum(pass_hat_k(t["n"], t["c"], k) for t in tasks.values()) / len(tasks) for k in ks_for(n_min)}


def task_reliability(rows: list[dict]) -> dict[str, dict]:
    """task_id -> {n, c, ungraded, pass_at_k, pass_hat_k}: each task's own pass@k and pass^k over its graded
    samples (k = 1, 2, 4, ... n)."""
    out = {}
    for tid, t in sorted(per_task(rows).items()):
        ks = ks_for(t["n"])
        out[tid] = {"n": t["n"], "c": t["c"], "ungraded": t["ungraded"],
                    "pass_at_k": {k: pass_at_k(t["n"], t["c"], k) for k in ks},
                    "pass_hat_k": {k: pass_hat_k(t["n"], t["c"], k) for k in ks}}
    return out


def _spread(values: list[float]) -> float:
    return stdev(values) if len(values) > 1 else (pstdev(values) if values else 0.0)


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
                "parse_errors": 0, "action_errors": 0, "errors": 0, "passed": 0, "pass_at_k": {},
                "pass_hat_k": {}, "wilson": None, "clustered": None, "design_effect": None, "clusters": 0,
                "sd_steps": 0.0, "sd_seconds": 0.0, "mean_steps_success": None, "attacks": 0,
                "attacks_succeeded": 0, "asr": None}
    steps = sum(int(r.get("steps", 0)) for r in rows)
    calls = sum(int(r.get("model_calls", 0)) for r in rows)
    g = graded(rows)
    passed = sum(1 for r in g if r.get("passed"))
    steps_list = [float(r.get("steps", 0) or 0) for r in rows]
    secs_list = [float(r.get("seconds", 0) or 0) for r in rows]
    won = [float(r.get("steps", 0) or 0) for r in g if r.get("passed")]
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
        "pass_hat_k": pass_hat_ks(rows),
        "wilson": wilson(passed, len(g)),
        "clustered": clustered_interval(g),
        "design_effect": design_effect(g),
        "clusters": len({cluster_of(r) for r in g}),
        "sd_steps": _spread(steps_list),
        "sd_seconds": _spread(secs_list),
        "mean_steps_success": mean(won) if won else None,
        **attack_rate(rows),
    }


def attack_rate(rows: list[dict]) -> dict:
    """Injection episodes (rows whose `attack_succeeded` is not None): how many, how many carried out the injected
    instruction, and the attack success rate (ASR; None without injection episodes)."""
    hit = [r for r in rows if r.get("attack_succeeded") is not None]
    n = sum(1 for r in hit if r["attack_succeeded"])
    return {"attacks": len(hit), "attacks_succeeded": n, "asr": n / len(hit) if hit else None}


def group_by(rows: list[dict], key: str) -> list[tuple[str, dict]]:
    groups: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        groups[str(r.get(key) or "-")].append(r)
    order = (lambda g: (DIFFICULTY_ORDER.get(g, 9), g)) if key == "difficulty" else (lambda g: g)
    return [(g, summarize(groups[g])) for g in sorted(groups, key=order)]


BREAKDOWN_KEYS = ("app", "difficulty", "template", "generalisation", "look", "mode", "family")


# The variant's axes (gym_core/variant.py AXES; a test holds the two equal): a results row's `variant` holds each
# one's value. Broken down as "variant:<axis>", where the episodes' values differ.
VARIANT_AXES = ("look", "theme", "zoom", "density", "font", "locale", "lang", "overlays")
VARIANT_KEYS = tuple(f"variant:{a}" for a in VARIANT_AXES)


def _show(v) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)


def variant_breakdowns(rows: list[dict]) -> dict[str, list[tuple[str, dict]]]:
    """`summarize` per value of each variant axis on which the rows' variants differ (issue 45: the pass rate per
    axis value, with its intervals); rows without a variant (tools mode, older results) are left out."""
    with_v = [r for r in rows if isinstance(r.get("variant"), dict)]
    flat = [{**r, **{k: _show(r["variant"].get(a)) for a, k in zip(VARIANT_AXES, VARIANT_KEYS)}} for r in with_v]
    return {k: group_by(flat, k) for k in VARIANT_KEYS if len({r[k] for r in flat}) > 1}


def breakdowns(rows: list[dict], keys: tuple[str, ...] = BREAKDOWN_KEYS) -> dict[str, list[tuple[str, dict]]]:
    """`summarize` per group of each key (app, difficulty, template, split, look, mode, seed family), leaving out
    a key no row carries (results written before it existed); then per value of each variant axis the rows differ on."""
    out = {key: group_by(rows, key) for key in keys if any(r.get(key) for r in rows)}
    out.update(variant_breakdowns(rows))
    return out


def fmt_interval(iv: tuple[float, float] | None) -> str:
    """An interval as whole percents, "62-91%" ("-" when there is none)."""
    return "-" if iv is None else f"{iv[0] * 100:.0f}-{iv[1] * 100:.0f}%"


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
