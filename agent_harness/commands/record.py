"""`uigym record`: human demonstrations from a local web page, in the agent's own action space."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

import typer


def register(app: typer.Typer) -> None:
    @app.command("record")
    def record_cmd(
        task: Optional[str] = typer.Option(None, "--task", help="record this task (again and again: each Done is "
                                                                 "a new demonstration)"),
        tasks: Optional[str] = typer.Option(None, "--tasks", help="queue mode: glob(s) over task ids, comma "
                                                                   "separated; tasks with a passing human "
                                                                   "demonstration in OUT are skipped"),
        annotator: str = typer.Option(os.environ.get("UIGYM_ANNOTATOR") or os.environ.get("USER") or "anonymous",
                                      help="who records (saved with every demonstration; agent 'human:NAME')"),
        out: Path = typer.Option(Path("runs/demos"), help="where demonstrations go (results.jsonl + episodes/), "
                                                           "readable by `uigym report` and `uigym export sft`"),
        split: Optional[str] = typer.Option(None, help="queue mode: only tasks of this split (train or test)"),
        tasks_dir: Optional[Path] = typer.Option(None, help="load tasks from this folder (<dir>/<app>/*.json)"),
        redo: bool = typer.Option(False, help="queue mode: also tasks already demonstrated"),
        max_steps: Optional[int] = typer.Option(None, min=1, help="override each task's max_steps"),
        host: str = typer.Option("127.0.0.1", help="address to serve the page on (0.0.0.0 exposes it to the "
                                                  "network: anyone who reaches it can drive the env)"),
        port: int = typer.Option(8765, help="port of the page (0: a free one)"),
        app_url: Optional[list[str]] = typer.Option(
            None, help="APP=PAGE_URL,CONTROL_URL of an already running clone (`python -m apps.serve APP` prints both "
                       "ports; its token in UIGYM_GYM_TOKEN); repeatable"),
        look: Optional[str] = typer.Option(None, help="the apps' look (`uigym looks`): an id, ids comma-separated, "
                                                      "or 'random' (drawn per episode); default: each app's first"),
        app_module: Optional[list[str]] = typer.Option(None, help="APP=package.module: serve that module under "
                                                                  "the app's name; repeatable"),
    ):
        """Record human demonstrations: a local page shows the live screen at its true size and the goal; clicks,
        drags, scrolls, typing and key chords on it become uigym actions; Done grades and saves the episode."""
        import signal
        import sys

        from rich.console import Console

        from agent_harness.cli import _app_urls, _pairs, fail
        from agent_harness.record import RecordConfig, Recorder, RecordServer
        from gym_core.env import EnvConfig
        from tasks import TaskLoadError, load_task, load_tasks, select_tasks

        console = Console()
        if (task is None) == (tasks is None):
            fail("give --task ID (one task) or --tasks GLOB (a queue)")
        if os.getcwd() not in sys.path and any("." in v for v in (app_module or [])):
            sys.path.insert(0, os.getcwd())  # dotted app modules (test fixtures) live in the working tree
        try:
            pool = load_tasks(tasks_dir) if tasks_dir is not None else None
            if task is not None:
                chosen = [t for t in pool if t.id == task] if pool is not None else [load_task(task)]
            else:
                chosen = select_tasks(tasks, split=split, tasks=pool)
        except TaskLoadError as e:
            fail(str(e))
        if not chosen:
            fail(f"no task matches {task or tasks!r}" + (f" in {tasks_dir}" if tasks_dir else ""))
        cfg = RecordConfig(tasks=chosen, out=out, annotator=annotator, queue=tasks is not None, redo=redo,
                           env_config=EnvConfig(max_steps=max_steps, look=look), app_urls=_app_urls(app_url),
                           app_modules=_pairs(app_module, "--app-module"))
        recorder = Recorder(cfg)
        if cfg.queue:
            console.print(f"[bold]uigym record[/bold]: {len(recorder.todo)} of {len(chosen)} tasks to demonstrate "
                          f"({len(recorder.done_before)} already done) as {annotator} -> {out}")
        else:
            console.print(f"[bold]uigym record[/bold]: {chosen[0].id} as {annotator} -> {out}")
        try:
            server = RecordServer(recorder, host=host, port=port)
        except OSError as e:
            fail(f"cannot listen on {host}:{port}: {e}")
        console.print("starting the environment...")
        try:
            recorder.start()
        except Exception as e:  # noqa: BLE001 - a clone that does not start is the user's to fix
            recorder.close()
            server.httpd.server_close()
            fail(f"could not start the environment: {type(e).__name__}: {e}")
        console.print(f"open [bold]{server.url}[/bold] in a browser (Ctrl-C or Quit on the page stops)")
        if host in ("127.0.0.1", "localhost", "::1"):
            console.print(f"[dim]on a remote machine: ssh -L {server.port}:127.0.0.1:{server.port} HOST, then open "
                          f"http://127.0.0.1:{server.port}/ here[/dim]")
        print(f"UIGYM_RECORD_READY url={server.url}", flush=True)

        def _stop(*_):  # SIGTERM stops like Ctrl-C: the browser and the app servers are closed
            raise KeyboardInterrupt

        signal.signal(signal.SIGTERM, _stop)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.httpd.server_close()
            recorder.close()
        console.print(f"demonstrations passed in this session: {len(recorder.finished_now)}; saved in {out} "
                      f"(`uigym report {out}`, `uigym export sft --runs {out} --out DIR`)")
