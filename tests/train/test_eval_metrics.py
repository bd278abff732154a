"""Periodic evaluation: the `uigym eval` command it runs and the metrics it reads back."""

from __future__ import annotations

from pathlib import Path

from agent_harness.train.config import GRPORunConfig
from agent_harness.train.env import EnvSettings
from agent_harness.train.evaluate import eval_command, results_metrics


def test_metrics_from_results_rows():
    rows = [
        {"app": "mail", "difficulty": "easy", "reward": 1.0, "passed": True, "steps": 4, "parse_errors": 1,
         "action_errors": 0},
        {"app": "mail", "difficulty": "hard", "reward": 0.0, "passed": False, "steps": 6, "parse_errors": 0,
         "action_errors": 2},
        {"app": "food", "difficulty": "easy", "reward": 0.5, "passed": False, "steps": 10, "parse_errors": 3,
         "action_errors": 1},
    ]
    m = results_metrics(rows)
    assert m["eval/reward"] == 0.5 and m["eval/success"] == 1 / 3
    assert m["eval/success/app/mail"] == 0.5 and m["eval/success/app/food"] == 0.0
    assert m["eval/success/difficulty/easy"] == 0.5 and m["eval/success/difficulty/hard"] == 0.0
    assert m["eval/episode_length"] == 20 / 3 and m["eval/tool_call_rate"] == 16 / 20
    assert m["eval/parse_errors"] == 4 / 3 and m["eval/tool_errors"] == 1.0


def test_eval_command_matches_the_rollouts():
    cfg = GRPORunConfig(model="m", out=Path("o"), tasks="mail/*", max_turns=7, reply_tokens=99,
                        app_modules={"mail": "tests.fixture_apps.toy"}).resolved()
    cmd = eval_command(cfg, EnvSettings(max_pixels=6272), "http://h:1/v1", Path("out"))
    s = " ".join(cmd)
    for part in ("eval --agent openai --base-url http://h:1/v1 --format gym", "tool_screenshots=true",
                 "--image-size 84x56", "--max-tokens 99", "--max-steps 7", "--split test",
                 "--app-module mail=tests.fixture_apps.toy"):
        assert part in s, (part, s)


def test_eval_command_in_tool_mode_evaluates_through_the_tools():
    cfg = GRPORunConfig(model="m", out=Path("o"), tasks="food/*", mode="tools", max_turns=3, reply_tokens=64,
                        eval_seeds="1000-1003").resolved()
    s = " ".join(eval_command(cfg, EnvSettings(max_pixels=6272), "http://h:1/v1", Path("out")))
    for part in ("eval --agent openai --base-url http://h:1/v1 --mode tools", "--max-tokens 64", "--max-steps 3",
                 "--seeds 1000-1003"):
        assert part in s, (part, s)
    for screen_only in ("--format", "tool_screenshots", "--image-size", "--history-images"):
        assert screen_only not in s, (screen_only, s)


# A stand-in model server: answers 200 on every GET (the readiness probe reads /v1/models).
STUB_SERVER = """
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200); self.end_headers(); self.wfile.write(b'{"data": []}')
    def log_message(self, *a): pass
http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
"""


def test_served_model_waits_for_the_server_and_stops_it():
    import sys

    import httpx
    import pytest

    from agent_harness.train.evaluate import served_model

    started: list[int] = []

    def command(port: int) -> list[str]:
        started.append(port)
        return [sys.executable, "-c", STUB_SERVER, str(port)]

    with served_model(command, timeout=60) as url:
        assert url == f"http://127.0.0.1:{started[0]}/v1"
        assert httpx.get(url + "/models", timeout=5).status_code == 200
    with pytest.raises(httpx.HTTPError):
        httpx.get(url + "/models", timeout=2)
    # A server that exits before it answers is an error, not a hang.
    with pytest.raises(RuntimeError, match="exited"):
        with served_model(lambda port: [sys.executable, "-c", "raise SystemExit(3)"], timeout=60):
            pass


def test_ungraded_episodes_are_counted_apart_not_as_failures():
    """A judged task with no judge verdict (ungraded) is left out of reward and success, as in every pass rate."""
    rows = [{"app": "mail", "difficulty": "easy", "reward": 1.0, "passed": True, "steps": 3},
            {"app": "mail", "difficulty": "easy", "reward": 0.0, "passed": False, "ungraded": True, "steps": 5},
            {"app": "food", "difficulty": "hard", "reward": 0.0, "passed": False, "steps": 2}]
    m = results_metrics(rows)
    assert m["eval/episodes"] == 3 and m["eval/ungraded"] == 1
    assert m["eval/success"] == 0.5 and m["eval/reward"] == 0.5 and m["eval/success/app/mail"] == 1.0
    only_ungraded = results_metrics([rows[1]])
    assert only_ungraded["eval/ungraded"] == 1 and "eval/success" not in only_ungraded


def test_vllm_eval_server_is_started_as_uigym_vllm_serve_starts_it(tmp_path, monkeypatch):
    """`--eval-server vllm` starts vLLM's own server module with the python of vLLM's venv where there is one (the
    `vllm` console script does not work in the CPU build), a hermes tool parser, the model's own context length,
    and room for the episode's screenshots when the checkpoint is a VLM."""
    import json
    import sys

    from agent_harness.train.evaluate import vllm_eval_command

    vlm = tmp_path / "ckpt"
    vlm.mkdir()
    (vlm / "config.json").write_text(json.dumps({"vision_config": {}}))
    fake = tmp_path / "venv-vllm" / "bin" / "python"
    fake.parent.mkdir(parents=True)
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    monkeypatch.setenv("UIGYM_VLLM_PYTHON", str(fake))
    cmd = vllm_eval_command(vlm, 8123, images=6)
    assert cmd[:3] == [str(fake), "-m", "vllm.entrypoints.openai.api_server"] and "vllm" != cmd[0]
    assert cmd[cmd.index("--port") + 1] == "8123" and cmd[cmd.index("--served-model-name") + 1] == "checkpoint"
    assert cmd[cmd.index("--tool-call-parser") + 1] == "hermes" and "--max-model-len" not in cmd
    assert json.loads(cmd[cmd.index("--limit-mm-per-prompt") + 1])["image"] == 6
    monkeypatch.setenv("UIGYM_VLLM_PYTHON", str(tmp_path / "absent"))  # no vLLM venv: vLLM beside the trainer
    assert vllm_eval_command(vlm, 8123, images=6)[0] == sys.executable
