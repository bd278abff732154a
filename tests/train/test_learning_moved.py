"""Runs made before the learning recipe moved from bench/ to experiments/ (issue #36): their configs name the
CPU tool list as `bench.learning_food`. `finished_report` brings that to `experiments.learning_food`, so
`--from-run` reuses such a run under today's defaults and the reevaluation serves the module where it now is.
No model, no app, seconds."""

from __future__ import annotations

import importlib
import importlib.util
import json
from dataclasses import asdict, replace
from pathlib import Path

import pytest

from experiments.learning import APP_MODULE, MOVED_MODULES, LearnConfig, finished_report, reuse_run
from experiments.learning_reeval import plan


def old_run(root: Path, name: str = "prev", **config) -> Path:
    run = root / name
    for d in ("tasks-train/food", "tasks-heldout/food", "sft/final"):
        (run / d).mkdir(parents=True)
        (run / d / "f").write_text(d)
    (run / "report").mkdir()
    cfg = {**json.loads(json.dumps(asdict(LearnConfig(out=run)), default=str)), "app_module": "bench.learning_food",
           **config}
    report = {"config": cfg, "evals": {"sft": {"model": "runs/m/sft/final"}, "grpo": {"model": f"{run}/grpo/final"}}}
    (run / "report" / "report.json").write_text(json.dumps(report))
    return run


def test_every_moved_module_maps_to_one_that_imports_and_nothing_else_is_renamed(tmp_path: Path):
    for old, new in MOVED_MODULES.items():
        assert importlib.util.find_spec(old) is None  # gone from where the old runs name it
        assert hasattr(importlib.import_module(new), "create_app")
    assert finished_report(old_run(tmp_path))["config"]["app_module"] == APP_MODULE
    for kept in (None, "some.other_module"):
        assert finished_report(old_run(tmp_path, f"r{kept}", app_module=kept))["config"]["app_module"] == kept


def test_a_run_made_before_the_move_is_reused_and_reevaluated(tmp_path: Path):
    prev = old_run(tmp_path)
    reuse_run(replace(LearnConfig(out=tmp_path / "new"), from_run=prev, grpo_lr=1e-4))  # no "other app_module"
    assert (tmp_path / "new" / "sft" / "final" / "f").read_text() == "sft/final"
    settings, _ = plan([prev, old_run(tmp_path, "prev2")])
    assert settings["app_module"] == APP_MODULE
    with pytest.raises(SystemExit, match="other app_module"):  # a module that did not move still has to match
        reuse_run(replace(LearnConfig(out=tmp_path / "new3"), from_run=old_run(tmp_path, "p3", app_module="x.y")))
