"""`uigym export sft`: oracle trajectories (jittered: a synthetic demonstration set) -> a `datasets` dataset that
loads with load_from_disk, whose rows render back to the action texts the harness parses, split by task, without
duplicates, with a card; one SFT step of the tiny model on it (loss finite, decreasing)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

datasets = pytest.importorskip("datasets")

from agent_harness.agents.model import smart_resize  # noqa: E402
from agent_harness.export import ExportConfig, assign_splits, export_sft, sft_batch  # noqa: E402
from agent_harness.formats import get_format, parse  # noqa: E402
from agent_harness.runner import read_results  # noqa: E402
from agent_harness.trajectory import Trajectory  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


def _usable_steps(run: Path) -> int:
    return sum(len(Trajectory.load(run / r["episode_dir"] / "trajectory.json").steps) for r in read_results(run))


def _check_rows(ds, fmt: str, history: int) -> None:
    for split in ("train", "test"):
        for row in ds[split]:
            assert row["format"] == fmt and row["split"] == split and row["source"] == "oracle"
            actions = json.loads(row["actions"])
            # The target is what the eval harness parses; it parses to the recorded action.
            assert parse(fmt, row["target"], (row["screen_width"], row["screen_height"]),
                         (row["image_width"], row["image_height"]), coords=row["coords"]) == actions
            if (row["image_width"], row["image_height"]) == (row["screen_width"], row["screen_height"]):
                assert actions == [json.loads(row["recorded_action"])]
            assert row["completion"] == [{"role": "assistant", "content": [{"type": "text", "text": row["target"]}]}]
            # The last K screenshots: one image placeholder each, the current screen last.
            n_placeholders = sum(p["type"] == "image" for m in row["prompt"] for p in m["content"])
            assert n_placeholders == len(row["images"]) == min(history, row["step"])
            assert row["prompt"][-1]["role"] == "user" and row["prompt"][-1]["content"][-1]["type"] == "image"
            assert row["images"][-1].size == (row["image_width"], row["image_height"])
            assert row["goal"] in row["prompt"][1]["content"][0]["text"]
            assert (row["tools"] != "") == get_format(fmt).uses_tools


def test_export_cli_qwen(oracle_run, tmp_path):
    out = tmp_path / "sft-qwen"
    r = subprocess.run([sys.executable, "-m", "agent_harness.cli", "export", "sft", "--runs", str(oracle_run),
                        "--out", str(out), "--format", "qwen", "--history", "2"],
                       cwd=REPO, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "train and" in r.stdout and "duplicates dropped" in r.stdout

    ds = datasets.load_from_disk(str(out))
    assert set(ds) == {"train", "test"} and len(ds["train"]) > 0 and len(ds["test"]) > 0
    _check_rows(ds, "qwen", history=2)
    # Split by task: no task on both sides.
    train_tasks, test_tasks = set(ds["train"]["task_id"]), set(ds["test"]["task_id"])
    assert train_tasks and test_tasks and not train_tasks & test_tasks
    # Deduplicated: no two samples with the same task, screenshot and action; the rest were counted as duplicates.
    rows = list(ds["train"]) + list(ds["test"])
    # Every row says the look its episode was shown in (issue #37): the toy app served as mail, its default.
    assert {x["look"] for x in rows} == {"gmail"}
    assert {x["variant"] for x in rows} <= {"default", ""}  # and its variant's label (issue 45): none moved here
    assert {x["family"] for x in rows} == {""}  # and its seed family (issue #39): the app's own seeds here
    keys = Counter((x["task_id"], x["screenshot_sha"], x["actions"]) for x in rows)
    assert max(keys.values()) == 1
    stats = json.loads((out / "export.json").read_text())["stats"]
    assert len(rows) + stats["duplicates"] == _usable_steps(oracle_run) and stats["duplicates"] > 0
    # The jittered oracle's two samples click different, valid points: both kept.
    clicks = {(x["task_id"], x["actions"]) for x in rows if '"click"' in x["actions"]}
    assert len([c for c in clicks if c[0] == "mail/toy-add-note"]) == 4  # 2 clicks x 2 samples
    # JSONL + image files, and the card.
    lines = [json.loads(ln) for ln in (out / "train.jsonl").read_text().splitlines()]
    assert len(lines) == len(ds["train"]) and all((out / p).exists() for x in lines for p in x["images"])
    assert lines[0]["target"] == ds["train"][0]["target"]
    card = (out / "README.md").read_text()
    assert "By app" in card and "| mail |" in card and "By difficulty" in card and "| oracle |" in card


def test_export_leaves_out_held_out_variants_when_asked(oracle_run, tmp_path):
    """--train-variants (issue 45): an episode shown in a held-out variant value (here one row relabelled as shown
    at 150% zoom) is left out and counted; without it the episode's samples are there, labelled, for `train sft` to
    refuse (tests/train/test_train_variants.py)."""
    import shutil

    run = tmp_path / "run"
    shutil.copytree(oracle_run, run)
    rows = read_results(run)
    rows[0]["variant"] = dict(rows[0].get("variant") or {}, label="zoom=1.5", zoom=1.5)
    (run / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    kept = export_sft(ExportConfig(runs=[run], out=tmp_path / "all"))
    trained = export_sft(ExportConfig(runs=[run], out=tmp_path / "train", train_variants=True))
    assert trained.skipped_episodes == {"held-out variant": 1} and kept.episodes == trained.episodes + 1
    ds = datasets.load_from_disk(str(tmp_path / "all"))
    assert "zoom=1.5" in set(ds["train"]["variant"]) | set(ds["test"]["variant"])


def test_export_formats_and_resized_images(oracle_run, tmp_path):
    for fmt in ("openai", "uitars"):
        stats = export_sft(ExportConfig(runs=[oracle_run], out=tmp_path / fmt, format=fmt, history=1))
        ds = datasets.load_from_disk(str(tmp_path / fmt))
        assert sum(stats.samples.values()) == len(ds["train"]) + len(ds["test"])
        _check_rows(ds, fmt, history=1)
    # Screenshots resized as the model sees them (eval's --max-pixels): coordinates follow, within rounding.
    out = tmp_path / "small"
    export_sft(ExportConfig(runs=[oracle_run], out=out, format="uitars", history=3, max_pixels=28 * 28 * 64))
    ds = datasets.load_from_disk(str(out))
    row = next(x for x in ds["train"] if '"click"' in x["actions"])
    size = smart_resize(1280, 720, max_pixels=28 * 28 * 64)
    assert (row["image_width"], row["image_height"]) == size and row["images"][0].size == size
    assert size[0] < 1280 and size[0] % 28 == 0
    (got,), want = json.loads(row["actions"]), json.loads(row["recorded_action"])
    assert abs(got["x"] - want["x"]) <= 3 and abs(got["y"] - want["y"]) <= 3
    _check_rows(ds, "uitars", history=3)
    with pytest.raises(FileExistsError):
        export_sft(ExportConfig(runs=[oracle_run], out=out, format="uitars"))
    # The toy tasks are all marked train: by that field, the test split is empty (and still loads).
    export_sft(ExportConfig(runs=[oracle_run], out=out, format="json", split="field", overwrite=True))
    ds = datasets.load_from_disk(str(out))
    assert len(ds["test"]) == 0 and len(ds["train"]) > 0
    _check_rows(ds, "json", history=3)


def test_assign_splits_respects_the_task_split_field():
    rows = [{"task_id": f"crm/t{i}", "app": "crm", "split": "test" if i == 3 else "train"} for i in range(6)]
    rows += [{"task_id": f"mail/m{i}", "app": "mail", "split": "train"} for i in range(40)]
    s = assign_splits(rows, "auto", test_fraction=0.25)
    assert [s[f"crm/t{i}"] for i in range(6)] == ["train"] * 3 + ["test"] + ["train"] * 2
    n_test = sum(s[f"mail/m{i}"] == "test" for i in range(40))
    assert 3 <= n_test <= 20  # mail marks no test task: a stable hash puts about a quarter in test
    assert s == assign_splits(list(reversed(rows)), "auto", test_fraction=0.25)


def test_one_sft_step_of_the_tiny_model(oracle_run, tiny_model, one_torch_thread, tmp_path):
    torch = pytest.importorskip("torch")
    from transformers import AutoModelForImageTextToText, AutoProcessor

    out = tmp_path / "sft"
    export_sft(ExportConfig(runs=[oracle_run], out=out, format="qwen", history=2))
    ds = datasets.load_from_disk(str(out))["train"]
    rows = [ds[i] for i in range(min(4, len(ds)))]
    processor = AutoProcessor.from_pretrained(tiny_model)
    batch = sft_batch(rows, processor)
    tok = processor.tokenizer
    for b, row in enumerate(rows):  # the loss is on the target (and the end of the turn) only
        labels = batch["labels"][b]
        assert tok.decode(labels[labels != -100]) == row["target"] + "<|im_end|>\n"
    torch.manual_seed(0)
    model = AutoModelForImageTextToText.from_pretrained(tiny_model, dtype=torch.float32)
    model.train()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    losses = []
    for _ in range(4):
        loss = model(**batch).loss
        loss.backward()
        opt.step()
        opt.zero_grad()
        losses.append(loss.item())
    assert all(math.isfinite(x) for x in losses)
    assert losses[-1] < losses[0], losses


def test_trl_sft_trainer_takes_the_dataset(oracle_run, tiny_model, one_torch_thread, tmp_path):
    """The export is TRL's prompt-completion layout for vision-language models (what `uigym train sft` builds on)."""
    pytest.importorskip("trl")
    torch = pytest.importorskip("torch")
    from transformers import AutoModelForImageTextToText, AutoProcessor
    from trl import SFTConfig, SFTTrainer

    out = tmp_path / "sft-uitars"
    export_sft(ExportConfig(runs=[oracle_run], out=out, format="uitars", history=1))
    ds = datasets.load_from_disk(str(out))["train"]
    model = AutoModelForImageTextToText.from_pretrained(tiny_model, dtype=torch.float32)
    args = SFTConfig(output_dir=str(tmp_path / "trl"), max_steps=3, per_device_train_batch_size=2, learning_rate=3e-3,
                     logging_steps=1, report_to=[], save_strategy="no", use_cpu=True, max_length=None,
                     disable_tqdm=True)
    trainer = SFTTrainer(model=model, args=args, train_dataset=ds, processing_class=AutoProcessor.from_pretrained(
        tiny_model))
    trainer.train()
    losses = [h["loss"] for h in trainer.state.log_history if "loss" in h]
    assert len(losses) == 3 and all(math.isfinite(x) for x in losses)
