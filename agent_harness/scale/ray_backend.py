"""Episodes on Ray actors (`uigym eval --ray ADDRESS`), across the machines of a cluster.

Each actor owns a Chromium and its app servers and runs `slots` episodes at once in its own event
loop (an async actor). The driver hands each actor (task, sample) items as slots free up; an actor
writes the episode to a scratch folder on its machine and returns the results row with the
episode's files (trajectory.json and screenshots), which the driver writes under <out>, so
results.jsonl and the episode folders end up in one place whatever machine ran them.

An actor that dies has its running episodes recorded as errors (WorkerCrashed) and is replaced.

ADDRESS: "local" starts a Ray instance in this process (for one machine and tests); "auto" joins the
cluster this machine belongs to (`ray start --head` / `ray start --address=...`); "ray://host:10001"
connects a Ray client. Every machine of the cluster needs uigym installed (the same version), plus
Chromium; see the README, "Evaluate your model" > "Scale".
"""

from __future__ import annotations

import asyncio
import math
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

from tasks import Task


class EpisodeWorkerImpl:
    """The actor's body (wrapped by ray.remote in `_actor_class`); usable without Ray for tests."""

    def __init__(self, cfg, slots: int, actor_id: str):
        self.cfg = cfg
        self.slots = slots
        self.actor_id = actor_id
        self.scratch = Path(tempfile.mkdtemp(prefix=f"uigym-ray-{actor_id}-"))
        self._free: list = []
        self._made = 0
        self._runtime = None
        self._owned = False

    async def _slot(self):
        from agent_harness.episode import EpisodeSlot, make_runtime

        if self._runtime is None:
            self._runtime, self._owned = make_runtime(self.cfg)
        if self._free:
            return self._free.pop()
        self._made += 1
        return EpisodeSlot(self.cfg, self._runtime, world_id=f"ray{self.actor_id}w{self._made}-{os.getpid()}")

    async def run(self, task: Task, sample: int) -> dict:
        from agent_harness.trajectory import episode_dir

        slot = await self._slot()
        try:
            row = await slot.run(task, sample, self.scratch)
        finally:
            self._free.append(slot)
        edir = episode_dir(self.scratch, task.id, sample)
        files = {}
        if edir.exists():
            for f in sorted(edir.iterdir()):
                if f.is_file():
                    files[f.name] = f.read_bytes()
            shutil.rmtree(edir, ignore_errors=True)
        row["worker"] = f"{os.uname().nodename}:{os.getpid()}"
        return {"row": row, "files": files}

    async def node(self) -> str:
        return f"{os.uname().nodename}:{os.getpid()}"

    async def shutdown(self) -> bool:
        from agent_harness.episode import close_runtime

        for slot in self._free:
            try:
                await slot.close()
            except Exception:  # noqa: BLE001
                pass
        self._free = []
        if self._runtime is not None:
            await close_runtime(self._runtime, self._owned)
            if not self._owned:
                await self._runtime.close()
                await asyncio.to_thread(self._runtime.servers.stop_all)
            self._runtime = None
        shutil.rmtree(self.scratch, ignore_errors=True)
        return True


def _actor_class(ray):
    return ray.remote(EpisodeWorkerImpl)


def _connect(address: str, cfg) -> bool:
    """ray.init for the address; True if this call started Ray (so it should shut it down)."""
    import ray

    if ray.is_initialized():
        return False
    # Workers on this machine import uigym and the caller's modules (a test's fixture app) like we do.
    paths = [p for p in sys.path if p and os.path.isdir(p)
             and not p.startswith((sys.prefix, sys.base_prefix))]  # the interpreter's own paths come anyway
    cwd = os.getcwd()
    env_vars = {"PYTHONPATH": os.pathsep.join(dict.fromkeys([cwd] + paths))}
    for var in ("UIGYM_HOME", "UIGYM_CHROMIUM", "UIGYM_GYM_TOKEN", "OPENAI_API_KEY", "UIGYM_API_KEY"):
        if os.environ.get(var):
            env_vars[var] = os.environ[var]
    if address == "local":
        # A Ray started here inherits this environment (quicker than a runtime_env, which costs every
        # actor seconds to set up).
        cpus = max(2, math.ceil(cfg.ray_cpus_per_actor * actor_count(cfg)))
        saved = {k: os.environ.get(k) for k in env_vars}
        os.environ.update(env_vars)
        try:
            ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False, configure_logging=False)
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
    else:
        ray.init(address=address, runtime_env={"env_vars": {k: v for k, v in env_vars.items() if k != "PYTHONPATH"}},
                 log_to_driver=False)
    return True


def actor_count(cfg) -> int:
    return max(1, cfg.procs if cfg.procs > 1 else math.ceil(cfg.workers / 4))


async def run_on_ray(cfg, todo: list[tuple[Task, int]], emit: Callable[[dict], None]) -> None:
    import ray
    from ray.exceptions import GetTimeoutError, RayActorError, RayTaskError

    from agent_harness.results import error_row
    from agent_harness.scale.procs import split_slots
    from agent_harness.trajectory import episode_dir

    n_actors = min(actor_count(cfg), len(todo))
    slots = split_slots(max(cfg.workers, n_actors), n_actors)
    started = _connect(cfg.ray_address, cfg)
    Worker = _actor_class(ray)
    out = Path(cfg.out)
    tasks_by_id = {t.id: t for t, _ in todo}
    pending = list(todo)
    actors: dict[int, object] = {}
    inflight: dict[object, tuple[int, str, int, float]] = {}  # ref -> (actor idx, task id, sample, t0)
    busy: dict[int, int] = {}
    restarts = 0

    def new_actor(i: int) -> None:
        actors[i] = Worker.options(max_concurrency=max(1, slots[i % len(slots)]) + 1,
                                   num_cpus=cfg.ray_cpus_per_actor, max_restarts=0).remote(
            cfg, slots[i % len(slots)], f"{i}")
        busy[i] = 0

    def submit(i: int) -> None:
        while pending and busy[i] < slots[i % len(slots)]:
            task, sample = pending.pop(0)
            ref = actors[i].run.remote(task, sample)
            inflight[ref] = (i, task.id, sample, time.time())
            busy[i] += 1

    def write(row: dict, files: dict[str, bytes]) -> None:
        edir = episode_dir(out, row["task_id"], row.get("sample", 0))
        if files:
            edir.mkdir(parents=True, exist_ok=True)
            for name, data in files.items():
                (edir / name).write_bytes(data)
        emit(row)

    try:
        for i in range(n_actors):
            new_actor(i)
            submit(i)
        while inflight:
            ready, _ = await asyncio.to_thread(ray.wait, list(inflight), num_returns=1, timeout=1.0)
            for ref in ready:
                i, task_id, sample, t0 = inflight.pop(ref)
                busy[i] -= 1
                task = tasks_by_id[task_id]
                try:
                    res = await asyncio.to_thread(ray.get, ref, timeout=60)
                    write(res["row"], res["files"])
                except RayActorError as e:
                    write(error_row(task, sample, cfg.label, out,
                                    f"WorkerCrashed: the Ray actor died during this episode ({str(e).splitlines()[0]})",
                                    seconds=time.time() - t0), {})
                    if actors.get(i) is not None:
                        actors[i] = None
                        # Its other running episodes fail the same way; replace it once they are collected.
                    if not any(v[0] == i for v in inflight.values()) and restarts < 2 * n_actors:
                        restarts += 1
                        new_actor(i)
                except (RayTaskError, GetTimeoutError) as e:
                    write(error_row(task, sample, cfg.label, out, f"RayTaskError: {str(e).splitlines()[0]}",
                                    seconds=time.time() - t0), {})
                if actors.get(i) is not None:
                    submit(i)
            if pending and not inflight:
                live = [i for i, a in actors.items() if a is not None]
                if not live:
                    for task, sample in pending:
                        write(error_row(task, sample, cfg.label, out,
                                        "WorkerCrashed: no Ray actor was left to run this episode"), {})
                    pending.clear()
                for i in live:
                    submit(i)
    finally:
        for a in actors.values():
            if a is None:
                continue
            try:
                await asyncio.to_thread(ray.get, a.shutdown.remote(), timeout=60)
            except Exception:  # noqa: BLE001
                pass
            try:
                ray.kill(a)
            except Exception:  # noqa: BLE001
                pass
        if started:
            ray.shutdown()
