"""The report's statistics on made-up results with known answers: Wilson's interval, the interval clustered
by template, pass@k and pass^k, the spread of steps; and over any rows, intervals inside [0, 1] around the
rate and no exception."""

from __future__ import annotations

import io

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from agent_harness.report.stats import (breakdowns, clustered_interval, design_effect, pass_hat_k, pass_hat_ks,
                                        pass_at_ks, summarize, task_reliability, wilson)
from agent_harness.summary import print_summary


def row(task_id: str, passed: bool, *, template: str | None = None, sample: int = 0, ungraded: bool = False,
        steps: int = 10, seconds: float = 2.0, difficulty: str = "easy", **extra) -> dict:
    return {"task_id": task_id, "app": task_id.split("/")[0], "template": template, "sample": sample,
            "passed": passed and not ungraded, "ungraded": ungraded, "reward": float(passed), "steps": steps,
            "seconds": seconds, "difficulty": difficulty, "error": None, **extra}


def test_wilson_matches_the_hand_computed_interval():
    # 8 of 10, z = 1.96: centre (0.8 + 0.1921) / 1.3842 = 0.7167, half 1.96 * sqrt(0.016 + 0.00096) / 1.3842
    lo, hi = wilson(8, 10)
    assert lo == pytest.approx(0.4902, abs=1e-4) and hi == pytest.approx(0.9433, abs=1e-4)
    lo, hi = wilson(0, 20)  # no pass: [0, z^2 / (n + z^2)]
    assert lo == 0.0 and hi == pytest.approx(1.96 ** 2 / (20 + 1.96 ** 2), abs=1e-4)
    assert wilson(0, 0) is None


def test_the_clustered_interval_is_wider_than_wilson_when_a_templates_instances_agree():
    # 10 templates of 5 instances each: 6 templates pass all, 4 fail all. 50 episodes, but 10 independent draws.
    rows = [row(f"mail/t{t}-{i}", t < 6, template=f"t{t}") for t in range(10) for i in range(5)]
    s = summarize(rows)
    assert s["pass_rate"] == 0.6 and s["clusters"] == 10
    w, c = s["wilson"], s["clustered"]
    assert c[0] < w[0] and c[1] > w[1]
    # deff = 10/9 * sum((c_i - 0.6 * 5)^2) / 50^2 / (0.24 / 50) = 10/9 * 6*4 + 4*9 ... = 5.556
    assert design_effect(rows) == pytest.approx(10 / 9 * (6 * 4 + 4 * 9) / 2500 / (0.24 / 50))
    assert c == pytest.approx(wilson(30 / design_effect(rows), 50 / design_effect(rows)))


def test_the_clustered_interval_is_wilsons_when_instances_are_independent_and_none_for_one_template():
    # each template holds one pass and one fail: no within-template agreement, deff floored at 1
    rows = [row(f"food/t{t}-{i}", i == 0, template=f"t{t}") for t in range(8) for i in range(2)]
    assert design_effect(rows) == 1.0 and clustered_interval(rows) == wilson(8, 16)
    assert clustered_interval([row("food/a", True, template="x"), row("food/b", False, template="x")]) is None


def test_pass_hat_k_and_pass_at_k_on_a_small_table():
    # task a: 4/4, b: 2/4, c: 0/4
    rows = [row(f"crm/{t}", i < c, sample=i) for t, c in (("a", 4), ("b", 2), ("c", 0)) for i in range(4)]
    assert pass_hat_k(4, 2, 2) == pytest.approx(1 / 6)  # C(2,2)/C(4,2)
    hat = pass_hat_ks(rows)
    assert hat[1] == pytest.approx(0.5) and hat[2] == pytest.approx((1 + 1 / 6 + 0) / 3)
    assert hat[4] == pytest.approx(1 / 3)  # only task a passes all four
    at = pass_at_ks(rows)
    assert at[4] == pytest.approx(2 / 3) and at[2] == pytest.approx((1 + 5 / 6) / 3)
    rel = task_reliability(rows)
    assert rel["crm/b"]["pass_hat_k"][4] == 0.0 and rel["crm/b"]["pass_at_k"][4] == 1.0
    s = summarize(rows)
    assert s["pass_hat_k"] == hat


def test_ungraded_episodes_are_their_own_count_and_steps_have_a_spread():
    rows = [row("mail/a", True, steps=4), row("mail/b", False, steps=8), row("mail/c", False, ungraded=True, steps=12)]
    s = summarize(rows)
    assert (s["graded"], s["ungraded"], s["pass_rate"]) == (2, 1, 0.5)
    assert s["wilson"] == wilson(1, 2)
    assert s["mean_steps"] == 8 and s["sd_steps"] == pytest.approx(4.0) and s["mean_steps_success"] == 4


def test_breakdowns_cover_every_key_the_rows_carry():
    rows = [row("mail/a", True, template="t", look="default", mode="ui", generalisation="test"),
            row("food/b", False, template="u", look="doordash", mode="tools", generalisation="heldout-seed",
                difficulty="hard")]
    b = breakdowns(rows)
    assert set(b) == {"app", "difficulty", "template", "generalisation", "look", "mode"}
    assert dict(b["mode"])["ui"]["pass_rate"] == 1.0 and dict(b["mode"])["tools"]["wilson"][1] < 1
    assert "mode" not in breakdowns([row("mail/a", True)])


def test_the_summary_shows_intervals_and_pass_hat_k_in_80_columns():
    rows = [row(f"crm/{t}", i < c, sample=i, template=t) for t, c in (("a", 4), ("b", 2), ("c", 0)) for i in range(4)]
    console = Console(width=80, record=True, color_system=None, file=io.StringIO())
    print_summary(rows, console=console)
    text = console.export_text()
    assert max(len(line) for line in text.splitlines()) <= 80
    s = summarize(rows)
    lo, hi = s["wilson"]
    assert f"{lo * 100:.0f}-{hi * 100:.0f}%" in text
    k4 = next(line for line in text.splitlines() if line.strip().startswith("4 "))
    assert k4.split() == ["4", "67%", "33%"]  # k, pass@4, pass^4


rows_strategy = st.lists(st.fixed_dictionaries({
    "task_id": st.sampled_from(["mail/a", "mail/b", "food/c", "crm/d", "crm/e"]),
    "template": st.one_of(st.none(), st.sampled_from(["t1", "t2", "t3"])),
    "sample": st.integers(0, 5), "passed": st.booleans(), "ungraded": st.booleans(),
    "steps": st.integers(0, 10 ** 6), "seconds": st.floats(0, 1e6, allow_nan=False),
    "difficulty": st.sampled_from(["easy", "medium", "hard", None]),
    "look": st.one_of(st.none(), st.sampled_from(["default", "outlook"])),
    "mode": st.one_of(st.none(), st.sampled_from(["ui", "tools", "hybrid"])),
}), max_size=40)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows_strategy)
def test_any_rows_give_intervals_in_0_1_around_the_rate(rows):
    for r in rows:
        r["app"] = r["task_id"].split("/")[0]
    groups = [("all", summarize(rows))] + [g for gs in breakdowns(rows).values() for g in gs]
    for _, s in groups:
        for key in ("wilson", "clustered"):
            iv = s[key]
            if s["pass_rate"] is None:
                assert iv is None
            elif iv is not None:
                assert 0.0 <= iv[0] <= s["pass_rate"] <= iv[1] <= 1.0, (key, iv, s["pass_rate"])
        for v in list(s["pass_at_k"].values()) + list(s["pass_hat_k"].values()):
            assert 0.0 <= v <= 1.0
        for k in s["pass_hat_k"]:
            assert s["pass_hat_k"][k] <= s["pass_at_k"][k] + 1e-12
