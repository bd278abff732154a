"""Chromium's headless shell against the full browser: `python -m bench.headless_shell [--app crm] [--n 12]`.

The validity probes (oracle, noop, near-misses, adversarial and harmless trajectories, no screenshots) of the
first `--n` templates' first instances of `--app`, played with 4 workers, once in each browser, in this one
run (each in a fresh interpreter: the runtime keeps one browser per process), so the ratio holds on a
noisy machine. Last line: shell_s=<x> full_s=<x> ratio=<shell/full>
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time

PLAY = """
import asyncio, sys
from agent_harness.validate import validate_tasks
from gym_core.runtime import Runtime
from tasks.loader import load_tasks
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


def timed(exe: str, app: str, n: int) -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", PLAY, app, str(n)], check=True, env={**os.environ, "UIGYM_CHROMIUM": exe})
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--app", default="crm", choices=["mail", "food", "crm"])
    ap.add_argument("--n", type=int, default=12, help="templates (their first instances)")
    args = ap.parse_args()
    shell, full = shutil.which("chromium-headless-shell"), shutil.which("chromium")
    if not (shell and full):
        sys.exit("needs both chromium-headless-shell and chromium on PATH (apt-get install chromium chromium-headless-shell)")
    s, f = timed(shell, args.app, args.n), timed(full, args.app, args.n)
    print(f"shell_s={s:.1f} full_s={f:.1f} ratio={s / f:.2f}")


if __name__ == "__main__":
    main()
