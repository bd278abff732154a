"""The learning recipe's bookkeeping (experiments/learning.py), on made-up numbers: no model, no app, seconds."""

from __future__ import annotations

from pathlib import Path

from experiments.learning import LearnConfig, goal_selectivity, per_repeat, plot, template_of, verdict


def test_template_of_a_fresh_instance_id():
    assert template_of("food/redeem-gift-card-00.s1003") == "food/redeem-gift-card"
    assert template_of("food/update-phone-02.s7") == "food/update-phone"


def test_per_repeat_rates_split_rows_in_repeat_order():
    rows = [{"task_id": "food/a-00.s1000", "passed": p} for p in (True, True, False, True)] + \
           [{"task_id": "food/b-00.s1000", "passed": False}] * 4
    assert per_repeat(rows, "food/a", 2) == [1.0, 0.5]
    assert per_repeat(rows, "food/b", 2) == [0.0, 0.0]
    assert per_repeat(rows, "food/c", 2) == []


def test_verdict_counts_a_template_only_when_its_gain_beats_the_larger_spread():
    cfg = LearnConfig(templates=("food/a", "food/b", "food/c"))
    sft = {"by_template": {"food/a": {"success": 0.25, "per_repeat": [0.2, 0.3]},
                           "food/b": {"success": 0.5, "per_repeat": [0.5, 0.5]},
                           "food/c": {"success": 0.1, "per_repeat": [0.0, 0.2]}}}
    grpo = {"by_template": {"food/a": {"success": 0.6, "per_repeat": [0.5, 0.7]},   # gain .35 > spread .2
                            "food/b": {"success": 0.55, "per_repeat": [0.4, 0.7]},  # gain .05 < spread .3
                            "food/c": {"success": 0.1, "per_repeat": [0.1, 0.1]}}}  # no gain
    v = verdict(cfg, sft, grpo)
    assert v["food/a"]["beats_spread"] and v["food/a"]["gain"] == 0.35 and v["food/a"]["spread"] == 0.2
    assert not v["food/b"]["beats_spread"] and v["food/b"]["spread"] == 0.3
    assert not v["food/c"]["beats_spread"]
    assert v["templates_beating_spread"] == 1


def test_goal_selectivity_tells_a_one_call_habit_from_reading_the_goal():
    def row(gold, **counts):
        n = sum(counts.values())
        return {"gold": gold, "counts": counts, "n": n, "right_tool": counts.get(gold, 0) / n}

    habit = {"food/a": row("cancel", cancel=8, done=2), "food/b": row("select", cancel=7, select=3),
             "food/c": row("notify", cancel=9, notify=1)}
    assert goal_selectivity(habit, "food/a") == 0.0  # cancels everywhere: its pass rate says nothing of the goal
    reading = {"food/a": row("cancel", cancel=9, select=1), "food/b": row("select", select=8, cancel=2),
               "food/c": row("notify", notify=10)}
    assert goal_selectivity(reading, "food/a") == 0.8 and goal_selectivity(reading, "food/c") == 1.0
    assert goal_selectivity({"food/a": row("cancel", cancel=1)}, "food/a") is None


def test_plot_writes_a_png(tmp_path: Path):
    curve = [{"label": "base", "success_mean": 0.0, "repeat_success": [0.0, 0.0]},
             {"label": "sft", "success_mean": 0.3, "repeat_success": [0.25, 0.35]},
             {"label": "grpo", "success_mean": 0.6, "repeat_success": [0.5, 0.7]}]
    log = [{"step": 1, "reward": 0.2}, {"step": 2, "reward": 0.4}]
    plot(curve, log, tmp_path / "curve.png")
    from PIL import Image

    img = Image.open(tmp_path / "curve.png")
    assert img.format == "PNG" and img.size == (900, 380)
    assert len(img.convert("RGB").getcolors(maxcolors=100000)) > 3  # lines and points were drawn, not a blank canvas


def test_demo_tasks_are_one_per_goal_and_world_on_training_seeds(tmp_path: Path):
    import json

    import pytest

    from experiments.learning import write_demo_tasks

    cfg = LearnConfig(out=tmp_path, templates=("food/cancel-plus", "food/notification-setting"), instances=5,
                      demo_seeds="1-2")
    # cancel-plus asks one thing five ways in a world (one demo); notification-setting five different things
    assert write_demo_tasks(cfg) == 2 * (1 + 5)
    for name in ("cancel-plus", "notification-setting"):
        rows = json.loads((tmp_path / "tasks-demo" / "food" / f"{name}.json").read_text())
        assert {r["seed"] for r in rows} == {1, 2}
        assert len({(r["seed"], r["goal"]) for r in rows}) == len(rows)
    with pytest.raises(ValueError, match="must be training seeds"):
        write_demo_tasks(LearnConfig(out=tmp_path, demo_seeds="999-1000"))


def test_a_corpus_file_teaches_the_tiny_tokenizer_its_texts(tmp_path: Path):
    import json

    from agent_harness.models.tiny import _extra_corpus, _train_tokenizer

    text = '{"setting":"notify_email_promos","group":"Promotions and offers","channel":"Emails","on":true}'
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(json.dumps(text) + "\n" + json.dumps("second line\nwith a newline") + "\n")
    assert _extra_corpus(str(corpus)) == [text, "second line\nwith a newline"]
    plain, taught = _train_tokenizer(2000), _train_tokenizer(2000, _extra_corpus(str(corpus)))
    assert len(taught(text)["input_ids"]) < len(plain(text)["input_ids"])
    assert taught.decode(taught(text)["input_ids"]) == text


def test_a_grpo_only_run_reuses_a_finished_runs_sft_and_refuses_other_settings(tmp_path: Path):
    """`--from-run`: the worlds and the SFT model are copied; a run whose non-GRPO settings differ (another
    model, other eval samples) is refused, since its SFT numbers would not be the new GRPO numbers' baseline."""
    import json
    from dataclasses import asdict, replace

    import pytest

    from experiments.learning import reuse_run

    prev_out = tmp_path / "prev"
    prev_cfg = LearnConfig(out=prev_out)
    for d, f in (("tasks-train/food", "a.json"), ("tasks-heldout/food", "a.json"), ("sft/final", "model.safetensors")):
        (prev_out / d).mkdir(parents=True)
        (prev_out / d / f).write_text(d)
    (prev_out / "report").mkdir()
    (prev_out / "report" / "report.json").write_text(json.dumps({"config": asdict(prev_cfg)}, default=str))

    grpo_only = replace(prev_cfg, out=tmp_path / "new", from_run=prev_out, grpo_lr=1e-4, grpo_steps=90,
                        extra_grpo={"beta": 0.04})
    assert reuse_run(grpo_only)["config"]["grpo_lr"] == prev_cfg.grpo_lr
    for d, f in (("tasks-train/food", "a.json"), ("tasks-heldout/food", "a.json"), ("sft/final", "model.safetensors")):
        assert (tmp_path / "new" / d / f).read_text() == d

    with pytest.raises(SystemExit, match=r"other eval_samples, sft_lr .*only GRPO's settings may differ"):
        reuse_run(replace(grpo_only, eval_samples=4, sft_lr=1e-3))
    with pytest.raises(SystemExit, match="another folder"):
        reuse_run(replace(grpo_only, out=prev_out))
    with pytest.raises(SystemExit, match="not found"):
        reuse_run(replace(grpo_only, from_run=tmp_path / "nowhere"))


def test_a_run_reusing_demonstrations_may_change_the_model_and_sft_but_not_the_worlds(tmp_path: Path):
    import json
    from dataclasses import asdict, replace

    import pytest

    from experiments.learning import reuse_run

    prev_out = tmp_path / "prev"
    prev_cfg = LearnConfig(out=prev_out)
    for d in ("tasks-train/food", "tasks-heldout/food", "tasks-demo/food", "oracle/episodes", "sft/final"):
        (prev_out / d).mkdir(parents=True)
        (prev_out / d / "f").write_text(d)
    (prev_out / "report").mkdir()
    (prev_out / "report" / "report.json").write_text(json.dumps({"config": asdict(prev_cfg)}, default=str))

    demos = replace(prev_cfg, out=tmp_path / "new", from_run=prev_out, reuse="demos", closing_turn=False,
                    sft_epochs=2.0, model={**prev_cfg.model, "local_window": 32})
    reuse_run(demos)
    for d in ("tasks-train/food", "tasks-heldout/food", "tasks-demo/food", "oracle/episodes"):
        assert (tmp_path / "new" / d / "f").read_text() == d
    assert not (tmp_path / "new" / "sft").exists()  # SFT runs again
    with pytest.raises(SystemExit, match="other heldout_seeds .*worlds and demonstrations"):
        reuse_run(replace(demos, heldout_seeds="1000-1009"))
    with pytest.raises(SystemExit, match="other closing_turn, model, sft_epochs"):
        reuse_run(replace(demos, out=tmp_path / "new2", reuse="sft"))
    with pytest.raises(SystemExit, match="reuse must be one of"):
        reuse_run(replace(demos, reuse="everything"))
