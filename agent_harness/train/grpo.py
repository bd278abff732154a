"""GRPO on uigym tasks with TRL's GRPOTrainer and `environment_factory` (multi-turn, screenshots as tool results).

    from agent_harness.train import GRPORunConfig, run_grpo
    run_grpo(GRPORunConfig(model="runs/sft/final", out=Path("runs/grpo"), tasks="mail/*", preset="qwen2.5-vl-3b"))

What this file adds to TRL, and nothing more:
- the processor's chat template set to TRL's `qwen3_vl` one (TRL must recognise the template to parse tool
  calls, and this one renders images inside tool results; it works for Qwen2.5-VL, UI-TARS and Qwen3-VL);
- the tool list the prompts show and calls are parsed with: the one `export sft` and `uigym eval` show
  (`use_tool_schemas`), not TRL's rendering of the environment's methods;
- the token budget (agent_harness.train.budget) measured and checked before anything runs;
- the dataset: one row per task (system prompt and the task as JSON; `UIGymToolEnv.reset` opens it);
- a curriculum sampler in place of TRL's RepeatSampler (agent_harness.train.curriculum);
- `success`, a zero-weight reward function that logs the episode metrics (success by app and difficulty,
  tool-call rate, parse and tool errors, episode length, tool results dropped for length) and feeds the
  curriculum; the reward itself is the environment's `get_reward` (the verifier's score);
- periodic evaluation of saved checkpoints with `uigym eval` (agent_harness.train.evaluate).
Generation is TRL's: transformers `generate` on CPU/GPU, or vLLM (`trl vllm-serve`, weights synced every
step; or colocated). Multi-GPU and multi-node runs are TRL's too: `accelerate launch` with its configs.
"""

from __future__ import annotations

import json
import logging
import os
from functools import partial
from pathlib import Path
from typing import Any, Callable

from apps import training_looks
from gym_core.heldout_variants import training_variant
from agent_harness.train.budget import (
    TokenBudget,
    image_factor,
    measure,
    measure_text,
    processor_pixels,
)
from agent_harness.train.config import GRPORunConfig, describe
from agent_harness.train.curriculum import Curriculum, CurriculumSampler, chunks_needed
from agent_harness.train.env import EnvSettings, UIGymToolEnv, close_runtimes

log = logging.getLogger("uigym.train")

TRL_VERSION = "1.16.0"


def check_trl() -> None:
    import trl

    if trl.__version__ != TRL_VERSION:
        raise ImportError(f"uigym's trainers are built on TRL {TRL_VERSION} (environment_factory, tool-call parsing, "
                          f"multimodal tool results); found {trl.__version__}. pip install -e '.[train]'")


def load_processor(model: str):
    """The model's processor, left padding, with TRL's qwen3_vl chat template (see the module doc)."""
    from transformers import AutoProcessor
    from trl.chat_template_utils import qwen3_vl_chat_template

    processor = AutoProcessor.from_pretrained(model, padding_side="left")
    processor.chat_template = qwen3_vl_chat_template
    processor.tokenizer.chat_template = qwen3_vl_chat_template
    return processor


def load_model(model: str, bf16: bool = False):
    import torch
    from transformers import AutoModelForImageTextToText

    return AutoModelForImageTextToText.from_pretrained(model, dtype=torch.bfloat16 if bf16 else torch.float32)


def select_tasks(cfg: GRPORunConfig, pattern: str | None = None, split: str | None = None):
    """The training tasks: bundled ones (or --tasks-dir's), or with `cfg.seeds` the proven instances of the
    matching templates on those fresh worlds (held-out seeds are refused, held-out templates left out)."""
    from tasks import load_tasks
    from tasks import select_tasks as _select

    if cfg.seeds:
        return fresh_training_tasks(pattern or cfg.tasks, cfg.seeds, cfg.instances, split, mode=cfg.mode)
    pool = load_tasks(cfg.tasks_dir) if cfg.tasks_dir else None
    return _select(pattern or cfg.tasks, split=split, tasks=pool)


def fresh_training_tasks(pattern: str, seeds: str, instances: int = 1, split: str | None = "train",
                         validate: bool = True, mode: str = "ui"):
    """Proven fresh-world tasks for training; unproven ones are proven first (in a private runtime), in the
    proof the training `mode` needs (tools: the tools env, never a browser; ui/hybrid: browsers)."""
    import asyncio

    from agent_harness.fresh import supply
    from gym_core.runtime import Runtime

    async def main():
        rt = Runtime()
        try:
            return await supply(pattern, seeds, instances=instances, split=split or "train", runtime=rt,
                                validate=validate, mode=mode)
        finally:
            await rt.close()

    result = asyncio.run(main())
    if result.failed:
        log.warning("%d fresh instances not served (failed or unproven): %s", len(result.failed),
                    ", ".join(list(result.failed)[:5]))
    return result.served


def env_settings(cfg: GRPORunConfig, processor) -> EnvSettings:
    tok = processor.tokenizer
    lo, _ = processor_pixels(processor)
    return EnvSettings(max_pixels=cfg.max_pixels, min_pixels=lo, factor=image_factor(processor),
                       viewport=tuple(cfg.viewport), max_steps=cfg.max_turns,
                       result_text_tokens=cfg.result_text_tokens, restate_goal=cfg.restate_goal,
                       count_tokens=lambda s: len(tok(s, add_special_tokens=False)["input_ids"]),
                       app_urls=dict(cfg.app_urls), app_modules=dict(cfg.app_modules),
                       look=training_looks(cfg.look, cfg.allow_heldout_look), family=cfg.family,
                       variant=training_variant(cfg.variant, cfg.allow_heldout_variant))


def screen_system_prompt(settings: EnvSettings, task: Any) -> str:
    """The system prompt of a screen rollout of `task` (the gym format's, as `uigym eval --format gym` sends it): a
    workspace task's tells how to switch its tabs and to wait for answers (EnvSettings.format_context)."""
    from agent_harness.formats import get_format

    return get_format("gym").system_prompt(settings.format_context(task))


def task_rows(tasks, system_prompt: str | Callable[[Any], str]) -> list[dict]:
    """One dataset row per task: the prompt (system message, the same for every task or the task's own; the env adds
    the task and first screenshot)."""
    system_of = system_prompt if callable(system_prompt) else (lambda _t: system_prompt)
    return [{"prompt": [{"role": "system", "content": system_of(t)}, {"role": "user", "content": ""}],
             "task": t.model_dump_json(), "task_id": t.id, "app": t.app, "difficulty": t.difficulty,
             "template": t.template or t.id} for t in tasks]


def token_budget(cfg: GRPORunConfig, processor, settings: EnvSettings, tasks, episode=None) -> TokenBudget:
    """Measure and check the budget of a full episode (raises TokenBudgetError with the numbers).
    `episode`: tool mode's (system prompt, tools) (see `tool_episode`); None: the screen's."""
    from agent_harness.agents.model import observation_text
    from agent_harness.formats import get_format

    turns = max(min(t.max_steps, cfg.max_turns) for t in tasks)
    if episode is not None:
        from agent_harness.agents.tool_model import tool_result_message

        system, tools = episode
        restated = 0  # the task after each result (restate_goal) comes on top of the result's own budget
        if cfg.restate_goal:
            restated = max(settings.count_tokens(tool_result_message("", t.goal)) for t in tasks)
        budget = measure_text(processor, turns=turns, reply_tokens=cfg.reply_tokens,
                              result_text_tokens=cfg.result_text_tokens + restated, system_prompt=system, tools=tools,
                              task_texts=[t.goal for t in tasks])
    else:
        from tasks.schema import WORKSPACE

        fmt = get_format("gym")
        # the longest prompt: a workspace task's, where the tabs are in it
        ctx = settings.format_context(next((t for t in tasks if t.app == WORKSPACE), None))
        texts = [observation_text({"url": t.start_path, "step": 0}, goal=t.goal) for t in tasks]
        budget = measure(processor, screen=tuple(cfg.viewport), image_size=settings.image_size,
                         max_pixels=cfg.max_pixels, turns=turns, reply_tokens=cfg.reply_tokens,
                         result_text_tokens=cfg.result_text_tokens, system_prompt=fmt.system_prompt(ctx),
                         tools=fmt.tools(ctx), task_texts=texts)
    budget.check(cfg.max_completion_length)
    if cfg.max_model_len is not None:
        budget.check(max_model_len=cfg.max_model_len, what_model_len="max_model_len")
    return budget


MALFORMED_SHOWN = 5


class EpisodeMetrics:
    """A reward function of weight 0 that logs what happened in each rollout and feeds the curriculum.

    Returns 1.0 for a passed episode (reward 1), else 0.0 (logged by TRL as rewards/success/mean)."""

    __name__ = "success"

    def __init__(self, curriculum: Curriculum | None = None, num_generations: int = 1):
        self.curriculum = curriculum
        self.num_generations = num_generations
        self.dropped_warned = False
        self.malformed_shown = 0  # the first few replies TRL could not read as calls go to the log, as written

    def __call__(self, prompts, completions, environments=None, log_metric=None, **kw) -> list[float]:
        from accelerate.utils import gather_object

        log_metric = log_metric or (lambda name, value: None)
        out, results = [], []
        for env, completion in zip(environments or [], completions):
            reward = env.get_reward()
            ep = env.episode
            if reward is None:  # ungraded (a judge gave no verdict): no reward at all, so TRL drops the rollout
                out.append(None)
                results.append((ep.template, None, False))
                log_metric("uigym/ungraded", 1.0)
                continue
            log_metric("uigym/ungraded", 0.0)
            ok = reward >= 1.0
            out.append(1.0 if ok else 0.0)
            results.append((ep.template, float(reward), ok))
            replies = [m for m in completion if m.get("role") == "assistant"]
            with_calls = [m for m in replies if m.get("tool_calls")]
            malformed = [m for m in replies if not m.get("tool_calls") and "<tool_call>" in str(m.get("content"))]
            shown = sum(1 for m in completion if m.get("role") == "tool")
            failed = sum(1 for m in completion if m.get("role") == "tool" and str(m.get("content")).startswith("{'error'"))
            dropped = max(0, ep.tool_calls - shown)
            for name, value in (
                ("uigym/success", float(ok)), (f"uigym/success/app/{ep.app}", float(ok)),
                (f"uigym/success/difficulty/{ep.difficulty}", float(ok)), ("uigym/reward", float(reward)),
                ("uigym/episode_steps", float(ep.steps)), ("uigym/done_rate", float(ep.done_called)),
                ("uigym/tool_call_rate", len(with_calls) / max(1, len(replies))),
                ("uigym/tool_calls", float(ep.tool_calls)), ("uigym/parse_errors", float(len(malformed))),
                ("uigym/tool_errors", float(ep.tool_errors + failed)), ("uigym/action_errors", float(ep.action_errors)),
                ("uigym/dropped_tool_results", float(dropped)),
            ):
                log_metric(name, value)
            for m in malformed[:max(0, MALFORMED_SHOWN - self.malformed_shown)]:
                self.malformed_shown += 1
                log.warning("%s: a reply with a <tool_call> that TRL's parser could not read (counted in "
                            "uigym/parse_errors; the rollout ends there): %r", ep.task_id, str(m.get("content"))[:400])
            if dropped and not self.dropped_warned:
                self.dropped_warned = True
                log.warning("%s: %d tool result(s) did not fit in max_completion_length and were dropped by TRL; "
                            "raise max_completion_length or lower max_pixels/max_turns/reply_tokens", ep.task_id, dropped)
        if self.curriculum is not None:
            everything = gather_object(results)
            self.curriculum.update(everything, self.num_generations)
            for name, value in self.curriculum.metrics().items():
                log_metric(name, value)
        return out


class ToolCallShaping:
    """An optional shaping reward (weight `GRPORunConfig.format_reward`), in 0..1: half for the share of the
    episode's replies that hold a well-formed tool call, half for the share whose call the environment could
    use. Early in training, when every rollout of a group fails the task, it still tells well-formed rollouts
    from broken ones, so the group has an advantage to learn from."""

    __name__ = "tool_format"

    def __call__(self, prompts, completions, environments=None, **kw) -> list[float]:
        out = []
        for env, completion in zip(environments or [], completions):
            if env.get_reward() is None:  # ungraded: every reward function says None, so TRL drops it
                out.append(None)
                continue
            ep = env.episode
            replies = [m for m in completion if m.get("role") == "assistant"]
            formed = sum(1 for m in replies if m.get("tool_calls"))
            usable = max(0, ep.tool_calls - ep.tool_errors - ep.calls_after_end)
            n = max(1, len(replies))
            out.append(0.5 * formed / n + 0.5 * min(usable, n) / n)
        return out


def use_tool_schemas(trainer, schemas: list[dict]) -> None:
    """Make `schemas` the tool list of every prompt the trainer renders and every reply it parses.

    With `environment_factory`, TRL 1.16 renders each rollout's prompt (and types the arguments of the calls it
    parses) with `trainer._env_tools[environment]`, the environment's methods, which transformers turns into a
    tool list of its own (alphabetical, written from the docstrings, no additionalProperties); `trainer.tools`
    only says whether there are tools. A model warm-started on `uigym export sft` rows, whose prompts show the
    app's list as `uigym eval --mode tools` sends it, then meets a prompt it was never taught in every rollout.
    So both are set to `schemas`, after checking that they name exactly the environment's methods."""
    listed = sorted(t["function"]["name"] for t in schemas)
    env_tools = getattr(trainer, "_env_tools", None)
    if not env_tools:
        raise ValueError("tool schemas are for a trainer with an environment_factory (tool mode)")
    for name, tools in env_tools.items():
        methods = sorted(getattr(t, "__name__", None) or t["function"]["name"] for t in tools)
        if methods != listed:
            raise ValueError(f"the tool list {listed} does not match the environment's methods {methods}")
    trainer._env_tools = {name: list(schemas) for name in env_tools}
    trainer.tools = list(schemas)


def make_trainer_class():
    from trl import GRPOTrainer

    class UIGymGRPOTrainer(GRPOTrainer):
        """TRL's GRPOTrainer, drawing its prompts through the curriculum. The prompts show `tool_schemas`, the
        tool list `uigym eval` and `export sft` show (tool mode: the app's OpenAI list; screen mode: the gym
        format's), and replies are parsed with it (see `use_tool_schemas`). The methods still run the calls
        (TRL looks them up on each environment)."""

        curriculum: Curriculum | None = None
        tool_schemas: list[dict] | None = None

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            if self.tool_schemas is not None:
                use_tool_schemas(self, self.tool_schemas)

        def _get_train_sampler(self, dataset=None):
            if self.curriculum is None or not self.curriculum.cfg.enabled:
                return super()._get_train_sampler(dataset)
            args = self.args
            return CurriculumSampler(
                self.curriculum, mini_repeat_count=self.num_generations,
                batch_size=args.generation_batch_size // self.num_generations,
                repeat_count=self.num_iterations * args.steps_per_generation,
                num_chunks=chunks_needed(args.max_steps, args.gradient_accumulation_steps, args.steps_per_generation,
                                         self.num_iterations),
                seed=args.seed, progress=lambda: self.state.global_step / max(1, args.max_steps))

    return UIGymGRPOTrainer


def tool_episode(tasks, app_modules: dict[str, str] | None = None) -> tuple[type, str, list[dict]]:
    """Tool mode: the environment class of the tasks' one app, its system prompt and its OpenAI tool list
    (the list UIGymGRPOTrainer shows the model; the class's methods run the calls)."""
    from agent_harness.agents.tool_model import system_for
    from agent_harness.train.tool_env import app_tools, tool_env_class
    from gym_core.world_env import DONE_TOOL

    apps = sorted({t.app for t in tasks})
    if len(apps) != 1:
        raise ValueError(f"tool-mode GRPO trains on one app's tools at a time; these tasks are of {', '.join(apps)} "
                         "(narrow --tasks, e.g. 'mail/*')")
    missing = [t.id for t in tasks if t.tools is None or not t.tools.solution]
    if missing:
        raise ValueError(f"{len(missing)} task(s) cannot be done through tools (no tool solution), e.g. {missing[0]}")
    listed = app_tools(apps[0], (app_modules or {}).get(apps[0]))
    tools = [{"type": "function", "function": {"name": t["name"], "description": t["description"],
                                               "parameters": t["input_schema"]}} for t in listed] + [DONE_TOOL]
    return tool_env_class(apps[0], listed), system_for(apps[0]), tools


def build_grpo(cfg: GRPORunConfig, model=None, processor=None, callbacks: list | None = None):
    """Everything up to `trainer.train()`: returns (trainer, budget). `model`/`processor` may be given."""
    check_trl()
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    from datasets import Dataset

    from agent_harness.formats import get_format

    cfg = cfg.resolved()
    tasks = select_tasks(cfg, cfg.tasks, cfg.split)
    if not tasks:
        raise ValueError(f"no task matches {cfg.tasks!r}" + (f" in split {cfg.split!r}" if cfg.split else ""))
    processor = processor or load_processor(cfg.model)
    settings = env_settings(cfg, processor)
    if cfg.mode == "tools":
        env_class, system, tools = tool_episode(tasks, cfg.app_modules)
        budget = token_budget(cfg, processor, settings, tasks, episode=(system, tools))
        make_env = lambda: env_class(settings)  # noqa: E731
    else:
        fmt, ctx = get_format("gym"), settings.format_context()
        tools = fmt.tools(ctx)  # the list `export sft --format gym` and `uigym eval --format gym` show, in its order
        budget = token_budget(cfg, processor, settings, tasks)
        system = partial(screen_system_prompt, settings)
        make_env = lambda: UIGymToolEnv(settings)  # noqa: E731
    model_len = cfg.max_model_len or budget.total_tokens
    args = cfg.grpo_config(budget.completion_tokens, model_len)

    rows = task_rows(tasks, system)
    dataset = Dataset.from_list(rows)
    curriculum = Curriculum(rows, cfg.curriculum) if cfg.curriculum.enabled else None
    metrics = EpisodeMetrics(curriculum, cfg.num_generations)
    reward_funcs: list = [metrics]
    if cfg.format_reward:
        reward_funcs.append(ToolCallShaping())
    if model is None:
        model = load_model(cfg.model, bf16=cfg.bf16)
    trainer_cls = make_trainer_class()
    trainer_cls.curriculum = curriculum
    trainer_cls.tool_schemas = tools  # what every prompt shows and every reply is parsed with (use_tool_schemas)
    callbacks = list(callbacks or [])
    if cfg.eval_every:
        from agent_harness.train.evaluate import PeriodicEval

        callbacks.append(PeriodicEval(cfg, settings))
    trainer = trainer_cls(
        model=model, reward_funcs=reward_funcs, args=args, train_dataset=dataset, processing_class=processor,
        environment_factory=make_env, peft_config=cfg.lora_config(), callbacks=callbacks,
    )
    for cb in callbacks:
        if hasattr(cb, "trainer"):
            cb.trainer = trainer
    Path(cfg.out).mkdir(parents=True, exist_ok=True)
    (Path(cfg.out) / "uigym_train.json").write_text(json.dumps(
        {"config": describe(cfg), "budget": budget.as_dict(), "tasks": [t.id for t in tasks]}, indent=1, default=str))
    return trainer, budget


def run_grpo(cfg: GRPORunConfig, callbacks: list | None = None) -> dict[str, Any]:
    """Train; the final model (and processor) is saved to OUT/final. Returns the last logged metrics."""
    trainer, budget = build_grpo(cfg, callbacks=callbacks)
    log.info("token budget: %s", budget.explain())
    try:
        trainer.train()
        final = Path(cfg.out) / "final"
        trainer.save_model(str(final))
        trainer.processing_class.save_pretrained(str(final))
    finally:
        close_runtimes()
    return trainer.state.log_history[-1] if trainer.state.log_history else {}
