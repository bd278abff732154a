"""Variant benchmark: `python -m bench.variant [--app mail] [--reps 8] [--steps 4]`.

The cost of a reset and of a step in a variant (EnvConfig.variant, gym_core/variant.py), one per axis value away
from the default plus a random one and one with every axis moved, against the same env with no variant, in this one
run: one env per setting on one Chromium, the settings interleaved rep by rep so every one sees the same machine load.
Each rep is a reset (seed = rep) and then `--steps` steps, each a click on the app's target (bench/perturb.py's: a
message's star, a store's Save, the Home tab), settle and screenshot included; an overlay covering it is closed first,
untimed, so the timed click does the same in every setting.
  reset_ms / step_ms   medians per setting
  reset_x / step_x     the ratio to "none" (the issue's bar: no variant makes a reset or a step more than 1.2x dearer)
Last line: step_x_max=<x> reset_x_max=<x> over the single-axis settings, then the same over all of them.
"""

from __future__ import annotations

import argparse
import asyncio

from bench.perturb import TARGETS, interleaved
from apps import app_looks
from gym_core import AsyncUIEnv, EnvConfig
from gym_core.perturb import covering_dismiss
from gym_core.variant import AXES, offered

EVERY_AXIS = {"mail": "theme=dark,zoom=1.25,density=compact,font=1.25,locale=de-DE,overlays=load",
              "food": "theme=contrast,zoom=1.25,font=1.25,locale=de-DE,overlays=load",
              "crm": "theme=contrast,zoom=1.25,density=compact,font=1.25,locale=de-DE,overlays=load"}


def settings_for(app: str) -> list[str]:
    """none, one setting per axis value the app's default look offers away from the default, random (in the default
    look), every axis."""
    out = ["none"]
    for a in AXES.values():
        if a.name == "look":
            continue
        for v in offered(a.name, app, None):
            if v != a.default:
                out.append(f"{a.name}={v:g}" if isinstance(v, float) else f"{a.name}={v}")
    return out + [f"random,look={app_looks(app)[0]}", EVERY_AXIS[app]]  # the targets are the default look's


async def target_point(env: AsyncUIEnv, app: str) -> tuple[int, int]:
    """The target's centre on the screen, with any overlay that covers it closed first (untimed)."""
    _, role, name = TARGETS[app]
    loc = env.page.get_by_role(role, name=name).first
    x = y = 0
    for _ in range(8):
        b = await loc.bounding_box()
        if b is None:
            return env.width // 2, env.height // 2
        cx, cy = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
        close = await covering_dismiss(loc, int(cx), int(cy))
        x, y = env.to_screen(cx, cy)
        if close is None:
            return x, y
        await env.step({"type": "click", "x": env.to_screen(*close)[0], "y": env.to_screen(*close)[1]})
    return x, y


async def main(app: str, reps: int, steps: int) -> dict[str, dict[str, float]]:
    configs = {s: EnvConfig(variant=None if s == "none" else s) for s in settings_for(app)}
    return await interleaved(app, configs, reps, steps, point=target_point)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--app", default="mail", choices=sorted(TARGETS))
    ap.add_argument("--reps", type=int, default=8)
    ap.add_argument("--steps", type=int, default=4)
    a = ap.parse_args()
    r = asyncio.run(main(a.app, a.reps, a.steps))
    print(f"{'variant':>24} {'reset_ms':>9} {'reset_x':>8} {'step_ms':>8} {'step_x':>7}")
    for s, v in r.items():
        print(f"{s[:24]:>24} {v['reset_ms']:9.1f} {v['reset_x']:8.2f} {v['step_ms']:8.1f} {v['step_x']:7.2f}")
    one = {s: v for s, v in r.items() if s != "none" and "," not in s}
    print(f"single axis: step_x_max={max(v['step_x'] for v in one.values()):.2f} "
          f"reset_x_max={max(v['reset_x'] for v in one.values()):.2f}")
    rest = {s: v for s, v in r.items() if s != "none"}
    print(f"all settings: step_x_max={max(v['step_x'] for v in rest.values()):.2f} "
          f"reset_x_max={max(v['reset_x'] for v in rest.values()):.2f}")
