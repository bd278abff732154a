"""Comparing two eval runs (`uigym compare A B`): per-template differences with intervals, a paired test on
the shared tasks, the tasks that flipped each way, and a one-line verdict.

    result = compare_runs(rows_a, rows_b)     # rows: results.jsonl rows (agent_harness.results)
    result["verdict"]  ->  "B better by 12.0 points, 95% interval [3.1, 20.9] (sign test p = 0.004)"

Every rate is over graded episodes (an ungraded one is no failure). A task's outcome in a run is its pass
rate over its graded samples (0 or 1 with one sample). The paired test is the exact two-sided sign test on
the shared tasks whose outcome differs (with one sample per task this is McNemar's exact test). The
difference's interval is clustered by template (instances of a template are not independent): the mean of
the per-task differences with its cluster-robust (CR1) standard error, normal 95%, widened where needed to
cover Newcombe's interval on the pooled episodes (the CR1 error is 0 when every task differs alike). A template's own
difference has Newcombe's hybrid score interval (from the two Wilson intervals, unpaired).
"""

from __future__ import annotations

from collections import defaultdict
from math import comb, sqrt

from agent_harness.report.stats import Z95, cluster_of, per_task, wilson

ALPHA = 0.05


def sign_test(b: int, c: int) -> float:
    """Exact two-sided p-value that b and c discordant pairs split evenly (McNemar's exact test)."""
    n = b + c
    if n == 0:
        return 1.0
    tail = sum(comb(n, i) for i in range(min(b, c) + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def newcombe(ca: int, na: int, cb: int, nb: int) -> tuple[float, float] | None:
    """Newcombe's hybrid score interval for pb - pa (independent proportions), None if either n is 0."""
    wa, wb = wilson(ca, na), wilson(cb, nb)
    if wa is None or wb is None:
        return None
    pa, pb = ca / na, cb / nb
    d = pb - pa
    lo = d - sqrt((pb - wb[0]) ** 2 + (wa[1] - pa) ** 2)
    hi = d + sqrt((wb[1] - pb) ** 2 + (pa - wa[0]) ** 2)
    return max(-1.0, lo), min(1.0, hi)


def clustered_mean_interval(diffs: dict[str, float], clusters: dict[str, str],
                            z: float = Z95) -> tuple[float, float] | None:
    """The mean of per-task differences with a cluster-robust (CR1) normal interval; clusters of one task
    each when fewer than two clusters. None with no task."""
    n = len(diffs)
    if not n:
        return None
    d = sum(diffs.values()) / n
    groups: dict[str, float] = defaultdict(float)
    for t, v in diffs.items():
        groups[clusters[t] if len(set(clusters.values())) > 1 else t] += v - d
    g = len(groups)
    if g < 2:
        return d, d
    se = sqrt(g / (g - 1) * sum(s * s for s in groups.values()) / (n * n))
    return max(-1.0, d - z * se), min(1.0, d + z * se)


def compare_runs(rows_a: list[dict], rows_b: list[dict], name_a: str = "A", name_b: str = "B") -> dict:
    """The comparison of run B against run A (see the module's docstring)."""
    ta, tb = per_task(rows_a), per_task(rows_b)
    shared = sorted(t for t in ta.keys() & tb.keys() if ta[t]["n"] and tb[t]["n"])
    rate_a = {t: ta[t]["c"] / ta[t]["n"] for t in shared}
    rate_b = {t: tb[t]["c"] / tb[t]["n"] for t in shared}
    clusters = {t: cluster_of(ta[t]["rows"][0]) for t in shared}
    diffs = {t: rate_b[t] - rate_a[t] for t in shared}
    b_better = [t for t in shared if diffs[t] > 0]
    a_better = [t for t in shared if diffs[t] < 0]
    p = sign_test(len(b_better), len(a_better))
    mean_diff = sum(diffs.values()) / len(shared) if shared else None
    interval = clustered_mean_interval(diffs, clusters)
    if shared:  # never narrower than Newcombe's on the pooled episodes (a CR1 SE of 0 when every task flips alike)
        pooled = newcombe(sum(ta[t]["c"] for t in shared), sum(ta[t]["n"] for t in shared),
                          sum(tb[t]["c"] for t in shared), sum(tb[t]["n"] for t in shared))
        if pooled is not None and interval is not None:
            interval = (min(interval[0], pooled[0]), max(interval[1], pooled[1]))
    templates = []
    for tpl in sorted(set(clusters.values())):
        ts = [t for t in shared if clusters[t] == tpl]
        ca, na = sum(ta[t]["c"] for t in ts), sum(ta[t]["n"] for t in ts)
        cb, nb = sum(tb[t]["c"] for t in ts), sum(tb[t]["n"] for t in ts)
        templates.append({"template": tpl, "tasks": len(ts), "a": ca / na, "b": cb / nb, "diff": cb / nb - ca / na,
                          "interval": newcombe(ca, na, cb, nb)})
    if not shared:
        verdict = "no task graded in both runs: nothing to compare"
    elif p < ALPHA and mean_diff:
        better, by = (name_b, mean_diff) if mean_diff > 0 else (name_a, -mean_diff)
        lo, hi = (interval if mean_diff > 0 else (-interval[1], -interval[0]))
        verdict = (f"{better} better by {by * 100:.1f} points, 95% interval [{lo * 100:.1f}, {hi * 100:.1f}] "
                   f"(sign test p = {p:.3g}, {len(shared)} shared tasks)")
    else:
        lo, hi = interval
        verdict = (f"no significant difference ({name_b} - {name_a} = {mean_diff * 100:+.1f} points, 95% interval "
                   f"[{lo * 100:.1f}, {hi * 100:.1f}], sign test p = {p:.3g}, {len(shared)} shared tasks)")
    return {"a": name_a, "b": name_b, "shared": len(shared), "only_a": sorted(ta.keys() - tb.keys()),
            "only_b": sorted(tb.keys() - ta.keys()), "rate_a": sum(rate_a.values()) / len(shared) if shared else None,
            "rate_b": sum(rate_b.values()) / len(shared) if shared else None, "diff": mean_diff,
            "interval": interval, "p_value": p, "b_better": b_better, "a_better": a_better,
            "templates": templates, "verdict": verdict}
