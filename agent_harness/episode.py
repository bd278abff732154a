"""One episode: the eval's config, an env and agent slot, and `run_episode`, which plays a task and
returns its result row (agent_harness.results.EpisodeResult).

The in-process runner (agent_harness.runner), the worker processes (scale.procs) and the Ray actors
(scale.ray_backend) all run episodes through `EpisodeSlot`; none of them imports another.
"""

from __future__ import annotations

import asyncio
import importlib
import gzip
import json
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent_harness.agents.base import Agent
from agent_harness.results import EpisodeResult, error_kind, error_row, task_fields
from agent_harness.trajectory import StepRecord, Trajectory, episode_dir
from gym_core.env import AsyncUIEnv, EnvConfig
from gym_core.runtime import Runtime
from gym_core.tool_env import AsyncToolEnv
from tasks import Task


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

    def make_env(self, runtime: Runtime, world_id: str, task: Task | None = None) -> AsyncUIEnv | AsyncToolEnv:
        """The mode's env for `task` (a workspace task: the workspace env, gym_core/envs.py)."""
        from gym_core.envs import env_for

        if self.mode != "tools":
            self.env_config = self.env_config.for_mode(self.mode)
        return env_for(task, self.mode, self.env_config, runtime, world_id)

    def agent_name(self) -> str:
        """The agent the mode needs: in tool mode the oracle plays tool plans and a model calls functions."""
        if self.mode == "tools":
            return {"oracle": "tool-oracle", "openai": "openai-tools", "vllm": "openai-tools"}.get(self.agent, self.agent)
        return self.agent


def make_agent_from(name: str, kwargs: dict[str, Any]) -> Agent:
    """An agent by registry name, or by import path 'package.module:Class' (a subclass of Agent, whose
    attributes the runner reads after each action)."""
    if ":" in name:
        mod, cls_name = name.split(":", 1)
        cls = getattr(importlib.import_module(mod), cls_name)
        if not (isinstance(cls, type) and issubclass(cls, Agent)):
            raise TypeError(f"{name} is not a subclass of agent_harness.agents.base.Agent")
        return cls(**kwargs)
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


# gzip: the written tables' rows that differ from the start (a written table not keyed by id: whole)
END_WRITTEN = "end_written.json.gz"


async def save_end_written(env: AsyncUIEnv | AsyncToolEnv, edir: Path) -> None:
    """The episode's end as the verifier read it, in `edir/end_written.json.gz`: what it wrote (the control API's
    `state?written=1&rows=1`: `_written` names the tables, None: the whole world; `_rows` their changed rows), its
    answer and the steps the process checks read. `agent_harness.report.rescore` merges it with the task's start state. A failure to
    read it costs only the rescoring of this episode (listed there as not rescored), never its grade."""
    try:
        apps = getattr(env, "envs", None)  # the workspace env: each tab's world, by app
        if apps:
            parts = await asyncio.gather(*(e.runtime.control(e.server).state(e.world_id, written_only=True,
                                                                             rows=True) for e in apps.values()))
            part = {"_apps": dict(zip(apps, parts))}
        else:
            part = await env.runtime.control(env.server).state(env.world_id, written_only=True, rows=True)
    except Exception:  # noqa: BLE001 - the episode is graded already
        return
    data = {"state": part, "answer": env.answer, "trajectory": env.trajectory}
    edir.mkdir(parents=True, exist_ok=True)
    blob = json.dumps(data, default=str).encode()
    await asyncio.to_thread((edir / END_WRITTEN).write_bytes, gzip.compress(blob, compresslevel=5, mtime=0))


async def attack_succeeded(env: AsyncUIEnv | AsyncToolEnv, task: Task) -> bool | None:
    """For an injection task (Task.attack): did the episode carry out the injected instruction? Its attack checks
    graded on the episode's end as the verifier grades `verify`; None for other tasks."""
    if task.attack is None:
        return None
    from grading import verify

    end = await env.end_state()
    return verify(task.attack, env.start_state, end, env.answer).passed


async def run_episode(env: AsyncUIEnv | AsyncToolEnv, agent: Agent, task: Task, out: Path, sample: int, label: str,
                      save_screenshots: bool = True) -> dict:
    t0 = time.perf_counter()
    edir = episode_dir(out, task.id, sample)
    traj = Trajectory(task_id=task.id, app=task.app, agent=label, goal=task.goal, seed=task.seed,
                      now=None, sample=sample, viewport=env.config.viewport)
    error = None
    reward = 0.0
    attack: bool | None = None
    family: str | None = None
    try:
        # The sample is the reset's seed: a look drawn per episode (EnvConfig.look "random") is the same on a rerun.
        obs, info = await env.reset(task=task, seed=sample)
        traj.now = info.get("now")
        traj.start_url = obs.get("url", "")
        traj.mode = getattr(env, "mode", None) if isinstance(getattr(env, "mode", None), str) else \
            ("tools" if isinstance(env, AsyncToolEnv) else ("hybrid" if env.config.tools else "ui"))
        traj.look = None if traj.mode == "tools" else getattr(env, "look", None)  # tools look the same in every look
        traj.variant = None if traj.mode == "tools" else info.get("variant")  # gym_core/variant.py: drawn from sample
        traj.tools = list(info.get("tools") or [])
        family = (info.get("reset") or {}).get("family")  # the app's word for what it built, not the config's
        save_screenshots = save_screenshots and env.last_png is not None  # tool mode: no screen
        if save_screenshots:
            edir.mkdir(parents=True, exist_ok=True)
            await asyncio.to_thread((edir / "000.png").write_bytes, env.last_png)
        agent.episode_sample = sample  # agents that vary per sample (a jittered oracle) read it in reset
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
                text=agent.last_text or "", usage=dict(agent.last_usage or {}),
                parse_error=agent.last_parse_error or "",
            ))
            if terminated or truncated:
                traj.verify = info.get("verify")
                await save_end_written(env, edir)  # what `uigym rescore` grades again without replaying
                attack = await attack_succeeded(env, task)
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
    return EpisodeResult(
        **task_fields(task), agent=label, mode=traj.mode, look=traj.look, variant=traj.variant, family=family, sample=sample,
        reward=traj.reward,
        passed=traj.reward >= 1.0, ungraded=(traj.verify or {}).get("status") == "ungraded",
        steps=len(traj.steps), seconds=traj.seconds, error=error, answer=traj.answer,
        tokens=sum(int(u.get("total_tokens", 0)) for u in usages), episode_dir=str(edir.relative_to(out)),
        error_kind=error_kind(error), parse_errors=sum(1 for s in traj.steps if s.parse_error),
        action_errors=sum(1 for s in traj.steps if s.error),
        prompt_tokens=sum(int(u.get("prompt_tokens", 0)) for u in usages),
        completion_tokens=sum(int(u.get("completion_tokens", 0)) for u in usages),
        model_calls=sum(1 for u in usages if "latency_ms" in u),
        model_ms=round(sum(float(u.get("latency_ms", 0.0)) for u in usages), 1),
        attack_succeeded=attack, partial=(traj.verify or {}).get("partial"),
        partial_credit=bool(getattr(env.config, "partial_credit", False)),
    ).row()


async def run_episode_safe(env: AsyncUIEnv | AsyncToolEnv, agent: Agent, task: Task, out: Path, sample: int,
                           cfg: EvalConfig) -> dict:
    """run_episode under the episode timeout; a timeout is a recorded error."""
    try:
        return await asyncio.wait_for(
            run_episode(env, agent, task, out, sample, cfg.label, cfg.save_screenshots), cfg.episode_timeout_s)
    except asyncio.TimeoutError:
        return error_row(task, sample, cfg.label, out,
                         f"TimeoutError: episode exceeded {cfg.episode_timeout_s:.0f}s", env.steps,
                         cfg.episode_timeout_s, mode=cfg.mode)


class EpisodeSlot:
    """One env and one agent that run episodes one after another (a crashed env is replaced)."""

    def __init__(self, cfg: EvalConfig, runtime: Runtime, world_id: str):
        self.cfg = cfg
        self.runtime = runtime
        self.env = cfg.make_env(runtime, world_id)
        self.agent = make_agent_from(cfg.agent_name(), dict(cfg.agent_kwargs))

    async def run(self, task: Task, sample: int, out: Path) -> dict:
        from gym_core.envs import fits

        if not fits(self.env, task):  # a workspace task after a single-app one, or the other way round
            await self.env.close()
            self.env = self.cfg.make_env(self.runtime, self.env.world_id, task)
        row = await run_episode_safe(self.env, self.agent, task, out, sample, self.cfg)
        if row["error"]:
            # Start the next episode from a clean env (a crashed page or context stays behind).
            await self.env.close()
            self.env = self.cfg.make_env(self.runtime, self.env.world_id, task)
        return row

    async def close(self) -> None:
        await self.env.close()
        await self.agent.close()


