"""Model agent pieces that need no browser: Qwen's resize rule, history trimming, reply texts."""

from __future__ import annotations

import numpy as np
import pytest

from agent_harness.agents import make_agent
from agent_harness.agents.model import ModelAgent, reply_text, smart_resize
from agent_harness.formats import FormatContext, Reply, ToolCall


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (800, 600), (390, 844), (3840, 2160), (100, 50)])
@pytest.mark.parametrize("max_pixels", [28 * 28 * 64, 28 * 28 * 1280, 12845056])
def test_smart_resize_is_qwens(size, max_pixels):
    from transformers.models.qwen2_vl.image_processing_qwen2_vl import smart_resize as qwen

    h, w = qwen(size[1], size[0], factor=28, min_pixels=56 * 56, max_pixels=max_pixels)
    assert smart_resize(*size, max_pixels=max_pixels) == (w, h)


def test_registered_and_image_size_rules():
    agent = make_agent("openai", base_url="http://x/v1", format="uitars", max_pixels=12845056)
    assert isinstance(agent, ModelAgent) and agent.model_image_size((1280, 720)) == (1288, 728)
    assert ModelAgent(image_size="640x360").model_image_size((1280, 720)) == (640, 360)
    assert ModelAgent().model_image_size((1280, 720)) == (1280, 720)
    with pytest.raises(ValueError):
        ModelAgent(format="morse")


class _Env:
    width, height, last_png = 1280, 720, None


class _Task:
    goal = "Star the latest email."


async def test_history_turns_keep_the_goal_and_the_last_steps():
    agent = ModelAgent(format="uitars", history_images=1, history_turns=2, model="m")
    await agent.reset(_Env(), _Task())
    obs = {"screenshot": np.zeros((720, 1280, 3), np.uint8), "url": "/inbox", "step": 0, "last_action_error": ""}
    for i in range(4):
        obs["step"] = i
        agent._add_observation(obs)
        agent._add_assistant({}, Reply(content=f"Thought: {i}\nAction: wait()"))
    msgs = agent.request_messages()
    assert msgs[0]["role"] == "system" and "Task: Star the latest email." in msgs[1]["content"]
    assert "(earlier steps omitted)" in msgs[1]["content"]
    users = [m for m in msgs if m["role"] == "user"][1:]
    assert len(users) == 2 and [m["content"] for m in msgs if m["role"] == "assistant"][-1].startswith("Thought: 3")
    images = [p for m in users for p in m["content"] if p["type"] == "image_url"]
    assert len(images) == 1  # only the last screenshot travels as an image


def test_reply_text_shows_tool_calls_and_reasoning():
    r = Reply(content="Clicking.", tool_calls=[ToolCall("click", {"x": 1, "y": 2}), ToolCall("type", '{"text": "a"}')],
              reasoning="why")
    text = reply_text(r)
    assert text.startswith("<think>why</think>\nClicking.")
    assert '{"name": "click", "arguments": {"x": 1, "y": 2}}' in text and '"arguments": {"text": "a"}' in text


def test_cursor_follows_emitted_actions():
    agent = ModelAgent()
    agent.ctx = FormatContext()
    agent._emit({"type": "click", "x": 5, "y": 6})
    assert agent.ctx.cursor == (5, 6)
    agent._emit({"type": "drag", "path": [[1, 1], [9, 9]]})
    assert agent.ctx.cursor == (9, 9)


def test_a_misspelt_agent_arg_is_refused_with_the_names_the_agent_takes(tmp_path):
    """Every agent passes **kw up to Agent, which drops it: without the check `--agent-arg restate_goall=true`
    ran a whole eval without the option and without a word."""
    from typer.testing import CliRunner

    from agent_harness.agents import agent_parameters
    from agent_harness.agents.tool_model import ToolModelAgent
    from agent_harness.cli import app

    assert {"restate_goal", "base_url", "temperature"} <= agent_parameters(ToolModelAgent)
    assert "jitter" not in agent_parameters(ToolModelAgent)
    runner = CliRunner()
    bad = runner.invoke(app, ["eval", "--agent", "openai", "--mode", "tools", "--tasks", "food/cancel-plus*",
                              "--agent-arg", "restate_goall=true", "--out", str(tmp_path / "r")])
    assert bad.exit_code == 2 and "takes no 'restate_goall'" in bad.output and "restate_goal" in bad.output
    assert not (tmp_path / "r").exists()
    bad = runner.invoke(app, ["eval", "--agent", "oracle", "--tasks", "food/*", "--agent-arg", "temperature=0",
                              "--out", str(tmp_path / "o")])
    assert bad.exit_code == 2 and "OracleAgent takes no 'temperature'" in bad.output


@pytest.mark.parametrize("raw", ["{", "[" * 5000 + "]" * 5000, '{"thread_ids": [' + "9" * 5000 + "]}",
                                 '{"a": ' * 3000 + "1" + "}" * 3000])
def test_unreadable_tool_arguments_are_a_parse_error_never_an_exception(raw):
    """Arguments that are not JSON, too deep for the parser, or hold an integer past Python's 4300 digits
    come back as unreadable arguments the app refuses (a step with an error), counted as a parse error."""
    from agent_harness.agents.tool_model import ToolModelAgent

    agent = ToolModelAgent(base_url="http://127.0.0.1:9/v1", model="m")
    agent.parse_errors = 0  # what reset() sets
    action = agent._action("star", raw)
    assert action["type"] == "tool" and "__unreadable_arguments__" in action["args"]
    assert agent.parse_errors == 1 and "are not JSON" in agent.last_parse_error


async def test_tool_mode_sends_and_records_logprobs_and_top_p():
    """`--logprobs` and `--top-p` reach a tool-mode request as they do a screen-mode one, and the reply's logprobs are
    summed into the step's usage (tool mode dropped both before)."""
    import json

    import httpx

    from agent_harness.agents.tool_model import ToolModelAgent

    sent: list[dict] = []

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append(json.loads(request.content))
        return httpx.Response(200, json={
            "choices": [{"message": {"role": "assistant", "content": "I am done."}, "finish_reason": "stop",
                         "logprobs": {"content": [{"token": "I", "logprob": -0.5}, {"token": " am", "logprob": -1.25}]}}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12}})

    agent = ToolModelAgent(base_url="http://fake/v1", model="m", logprobs=True, top_p=0.9)
    agent._client = httpx.AsyncClient(transport=httpx.MockTransport(answer), base_url="http://fake/v1")
    agent.task, agent.app, agent.tools, agent.turns, agent.queue = None, "mail", [], [{"role": "user", "content": "go"}], []
    agent.pending, agent.n_calls, agent.parse_errors, agent.restate_goal = None, 0, 0, False
    action = await agent.act({})
    await agent._client.aclose()
    assert action["type"] == "done"
    assert sent[0]["logprobs"] is True and sent[0]["top_p"] == 0.9
    assert agent.last_usage["logprob_sum"] == -1.75 and agent.last_usage["logprob_tokens"] == 2
