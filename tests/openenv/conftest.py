"""tests/openenv needs the `openenv` package and the env package beside uigym (scripts/setup_openenv.sh, README
"Use with OpenEnv / TRL"); run them with `.venv-openenv/bin/python -m pytest -q tests/openenv`. Without them
(uigym's own venv) the folder is not collected.

The servers are `uigym openenv serve` subprocesses, one per mode, shared by the session's tests."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import time

import pytest

if importlib.util.find_spec("openenv") is None or importlib.util.find_spec("openenv_uigym") is None:
    collect_ignore_glob = ["test_*.py"]

READY = "UIGYM_OPENENV_READY"


class Server:
    def __init__(self, mode: str, *extra: str):
        cmd = [sys.executable, "-m", "agent_harness.cli", "openenv", "serve", "--mode", mode, "--port", "0", *extra]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     env={**os.environ, "PYTHONUNBUFFERED": "1"})
        line = self.proc.stdout.readline()
        if READY not in line:
            self.proc.kill()
            raise RuntimeError(f"the server did not start: {line}{self.proc.stdout.read()}")
        self.url = line.split("url=")[1].split()[0]
        self.wait_healthy()

    def wait_healthy(self, timeout: float = 60) -> None:
        import httpx

        deadline = time.monotonic() + timeout
        while True:
            try:
                if httpx.get(f"{self.url}/health", timeout=5).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError(f"the server at {self.url} is not healthy")
            time.sleep(0.2)

    def stats(self) -> dict:
        import httpx

        return httpx.get(f"{self.url}/uigym/stats", timeout=30).json()

    def idle(self, timeout: float = 60) -> dict:
        """The stats once no session is open. The server closes a session when its socket's close is handled,
        which can come a moment after the client returns (seen on a loaded machine: 1 left, after the test
        before had closed its client), so a test that counts sessions waits for this first."""
        deadline = time.monotonic() + timeout
        while (now := self.stats())["sessions"] != 0:
            assert time.monotonic() < deadline, f"{now['sessions']} session(s) still open {timeout:.0f} s on: {now}"
            time.sleep(0.2)
        return now

    def stop(self) -> int:
        self.proc.terminate()
        try:
            return self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()


@pytest.fixture(scope="session")
def tools_server():
    server = Server("tools")
    yield server
    server.stop()


@pytest.fixture(scope="session")
def ui_server():
    server = Server("ui")
    yield server
    server.stop()


def client(server: Server):
    from openenv_uigym import UIGymEnv

    return UIGymEnv(base_url=server.url, message_timeout_s=180)


# One task of each app, short in both modes: (id, the answer-only or world-changing kind of grade it has).
TASKS = {"mail": "mail/unread-count-00", "food": "food/last-order-total-00", "crm": "crm/complete-todays-task-00"}
