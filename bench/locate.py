"""How the oracle reads a target before it points at it: one resolution of the role/name query and one read of the
element's geometry (agent_harness/locate.py `locate`), against the five resolutions it made before (wait for the
target, its box, its scroll container, its box again, the overlay check: each a Playwright locator call that runs
the query again over the whole page).

`python -m bench.locate [--n 6] [--reps 5]`: for each app, the first click/fill target of its first `--n` templates'
first instances, on their start pages; each target read both ways, interleaved, `--reps` times, in this one run.
Prints per app the milliseconds per target of each way and their ratio; the last line: before_ms=<x> now_ms=<x>
ratio=<now/before>. Both ways must give the same box (checked).
"""

from __future__ import annotations

import argparse
import asyncio
import time

from agent_harness.locate import box_of, find, locate, locator, scroll_plan, SCROLL_PARENT_JS
from gym_core.env import AsyncUIEnv, EnvConfig
from gym_core.perturb import covering_dismiss
from gym_core.runtime import Runtime
from tasks.loader import load_tasks


async def before(page, target):
    """The five locator calls of the oracle before `locate`."""
    loc = locator(page, target)
    await find(page, target)
    b = await box_of(loc)
    await loc.evaluate(SCROLL_PARENT_JS)
    b = await box_of(loc)
    await covering_dismiss(loc, *b.center)
    return b


async def now(page, target):
    found = await locate(page, target)
    try:
        scroll_plan(found, 4000, 4000)
        await covering_dismiss(found.handle, *found.box.center)
    finally:
        await found.release()
    return found.box


async def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=6)
    p.add_argument("--reps", type=int, default=5)
    args = p.parse_args()
    rt = Runtime.current()
    tb = tn = 0.0
    count = 0
    try:
        for app in ("mail", "food", "crm"):
            env = AsyncUIEnv(None, EnvConfig(screenshots=False, images=False), runtime=rt)
            sb = sn = 0.0
            k = 0
            tasks = [t for t in load_tasks() if t.app == app and t.id.endswith("-00")][:args.n]
            for t in tasks:
                step = next((s for s in t.solution if s.kind in ("click", "fill")), None)
                if step is None:
                    continue
                await env.reset(task=t)
                target = getattr(step, step.kind)
                for _ in range(args.reps):
                    t0 = time.perf_counter()
                    b1 = await before(env.page, target)
                    t1 = time.perf_counter()
                    b2 = await now(env.page, target)
                    t2 = time.perf_counter()
                    assert abs(b1.x - b2.x) < 0.5 and abs(b1.y - b2.y) < 0.5, (t.id, b1, b2)
                    sb, sn, k = sb + t1 - t0, sn + t2 - t1, k + 1
            await env.close()
            print(f"{app}: {k} reads, before {1000 * sb / k:.1f} ms, now {1000 * sn / k:.1f} ms, ratio {sn / sb:.2f}")
            tb, tn, count = tb + sb, tn + sn, count + k
    finally:
        await rt.close()
    print(f"before_ms={1000 * tb / count:.1f} now_ms={1000 * tn / count:.1f} ratio={tn / tb:.2f}")


if __name__ == "__main__":
    asyncio.run(main())
