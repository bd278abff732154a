"""`uigym eval --agent openai` through a real vLLM engine (vLLM's CPU build in .venv-vllm, `uigym vllm serve`) on
the toy app's tasks: every action format in UI mode with the tiny Qwen2.5-VL, tool mode with the tiny Qwen2, logprobs
on; then the server killed mid-run (the episodes it cut end as errors, the others are kept) and `--retry-errors`
finishing them after a restart.

Run: bash scripts/setup_vllm.sh; .venv/bin/python -m pytest -q -p no:cacheprovider -m slow tests/vllm
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from agent_harness.commands.vllm import vllm_python
from agent_harness.results import latest_results, read_results
from tests.harness.toy_tasks import write_tasks_dir
from tests.vllm.conftest import NO_VLLM, REPO, TEXT_ARGS, VLM_ARGS

pytestmark = [pytest.mark.slow, pytest.mark.skipif(vllm_python() is None, reason=NO_VLLM)]

FORMATS = ["qwen", "uitars", "json", "openai", "anthropic", "pyautogui"]
ENDS_ON_TEXT = {"openai", "anthropic"}  # a reply without a tool call is the final answer: no parse error
TWO_TASKS = "mail/toy-star-note-2,mail/toy-add-note"


def uigym_eval(base_url: str, out: Path, tasks_dir: Path, *args: str, timeout: float = 300):
    cmd = [sys.executable, "-m", "agent_harness.cli", "eval", "--agent", "openai", "--base-url", base_url,
           "--tasks-dir", str(tasks_dir), "--app-module", "mail=tests.fixture_apps.toy", "--out", str(out),
           "--max-tokens", "16", "--temperature", "1.0", "--seed", "1", "--logprobs", "--no-report", *args]
    return subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=timeout)


def check_rows(run: Path, n: int, steps: int, exact: bool = True) -> list[dict]:
    """Every episode finished without an error, with tokens and logprobs per step, unparsed replies counted.
    `exact=False`: an episode may end early (formats where a reply without a call ends the task)."""
    rows = latest_results(read_results(run))
    assert len(rows) == n
    for row in rows:
        assert row["error"] is None and row["model_calls"] == row["steps"], row
        assert row["steps"] == steps if exact else 1 <= row["steps"] <= steps, row
        assert row["prompt_tokens"] > 0 and 0 < row["completion_tokens"] <= 16 * row["steps"], row
        traj = json.loads((run / row["episode_dir"] / "trajectory.json").read_text())
        assert len(traj["steps"]) == row["steps"]
        for s in traj["steps"]:
            u = s["usage"]
            assert u["logprob_tokens"] == u["completion_tokens"] > 0 and u["logprob_sum"] < 0, u
        assert row["parse_errors"] == sum(1 for s in traj["steps"] if s.get("parse_error")), row
    return rows


@pytest.fixture(scope="module")
def tasks_dir(tmp_path_factory) -> Path:
    return write_tasks_dir(tmp_path_factory.mktemp("toy-tasks"))


@pytest.fixture
def vlm_url(vllm_server, vllm_models):
    return vllm_server.ensure(vllm_models["vlm"], *VLM_ARGS)


@pytest.mark.parametrize("fmt", FORMATS)
def test_ui_mode_every_format_through_vllm(fmt, vlm_url, tasks_dir, tmp_path):
    run = tmp_path / fmt
    r = uigym_eval(vlm_url, run, tasks_dir, "--format", fmt, "--tasks", TWO_TASKS, "--max-steps", "2",
                   "--workers", "2", "--max-pixels", str(28 * 28 * 64))
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    rows = check_rows(run, 2, 2, exact=fmt not in ENDS_ON_TEXT)
    assert all(row["mode"] == "ui" and row["prompt_tokens"] > row["steps"] * 60 for row in rows)  # screenshot tokens
    if fmt in ENDS_ON_TEXT:  # a random model's first reply is text: the episode ends there, graded
        assert any(row["steps"] == 1 for row in rows)
    else:  # a random model's replies: most cannot be read, and each of those is counted (not an error)
        assert sum(row["parse_errors"] for row in rows) >= 1


@pytest.fixture
def text_url(vllm_server, vllm_models):
    return vllm_server.ensure(vllm_models["text"], *TEXT_ARGS)


def test_tool_mode_through_vllm_with_the_text_model(text_url, tasks_dir, tmp_path):
    run = tmp_path / "tools"
    r = uigym_eval(text_url, run, tasks_dir, "--mode", "tools", "--tasks", TWO_TASKS, "--max-steps", "2",
                   "--workers", "2")
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    rows = check_rows(run, 2, 2, exact=False)  # in tool mode a reply without a call is the final answer
    assert all(row["mode"] == "tools" for row in rows)


def test_server_killed_mid_run_then_retry_errors(vllm_server, vllm_models, text_url, tasks_dir, tmp_path):
    run = tmp_path / "killed"
    args = ["--mode", "tools", "--tasks", "mail/*", "--samples", "8", "--max-steps", "3", "--workers", "1",
            "--retries", "1", "--timeout", "10"]
    cmd = [sys.executable, "-m", "agent_harness.cli", "eval", "--agent", "openai", "--base-url", text_url,
           "--tasks-dir", str(tasks_dir), "--app-module", "mail=tests.fixture_apps.toy", "--out", str(run),
           "--max-tokens", "16", "--temperature", "1.0", "--seed", "1", "--logprobs", "--no-report", *args]
    proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and len(read_results(run)) < 2 and proc.poll() is None:
            time.sleep(0.2)
        assert len(read_results(run)) >= 2, "no episode finished before the kill"
        vllm_server.stop()  # the server goes away mid-run
        out, _ = proc.communicate(timeout=240)
    finally:
        if proc.poll() is None:
            proc.kill()
    rows = latest_results(read_results(run))
    assert len(rows) == 24, out[-3000:]  # 3 tasks x 8 samples: every episode has a row
    done = [r for r in rows if r["error"] is None]
    failed = [r for r in rows if r["error"]]
    assert len(done) >= 2 and failed, [(r["task_id"], r["sample"], r["error"]) for r in rows]
    kept = {(r["task_id"], r["sample"]): r for r in done}

    vllm_server.restart()
    r = uigym_eval(vllm_server.base_url, run, tasks_dir, *args, "--retry-errors")
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    rows = latest_results(read_results(run))
    assert len(rows) == 24 and all(row["error"] is None for row in rows), [row["error"] for row in rows]
    for key, before in kept.items():  # the finished episodes were not rerun
        after = next(row for row in rows if (row["task_id"], row["sample"]) == key)
        assert after["seconds"] == before["seconds"] and after["episode_dir"] == before["episode_dir"]
