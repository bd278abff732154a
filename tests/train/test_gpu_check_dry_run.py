"""scripts/gpu_check.sh is meant for a lent GPU machine, where a failure costs device time. Its dry run
(DRY_RUN=1: CPU, tiny width, the tokenizer's own vocabulary) goes through the same lines otherwise: the
dependency check, the processor with Qwen2.5-VL's pixel range, the model built from a Qwen2.5-VL config,
the token budget, GRPO steps on the toy tasks in real Chromium, the per-step meter and the summary."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_gpu_check_runs_end_to_end_on_cpu(trl_ready, tmp_path):
    env = dict(os.environ, DRY_RUN="1", STEPS="2", GENERATIONS="2", REPLY_TOKENS="16", UIGYM_HOME=str(tmp_path),
               PYTHON=sys.executable)
    r = subprocess.run(["bash", "scripts/gpu_check.sh"], cwd=ROOT, env=env, capture_output=True, text=True,
                       timeout=600)
    out = r.stdout + r.stderr
    assert r.returncode == 0, out[-4000:]
    assert "[gpu_check] dry run on CPU" in out
    assert re.search(r"\[gpu_check\] token budget: an episode of up to 5 actions needs \d+ completion tokens", out)
    steps = re.findall(r"\[gpu_check\] step (\d+): [\d.]+s, (\d+) tokens .* -> (\d+) tokens/s", out)
    assert [s[0] for s in steps] == ["1", "2"], out[-4000:]
    assert all(int(tokens) > 500 and int(rate) > 0 for _, tokens, rate in steps)  # screenshots are in the prompts
    assert "[gpu_check] 2 GRPO steps in" in out
    assert re.search(r'\[gpu_check\] last log: \{.*"step_time"', out)


def test_gpu_check_without_cuda_says_what_is_missing(trl_ready, tmp_path):
    """On this machine (no CUDA) the real run stops at the check, with the reason and the way out."""
    import torch

    if torch.cuda.is_available():
        pytest.skip("a CUDA device is visible: the check passes here")
    env = dict(os.environ, DRY_RUN="0", UIGYM_HOME=str(tmp_path), PYTHON=sys.executable)
    r = subprocess.run(["bash", "scripts/gpu_check.sh"], cwd=ROOT, env=env, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 3
    assert "no CUDA device visible to torch" in r.stdout and "DRY_RUN=1" in r.stdout
