"""The eval runner: episodes in parallel, results streamed to one results.jsonl.

Each finished episode is appended to <out>/results.jsonl at once (a crash loses nothing done), and
a rerun with the same <out> skips episodes already there (`retry_errors` reruns the ones that
ended without a grade: an error, or ungraded). An episode that crashes (browser, app server, agent, model endpoint) is
recorded with its error and the worker carries on with a fresh env.

Where episodes run (`EvalConfig`):
- `workers`: how many episodes run at once, in total.
- `procs=1` (default): all of them as asyncio tasks in this process, over one Chromium.
- `procs=P>1`: P worker processes on this machine, each with its own Chromium and app servers,
  running workers/P episodes at once (agent_harness.scale.procs).
- `ray_address`: P Ray actors (default ceil(workers/4)), each owning a Chromium and app servers,
  anywhere in the cluster (agent_harness.scale.ray_backend).
`mode`: "ui" (the screen), "tools" (the app's tools, no browser: the oracle plays each task's tool plan and
`openai` is a function-calling model, text-only ones included) or "hybrid" (the screen and the tools).

In every case this process alone writes results.jsonl and the episode folders, as results stream
back; a worker process or actor that dies has its running episodes recorded as errors, and is
replaced.

`run_eval` is the API; `run_eval_with_progress` is what `uigym eval` calls: the same run behind a rich
progress bar counting passed, failed-with-error and ungraded episodes (those of an earlier run included).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Callable

from rich.console import Console

from agent_harness.episode import EpisodeSlot, EvalConfig, close_runtime, make_runtime
from agent_harness.results import ResultsWriter, is_graded, latest_results, needs_rerun, read_results
from agent_harness.scale.procs import run_in_processes
from agent_harness.scale.ray_backend import run_on_ray
from gym_core.runtime import Runtime
from tasks import Task


def _key(task_id: str, sample: int) -> str:
    return f"{task_id}#{sample}"


def finished_rows(cfg: EvalConfig) -> list[dict]:
    """The rows of this run's (task, sample) pairs that results.jsonl already holds and that it does not
    play again (`results.needs_rerun`)."""
    planned = {_key(t.id, s) for t in cfg.tasks for s in range(cfg.samples)}
    rows = latest_results([r for r in read_results(cfg.out) if r.get("agent") == cfg.label])
    return [r for r in rows if _key(r["task_id"], r.get("sample", 0)) in planned
            and not needs_rerun(r, cfg.retry_errors)]


def todo_items(cfg: EvalConfig) -> list[tuple[Task, int]]:
    """The (task, sample) pairs this run still has to do, given what results.jsonl holds."""
    done = {_key(r["task_id"], r.get("sample", 0)) for r in finished_rows(cfg)}
    return [(t, s) for t in cfg.tasks for s in range(cfg.samples) if _key(t.id, s) not in done]


async def _run_in_process(cfg: EvalConfig, todo: list[tuple[Task, int]], emit: Callable[[dict], None],
                          runtime: Runtime | None = None) -> None:
    out = Path(cfg.out)
    queue: asyncio.Queue = asyncio.Queue()
    for item in todo:
        queue.put_nowait(item)
    runtime, owned = (runtime, False) if runtime is not None else make_runtime(cfg)

    async def worker(i: int) -> None:
        slot = EpisodeSlot(cfg, runtime, world_id=f"eval{i}-{id(cfg) % 100000}")
        try:
            while True:
                try:
                    task, sample = queue.get_nowait()
                except asyncio.QueueEmpty:
                    return
                emit(await slot.run(task, sample, out))
        finally:
            await slot.close()

    try:
        await asyncio.gather(*(worker(i) for i in range(max(1, min(cfg.workers, len(todo) or 1)))))
    finally:
        await close_runtime(runtime, owned)


async def run_eval(cfg: EvalConfig, on_result: Callable[[dict], None] | None = None,
                   runtime: Runtime | None = None) -> list[dict]:
    """Run every (task, sample) not yet in results.jsonl; return the results for these tasks.

    `runtime`: the in-process runner's Chromium and app servers (default: this loop's, or a private
    one when `app_urls`/`app_modules` are set); worker processes and Ray actors make their own."""
    out = Path(cfg.out)
    out.mkdir(parents=True, exist_ok=True)
    todo = todo_items(cfg)
    writer = ResultsWriter(out)

    def emit(row: dict) -> None:
        writer.append(row)
        if on_result:
            on_result(row)

    if todo:
        if cfg.ray_address:
            await run_on_ray(cfg, todo, emit)
        elif cfg.procs > 1:
            await run_in_processes(cfg, todo, emit)
        else:
            await _run_in_process(cfg, todo, emit, runtime)
    ids = {t.id for t in cfg.tasks}
    return [r for r in latest_results(read_results(out)) if r.get("agent") == cfg.label and r["task_id"] in ids]


def run_eval_with_progress(cfg: EvalConfig, console: Console) -> list[dict]:
    """`run_eval` in its own event loop behind a progress bar on `console` (episodes passed, with an error,
    ungraded; finished ones of an earlier run counted from the start); closes the loop's Chromium and app
    servers at the end. Returns what `run_eval` returns."""
    from rich.progress import (
        BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn,
    )

    done = finished_rows(cfg)
    counts = {"passed": 0, "errors": 0, "ungraded": 0}

    def count(r: dict) -> None:
        counts["passed"] += bool(r.get("passed"))
        counts["errors"] += bool(r.get("error"))
        counts["ungraded"] += not is_graded(r)

    def describe() -> str:
        return (f"episodes [green]{counts['passed']} passed[/green] [red]{counts['errors']} errors[/red]"
                + (f" [yellow]{counts['ungraded']} ungraded[/yellow]" if counts["ungraded"] else ""))

    for r in done:
        count(r)

    async def main() -> list[dict]:
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      TimeRemainingColumn(), console=console, transient=True) as progress:
            bar = progress.add_task(describe(), total=len(cfg.tasks) * cfg.samples, completed=len(done))

            def on_result(r: dict) -> None:
                count(r)
                progress.update(bar, advance=1, description=describe())

            try:
                return await run_eval(cfg, on_result=on_result)
            finally:
                await Runtime.current().close()

    return asyncio.run(main())
