"""The eval runner: episodes in parallel over one Chromium, results streamed to results.jsonl.

Each finished episode is appended to <out>/results.jsonl at once (a crash loses nothing done), and
a rerun with the same <out> skips episodes already there. An episode that crashes (browser, app
server, agent) is recorded with its error and the worker carries on with a fresh env.
"""

from __future__ import annotations

import asyncio
import json
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from agent_harness.agents import make_agent
from agent_harness.trajectory import StepRecord, Trajectory, episode_dir
from gym_core.env import AsyncUIEnv, EnvConfig
from gym_core.runtime import Runtime
from tasks import Task

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


def _key(task_id: str, sample: int) -> str:
    return f"{task_id}#{sample}"


class ResultsWriter:
    def __init__(self, out: Path):
        self.path = Path(out) / RESULTS
        self.path.parent.mkdir(parents=True, exist_ok=True)

    def append(self, row: dict) -> None:
        with self.path.open("a") as f:
            f.write(json.dumps(row) + "\n")
            f.flush()


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
        if save_screenshots:
            edir.mkdir(parents=True, exist_ok=True)
            await asyncio.to_thread((edir / "000.png").write_bytes, env.last_png)
        await agent.reset(env, task)
        while True:
            ts = time.perf_counter()
            action = await agent.act(obs)
            obs, reward, terminated, truncated, info = await env.step(action)
            shot = f"{env.steps:03d}.png"
            if save_screenshots:
                await asyncio.to_thread((edir / shot).write_bytes, env.last_png)
            traj.steps.append(StepRecord(
                step=env.steps, action=info.get("action"), error=obs["last_action_error"], url=obs["url"],
                ms=round((time.perf_counter() - ts) * 1000, 1), screenshot=shot,
                text=getattr(agent, "last_text", "") or "", usage=dict(getattr(agent, "last_usage", {}) or {}),
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
    return {
        "task_id": task.id,
        "app": task.app,
        "difficulty": task.difficulty,
        "split": task.split,
        "template": task.template,
        "agent": label,
        "sample": sample,
        "reward": traj.reward,
        "passed": traj.reward >= 1.0,
        "steps": len(traj.steps),
        "seconds": traj.seconds,
        "error": error,
        "answer": traj.answer,
        "tokens": sum(int(s.usage.get("total_tokens", 0)) for s in traj.steps),
        "episode_dir": str(edir.relative_to(out)),
    }


async def run_eval(cfg: EvalConfig, on_result: Callable[[dict], None] | None = None) -> list[dict]:
    """Run every (task, sample) not yet in results.jsonl; return all results for these tasks."""
    out = Path(cfg.out)
    out.mkdir(parents=True, exist_ok=True)
    label = cfg.agent_label or cfg.agent
    done = {_key(r["task_id"], r.get("sample", 0)) for r in read_results(out) if r.get("agent") == label}
    todo = [(t, s) for t in cfg.tasks for s in range(cfg.samples) if _key(t.id, s) not in done]
    writer = ResultsWriter(out)
    queue: asyncio.Queue = asyncio.Queue()
    for item in todo:
        queue.put_nowait(item)
    runtime = Runtime.current()

    async def worker(i: int) -> None:
        env = AsyncUIEnv(None, cfg.env_config, runtime=runtime, world_id=f"eval{i}-{id(cfg) % 100000}")
        agent = make_agent(cfg.agent, **cfg.agent_kwargs)
        try:
            while True:
                try:
                    task, sample = queue.get_nowait()
                except asyncio.QueueEmpty:
                    return
                try:
                    row = await asyncio.wait_for(
                        run_episode(env, agent, task, out, sample, label, cfg.save_screenshots),
                        cfg.episode_timeout_s,
                    )
                except asyncio.TimeoutError:
                    row = {"task_id": task.id, "app": task.app, "difficulty": task.difficulty, "split": task.split,
                           "template": task.template, "agent": label, "sample": sample, "reward": 0.0,
                           "passed": False, "steps": env.steps, "seconds": cfg.episode_timeout_s,
                           "error": f"TimeoutError: episode exceeded {cfg.episode_timeout_s:.0f}s", "answer": None,
                           "tokens": 0, "episode_dir": str(episode_dir(out, task.id, sample).relative_to(out))}
                if row["error"]:
                    # Start the next episode from a clean env (a crashed page or context stays behind).
                    await env.close()
                    env = AsyncUIEnv(None, cfg.env_config, runtime=runtime, world_id=env.world_id)
                writer.append(row)
                if on_result:
                    on_result(row)
        finally:
            await env.close()
            await agent.close()

    await asyncio.gather(*(worker(i) for i in range(max(1, min(cfg.workers, len(todo) or 1)))))
    ids = {t.id for t in cfg.tasks}
    return [r for r in read_results(out) if r.get("agent") == label and r["task_id"] in ids]
