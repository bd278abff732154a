"""Pages without pictures, Blink's way against the request guard's: `python -m bench.no_images [--app food] [--n 12]`.

EnvConfig(images=False) puts the tab in the runtime's second Chromium, launched with Blink's images off, so
its pages never request a picture. Before, the tab was in the one Chromium and the env's request guard paused
and failed each image request (a food page asks for ~90, each a round trip through the DevTools protocol,
Playwright's driver and this process). The validity probes of the first `--n` templates' first instances of
`--app`, 4 workers, once each way in this one run (each in a fresh interpreter), so the ratio holds on a noisy
machine. Last line: blink_s=<x> guard_s=<x> ratio=<blink/guard>
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

PLAY = """
import asyncio, sys
from agent_harness.validate import validate_tasks
from gym_core.runtime import Runtime
from tasks.loader import load_tasks
app, n, way = sys.argv[1], int(sys.argv[2]), sys.argv[3]
if way == "guard":  # the way before: one browser, its image requests failed by the env's guard
    _browser = Runtime.browser
    Runtime.browser = lambda self, images=True: _browser(self)
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


def timed(way: str, app: str, n: int) -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", PLAY, app, str(n), way], check=True)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--app", default="food", choices=["mail", "food", "crm"])
    ap.add_argument("--n", type=int, default=12, help="templates (their first instances)")
    args = ap.parse_args()
    b, g = timed("blink", args.app, args.n), timed("guard", args.app, args.n)
    print(f"blink_s={b:.1f} guard_s={g:.1f} ratio={b / g:.2f}")


if __name__ == "__main__":
    main()
