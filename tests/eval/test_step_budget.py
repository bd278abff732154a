"""A fixed step budget per difficulty (`uigym eval --step-budget`): parsed with clear errors, applied to each
task by its difficulty, recorded in the run and shown in the summary and the HTML report."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from agent_harness.cli import app
from agent_harness.report.budget import apply_step_budget, budget_line, parse_step_budget, write_budget
from tests.harness.toy_tasks import TOY_MODULE, toy_tasks, write_tasks_dir


def test_parse_and_apply():
    assert parse_step_budget("osworld") == {"easy": 15, "medium": 50, "hard": 100, "long": 100}  # long: the workspace tier
    assert parse_step_budget(" easy=3 , medium=7") == {"easy": 3, "medium": 7}
    tasks, budget = apply_step_budget(toy_tasks(), "easy=2,medium=4")
    assert {t.id: t.max_steps for t in tasks} == {"mail/toy-star-note-2": 2, "mail/toy-add-note": 4,
                                                  "mail/toy-third-title": 2}
    assert toy_tasks()[0].max_steps == 5  # the bundled definitions are untouched
    with pytest.raises(ValueError, match="no steps for medium"):
        apply_step_budget(toy_tasks(), "easy=2")
    with pytest.raises(ValueError, match="give one"):
        apply_step_budget(toy_tasks(), "osworld", max_steps=3)
    assert apply_step_budget(toy_tasks(), None) == (toy_tasks(), None)


@given(st.text(max_size=30))
def test_any_budget_text_parses_or_says_what_is_wrong(text):
    try:
        budget = parse_step_budget(text)
    except ValueError as e:
        assert "--step-budget" in str(e)
    else:
        assert budget and all(1 <= v <= 500 for v in budget.values())


def test_the_budget_line_for_each_kind_of_run(tmp_path):
    assert "not recorded" in budget_line(tmp_path)
    write_budget(tmp_path, None, toy_tasks())
    assert budget_line(tmp_path) == "step budget: each task's own max_steps (easy 4-5, medium 8)"
    write_budget(tmp_path, None, toy_tasks(), max_steps=9)
    assert budget_line(tmp_path) == "step budget: 9 steps for every task (--max-steps)"


def test_eval_with_a_budget_cuts_episodes_and_every_report_shows_it(tmp_path, monkeypatch):
    monkeypatch.setenv("UIGYM_HOME", str(tmp_path / "home"))
    run = tmp_path / "run"
    args = ["eval", "--agent", "oracle", "--mode", "tools", "--workers", "1", "--out", str(run),
            "--tasks-dir", str(write_tasks_dir(tmp_path / "tasks")), "--app-module", f"mail={TOY_MODULE}",
            "--tasks", "mail/toy-star-note-2,mail/toy-add-note"]
    r = CliRunner().invoke(app, [*args, "--step-budget", "easy=1,hard=x"])
    assert r.exit_code == 2 and "from 1 to 500, got 'x'" in " ".join(r.output.split()) and not run.exists()
    r = CliRunner().invoke(app, [*args, "--step-budget", "easy=1,medium=8"])
    assert r.exit_code == 0, r.output
    line = "step budget: easy 1, medium 8 steps (--step-budget)"
    assert line in " ".join(r.output.split())
    rows = {x["task_id"]: x for x in map(json.loads, (run / "results.jsonl").read_text().splitlines())}
    star = rows["mail/toy-star-note-2"]  # its tool plan takes 3 steps: cut at 1, a failure
    assert star["steps"] == 1 and not star["passed"] and rows["mail/toy-add-note"]["passed"]
    assert line in (run / "report" / "index.html").read_text()
    # The same eval into the same folder keeps the finished episodes, and says so (the summary includes them).
    r = CliRunner().invoke(app, [*args, "--step-budget", "easy=1,medium=8"], terminal_width=200)
    said = " ".join(r.output.split())
    assert r.exit_code == 0 and "2 finished episodes of these tasks are kept, not rerun" in said, r.output
    # `uigym report` prints the run's summary (its pass rate and budget), not only the report's path.
    r = CliRunner().invoke(app, ["report", str(run), "--out", str(tmp_path / "rep")], terminal_width=100)
    assert r.exit_code == 0, r.output
    text = " ".join(r.output.split())
    # (a long path may wrap anywhere: the report's name is looked for with the whitespace taken out)
    assert "50%" in text and line in text and "report:" in text and "index.html" in "".join(text.split()), r.output
