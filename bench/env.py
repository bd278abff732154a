"""Environment benchmark: `python -m bench.env [--episodes 32] [--envs 8]`.

Everything is measured in this one run, on the mail app, so the ratios hold on a noisy machine:
  bare_shot_ms   a bare Playwright page.screenshot() of the inbox
  step_ms        env.step of a click that changes the page in place (a star), incl. settle + screenshot
  reset_p50_ms   a world reset through the control API (snapshot restore + fixtures)
  env_reset_ms   a whole env.reset (world reset + the tab parked and wiped + page load + screenshot), and its
                 phases (AsyncUIEnv.reset_phases: park, world, open, capture, observe)
  reset_floor_ms what a reset cannot go below, measured beside it: the world reset, a bare page.goto of the
                 same page and a bare screenshot; reset_over_floor = env_reset_ms / reset_floor_ms
  throughput     episodes/s with 1 env and with N envs in one process (one Chromium)
  cores_1env     CPU cores the whole tree (Chromium, app server, Python) keeps busy running 1 env;
                 N envs cannot beat 1 env by more than  ceiling = cores / cores_1env
  mb_per_env     proportional memory (PSS) of browser + app server per extra open env
Last line: reset_p50_ms=<x> step_ratio=<x> parallel_speedup=<x> mb_per_env=<x>
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

import psutil

from gym_core import AsyncUIEnv
from gym_core.runtime import Runtime

STAR = {"role": "button", "name": "Star"}


def p50(xs: list[float]) -> float:
    return statistics.median(xs)


async def star_point(env: AsyncUIEnv, i: int = 0) -> tuple[int, int]:
    loc = env.page.get_by_role("button", name="Star", exact=True).nth(i)
    b = await loc.bounding_box()
    return int(b["x"] + b["width"] / 2), int(b["y"] + b["height"] / 2)


async def episode(env: AsyncUIEnv, steps: int = 6) -> None:
    """A small fixed episode: reset, star and unstar a few rows, done (graded)."""
    await env.reset(seed=0, start_path="/inbox")
    x, y = await star_point(env, 0)
    for _ in range(steps):
        await env.step({"type": "click", "x": x, "y": y})
    await env.step({"type": "done"})


def _tree() -> list[psutil.Process]:
    """This process and every process it started (Chromium, the app server, Playwright's driver)."""
    return [psutil.Process()] + psutil.Process().children(recursive=True)


def tree_cpu_s() -> float:
    total = 0.0
    for p in _tree():
        try:
            t = p.cpu_times()
            total += t.user + t.system
        except psutil.Error:
            pass
    return total


def tree_pss_mb() -> float:
    total = 0
    for p in _tree():
        try:
            total += p.memory_full_info().pss
        except (psutil.Error, AttributeError):
            pass
    return total / 2**20


async def main(n_envs: int, n_episodes: int, reps: int) -> dict:
    rt = Runtime.current()
    env = AsyncUIEnv("mail", runtime=rt)
    await env.reset(seed=0, start_path="/inbox")  # builds the snapshot, starts server and browser
    x, y = await star_point(env)

    # Interleave bare screenshots and steps so both see the same machine load.
    bare, step = [], []
    for _ in range(reps):
        t = time.perf_counter()
        await env.page.screenshot()
        bare.append(time.perf_counter() - t)
        t = time.perf_counter()
        await env.step({"type": "click", "x": x, "y": y})
        step.append(time.perf_counter() - t)

    control = rt.control(env.server)
    resets = []
    for _ in range(reps):
        t = time.perf_counter()
        await control.reset(env.world_id, 0, None, [])
        resets.append(time.perf_counter() - t)
    # env.reset against its floor, interleaved so both see the same load: the floor is the world reset, a bare
    # page.goto of the same page (in a plain context of the same browser, the world's binding cookie set)
    # and a bare screenshot. The env's own phases (AsyncUIEnv.reset_phases) say where the rest goes.
    bare_ctx = await (await rt.browser()).new_context(viewport={"width": env.width, "height": env.height})
    await bare_ctx.add_cookies([env._world_cookie()])
    bare_page = await bare_ctx.new_page()
    env_resets, floors, phases = [], [], []
    for _ in range(max(5, reps // 2)):
        t = time.perf_counter()
        await env.reset(seed=0, start_path="/inbox")
        env_resets.append(time.perf_counter() - t)
        phases.append(env.reset_phases)
        t = time.perf_counter()
        await control.reset(env.world_id, 0, None, [])
        await bare_page.goto(env.server.url + "/inbox")
        await bare_page.screenshot()
        floors.append(time.perf_counter() - t)
    await bare_ctx.close()
    await env.close()

    async def throughput(k: int) -> tuple[float, float]:
        """(episodes/s, cores busy) with k envs."""
        envs = [AsyncUIEnv("mail", runtime=rt) for _ in range(k)]
        queue = list(range(n_episodes))

        async def worker(e: AsyncUIEnv):
            while queue:
                queue.pop()
                await episode(e)

        for e in envs:  # warm: contexts and worlds exist before the clock starts
            await e.reset(seed=0, start_path="/inbox")
        c, t = tree_cpu_s(), time.perf_counter()
        await asyncio.gather(*(worker(e) for e in envs))
        dt = time.perf_counter() - t
        cores = (tree_cpu_s() - c) / dt
        for e in envs:
            await e.close()
        return n_episodes / dt, cores

    tp1, cores1 = await throughput(1)
    tpn, coresn = await throughput(n_envs)

    # Memory: open envs one by one and take the slope.
    base = tree_pss_mb()
    envs = []
    for _ in range(n_envs):
        e = AsyncUIEnv("mail", runtime=rt)
        await e.reset(seed=0, start_path="/inbox")
        envs.append(e)
    await asyncio.sleep(0.5)
    mb_per_env = (tree_pss_mb() - base) / n_envs
    for e in envs:
        await e.close()
    await rt.close()
    return {
        "bare_shot_ms": p50(bare) * 1000,
        "step_ms": p50(step) * 1000,
        "reset_p50_ms": p50(resets) * 1000,
        "env_reset_ms": p50(env_resets) * 1000,
        "reset_floor_ms": p50(floors) * 1000,
        **{f"  reset.{k}_ms": p50([ph[k] for ph in phases]) for k in phases[0]},
        "reset_over_floor": p50(env_resets) / p50(floors),
        "eps_1": tp1,
        f"eps_{n_envs}": tpn,
        "step_ratio": p50(step) / p50(bare),
        "parallel_speedup": tpn / tp1,
        "cores_1env": cores1,
        f"cores_{n_envs}env": coresn,
        "parallel_ceiling": (psutil.cpu_count() or 1) / cores1,
        "mb_per_env": mb_per_env,
    }


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--envs", type=int, default=8)
    ap.add_argument("--episodes", type=int, default=32)
    ap.add_argument("--reps", type=int, default=30)
    a = ap.parse_args()
    r = asyncio.run(main(a.envs, a.episodes, a.reps))
    for k, v in r.items():
        print(f"{k:>18}: {v:.2f}")
    print(f"reset_p50_ms={r['reset_p50_ms']:.1f} reset_over_floor={r['reset_over_floor']:.2f} step_ratio={r['step_ratio']:.2f} "
          f"parallel_speedup={r['parallel_speedup']:.2f} mb_per_env={r['mb_per_env']:.0f}")
