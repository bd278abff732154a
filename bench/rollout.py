"""The RL loop end to end: `python -m bench.rollout [--base-url URL] [--group 8] [--steps 4] [--episodes 16]`.

1. A GRPO-shaped rollout batch: a group of `--group` episodes of the same task, each from a fresh world (its own
   env, reset concurrently), played side by side by a model agent (the eval's ModelAgent, `--format`) against an
   OpenAI-compatible endpoint: `--base-url` (vLLM: `uigym vllm serve`, or `uigym serve`), else a `uigym serve
   --model tiny` started here (transformers on CPU, one request at a time). Each episode is cut at `--steps`
   actions. Printed: the batch's wall time and where the episodes' time went, summed over the group: in the env
   (reset, step: settle and screenshot) against waiting for the policy (the HTTP round trip, queueing included).
2. Oracle throughput: `--episodes` episodes of the bundled tasks (each template's first instance, in turn over the
   three apps), with screenshots as an agent sees them, at 1, 4 and 8 concurrent envs in one process (one
   Chromium), after an untimed warm-up pass over the same episodes: episodes per hour, per hour per core of this
   machine, and the CPU cores the process tree kept busy.
Last line: env_share=<x> policy_share=<x> eph_per_core_1=<x> eph_per_core_4=<x> eph_per_core_8=<x>
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import socket
import subprocess
import sys
import time

import httpx
import psutil

from agent_harness.agents import OracleAgent
from agent_harness.agents.model import ModelAgent
from bench.env import tree_cpu_s
from gym_core import AsyncUIEnv, EnvConfig
from gym_core.runtime import Runtime
from tasks.loader import load_tasks


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def tiny_server():
    """`uigym serve --model tiny` on a free port, for as long as the block runs."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "agent_harness.cli", "serve", "--model", "tiny", "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"uigym serve exited: {proc.stderr.read().decode()[-2000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(url + "/models", timeout=2).status_code == 200:
                    break
            time.sleep(1)
        else:
            raise RuntimeError("uigym serve did not come up in 300 s")
        yield url
    finally:
        proc.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(10)
        if proc.poll() is None:
            proc.kill()


async def grpo_group(rt: Runtime, base_url: str, fmt: str, group: int, steps: int) -> dict:
    task = next(t for t in load_tasks() if t.id.endswith("-00") and t.difficulty == "easy" and t.app == "mail")
    envs = [AsyncUIEnv(task.app, EnvConfig(max_steps=steps), runtime=rt) for _ in range(group)]
    env_s = [0.0] * group
    policy_s = [0.0] * group

    async def episode(i: int) -> None:
        env = envs[i]
        agent = ModelAgent(base_url=base_url, format=fmt, max_tokens=32, temperature=1.0, seed=i, retries=1)
        try:
            t = time.perf_counter()
            obs, _ = await env.reset(task=task)
            env_s[i] += time.perf_counter() - t
            await agent.reset(env, task)
            while True:
                t = time.perf_counter()
                action = await agent.act(obs)
                policy_s[i] += time.perf_counter() - t
                t = time.perf_counter()
                obs, _r, term, trunc, _ = await env.step(action)
                env_s[i] += time.perf_counter() - t
                if term or trunc:
                    return
        finally:
            await agent.close()

    try:
        for env in envs:  # warm: worlds, contexts and the page's assets exist before the clock starts
            await env.reset(task=task)
        t0 = time.perf_counter()
        await asyncio.gather(*(episode(i) for i in range(group)))
        wall = time.perf_counter() - t0
    finally:
        for env in envs:
            await env.close()
    env_total, policy_total = sum(env_s), sum(policy_s)
    return {"task": task.id, "wall_s": wall, "env_s": env_total, "policy_s": policy_total,
            "env_share": env_total / (env_total + policy_total)}


async def oracle_throughput(rt: Runtime, concurrency: int, n: int) -> dict:
    firsts = [t for t in load_tasks() if t.id.endswith("-00") and not t.verify.has_judge]
    by_app = {app: [t for t in firsts if t.app == app] for app in ("mail", "food", "crm")}
    order = [by_app[app][i // 3] for i, app in zip(range(3 * n), ["mail", "food", "crm"] * n)][:n]
    queue = list(order)
    envs = [AsyncUIEnv(None, EnvConfig(), runtime=rt) for _ in range(concurrency)]
    rewards: list[float] = []

    async def worker(env: AsyncUIEnv) -> None:
        while queue:
            task = queue.pop(0)
            obs, _ = await env.reset(task=task)
            agent = OracleAgent()
            await agent.reset(env, task)
            while True:
                obs, r, term, trunc, _ = await env.step(await agent.act(obs))
                if term or trunc:
                    rewards.append(r)
                    break

    try:
        for env, task in zip(envs, order):  # warm each env on an app: servers up, snapshots built
            await env.reset(task=task)
        c, t = tree_cpu_s(), time.perf_counter()
        await asyncio.gather(*(worker(e) for e in envs))
        wall = time.perf_counter() - t
        cores = (tree_cpu_s() - c) / wall
    finally:
        for env in envs:
            await env.close()
    eph = len(rewards) / wall * 3600
    return {"envs": concurrency, "episodes": len(rewards), "passed": sum(r == 1.0 for r in rewards), "wall_s": wall,
            "eph": eph, "eph_per_core": eph / (psutil.cpu_count() or 1), "cores_busy": cores,
            "cpu_s_per_episode": cores * wall / max(1, len(rewards))}


async def main(a) -> dict:
    rt = Runtime.current()
    out: dict = {}
    try:
        with (contextlib.nullcontext(a.base_url) if a.base_url else tiny_server()) as url:
            g = await grpo_group(rt, url, a.format, a.group, a.steps)
        print(f"GRPO group: {a.group} x {g['task']} ({a.steps} actions each, {a.format}, policy at "
              f"{a.base_url or 'uigym serve --model tiny'}): wall {g['wall_s']:.1f} s; summed over the group: env "
              f"{g['env_s']:.1f} s, policy {g['policy_s']:.1f} s -> env share {g['env_share']:.2f}", flush=True)
        out["group"] = g
        await oracle_throughput(rt, 4, a.episodes)  # warm, untimed: every task's world built, pages' assets cached
        for k in (1, 4, 8):
            r = await oracle_throughput(rt, k, a.episodes)
            print(f"oracle, {k} env(s): {r['episodes']} episodes ({r['passed']} passed) in {r['wall_s']:.1f} s: "
                  f"{r['eph']:.0f} episodes/h, {r['eph_per_core']:.0f} per core; {r['cores_busy']:.2f} cores busy, "
                  f"{r['cpu_s_per_episode']:.2f} CPU-s per episode", flush=True)
            out[k] = r
    finally:
        await rt.close()
    return out


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base-url", default=None, help="an OpenAI-compatible endpoint (default: a uigym serve --model tiny started here)")
    ap.add_argument("--format", default="uitars")
    ap.add_argument("--group", type=int, default=8)
    ap.add_argument("--steps", type=int, default=4)
    ap.add_argument("--episodes", type=int, default=16, help="oracle episodes per concurrency level")
    args = ap.parse_args()
    r = asyncio.run(main(args))
    g = r["group"]
    print(f"env_share={g['env_share']:.2f} policy_share={1 - g['env_share']:.2f} "
          + " ".join(f"eph_per_core_{k}={r[k]['eph_per_core']:.0f}" for k in (1, 4, 8)))
