"""Fixtures for the real-vLLM tests: the tiny vLLM-sized models (built here) and one vLLM server at a time, run by
.venv-vllm's python through `uigym vllm serve` (scripts/setup_vllm.sh makes the venv; without it these tests skip)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from agent_harness.commands.vllm import vllm_python

REPO = Path(__file__).resolve().parents[2]
NO_VLLM = "no vLLM venv (.venv-vllm or $UIGYM_VLLM_PYTHON): run `bash scripts/setup_vllm.sh` first"
# CI sets UIGYM_REQUIRE_VLLM=1 after scripts/setup_vllm.sh: there a missing venv is a failure, never a skip.
if os.environ.get("UIGYM_REQUIRE_VLLM") == "1" and vllm_python() is None:
    raise pytest.UsageError(f"UIGYM_REQUIRE_VLLM=1 but {NO_VLLM}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class VllmServer:
    """One `uigym vllm serve` process (its own process group: vLLM's engine and worker processes go with it)."""

    def __init__(self, log_dir: Path):
        self.log_dir, self.proc, self.model, self.port = log_dir, None, None, None
        self.args: tuple[str, ...] = ()
        self.starts: list[float] = []

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def ensure(self, model: Path, *args: str) -> str:
        """The server on MODEL with ARGS: the running one if it is that, else a new one."""
        if self.proc is not None and self.proc.poll() is None and (self.model, self.args) == (model, args):
            return self.base_url
        return self.start(model, *args)

    def restart(self) -> str:
        """The same model and arguments again, on the same port."""
        return self.start(self.model, *self.args, port=self.port)

    def start(self, model: Path, *args: str, timeout: float = 420.0, port: int | None = None) -> str:
        self.stop()
        self.model, self.args, self.port = model, args, port or free_port()
        log = open(self.log_dir / f"vllm-{model.name}-{len(self.starts)}.log", "w")
        t0 = time.monotonic()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "agent_harness.cli", "vllm", "serve", "--model", str(model), "--port",
             str(self.port), *args], cwd=REPO, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            env=dict(os.environ, PYTHONUNBUFFERED="1", VLLM_SERVER_DEV_MODE="1"))  # dev mode: /collective_rpc
        while time.monotonic() - t0 < timeout:
            if self.proc.poll() is not None:
                raise RuntimeError(f"vLLM exited ({self.proc.returncode}):\n" + Path(log.name).read_text()[-4000:])
            try:
                if httpx.get(self.base_url + "/models", timeout=2).status_code == 200:
                    self.starts.append(time.monotonic() - t0)
                    return self.base_url
            except httpx.HTTPError:
                pass
            time.sleep(1)
        self.stop()
        raise RuntimeError(f"vLLM not ready after {timeout} s:\n" + Path(log.name).read_text()[-4000:])

    def stop(self) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            for sig, wait in ((signal.SIGTERM, 20), (signal.SIGKILL, 10)):
                try:
                    os.killpg(self.proc.pid, sig)
                except ProcessLookupError:
                    break
                try:
                    self.proc.wait(wait)
                    break
                except subprocess.TimeoutExpired:
                    continue
        try:  # workers left in the group after the server itself ended
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.proc = None


@pytest.fixture(scope="session")
def vllm_models(tmp_path_factory) -> dict[str, Path]:
    from agent_harness.models.tiny_vllm import build_vllm_tiny_models

    return build_vllm_tiny_models(tmp_path_factory.mktemp("vllm-models"))


@pytest.fixture(scope="session")
def vllm_server(tmp_path_factory):
    if vllm_python() is None:
        pytest.skip(NO_VLLM)
    server = VllmServer(tmp_path_factory.mktemp("vllm-logs"))
    yield server
    server.stop()
    print(f"\nvLLM server start-up times (s): {[round(s, 1) for s in server.starts]}")


# One server at a time: the tiny VLM for every UI-mode format (the tool parser on: it leaves text replies as they are),
# then the tiny text model for tool mode, the kill/restart test and the weight-sync proof (float32, so vLLM's logprobs
# can be held to transformers' own).
# Every server runs eager (`--enforce-eager`, vLLM's own flag: no torch.compile; vLLM's own CPU CI skips inductor too): what
# these tests prove is the serving path (the OpenAI API, tool parsing, logprobs, weight reload), and on this machine the
# inductor warm-up is most of a start (measured 2026-12-07: the tiny text model ready in 70 s eager against 115 s
# compiled at load 3, the same reply; in CI, under load, its engine init took 84 s compiled against 0.5 s eager).
EAGER = ("--", "--enforce-eager")
VLM_ARGS = ("--format", "qwen", "--max-model-len", "4096", *EAGER)
TEXT_ARGS = ("--mode", "tools", "--max-model-len", "4096", "--dtype", "float32", *EAGER)
