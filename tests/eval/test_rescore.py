"""`uigym rescore RUN`: a tiny eval on the toy app (tool mode: no browser) saves each episode's written
tables; after a task's spec changes, rescoring flips that episode's verdict without replaying it, writes a
new results file and never overwrites one silently."""

from __future__ import annotations

import gzip
import json

from typer.testing import CliRunner

from agent_harness.cli import app
from tests.harness.toy_tasks import TOY_MODULE, write_tasks_dir


def test_a_changed_spec_flips_the_saved_episode(tmp_path, monkeypatch):
    monkeypatch.setenv("UIGYM_HOME", str(tmp_path / "home"))
    tasks_dir = write_tasks_dir(tmp_path / "tasks")
    run = tmp_path / "run"
    common = ["--tasks-dir", str(tasks_dir), "--app-module", f"mail={TOY_MODULE}"]
    r = CliRunner().invoke(app, ["eval", "--agent", "oracle", "--mode", "tools", "--workers", "1", "--no-report",
                                 "--out", str(run), "--tasks", "mail/toy-star-note-2,mail/toy-add-note", *common])
    assert r.exit_code == 0, r.output
    rows = {x["task_id"]: x for x in map(json.loads, (run / "results.jsonl").read_text().splitlines())}
    assert all(x["passed"] for x in rows.values()), rows
    saved = json.loads(gzip.decompress((run / rows["mail/toy-star-note-2"]["episode_dir"] / "end_written.json.gz")
                                       .read_bytes()))
    assert saved["state"]["_written"] == ["notes"] and "notes" in saved["state"]  # only what it wrote

    # The same specs: nothing changes.
    r = CliRunner().invoke(app, ["rescore", str(run), *common])
    assert r.exit_code == 0, r.output
    assert "2 episodes rescored, 0 verdicts changed" in " ".join(r.output.split())

    # A spec fix: the star task now wants note 3 starred (the oracle starred note 2).
    spec = json.loads((tasks_dir / "mail" / "toy.json").read_text())
    spec[0]["verify"]["checks"][0]["where"] = {"id": 3}
    (tasks_dir / "mail" / "toy.json").write_text(json.dumps(spec))
    r = CliRunner().invoke(app, ["rescore", str(run), *common])
    assert r.exit_code == 2 and "exists: pass --out for another file, or --overwrite" in " ".join(r.output.split())
    r = CliRunner().invoke(app, ["rescore", str(run), "--overwrite", *common])
    assert r.exit_code == 0, r.output
    text = " ".join(r.output.split())
    assert "changed: mail/toy-star-note-2 s0: pass -> fail (reward 1.00 -> 0.00)" in text
    assert "2 episodes rescored, 1 verdicts changed" in text and "toy-add-note s0: pass" not in text
    new = {x["task_id"]: x for x in map(json.loads, (run / "results.rescored.jsonl").read_text().splitlines())}
    assert new["mail/toy-star-note-2"]["passed"] is False and new["mail/toy-add-note"]["passed"] is True
    assert all(x["passed"] for x in map(json.loads, (run / "results.jsonl").read_text().splitlines()))  # untouched


def test_rescore_of_a_folder_without_results_is_a_usage_error(tmp_path):
    r = CliRunner().invoke(app, ["rescore", str(tmp_path)])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert "has no results.jsonl" in " ".join(r.output.replace("│", " ").split())
