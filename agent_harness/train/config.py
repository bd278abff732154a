"""Training configuration: model presets and the options of `uigym train sft` / `uigym train grpo`.

Plain dataclasses: the CLI fills them, tests and scripts build them directly, and each trainer turns its
own into TRL's config (`SFTRunConfig.sft_config()`, `GRPORunConfig.grpo_config(budget)`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

GENERATION_MODES = ("hf", "vllm-server", "vllm-colocate")


@dataclass(frozen=True)
class Preset:
    """What we know works for one model family: where its weights live and sensible sizes."""

    model: str
    max_pixels: int  # per screenshot: image tokens = max_pixels / factor^2 (factor 28, or 32 for Qwen3-VL)
    max_turns: int = 15
    reply_tokens: int = 160
    learning_rate: float = 1e-6
    lora_learning_rate: float = 1e-5
    lora_r: int = 16
    lora_alpha: int = 32
    lora_target_modules: tuple[str, ...] = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj",
                                            "down_proj")
    num_generations: int = 8
    per_device_batch_size: int = 8
    vllm_gpu_memory_utilization: float = 0.35
    notes: str = ""


PRESETS: dict[str, Preset] = {
    # 1280x720 -> 924x504 screenshots: 594 image tokens each.
    "qwen2.5-vl-3b": Preset("Qwen/Qwen2.5-VL-3B-Instruct", max_pixels=28 * 28 * 600),
    # Qwen3-VL tiles are 32 px: 1280x720 -> 928x512, 464 image tokens.
    "qwen3-vl-2b": Preset("Qwen/Qwen3-VL-2B-Instruct", max_pixels=32 * 32 * 480),
    # UI-TARS-1.5 is a Qwen2.5-VL; warm-start it on gym tool calls (its native action text is `--format uitars`).
    "ui-tars-1.5-7b": Preset("ByteDance-Seed/UI-TARS-1.5-7B", max_pixels=28 * 28 * 600, learning_rate=5e-7,
                             per_device_batch_size=4, vllm_gpu_memory_utilization=0.3,
                             notes="7B: use --lora on one GPU, or DeepSpeed ZeRO-3 across several"),
}


def preset(name: str | None) -> Preset | None:
    if name is None:
        return None
    key = name.lower()
    if key not in PRESETS:
        raise ValueError(f"unknown preset {name!r}; presets: {', '.join(PRESETS)}")
    return PRESETS[key]


@dataclass
class SFTRunConfig:
    dataset: Path  # `uigym export sft` output (datasets.load_from_disk), e.g. --format gym --tool-screenshots
    model: str
    out: Path
    max_steps: int = -1
    epochs: float = 1.0
    learning_rate: float = 2e-5
    per_device_batch_size: int = 2
    gradient_accumulation_steps: int = 1
    max_length: int | None = None  # a longer sample is an error, never cut (it would cut images or the target)
    lora: bool = False
    lora_r: int = 16
    lora_alpha: int = 32
    lora_target_modules: tuple[str, ...] = PRESETS["qwen2.5-vl-3b"].lora_target_modules
    bf16: bool = False
    gradient_checkpointing: bool = False
    logging_steps: int = 10
    save_steps: int | None = None
    seed: int = 0
    report_to: str = "none"
    split: str = "train"
    eval_split: str | None = "test"
    eval_steps: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # more SFTConfig fields
    allow_heldout_look: bool = False  # train on samples shown in a held-out look anyway (apps.training_looks)
    # train on samples shown in a held-out variant band anyway (gym_core.heldout_variants)
    allow_heldout_variant: bool = False

    def sft_config(self):
        from trl import SFTConfig

        kw: dict[str, Any] = dict(
            output_dir=str(self.out), max_steps=self.max_steps, num_train_epochs=self.epochs,
            learning_rate=self.learning_rate, per_device_train_batch_size=self.per_device_batch_size,
            per_device_eval_batch_size=self.per_device_batch_size,
            gradient_accumulation_steps=self.gradient_accumulation_steps, logging_steps=self.logging_steps,
            save_strategy="steps" if self.save_steps else "no", bf16=self.bf16,
            gradient_checkpointing=self.gradient_checkpointing, seed=self.seed, report_to=self.report_to,
            remove_unused_columns=False, dataset_kwargs={"skip_prepare_dataset": True}, max_length=None,
            dataloader_num_workers=0, eval_strategy="steps" if self.eval_steps else "no",
        )
        if self.save_steps:
            kw["save_steps"] = self.save_steps
        if self.eval_steps:
            kw["eval_steps"] = self.eval_steps
        kw.update(self.extra)
        return SFTConfig(**kw)


@dataclass
class CurriculumConfig:
    """Which tasks a generation batch draws (see agent_harness.train.curriculum)."""

    # Training progress (0..1) at which each difficulty enters; its weight then ramps to 1 over `ramp`.
    start: dict[str, float] = field(default_factory=lambda: {"easy": 0.0, "medium": 0.15, "hard": 0.4,
                                                                                "long": 0.6})
    ramp: float = 0.2
    # A group whose rollouts all succeed or all fail has zero advantage (no gradient): its template's weight is
    # multiplied by `zero_advantage_decay` for each such group in a row (down to `min_weight`), and restored by
    # a group with signal. `drop_after`: take a template out after that many zero-advantage groups in a row.
    zero_advantage_decay: float = 0.5
    min_weight: float = 0.05
    drop_after: int | None = None
    enabled: bool = True


@dataclass
class GRPORunConfig:
    model: str
    out: Path
    tasks: str = "*"  # glob(s) over task ids
    split: str | None = "train"
    tasks_dir: Path | None = None  # tasks from <dir>/<app>/*.json instead of the bundled ones
    seeds: str | None = None  # fresh training worlds ("1-200"): the matching templates' proven instances there
    instances: int = 1  # with seeds: instances per (template, seed)
    preset: str | None = None
    # episode and tokens
    max_pixels: int | None = None  # default: the preset's, else 28*28*600
    max_turns: int | None = None  # actions per episode at most (default: the preset's, capped by each task)
    reply_tokens: int | None = None  # tokens per reply at most (default: the preset's)
    result_text_tokens: int | None = None  # a tool result's text at most (default: 96 on screen, 1024 in tool mode)
    mode: str = "ui"  # ui: screenshots and the gym format's actions; tools: one app's tools, text only
    restate_goal: bool = False  # tool mode: the task after each call's result (agents.tool_model.tool_result_message)
    # The apps' look in rollouts (EnvConfig.look: an id, a list, "random"); a held-out look is refused unless
    # allow_heldout_look (apps.training_looks).
    look: str | None = None
    allow_heldout_look: bool = False
    # The episodes' variant in rollouts (EnvConfig.variant: "zoom=0.8|1.1,theme=dark", "random", a preset; `uigym
    # variants`): a held-out band's value is refused unless allow_heldout_variant, and "random" on a split axis draws
    # from its train band (gym_core.heldout_variants). Screen mode only.
    variant: str | None = None
    allow_heldout_variant: bool = False
    # The seed family rollout (and --eval-every) worlds are built from instead of each app's own seeds
    # (apps.TASK_FAMILIES: "injected", the plain world plus attacker text); None: the apps' own.
    family: str | None = None
    max_completion_length: int | None = None  # default: exactly what a full episode needs
    max_model_len: int | None = None  # vLLM's context (default: prompt + completion)
    viewport: tuple[int, int] = (1280, 720)
    # optimisation
    max_steps: int = 100
    learning_rate: float | None = None
    num_generations: int | None = None
    per_device_batch_size: int | None = None
    gradient_accumulation_steps: int = 1
    steps_per_generation: int | None = None
    num_iterations: int = 1
    beta: float = 0.0
    temperature: float = 1.0
    loss_type: str = "dapo"
    format_reward: float = 0.0  # weight of the tool-call shaping reward (grpo.ToolCallShaping); 0: verifier only
    bf16: bool = False
    gradient_checkpointing: bool = False
    lora: bool = False
    seed: int = 0
    # generation
    generation: str = "hf"  # hf | vllm-server | vllm-colocate
    vllm_server_url: str | None = None
    vllm_gpu_memory_utilization: float | None = None
    vllm_tensor_parallel_size: int = 1
    # logging, checkpoints, evaluation
    logging_steps: int = 1
    save_steps: int | None = None
    report_to: str = "none"
    log_completions: bool = False
    eval_every: int | None = None  # evaluate every N steps (on the saved checkpoint) with `uigym eval`
    eval_tasks: str | None = None  # default: --tasks
    eval_split: str | None = "test"
    eval_seeds: str | None = None  # evaluate on these fresh worlds (held out: >= 1000) instead of bundled tasks
    eval_workers: int = 4
    eval_server: str = "uigym"  # uigym (uigym serve, transformers) | vllm (vllm serve) | URL of a running server
    eval_device: str = "cpu"
    curriculum: CurriculumConfig = field(default_factory=CurriculumConfig)
    # where the apps run
    app_urls: dict[str, str] = field(default_factory=dict)
    app_modules: dict[str, str] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)  # more GRPOConfig fields

    def resolved(self) -> GRPORunConfig:
        """Defaults filled from the preset."""
        p = preset(self.preset) or Preset(model=self.model, max_pixels=28 * 28 * 600)
        if self.generation not in GENERATION_MODES:
            raise ValueError(f"generation must be one of {', '.join(GENERATION_MODES)}, not {self.generation!r}")
        if self.mode not in ("ui", "tools"):
            raise ValueError(f"mode must be ui or tools, not {self.mode!r}")
        if self.restate_goal and self.mode != "tools":
            raise ValueError("restate_goal is a tool-mode option (the screen's observation text carries the task)")
        from apps import check_family, training_looks
        from gym_core.heldout_variants import training_variant

        training_looks(self.look, self.allow_heldout_look)  # a held-out look is refused here, before anything loads
        if self.variant and self.mode == "tools":
            raise ValueError("a variant changes the screen: tool-mode rollouts have none (drop --variant)")
        training_variant(self.variant, self.allow_heldout_variant)  # and a held-out variant value
        check_family(self.family)  # and a family no app offers (ValueError naming the families)
        return replace(
            self,
            result_text_tokens=self.result_text_tokens or (1024 if self.mode == "tools" else 96),
            max_pixels=self.max_pixels or p.max_pixels,
            max_turns=self.max_turns or p.max_turns,
            reply_tokens=self.reply_tokens or p.reply_tokens,
            learning_rate=self.learning_rate or (p.lora_learning_rate if self.lora else p.learning_rate),
            num_generations=self.num_generations or p.num_generations,
            per_device_batch_size=self.per_device_batch_size or p.per_device_batch_size,
            vllm_gpu_memory_utilization=self.vllm_gpu_memory_utilization or p.vllm_gpu_memory_utilization,
        )

    def lora_config(self):
        if not self.lora:
            return None
        try:
            from peft import LoraConfig
        except ImportError:
            raise ImportError("--lora needs peft: pip install -e '.[train]'") from None
        p = preset(self.preset) or PRESETS["qwen2.5-vl-3b"]
        return LoraConfig(r=p.lora_r, lora_alpha=p.lora_alpha, target_modules=list(p.lora_target_modules),
                          lora_dropout=0.0, task_type="CAUSAL_LM")

    def grpo_config(self, completion_tokens: int, model_len: int):
        """TRL's GRPOConfig; `completion_tokens`/`model_len` come from the checked token budget."""
        from trl import GRPOConfig

        use_vllm = self.generation != "hf"
        # Each reply is cut at reply_tokens (the budget counts on it): max new tokens per turn.
        per_turn = {"max_tokens": self.reply_tokens} if use_vllm else {"max_new_tokens": self.reply_tokens}
        kw: dict[str, Any] = dict(
            output_dir=str(self.out), max_steps=self.max_steps, learning_rate=self.learning_rate,
            per_device_train_batch_size=self.per_device_batch_size, num_generations=self.num_generations,
            gradient_accumulation_steps=self.gradient_accumulation_steps, num_iterations=self.num_iterations,
            max_completion_length=self.max_completion_length or completion_tokens,
            max_tool_calling_iterations=self.max_turns, generation_kwargs=per_turn,
            temperature=self.temperature, beta=self.beta, loss_type=self.loss_type, bf16=self.bf16,
            gradient_checkpointing=self.gradient_checkpointing, seed=self.seed, logging_steps=self.logging_steps,
            save_strategy="steps" if (self.save_steps or self.eval_every) else "no", report_to=self.report_to,
            log_completions=self.log_completions, dataloader_num_workers=0, remove_unused_columns=False,
            # `success` (metrics only), the optional shaping reward; TRL adds the env's get_reward with weight 1
            reward_weights=[0.0] + ([self.format_reward] if self.format_reward else []),
            use_vllm=use_vllm,
        )
        if self.steps_per_generation:
            kw["steps_per_generation"] = self.steps_per_generation
        if self.save_steps or self.eval_every:
            kw["save_steps"] = self.eval_every or self.save_steps
        if use_vllm:
            kw["vllm_mode"] = "server" if self.generation == "vllm-server" else "colocate"
            if self.generation == "vllm-server" and self.vllm_server_url:
                kw["vllm_server_base_url"] = self.vllm_server_url
            if self.generation == "vllm-colocate":
                kw["vllm_gpu_memory_utilization"] = self.vllm_gpu_memory_utilization
                kw["vllm_tensor_parallel_size"] = self.vllm_tensor_parallel_size
                kw["vllm_max_model_length"] = model_len
        kw.update(self.extra)
        return GRPOConfig(**kw)


def describe(cfg: Any) -> dict:
    """A JSON-able view of a config (for logs and the run's config.json)."""
    out = {}
    for f in fields(cfg):
        v = getattr(cfg, f.name)
        if hasattr(v, "__dataclass_fields__"):
            v = describe(v)
        elif isinstance(v, Path):
            v = str(v)
        elif isinstance(v, tuple):
            v = list(v)
        out[f.name] = v
    return out
