"""Tool mode against the screen: `python -m bench.tools [--app mail] [--task ID] [--reps 30]`.

One task, both ways, interleaved in this one run so the ratios hold on a noisy machine:
  ui_step_ms       env.step of the task's UI gold solution's steps (click, fill...: act + settle + screenshot),
                   p50 over the steps the oracle plays (a scroll that brings a target into view counts too)
  tool_step_ms     env.step of the task's tool solution's calls (HTTP to the control API, the service, the
                   commit), p50 over its calls
  ui_episode_ms    reset + the whole UI gold solution + done (graded)
  tool_episode_ms  reset + the whole tool solution + done (graded)
Last line: step_ratio=<ui/tool> episode_ratio=<ui/tool> tool_step_p50_ms=<x> ui_step_p50_ms=<x>
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from agent_harness.agents import OracleAgent, ToolOracleAgent
from gym_core import AsyncToolEnv, AsyncUIEnv
from gym_core.runtime import Runtime
from tasks import load_task, select_tasks


def p50(xs: list[float]) -> float:
    return statistics.median(xs)


async def play(env, agent, task) -> tuple[list[float], float]:
    """(per-step seconds, episode seconds) of one episode; it must grade 1."""
    t0 = time.perf_counter()
    obs, _ = await env.reset(task=task)
    await agent.reset(env, task)
    steps = []
    while True:
        action = await agent.act(obs)
        t = time.perf_counter()
        obs, reward, term, trunc, info = await env.step(action)
        if action.get("type") != "done":
            steps.append(time.perf_counter() - t)
        if term or trunc:
            break
    if reward != 1.0:
        raise RuntimeError(f"{task.id}: {type(agent).__name__} scored {reward}: {info.get('verify')}")
    return steps, time.perf_counter() - t0


def pick_task(app: str, task_id: str | None):
    if task_id:
        return load_task(task_id)
    for t in select_tasks(f"{app}/*"):
        if t.tools is not None and len(t.tools.solution) >= 3 and not t.verify.has_judge:  # 2+ calls, then done
            return t
    raise SystemExit(f"no {app} task with a tool solution of two calls or more")


async def main(app: str, task_id: str | None, reps: int) -> dict:
    task = pick_task(app, task_id)
    rt = Runtime.current()
    ui, tools = AsyncUIEnv(app, runtime=rt), AsyncToolEnv(app, runtime=rt)
    await play(ui, OracleAgent(), task)  # warm: snapshot, server, browser, fonts
    await play(tools, ToolOracleAgent(), task)
    ui_steps, tool_steps, ui_eps, tool_eps = [], [], [], []
    for _ in range(reps):
        s, e = await play(ui, OracleAgent(), task)
        ui_steps += s
        ui_eps.append(e)
        s, e = await play(tools, ToolOracleAgent(), task)
        tool_steps += s
        tool_eps.append(e)
    await ui.close()
    await tools.close()
    await rt.close()
    return {"task": task.id, "ui_step_ms": p50(ui_steps) * 1000, "tool_step_ms": p50(tool_steps) * 1000,
            "ui_episode_ms": p50(ui_eps) * 1000, "tool_episode_ms": p50(tool_eps) * 1000,
            "ui_steps": len(ui_steps) // reps, "tool_calls": len(tool_steps) // reps}


def run() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--app", default="mail")
    ap.add_argument("--task", default=None, help="default: the app's first task with a 2+ call tool solution")
    ap.add_argument("--reps", type=int, default=30)
    a = ap.parse_args()
    r = asyncio.run(main(a.app, a.task, a.reps))
    print(f"task {r['task']}: {r['ui_steps']} UI steps, {r['tool_calls']} tool calls per episode")
    for k in ("ui_step_ms", "tool_step_ms", "ui_episode_ms", "tool_episode_ms"):
        print(f"  {k:16s} {r[k]:9.1f}")
    print(f"step_ratio={r['ui_step_ms'] / r['tool_step_ms']:.1f} episode_ratio={r['ui_episode_ms'] / r['tool_episode_ms']:.1f} "
          f"tool_step_p50_ms={r['tool_step_ms']:.1f} ui_step_p50_ms={r['ui_step_ms']:.1f}")


if __name__ == "__main__":
    run()
