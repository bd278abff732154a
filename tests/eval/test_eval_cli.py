"""`uigym eval` as a newcomer meets it: its --help at 80 columns, and a run with judged tasks and no judge
(the summary rates graded episodes; the ungraded line's advice, followed, grades them)."""

from __future__ import annotations

import json
import re

import pytest
import typer
from typer.testing import CliRunner

import gym_core.runtime
from agent_harness.cli import app
from tests.grading.fake_judge import FakeJudgeServer



def eval_options() -> list[str]:
    command = typer.main.get_command(app).commands["eval"]  # type: ignore[attr-defined]
    return [name for p in command.params if p.param_type_name == "option" for name in p.opts + p.secondary_opts]


def test_help_at_80_columns_groups_the_options_and_shows_every_name_whole():
    r = CliRunner().invoke(app, ["eval", "--help"], env={"COLUMNS": "80", "TERMINAL_WIDTH": "80"},
                           terminal_width=80)
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert max(len(line) for line in lines) <= 80
    for panel in ("Tasks", "Agent", "Model agents", "Grading", "Execution", "Output"):
        assert any(re.match(rf"╭─ {panel}\b", line) for line in lines), panel
    names = eval_options()
    assert len(names) >= 40 and "--retry-errors" in names and "--ray-cpus-per-actor" in names
    for name in names:
        assert re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", r.output), f"{name} is cut or missing"
    assert "…" not in r.output
    assert not [n for n in names if n.startswith("--no-no-")]  # one flag each, no doubled negations


@pytest.fixture
def tool_mode_only(tmp_path, monkeypatch):
    """A private $UIGYM_HOME, no judge configured (restored after: the CLI sets the judge's variables), no
    judge cache, and a Chromium launch that fails the test (tool mode needs no browser)."""
    monkeypatch.setenv("UIGYM_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("UIGYM_JUDGE_CACHE", "off")
    for key in ("UIGYM_JUDGE_BASE_URL", "UIGYM_JUDGE_MODEL"):  # set by the CLI's --judge-* options: restored
        monkeypatch.setenv(key, "")
    for key in ("UIGYM_JUDGE_API_KEY", "UIGYM_JUDGE_TIMEOUT"):
        monkeypatch.delenv(key, raising=False)

    async def launch(*a, **k):
        raise AssertionError("tool mode launched a browser")

    monkeypatch.setattr(gym_core.runtime, "launch_chromium", launch)


def test_judged_tasks_without_a_judge_then_graded_as_the_summary_says(tool_mode_only, tmp_path):
    out = tmp_path / "run"
    args = ["eval", "--agent", "oracle", "--mode", "tools", "--workers", "2", "--no-report", "--out", str(out),
            "--tasks", "mail/judged-thank-you-00,mail/star-latest-from-00"]
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 0, r.output
    text = " ".join(r.output.split())
    assert re.search(r"all 2 1 0 100% 1\.00", text), r.output  # episodes ungraded errors pass-rate reward
    assert "1 episode ungraded (no judge configured), left out of pass rates" in text
    assert "--judge-base-url URL --judge-model NAME --retry-errors" in text

    judge = FakeJudgeServer(mode="yes").start()
    try:
        r = CliRunner().invoke(app, [*args, "--judge-base-url", judge.base_url, "--judge-model", "fake",
                                     "--retry-errors"])
    finally:
        judge.stop()
    assert r.exit_code == 0, r.output
    assert judge.requests, "the judged episode was not played again:\n" + r.output
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert [x["task_id"] for x in rows].count("mail/star-latest-from-00") == 1  # a graded episode is kept
    assert rows[-1]["task_id"] == "mail/judged-thank-you-00" and not rows[-1]["ungraded"] and rows[-1]["passed"]
    assert re.search(r"all 2 0 0 100% 1\.00", " ".join(r.output.split())) and "ungraded (" not in r.output
