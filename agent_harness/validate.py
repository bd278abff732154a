"""Task validation: every task must grade its oracle 1, the do-nothing agent 0, each near-miss 0.

Runs the three kinds of episode through the real env (the same path an agent takes), in parallel.
"""

from __future__ import annotations

import asyncio
import uuid
from dataclasses import dataclass, field

from agent_harness.agents import NoopAgent, OracleAgent
from gym_core.env import AsyncUIEnv, EnvConfig
from gym_core.runtime import Runtime
from tasks import Task


@dataclass
class Probe:
    task_id: str
    kind: str  # "oracle" | "noop" | "near_miss[i]"
    expected: float
    reward: float = 0.0
    steps: int = 0
    error: str | None = None
    report: str = ""

    @property
    def ok(self) -> bool:
        return self.error is None and abs(self.reward - self.expected) < 1e-9


@dataclass
class TaskValidation:
    task_id: str
    probes: list[Probe] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(p.ok for p in self.probes)

    def failures(self) -> str:
        lines = []
        for p in self.probes:
            if not p.ok:
                what = p.error or f"reward {p.reward} (expected {p.expected})"
                lines.append(f"{self.task_id} [{p.kind}]: {what}\n{p.report}")
        return "\n".join(lines)


async def _play(env: AsyncUIEnv, agent, task: Task, probe: Probe) -> Probe:
    try:
        obs, _ = await env.reset(task=task)
        await agent.reset(env, task)
        info: dict = {}
        while True:
            action = await agent.act(obs)
            obs, reward, term, trunc, info = await env.step(action)
            if obs["last_action_error"] and probe.kind == "oracle":
                raise RuntimeError(f"step {env.steps}: {obs['last_action_error']} (action {info.get('action')})")
            if term or trunc:
                break
        probe.reward, probe.steps = reward, env.steps
        v = info.get("verify") or {}
        probe.report = "\n".join(
            f"   {'✓' if c['passed'] else '✗'} {c['name']}: {c['detail']}" for c in v.get("checks", []))
    except Exception as e:  # noqa: BLE001 - a failing probe is a result
        probe.error = f"{type(e).__name__}: {e}"
    return probe


async def validate_tasks(tasks: list[Task], workers: int = 4, near_misses: bool = True,
                         config: EnvConfig | None = None, probe_timeout_s: float = 300.0) -> list[TaskValidation]:
    runtime = Runtime.current()
    jobs: list[tuple[Task, str, list | None, float]] = []
    for t in tasks:
        jobs.append((t, "oracle", None, 1.0))
        jobs.append((t, "noop", None, 0.0))
        if near_misses:
            for i, nm in enumerate(t.near_misses):
                jobs.append((t, f"near_miss[{i}]", nm, 0.0))
    queue: asyncio.Queue = asyncio.Queue()
    for j in jobs:
        queue.put_nowait(j)
    results: dict[str, TaskValidation] = {t.id: TaskValidation(t.id) for t in tasks}
    run = uuid.uuid4().hex[:6]  # two validations sharing a UIGYM_HOME must not reset each other's worlds

    async def worker(i: int):
        env = AsyncUIEnv(None, config or EnvConfig(), runtime=runtime, world_id=f"validate-{run}-{i}")
        try:
            while not queue.empty():
                task, kind, steps, expected = queue.get_nowait()
                if kind == "noop":
                    agent = NoopAgent()
                else:
                    agent = OracleAgent(steps=steps)
                probe = Probe(task.id, kind, expected)
                try:
                    await asyncio.wait_for(_play(env, agent, task, probe), probe_timeout_s)
                except asyncio.TimeoutError:
                    probe.error = f"TimeoutError: the episode took longer than {probe_timeout_s:.0f}s"
                if probe.error:
                    await env.close()
                    env = AsyncUIEnv(None, config or EnvConfig(), runtime=runtime, world_id=f"validate-{run}-{i}")
                results[task.id].probes.append(probe)
        finally:
            await env.close()

    await asyncio.gather(*(worker(i) for i in range(max(1, min(workers, len(jobs))))))
    return [results[t.id] for t in tasks]
