"""Episodes in several worker processes on this machine (`uigym eval --workers N --procs P`).

Each process has its own event loop, Chromium and app servers and runs about N/P episodes at once,
taking (task, sample) items from one shared queue, so a fast process simply takes more. Results
come back to the parent, the only writer of results.jsonl. A process that dies (a segfault, the OOM
killer) has the episodes it was running recorded as errors and is replaced while work remains.
"""

from __future__ import annotations

import asyncio
import multiprocessing as mp
import os
import queue as queue_mod
import signal
import time
from pathlib import Path
from typing import Callable

from tasks import Task

POLL_S = 0.05
MAX_RESTARTS_PER_PROC = 2


def split_slots(workers: int, procs: int) -> list[int]:
    """N concurrent episodes over P processes, as evenly as possible (no process gets zero)."""
    procs = max(1, min(procs, workers))
    base, extra = divmod(workers, procs)
    return [base + (1 if i < extra else 0) for i in range(procs)]


def _child_main(cfg, slots: int, idx: int, inq, outq) -> None:
    # Its own process group: if this process dies, the parent ends its app servers and browser with it.
    os.setpgrp()
    asyncio.run(_child(cfg, slots, idx, inq, outq))


def _kill_group(pid: int | None) -> None:
    if not pid:
        return
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


async def _child(cfg, slots: int, idx: int, inq, outq) -> None:
    from agent_harness.episode import EpisodeSlot, close_runtime, make_runtime

    runtime, owned = make_runtime(cfg)
    out = Path(cfg.out)

    async def slot_loop(i: int) -> None:
        slot = EpisodeSlot(cfg, runtime, world_id=f"p{idx}w{i}-{os.getpid()}")
        try:
            while True:
                try:
                    item = inq.get_nowait()
                except queue_mod.Empty:
                    await asyncio.sleep(POLL_S)
                    continue
                if item is None:
                    return
                task, sample = item
                outq.put(("start", idx, task.id, sample))
                row = await slot.run(task, sample, out)
                outq.put(("row", idx, task.id, sample, row))
        finally:
            await slot.close()

    try:
        await asyncio.gather(*(slot_loop(i) for i in range(slots)))
    finally:
        await close_runtime(runtime, owned)
        if not owned:
            await runtime.close()
        outq.put(("exit", idx))


async def run_in_processes(cfg, todo: list[tuple[Task, int]], emit: Callable[[dict], None]) -> None:
    from agent_harness.results import error_row

    ctx = mp.get_context("spawn")  # Playwright, threads and fork do not mix
    inq, outq = ctx.Queue(), ctx.Queue()
    tasks_by_id = {t.id: t for t, _ in todo}
    for item in todo:
        inq.put(item)
    slots = split_slots(cfg.workers, min(cfg.procs, len(todo)))
    for _ in range(sum(slots) + len(slots) * MAX_RESTARTS_PER_PROC):
        inq.put(None)  # one stop signal per slot, replacements included
    out = Path(cfg.out)
    remaining = {(t.id, s) for t, s in todo}
    running: dict[int, dict[tuple[str, int], float]] = {}
    procs: dict[int, mp.Process] = {}
    restarts = 0
    exited: set[int] = set()

    def start(idx: int) -> None:
        p = ctx.Process(target=_child_main, args=(cfg, slots[idx % len(slots)], idx, inq, outq), daemon=True,
                        name=f"uigym-eval-{idx}")
        p.start()
        procs[idx] = p
        running[idx] = {}

    def finish(task_id: str, sample: int, row: dict) -> None:
        if (task_id, sample) in remaining:
            remaining.discard((task_id, sample))
            emit(row)

    for i in range(len(slots)):
        start(i)
    next_idx = len(slots)
    try:
        while remaining:
            try:
                msg = await asyncio.to_thread(outq.get, True, 0.5)
            except queue_mod.Empty:
                msg = None
            if msg is not None:
                kind, idx = msg[0], msg[1]
                if kind == "start":
                    running[idx][(msg[2], msg[3])] = time.time()
                elif kind == "row":
                    running[idx].pop((msg[2], msg[3]), None)
                    finish(msg[2], msg[3], msg[4])
                elif kind == "exit":
                    exited.add(idx)
                continue
            # No message for a while: look for dead processes.
            for idx, p in list(procs.items()):
                if p.is_alive() or idx in exited:
                    continue
                code = p.exitcode
                _kill_group(p.pid)  # what it left running (app servers, Chromium)
                for (task_id, sample), t0 in running.pop(idx, {}).items():
                    finish(task_id, sample, error_row(
                        tasks_by_id[task_id], sample, cfg.label, out,
                        f"WorkerCrashed: the worker process died (exit code {code}) during this episode",
                        seconds=time.time() - t0))
                del procs[idx]
                if remaining and restarts < MAX_RESTARTS_PER_PROC * len(slots):
                    restarts += 1
                    start(next_idx)
                    next_idx += 1
            if remaining and not any(p.is_alive() for p in procs.values()):
                # Every process is gone (or exited on stop signals) yet episodes are unaccounted for.
                for task_id, sample in sorted(remaining):
                    finish(task_id, sample, error_row(tasks_by_id[task_id], sample, cfg.label, out,
                                                      "WorkerCrashed: no worker process was left to run this episode"))
    finally:
        for p in procs.values():
            if p.is_alive():
                p.join(timeout=30)
            if p.is_alive():
                p.terminate()
                p.join(timeout=5)
            _kill_group(p.pid)
        inq.cancel_join_thread()
        outq.cancel_join_thread()
