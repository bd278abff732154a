"""experiments/learning.py end to end at its tiny size: fresh worlds proven in tool mode, oracle plans, the SFT export,
a model built on the spot, held-out evals (base, SFT, every GRPO checkpoint, GRPO) through `uigym serve` and
`uigym eval --mode tools`, and the report. It asserts the pipeline and its metrics, not that the model learns
(a 50k-parameter model after one SFT epoch does not): the learning numbers are docs/learning/README.md's.
About 1.5 CPU minutes, but ten wall minutes on a loaded 2-core machine: slow."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest


@pytest.mark.slow
@pytest.mark.timeout(2400)
def test_learning_recipe_tiny(tmp_path, trl_ready, train_envs):
    from experiments.learning import SIZES, LearnConfig, run

    cfg = replace(LearnConfig(out=tmp_path / "learn"), **SIZES["tiny"])
    report = run(cfg)

    # worlds: training and held-out instances proven in tool mode, the held-out ones on seeds >= 1000 only
    for side in ("train", "heldout"):
        w = report["worlds"][side]
        assert w["proven"] == w["generated"] > 0, w
        assert w["zero_side_probes"] > 0 and w["zero_side_max_reward"] == 0.0, w
    heldout = [t for p in (cfg.out / "tasks-heldout" / "food").glob("*.json") for t in json.loads(p.read_text())]
    assert len(heldout) == 2 and all(int(t["id"].rsplit(".s", 1)[1]) >= 1000 for t in heldout)
    train = [json.loads(p.read_text()) for p in (cfg.out / "tasks-train" / "food").glob("*.json")]
    assert all(int(t["id"].rsplit(".s", 1)[1]) < 1000 for rows in train for t in rows)

    # SFT data from the oracle's plans on the demonstration seeds: one sample per call of each gold plan, and
    # one closing turn per demonstration (`done`'s result, then an empty reply: what GRPO's loop asks after it)
    from agent_harness.agents.tool_model import TASK_FINISHED

    demos = [t for p in (cfg.out / "tasks-demo" / "food").glob("*.json") for t in json.loads(p.read_text())]
    assert len(demos) == report["demo_tasks"] > 0
    assert report["sft_samples"] == sum(len(t["tools"]["solution"]) for t in demos) + len(demos)
    assert report["model_params"] > 0
    # every stage shows the task after each result (restate_goal): the SFT prompts here, GRPO's env and eval
    # by their options; the model has windowed layers below a full one
    rows = [json.loads(line) for line in (cfg.out / "sft-data" / "train.jsonl").open()]
    closing = [r for r in rows if r["target"] == ""]
    assert len(closing) == len(demos) and all(r["prompt"][-1]["content"][0]["text"] == TASK_FINISHED for r in closing)
    results = [(r["goal"], m["content"][0]["text"]) for r in rows for m in r["prompt"] if m["role"] == "tool"
               and m["content"][0]["text"] != TASK_FINISHED]
    assert results and all(text.endswith("\n\nTask: " + goal) for goal, text in results)
    grpo_cfg = json.loads((cfg.out / "grpo" / "uigym_train.json").read_text())["config"]
    assert grpo_cfg["restate_goal"] is True and grpo_cfg["mode"] == "tools"
    model_cfg = json.loads((Path(report["evals"]["base"]["model"]) / "config.json").read_text())["text_config"]
    assert model_cfg["layer_types"] == ["sliding_attention", "full_attention"] and model_cfg["sliding_window"] == 16
    # the teacher-forced probe of the change call (experiments/learning_probe.py) on the SFT model and its data
    from experiments.learning_probe import probe

    probed = probe(str(cfg.out / "sft" / "final"), str(cfg.out / "sft-data"))
    assert set(probed) == set(cfg.templates)
    for row in probed.values():
        assert set(row["tool_probability"]) == {"cancel_plus", "set_notification"}
        assert abs(sum(row["tool_probability"].values()) - 1.0) < 0.01 and 0.0 <= row["greedy_exact"] <= 1.0

    # the curve: base, sft, one point per GRPO checkpoint, grpo; each a measured rate with its repeats
    labels = [c["label"] for c in report["curve"]]
    assert labels == ["base", "sft", "g1", "g2", "grpo"]
    for c in report["curve"]:
        assert 0.0 <= c["success_mean"] <= 1.0 and len(c["repeat_success"]) == cfg.eval_repeats
        assert c["episodes"] == cfg.eval_repeats * cfg.eval_samples * len(heldout)
        assert set(c["by_template"]) == set(cfg.templates)
        calls = c["calls"]
        assert calls["replies"] >= c["episodes"] and 0.0 <= calls["valid_rate"] <= 1.0
        assert calls["replies"] == sum(v for k, v in calls.items() if k not in ("replies", "valid_rate"))
        assert set(c["right_tool"]) == set(cfg.templates) and all(0.0 <= v <= 1.0 for v in c["right_tool"].values())
    for ev in report["evals"].values():  # the change call's tool, counted per template over every episode
        for tmpl, row in ev["choices"].items():
            assert row["gold"] in {"cancel_plus", "set_notification"} and sum(row["counts"].values()) == row["n"]
        assert sum(r["n"] for r in ev["choices"].values()) == ev["episodes"]
    # GRPO's own log: one row per step, with the group statistics and tool-call metrics
    assert [h["step"] for h in report["grpo_log"]] == [1, 2]
    for h in report["grpo_log"]:
        for key in ("reward", "reward_std", "frac_reward_zero_std", "uigym/tool_call_rate", "uigym/parse_errors"):
            assert key in h, (key, h)
    assert set(report["verdict"]) == set(cfg.templates) | {"templates_beating_spread"}
    assert report["integrity"]["passing_episodes_checked"] >= 0
    stages = report["time"]["stages"]
    # the last checkpoint (step 2) is the final model: its evaluation is the "grpo" point, not run twice
    assert set(stages) == {"worlds", "oracle", "sft_data", "model", "eval_base", "sft", "eval_sft", "grpo"}
    assert report["curve"][-1]["repeat_success"] == report["curve"][-2]["repeat_success"]
    assert all(s["wall_s"] > 0 and s["cpu_s"] > 0 for s in stages.values())
    rdir = cfg.out / "report"
    assert (rdir / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "| sft |" in (rdir / "report.md").read_text()

    # --from-run: GRPO again (one step, another learning rate) from this run's SFT model; its base and SFT points
    # are this run's, and only GRPO and its evaluations take time
    again = run(replace(cfg, out=tmp_path / "again", from_run=cfg.out, grpo_steps=1, grpo_lr=1e-4))
    assert [c["label"] for c in again["curve"]] == ["base", "sft", "g1", "grpo"]
    assert again["curve"][:2] == report["curve"][:2] and again["evals"]["sft"] == report["evals"]["sft"]
    assert set(again["time"]["stages"]) == {"grpo"} and again["reused"]["from_run"] == str(cfg.out)
    assert json.loads((tmp_path / "again" / "grpo" / "uigym_train.json").read_text())["config"]["learning_rate"] == 1e-4
    assert "reused from" in (tmp_path / "again" / "report" / "report.md").read_text()
