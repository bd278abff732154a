"""Serve one clone: `python -m apps.serve mail [--port 0] [--host 127.0.0.1]`.

Prints `UIGYM_READY port=<n>` once listening, so a parent process (the env) can find the port.
The control token is read from UIGYM_GYM_TOKEN.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
import time

from werkzeug.serving import make_server

from apps import load_app_module


def _exit_with_parent(server) -> None:
    """A server started by the gym (`--with-parent`) stops when the gym's process is gone, even if it
    was killed without a chance to stop its children (an orphan is re-parented, so getppid changes)."""
    parent = os.getppid()

    def watch():
        while os.getppid() == parent:
            time.sleep(1.0)
        server.shutdown()

    threading.Thread(target=watch, daemon=True).start()


class _Terminated(Exception):
    pass


def _stop_on_sigterm(signum, frame) -> None:
    raise _Terminated


def main(argv: list[str] | None = None) -> None:
    # SIGTERM (`docker stop`, a parent's terminate) ends the server at once, also while it starts. As a
    # container's PID 1 the process would otherwise ignore it (the kernel drops signals PID 1 has no handler
    # for) until the SIGKILL that follows 10 s later.
    signal.signal(signal.SIGTERM, _stop_on_sigterm)
    try:
        _serve(argv)
    except _Terminated:
        # Worlds are SQLite files, committed request by request: nothing is left to write. Skip the
        # interpreter's teardown, which spends 2-3 s collecting the seed data's objects.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)


def _serve(argv: list[str] | None) -> None:
    p = argparse.ArgumentParser(prog="python -m apps.serve")
    p.add_argument("app")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--home", default=None, help="where worlds and snapshots live (default $UIGYM_HOME)")
    p.add_argument("--quiet", action="store_true")
    p.add_argument("--with-parent", action="store_true", help="exit when the process that started it exits")
    args = p.parse_args(argv)
    try:
        mod = load_app_module(args.app)
    except KeyError as e:
        sys.exit(str(e.args[0]))
    config = {"UIGYM_HOME": args.home} if args.home else {}
    app = mod.create_app(config)
    if args.quiet:
        logging.getLogger("werkzeug").setLevel(logging.WARNING)
    server = make_server(args.host, args.port, app, threaded=True)
    if args.with_parent:
        _exit_with_parent(server)
    print(f"UIGYM_READY port={server.server_port}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
