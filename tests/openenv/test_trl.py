"""TRL through OpenEnv: GRPOTrainer with `environment_factory` over the OpenEnv client (openenv_uigym.trl_grpo),
two GRPO steps of the project's tiny random model in tools mode, every rollout one session of the server and
rewarded by the server's verifier. The random model seldom forms a call, so the environment's tool methods are
also proven directly: the gold calls through them get the reward 1."""

from __future__ import annotations

import json

import pytest

from openenv_uigym.oracle import tool_plan
from openenv_uigym.trl_grpo import build_trainer, environment_class
from tests.openenv.conftest import TASKS


def test_the_environment_methods_play_a_task(tools_server):
    task = TASKS["crm"]
    env = environment_class(tools_server.url)()
    try:
        first = env.reset(task=task, prompt=[{"role": "user", "content": ""}])
        assert first.startswith("Task: ") and "search_records" in first
        assert "properties" in env.describe_tool("search_records")
        assert env.describe_tool("launch_rocket").startswith("Error")
        assert env.call_tool("search_records", "{not json").startswith("Error: the arguments are not JSON")
        assert env.call_tool("launch_rocket", "{}").startswith("Error")
        for action in tool_plan(task):
            if action["type"] == "tool":
                assert not env.call_tool(action["name"], json.dumps(action["args"])).startswith("Error")
        assert env.get_reward() == 1.0
        env.reset(task=task)
        assert env.get_reward() == 0.0  # never said done: ended there and graded as it stands
    finally:
        env._close()


@pytest.mark.timeout(600)
def test_two_grpo_steps_through_the_openenv_client(tools_server, tmp_path):
    pytest.importorskip("trl")
    import torch

    torch.set_num_threads(1)
    trainer = build_trainer(tools_server.url, [TASKS["crm"]], "crm", out=str(tmp_path / "grpo"), steps=2,
                            num_generations=2, max_completion_length=16, max_turns=1)
    try:
        trainer.train()
        logs = [h for h in trainer.state.log_history if "reward" in h]
        assert len(logs) == 2, trainer.state.log_history
        for h in logs:
            assert "rewards/OpenEnvToolEnv/mean" in h and 0.0 <= h["reward"] <= 1.0, h
        pool = [e for envs in trainer._environment_pool.values() for e in envs]
        assert len(pool) == 2 and sum(e.episodes for e in pool) >= 4  # 2 steps x 2 rollouts, each a reset
        assert tools_server.stats()["sessions"] >= 2  # the pooled sessions, open between batches
    finally:
        for envs in trainer._environment_pool.values():
            for e in envs:
                e._close()
