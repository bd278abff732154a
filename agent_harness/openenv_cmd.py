"""`uigym openenv serve`: uigym as an OpenEnv environment server (environments/openenv_uigym).

The server needs the `openenv` package, which pins libraries uigym's own venv does not hold (gradio, fastmcp<4,
fastapi): it lives in its own venv, `.venv-openenv` (scripts/setup_openenv.sh). This command runs the server
with that venv's Python (or this one, where `openenv` and the env package are importable here), so
`uigym openenv serve` works from uigym's venv as from any.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from typing import Optional

import typer

SERVER_MODULE = "openenv_uigym.server.app"
OPENENV_VENV = ".venv-openenv"

openenv_app = typer.Typer(help="uigym as an OpenEnv environment (environments/openenv_uigym; TRL's environment_factory)",
                          no_args_is_help=True)


def openenv_python() -> str | None:
    """The Python that can run the server: $UIGYM_OPENENV_PYTHON, this one if it has `openenv` and the env
    package, else the checkout's .venv-openenv."""
    explicit = os.environ.get("UIGYM_OPENENV_PYTHON")
    if explicit:
        return explicit
    if importlib.util.find_spec("openenv") is not None and importlib.util.find_spec("openenv_uigym") is not None:
        return sys.executable
    venv = Path(__file__).resolve().parent.parent / OPENENV_VENV / "bin" / "python"
    return str(venv) if venv.exists() else None


@openenv_app.command("serve")
def serve(
    app_name: Optional[str] = typer.Option(None, "--app", help="mail, food or crm (default: any; each task's own app)"),
    mode: str = typer.Option("ui", help="ui (the screen), tools (the app's tools), or hybrid (both)"),
    host: str = typer.Option("127.0.0.1"),
    port: int = typer.Option(8000, help="0 picks a free port (printed as UIGYM_OPENENV_READY url=...)"),
    max_concurrent_envs: int = typer.Option(64, min=1, help="sessions at once: at least the trainer's generation "
                                                           "batch"),
    session_timeout: Optional[float] = typer.Option(None, min=1, help="close a session idle this many seconds"),
    max_steps: Optional[int] = typer.Option(None, min=1, help="each episode's step budget (default: the task's)"),
    a11y: bool = typer.Option(False, "--a11y", help="add the accessibility tree to the observation"),
    marks: bool = typer.Option(False, "--marks", help="add set-of-marks to the observation"),
    tasks_dir: Optional[Path] = typer.Option(None, help="tasks from <dir>/<app>/*.json instead of the bundled ones"),
):
    """Serve uigym over OpenEnv's protocol (WebSocket sessions, /reset, /step, /state, /schema, /health): each
    session is one episode at a time in its own world, all sessions sharing one Chromium. Reset options: task,
    tasks, split, seed."""
    if app_name is not None and app_name not in ("mail", "food", "crm"):
        raise typer.BadParameter("mail, food or crm", param_hint="--app")
    if mode not in ("ui", "tools", "hybrid"):
        raise typer.BadParameter("ui, tools or hybrid", param_hint="--mode")
    if tasks_dir is not None and not tasks_dir.is_dir():
        raise typer.BadParameter(f"{tasks_dir} is not a folder", param_hint="--tasks-dir")
    python = openenv_python()
    if python is None:
        typer.echo(f"error: the OpenEnv server needs the `openenv` package: run `bash scripts/setup_openenv.sh` "
                   f"(it makes {OPENENV_VENV}), or set UIGYM_OPENENV_PYTHON to a Python that has openenv and "
                   f"openenv_uigym", err=True)
        raise typer.Exit(2)
    argv = [python, "-m", SERVER_MODULE, "--mode", mode, "--host", host, "--port", str(port),
            "--max-concurrent-envs", str(max_concurrent_envs)]
    for flag, value in (("--app", app_name), ("--session-timeout", session_timeout), ("--max-steps", max_steps),
                        ("--tasks-dir", tasks_dir)):
        if value is not None:
            argv += [flag, str(value)]
    argv += ["--a11y"] * a11y + ["--marks"] * marks
    sys.stdout.flush()
    os.execv(python, argv)


def register(app: typer.Typer) -> None:
    app.add_typer(openenv_app, name="openenv")
