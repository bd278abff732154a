"""Does the reward teach? A learning curve on a CPU: SFT on oracle plans, then GRPO, judged on unseen worlds.

    python -m experiments.learning --out runs/learning            # the measured recipe (about 56 wall and 84 CPU minutes)
    python -m experiments.learning --out /tmp/l --size tiny       # seconds-to-minutes smoke run (what the test runs)

The stages, each through uigym's own code paths (nothing here trains or grades by itself):
1. worlds: fresh instances of a few tool-mode templates (tasks.fresh.generate) on training seeds and on
   held-out seeds (>= 1000), each proven in tool mode (agent_harness.validate: oracle 1, noop 0,
   near-misses 0, answer hacks 0) and written to a tasks folder per side;
2. oracle: `uigym eval --mode tools --agent oracle` plays the tool plans of the templates' instances on
   `demo_seeds` (OUT/tasks-demo: training seeds, one task per world and goal; no reward, so no proof);
3. sft data: `uigym export sft` of those episodes (tool-call samples, Hermes <tool_call> targets);
4. model: a small Qwen2.5-VL built from a config with a tokenizer trained here (agent_harness.models.tiny),
   also on the demonstrations' texts (`write_corpus`);
5. eval "base": the untrained model, `uigym serve` + `uigym eval --mode tools --agent openai` on the
   held-out tasks, several samples per task, repeated with different sampling seeds (the spread);
6. SFT (agent_harness.train.sft.run_sft), then eval "sft";
7. GRPO (agent_harness.train.grpo.build_grpo: TRL's GRPOTrainer, rollouts through the app's tools, the
   verifier's reward) on the training worlds, the checkpoint evaluated every `eval_every` steps, then
   eval "grpo";
8. integrity: the trained policy's held-out episodes checked (see `integrity_check`), and the report
   (report.json, report.md, curve.png) in OUT/report.

Wall time and CPU time (this process and its children: the model server, `uigym eval`) are measured per
stage. On a GPU the same recipe runs with a real checkpoint: see docs/learning/README.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import shutil
import statistics
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from functools import partial
from pathlib import Path

log = logging.getLogger("uigym.learning")

APP_MODULE = "experiments.learning_food"  # Forkful with a short tool list (see that module for why)
# Module paths a finished run's config may name from before a move: the recipe lived in bench/ until issue #36.
MOVED_MODULES = {"bench.learning_food": APP_MODULE}


@dataclass
class LearnConfig:
    out: Path = Path("runs/learning")
    app: str = "food"
    # easy -> medium: one fixed plan; an address id that the goal's label picks; a setting and a switch
    # direction that the goal's wording picks (get_account first, done last in each)
    templates: tuple[str, ...] = ("food/cancel-plus", "food/switch-address", "food/notification-setting")
    instances: int = 5  # instances per template and seed (a template's instances ask different things)
    train_seeds: str = "1-24"  # GRPO's worlds
    demo_seeds: str = "1-96"  # the oracle demonstrations SFT learns from (training seeds, not proven: no reward)
    heldout_seeds: str = "1000-1003"
    app_module: str | None = APP_MODULE  # None: the app's full tool list (a GPU run)
    # the model (agent_harness.models.tiny parameters): a text model of about 0.5 M parameters whose first two
    # layers see the last 64 tokens only (the last sees everything): trained from scratch on ~1,900-token
    # prompts, a model whose every layer spreads its attention over the whole prompt did not learn to look at
    # the goal at all (runs E-I, J in docs/learning/README.md); local layers find the restated goal beside them
    model: dict = field(default_factory=lambda: {"hidden_size": 96, "num_layers": 3, "num_heads": 4, "num_kv_heads": 2,
                                                     "intermediate_size": 256, "vocab_target": 2000, "seed": 0,
                                                     "local_window": 64})
    base_model: str | None = None  # a real checkpoint instead of the built one (GPU runs)
    tokenizer_from_demos: bool = True  # the built model's tokenizer also learns the demonstrations' texts
    # episodes
    max_turns: int = 3
    reply_tokens: int = 64
    result_text_tokens: int = 2048  # GRPO's tool results whole (get_account's is ~1,500 tokens), as eval shows them
    # the task after each call's result, in the SFT data, in GRPO's rollouts and in eval alike: without it the goal
    # sits ~700 tokens before the change call, and the small model picked that call from the demonstrations'
    # marginal under every goal (runs E-I in docs/learning/README.md)
    restate_goal: bool = True
    # SFT also learns to end the turn after `done` (export's --closing-turn): GRPO's tool loop asks for a reply
    # after the last call and trains on it; never shown one, the SFT model wrote another call there
    closing_turn: bool = True
    # SFT: until the calls are well formed on the demonstrations' worlds
    sft_epochs: float = 1.0
    sft_lr: float = 3e-3
    sft_batch: int = 8
    sft_schedule: str = "cosine"  # transformers' lr_scheduler_type
    # GRPO
    grpo_steps: int = 120  # run N: 60 steps moved one template, 120 two (docs/learning/README.md)
    num_generations: int = 4
    grpo_batch: int = 8  # rollouts per step (a multiple of num_generations)
    grpo_lr: float = 3e-4
    temperature: float = 1.0
    curriculum: bool = True  # agent_harness.train.curriculum: down-weights templates whose groups carry no signal
    eval_every: int = 40
    # evaluation on the held-out worlds
    eval_samples: int = 2
    eval_repeats: int = 2  # sampling seeds per stage: their spread is the noise floor
    eval_temperature: float = 1.0
    eval_workers: int = 2
    threads: int = 2
    validate_workers: int = 2
    generation: str = "hf"  # hf on CPU; vllm-colocate / vllm-server on a GPU
    device: str = "cpu"  # where `uigym serve` runs the evaluated model (cuda on a GPU)
    bf16: bool = False  # a GPU run's SFT and GRPO in bfloat16
    extra_grpo: dict = field(default_factory=dict)
    # a finished run's OUT to start from (see `reuse_run`): with reuse "sft" its proven worlds, SFT model and base
    # and SFT evaluations stand and only GRPO and what follows run; with "demos" its proven worlds and oracle
    # demonstrations stand and everything from the SFT export on runs again (another model, export or SFT)
    from_run: Path | None = None
    reuse: str = "sft"


# What a run reusing another's SFT (`from_run`) may set differently: GRPO's settings and where it runs.
# Everything else (worlds, model, SFT, the evaluation's samples) must match, or the SFT numbers it reuses
# would not be the baseline of the GRPO numbers it adds.
GRPO_ONLY_FIELDS = frozenset({"out", "from_run", "reuse", "grpo_steps", "num_generations", "grpo_batch", "grpo_lr",
                              "temperature", "curriculum", "eval_every", "extra_grpo", "generation", "device", "bf16",
                              "threads", "eval_workers"})
# What must match for a run reusing another's worlds and demonstrations (reuse "demos"): what made them.
WORLD_FIELDS = frozenset({"app", "templates", "instances", "train_seeds", "demo_seeds", "heldout_seeds", "app_module"})
REUSE = {"sft": ("tasks-train", "tasks-heldout", "sft/final"),
         "demos": ("tasks-train", "tasks-heldout", "tasks-demo", "oracle")}


SIZES = {
    # the test's: two templates, 2 training worlds and 1 held-out, two GRPO steps, one eval sample
    "tiny": {"templates": ("food/cancel-plus", "food/notification-setting"), "instances": 1, "train_seeds": "1-2",
             "demo_seeds": "1-2", "heldout_seeds": "1000",
                 "model": {"hidden_size": 32, "num_layers": 2, "num_heads": 2, "num_kv_heads": 1, "intermediate_size": 64,
                            "vocab_target": 1200, "seed": 0, "local_window": 16},
                 "sft_epochs": 1.0, "sft_batch": 4, "grpo_steps": 2, "num_generations": 2, "grpo_batch": 2, "eval_every": 1,
                 "eval_samples": 1, "eval_repeats": 2, "reply_tokens": 48, "result_text_tokens": 128},
    "cpu": {},
}


# ---------------------------------------------------------------------------------------------- helpers

class Clock:
    """Wall and CPU seconds per stage; CPU counts this process and its finished children (server, eval)."""

    def __init__(self):
        self.stages: dict[str, dict] = {}

    @contextmanager
    def stage(self, name: str):
        t, c = time.perf_counter(), self._cpu()
        log.info("== %s", name)
        try:
            yield
        finally:
            self.stages[name] = {"wall_s": round(time.perf_counter() - t, 1), "cpu_s": round(self._cpu() - c, 1)}
            log.info("== %s: %s", name, self.stages[name])

    @staticmethod
    def _cpu() -> float:
        t = os.times()
        return t.user + t.system + t.children_user + t.children_system

    def totals(self) -> dict:
        return {"wall_s": round(sum(s["wall_s"] for s in self.stages.values()), 1),
                "cpu_s": round(sum(s["cpu_s"] for s in self.stages.values()), 1)}


def uigym(*args: str, timeout: float = 7200) -> None:
    """Run a `uigym` command in this interpreter (the worktree's modules), failing loudly."""
    cmd = [sys.executable, "-m", "agent_harness.cli", *args]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(args[:2])} failed ({done.returncode}):\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}")


def app_module_args(cfg: LearnConfig) -> list[str]:
    return ["--app-module", f"{cfg.app}={cfg.app_module}"] if cfg.app_module else []


# ---------------------------------------------------------------------------------------------- stages

def prove_worlds(cfg: LearnConfig, side: str, seeds: str) -> dict:
    """Generate the templates' instances on `seeds`, prove them in tool mode, write the proven ones to
    OUT/tasks-<side>/<app>/<template>.json. Returns counts and the adversarial probes' grades."""
    from agent_harness.validate import validate_tasks
    from gym_core.runtime import Runtime
    from gym_core.server import ServerPool
    from tasks.fresh import HELDOUT_SEED_START, generate, parse_seeds

    seed_list = parse_seeds(seeds)
    if side == "train" and any(s >= HELDOUT_SEED_START for s in seed_list):
        raise ValueError(f"training seeds must be below {HELDOUT_SEED_START}")
    if side == "heldout" and any(s < HELDOUT_SEED_START for s in seed_list):
        raise ValueError(f"held-out seeds must be >= {HELDOUT_SEED_START}")
    tasks = [t for s in seed_list for tmpl in cfg.templates for t in generate(tmpl, s, cfg.instances).tasks]

    async def main():
        modules = {cfg.app: cfg.app_module} if cfg.app_module else {}
        rt = Runtime(servers=ServerPool(modules=modules))
        try:
            return await validate_tasks(tasks, workers=cfg.validate_workers, runtime=rt, mode="tools")
        finally:
            await rt.close()

    results = asyncio.run(main())
    proven = [t for t, r in zip(tasks, results) if r.ok]
    write_tasks(cfg.out / f"tasks-{side}", proven)
    probes = [p for r in results for p in r.probes]
    adversarial = [p for p in probes if p.kind.startswith("adversarial") or p.kind.startswith("near_miss")]
    return {"generated": len(tasks), "proven": len(proven),
            "failed": {r.task_id: r.failures()[:300] for r in results if not r.ok},
            "zero_side_probes": len(adversarial), "zero_side_max_reward": max((p.reward for p in adversarial),
                                                                                default=0.0)}


def write_demo_tasks(cfg: LearnConfig) -> int:
    """OUT/tasks-demo: the templates' instances on `demo_seeds`, the worlds the oracle demonstrates, one task
    per (seed, goal) (instances that ask the same thing in one world teach the same call). Demo seeds are
    training seeds, not necessarily GRPO's: a demonstration earns no reward, so these worlds need no proof
    beyond the oracle passing them (only passing episodes are exported), and many of them are what keeps a
    small model from memorising a few worlds. Returns the count."""
    from tasks.fresh import HELDOUT_SEED_START, generate, parse_seeds

    seeds = parse_seeds(cfg.demo_seeds)
    if any(s >= HELDOUT_SEED_START for s in seeds):
        raise ValueError(f"demo seeds {cfg.demo_seeds} must be training seeds (below {HELDOUT_SEED_START})")
    tasks, seen = [], set()
    for tmpl in cfg.templates:
        for s in seeds:
            for t in generate(tmpl, s, cfg.instances).tasks:
                if (s, t.goal) not in seen:
                    seen.add((s, t.goal))
                    tasks.append(t)
    write_tasks(cfg.out / "tasks-demo", tasks)
    return len(tasks)


def write_tasks(root: Path, tasks: list) -> None:
    """A fresh tasks folder: ROOT/<app>/<template>.json, the tasks of each template in order."""
    if root.exists():
        shutil.rmtree(root)
    by_template: dict[str, list] = {}
    for t in tasks:
        by_template.setdefault(template_of(t.id), []).append(json.loads(t.model_dump_json(exclude_none=True)))
    for tmpl, rows in by_template.items():
        path = root / tmpl.split("/")[0] / f"{tmpl.split('/', 1)[1]}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(rows, indent=1))


def build_model(cfg: LearnConfig) -> str:
    if cfg.base_model:
        return cfg.base_model
    from agent_harness.models.tiny import cached_tiny_qwen25vl

    extra = {"corpus_file": str(write_corpus(cfg))} if cfg.tokenizer_from_demos else {}
    return str(cached_tiny_qwen25vl(cfg.out / "models", **cfg.model, **extra))


def write_corpus(cfg: LearnConfig) -> Path:
    """The demonstrations' texts (tool list, system prompt, goals, tool results, calls), one JSON string a
    line, for the built model's tokenizer: its small vocabulary then covers the prompts it trains on, and
    they come out about 1.6x shorter (3,216 -> 1,988 tokens for a get_account turn). Held-out worlds are
    never read here."""
    from agent_harness.export.chat import chat_messages
    from agent_harness.train.sft import load_dataset_dict

    texts: set[str] = set()
    for row in load_dataset_dict(cfg.out / "sft-data")["train"]:
        texts.add(row["tools"] if isinstance(row["tools"], str) else json.dumps(row["tools"]))
        for m in chat_messages(row, with_images=False):
            texts.update(p.get("text") or "" for p in m["content"])
    path = cfg.out / "models" / "corpus.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(t) + "\n" for t in sorted(texts) if t))
    return path


def n_params(path: str) -> int:
    from agent_harness.train.grpo import load_model

    return sum(p.numel() for p in load_model(path).model.language_model.parameters())


def served(model: str, cfg: LearnConfig):
    """`uigym serve` on the model (transformers on CPU); a context that yields its base URL."""
    from agent_harness.train.evaluate import served_model

    return served_model(lambda port: [sys.executable, "-m", "agent_harness.cli", "serve", "--model", model, "--port",
                                      str(port), "--quiet", "--served-model-name", "policy", "--device", cfg.device],
                        dict(os.environ, OMP_NUM_THREADS=str(cfg.threads)), timeout=600.0)


def evaluate(model: str, cfg: LearnConfig, name: str) -> dict:
    """`uigym eval --mode tools` of `model` on the held-out tasks: eval_samples per task, eval_repeats times
    with different sampling seeds. Returns per-repeat metrics, their mean and spread, and by template."""
    from agent_harness.runner import latest_results, read_results
    from agent_harness.train.evaluate import results_metrics

    repeats, rows_all = [], []
    runs = [cfg.out / "eval" / f"{name}-r{r}" for r in range(cfg.eval_repeats)]
    with served(model, cfg) as url:
        for r, out in enumerate(runs):
            if out.exists():
                shutil.rmtree(out)
            uigym("eval", "--mode", "tools", "--agent", "openai", "--base-url", url, "--model", "policy",
                  "--tasks-dir", str(cfg.out / "tasks-heldout"), "--tasks", f"{cfg.app}/*",
                  "--samples", str(cfg.eval_samples), "--temperature", str(cfg.eval_temperature), "--seed", str(r),
                  "--max-tokens", str(cfg.reply_tokens), "--max-steps", str(cfg.max_turns),
                  "--workers", str(cfg.eval_workers), "--no-report", "--label", name, "--out", str(out),
                  *(["--agent-arg", "restate_goal=true"] if cfg.restate_goal else []), *app_module_args(cfg))
            rows = latest_results(read_results(out))
            rows_all += rows
            repeats.append(results_metrics(rows, prefix=""))
    success = [m.get("success", 0.0) for m in repeats]
    by_template: dict[str, list[bool]] = {}
    for row in rows_all:
        by_template.setdefault(template_of(row["task_id"]), []).append(bool(row.get("passed")))
    return {
        "name": name, "model": model, "repeats": repeats, "episodes": len(rows_all),
        "success_mean": statistics.fmean(success), "success_spread": max(success) - min(success),
        "tool_call_rate": statistics.fmean(m.get("tool_call_rate", 0.0) for m in repeats),
        "tool_errors": statistics.fmean(m.get("tool_errors", 0.0) for m in repeats),
        "by_template": {k: {"success": sum(v) / len(v), "episodes": len(v),
                            "per_repeat": per_repeat(rows_all, k, cfg.eval_repeats)}
                        for k, v in sorted(by_template.items())},
        "runs": [str(run) for run in runs],
        "calls": call_validity(runs),
        "choices": change_choices(runs, cfg.out / "tasks-heldout"),
    }


def call_validity(runs: list[Path]) -> dict:
    """What the policy's replies were, from the episodes' steps: tool calls the app accepted, tool calls it
    refused (an unknown tool, bad arguments), unreadable calls, and replies with no call at all (the tool
    agent ends the episode with the text as the answer). `valid_rate`: accepted calls and `done` calls
    over all replies. (`uigym eval`'s tool_call_rate counts only unreadable calls against a reply.)"""
    from agent_harness.trajectory import Trajectory

    n = ok = refused = unreadable = free_text = done = 0
    for run in runs:
        for path in Path(run).glob("episodes/*/*/trajectory.json"):
            for st in Trajectory.load(path).steps:
                n += 1
                a = st.action if isinstance(st.action, dict) else {}
                if st.parse_error:
                    unreadable += 1
                elif a.get("type") == "tool":
                    ok, refused = ok + (not st.error), refused + bool(st.error)
                elif a.get("type") == "done" and a.get("answer") is not None and a["answer"] == (st.text or "").strip():
                    free_text += 1  # the reply's text became the answer: no call was made
                else:
                    done += 1
    return {"replies": n, "accepted_calls": ok, "refused_calls": refused, "unreadable_calls": unreadable,
            "no_call_replies": free_text, "done_calls": done, "valid_rate": (ok + done) / n if n else 0.0}


def change_choices(runs: list[Path], tasks_dir: Path) -> dict:
    """Does the policy read the goal? Per template, which tool the episode's first call after the gold plan's
    look-ups named (the change: cancel_plus, select_address, set_notification...), counted, and how often it
    was the gold plan's tool (`right_tool`). A policy that picks the change by the world or by habit shows
    the same counts under every template."""
    from agent_harness.trajectory import Trajectory
    from tasks import load_tasks

    gold = {t.id: [c.tool for c in t.tools.solution] for t in load_tasks(tasks_dir)}
    out: dict[str, dict] = {}
    for run in runs:
        for path in Path(run).glob("episodes/*/*/trajectory.json"):
            tr = Trajectory.load(path)
            plan = gold.get(tr.task_id)
            if not plan:
                continue
            k = next((i for i, tool in enumerate(plan) if tool != plan[0]), 0)  # the first call that is not a look-up
            actions = [s.action for s in tr.steps if isinstance(s.action, dict)]
            a = actions[k] if len(actions) > k else {}
            chosen = a.get("name") if a.get("type") == "tool" else (a.get("type") or "nothing")
            row = out.setdefault(template_of(tr.task_id), {"gold": plan[k], "counts": {}, "right_tool": 0.0, "n": 0})
            row["counts"][chosen] = row["counts"].get(chosen, 0) + 1
            row["n"] += 1
    for row in out.values():
        row["right_tool"] = row["counts"].get(row["gold"], 0) / row["n"]
        row["counts"] = dict(sorted(row["counts"].items(), key=lambda kv: -kv[1]))
    return dict(sorted(out.items()))


def goal_selectivity(choices: dict, template: str) -> float | None:
    """`change_choices`' share of the template's change tool in its own episodes, less that tool's mean share
    in the episodes of the templates whose change is another tool (None without such templates)."""
    mine = choices.get(template)
    others = [r for k, r in choices.items() if k != template and r["gold"] != (mine or {}).get("gold")]
    if not mine or not others:
        return None
    elsewhere = statistics.fmean(r["counts"].get(mine["gold"], 0) / r["n"] for r in others)
    return round(mine["right_tool"] - elsewhere, 3)


def template_of(task_id: str) -> str:
    return task_id.split(".s")[0].rsplit("-", 1)[0]


def per_repeat(rows: list[dict], template: str, repeats: int) -> list[float]:
    """A template's pass rate in each repeat (rows come in repeat order, equal counts each)."""
    mine = [bool(r.get("passed")) for r in rows if template_of(r["task_id"]) == template]
    k = len(mine) // repeats if repeats else 0
    return [sum(mine[i * k:(i + 1) * k]) / k for i in range(repeats)] if k else []


def export_sft(cfg: LearnConfig) -> int:
    out = cfg.out / "sft-data"
    uigym("export", "sft", "--runs", str(cfg.out / "oracle"), "--out", str(out), "--only-passed", "--overwrite",
          "--split", "hash", "--test-fraction", "0",  # every sample trains: the held-out worlds are the test
          *(["--restate-goal"] if cfg.restate_goal else []), *(["--closing-turn"] if cfg.closing_turn else []))
    from agent_harness.train.sft import load_dataset_dict

    return len(load_dataset_dict(out)["train"])


def run_sft_stage(cfg: LearnConfig, model: str) -> tuple[str, list[dict]]:
    from agent_harness.train.config import SFTRunConfig
    from agent_harness.train.sft import run_sft

    out = cfg.out / "sft"
    sc = SFTRunConfig(dataset=cfg.out / "sft-data", model=model, out=out, epochs=cfg.sft_epochs,
                      learning_rate=cfg.sft_lr, per_device_batch_size=cfg.sft_batch, logging_steps=1, bf16=cfg.bf16,
                      eval_split=None, extra={"lr_scheduler_type": cfg.sft_schedule, "warmup_steps": 0})
    history: list[dict] = []
    from transformers import TrainerCallback

    class Keep(TrainerCallback):
        def on_log(self, args, state, control, logs=None, **kw):
            history.append(dict(logs or {}, step=state.global_step))

    run_sft(sc, callbacks=[Keep()])
    return str(out / "final"), history


def finished_report(run: Path, what: str = "") -> dict:
    """A finished run's OUT/report/report.json, with the module paths its config names brought to where those
    modules are now (MOVED_MODULES), so a run made before a move is reused and reevaluated as it ran."""
    path = Path(run) / "report" / "report.json"
    if not path.is_file():
        raise SystemExit(f"{what}{path} not found (a finished experiments.learning run's OUT has it)")
    rep = json.loads(path.read_text())
    config = rep.get("config", {})
    if config.get("app_module") in MOVED_MODULES:
        config["app_module"] = MOVED_MODULES[config["app_module"]]
    return rep


def reuse_run(cfg: LearnConfig) -> dict:
    """`from_run`: copy what `reuse` keeps of the finished run into OUT (REUSE) and return its report. With
    "sft" its base and SFT evaluations become this run's, so every setting but GRPO's must match; with "demos"
    the settings that made the worlds and demonstrations must."""
    if cfg.reuse not in REUSE:
        raise SystemExit(f"reuse must be one of {', '.join(REUSE)}, not {cfg.reuse!r}")
    src = Path(cfg.from_run)
    prev = finished_report(src, "from_run: ")
    mine = json.loads(json.dumps(asdict(cfg), default=str))
    if cfg.reuse == "sft":
        differ = sorted(k for k, v in mine.items() if k not in GRPO_ONLY_FIELDS and prev["config"].get(k) != v)
        allowed = "only GRPO's settings may differ"
    else:
        differ = sorted(k for k in WORLD_FIELDS if prev["config"].get(k) != mine[k])
        allowed = "the worlds and demonstrations it reuses were made with these"
    if differ:
        was = ", ".join(f"{k}={prev['config'].get(k)!r}" for k in differ)
        raise SystemExit(f"from_run: {src} was run with other {', '.join(differ)} ({was}); {allowed}")
    if Path(cfg.out).resolve() == src.resolve():
        raise SystemExit("from_run: OUT must be another folder than the run it reuses")
    for d in REUSE[cfg.reuse]:
        shutil.copytree(src / d, cfg.out / d, dirs_exist_ok=True)
    return prev


def run_grpo_stage(cfg: LearnConfig, model: str, curve: list[dict],
                   evals: dict[int, dict] | None = None) -> tuple[str, list[dict]]:
    """GRPO on the training worlds; every eval_every steps the saved checkpoint is evaluated on the
    held-out worlds (appended to `curve`; the whole evaluation kept in `evals` by step)."""
    from transformers import TrainerCallback

    from agent_harness.train.config import CurriculumConfig, GRPORunConfig
    from agent_harness.train.env import close_runtimes
    from agent_harness.train.grpo import build_grpo

    out = cfg.out / "grpo"
    gc = GRPORunConfig(model=model, out=out, tasks=f"{cfg.app}/*", split=None, tasks_dir=cfg.out / "tasks-train",
                       mode="tools", max_turns=cfg.max_turns, reply_tokens=cfg.reply_tokens,
                       result_text_tokens=cfg.result_text_tokens, restate_goal=cfg.restate_goal,
                       max_steps=cfg.grpo_steps,
                       num_generations=cfg.num_generations, per_device_batch_size=cfg.grpo_batch,
                       learning_rate=cfg.grpo_lr, temperature=cfg.temperature, save_steps=cfg.eval_every,
                       generation=cfg.generation, bf16=cfg.bf16, curriculum=CurriculumConfig(enabled=cfg.curriculum),
                       app_modules={cfg.app: cfg.app_module} if cfg.app_module else {},
                       extra={"lr_scheduler_type": "constant", "save_only_model": True, **cfg.extra_grpo})

    class EvalCheckpoints(TrainerCallback):
        def on_save(self, args, state, control, **kw):
            ckpt = out / f"checkpoint-{state.global_step}"
            # the checkpoint holds the model; the processor (chat template) comes from the SFT folder
            for f in Path(model).iterdir():
                if f.name not in {p.name for p in ckpt.iterdir()} and f.is_file():
                    shutil.copy(f, ckpt / f.name)
            ev = evaluate(str(ckpt), cfg, f"grpo-step{state.global_step}")
            if evals is not None:
                evals[state.global_step] = ev
            curve.append(curve_point(f"g{state.global_step}", ev, "grpo", state.global_step))
            path = cfg.out / "report" / "partial-grpo.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(curve, indent=1, default=str))

    trainer, _budget = build_grpo(gc, callbacks=[EvalCheckpoints()])
    try:
        trainer.train()
        final = out / "final"
        trainer.save_model(str(final))
        trainer.processing_class.save_pretrained(str(final))
    finally:
        close_runtimes()
    return str(out / "final"), [h for h in trainer.state.log_history if "reward" in h]


def summary(ev: dict) -> dict:
    return {k: ev[k] for k in ("success_mean", "success_spread", "tool_call_rate", "tool_errors", "episodes",
                               "calls")} | \
        {"by_template": {k: v["success"] for k, v in ev["by_template"].items()},
         "by_template_repeats": {k: v["per_repeat"] for k, v in ev["by_template"].items()},
         "right_tool": {k: round(v["right_tool"], 3) for k, v in ev.get("choices", {}).items()}}


def integrity_check(cfg: LearnConfig, ev: dict) -> dict:
    """The trained policy's passing held-out episodes, checked for what a hack would look like: an answer
    that is not exactly one value (hedged, listed, padded), calls beyond the gold plan's length plus one,
    tool calls after the task ended. (The verifiers themselves were proven against hacks in `worlds`.)"""
    from agent_harness.runner import latest_results, read_results
    from agent_harness.trajectory import Trajectory, episode_dir
    from tasks import load_tasks

    tasks = {t.id: t for t in load_tasks(cfg.out / "tasks-heldout")}
    checked, suspicious = 0, []
    for run in ev["runs"]:
        for row in latest_results(read_results(Path(run))):
            if not row.get("passed"):
                continue
            checked += 1
            task = tasks[row["task_id"]]
            gold = task.tools.solution
            gold_answer = next((c.args.get("answer") for c in gold if c.tool == "done"), None)
            path = episode_dir(Path(run), row["task_id"], row.get("sample", 0)) / "trajectory.json"
            steps = Trajectory.load(path).steps if path.exists() else []
            answer = next((s.action.get("answer") for s in steps if isinstance(s.action, dict)
                           and s.action.get("type") == "done"), None)
            why = []
            if gold_answer is not None and (answer or "").strip().lower() != str(gold_answer).strip().lower():
                why.append(f"answer {answer!r} is not exactly {gold_answer!r}")
            if gold_answer is None and answer:
                why.append(f"an answer {answer!r} where none was asked")
            if len(steps) > len(gold) + 1:
                why.append(f"{len(steps)} steps for a {len(gold)}-call plan")
            if why:
                suspicious.append({"task": row["task_id"], "why": why})
    return {"passing_episodes_checked": checked, "suspicious": suspicious}


# ---------------------------------------------------------------------------------------------- report

def plot(curve: list[dict], grpo_log: list[dict], path: Path) -> None:
    """Two panels with Pillow (matplotlib is not a uigym dependency): held-out pass rate per stage and
    GRPO checkpoint (mean of the repeats, with their min-max), and the GRPO reward mean per step."""
    from PIL import Image, ImageDraw

    W, H, pad = 900, 380, 50
    img = Image.new("RGB", (W, H), "white")
    d = ImageDraw.Draw(img)

    def panel(x0, title, xs, ys, lo=None, hi=None, labels=None, ymax=1.0):
        x1, y0, y1 = x0 + 380, 40, H - pad
        d.text((x0, 12), title, fill="black")
        d.rectangle([x0, y0, x1, y1], outline="#888")
        for frac in (0.0, 0.25, 0.5, 0.75, 1.0):
            y = y1 - frac * (y1 - y0)
            d.line([x0, y, x1, y], fill="#eee")
            d.text((x0 - 34, y - 6), f"{frac * ymax:.2f}", fill="#555")
        if not xs:
            return
        xmin, xmax = min(xs), max(xs) if max(xs) > min(xs) else min(xs) + 1

        def pt(x, y):
            return (x0 + 10 + (x - xmin) / (xmax - xmin) * (x1 - x0 - 20), y1 - min(y, ymax) / ymax * (y1 - y0))

        for i in range(len(xs) - 1):
            d.line([pt(xs[i], ys[i]), pt(xs[i + 1], ys[i + 1])], fill="#1a73e8", width=2)
        for i, (x, y) in enumerate(zip(xs, ys)):
            px, py = pt(x, y)
            if lo is not None:
                d.line([pt(x, lo[i]), pt(x, hi[i])], fill="#e8711a", width=2)
            d.ellipse([px - 4, py - 4, px + 4, py + 4], fill="#1a73e8")
            if labels:
                d.text((px - 12, y1 + 6), labels[i], fill="black")

    xs = list(range(len(curve)))
    ys = [c["success_mean"] for c in curve]
    reps = [[r for r in c.get("repeat_success", [c["success_mean"]])] for c in curve]
    panel(pad, "held-out pass rate (mean of repeats, bar: min-max)", xs, ys, [min(r) for r in reps],
          [max(r) for r in reps], [c["label"] for c in curve])
    gx = [h["step"] for h in grpo_log]
    gy = [h.get("reward", 0.0) for h in grpo_log]
    panel(pad + 440, "GRPO: training reward mean per step", gx, gy)
    path.parent.mkdir(parents=True, exist_ok=True)
    img.save(path)


def write_report(cfg: LearnConfig, report: dict) -> None:
    rdir = cfg.out / "report"
    rdir.mkdir(parents=True, exist_ok=True)
    (rdir / "report.json").write_text(json.dumps(report, indent=1, default=str))
    plot(report["curve"], report["grpo_log"], rdir / "curve.png")
    lines = ["# Does it learn? (experiments/learning.py)", "", f"templates: {', '.join(cfg.templates)}",
             (f"train seeds {cfg.train_seeds}, held-out seeds {cfg.heldout_seeds}; "
             f"model {report['model_params']:,} parameters (text model)"), "",
             "| stage | held-out pass rate (mean) | spread (max-min of repeats) | per repeat | "
             + " | ".join(t.split('/')[1] for t in cfg.templates) + " | valid calls / replies |",
             "|---|---|---|---|" + "---|" * len(cfg.templates) + "---|"]
    for c in report["curve"]:
        lines.append(f"| {c['label']} | {c['success_mean']:.3f} | {c['success_spread']:.3f} | "
                     + ", ".join(f"{x:.3f}" for x in c["repeat_success"]) + " | "
                     + " | ".join(f"{c['by_template'].get(t, float('nan')):.3f}" for t in cfg.templates)
                     + f" | {c['calls']['valid_rate']:.3f} |")
    lines += ["", ("Does the policy read the goal? The share of episodes whose change call (the first call after "
              "the look-ups) named the gold plan's tool, by template (a policy that ignores the goal scores about "
              "the same share of one tool under every template):"), "",
              "| stage | " + " | ".join(t.split('/')[1] for t in cfg.templates) + " |",
              "|---|" + "---|" * len(cfg.templates)]
    for c in report["curve"]:
        lines.append(f"| {c['label']} | " + " | ".join(f"{c.get('right_tool', {}).get(t, float('nan')):.3f}"
                                                      for t in cfg.templates) + " |")
    lines += ["", ("GRPO steps (training worlds): step, reward mean, reward std (TRL's, over the step's "
              "rollouts), groups with one reward for all (their share: no advantage to follow), tool-call rate, "
              "parse errors"), ""]
    for h in report["grpo_log"]:
        lines.append(f"- {h['step']}: reward {h.get('reward', 0):.3f}, std {h.get('reward_std', 0):.3f}, "
                     f"uniform groups {float(h.get('frac_reward_zero_std', 0)):.2f}, "
                     f"tool calls {h.get('uigym/tool_call_rate', 0):.3f}, parse errors "
                     f"{h.get('uigym/parse_errors', 0):.3f}")
    if "reused" in report:
        what = {"sft": "worlds, SFT model, base and SFT evaluations",
                "demos": "worlds and oracle demonstrations"}[cfg.reuse]
        lines += ["", (f"{what} reused from {report['reused']['from_run']} "
                       f"(the time of its stages that made them: {json.dumps(report['reused']['stages'])})")]
    lines += ["", f"time: {json.dumps(report['time'])}", "", f"integrity: {json.dumps(report['integrity'])}",
              "", f"verdict: {json.dumps(report['verdict'])}", "", "![curve](curve.png)"]
    (rdir / "report.md").write_text("\n".join(lines) + "\n")


def partial_report(out: Path) -> list[dict]:
    """The curve a run has written so far (stages done, GRPO checkpoints evaluated), plotted to
    OUT/report/partial.png. Returns the curve's points."""
    rdir = Path(out) / "report"
    curve = json.loads((rdir / "partial.json").read_text())["curve"] if (rdir / "partial.json").exists() else []
    if (rdir / "partial-grpo.json").exists():
        grpo = json.loads((rdir / "partial-grpo.json").read_text())
        done = {c["label"] for c in curve}
        curve += [{**c, "label": f"g{c['step']}"} for c in grpo if f"g{c['step']}" not in done]
    for c in curve:
        c["repeat_success"] = c.get("repeat_success") or [c["success_mean"]]
    plot(curve, [], rdir / "partial.png")
    return [{k: c.get(k) for k in ("label", "success_mean", "repeat_success", "by_template")} for c in curve]


def verdict(cfg: LearnConfig, sft: dict, grpo: dict) -> dict:
    """Per template: the GRPO pass rate's gain over SFT against the larger of the two stages' spreads, and
    the GRPO policy's goal selectivity (`goal_selectivity`): how much more often it calls the template's
    change tool under that template than under the others that need another tool. A policy that makes one
    call everywhere raises one template's pass rate with a selectivity near 0 (and can never raise three)."""
    out = {}
    for t in cfg.templates:
        a, b = sft["by_template"].get(t), grpo["by_template"].get(t)
        if not a or not b:
            continue
        spread = max(max(a["per_repeat"]) - min(a["per_repeat"]), max(b["per_repeat"]) - min(b["per_repeat"]))
        gain = b["success"] - a["success"]
        out[t] = {"sft": a["success"], "grpo": b["success"], "gain": round(gain, 3), "spread": round(spread, 3),
                  "beats_spread": gain > spread, "goal_selectivity": goal_selectivity(grpo.get("choices", {}), t)}
    out["templates_beating_spread"] = sum(1 for v in out.values() if isinstance(v, dict) and v["beats_spread"])
    return out


# ---------------------------------------------------------------------------------------------- main

def curve_point(label: str, ev: dict, stage: str, step: int) -> dict:
    """One evaluation as a point of the curve: its summary and each repeat's pass rate."""
    return {"label": label, "stage": stage, "step": step, **summary(ev),
            "repeat_success": [m.get("success", 0.0) for m in ev["repeats"]]}


def add_point(cfg: LearnConfig, clock: Clock, curve: list[dict], label: str, ev: dict, stage: str, step: int) -> dict:
    """One evaluation on the curve, and the curve so far in OUT/report/partial.json (a run cut short keeps it)."""
    c = curve_point(label, ev, stage, step)
    curve.append(c)
    path = cfg.out / "report" / "partial.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"curve": curve, "time": clock.stages}, indent=1, default=str))
    return c


def run(cfg: LearnConfig) -> dict:
    import torch

    torch.set_num_threads(cfg.threads)
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    cfg.out.mkdir(parents=True, exist_ok=True)
    (cfg.out / "config.json").write_text(json.dumps(asdict(cfg), indent=1, default=str))
    clock = Clock()
    report: dict = {"config": asdict(cfg)}
    if cfg.from_run is not None and cfg.reuse == "sft":
        return _grpo_from_run(cfg, clock, report)
    if cfg.from_run is not None:  # reuse "demos"
        prev = reuse_run(cfg)
        report["worlds"], report["demo_tasks"] = prev["worlds"], prev["demo_tasks"]
        report["reused"] = {"from_run": str(cfg.from_run),
                            "stages": {k: prev["time"]["stages"][k] for k in ("worlds", "oracle")}}
    else:
        with clock.stage("worlds"):
            report["worlds"] = {"train": prove_worlds(cfg, "train", cfg.train_seeds),
                                "heldout": prove_worlds(cfg, "heldout", cfg.heldout_seeds)}
        with clock.stage("oracle"):
            report["demo_tasks"] = write_demo_tasks(cfg)
            uigym("eval", "--mode", "tools", "--agent", "oracle", "--tasks-dir", str(cfg.out / "tasks-demo"),
                  "--tasks", f"{cfg.app}/*", "--workers", "2", "--no-report", "--label", "oracle",
                  "--out", str(cfg.out / "oracle"), *app_module_args(cfg))
    with clock.stage("sft_data"):
        report["sft_samples"] = export_sft(cfg)
    with clock.stage("model"):
        base = build_model(cfg)
        report["model_params"] = n_params(base)
    curve: list[dict] = []
    point = partial(add_point, cfg, clock, curve)
    with clock.stage("eval_base"):
        ev_base = evaluate(base, cfg, "base")
        point("base", ev_base, "base", 0)
    with clock.stage("sft"):
        sft_model, report["sft_log"] = run_sft_stage(cfg, base)
    with clock.stage("eval_sft"):
        ev_sft = evaluate(sft_model, cfg, "sft")
        point("sft", ev_sft, "sft", 0)
    return _grpo_and_report(cfg, clock, report, curve, sft_model, ev_base, ev_sft, point)


def _grpo_from_run(cfg: LearnConfig, clock: Clock, report: dict) -> dict:
    """GRPO from another run's SFT model; that run's worlds and first evaluations stand as this run's."""
    prev = reuse_run(cfg)
    for k in ("worlds", "demo_tasks", "sft_samples", "model_params", "sft_log"):
        report[k] = prev[k]
    report["reused"] = {"from_run": str(cfg.from_run), "stages": prev["time"]["stages"]}
    curve = [c for c in prev["curve"] if c["stage"] in ("base", "sft")]
    return _grpo_and_report(cfg, clock, report, curve, str(cfg.out / "sft" / "final"),
                            prev["evals"]["base"], prev["evals"]["sft"], partial(add_point, cfg, clock, curve))


def _grpo_and_report(cfg: LearnConfig, clock: Clock, report: dict, curve: list[dict], sft_model: str,
                     ev_base: dict, ev_sft: dict, point) -> dict:
    grpo_curve: list[dict] = []
    checkpoint_evals: dict[int, dict] = {}
    with clock.stage("grpo"):
        grpo_model, report["grpo_log"] = run_grpo_stage(cfg, sft_model, grpo_curve, checkpoint_evals)
    curve += grpo_curve  # the checkpoints' evals ran inside the grpo stage (its time includes them)
    if cfg.grpo_steps in checkpoint_evals:
        # the last checkpoint holds the final weights, and an evaluation's sampling seeds are fixed: the same
        # episodes again (run J's final and step-60 evaluations were identical) would only cost time
        ev_grpo = checkpoint_evals[cfg.grpo_steps]
    else:
        with clock.stage("eval_grpo"):
            ev_grpo = evaluate(grpo_model, cfg, "grpo")
    point("grpo", ev_grpo, "grpo", cfg.grpo_steps)
    for c in curve:
        c["repeat_success"] = c["repeat_success"] or [c["success_mean"]]
    report["evals"] = {"base": ev_base, "sft": ev_sft, "grpo": ev_grpo}
    report["curve"] = curve
    report["integrity"] = integrity_check(cfg, ev_grpo)
    report["verdict"] = verdict(cfg, ev_sft, ev_grpo)
    report["time"] = {"stages": clock.stages, **clock.totals()}
    write_report(cfg, report)
    return report


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=Path("runs/learning"))
    ap.add_argument("--size", choices=sorted(SIZES), default="cpu")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=JSON",
                    help="override a LearnConfig field, e.g. --set grpo_steps=60")
    ap.add_argument("--from-run", type=Path, default=None, metavar="RUN",
                    help="start from a finished run: with --reuse sft (the default) its worlds, SFT model and base/SFT "
                         "evaluations stand and GRPO runs; with --reuse demos its worlds and oracle demonstrations "
                         "stand and the export, model, SFT and GRPO run again")
    ap.add_argument("--reuse", choices=sorted(REUSE), default="sft")
    ap.add_argument("--partial", action="store_true",
                    help="plot OUT's curve so far (OUT/report/partial*.json) from a run that is cut short or still on")
    args = ap.parse_args(argv)
    if args.partial:
        print(json.dumps(partial_report(args.out), indent=1))
        return
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)  # one line per tool call otherwise
    over = {k: json.loads(v) for k, v in (s.split("=", 1) for s in args.set)}
    for k in ("templates",):
        if k in over:
            over[k] = tuple(over[k])
    if args.from_run is not None:
        over["from_run"], over["reuse"] = args.from_run, args.reuse
    cfg = replace(LearnConfig(out=args.out), **SIZES[args.size], **over)
    report = run(cfg)
    print(json.dumps({"curve": [{k: c[k] for k in ("label", "success_mean", "success_spread")}
                                for c in report["curve"]], "verdict": report["verdict"], "time": report["time"]},
                     indent=1))


if __name__ == "__main__":
    main()
