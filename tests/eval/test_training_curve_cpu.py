"""The learning curve of a real training run on CPU: two GRPO steps of the tiny random Qwen2.5-VL in tool mode on
the toy app's tasks, with a periodic eval after each (`uigym serve` + `uigym eval --mode tools` on a test copy of
each task), then `uigym report` on the run folder. Checks that the report reads what training writes: one point
per eval at its step, the trainer log's series, the PNG beside index.html. About 2.5 minutes on a quiet
2-core machine: slow."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from tests.harness.toy_tasks import APP_MODULES, TASKS
from tests.train.conftest import tiny_model, torch_threads, train_envs, trl_ready  # noqa: F401 (the training fixtures)

ROOT = Path(__file__).resolve().parents[2]


def toy_tasks_with_test_copies(root: Path) -> Path:
    """The toy tasks (split train) and a copy of each in the test split (id + '-t'), for the periodic evals."""
    d = root / "mail"
    d.mkdir(parents=True)
    test = [dict(copy.deepcopy(t), id=t["id"] + "-t", split="test") for t in TASKS]
    (d / "toy.json").write_text(json.dumps(TASKS + test))
    return root


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_a_real_grpo_run_reports_its_periodic_evals(tmp_path, tiny_model, torch_threads, train_envs, monkeypatch):
    from typer.testing import CliRunner

    from agent_harness.cli import app
    from agent_harness.report.training import learning_curve_figure, read_training_run
    from agent_harness.train.config import GRPORunConfig
    from agent_harness.train.grpo import build_grpo, load_model, load_processor

    monkeypatch.setenv("PYTHONPATH", str(ROOT))  # the eval subprocesses import the toy app
    out = tmp_path / "grpo"
    cfg = GRPORunConfig(model=str(tiny_model), out=out, tasks="mail/toy-*", split="train",
                        tasks_dir=toy_tasks_with_test_copies(tmp_path / "tasks"), mode="tools", max_turns=3,
                        reply_tokens=32, result_text_tokens=64, max_steps=2, num_generations=4,
                        per_device_batch_size=4, learning_rate=1e-3, app_modules=APP_MODULES, eval_every=1,
                        eval_tasks="mail/toy-*", eval_split="test", eval_workers=1)
    trainer, _ = build_grpo(cfg, model=load_model(str(tiny_model)), processor=load_processor(str(tiny_model)))
    trainer.train()

    logged = [json.loads(line) for line in (out / "eval" / "metrics.jsonl").read_text().splitlines()]
    assert [m["eval/step"] for m in logged] == [1.0, 2.0] and not any(m.get("eval/failed") for m in logged), logged
    run = read_training_run(out)
    assert [(p.step, p.pass_rate, p.episodes) for p in run.evals] == \
        [(int(m["eval/step"]), m["eval/success"], int(m["eval/episodes"])) for m in logged]
    assert all(p.episodes == 3 and p.interval is not None for p in run.evals)
    assert {s.key for s in run.series} >= {"reward", "uigym/success", "loss"}
    assert [s.steps for s in run.series if s.key == "reward"] == [[1.0, 2.0]]
    fig = learning_curve_figure(run)
    assert fig is not None

    res = CliRunner().invoke(app, ["report", str(out)])
    assert res.exit_code == 0, res.output
    html = (out / "report" / "index.html").read_text()
    assert 'src="learning_curve.png"' in html and (out / "report" / "learning_curve.png").stat().st_size > 0
