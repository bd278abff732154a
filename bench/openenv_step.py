"""Step cost through uigym's OpenEnv server against an in-process step: `python -m bench.openenv_step
[--steps 30] [--rounds 3] [--mode ui|tools]` (run it with .venv-openenv/bin/python: it needs the `openenv` package).

Measured in this one run, on one task of the mail app, the same world and the same pixels on both sides:
  inproc_ms   env.step of uigym's own env (AsyncUIEnv, or AsyncToolEnv with --mode tools) in this process
  openenv_ms  the same action through the OpenEnv client (WebSocket) to uigym's OpenEnv server: the env's step
              there, plus the PNG's base64, the JSON, the socket and the client's pydantic parse of the observation.
              By default the server (openenv_uigym.server.app.build_app under uvicorn) runs on this process's event
              loop, so both sides share one Chromium and one app server and the difference is OpenEnv's layer alone;
              --server subprocess runs `uigym openenv serve` instead (its own Chromium and app server, which on a
              loaded machine get their own share of the cores: noisier)
The action is a click on the first row's star (the page changes in place; clicked again it unstars), or in tools
mode a tool call that reads the inbox. The two sides take turns in rounds (p50 of each side's steps over all
rounds), so the machine's load falls on both alike.
Last line: inproc_ms=<x> openenv_ms=<x> ratio=<x> (target: ratio <= 1.3)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time

TASK = "mail/unread-count-00"  # starts at /inbox; its world is seed 0's
TOOL_ACTION = {"type": "tool", "name": "search_mail", "args": {"query": "in:inbox"}}


async def star_point(env) -> tuple[int, int]:
    loc = env.page.get_by_role("button", name="Star", exact=True).nth(0)
    b = await loc.bounding_box()
    return int(b["x"] + b["width"] / 2), int(b["y"] + b["height"] / 2)


def start_server(mode: str) -> tuple[subprocess.Popen, str]:
    cmd = [sys.executable, "-m", "agent_harness.cli", "openenv", "serve", "--app", "mail", "--mode", mode, "--port", "0",
           "--max-steps", "1000"]  # no episode ends (and is graded) inside the timed steps
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    line = proc.stdout.readline()
    if "url=" not in line:
        proc.kill()
        raise SystemExit(f"the server did not start: {line}{proc.stdout.read()}")
    return proc, line.split("url=")[1].split()[0]


async def start_in_loop(mode: str):
    """The OpenEnv server on this event loop (the sessions use this loop's Runtime, as the in-process env does)."""
    import socket

    import uvicorn

    from openenv_uigym.server.app import build_app
    from openenv_uigym.server.uigym_environment import Settings

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    app = build_app(Settings(app="mail", mode=mode, max_steps=1000))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", ws_per_message_deflate=False,
                                           ws_max_size=100 * 1024 * 1024))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started:
        await asyncio.sleep(0.05)
    return server, task, f"http://127.0.0.1:{sock.getsockname()[1]}"


async def main(steps: int, rounds: int, mode: str, where: str) -> None:
    from gym_core.config import EnvConfig
    from gym_core.env import AsyncUIEnv
    from gym_core.runtime import Runtime
    from gym_core.tool_env import AsyncToolEnv
    from openenv_uigym import UIGymAction, UIGymEnv

    proc = server = None
    if where == "subprocess":
        proc, url = start_server(mode)
    else:
        server, serving, url = await start_in_loop(mode)
    runtime = Runtime.current()
    env = (AsyncToolEnv if mode == "tools" else AsyncUIEnv)("mail", EnvConfig(max_steps=1000), runtime=runtime)
    client = UIGymEnv(base_url=url, message_timeout_s=300)
    try:
        await env.reset(task=TASK)
        action = TOOL_ACTION if mode == "tools" else {"type": "click", **dict(zip("xy", await star_point(env)))}
        await client.connect()
        first = await client.reset(task=TASK)
        assert not first.observation.last_action_error, first.observation
        wire = UIGymAction.model_validate(action)
        inproc: list[float] = []
        served: list[float] = []
        for _ in range(rounds):
            # fresh episodes each round: the step budget is the task's; a star clicked an even number of times is off
            await env.reset(task=TASK)
            await client.reset(task=TASK)
            for _ in range(2):  # warm-up: first paints, caches
                await env.step(action)
                await client.step(wire)
            for _ in range(steps):
                t = time.perf_counter()
                _, _, term, trunc, _ = await env.step(action)
                inproc.append(time.perf_counter() - t)
                if term or trunc:
                    await env.reset(task=TASK)
            for _ in range(steps):
                t = time.perf_counter()
                result = await client.step(wire)
                served.append(time.perf_counter() - t)
                assert not result.observation.last_action_error, result.observation.last_action_error
                if result.done:
                    await client.reset(task=TASK)
        a, b = statistics.median(inproc) * 1000, statistics.median(served) * 1000
        png = len(result.observation.screenshot or "")
        print(f"mode={mode} server={where} steps={len(inproc)}+{len(served)} screenshot_b64_bytes={png}")
        print(f"inproc_ms={a:.1f} openenv_ms={b:.1f} ratio={b / a:.2f}")
    finally:
        try:
            await client.close()
        finally:
            await env.close()
            if server is not None:
                server.should_exit = True
                await serving  # its shutdown closes the sessions, the runtime and the app servers
            else:
                await runtime.close()
                proc.terminate()
                proc.wait(30)


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=10, help="steps per side per round")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--mode", choices=("ui", "tools"), default="ui")
    p.add_argument("--server", choices=("inloop", "subprocess"), default="inloop")
    a = p.parse_args()
    asyncio.run(main(a.steps, a.rounds, a.mode, a.server))
