"""The eval runner: episodes in parallel, results streamed to one results.jsonl.

Each finished episode is appended to <out>/results.jsonl at once (a crash loses nothing done), and
a rerun with the same <out> skips episodes already there (`retry_errors` reruns the ones that
ended in an error). An episode that crashes (browser, app server, agent, model endpoint) is
recorded with its error and the worker carries on with a fresh env.

Where episodes run (`EvalConfig`):
- `workers`: how many episodes run at once, in total.
- `procs=1` (default): all of them as asyncio tasks in this process, over one Chromium.
- `procs=P>1`: P worker processes on this machine, each with its own Chromium and app servers,
  running workers/P episodes at once (agent_harness.scale.procs).
- `ray_address`: P Ray actors (default ceil(workers/4)), each owning a Chromium and app servers,
  anywhere in the cluster (agent_harness.scale.ray_backend).
`mode`: "ui" (the screen), "tools" (the app's tools, no browser: the oracle plays each task's tool plan and
`openai` is a function-calling model, text-only ones included) or "hybrid" (the screen and the tools).

In every case this process alone writes results.jsonl and the episode folders, as results stream
back; a worker process or actor that dies has its running episodes recorded as errors, and is
replaced.
"""

from __future__ import annotations

import asyncio
import dataclasses
import fcntl
import importlib
import json
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from agent_harness.trajectory import StepRecord, Trajectory, episode_dir
from gym_core.env import AsyncUIEnv, EnvConfig
from gym_core.runtime import Runtime
from gym_core.tool_env import AsyncToolEnv
from tasks import Task
from tasks.fresh import generalisation_split

RESULTS = "results.jsonl"


@dataclass
class EvalConfig:
    agent: str
    tasks: list[Task]
    out: Path
    workers: int = 4
    samples: int = 1
    agent_kwargs: dict[str, Any] = field(default_factory=dict)
    env_config: EnvConfig = field(default_factory=EnvConfig)
    save_screenshots: bool = True
    episode_timeout_s: float = 900.0
    agent_label: str | None = None  # the name written in results (default: agent)
    procs: int = 1  # worker processes (or Ray actors); 1 = everything in this process
    ray_address: str | None = None  # "local" (start one here), "auto", "ray://host:10001", "host:6379"
    ray_cpus_per_actor: float = 1.0
    app_urls: dict[str, str] = field(default_factory=dict)  # app -> URL of a running server (token: UIGYM_GYM_TOKEN)
    app_modules: dict[str, str] = field(default_factory=dict)  # app -> module to serve under its name
    retry_errors: bool = False  # rerun episodes whose recorded result is an error
    mode: str = "ui"  # ui | tools | hybrid

    @property
    def label(self) -> str:
        return self.agent_label or self.agent

    def make_env(self, runtime: Runtime, world_id: str) -> AsyncUIEnv | AsyncToolEnv:
        if self.mode == "tools":
            return AsyncToolEnv(None, self.env_config, runtime=runtime, world_id=world_id)
        if self.mode == "hybrid" and not self.env_config.tools:
            self.env_config = dataclasses.replace(self.env_config, tools=True)
        return AsyncUIEnv(None, self.env_config, runtime=runtime, world_id=world_id)

    def agent_name(self) -> str:
        """The agent the mode needs: in tool mode the oracle plays tool plans and a model calls functions."""
        if self.mode == "tools":
            return {"oracle": "tool-oracle", "openai": "openai-tools", "vllm": "openai-tools"}.get(self.agent, self.agent)
        return self.agent


def read_results(out: Path) -> list[dict]:
    path = Path(out) / RESULTS
    if not path.exists():
        return []
    rows = []
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line:
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            continue  # a line cut short by a crash: that episode simply runs again
    return rows


def latest_results(rows: list[dict]) -> list[dict]:
    """One row per (agent, task, sample): the last one written (a retried episode replaces its error)."""
    by_key: dict[tuple, dict] = {}
    for r in rows:
        by_key[(r.get("agent"), r.get("task_id"), r.get("sample", 0))] = r
    return list(by_key.values())


def _key(task_id: str, sample: int) -> str:
    return f"{task_id}#{sample}"


class ResultsWriter:
    """Appends rows to results.jsonl under an exclusive file lock (several evals may share a folder)."""

    def __init__(self, out: Path):
        self.path = Path(out) / RESULTS
        self.path.parent.mkdir(parents=True, exist_ok=True)

    def append(self, row: dict) -> None:
        line = json.dumps(row) + "\n"
        with self.path.open("a+b") as f:
            fcntl.flock(f, fcntl.LOCK_EX)
            try:
                # A line cut short by a crash must not swallow this one: start on a fresh line.
                f.seek(0, 2)
                if f.tell() > 0:
                    f.seek(-1, 2)
                    if f.read(1) != b"\n":
                        f.write(b"\n")
                f.write(line.encode())
                f.flush()
            finally:
                fcntl.flock(f, fcntl.LOCK_UN)


def make_agent_from(name: str, kwargs: dict[str, Any]):
    """An agent by registry name, or by import path 'package.module:Class'."""
    if ":" in name:
        mod, cls = name.split(":", 1)
        return getattr(importlib.import_module(mod), cls)(**kwargs)
    from agent_harness.agents import make_agent

    return make_agent(name, **kwargs)


def make_runtime(cfg: EvalConfig) -> tuple[Runtime, bool]:
    """The runtime for this event loop; a private one (owned: close it) when app servers are overridden."""
    if cfg.app_urls or cfg.app_modules:
        import os

        from gym_core.server import ServerPool

        pool = ServerPool(urls=dict(cfg.app_urls), modules=dict(cfg.app_modules),
                          token=os.environ.get("UIGYM_GYM_TOKEN") if cfg.app_urls else None)
        return Runtime(servers=pool), True
    return Runtime.current(), False


async def close_runtime(runtime: Runtime, owned: bool) -> None:
    if owned:
        await runtime.close()
        await asyncio.to_thread(runtime.servers.stop_all)


def _error_kind(error: str | None) -> str | None:
    if not error:
        return None
    return error.split(":", 1)[0].strip() or "Error"


def error_row(task: Task, sample: int, label: str, out: Path, error: str, steps: int = 0,
              seconds: float = 0.0) -> dict:
    return {"task_id": task.id, "app": task.app, "difficulty": task.difficulty, "split": task.split,
            "generalisation": generalisation_split(task), "seed": task.seed, "template": task.template, "agent": label, "sample": sample, "reward": 0.0, "passed": False,
            "steps": steps, "seconds": round(seconds, 3), "error": error, "answer": None, "tokens": 0,
            "episode_dir": str(episode_dir(out, task.id, sample).relative_to(out)),
            "error_kind": _error_kind(error), "parse_errors": 0, "action_errors": 0,
            "prompt_tokens": 0, "completion_tokens": 0, "model_calls": 0, "model_ms": 0.0}


async def run_episode(env: AsyncUIEnv, agent, task: Task, out: Path, sample: int, label: str,
                      save_screenshots: bool = True) -> dict:
    t0 = time.perf_counter()
    edir = episode_dir(out, task.id, sample)
    traj = Trajectory(task_id=task.id, app=task.app, agent=label, goal=task.goal, seed=task.seed,
                      now=None, sample=sample, viewport=env.config.viewport)
    error = None
    reward = 0.0
    try:
        obs, info = await env.reset(task=task)
        traj.now = info.get("now")
        traj.start_url = obs.get("url", "")
        traj.mode = "tools" if isinstance(env, AsyncToolEnv) else ("hybrid" if env.config.tools else "ui")
        traj.tools = list(info.get("tools") or [])
        save_screenshots = save_screenshots and getattr(env, "last_png", None) is not None  # tool mode: no screen
        if save_screenshots:
            edir.mkdir(parents=True, exist_ok=True)
            await asyncio.to_thread((edir / "000.png").write_bytes, env.last_png)
        try:
            agent.episode_sample = sample  # agents that vary per sample (a jittered oracle) read it in reset
        except AttributeError:
            pass
        await agent.reset(env, task)
        while True:
            ts = time.perf_counter()
            action = await agent.act(obs)
            obs, reward, terminated, truncated, info = await env.step(action)
            shot = f"{env.steps:03d}.png" if save_screenshots else ""
            if save_screenshots:
                await asyncio.to_thread((edir / shot).write_bytes, env.last_png)
            traj.steps.append(StepRecord(
                step=env.steps, action=info.get("action"), error=obs["last_action_error"], url=obs.get("url", ""),
                ms=round((time.perf_counter() - ts) * 1000, 1), screenshot=shot, tool_result=obs.get("tool_result", ""),
                text=getattr(agent, "last_text", "") or "", usage=dict(getattr(agent, "last_usage", {}) or {}),
                parse_error=getattr(agent, "last_parse_error", "") or "",
            ))
            if terminated or truncated:
                traj.verify = info.get("verify")
                break
        traj.answer = env.answer
    except Exception as e:  # noqa: BLE001 - an episode's crash is a result, not the end of the run
        error = f"{type(e).__name__}: {e}"
        traj.error = error + "\n" + traceback.format_exc(limit=6)
        reward = 0.0
    traj.reward = float(reward)
    traj.seconds = round(time.perf_counter() - t0, 3)
    if save_screenshots or traj.steps:
        await asyncio.to_thread(traj.save, edir)
    usages = [s.usage for s in traj.steps]
    return {
        "task_id": task.id,
        "app": task.app,
        "difficulty": task.difficulty,
        "split": task.split,
        "generalisation": generalisation_split(task),
        "seed": task.seed,
        "template": task.template,
        "agent": label,
        "mode": traj.mode,
        "sample": sample,
        "reward": traj.reward,
        "passed": traj.reward >= 1.0,
        # A judged episode whose judge gave no verdict (none configured, timeout, malformed reply):
        # reward 0 but no grade; reports count it apart and training must drop it.
        "ungraded": (traj.verify or {}).get("status") == "ungraded",
        "steps": len(traj.steps),
        "seconds": traj.seconds,
        "error": error,
        "answer": traj.answer,
        "tokens": sum(int(u.get("total_tokens", 0)) for u in usages),
        "episode_dir": str(edir.relative_to(out)),
        "error_kind": _error_kind(error),
        "parse_errors": sum(1 for s in traj.steps if s.parse_error),
        "action_errors": sum(1 for s in traj.steps if s.error),
        "prompt_tokens": sum(int(u.get("prompt_tokens", 0)) for u in usages),
        "completion_tokens": sum(int(u.get("completion_tokens", 0)) for u in usages),
        "model_calls": sum(1 for u in usages if "latency_ms" in u),
        "model_ms": round(sum(float(u.get("latency_ms", 0.0)) for u in usages), 1),
    }


async def run_episode_safe(env: AsyncUIEnv, agent, task: Task, out: Path, sample: int, cfg: EvalConfig) -> dict:
    """run_episode under the episode timeout; a timeout is a recorded error."""
    try:
        return await asyncio.wait_for(
            run_episode(env, agent, task, out, sample, cfg.label, cfg.save_screenshots), cfg.episode_timeout_s)
    except asyncio.TimeoutError:
        return error_row(task, sample, cfg.label, out,
                         f"TimeoutError: episode exceeded {cfg.episode_timeout_s:.0f}s", env.steps,
                         cfg.episode_timeout_s)


class EpisodeSlot:
    """One env and one agent that run episodes one after another (a crashed env is replaced)."""

    def __init__(self, cfg: EvalConfig, runtime: Runtime, world_id: str):
        self.cfg = cfg
        self.runtime = runtime
        self.env = cfg.make_env(runtime, world_id)
        self.agent = make_agent_from(cfg.agent_name(), dict(cfg.agent_kwargs))

    async def run(self, task: Task, sample: int, out: Path) -> dict:
        row = await run_episode_safe(self.env, self.agent, task, out, sample, self.cfg)
        if row["error"]:
            # Start the next episode from a clean env (a crashed page or context stays behind).
            await self.env.close()
            self.env = self.cfg.make_env(self.runtime, self.env.world_id)
        return row

    async def close(self) -> None:
        await self.env.close()
        await self.agent.close()


def todo_items(cfg: EvalConfig) -> list[tuple[Task, int]]:
    """The (task, sample) pairs this run still has to do, given what results.jsonl holds."""
    rows = latest_results([r for r in read_results(cfg.out) if r.get("agent") == cfg.label])
    done = {_key(r["task_id"], r.get("sample", 0)) for r in rows if not (cfg.retry_errors and r.get("error"))}
    return [(t, s) for t in cfg.tasks for s in range(cfg.samples) if _key(t.id, s) not in done]


async def _run_in_process(cfg: EvalConfig, todo: list[tuple[Task, int]], emit: Callable[[dict], None],
                          runtime: Runtime | None = None) -> None:
    out = Path(cfg.out)
    queue: asyncio.Queue = asyncio.Queue()
    for item in todo:
        queue.put_nowait(item)
    runtime, owned = (runtime, False) if runtime is not None else make_runtime(cfg)

    async def worker(i: int) -> None:
        slot = EpisodeSlot(cfg, runtime, world_id=f"eval{i}-{id(cfg) % 100000}")
        try:
            while True:
                try:
                    task, sample = queue.get_nowait()
                except asyncio.QueueEmpty:
                    return
                emit(await slot.run(task, sample, out))
        finally:
            await slot.close()

    try:
        await asyncio.gather(*(worker(i) for i in range(max(1, min(cfg.workers, len(todo) or 1)))))
    finally:
        await close_runtime(runtime, owned)


async def run_eval(cfg: EvalConfig, on_result: Callable[[dict], None] | None = None,
                   runtime: Runtime | None = None) -> list[dict]:
    """Run every (task, sample) not yet in results.jsonl; return the results for these tasks.

    `runtime`: the in-process runner's Chromium and app servers (default: this loop's, or a private
    one when `app_urls`/`app_modules` are set); worker processes and Ray actors make their own."""
    out = Path(cfg.out)
    out.mkdir(parents=True, exist_ok=True)
    todo = todo_items(cfg)
    writer = ResultsWriter(out)

    def emit(row: dict) -> None:
        writer.append(row)
        if on_result:
            on_result(row)

    if todo:
        if cfg.ray_address:
            from agent_harness.scale.ray_backend import run_on_ray

            await run_on_ray(cfg, todo, emit)
        elif cfg.procs > 1:
            from agent_harness.scale.procs import run_in_processes

            await run_in_processes(cfg, todo, emit)
        else:
            await _run_in_process(cfg, todo, emit, runtime)
    ids = {t.id for t in cfg.tasks}
    return [r for r in latest_results(read_results(out)) if r.get("agent") == cfg.label and r["task_id"] in ids]
