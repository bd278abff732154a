"""The ten cross-app templates that took the workspace to 25 (issue 38): each one's shape (six tasks in its tier, the
probes every workspace template carries, milestones where it writes in two apps), and partial credit on the one that
writes in all three (tools mode, no browser: the lunch ordered and the deal closed, the coworker never told, reaches
two milestones of three)."""

from __future__ import annotations

import pytest

from agent_harness.agents import ToolOracleAgent
from agent_harness.episode import run_episode
from gym_core.config import EnvConfig
from gym_core.envs import env_for
from gym_core.runtime import Runtime
from tasks.loader import select_tasks

# template -> (tier, its milestones: one a step written, in its app or answered by a correspondent; none where the
# task is one write, whose checks are the whole task)
NEW = {
    "case-status-reply": ("hard", 0),
    "case-owner-intro-reply": ("hard", 2),
    "cancel-lunch-tell": ("hard", 2),
    "account-cases-email-client": ("hard", 0),
    "receipt-forward-ap-account": ("hard", 0),
    "client-lunch-account-note": ("hard", 2),
    "won-deal-celebration": ("long", 3),
    "ask-time-call-task": ("long", 2),
    "ask-headcount-client-visit": ("long", 3),
    "ask-po-email-ap": ("long", 2),
}


@pytest.mark.parametrize("name", sorted(NEW))
def test_each_new_template_has_six_tasks_with_its_probes(name):
    tier, milestones = NEW[name]
    tasks = [t for t in select_tasks(f"workspace/{name}-*") if t.id.startswith(f"workspace/{name}-")]
    assert len(tasks) == 6
    for t in tasks:
        assert t.difficulty == tier
        assert len(t.near_misses) >= 3 and len(t.tools.near_misses) >= 2
        assert {a.kind for a in t.adversarial} >= {"wrong_record", "dump", "extra"}
        assert t.harmless
        assert len(t.verify.checkpoints or []) == milestones
        if tier == "long":
            assert 15 <= len(t.solution) <= t.max_steps <= 60


async def test_won_deal_celebration_partial_credit_two_of_three(tmp_path):
    task_id = "workspace/won-deal-celebration-00"
    (task,) = [t for t in select_tasks(task_id) if t.id == task_id]
    assert [cp.name for cp in task.verify.checkpoints] == ["the deal closed won", "the lunch ordered to the office",
                                                           "the coworker told"]
    not_told = task.tools.near_misses[0]  # the deal closed and the lunch ordered, the email never sent
    runtime = Runtime()
    env = env_for(task, "tools", EnvConfig(), runtime, "partial")
    try:
        env.config.partial_credit = True
        for i, (calls, reward, passed) in enumerate([(not_told, 2 / 3, False), (task.tools.solution, 1.0, True)]):
            row = await run_episode(env, ToolOracleAgent(calls=calls), task, tmp_path / str(i), 0, "oracle",
                                    save_screenshots=False)
            assert row["error"] is None, row["error"]
            assert row["passed"] is passed and row["partial"] == pytest.approx(reward), (i, row)
    finally:
        await env.close()
        await runtime.close()
