"""One validity batch in a fresh interpreter, timed: what bench/headless_shell.py and bench/no_images.py compare.

`timed_batch(app, n, prelude, env)` plays the validity probes (oracle, noop, near-misses, adversarial and harmless
trajectories, no screenshots) of the first `n` templates' first instances of `app`, 4 workers, in a new Python
process (the runtime keeps its browsers per process), after running `prelude` there; returns its wall seconds."""

from __future__ import annotations

import os
import subprocess
import sys
import time

PLAY = """
import asyncio, sys
from agent_harness.validate import validate_tasks
from gym_core.runtime import Runtime
from tasks.loader import load_tasks
exec(sys.argv[3])
app, n = sys.argv[1], int(sys.argv[2])
tasks = [t for t in load_tasks() if t.app == app and (t.template is None or t.id.endswith("-00"))][:n]
async def run():
    rt = Runtime.current()
    try:
        return await validate_tasks(tasks, workers=4, near_misses=True)
    finally:
        await rt.close()
bad = [r.task_id for r in asyncio.run(run()) if not r.ok]
sys.exit(f"probes failed: {bad}" if bad else 0)
"""


def timed_batch(app: str, n: int, prelude: str = "", env: dict | None = None) -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", PLAY, app, str(n), prelude], check=True, env={**os.environ, **(env or {})})
    return time.perf_counter() - t0
