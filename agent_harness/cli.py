"""The `uigym` command line."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console

app = typer.Typer(help="uigym: a gym for computer-use agents.", no_args_is_help=True, add_completion=False)
tasks_app = typer.Typer(help="List and check tasks.", no_args_is_help=True)
apps_app = typer.Typer(help="Run the cloned apps.", no_args_is_help=True)
app.add_typer(tasks_app, name="tasks")
app.add_typer(apps_app, name="apps")
console = Console()
err = Console(stderr=True)


def fail(msg: str, code: int = 2) -> None:
    err.print(f"[red]error:[/red] {msg}")
    raise typer.Exit(code)


def _select(tasks_glob: str, app_name: str | None = None, split: str | None = None):
    from tasks import TaskLoadError, select_tasks

    try:
        chosen = select_tasks(tasks_glob, app=app_name, split=split)
    except TaskLoadError as e:
        fail(str(e))
    if not chosen:
        fail(f"no task matches {tasks_glob!r}" + (f" in split {split!r}" if split else "") + " (see `uigym tasks list`)")
    return chosen


@app.command("eval")
def eval_cmd(
    agent: str = typer.Option("oracle", help="oracle, noop, random (model agents: see the README)"),
    tasks: str = typer.Option("*", "--tasks", help="glob(s) over task ids, comma separated, e.g. 'mail/*'"),
    split: Optional[str] = typer.Option(None, help="train or test"),
    workers: int = typer.Option(4, min=1, max=64, help="episodes run in parallel"),
    samples: int = typer.Option(1, min=1, help="episodes per task"),
    out: Optional[Path] = typer.Option(None, help="results directory (default runs/<agent>-<time>)"),
    max_steps: Optional[int] = typer.Option(None, min=1, help="override each task's max_steps"),
    no_screenshots: bool = typer.Option(False, help="do not save screenshots"),
):
    """Run an agent over tasks, headless, in parallel; results go to OUT/results.jsonl."""
    from agent_harness.agents import AGENTS, make_agent
    from agent_harness.runner import EvalConfig, run_eval
    from agent_harness.summary import print_summary
    from gym_core.env import EnvConfig
    from gym_core.runtime import Runtime

    chosen = _select(tasks, split=split)
    try:
        make_agent(agent)
    except ValueError as e:
        fail(str(e))
    out = out or Path("runs") / f"{agent}-{dt.datetime.now().strftime('%Y%m%d-%H%M%S')}"
    cfg = EvalConfig(agent=agent, tasks=chosen, out=out, workers=workers, samples=samples,
                     env_config=EnvConfig(max_steps=max_steps), save_screenshots=not no_screenshots)
    console.print(f"[bold]uigym eval[/bold]: agent={agent} tasks={len(chosen)} samples={samples} workers={workers}")

    async def main():
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=console, transient=True) as progress:
            bar = progress.add_task("episodes", total=len(chosen) * samples)
            from agent_harness.runner import read_results

            label = agent
            already = sum(1 for r in read_results(out) if r.get("agent") == label and r["task_id"] in {t.id for t in chosen})
            progress.update(bar, completed=already)
            try:
                return await run_eval(cfg, on_result=lambda r: progress.advance(bar))
            finally:
                await Runtime.current().close()

    rows = asyncio.run(main())
    print_summary(rows, title=f"uigym eval: {agent}")
    errors = [r for r in rows if r.get("error")]
    for r in errors[:5]:
        err.print(f"[yellow]{r['task_id']}[/yellow]: {r['error']}")
    console.print(f"results: {out / 'results.jsonl'}")


@tasks_app.command("list")
def tasks_list(
    app_name: Optional[str] = typer.Option(None, "--app", help="mail, food or crm"),
    tasks: str = typer.Option("*", "--tasks", help="glob over task ids"),
    as_json: bool = typer.Option(False, "--json", help="one JSON object per line"),
):
    """List tasks: id, app, difficulty, split, template."""
    from rich.table import Table

    chosen = _select(tasks, app_name)
    if as_json:
        for t in chosen:
            sys.stdout.write(json.dumps({"id": t.id, "app": t.app, "difficulty": t.difficulty, "split": t.split,
                                         "template": t.template, "goal": t.goal}) + "\n")
        return
    table = Table(title=f"{len(chosen)} tasks")
    for c in ("id", "app", "difficulty", "split", "template"):
        table.add_column(c)
    for t in chosen:
        table.add_row(t.id, t.app, t.difficulty, t.split, t.template or "")
    console.print(table)


@tasks_app.command("check")
def tasks_check():
    """Validate every task file; exit 1 with each problem named (file, task, field, reason)."""
    from tasks.loader import TaskLoadError, load_file, task_files

    problems, count, ids = [], 0, {}
    for path in task_files():
        try:
            for t in load_file(path):
                count += 1
                if t.id in ids:
                    problems.append(f"{path}: duplicate task id {t.id!r} (also in {ids[t.id]})")
                ids[t.id] = path
        except TaskLoadError as e:
            problems.append(str(e))
    for p in problems:
        err.print(f"[red]✗[/red] {p}")
    if problems:
        raise typer.Exit(1)
    console.print(f"[green]✓[/green] {count} tasks in {len(task_files())} files are valid")


@tasks_app.command("generate")
def tasks_generate(
    app_name: Optional[str] = typer.Option(None, "--app", help="mail, food or crm (default: all)"),
    check: bool = typer.Option(False, help="do not write; exit 1 if the committed files differ"),
):
    """Regenerate tasks/<app>/<template>.json from the templates in tasks/templates/<app>/."""
    from apps import available_apps
    from tasks.templates.base import generate

    stale = []
    for name in [app_name] if app_name else available_apps():
        try:
            files = generate(name, write=not check)
        except Exception as e:  # noqa: BLE001 - a template bug is reported with its name
            fail(f"{name}: {type(e).__name__}: {e}")
        for path, tasks in files.items():
            if check:
                current = Path(path).read_text() if Path(path).exists() else ""
                if current != json.dumps(tasks, indent=1, ensure_ascii=False) + "\n":
                    stale.append(path)
            else:
                console.print(f"{path}: {len(tasks)} tasks")
    if check:
        for p in stale:
            err.print(f"[red]stale[/red] {p}")
        if stale:
            raise typer.Exit(1)
        console.print("[green]✓[/green] generated task files are up to date")


@tasks_app.command("validate")
def tasks_validate(
    tasks: str = typer.Option("*", "--tasks", help="glob over task ids"),
    workers: int = typer.Option(4, min=1, max=32),
    no_near_misses: bool = typer.Option(False, help="skip near-miss trajectories"),
):
    """Play each task's oracle (must get 1), noop (0) and near-misses (0) in real browsers."""
    from agent_harness.validate import validate_tasks
    from gym_core.runtime import Runtime

    chosen = _select(tasks)

    async def main():
        try:
            return await validate_tasks(chosen, workers=workers, near_misses=not no_near_misses)
        finally:
            await Runtime.current().close()

    results = asyncio.run(main())
    bad = [r for r in results if not r.ok]
    for r in bad:
        err.print(r.failures())
    probes = sum(len(r.probes) for r in results)
    console.print(f"{len(results) - len(bad)}/{len(results)} tasks valid ({probes} episodes)")
    if bad:
        raise typer.Exit(1)


@apps_app.command("serve")
def apps_serve(
    name: str = typer.Argument(..., help="mail, food or crm"),
    port: int = typer.Option(8000),
    host: str = typer.Option("127.0.0.1"),
):
    """Serve a clone for a person to browse (world 'default', seed 0)."""
    from apps import load_app_module
    from apps.serve import main as serve_main

    try:
        load_app_module(name)
    except (KeyError, ModuleNotFoundError) as e:
        fail(str(e))
    console.print(f"serving {name} on http://{host}:{port}")
    serve_main([name, "--port", str(port), "--host", host])


def _register_feature_commands() -> None:
    import importlib

    from agent_harness.commands import COMMAND_MODULES

    for name in COMMAND_MODULES:
        importlib.import_module(name).register(app)


_register_feature_commands()


def main() -> None:
    app()


if __name__ == "__main__":
    main()
