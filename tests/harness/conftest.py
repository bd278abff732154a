"""Fixtures for the harness tests: a runtime serving the toy app as "mail", the tiny model, its server."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from gym_core.runtime import Runtime
from gym_core.server import ServerPool
from tests.harness.toy_tasks import APP_MODULES

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
async def toy_runtime():
    """A Chromium and the toy app (under the name "mail") shared by the in-process harness tests."""
    rt = Runtime(servers=ServerPool(modules=APP_MODULES))
    yield rt
    await rt.close()
    rt.servers.stop_all()


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory) -> Path:
    from agent_harness.models import cached_tiny_qwen25vl

    return cached_tiny_qwen25vl(tmp_path_factory.mktemp("models"))


def start_server(args: list[str], ready: str, timeout: float = 180.0) -> tuple[subprocess.Popen, str]:
    """Start a server process that prints `ready<port>` on stdout; returns (process, port line)."""
    proc = subprocess.Popen(args, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"))
    lines: list[str] = []
    found: list[str] = []

    def read():
        for line in proc.stdout:
            lines.append(line)
            if ready in line and not found:
                found.append(line)

    threading.Thread(target=read, daemon=True).start()
    deadline = time.monotonic() + timeout
    while not found and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.1)
    if not found:
        proc.kill()
        raise RuntimeError("server did not start:\n" + "".join(lines[-40:]))
    return proc, found[0]


@pytest.fixture(scope="session")
def tiny_server(tiny_model):
    """`uigym serve --model <tiny model>` on a free port; yields its base URL."""
    proc, line = start_server([sys.executable, "-m", "agent_harness.cli", "serve", "--model", str(tiny_model),
                               "--port", "0", "--quiet", "--served-model-name", "tiny-vlm"], "UIGYM_SERVE_READY port=")
    port = int(line.split("port=")[1].split()[0])
    yield f"http://127.0.0.1:{port}/v1"
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
