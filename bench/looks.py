"""Reset and step cost per look: `python -m bench.looks [--tasks 4] [--rounds 2]`.

For each app, the first `--tasks` tasks its second look carries (Look.covers) are played by the oracle (with
screenshots, as an agent's episode) in the default look and in the second, interleaved (default, second,
default, second; then second, default: neither look always first) in this one run, after an untimed warm-up
round, so the ratio holds on a noisy machine. Reported per look: the mean
env.reset and the mean env.step in ms; the second look's ratio to the first. Last line:
worst_reset_ratio=<x> worst_step_ratio=<x> (issue 37 asks a step at most 1.2x the first look's).
"""

from __future__ import annotations

import argparse
import asyncio
import time

from agent_harness.agents import OracleAgent
from apps import app_looks, look_carries
from gym_core import AsyncUIEnv
from gym_core.runtime import Runtime
from tasks.loader import load_tasks


async def play(env: AsyncUIEnv, task, look: str) -> tuple[float, list[float]]:
    t0 = time.perf_counter()
    obs, _ = await env.reset(task=task, look=look)
    reset_ms = (time.perf_counter() - t0) * 1000
    agent = OracleAgent()
    await agent.reset(env, task)
    steps = []
    while True:
        action = await agent.act(obs)
        t = time.perf_counter()
        obs, reward, term, trunc, _ = await env.step(action)
        steps.append((time.perf_counter() - t) * 1000)
        if term or trunc:
            if reward < 1.0:
                raise RuntimeError(f"{task.id} in {look}: the oracle got {reward}")
            return reset_ms, steps


async def main(n_tasks: int, rounds: int) -> None:
    rt = Runtime.current()
    worst_reset = worst_step = 0.0
    try:
        for app in ("mail", "food", "crm"):
            first, second = app_looks(app)[:2]
            tasks = [t for t in load_tasks() if t.app == app and t.id.endswith("-00")
                     and look_carries(app, second, t.template)][:n_tasks]
            if not tasks:
                print(f"{app}: the {second} look carries no template yet")
                continue
            env = AsyncUIEnv(app, runtime=rt)
            resets: dict[str, list[float]] = {first: [], second: []}
            steps: dict[str, list[float]] = {first: [], second: []}
            try:
                for t in tasks:  # warm-up, untimed: snapshots built, start states cached, pages' assets cached
                    for look in (first, second):
                        await play(env, t, look)
                for r_i in range(rounds):
                    for t_i, t in enumerate(tasks):
                        order = (first, second) if (r_i + t_i) % 2 == 0 else (second, first)  # neither always first
                        for look in order:
                            r, s = await play(env, t, look)
                            resets[look].append(r)
                            steps[look] += s
            finally:
                await env.close()
            mean = {k: (sum(v) / len(v)) for k, v in resets.items()}
            step = {k: (sum(v) / len(v)) for k, v in steps.items()}
            rr, sr = mean[second] / mean[first], step[second] / step[first]
            worst_reset, worst_step = max(worst_reset, rr), max(worst_step, sr)
            print(f"{app}: {len(tasks)} tasks x {rounds}: reset {first} {mean[first]:.0f} ms, {second} "
                  f"{mean[second]:.0f} ms ({rr:.2f}x); step {first} {step[first]:.0f} ms, {second} "
                  f"{step[second]:.0f} ms ({sr:.2f}x)")
    finally:
        await rt.close()
    print(f"worst_reset_ratio={worst_reset:.2f} worst_step_ratio={worst_step:.2f}")


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--tasks", type=int, default=4)
    p.add_argument("--rounds", type=int, default=2)
    a = p.parse_args()
    asyncio.run(main(a.tasks, a.rounds))
