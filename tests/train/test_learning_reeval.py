"""experiments/learning_reeval.py on made-up runs and evaluations: which models it evaluates, with which settings,
what it keeps, and the verdicts it reports. No model, no app, seconds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from experiments.learning import LearnConfig
from experiments.learning_reeval import reeval

TEMPLATES = ["food/a", "food/b"]
CONFIG = {"app": "food", "templates": TEMPLATES, "heldout_seeds": "1000-1003", "app_module": "m", "max_turns": 3,
          "reply_tokens": 64, "restate_goal": True, "eval_repeats": 2, "eval_temperature": 1.0, "eval_samples": 2,
          "grpo_steps": 120}


def fake_run(root: Path, name: str, sft: str = "runs/m/sft/final", **config) -> Path:
    run = root / name
    (run / "report").mkdir(parents=True)
    (run / "tasks-heldout" / "food").mkdir(parents=True)
    (run / "tasks-heldout" / "food" / "t.json").write_text("[]")
    report = {"config": {**CONFIG, **config},
              "evals": {"sft": {"model": sft}, "grpo": {"model": f"{run}/grpo/checkpoint-120"}}}
    (run / "report" / "report.json").write_text(json.dumps(report))
    return run


# Each model's pass rate per template and repeat: the SFT model, a run that gains on both templates, one on none.
RATES = {"runs/m/sft/final": {"food/a": [0.5, 0.55], "food/b": [0.3, 0.3]},
         "gain": {"food/a": [0.7, 0.75], "food/b": [0.3, 0.38]},
         "flat": {"food/a": [0.45, 0.6], "food/b": [0.3, 0.35]}}


def fake_evaluate(calls: list):
    def evaluate(model: str, cfg: LearnConfig, name: str) -> dict:
        calls.append((model, name, cfg.eval_samples, cfg.templates, cfg.out))
        rates = RATES[model] if model in RATES else RATES[Path(model).parent.parent.name]
        reps = [sum(r[i] for r in rates.values()) / len(rates) for i in range(2)]
        return {"repeats": [{"success": x} for x in reps], "success_mean": sum(reps) / 2,
                "success_spread": max(reps) - min(reps), "tool_call_rate": 1.0, "tool_errors": 0.0, "episodes": 480,
                "calls": {"valid_rate": 1.0},
                "by_template": {t: {"success": sum(r) / 2, "per_repeat": r} for t, r in rates.items()}}
    return evaluate


def test_reeval_measures_sft_once_and_each_run_against_it(tmp_path: Path):
    runs = [fake_run(tmp_path, "gain"), fake_run(tmp_path, "flat")]
    out = tmp_path / "re"
    calls: list = []
    report = reeval(runs, out, samples=6, evaluate_fn=fake_evaluate(calls))
    assert [c[1] for c in calls] == ["sft", "gain", "flat"]
    assert {c[2] for c in calls} == {6} and {c[3] for c in calls} == {tuple(TEMPLATES)} and {c[4] for c in calls} == {out}
    assert (out / "tasks-heldout" / "food" / "t.json").is_file()  # the runs' held-out worlds, nothing else
    gain, flat = report["runs"]
    # a: +0.2 against a spread of 0.05 -> beats; b: +0.04 against a spread of 0.08 -> does not
    assert gain["verdict"]["food/a"]["beats_spread"] and not gain["verdict"]["food/b"]["beats_spread"]
    assert gain["verdict"]["templates_beating_spread"] == 1
    assert flat["verdict"]["templates_beating_spread"] == 0
    md = (out / "report.md").read_text()
    assert "| SFT |" in md and "| gain |" in md and "**beats**" in md and "1 of 2" in md
    assert json.loads((out / "report.json").read_text())["samples"] == 6

    # Finished evaluations are kept: a second call evaluates nothing again.
    again: list = []
    assert reeval(runs, out, samples=6, evaluate_fn=fake_evaluate(again))["runs"][0]["verdict"] == gain["verdict"]
    assert again == []


def test_reeval_refuses_runs_without_a_shared_baseline(tmp_path: Path):
    with pytest.raises(SystemExit, match="different SFT models"):
        reeval([fake_run(tmp_path, "gain"), fake_run(tmp_path, "flat", sft="runs/other/sft/final")], tmp_path / "o", 6,
               evaluate_fn=fake_evaluate([]))
    with pytest.raises(SystemExit, match="eval_temperature"):
        reeval([fake_run(tmp_path / "x", "gain"), fake_run(tmp_path / "x", "flat", eval_temperature=0.7)],
               tmp_path / "o", 6, evaluate_fn=fake_evaluate([]))
    with pytest.raises(SystemExit, match="not found"):
        reeval([tmp_path / "nothing"], tmp_path / "o", 6, evaluate_fn=fake_evaluate([]))
    with pytest.raises(SystemExit, match="at least 1"):
        reeval([fake_run(tmp_path / "y", "gain")], tmp_path / "o", 0, evaluate_fn=fake_evaluate([]))
