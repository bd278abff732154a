"""App servers: start a clone as a subprocess on free ports (or point at a running one by URL)
and talk to its control API, which listens on a port of its own (apps/_shared/control.py)."""

from __future__ import annotations

import asyncio
import atexit
import os
import secrets
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx

from apps.tool_args import MalformedArgs, encode_args, unknown_tool_message

PACKAGE_ROOT = Path(__file__).resolve().parents[1]  # holds apps/ (a checkout, or site-packages)

READY_PREFIX = "UIGYM_READY "


class ToolCallError(ValueError):
    """A tool call the app refused (422), or that the client refused before sending it: unknown tool, bad
    arguments, unknown id. The world is unchanged."""


class InvalidToolArguments(ToolCallError):
    """Arguments no tool could take (apps/tool_args.py's `encode_args`: not plain JSON, too deep, an
    integer beyond SQLite's range, a string that is not Unicode, too big), refused before they were sent."""


class ServerError(RuntimeError):
    pass


def split_app_url(value: str) -> tuple[str, str]:
    """`PAGE_URL,CONTROL_URL` (what `--app-url APP=...` takes) -> the two origins.

    A clone served by hand (`python -m apps.serve mail --port 5001 --control-port 5002`) has two: the
    pages', which the browser opens, and the control API's, which only the gym calls."""
    parts = [p.strip().rstrip("/") for p in value.split(",")]
    if len(parts) != 2 or not all(p.startswith(("http://", "https://")) for p in parts):
        raise ValueError(f"{value!r}: give the pages' URL and the control API's URL, comma-separated, e.g. "
                         "http://127.0.0.1:5001,http://127.0.0.1:5002 (apps.serve prints both ports)")
    return parts[0], parts[1]


class AppServer:
    """One running clone. `url` is its pages' origin, `control_url` its control API's, `token` opens the
    control API."""

    def __init__(self, app: str, *, url: str | None = None, control_url: str | None = None,
                 token: str | None = None, home: str | None = None, module: str | None = None):
        if (url is None) != (control_url is None):
            raise ValueError("a running clone needs both its pages' URL and its control API's URL")
        self.app = app
        self.module = module  # serve this module (dotted path) under the app's name, e.g. a test fixture app
        self.home = home or os.environ.get("UIGYM_HOME")
        self.token = token or os.environ.get("UIGYM_GYM_TOKEN") or secrets.token_hex(16)
        self.external = url is not None
        self.url = url.rstrip("/") if url else ""
        self.control_url = control_url.rstrip("/") if control_url else ""
        self.proc: subprocess.Popen | None = None
        self._drainer: threading.Thread | None = None
        self._lock = threading.RLock()  # start, and ensure_alive's check-then-restart (which calls start)
        self._log_path: Path | None = None
        self.tool_names: tuple[str, ...] | None = None  # the app's tools, listed once (ControlClient.call_tool)

    # ---------------------------------------------------------------- lifecycle
    def start(self, timeout: float = 60.0) -> "AppServer":
        with self._lock:
            if self.external or self.alive():
                return self
            env = dict(os.environ, UIGYM_GYM_TOKEN=self.token, PYTHONUNBUFFERED="1")
            if self.home:
                env["UIGYM_HOME"] = str(self.home)
            cmd = [sys.executable, "-m", "apps.serve", self.module or self.app, "--port", "0", "--quiet", "--with-parent"]
            # Run from the package's root, not the caller's folder: `python -m` puts its folder first on
            # sys.path, so a script there named like a stdlib module (html.py) would be imported by Flask.
            self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True,
                                         cwd=PACKAGE_ROOT)
            ports = self._wait_ready(timeout)
            self.url = f"http://127.0.0.1:{ports['port']}"
            self.control_url = f"http://127.0.0.1:{ports['control_port']}"
            # Keep draining stderr so the child never blocks on a full pipe; keep the tail for errors.
            self._drainer = threading.Thread(target=self._drain, args=(self.proc,), daemon=True)
            self._drainer.start()
            return self

    def _wait_ready(self, timeout: float) -> dict[str, int]:
        assert self.proc and self.proc.stdout
        deadline = time.monotonic() + timeout
        result: list[str] = []

        def read():
            line = self.proc.stdout.readline()
            result.append(line)

        t = threading.Thread(target=read, daemon=True)
        t.start()
        t.join(max(0.0, deadline - time.monotonic()))
        line = result[0] if result else ""
        if not line.startswith(READY_PREFIX):
            err = ""
            if self.proc.poll() is not None and self.proc.stderr:
                err = self.proc.stderr.read()[-2000:]
            self.stop()
            raise ServerError(f"the {self.app} app server did not start{': ' + err if err else ''}")
        return {k: int(v) for k, v in (kv.split("=", 1) for kv in line[len(READY_PREFIX):].split())}

    @staticmethod
    def _drain(proc: subprocess.Popen) -> None:
        try:
            for _ in proc.stderr:
                pass
        except (ValueError, OSError):  # the pipe was closed under us (stop() gave up waiting)
            pass

    def alive(self) -> bool:
        if self.external:
            return True
        return self.proc is not None and self.proc.poll() is None

    def ensure_alive(self) -> bool:
        """Restart a crashed server (worlds live on disk, so they survive). True if it restarted."""
        with self._lock:  # two callers that found it dead restart it once, not one over the other's restart
            if self.alive():
                return False
            self.stop()  # reap the dead one and close its pipes
            self.start()
            return True

    def stop(self) -> None:
        """Stop the server and wait for it; its pipes are closed and its stderr reader joined (a
        Popen's pipes left open are a ResourceWarning, a process not waited for a zombie)."""
        proc, self.proc = self.proc, None
        drainer, self._drainer = self._drainer, None
        if proc is None:
            return
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if drainer is not None:
            drainer.join(5)  # the pipe reaches EOF once the server is gone
        for pipe in (proc.stdout, proc.stderr, proc.stdin):
            if pipe is not None:
                pipe.close()

    # -------------------------------------------------------------- control API
    @property
    def headers(self) -> dict[str, str]:
        return {"X-Gym-Token": self.token}


class ServerPool:
    """The app servers of this process, one per app, started on first use, stopped at exit."""

    def __init__(self, home: str | None = None, urls: dict[str, str] | None = None, token: str | None = None,
                 modules: dict[str, str] | None = None):
        """`urls`: app -> "PAGE_URL,CONTROL_URL" of a clone already running (see `split_app_url`)."""
        self.home = home
        self.urls = {app: split_app_url(v) for app, v in (urls or {}).items()}
        self.modules = modules or {}
        self.token = token
        self._servers: dict[str, AppServer] = {}
        self._lock = threading.Lock()
        atexit.register(self.stop_all)

    def get(self, app: str) -> AppServer:
        with self._lock:
            srv = self._servers.get(app)
            if srv is None:
                page, control = self.urls.get(app, (None, None))
                srv = AppServer(app, url=page, control_url=control, token=self.token, home=self.home,
                                module=self.modules.get(app))
                self._servers[app] = srv
        srv.start()
        return srv

    def add(self, server: AppServer) -> None:
        """Use `server`, already running (e.g. in the caller's own process), for its app."""
        with self._lock:
            self._servers[server.app] = server

    def page_urls(self) -> list[str]:
        """The pages' origins of the servers in use (what the browser may load)."""
        with self._lock:
            return [s.url for s in self._servers.values() if s.url]

    def stop_all(self) -> None:
        with self._lock:
            servers, self._servers = list(self._servers.values()), {}
        for s in servers:
            s.stop()

    def close(self) -> None:
        """stop_all, and forget the exit hook (a pool closed before exit is not kept alive by it)."""
        self.stop_all()
        atexit.unregister(self.stop_all)


class ControlClient:
    """Async client of one server's control API."""

    def __init__(self, server: AppServer, client: httpx.AsyncClient):
        self.server = server
        self.client = client

    async def _call(self, method: str, path: str, **kw) -> dict:
        extra, reached = kw.pop("headers", {}), self.server.control_url
        try:
            r = await self._send(method, path, extra, kw)
        except httpx.ConnectError:
            # The app server is gone (it crashed): nothing reached it, so the request is sent again to the server
            # restarted on new ports (here, or by another caller meanwhile), over the same world files. One that
            # is not restarted (an external server) is a ServerError, as any failure of the app is.
            restarted = await asyncio.to_thread(self.server.ensure_alive)
            if not restarted and self.server.control_url == reached:
                raise ServerError(f"the {self.server.app} app server cannot be reached at {reached}") from None
            r = await self._send(method, path, extra, kw)
        if r.status_code == 422 and "/tools/" in path:
            raise ToolCallError(r.json().get("error", r.text))
        if r.status_code != 200:
            try:
                msg = r.json().get("error", r.text)
            except Exception:
                msg = r.text[:500]
            raise ServerError(f"{method} {path} -> {r.status_code}: {msg}")
        return r.json()

    async def _send(self, method: str, path: str, headers: dict, kw: dict) -> httpx.Response:
        return await self.client.request(method, f"{self.server.control_url}{path}",
                                         headers={**self.server.headers, **headers}, timeout=300.0, **kw)

    async def reset(self, world: str, seed: int, now: str | None, fixtures: list[dict], look: str | None = None,
                    family: str | None = None) -> dict:
        body = {"seed": seed, "now": now, "fixtures": fixtures}
        if look is not None:
            body["look"] = look
        if family is not None:  # a seed family other than the app's own (AppSpec.families)
            body["family"] = family
        return await self._call("POST", f"/worlds/{world}/reset", json=body)

    async def clock(self, world: str, now: str) -> dict:
        """Move the world's frozen clock forward to `now`; the app delivers what came due -> {"now", "delivered"}."""
        return await self._call("POST", f"/worlds/{world}/clock", json={"now": now})

    async def state(self, world: str, written_only: bool = False, rows: bool = False) -> dict:
        """The world's state; `written_only`: the tables written since its reset (`_written` names them, or is
        None when the whole world came: apps/_shared/written.py); `rows` too: of those, only the rows that differ
        from the start (`_rows`; grading.written.merge_written rebuilds the end state)."""
        query = ("?written=1" + ("&rows=1" if rows else "")) if written_only else ""
        return await self._call("GET", f"/worlds/{world}/state{query}")

    async def drop(self, world: str) -> dict:
        return await self._call("DELETE", f"/worlds/{world}")

    async def tools(self) -> dict:
        """{"app", "tools": [{name, description, input_schema}]}"""
        return await self._call("GET", "/tools")

    async def call_tool(self, world: str, name: Any, args: Any) -> Any:
        """The tool's result; ToolCallError when the app refuses the call (the world unchanged), whatever
        `name` and `args` are. Checked here before anything is sent: the name is one of the app's tools (so
        the URL built from it is that tool's route: `..` or `a/../../health` never reach another route),
        and the arguments are plain JSON any tool could take (apps/tool_args.py; InvalidToolArguments
        otherwise); the app checks them again, and against the tool's schema (ToolSet.check)."""
        if self.server.tool_names is None:
            self.server.tool_names = tuple(t["name"] for t in (await self.tools())["tools"])
        names = self.server.tool_names
        if not isinstance(name, str) or name not in names:
            raise ToolCallError(unknown_tool_message(self.server.app, name, names))
        try:
            body = encode_args(name, args)
        except MalformedArgs as e:
            raise InvalidToolArguments(str(e)) from None
        return (await self._call("POST", f"/worlds/{world}/tools/{quote(name, safe='')}", content=body,
                                 headers={"Content-Type": "application/json"}))["result"]

    async def health(self) -> dict:
        return await self._call("GET", "/health")
