"""`uigym rescore RUN`: grade a run's saved end states again with the current verifiers (no replay)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Optional

import typer


def register(app: typer.Typer) -> None:
    @app.command("rescore")
    def rescore_cmd(
        run: Path = typer.Argument(..., help="an eval output folder (results.jsonl, episodes/*/end_written.json.gz)"),
        out: Optional[Path] = typer.Option(None, help="the new results file (default: RUN/results.rescored.jsonl)"),
        overwrite: bool = typer.Option(False, help="replace --out if it exists (refused otherwise)"),
        tasks_dir: Optional[Path] = typer.Option(None, help="task specs from this folder (<dir>/<app>/*.json) "
                                                            "instead of the bundled ones"),
        app_module: Optional[list[str]] = typer.Option(None, help="APP=package.module: serve that module under "
                                                                  "the app's name (as the eval did)"),
    ):
        """Grade every episode again with the tasks' current verify specs, from the end state each episode saved
        (the tables it wrote, its answer, its steps), and say which verdicts changed."""
        from rich.console import Console

        from agent_harness.cli import _pairs, fail
        from agent_harness.report.rescore import rescore_run, verdict, write_rescored
        from agent_harness.results import RESULTS, latest_results, read_results
        from grading.judge import judge_from_env
        from gym_core.runtime import Runtime
        from gym_core.server import ServerPool
        from tasks import TaskLoadError, load_task, load_tasks

        if not (run / RESULTS).exists():
            raise typer.BadParameter(f"{run} has no {RESULTS} (is it an eval output folder?)", param_hint="RUN")
        out = out or run / "results.rescored.jsonl"
        if out.exists() and not overwrite:
            fail(f"{out} exists: pass --out for another file, or --overwrite to replace it")
        ids = sorted({r["task_id"] for r in latest_results(read_results(run))})
        try:
            pool = {t.id: t for t in load_tasks(tasks_dir)} if tasks_dir is not None else None
        except TaskLoadError as e:
            fail(str(e))
        tasks = {}
        for tid in ids:
            try:
                tasks[tid] = pool[tid] if pool is not None else load_task(tid)
            except (KeyError, TaskLoadError):
                pass  # listed as not rescored

        async def go():
            modules = _pairs(app_module, "--app-module")
            runtime = Runtime(servers=ServerPool(modules=modules)) if modules else Runtime.current()
            try:
                return await rescore_run(run, tasks, runtime, judge=judge_from_env())
            finally:
                await runtime.close()
                if modules:
                    await asyncio.to_thread(runtime.servers.stop_all)

        result = asyncio.run(go())
        console = Console()
        for old, new in result.changed:
            console.print(f"changed: {old['task_id']} s{old.get('sample', 0)}: {verdict(old)} -> {verdict(new)} "
                          f"(reward {old.get('reward', 0):.2f} -> {new['reward']:.2f})", markup=False, highlight=False)
        for row, why in result.skipped:
            console.print(f"not rescored: {row['task_id']} s{row.get('sample', 0)}: {why}", markup=False,
                          highlight=False, style="yellow")
        write_rescored(result.rows, out, overwrite=overwrite)
        n = len(result.rows) - len(result.skipped)
        console.print(f"{n} episodes rescored, {len(result.changed)} verdicts changed, {len(result.skipped)} not "
                      f"rescored; new results: {out}", markup=False, highlight=False)
