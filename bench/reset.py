"""env.reset against its floor, in every app, look and mode, and in the workspace: `python -m bench.reset [--reps 12]`.

A reset's floor is what no reset can go below: the world reset (the control API), one bare `page.goto` of the
episode's start page (a plain context of the same browser, bound to the world by its cookie) and one bare
screenshot. Each env reset is measured interleaved with its floor (reset, floor, reset, floor...), after an
untimed warm-up, so the ratio holds on a noisy machine. Each row gives the p50 of both, the ratio and the env's own
phases (AsyncUIEnv.reset_phases, p50 ms: the last episode's tab parked, the world reset, the page opened, the first
screenshot, the observation built). Modes:
  screen   AsyncUIEnv, screenshot observation (the task's first instance the look carries)
  hybrid   the same with the tools on (the tool list in the reset's info)
  tools    AsyncToolEnv: no browser; its floor is the world reset alone
  workspace  AsyncWorkspaceEnv (screen): the three worlds reset together and the front (mail) tab opened; its
           floor the three world resets side by side, one bare goto of mail's start page and one screenshot
Last line: worst_screen_ratio=<x> worst_tools_ratio=<x> workspace_ratio=<x> (issue 47 asks at most 1.3x).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from apps import app_looks, look_carries
from gym_core import AsyncToolEnv, AsyncUIEnv, EnvConfig
from gym_core.runtime import Runtime
from gym_core.workspace_env import AsyncWorkspaceEnv
from seed_data.workspace import APPS as WS_APPS
from tasks.loader import load_tasks


def p50(xs: list[float]) -> float:
    return statistics.median(xs)


async def timed(fn) -> float:
    t = time.perf_counter()
    await fn()
    return (time.perf_counter() - t) * 1000


class BarePage:
    """A plain tab of the runtime's browser: what a page load and a screenshot cost with nothing of the env's."""

    def __init__(self, rt: Runtime):
        self.rt, self.ctx, self.page = rt, None, None

    async def open(self, width: int, height: int) -> None:
        self.ctx = await (await self.rt.browser()).new_context(viewport={"width": width, "height": height})
        self.page = await self.ctx.new_page()

    async def load(self, url: str, binding: dict) -> None:
        await self.ctx.add_cookies([{"name": binding["name"], "value": binding["value"], "url": url,
                                     "httpOnly": True, "sameSite": "Strict"}])
        await self.page.goto(url)
        await self.page.screenshot()

    async def close(self) -> None:
        if self.ctx is not None:
            await self.ctx.close()


def first_task(app: str, look: str):
    return next(t for t in load_tasks() if t.app == app and t.id.endswith("-00") and look_carries(app, look, t.template))


async def ui_row(rt: Runtime, app: str, look: str, mode: str, reps: int) -> dict:
    task = first_task(app, look)
    env = AsyncUIEnv(app, EnvConfig(look=look, tools=mode == "hybrid"), runtime=rt)
    bare = BarePage(rt)
    default = look == app_looks(app)[0]
    try:
        await env.reset(task=task)  # warm: snapshot built, start state cached, assets in the cache
        await bare.open(env.width, env.height)
        control = rt.control(env.server)
        now = task.now.isoformat() if task.now else None

        async def floor():
            info = await control.reset(env.world_id, task.seed, now, task.fixtures, look=None if default else look)
            await bare.load(env.server.url + task.start_path, info["cookie"])

        await floor()
        resets, floors, phases = [], [], []
        for _ in range(reps):
            resets.append(await timed(lambda: env.reset(task=task)))
            phases.append(env.reset_phases)
            floors.append(await timed(floor))
    finally:
        await bare.close()
        await env.close()
    return {"row": f"{app:4s} {look:10s} {mode:9s}", "reset": p50(resets), "floor": p50(floors),
            "phases": {k: p50([ph[k] for ph in phases]) for k in ("park", "world", "open", "capture", "observe")}}


async def tools_row(rt: Runtime, app: str, reps: int) -> dict:
    task = first_task(app, app_looks(app)[0])
    env = AsyncToolEnv(app, runtime=rt)
    try:
        await env.reset(task=task)
        control = rt.control(env.server)
        now = task.now.isoformat() if task.now else None
        resets, floors = [], []
        for _ in range(reps):
            resets.append(await timed(lambda: env.reset(task=task)))
            floors.append(await timed(lambda: control.reset(env.world_id, task.seed, now, task.fixtures)))
    finally:
        await env.close()
    return {"row": f"{app:4s} {'-':10s} {'tools':9s}", "reset": p50(resets), "floor": p50(floors), "phases": {}}


async def workspace_row(rt: Runtime, reps: int) -> dict:
    ws = AsyncWorkspaceEnv("ui", runtime=rt)
    bare = BarePage(rt)
    try:
        await ws.reset(seed=0)
        mail = ws.envs["mail"]
        await bare.open(mail.width, mail.height)

        async def floor():
            infos = await asyncio.gather(*(
                rt.control(env.server).reset(env.world_id, 0, env.family_now, [], family=env.family)
                for env in ws.envs.values()))
            await bare.load(mail.server.url + "/", dict(zip(WS_APPS, infos))["mail"]["cookie"])

        await floor()
        resets, floors = [], []
        for _ in range(reps):
            resets.append(await timed(lambda: ws.reset(seed=0)))
            floors.append(await timed(floor))
    finally:
        await bare.close()
        await ws.close()
    return {"row": f"{'ws':4s} {'-':10s} {'workspace':9s}", "reset": p50(resets), "floor": p50(floors), "phases": {}}


async def main(reps: int) -> list[dict]:
    rt = Runtime.current()
    rows = []
    try:
        for app in ("mail", "food", "crm"):
            for look in app_looks(app):
                for mode in ("screen", "hybrid"):
                    rows.append(await ui_row(rt, app, look, mode, reps))
                    print_row(rows[-1])
            rows.append(await tools_row(rt, app, reps))
            print_row(rows[-1])
        rows.append(await workspace_row(rt, reps))
        print_row(rows[-1])
    finally:
        await rt.close()
    return rows


def print_row(r: dict) -> None:
    phases = " ".join(f"{k} {v:.0f}" for k, v in r["phases"].items())
    print(f"{r['row']} reset {r['reset']:6.0f} ms  floor {r['floor']:6.0f} ms  {r['reset'] / r['floor']:.2f}x  {phases}",
          flush=True)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=12)
    rows = asyncio.run(main(ap.parse_args().reps))
    ratio = {r["row"].split()[-1]: [] for r in rows}
    for r in rows:
        ratio[r["row"].split()[-1]].append(r["reset"] / r["floor"])
    print(f"worst_screen_ratio={max(ratio['screen'] + ratio['hybrid']):.2f} worst_tools_ratio={max(ratio['tools']):.2f} "
          f"workspace_ratio={max(ratio['workspace']):.2f}")
