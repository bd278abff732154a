"""The containers, proven: `scripts/containers.sh smoke` builds the images with podman, brings up the compose
stack, runs an oracle eval from two worker containers against the app containers over the compose network,
times `podman stop` of an app and tears everything down (README "Containers").

CI sets UIGYM_REQUIRE_CONTAINERS=1 (.ci/run): there a missing podman or root is a failure, and the script
installs podman from Debian's packages. Elsewhere the smoke test skips, with the reason, where podman is
missing or the user is not root. It took 3-7 minutes with the images cached, 21 cold, on a crowded 2-core machine.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REQUIRED = os.environ.get("UIGYM_REQUIRE_CONTAINERS") == "1"


def _load_compose() -> dict:
    yaml = pytest.importorskip("yaml")
    return yaml.safe_load((ROOT / "docker" / "compose.yaml").read_text())


def test_compose_file_has_no_default_token_and_waits_for_healthy_apps():
    compose = _load_compose()
    text = (ROOT / "docker" / "compose.yaml").read_text()
    assert "change-me" not in text
    services = compose["services"]
    for app in ("mail", "food", "crm"):
        svc = services[app]
        assert svc["environment"]["UIGYM_GYM_TOKEN"].startswith("${UIGYM_GYM_TOKEN:?"), "the token must be required"
        assert "127.0.0.1:8001/health" in " ".join(svc["healthcheck"]["test"])  # the control API's own port
        assert svc["ports"][0].endswith(":8000") and svc["ports"][1].endswith(":8001")
        assert all(p.startswith("127.0.0.1:") for p in svc["ports"]), "published on the host's loopback only"
        assert services["worker"]["depends_on"][app] == {"condition": "service_healthy"}
    assert "model" in services["vllm"]["profiles"], "vLLM needs a GPU: it only starts with --profile model"


def test_image_requirements_come_from_pyproject():
    import importlib.util

    spec = importlib.util.spec_from_file_location("docker_requirements", ROOT / "docker" / "requirements.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert mod.requirements(project, []) == project["dependencies"]
    app = mod.requirements(project, [], {"flask", "sqlalchemy", "faker", "pillow"})
    assert len(app) == 4
    everything = mod.requirements(project, ["all"])
    assert any(r.startswith("torch") for r in everything) and not any(r.startswith("uigym") for r in everything)



# Import name -> distribution, where they differ; modules that come with another requirement (Flask brings
# Werkzeug, Jinja2, itsdangerous and MarkupSafe) count as that requirement's.
DIST_OF = {"PIL": "pillow", "werkzeug": "flask", "jinja2": "flask", "itsdangerous": "flask", "markupsafe": "flask"}


def test_app_image_installs_what_the_apps_import():
    """The app image installs only the requirements named by its Dockerfile's --only (a clone's server needs
    few); every third-party module that apps/, domain/ and seed_data/ import must be among them, or the
    container dies on start (seen: nh3, added for the mail editor, missing from the image)."""
    import ast
    import re
    import sys

    only = re.search(r"--only ([a-z0-9_,-]+)", (ROOT / "docker" / "app.Dockerfile").read_text()).group(1).split(",")
    ours = {"apps", "domain", "seed_data"}
    imported: dict[str, str] = {}
    for pkg in ours:
        for path in (ROOT / pkg).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                         else [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module
                         else [])
                for name in names:
                    top = name.split(".")[0]
                    if top not in ours and top not in sys.stdlib_module_names:
                        imported.setdefault(DIST_OF.get(top, top.lower()), str(path.relative_to(ROOT)))
    missing = {dist: where for dist, where in imported.items() if dist not in only}
    assert not missing, f"imported by the apps but not installed in the app image (docker/app.Dockerfile --only): {missing}"

def test_dockerignore_keeps_environments_and_runs_out_of_the_context():
    ignored = {line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()}
    assert {".git", ".venv", ".venv-hub", "runs", "**/__pycache__"} <= ignored


def _why_not() -> str | None:
    if os.geteuid() != 0:
        return "needs root (rootful podman)"
    if not shutil.which("podman") and not REQUIRED:
        return "podman is not installed (`bash scripts/containers.sh host` installs it on Debian)"
    if not shutil.which("podman") and not shutil.which("apt-get"):
        return "podman is not installed and there is no apt-get to install it"
    return None


def need_podman() -> None:
    """Fail where CI requires the containers (UIGYM_REQUIRE_CONTAINERS=1) and podman or root is missing; skip,
    with the reason, elsewhere."""
    why = _why_not()
    if why:
        if REQUIRED:
            pytest.fail(f"UIGYM_REQUIRE_CONTAINERS=1 but {why}")
        pytest.skip(f"{why}; CI sets UIGYM_REQUIRE_CONTAINERS=1 and runs it")


@pytest.mark.timeout(2400)
def test_compose_stack_runs_an_oracle_eval(tmp_path):
    need_podman()
    out = tmp_path / "smoke"
    proc = subprocess.run(["bash", "scripts/containers.sh", "smoke"], cwd=ROOT, text=True, capture_output=True,
                          env=dict(os.environ, UIGYM_SMOKE_OUT=str(out)), timeout=2300)
    log = (proc.stdout + proc.stderr)[-6000:]
    assert proc.returncode == 0, log
    s = json.loads((out / "summary.json").read_text())
    print(json.dumps(s, indent=1))  # the measured numbers, in `pytest -s` output
    for worker in ("worker_a", "worker_b"):
        w = s[worker]
        assert w["episodes"] == len(w["tasks"]) == w["passed"], (worker, w)
    assert {t.split("/")[0] for t in s["worker_a"]["tasks"]} == {"mail", "food", "crm"}
    # two workers ran the same tasks in one app container at once, each in its own worlds
    assert set(s["worker_b"]["tasks"]) <= set(s["worker_a"]["tasks"])
    assert set(s["isolation"]) == {"mail", "food", "crm"}
    assert all(all(v.values()) for v in s["isolation"].values()), s["isolation"]
    assert s["stop_s"] < 2 and s["stop_exit_code"] == 0, "SIGTERM must stop an app container at once"
    assert s["left_running"] == 0


def test_app_server_exits_at_once_on_sigterm(tmp_path):
    """What `docker stop` sends: the server must end at once, exit code 0 (0.05 s here; 2 s allowed on a
    crowded machine). It used to ignore SIGTERM as a container's PID 1, and otherwise spent 2-3 s collecting
    its objects on the way out."""
    import signal
    import sys
    import time

    env = dict(os.environ, UIGYM_GYM_TOKEN="t", UIGYM_HOME=str(tmp_path), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "apps.serve", "mail", "--port", "0", "--quiet"], cwd=ROOT,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert proc.stdout.readline().startswith("UIGYM_READY port=")
        t0 = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=10) == 0
        assert time.monotonic() - t0 < 2.0
    finally:
        if proc.poll() is None:
            proc.kill()
