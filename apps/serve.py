"""Serve one clone: `python -m apps.serve mail [--port 0] [--control-port 0] [--host 127.0.0.1]`.

Two listeners: the app's pages on --port, its control API (apps/_shared/control.py) on --control-port, so
no page can address the control API. Prints `UIGYM_READY port=<n> control_port=<m>` once both listen, so a
parent process (the env) can find them. The control token is read from UIGYM_GYM_TOKEN.
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


def _exit_with_parent(*servers) -> None:
    """A server started by the gym (`--with-parent`) stops when the gym's process is gone, even if it
    was killed without a chance to stop its children (an orphan is re-parented, so getppid changes)."""
    parent = os.getppid()

    def watch():
        while os.getppid() == parent:
            time.sleep(1.0)
        for server in servers:
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
    p.add_argument("--port", type=int, default=0, help="the pages' port (0: any free one)")
    p.add_argument("--control-port", type=int, default=0, help="the control API's port (0: any free one)")
    p.add_argument("--control-host", default=None, help="the control API's interface (default: --host)")
    p.add_argument("--browse", action="store_true",
                   help="for a person with a browser: a request without a world cookie sees the `default` world")
    p.add_argument("--look", default=None,
                   help="the look of a request whose world binding names none (--browse); default: the app's first")
    p.add_argument("--home", default=None, help="where worlds and snapshots live (default $UIGYM_HOME)")
    p.add_argument("--quiet", action="store_true")
    p.add_argument("--with-parent", action="store_true", help="exit when the process that started it exits")
    args = p.parse_args(argv)
    try:
        mod = load_app_module(args.app)
    except KeyError as e:
        sys.exit(str(e.args[0]))
    config: dict = {"UIGYM_HOME": args.home} if args.home else {}
    if args.browse:
        config["OPEN_DEFAULT_WORLD"] = True
    if args.look:
        looks = mod.SPEC.look_ids()
        if args.look not in looks:
            sys.exit(f"{args.app} has no look {args.look!r}; its looks: {' '.join(looks)}")
        config["UIGYM_LOOK"] = args.look
    app = mod.create_app(config)
    if args.quiet:
        logging.getLogger("werkzeug").setLevel(logging.WARNING)
    server = make_server(args.host, args.port, app, threaded=True)
    control = make_server(args.control_host or args.host, args.control_port, app.extensions["uigym_control"],
                          threaded=True)
    if args.with_parent:
        _exit_with_parent(server, control)
    threading.Thread(target=control.serve_forever, daemon=True).start()
    print(f"UIGYM_READY port={server.server_port} control_port={control.server_port}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        control.shutdown()


if __name__ == "__main__":
    main()
