"""Perturbation benchmark: `python -m bench.perturb [--app mail] [--reps 12] [--steps 4]`.

The cost of a reset and of a step with each screen perturbation family on (EnvConfig.perturb, gym_core/perturb.py),
against the same env with none, in this one run: one env per setting on one Chromium, the settings interleaved
rep by rep so every one sees the same machine load. Each rep is a reset (seed = rep: the draw changes) and then
`--steps` steps, each a click on a message's star (the page changes in place), settle and screenshot included;
an overlay covering the star is closed first, untimed, so the timed click does the same under every setting.
  reset_ms / step_ms   medians per setting
  reset_x / step_x     the ratio to "none" (the issue's bar: no perturbation makes a step more than 1.2x dearer)
Last line: step_x_max=<x> (the dearest family's step ratio) reset_x_max=<x>
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from gym_core import AsyncUIEnv, EnvConfig
from gym_core.perturb import FAMILIES, covering_dismiss
from gym_core.runtime import Runtime

# A control on each app's start page that changes the page in place or does nothing harmful when clicked again.
TARGETS = {"mail": ("/inbox", "button", "Star"), "food": ("/", "button", "Save"), "crm": ("/", "link", "Home")}


async def target_point(env: AsyncUIEnv, app: str) -> tuple[int, int]:
    """The target's centre, with any overlay that covers it closed first (untimed), so the timed click does
    the same thing under every setting."""
    _, role, name = TARGETS[app]
    loc = env.page.get_by_role(role, name=name).first
    for _ in range(8):
        b = await loc.bounding_box()
        if b is None:
            return env.width // 2, env.height // 2
        x, y = int(b["x"] + b["width"] / 2), int(b["y"] + b["height"] / 2)
        close = await covering_dismiss(loc, x, y)
        if close is None:
            return x, y
        await env.step({"type": "click", "x": close[0], "y": close[1]})
    return x, y


async def interleaved(app: str, configs: dict[str, EnvConfig], reps: int, steps: int,
                      point=None) -> dict[str, dict[str, float]]:
    """Each named config's env reset and `steps` clicks at `point(env, app)` (default: target_point), `reps` rounds
    taking turns (no config always first), after an untimed warm-up; medians, and ratios to the config "none".
    bench.variant times its variants with the same loop."""
    point = point or target_point
    rt = Runtime.current()
    settings = list(configs)
    envs = {s: AsyncUIEnv(app, configs[s], runtime=rt) for s in settings}
    start = TARGETS[app][0]
    for e in envs.values():  # warm: server, snapshot, contexts and the HTTP cache exist before the clock starts
        await e.reset(seed=0, start_path=start)
    resets: dict[str, list[float]] = {s: [] for s in settings}
    step_t: dict[str, list[float]] = {s: [] for s in settings}
    for rep in range(reps):
        order = settings[rep % len(settings):] + settings[:rep % len(settings)]  # no setting always goes first
        for s in order:
            env = envs[s]
            t = time.perf_counter()
            await env.reset(seed=rep + 1, start_path=start)
            resets[s].append(time.perf_counter() - t)
            x, y = await point(env, app)
            for _ in range(steps):
                t = time.perf_counter()
                await env.step({"type": "click", "x": x, "y": y})
                step_t[s].append(time.perf_counter() - t)
    for e in envs.values():
        await e.close()
    await rt.close()
    base_r, base_s = statistics.median(resets["none"]), statistics.median(step_t["none"])
    return {s: {"reset_ms": statistics.median(resets[s]) * 1000, "step_ms": statistics.median(step_t[s]) * 1000,
                "reset_x": statistics.median(resets[s]) / base_r, "step_x": statistics.median(step_t[s]) / base_s}
            for s in settings}


async def main(app: str, reps: int, steps: int) -> dict[str, dict[str, float]]:
    return await interleaved(app, {s: EnvConfig(perturb=s) for s in ["none", *FAMILIES, "all"]}, reps, steps)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--app", default="mail", choices=sorted(TARGETS))
    ap.add_argument("--reps", type=int, default=12)
    ap.add_argument("--steps", type=int, default=4)
    a = ap.parse_args()
    r = asyncio.run(main(a.app, a.reps, a.steps))
    print(f"{'perturb':>10} {'reset_ms':>9} {'reset_x':>8} {'step_ms':>8} {'step_x':>7}")
    for s, v in r.items():
        print(f"{s:>10} {v['reset_ms']:9.1f} {v['reset_x']:8.2f} {v['step_ms']:8.1f} {v['step_x']:7.2f}")
    fam = {s: v for s, v in r.items() if s not in ("none", "all")}
    print(f"step_x_max={max(v['step_x'] for v in fam.values()):.2f} reset_x_max={max(v['reset_x'] for v in fam.values()):.2f}")
