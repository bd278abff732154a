"""The cold start: TRL's SFTTrainer on a `uigym export sft` dataset.

    uigym export sft --runs runs/oracle --out data/sft --format gym --tool-screenshots --history 50 \
        --max-pixels 470400
    uigym train sft --dataset data/sft --model Qwen/Qwen2.5-VL-3B-Instruct --out runs/sft

GRPO only learns from rollouts whose rewards differ, and a model that never writes a well-formed tool
call gets no reward at all: warm-start it on demonstrations first (human or oracle trajectories) in the
format and layout the rollouts use (`--format gym --tool-screenshots`: the same system prompt, tools and
conversation as agent_harness.train.env shows the policy).

The batches are agent_harness.export.sft_batch (the chat template with the row's tools, the labels on
the completion only): the collation TRL does for prompt-completion data, plus the tools column. The
processor gets TRL's qwen3_vl chat template, the one GRPO uses, so SFT and RL see the same token layout.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

from agent_harness.train.config import PRESETS, SFTRunConfig, describe

log = logging.getLogger("uigym.train")


def load_dataset_dict(path: Path):
    import datasets as hf

    path = Path(path)
    if not (path / "dataset_dict.json").exists():
        raise FileNotFoundError(f"{path} is not a `uigym export sft` dataset (no dataset_dict.json)")
    return hf.load_from_disk(str(path))


class Collator:
    """Rows of the export -> model inputs with completion-only labels (agent_harness.export.sft_batch)."""

    def __init__(self, processor, root: Path, max_length: int | None = None):
        self.processor, self.root, self.max_length = processor, Path(root), max_length

    def __call__(self, rows: list[dict]) -> dict:
        from agent_harness.export import sft_batch

        return sft_batch(rows, self.processor, root=self.root, max_length=self.max_length)


def build_sft(cfg: SFTRunConfig, model=None, processor=None, callbacks: list | None = None):
    from trl import SFTTrainer

    from agent_harness.train.grpo import check_trl, load_model, load_processor

    check_trl()
    dsd = load_dataset_dict(cfg.dataset)
    if cfg.split not in dsd or len(dsd[cfg.split]) == 0:
        raise ValueError(f"{cfg.dataset} has no {cfg.split!r} samples")
    train = dsd[cfg.split]
    if "look" in train.column_names:  # the held-out-look split: refused unless asked (apps.training_looks)
        from apps import training_looks

        training_looks(sorted({lk for lk in train["look"] if lk}), cfg.allow_heldout_look)
    if "variant" in train.column_names and not cfg.allow_heldout_variant:  # and the held-out variant bands
        from gym_core.heldout_variants import heldout_named

        held = sorted({h for label in set(train["variant"]) for h in heldout_named(label)})
        if held:
            raise ValueError(f"{cfg.dataset}'s {cfg.split!r} samples include episodes shown in held-out variant "
                             f"values ({', '.join(held)}; gym_core.variant.SPLITS): export without them, or train on "
                             "them anyway with --allow-heldout-variant")
    evald = dsd[cfg.eval_split] if cfg.eval_steps and cfg.eval_split in dsd and len(dsd[cfg.eval_split]) else None
    processor = processor or load_processor(cfg.model)
    if model is None:
        model = load_model(cfg.model, bf16=cfg.bf16)
    peft_config = None
    if cfg.lora:
        try:
            from peft import LoraConfig
        except ImportError:
            raise ImportError("--lora needs peft: pip install -e '.[train]'") from None
        peft_config = LoraConfig(r=cfg.lora_r, lora_alpha=cfg.lora_alpha, target_modules=list(cfg.lora_target_modules),
                                 lora_dropout=0.0, task_type="CAUSAL_LM")
    trainer = SFTTrainer(model=model, args=cfg.sft_config(), train_dataset=train, eval_dataset=evald,
                         processing_class=processor, data_collator=Collator(processor, cfg.dataset, cfg.max_length),
                         peft_config=peft_config, callbacks=callbacks)
    Path(cfg.out).mkdir(parents=True, exist_ok=True)
    (Path(cfg.out) / "uigym_train.json").write_text(json.dumps({"config": describe(cfg), "samples": len(train)},
                                                                indent=1, default=str))
    return trainer


def run_sft(cfg: SFTRunConfig, model=None, processor=None, callbacks: list | None = None) -> dict[str, Any]:
    """Train; the model and processor are saved to OUT/final (what `uigym train grpo --model` takes)."""
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    trainer = build_sft(cfg, model=model, processor=processor, callbacks=callbacks)
    trainer.train()
    final = Path(cfg.out) / "final"
    model = trainer.model
    if cfg.lora and hasattr(model, "merge_and_unload"):
        model = model.merge_and_unload()  # GRPO and eval load a plain model
    model.save_pretrained(str(final))
    trainer.processing_class.save_pretrained(str(final))
    return trainer.state.log_history[-1] if trainer.state.log_history else {}


__all__ = ["Collator", "PRESETS", "build_sft", "load_dataset_dict", "run_sft"]
