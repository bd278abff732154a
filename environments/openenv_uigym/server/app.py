"""The OpenEnv server of uigym: `create_app` over UIGymEnvironment, one session per WebSocket (the EnvClient).

    python -m openenv_uigym.server.app --app mail --mode tools --port 8000     # or: uigym openenv serve ...
    UIGYM_OPENENV_APP=mail UIGYM_OPENENV_MODE=ui uvicorn server.app:app       # in the package folder (Dockerfile)

Besides OpenEnv's routes (/ws, /reset, /step, /state, /schema, /metadata, /health), `GET /uigym/stats` says
how many sessions hold an env and how many browser contexts the shared Chromium has open: what a dropped
session must give back. On shutdown the sessions are closed, then the browser and the app servers.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import os
import sys
from pathlib import Path
from typing import Optional

from openenv.core.env_server.http_server import create_app
from openenv.core.env_server.types import ConcurrencyConfig

from gym_core.runtime import Runtime, default_server_pool

try:
    from openenv_uigym.models import UIGymAction, UIGymObservation, UIGymState
    from openenv_uigym.server.uigym_environment import APPS, MODES, Settings, UIGymEnvironment
except ImportError:  # pragma: no cover - run from the package folder (OpenEnv's layout, the Dockerfile)
    from models import UIGymAction, UIGymObservation, UIGymState  # type: ignore[no-redef]
    from server.uigym_environment import APPS, MODES, Settings, UIGymEnvironment  # type: ignore[no-redef]

DEFAULT_MAX_CONCURRENT_ENVS = 64  # a GRPO generation batch
READY = "UIGYM_OPENENV_READY"


def build_app(settings: Settings, *, max_concurrent_envs: int = DEFAULT_MAX_CONCURRENT_ENVS,
              session_timeout_s: Optional[float] = None):
    """The FastAPI app: OpenEnv's routes for sessions of `settings`, plus /uigym/stats and the shutdown."""
    if max_concurrent_envs < 1:
        raise ValueError("max_concurrent_envs must be at least 1")
    concurrency = ConcurrencyConfig(max_concurrent_envs=max_concurrent_envs, session_timeout=session_timeout_s)
    app = create_app(functools.partial(UIGymEnvironment, settings), UIGymAction, UIGymObservation,
                     env_name="uigym", concurrency_config=concurrency, state_cls=UIGymState)

    @app.get("/uigym/stats", tags=["Environment Info"])
    async def stats() -> dict:
        """Sessions holding an env, and the browser contexts open in this server's Chromium (none in tools mode)."""
        contexts = 0
        if settings.mode != "tools":
            runtime = Runtime.current()
            contexts = sum(len(b.contexts) for b in await _browsers(runtime))
        return {"app": settings.app, "mode": settings.mode, "sessions": UIGymEnvironment.live_sessions(),
                "browser_contexts": contexts, "max_concurrent_envs": max_concurrent_envs}

    async def shutdown() -> None:
        for env in list(UIGymEnvironment._live):
            try:
                await env.aclose()
            except Exception:  # noqa: BLE001 - each session closed even if one fails
                pass
        try:
            await Runtime.current().close()
        finally:
            await asyncio.to_thread(default_server_pool().stop_all)

    app.router.on_shutdown.append(shutdown)
    return app


async def _browsers(runtime: Runtime) -> list:
    """The Chromium the sessions share, if one was launched (a stats call launches none)."""
    if runtime.browser_launches == 0:
        return []
    return [await runtime.browser()]


def _settings_from_environ() -> Settings:
    tasks_dir = os.environ.get("UIGYM_OPENENV_TASKS_DIR")
    max_steps = os.environ.get("UIGYM_OPENENV_MAX_STEPS")
    return Settings(app=os.environ.get("UIGYM_OPENENV_APP") or None, mode=os.environ.get("UIGYM_OPENENV_MODE", "ui"),
                    max_steps=int(max_steps) if max_steps else None,
                    a11y_tree=os.environ.get("UIGYM_OPENENV_A11Y", "") in ("1", "true"),
                    set_of_marks=os.environ.get("UIGYM_OPENENV_MARKS", "") in ("1", "true"),
                    tasks_dir=Path(tasks_dir) if tasks_dir else None)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="uigym openenv serve", description="Serve uigym as an OpenEnv environment.")
    # Defaults from the UIGYM_OPENENV_* variables, as the module's `app` takes them (the Dockerfile's).
    p.add_argument("--app", choices=APPS, default=os.environ.get("UIGYM_OPENENV_APP") or None,
                   help="the app served (default: any, each task's own)")
    p.add_argument("--mode", choices=MODES, default=os.environ.get("UIGYM_OPENENV_MODE", "ui"),
                   help="ui (the screen), tools, or hybrid (both)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000, help="0 picks a free port (printed on the ready line)")
    p.add_argument("--max-concurrent-envs", type=int,
                   default=int(os.environ.get("MAX_CONCURRENT_ENVS", DEFAULT_MAX_CONCURRENT_ENVS)),
                   help="sessions at once (at least the trainer's generation batch)")
    p.add_argument("--session-timeout", type=float, default=None, help="close sessions idle this many seconds")
    p.add_argument("--max-steps", type=int, default=None, help="each episode's step budget (default: the task's)")
    p.add_argument("--a11y", action="store_true", help="add the accessibility tree to the observation")
    p.add_argument("--marks", action="store_true", help="add set-of-marks to the observation")
    p.add_argument("--tasks-dir", type=Path, default=None, help="tasks from <dir>/<app>/*.json instead of the bundled")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    import socket

    import uvicorn

    args = parse_args(argv)
    try:
        settings = Settings(app=args.app, mode=args.mode, max_steps=args.max_steps, a11y_tree=args.a11y,
                            set_of_marks=args.marks, tasks_dir=args.tasks_dir)
        application = build_app(settings, max_concurrent_envs=args.max_concurrent_envs,
                                session_timeout_s=args.session_timeout)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((args.host, args.port))
    except OSError as e:
        print(f"error: cannot listen on {args.host}:{args.port}: {e.strerror}", file=sys.stderr)
        return 2
    url = f"http://{args.host}:{sock.getsockname()[1]}"
    print(f"{READY} url={url} app={settings.app or 'any'} mode={settings.mode} "
          f"max_concurrent_envs={args.max_concurrent_envs}", flush=True)
    # No per-message deflate: a screenshot is a PNG (compressed already) in base64, which deflate hardly shrinks
    # and would cost every step a compression and a decompression.
    config = uvicorn.Config(application, log_level="warning", ws_max_size=100 * 1024 * 1024,
                            ws_per_message_deflate=False)
    uvicorn.Server(config).run(sockets=[sock])
    return 0


# `uvicorn server.app:app` (OpenEnv's layout; the Dockerfile): settings from UIGYM_OPENENV_* variables.
app = build_app(_settings_from_environ(),
                max_concurrent_envs=int(os.environ.get("MAX_CONCURRENT_ENVS", DEFAULT_MAX_CONCURRENT_ENVS)))

if __name__ == "__main__":
    sys.exit(main())
