#!/usr/bin/env bash
# A venv for the OpenEnv environment (environments/openenv_uigym, `uigym openenv serve`, tests/openenv) beside
# uigym's own: ./.venv-openenv sees everything ./.venv has (run scripts/setup.sh first: uigym, Chromium's
# driver, TRL and the tiny model's stack) and adds the `openenv` package (0.10.x). openenv pulls gradio and
# fastmcp<4 with their own pins (fastapi, starlette, websockets, mcp...), which are not uigym's: installed here
# they win over .venv's copies (this venv's site-packages come first on sys.path), so .venv stays as uigym pins
# it. What pip says clashes is printed below (`pip check`), not hidden.
# Usage: bash scripts/setup_openenv.sh; then .venv-openenv/bin/python -m pytest -q tests/openenv
set -euo pipefail
cd "$(dirname "$0")/.."
T0=$SECONDS
OE="${OPENENV_VENV:-.venv-openenv}"
OPENENV_SPEC="${OPENENV_SPEC:-openenv==0.10.0}"
source scripts/side_venv.sh
side_venv "$OE" environments/openenv_uigym
"$OE/bin/python" -m pip install -q --no-compile "$OPENENV_SPEC" "setuptools>=77" 2>&1 | grep -v "^ERROR: pip's dependency resolver\|^WARNING: Location" || true
echo "[setup_openenv] pip check (what the two venvs' pins say of each other):"
"$OE/bin/python" -m pip check 2>&1 | sed 's/^/[setup_openenv]   /' || true
"$OE/bin/python" -c "import openenv, openenv_uigym, gym_core, grading.engine, mcp, trl; from importlib.metadata import version as v; print('[setup_openenv] openenv', v('openenv'), 'fastapi', v('fastapi'), 'mcp', v('mcp'), 'fastmcp', v('fastmcp'), 'ok')"
echo "[setup_openenv] done in $((SECONDS - T0)) s"
