"""A judged task through the env, in a real browser: the oracle's reply reaches a (fake) OpenAI-compatible
judge as the text the app stored, and the env's reward and `info["graded"]` follow the judge: a verdict
grades, no judge or a judge that times out leaves the episode ungraded (reward 0, never passed). The env's
recorded trajectory feeds process checks."""

from __future__ import annotations

import dataclasses

import pytest

from agent_harness.agents import OracleAgent
from gym_core.env import AsyncUIEnv, EnvConfig
from tasks import load_task
from tests.grading.fake_judge import FakeJudgeServer
from grading import verify
from grading.judge import OpenAIJudge

pytestmark = pytest.mark.slow


async def test_judged_task_through_the_env(runtime, monkeypatch):
    for k in ("UIGYM_JUDGE_BASE_URL", "UIGYM_JUDGE_MODEL"):
        monkeypatch.delenv(k, raising=False)
    task = load_task("mail/judged-answer-question-00")
    gold = task.solution[-3].text
    server = FakeJudgeServer(labels={gold: True}).start()
    judge = OpenAIJudge(server.base_url, "fake-judge", timeout_s=1.0, retries=0, cache=None)
    env = AsyncUIEnv(None, EnvConfig(judge=judge), runtime=runtime)
    try:
        obs, _ = await env.reset(task=task)
        agent = OracleAgent()
        await agent.reset(env, task)
        while True:
            obs, reward, term, trunc, info = await env.step(await agent.act(obs))
            assert not obs["last_action_error"], obs["last_action_error"]
            if term or trunc:
                break
        assert reward == 1.0 and info["graded"] is True, info["verify"]
        (body,) = server.requests
        assert FakeJudgeServer.candidate(body)[0] == gold  # the stored reply, not the goal
        assert "thread" in info["verify"]["checks"][0]["name"]

        # The trajectory the env recorded: one entry per step, for process checks.
        assert len(env.trajectory) == env.steps and env.trajectory[-1]["action"]["type"] == "done"
        assert all(s["url"].startswith("http") for s in env.trajectory)
        spec = {"checks": [{"code": "steps_at_most", "args": {"n": env.steps}},
                           {"code": "never_visited", "args": {"path": "/settings"}}]}
        assert verify(spec, env.start_state, env.start_state, None, trajectory=env.trajectory).passed
        spec["checks"][0]["args"]["n"] = env.steps - 1
        assert not verify(spec, env.start_state, env.start_state, None, trajectory=env.trajectory).passed

        server.mode = "timeout"
        r = await env.grade()
        assert r.status == "ungraded" and r.score == 0.0 and "timed out" in r.ungraded_reason

        env.config = dataclasses.replace(env.config, judge=None)  # and no UIGYM_JUDGE_* either
        r = await env.grade()
        assert r.status == "ungraded" and not r.passed and "--judge-base-url" in r.ungraded_reason
    finally:
        await env.close()
        server.stop()
