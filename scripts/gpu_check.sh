#!/usr/bin/env bash
# GPU check of `uigym train grpo`: a few GRPO steps of a random-initialised Qwen2.5-VL of real width
# (the Qwen2.5-VL-3B config, bf16) on uigym tasks in real headless Chromium, with transformers generation
# (no vLLM, no weights: nothing is downloaded). Prints step time, tokens/s and peak GPU memory per step.
#
#   bash scripts/gpu_check.sh                 # 3 steps on the toy tasks (fast, independent of the clones)
#   STEPS=5 TASKS='mail/*' TASKS_DIR= bash scripts/gpu_check.sh     # the bundled mail tasks instead
#   DRY_RUN=1 bash scripts/gpu_check.sh      # the same script on CPU with a tiny width (tests/train run it)
#
# Needs (checked first, with the exact list of what is missing): a CUDA GPU and torch; the `train` extra's
# Python packages (trl==1.16.0, transformers==5.17.0, datasets 5.2, accelerate; peft only for --lora) and
# uigym's own (flask, sqlalchemy, faker, pillow, pydantic, playwright, gymnasium, numpy, typer, rich, httpx,
# pyspng, psutil): `pip install -e '.[train]'`, or carried wheels with `pip install --no-deps`; and a
# Chromium (Debian's /usr/bin/chromium, Playwright's, or $UIGYM_CHROMIUM).
# A random model never writes a tool call, so each rollout is one turn (prompt with the first screenshot,
# one reply of REPLY_TOKENS); the step still runs generation, the env, the verifier and the backward pass.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-$( [[ -x .venv/bin/python ]] && echo .venv/bin/python || echo python3 )}"
export STEPS="${STEPS:-3}" TASKS="${TASKS:-mail/toy-*}" TASKS_DIR="${TASKS_DIR-toy}" REPLY_TOKENS="${REPLY_TOKENS:-128}"
export GENERATIONS="${GENERATIONS:-8}" MAX_PIXELS="${MAX_PIXELS:-470400}" UIGYM_HOME="${UIGYM_HOME:-$(mktemp -d)}"
export DRY_RUN="${DRY_RUN:-0}" TRL_EXPERIMENTAL_SILENCE=1 TOKENIZERS_PARALLELISM=false PYTHONUNBUFFERED=1

"$PY" - <<'PY'
import importlib, os, sys
need, notes = [], []
for mod, pkg in [("torch", "torch"), ("transformers", "transformers==5.17.0"), ("trl", "trl==1.16.0"),
                 ("datasets", "datasets==5.2.*"), ("accelerate", "accelerate>=1.10.1"), ("flask", "flask"),
                 ("sqlalchemy", "sqlalchemy"), ("faker", "faker"), ("PIL", "pillow"), ("pydantic", "pydantic"),
                 ("playwright", "playwright"), ("gymnasium", "gymnasium"), ("numpy", "numpy"), ("typer", "typer"),
                 ("rich", "rich"), ("httpx", "httpx"), ("pyspng", "pyspng"), ("psutil", "psutil")]:
    try:
        m = importlib.import_module(mod)
        want = pkg.split("==")[1] if "==" in pkg else None
        if want and not want.endswith("*") and getattr(m, "__version__", want) != want:
            need.append(f"{pkg} (found {m.__version__})")
    except ImportError:
        need.append(pkg)
try:
    import torch
    if not torch.cuda.is_available() and os.environ["DRY_RUN"] != "1":
        notes.append("no CUDA device visible to torch (DRY_RUN=1 runs the script on CPU at a tiny width)")
except ImportError:
    pass
try:
    from playwright.sync_api import sync_playwright
    from gym_core.browser import chromium_executable
    with sync_playwright() as p:
        try:
            default = p.chromium.executable_path
        except Exception:
            default = None
        chromium_executable(default)
except ImportError:
    pass
except Exception as e:
    notes.append(f"no Chromium ({e}): apt-get install chromium, or set UIGYM_CHROMIUM")
if need or notes:
    print("[gpu_check] missing:\n  pip install " + " ".join(repr(n.split(' (')[0]) for n in need) if need else "[gpu_check] problems:")
    for n in need:
        print("   -", n)
    for n in notes:
        print("  -", n)
    sys.exit(3)
if os.environ["DRY_RUN"] == "1":
    print(f"[gpu_check] dry run on CPU: torch {torch.__version__}, tiny width, float32")
else:
    print(f"[gpu_check] ok: torch {torch.__version__}, cuda {torch.version.cuda}, {torch.cuda.get_device_name(0)}")
PY

"$PY" - <<'PY'
import json, os, time
from pathlib import Path

import torch
from transformers import Qwen2_5_VLConfig, Qwen2_5_VLForConditionalGeneration, TrainerCallback

from agent_harness.models import build_tiny_qwen25vl
from agent_harness.train.config import CurriculumConfig, GRPORunConfig
from agent_harness.train.env import close_runtimes
from agent_harness.train.grpo import build_grpo, load_processor

t0 = time.perf_counter()
dry = os.environ["DRY_RUN"] == "1"
device = "cpu" if dry else "cuda"
home = Path(os.environ["UIGYM_HOME"])
# A processor (tokenizer trained on the spot, Qwen's special tokens) with Qwen2.5-VL's real pixel range.
tiny = build_tiny_qwen25vl(home / "processor", min_pixels=56 * 56, max_pixels=28 * 28 * 16384)
processor = load_processor(str(tiny))
ids = {t: processor.tokenizer.convert_tokens_to_ids(t) for t in ("<|image_pad|>", "<|video_pad|>", "<|vision_start|>",
                                                                   "<|vision_end|>", "<|im_end|>", "<|endoftext|>")}
# Qwen2.5-VL-3B-Instruct's config (text 2048 x 36 layers, vision 1280 x 32 blocks), random weights, bf16.
# The dry run keeps every code path (processor, pixel range, mrope, windowed vision) at a tiny width.
text = dict(hidden_size=2048, intermediate_size=11008, num_hidden_layers=36, num_attention_heads=16, num_key_value_heads=2)
vision = dict(depth=32, hidden_size=1280, intermediate_size=3420, num_heads=16, fullatt_block_indexes=[7, 15, 23, 31])
mrope, vocab = [16, 24, 24], 151936  # mrope sums to head_dim / 2
if dry:  # the tokenizer's own vocabulary: Qwen's 151,936 logits a token would dominate a CPU step
    mrope, vocab = [2, 3, 3], len(processor.tokenizer)
    text = dict(hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2)
    vision = dict(depth=2, hidden_size=64, intermediate_size=128, num_heads=4, fullatt_block_indexes=[1])
config = Qwen2_5_VLConfig(
    text_config=dict(vocab_size=vocab, **text, max_position_embeddings=128000,
                     rope_scaling={"type": "mrope", "mrope_section": mrope, "rope_theta": 1000000.0},
                     rms_norm_eps=1e-6, tie_word_embeddings=True, eos_token_id=ids["<|im_end|>"],
                     pad_token_id=ids["<|endoftext|>"]),
    vision_config=dict(**vision, out_hidden_size=text["hidden_size"], patch_size=14, spatial_merge_size=2,
                       temporal_patch_size=2, window_size=112, hidden_act="silu"),
    image_token_id=ids["<|image_pad|>"], video_token_id=ids["<|video_pad|>"],
    vision_start_token_id=ids["<|vision_start|>"], vision_end_token_id=ids["<|vision_end|>"],
    eos_token_id=ids["<|im_end|>"], pad_token_id=ids["<|endoftext|>"], tie_word_embeddings=True,
)
torch.manual_seed(0)
with torch.device(device):
    model = Qwen2_5_VLForConditionalGeneration._from_config(config, dtype=torch.float32 if dry else torch.bfloat16,
                                                             attn_implementation="sdpa")
model.generation_config.eos_token_id = [ids["<|im_end|>"], ids["<|endoftext|>"]]
model.generation_config.pad_token_id = ids["<|endoftext|>"]
n_params = sum(p.numel() for p in model.parameters())
print(f"[gpu_check] model: {n_params / 1e9:.2f}B parameters (random, {model.dtype}), built in {time.perf_counter() - t0:.0f}s")

tasks_dir = None
app_modules = {}
if os.environ.get("TASKS_DIR") == "toy":
    from tests.harness.toy_tasks import APP_MODULES, write_tasks_dir

    tasks_dir, app_modules = write_tasks_dir(home / "tasks"), dict(APP_MODULES)
elif os.environ.get("TASKS_DIR"):
    tasks_dir = Path(os.environ["TASKS_DIR"])


class Meter(TrainerCallback):
    def __init__(self):
        self.t = None
        self.tokens = 0.0

    def on_step_begin(self, args, state, control, **kw):
        if not dry:
            torch.cuda.synchronize()
            torch.cuda.reset_peak_memory_stats()
        self.t = time.perf_counter()

    def on_log(self, args, state, control, logs=None, **kw):
        if not logs or "num_tokens" not in logs or self.t is None:
            return
        if not dry:
            torch.cuda.synchronize()
        dt = time.perf_counter() - self.t
        tokens = float(logs["num_tokens"]) - self.tokens
        self.tokens = float(logs["num_tokens"])
        print(f"[gpu_check] step {state.global_step}: {dt:.1f}s, {tokens:.0f} tokens (prompt+completion) -> "
              f"{tokens / dt:.0f} tokens/s; completion mean {logs.get('completions/mean_length', 0):.0f} tokens; "
              f"peak GPU memory {0 if dry else torch.cuda.max_memory_allocated() / 2**30:.1f} GiB; reward {logs.get('reward', 0):.2f}",
              flush=True)


gens = int(os.environ["GENERATIONS"])
cfg = GRPORunConfig(model=str(tiny), out=home / "grpo", tasks=os.environ["TASKS"], split=None, tasks_dir=tasks_dir,
                    app_modules=app_modules, max_pixels=int(os.environ["MAX_PIXELS"]), max_turns=5,
                    reply_tokens=int(os.environ["REPLY_TOKENS"]), max_steps=int(os.environ["STEPS"]),
                    num_generations=gens, per_device_batch_size=gens, learning_rate=1e-6, bf16=not dry,
                    gradient_checkpointing=True, temperature=1.0,
                    curriculum=CurriculumConfig(start={"easy": 0.0, "medium": 0.0, "hard": 0.0}))
trainer, budget = build_grpo(cfg, model=model, processor=processor, callbacks=[Meter()])
print(f"[gpu_check] token budget: {budget.explain()}")
t1 = time.perf_counter()
try:
    trainer.train()
finally:
    close_runtimes()
total = time.perf_counter() - t1
steps = [h for h in trainer.state.log_history if "step_time" in h]
print(f"[gpu_check] {len(steps)} GRPO steps in {total:.0f}s (setup {t1 - t0:.0f}s); TRL step_time: "
      + ", ".join(f"{h['step_time']:.1f}s" for h in steps))
if not dry:
    print(f"[gpu_check] peak GPU memory over the run: {torch.cuda.max_memory_reserved() / 2**30:.1f} GiB reserved")
print("[gpu_check] last log: " + json.dumps({k: v for k, v in steps[-1].items()
                                              if k.startswith(("reward", "completions/mean", "num_tokens", "step_time",
                                                               "uigym/episode", "tools/"))}))
PY
