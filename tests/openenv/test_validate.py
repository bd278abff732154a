"""`openenv validate` (the CLI of the openenv package) at the levels this machine can run: the package's static
level (its openenv.yaml's validation block; the runtime level builds the image and needs a Docker daemon) and
the running-server probe against `uigym openenv serve`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "environments" / "openenv_uigym"
OPENENV = [sys.executable, "-c", "from openenv.cli.__main__ import main; main()"]


def _validate(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*OPENENV, "validate", *args], capture_output=True, text=True, timeout=300)


def test_static_level_passes():
    r = _validate(str(PACKAGE), "--skip-build")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "PASS  static.manifest" in r.stdout and "Verdict: FAIL" not in r.stdout


def test_running_server_probe_passes(tools_server):
    r = _validate("--url", tools_server.url, "--timeout", "60")
    assert r.returncode == 0, r.stdout + r.stderr
    for check in ("health_endpoint", "metadata_endpoint", "schema_endpoint", "mode_endpoint_consistency"):
        assert f"PASS  {check}" in r.stdout, r.stdout
