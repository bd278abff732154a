"""`openenv validate` (the CLI of the openenv package) at the levels this machine can run: the package's static
level (its openenv.yaml's validation block; the runtime level builds the image and needs a Docker daemon) and
the running-server probe against `uigym openenv serve`."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "environments" / "openenv_uigym"


def _validate(*args: str):
    """`openenv validate ARGS`: the package's CLI (its typer app), run in this process (its imports paid once)."""
    from openenv.cli.__main__ import app
    from typer.testing import CliRunner

    return CliRunner().invoke(app, ["validate", *args])


def test_static_level_passes():
    r = _validate(str(PACKAGE), "--skip-build")
    assert r.exit_code == 0, r.output
    assert "PASS  static.manifest" in r.output and "Verdict: FAIL" not in r.output


def test_running_server_probe_passes(tools_server):
    r = _validate("--url", tools_server.url, "--timeout", "60")
    assert r.exit_code == 0, r.output
    for check in ("health_endpoint", "metadata_endpoint", "schema_endpoint", "mode_endpoint_consistency"):
        assert f"PASS  {check}" in r.output, r.output
