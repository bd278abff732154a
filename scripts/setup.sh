#!/usr/bin/env bash
# Installs everything uigym needs into ./.venv and makes sure a Chromium is there.
# Idempotent: a second run only checks. Usage: bash scripts/setup.sh [--extras test,model]
# (default: all extras: tests, model serving, datasets, training, Ray)
set -euo pipefail
cd "$(dirname "$0")/.."

EXTRAS="all"
if [[ "${1:-}" == "--extras" && -n "${2:-}" ]]; then EXTRAS="$2"; fi

PY="${PYTHON:-python3}"
if [[ ! -x .venv/bin/python ]]; then
  echo "[setup] creating .venv with $($PY --version)"
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip >/dev/null
# uv installs the rest (scripts/venv_install.sh: the same packages as pip, linked from uv's cache; seconds, not minutes);
# where it cannot be had, pip does. Neither writes the .pyc of every installed file up front (half pip's CPU: torch,
# transformers, ray): Python writes those of the modules it imports when it first imports them.
if [[ "${UIGYM_NO_UV:-}" != "1" ]]; then
  .venv/bin/python -m pip install -q uv 2>&1 | grep -v "^WARNING: Location" || true
fi
source scripts/venv_install.sh
echo "[setup] installing uigym[$EXTRAS] (editable, with $([[ -x .venv/bin/uv && "${UIGYM_NO_UV:-}" != "1" ]] && echo uv || echo pip))"
venv_install .venv -e ".[$EXTRAS]"

# A browser: Playwright's own if `playwright install chromium` already ran, else the system's
# Chromium; on Debian/Ubuntu as root, install Debian's chromium; otherwise try Playwright's download.
have_browser() {
  .venv/bin/python - <<'PY'
import sys
from gym_core.browser import chromium_executable
from playwright.sync_api import sync_playwright
try:
    with sync_playwright() as p:
        chromium_executable(p.chromium.executable_path)
except RuntimeError:
    sys.exit(1)
PY
}
if have_browser; then
  echo "[setup] chromium: ok"
elif command -v apt-get >/dev/null 2>&1 && [[ "$(id -u)" == "0" ]]; then
  echo "[setup] installing Debian's chromium"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq chromium chromium-headless-shell fonts-noto-color-emoji >/dev/null
elif .venv/bin/python -m playwright install chromium; then
  echo "[setup] chromium: installed by playwright"
else
  echo "[setup] no Chromium: install your system's chromium or run 'playwright install chromium'" >&2
  exit 1
fi
# Headless, uigym runs Chromium's headless shell where there is one, as Playwright itself does
# (gym_core/browser.py; ~30% faster an episode): Debian ships it as its own package.
if command -v chromium >/dev/null 2>&1 && ! command -v chromium-headless-shell >/dev/null 2>&1 \
    && command -v apt-get >/dev/null 2>&1 && [[ "$(id -u)" == "0" ]]; then
  echo "[setup] installing Debian's chromium-headless-shell"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq chromium-headless-shell >/dev/null 2>&1 \
    || { apt-get update -qq && apt-get install -y -qq chromium-headless-shell >/dev/null; } \
    || echo "[setup] chromium-headless-shell not installed: headless runs use chromium (slower)"
fi
echo "[setup] done"
