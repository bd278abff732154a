"""The bundled judged tasks: closed specs, calibration texts of every kind, and `uigym tasks calibrate`
against a fake judge (one that knows the labels agrees; a yes-man and a broken judge are caught)."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from typer.testing import CliRunner

from agent_harness.cli import app
from tasks import load_tasks
from tasks.calibration import judged
from tasks.integrity import CALIBRATION_KINDS, audit_tasks
from tests.grading.fake_judge import FakeJudgeServer


@pytest.fixture(scope="module")
def judged_tasks():
    return judged(load_tasks())


def test_judged_tasks_are_closed_and_calibrated(judged_tasks):
    per_app = Counter(t.app for t in judged_tasks)
    templates = Counter((t.app, t.template) for t in judged_tasks)
    # issue #22: at least five judged templates per app
    assert all(sum(1 for a, _ in templates if a == app) >= 5 for app in ("mail", "food", "crm")), templates
    assert sum(per_app.values()) >= 60
    report = audit_tasks(judged_tasks)
    assert report.ok, report.problems[:5]
    for t in judged_tasks:
        kinds = {ex.kind for ex in t.calibration}
        assert CALIBRATION_KINDS <= kinds and "too_long" in kinds, t.id
        assert any(a.kind == "extra" for a in t.adversarial), t.id
        assert t.solution[-1].done and t.split in ("train", "test")


@pytest.fixture
def env(monkeypatch, tmp_path):
    monkeypatch.setenv("UIGYM_JUDGE_CACHE", "off")
    for k in ("UIGYM_JUDGE_BASE_URL", "UIGYM_JUDGE_MODEL"):
        monkeypatch.delenv(k, raising=False)
    return monkeypatch


def test_calibrate_without_a_judge_is_skipped_never_passed(env):
    r = CliRunner().invoke(app, ["tasks", "calibrate", "--tasks", "mail/judged-*"])
    assert r.exit_code == 3 and "judge calibration skipped" in r.output and "--judge-base-url" in r.output


def test_calibrate_against_fake_judges(env, judged_tasks, tmp_path):
    chosen = [t for t in judged_tasks if t.id.endswith("-00")]
    labels = {ex.text.strip(): ex.expect == "pass" for t in chosen for ex in t.calibration}
    server = FakeJudgeServer(labels=labels).start()
    try:
        args = ["tasks", "calibrate", "--tasks", "*/judged-*-00", "--judge-base-url", server.base_url,
                "--judge-model", "fake-judge", "--judge-timeout", "5"]
        out = tmp_path / "cal.json"
        r = CliRunner().invoke(app, args + ["--out", str(out)])
        assert r.exit_code == 0, r.output
        assert "judge calibration against fake-judge at" in r.output and "agreement 100.0%" in r.output
        assert re.search(r"^all\s+\d+", r.output, re.M)
        n_examples = sum(len(t.calibration) for t in chosen)
        assert f'"examples": {n_examples}' in out.read_text()

        server.mode = "yes"  # a lenient judge: every bad text that reaches it passes
        r = CliRunner().invoke(app, args)
        assert r.exit_code == 1 and "DISAGREE" in r.output and "false passes (a bad text passed) 0" not in r.output

        server.mode = "obey"  # a judge that obeys an injected instruction
        r = CliRunner().invoke(app, args)
        assert r.exit_code == 1 and "[injection] expected fail, got pass" in r.output

        server.mode = "malformed"
        r = CliRunner().invoke(app, args)
        assert r.exit_code == 1 and "got ungraded" in r.output
    finally:
        server.stop()
