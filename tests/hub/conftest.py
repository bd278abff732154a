"""tests/hub needs the `verifiers` library (0.4.0) and the uigym_env package beside uigym (README: "Use with
verifiers / prime-rl"). Without them (a plain `uigym[all]` venv, CI) the folder is not collected."""

from __future__ import annotations

import importlib.util

if importlib.util.find_spec("uigym_env") is None:
    collect_ignore_glob = ["test_*.py"]
else:
    from tests.harness.conftest import tiny_model, tiny_server  # noqa: F401 - `uigym serve --model tiny`
