"""Workspace benchmark: `python -m bench.workspace [--reps 10]`.

The workspace env (gym_core/workspace_env.py: mail, food and crm in tabs over one workspace world) against the
single-app envs, everything measured in this one run with the measurements interleaved, so the ratios hold on
a noisy machine:
  single_reset_ms[app]  env.reset of a single-app screen env (world reset + page load + screenshot), p50
  ws_reset_ms           env.reset of the workspace screen env: the three worlds reset together, the front
                        (mail) tab's page opened; each other tab's page opens the first time it comes to the front
  ws_first_switch_ms    switch_tab to a tab not yet opened this episode (its page load + screenshot), p50
  ws_switch_ms          switch_tab to a tab already open (a screenshot), p50
  step_ms, ws_step_ms   a step that moves the mouse (settle + screenshot), single mail env and workspace, p50
  tools_reset_ms, ws_tools_reset_ms  the tools envs' reset (no browser): mail alone, and the three worlds
  tool_step_ms, ws_tool_step_ms      one read-only tool call (mail's labels), p50
Last line: ws_reset_ms=<x> reset_ratio=<x> (to the mail env) reset_ratio_sum=<x> (to the three single-app resets
summed) step_ratio=<x> tools_reset_ratio=<x> tool_step_ratio=<x>
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from typing import Any, Awaitable, Callable

from gym_core import AsyncToolEnv, AsyncUIEnv
from gym_core.runtime import Runtime
from gym_core.workspace_env import AsyncWorkspaceEnv
from seed_data.workspace import APPS

MOVE = {"type": "move", "x": 5, "y": 5}
TOOL = ("list_labels", {})


def p50(xs: list[float]) -> float:
    return statistics.median(xs)


async def timed(fn: Callable[[], Awaitable[Any]]) -> float:
    t = time.perf_counter()
    await fn()
    return (time.perf_counter() - t) * 1000


async def main(reps: int) -> dict:
    rt = Runtime.current()
    singles = {app: AsyncUIEnv(app, runtime=rt) for app in APPS}
    ws = AsyncWorkspaceEnv("ui", runtime=rt)
    tool1, ws_tools = AsyncToolEnv("mail", runtime=rt), AsyncWorkspaceEnv("tools", runtime=rt)
    out: dict[str, Any] = {}
    try:
        # Warm-up: servers started, snapshots built, start states cached, every tab's page once in the cache.
        for env in (*singles.values(), tool1, ws_tools):
            await env.reset(seed=0)
        await ws.reset(seed=0)
        for app in APPS[1:]:
            await ws.step({"type": "switch_tab", "tab": app})
        r: dict[str, list[float]] = {k: [] for k in (
            "ws_reset", "ws_first_switch", "ws_switch", "step", "ws_step", "tools_reset", "ws_tools_reset",
            "tool_step", "ws_tool_step", *(f"single_reset_{a}" for a in APPS))}
        for _ in range(reps):
            for app, env in singles.items():
                r[f"single_reset_{app}"].append(await timed(lambda env=env: env.reset(seed=0)))
            r["step"].append(await timed(lambda: singles["mail"].step(MOVE)))
            r["ws_reset"].append(await timed(lambda: ws.reset(seed=0)))
            r["ws_step"].append(await timed(lambda: ws.step(MOVE)))
            r["ws_first_switch"].append(await timed(lambda: ws.step({"type": "switch_tab", "tab": "crm"})))
            r["ws_switch"].append(await timed(lambda: ws.step({"type": "switch_tab", "tab": "mail"})))
            r["tools_reset"].append(await timed(lambda: tool1.reset(seed=0)))
            r["ws_tools_reset"].append(await timed(lambda: ws_tools.reset(seed=0)))
            r["tool_step"].append(await timed(lambda: tool1.step({"type": "tool", "name": TOOL[0], "args": TOOL[1]})))
            r["ws_tool_step"].append(await timed(
                lambda: ws_tools.step({"type": "tool", "name": f"mail_{TOOL[0]}", "args": TOOL[1]})))
        out = {f"{k}_ms": round(p50(v), 1) for k, v in r.items()}
    finally:
        for env in (*singles.values(), ws, tool1, ws_tools):
            await env.close()
        await rt.close()
    single_sum = sum(out[f"single_reset_{a}_ms"] for a in APPS)
    out.update(
        reset_ratio=round(out["ws_reset_ms"] / out["single_reset_mail_ms"], 2),
        reset_ratio_sum=round(out["ws_reset_ms"] / single_sum, 2),
        step_ratio=round(out["ws_step_ms"] / out["step_ms"], 2),
        tools_reset_ratio=round(out["ws_tools_reset_ms"] / out["tools_reset_ms"], 2),
        tool_step_ratio=round(out["ws_tool_step_ms"] / out["tool_step_ms"], 2),
    )
    return out


def run() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=10)
    args = ap.parse_args()
    out = asyncio.run(main(args.reps))
    for k, v in out.items():
        print(f"{k:28s} {v}")
    print(" ".join(f"{k}={out[k]}" for k in ("ws_reset_ms", "reset_ratio", "reset_ratio_sum", "step_ratio",
                                             "tools_reset_ratio", "tool_step_ratio")))


if __name__ == "__main__":
    run()
