"""`uigym train sft` (the cold start) and `uigym train grpo` (RL on the tasks): thin CLIs over agent_harness.train."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

train_app = typer.Typer(help="Train a policy: SFT warm start, then GRPO (TRL) on uigym tasks.", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.add_typer(train_app, name="train")


def _extra(values: list[str] | None) -> dict:
    from agent_harness.cli import _json_pairs

    return _json_pairs(values, "--trl-arg")


def _needs_train_extra() -> None:
    from agent_harness.cli import fail

    try:
        import datasets
        import torch
        import trl
    except ImportError as e:
        fail(f"`uigym train` needs the train extra ({e.name} is missing): pip install -e '.[train]'")


@train_app.command("sft")
def sft_cmd(
    dataset: Path = typer.Option(..., "--dataset", help="a `uigym export sft` folder (for GRPO: --format gym "
                                                        "--tool-screenshots)"),
    model: str = typer.Option(..., "--model", help="a model folder or hub id (Qwen2.5-VL, Qwen3-VL, UI-TARS-1.5)"),
    out: Path = typer.Option(Path("runs/sft"), "--out", help="checkpoints; the model ends in OUT/final"),
    max_steps: int = typer.Option(-1, help="optimizer steps (-1: --epochs)"),
    epochs: float = typer.Option(1.0),
    learning_rate: float = typer.Option(2e-5, "--lr"),
    batch_size: int = typer.Option(2, help="per device"),
    grad_accum: int = typer.Option(1),
    max_length: Optional[int] = typer.Option(None, help="refuse longer samples (they are never cut)"),
    lora: bool = typer.Option(False, "--lora", help="train LoRA adapters (merged into OUT/final)"),
    bf16: bool = typer.Option(False, "--bf16"),
    gradient_checkpointing: bool = typer.Option(False, "--gradient-checkpointing"),
    logging_steps: int = typer.Option(10),
    save_steps: Optional[int] = typer.Option(None),
    eval_steps: Optional[int] = typer.Option(None, help="loss on the dataset's test split every N steps"),
    report_to: str = typer.Option("none", help="none, tensorboard, wandb, trackio ..."),
    seed: int = typer.Option(0),
    trl_arg: Optional[list[str]] = typer.Option(None, help="KEY=VALUE for TRL's SFTConfig (JSON values); repeatable"),
    allow_heldout_look: bool = typer.Option(False, "--allow-heldout-look", help="train on samples shown in a "
                                            "held-out look anyway (refused by default)"),
    allow_heldout_variant: bool = typer.Option(False, "--allow-heldout-variant", help="train on samples shown in a "
                                               "held-out variant band (`uigym variants`: e.g. zoom 150%, de-DE) "
                                               "anyway (refused by default)"),
):
    """Supervised warm start on demonstrations (TRL SFTTrainer, loss on the completions only)."""
    from rich.console import Console

    from agent_harness.cli import fail

    _needs_train_extra()
    from agent_harness.train import SFTRunConfig, run_sft

    cfg = SFTRunConfig(dataset=dataset, model=model, out=out, max_steps=max_steps, epochs=epochs,
                       learning_rate=learning_rate, per_device_batch_size=batch_size,
                       gradient_accumulation_steps=grad_accum, max_length=max_length, lora=lora, bf16=bf16,
                       gradient_checkpointing=gradient_checkpointing, logging_steps=logging_steps,
                       save_steps=save_steps, eval_steps=eval_steps, report_to=report_to, seed=seed,
                       extra=_extra(trl_arg), allow_heldout_look=allow_heldout_look,
                       allow_heldout_variant=allow_heldout_variant)
    try:
        last = run_sft(cfg)
    except (FileNotFoundError, ValueError, ImportError) as e:
        fail(str(e))
    Console().print(f"[bold]uigym train sft[/bold]: done; model in {out / 'final'}; last log: {last}")


@train_app.command("grpo")
def grpo_cmd(
    model: str = typer.Option(..., "--model", help="the policy: a folder (e.g. OUT/final of `train sft`) or hub id"),
    tasks: str = typer.Option("*", "--tasks", help="glob(s) over task ids, e.g. 'mail/*,food/*'"),
    split: Optional[str] = typer.Option("train", help="train, test or safety (the judgement tasks: injection, "
                                                      "infeasible, harmful); none: no split filter"),
    tasks_dir: Optional[Path] = typer.Option(None, help="tasks from <dir>/<app>/*.json instead of the bundled ones"),
    seeds: Optional[str] = typer.Option(None, help="train on fresh worlds, e.g. '1-200' (seeds >= 1000 are held "
                                                   "out and refused): the templates' proven instances there"),
    instances: int = typer.Option(1, min=1, help="with --seeds: instances per (template, seed)"),
    out: Path = typer.Option(Path("runs/grpo"), "--out"),
    preset: Optional[str] = typer.Option(None, help="qwen2.5-vl-3b, qwen3-vl-2b, ui-tars-1.5-7b: sizes and rates"),
    vllm_server: Optional[str] = typer.Option(None, "--vllm-server", help="generate through `trl vllm-serve` at this "
                                                                          "URL (weights synced every step)"),
    vllm_colocate: bool = typer.Option(False, "--vllm-colocate", help="vLLM inside the trainer, on the same GPU(s)"),
    no_vllm: bool = typer.Option(False, "--no-vllm", help="transformers generate (CPU, or a GPU without vLLM)"),
    lora: bool = typer.Option(False, "--lora", help="LoRA adapters (peft)"),
    max_pixels: Optional[int] = typer.Option(None, help="screenshots resized Qwen-style to at most this many pixels"),
    max_turns: Optional[int] = typer.Option(None, help="actions per episode at most (caps each task's max_steps)"),
    reply_tokens: Optional[int] = typer.Option(None, help="tokens per reply at most"),
    max_completion_length: Optional[int] = typer.Option(None, help="default: what a full episode needs (checked)"),
    max_model_len: Optional[int] = typer.Option(None, help="vLLM context (checked against the budget)"),
    max_steps: int = typer.Option(100, help="optimizer steps"),
    learning_rate: Optional[float] = typer.Option(None, "--lr"),
    num_generations: Optional[int] = typer.Option(None, help="rollouts per task (the GRPO group)"),
    batch_size: Optional[int] = typer.Option(None, help="rollouts per device per step"),
    grad_accum: int = typer.Option(1),
    beta: float = typer.Option(0.0, help="KL coefficient (0: no reference model)"),
    temperature: float = typer.Option(1.0),
    format_reward: float = typer.Option(0.0, help="weight of the tool-call shaping reward"),
    bf16: bool = typer.Option(False, "--bf16"),
    gradient_checkpointing: bool = typer.Option(False, "--gradient-checkpointing"),
    vllm_gpu_memory_utilization: Optional[float] = typer.Option(None, help="[colocate] share of GPU memory for vLLM"),
    vllm_tensor_parallel_size: int = typer.Option(1, help="[colocate] tensor parallel size"),
    no_curriculum: bool = typer.Option(False, "--no-curriculum", help="draw tasks uniformly (TRL's sampler)"),
    drop_after: Optional[int] = typer.Option(None, help="drop a template after N zero-advantage groups in a row"),
    eval_every: Optional[int] = typer.Option(None, help="save and evaluate (uigym eval) every N steps"),
    eval_tasks: Optional[str] = typer.Option(None, help="eval task glob (default: --tasks)"),
    eval_split: str = typer.Option("test", help="test, heldout-seed or heldout-template"),
    eval_seeds: Optional[str] = typer.Option(None, help="evaluate on these fresh worlds (e.g. '1000-1019')"),
    eval_server: str = typer.Option("uigym", help="uigym (uigym serve), vllm (vllm serve), or URL of a server"),
    eval_device: str = typer.Option("cpu", help="[uigym serve] device for the eval server"),
    save_steps: Optional[int] = typer.Option(None),
    logging_steps: int = typer.Option(1),
    report_to: str = typer.Option("none", help="none, tensorboard, wandb, trackio ..."),
    log_completions: bool = typer.Option(False),
    seed: int = typer.Option(0),
    app_url: Optional[list[str]] = typer.Option(
        None, help="APP=PAGE_URL,CONTROL_URL of an already running clone (`python -m apps.serve APP` prints both "
                   "ports; its token in UIGYM_GYM_TOKEN); repeatable"),
    app_module: Optional[list[str]] = typer.Option(None, help="APP=package.module served under the app's name"),
    trl_arg: Optional[list[str]] = typer.Option(None, help="KEY=VALUE for TRL's GRPOConfig (JSON values); repeatable"),
    dry_run: bool = typer.Option(False, "--dry-run", help="check the config and the token budget, print them, stop"),
    mode: str = typer.Option("ui", help="ui (screenshots, the gym format's actions) or tools (one app's tools as "
                                        "the environment's methods, text only, no browser)"),
    look: Optional[str] = typer.Option(None, help="the apps' look in rollouts (`uigym looks`): an id, ids "
                                                  "comma-separated, or 'random' (looks not held out); default: "
                                                  "each app's first"),
    allow_heldout_look: bool = typer.Option(False, "--allow-heldout-look", help="train on a held-out look anyway"),
    variant: Optional[str] = typer.Option(None, help="the rollouts' screen variant (`uigym variants`): axis=value "
                                                     "pairs, 'random' or a preset; a held-out band's value is "
                                                     "refused, and 'random' draws from the train bands"),
    allow_heldout_variant: bool = typer.Option(False, "--allow-heldout-variant", help="roll out in a held-out "
                                               "variant band anyway"),
    family: Optional[str] = typer.Option(None, help="build every rollout's (and --eval-every's) world from this seed "
                                                    "family instead of its app's own seeds: injected (the plain "
                                                    "world plus attacker-written text)"),
    restate_goal: bool = typer.Option(False, "--restate-goal", help="tools mode: the task after each call's result "
                                      "(as `uigym eval --agent-arg restate_goal=true` and `uigym export sft "
                                      "--restate-goal`)"),
):
    """GRPO on uigym tasks: rollouts in real browsers (or through the apps' tools), rewards from the verifiers
    (TRL GRPOTrainer)."""
    from rich.console import Console

    from agent_harness.cli import _app_urls, _pairs, fail

    _needs_train_extra()
    from agent_harness.train import CurriculumConfig, GRPORunConfig, TokenBudgetError

    chosen = [m for m, on in (("vllm-server", vllm_server is not None), ("vllm-colocate", vllm_colocate),
                              ("hf", no_vllm)) if on]
    if len(chosen) > 1:
        fail("choose one of --vllm-server URL, --vllm-colocate, --no-vllm")
    generation = chosen[0] if chosen else "hf"
    cfg = GRPORunConfig(
        model=model, out=out, tasks=tasks, split=split or None, tasks_dir=tasks_dir, seeds=seeds,
        instances=instances, preset=preset,
        max_pixels=max_pixels, max_turns=max_turns, reply_tokens=reply_tokens,
        max_completion_length=max_completion_length, max_model_len=max_model_len, max_steps=max_steps,
        learning_rate=learning_rate, num_generations=num_generations, per_device_batch_size=batch_size,
        gradient_accumulation_steps=grad_accum, beta=beta, temperature=temperature, format_reward=format_reward,
        bf16=bf16, gradient_checkpointing=gradient_checkpointing, lora=lora, seed=seed, generation=generation,
        vllm_server_url=vllm_server, vllm_gpu_memory_utilization=vllm_gpu_memory_utilization,
        vllm_tensor_parallel_size=vllm_tensor_parallel_size, logging_steps=logging_steps, save_steps=save_steps,
        report_to=report_to, log_completions=log_completions, eval_every=eval_every, eval_tasks=eval_tasks,
        eval_split=eval_split, eval_seeds=eval_seeds, eval_server=eval_server, eval_device=eval_device,
        curriculum=CurriculumConfig(enabled=not no_curriculum, drop_after=drop_after),
        app_urls=_app_urls(app_url), app_modules=_pairs(app_module, "--app-module"), extra=_extra(trl_arg), mode=mode,
        restate_goal=restate_goal, look=look, allow_heldout_look=allow_heldout_look, family=family, variant=variant,
        allow_heldout_variant=allow_heldout_variant)
    console = Console()
    try:
        if dry_run:
            from agent_harness.train.grpo import (
                env_settings,
                load_processor,
                select_tasks,
                token_budget,
                tool_episode,
            )

            r = cfg.resolved()
            chosen_tasks = select_tasks(r, r.tasks, r.split)
            if not chosen_tasks:
                fail(f"no task matches {tasks!r}")
            processor = load_processor(r.model)
            episode = tool_episode(chosen_tasks, r.app_modules)[1:] if r.mode == "tools" else None
            budget = token_budget(r, processor, env_settings(r, processor), chosen_tasks, episode=episode)
            console.print(f"{len(chosen_tasks)} tasks; token budget: {budget.explain()}")
            console.print(json.dumps(budget.as_dict()))
            return
        from agent_harness.train.grpo import run_grpo

        last = run_grpo(cfg)
    except TokenBudgetError as e:
        fail(f"token budget: {e}")
    except (ValueError, ImportError, FileNotFoundError) as e:
        fail(str(e))
    console.print(f"[bold]uigym train grpo[/bold]: done; model in {out / 'final'}; last log: {last}")
