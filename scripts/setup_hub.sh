#!/usr/bin/env bash
# A venv for the verifiers environment (environments/uigym_env, `vf-eval uigym-env`, tests/hub) beside
# uigym's own: ./.venv-hub sees everything ./.venv has (run scripts/setup.sh first) and adds the verifiers
# library, so .venv keeps no second package named `verifiers` (uigym's console scripts stay importable there).
# verifiers 0.4.0 pins mcp==2.0.0 while uigym needs mcp>=2.3: mcp is put back to uigym's range (pip warns).
# Usage: bash scripts/setup_hub.sh; then .venv-hub/bin/python -m pytest -q tests/hub
set -euo pipefail
cd "$(dirname "$0")/.."
HUB="${HUB_VENV:-.venv-hub}"
source scripts/side_venv.sh
side_venv "$HUB" environments/uigym_env
"$HUB/bin/python" -m pip install -q --no-compile 'verifiers==0.4.0' 2>&1 | grep -v "^ERROR: pip's dependency resolver\|requires mcp" || true
"$HUB/bin/python" -m pip install -q 'mcp>=2.3,<3' 2>&1 | grep -v "^ERROR: pip's dependency resolver\|requires mcp" || true
"$HUB/bin/python" -c "import uigym_env, verifiers.v1, grading.engine; print('[setup_hub] verifiers', verifiers.__version__, 'ok')"
