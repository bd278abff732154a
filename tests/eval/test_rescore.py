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
    assert saved["state"]["_written"] == ["notes"]  # only what it wrote: the one note it starred, not the table
    assert [r["id"] for r in saved["state"]["_rows"]["notes"]["upsert"]] == [2] and "notes" not in saved["state"]

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


def test_a_workspace_episode_is_rescored_over_its_three_worlds(tmp_path, monkeypatch):
    """A workspace task's end is saved per app (`_apps`: each tab's written tables) and rescored over the joint state
    of its three worlds, as the workspace env grades it; a spec fix flips it (tools mode: no browser)."""
    import shutil

    from tasks.loader import TASKS_DIR

    monkeypatch.setenv("UIGYM_HOME", str(tmp_path / "home"))
    tasks_dir = tmp_path / "tasks"
    (tasks_dir / "workspace").mkdir(parents=True)
    spec_file = tasks_dir / "workspace" / "office-lunch-confirm.json"
    shutil.copy(TASKS_DIR / "workspace" / "office-lunch-confirm.json", spec_file)
    run = tmp_path / "run"
    task_id = "workspace/office-lunch-confirm-00"
    r = CliRunner().invoke(app, ["eval", "--agent", "oracle", "--mode", "tools", "--workers", "1", "--no-report",
                                 "--out", str(run), "--tasks", task_id, "--tasks-dir", str(tasks_dir)])
    assert r.exit_code == 0, r.output
    (row,) = map(json.loads, (run / "results.jsonl").read_text().splitlines())
    assert row["passed"], row
    saved = json.loads(gzip.decompress((run / row["episode_dir"] / "end_written.json.gz").read_bytes()))
    assert set(saved["state"]["_apps"]) == {"mail", "food", "crm"}
    assert "orders" in saved["state"]["_apps"]["food"]["_written"]
    r = CliRunner().invoke(app, ["rescore", str(run), "--tasks-dir", str(tasks_dir)])
    assert r.exit_code == 0, r.output
    assert "1 episodes rescored, 0 verdicts changed" in " ".join(r.output.split())

    specs = json.loads(spec_file.read_text())  # a spec fix: the coworker told must now be someone else
    told = next(c for c in specs[0]["verify"]["checks"] if c.get("name") == "the coworker told the new order's number")
    told["expect"]["to"] = ["someone.else@example.com"]
    spec_file.write_text(json.dumps(specs))
    r = CliRunner().invoke(app, ["rescore", str(run), "--overwrite", "--tasks-dir", str(tasks_dir)])
    assert r.exit_code == 0, r.output
    assert f"changed: {task_id} s0: pass -> fail" in " ".join(r.output.split())
