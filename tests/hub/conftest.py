"""tests/hub needs the `verifiers` library (0.4.0) and the uigym_env package beside uigym; without them
(a plain `uigym[all]` venv) the whole folder is skipped, with the reason."""

from __future__ import annotations

import importlib.util

import pytest

if importlib.util.find_spec("uigym_env") is None:
    pytest.skip("uigym_env is not installed (pip install -e environments/uigym_env 'verifiers==0.4.0')",
                allow_module_level=True)

from tests.harness.conftest import tiny_model, tiny_server  # noqa: E402,F401 - `uigym serve --model tiny`
