"""`uigym compare A B` on made-up runs with known answers: the exact paired test, the flipped tasks, the
per-template intervals and the verdict, and the CLI's output and usage errors."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from agent_harness.cli import app
from agent_harness.report.compare import compare_runs, newcombe, sign_test
from agent_harness.report.stats import wilson


def row(task_id: str, passed: bool, template: str, sample: int = 0, ungraded: bool = False) -> dict:
    return {"task_id": task_id, "app": "mail", "template": template, "sample": sample, "passed": passed,
            "ungraded": ungraded, "reward": float(passed), "steps": 5, "seconds": 1.0, "agent": "x",
            "difficulty": "easy", "error": None}


def test_sign_test_is_mcnemars_exact_test():
    assert sign_test(0, 0) == 1.0
    assert sign_test(10, 0) == pytest.approx(2 / 1024)  # all ten discordant pairs one way
    assert sign_test(1, 1) == 1.0
    # 8 vs 2: 2 * P(X <= 2), X ~ Bin(10, 1/2) = 2 * 56 / 1024
    assert sign_test(8, 2) == pytest.approx(112 / 1024) == sign_test(2, 8)


def test_newcombe_contains_the_difference_and_is_zero_centred_for_equal_rates():
    lo, hi = newcombe(5, 10, 5, 10)
    assert lo < 0 < hi and lo == pytest.approx(-hi)
    lo, hi = newcombe(2, 10, 9, 10)
    assert lo <= 0.7 <= hi and lo > 0  # clearly better
    assert newcombe(0, 0, 1, 1) is None


def runs(n_flip_b: int, n_flip_a: int, n_same: int = 10):
    """Tasks over 4 templates: n_flip_b only B passes, n_flip_a only A passes, n_same both pass."""
    a, b = [], []
    for i in range(n_flip_b + n_flip_a + n_same):
        tid, tpl = f"mail/t{i % 4}-{i:02d}", f"t{i % 4}"
        a_pass = i >= n_flip_b
        b_pass = i < n_flip_b or i >= n_flip_b + n_flip_a
        a.append(row(tid, a_pass, tpl))
        b.append(row(tid, b_pass, tpl))
    return a, b


def test_b_clearly_better_flips_and_verdict():
    a, b = runs(12, 1)
    r = compare_runs(a, b)
    assert len(r["b_better"]) == 12 and len(r["a_better"]) == 1 and r["shared"] == 23
    assert r["p_value"] == pytest.approx(sign_test(12, 1)) and r["p_value"] < 0.05
    assert r["diff"] == pytest.approx(11 / 23)
    lo, hi = r["interval"]
    assert lo < r["diff"] < hi and lo > 0
    assert r["verdict"].startswith(f"B better by {11 / 23 * 100:.1f} points, 95% interval [{lo * 100:.1f}, ")
    flipped = compare_runs(b, a)  # the other way round: A is better by the same amount
    assert flipped["verdict"].startswith(f"A better by {11 / 23 * 100:.1f} points")


def test_no_significant_difference_and_ungraded_episodes_do_not_count():
    a, b = runs(2, 1)
    b.append(row("mail/judged", False, "j", ungraded=True))
    a.append(row("mail/judged", True, "j"))
    r = compare_runs(a, b)
    assert r["shared"] == 13  # the judged task has no graded episode in B: not shared
    assert r["verdict"].startswith("no significant difference (B - A = +7.7 points")
    tpl = {t["template"]: t for t in r["templates"]}
    assert set(tpl) == {"t0", "t1", "t2", "t3"}
    assert tpl["t0"]["interval"] == newcombe(3, 4, 4, 4)  # t0 holds tasks 0, 4, 8, 12: 0 flips to B
    assert tpl["t1"]["interval"] == newcombe(2, 3, 3, 3)  # t1 holds 1, 5, 9: 1 flips to B
    assert tpl["t2"]["interval"] == newcombe(3, 3, 2, 3)  # t2 holds 2, 6, 10: 2 flips to A


def test_samples_give_each_task_a_rate():
    a = [row("mail/x", s < 1, "t", sample=s) for s in range(4)] + [row("mail/y", True, "u", sample=s) for s in range(4)]
    b = [row("mail/x", s < 3, "t", sample=s) for s in range(4)] + [row("mail/y", True, "u", sample=s) for s in range(4)]
    r = compare_runs(a, b)
    assert r["b_better"] == ["mail/x"] and r["diff"] == pytest.approx(0.25)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.sampled_from("abc"), st.booleans(), st.booleans(), st.booleans()),
                max_size=30))
def test_any_two_runs_compare_without_error_and_intervals_hold_the_difference(specs):
    a = [row(f"mail/t{i}", pa, tpl, ungraded=ug) for i, tpl, pa, _, ug in specs]
    b = [row(f"mail/t{i}", pb, tpl) for i, tpl, _, pb, _ in specs]
    r = compare_runs(a, b)
    assert 0 <= r["p_value"] <= 1 and isinstance(r["verdict"], str)
    if r["shared"]:
        lo, hi = r["interval"]
        assert -1 <= lo <= r["diff"] + 1e-12 and r["diff"] - 1e-12 <= hi <= 1
    for t in r["templates"]:
        if t["interval"]:
            assert t["interval"][0] <= t["diff"] + 1e-12 <= t["interval"][1] + 2e-12


def write_run(path, rows):
    path.mkdir()
    (path / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))


def test_the_cli_prints_flips_and_the_verdict(tmp_path):
    a, b = runs(12, 1)
    write_run(tmp_path / "base", a)
    write_run(tmp_path / "new", b)
    res = CliRunner().invoke(app, ["compare", str(tmp_path / "base"), str(tmp_path / "new")], terminal_width=100)
    assert res.exit_code == 0, res.output
    assert "better in B (12)" in res.output and "better in A (1)" in res.output
    assert "B (new) better by 47.8 points" in " ".join(res.output.split())
    res = CliRunner().invoke(app, ["compare", str(tmp_path / "base"), str(tmp_path / "new"), "--json"])
    assert json.loads(res.output)["b_better"][0] == "mail/t0-00"
    res = CliRunner().invoke(app, ["compare", str(tmp_path / "base"), str(tmp_path / "missing")])
    text = " ".join(res.output.replace("│", " ").split())  # the error box, unwrapped
    assert res.exit_code == 2 and "has no results.jsonl (is it an eval output folder?)" in text
    assert "Traceback" not in res.output
