"""Partial credit on a long workspace task (README "Partial credit"): `uigym eval --partial-credit` rewards the share
of the task's milestones reached, `passed` stays the binary pass, and without the option nothing changes. Tools mode
(no browser): the order placed but the coworker never told reaches one milestone of two."""

from __future__ import annotations

import json

from agent_harness.agents import ToolOracleAgent
from agent_harness.episode import run_episode
from gym_core.config import EnvConfig
from gym_core.envs import env_for
from gym_core.runtime import Runtime
from tasks.loader import select_tasks

TASK_ID = "workspace/office-lunch-confirm-00"


def _task():
    (task,) = [t for t in select_tasks(TASK_ID) if t.id == TASK_ID]
    return task


async def test_the_reward_is_the_share_of_milestones_only_under_partial_credit(tmp_path):
    task = _task()
    assert [cp.name for cp in task.verify.checkpoints] == ["the lunch ordered to the office",
                                                           "the coworker told its number"]
    order_only = task.tools.near_misses[0]  # the order placed, the confirmation never sent
    cases = [(True, order_only, 0.5, 0.5, False), (False, order_only, 0.0, 0.5, False),
             (True, task.tools.solution, 1.0, 1.0, True), (True, task.tools.solution[-1:], 0.0, 0.0, False)]
    # A runtime of its own: an in-process `uigym eval` earlier in the same worker closes the session's current one.
    runtime = Runtime()
    env = env_for(task, "tools", EnvConfig(), runtime, "partial")
    try:
        for i, (on, calls, reward, partial, passed) in enumerate(cases):
            env.config.partial_credit = on  # one env, each episode from a fresh world (as validate switches configs)
            row = await run_episode(env, ToolOracleAgent(calls=calls), task, tmp_path / str(i), 0, "oracle",
                                    save_screenshots=False)
            assert row["error"] is None, row["error"]
            assert (row["reward"], row["partial"], row["passed"], row["partial_credit"]) == \
                (reward, partial, passed, on), i
    finally:
        await env.close()
        await runtime.close()


def test_eval_takes_partial_credit_and_writes_it_in_each_row(tmp_path):
    from typer.testing import CliRunner

    from agent_harness.cli import app

    out = tmp_path / "run"
    r = CliRunner().invoke(app, ["eval", "--tasks", TASK_ID, "--mode", "tools", "--agent", "oracle",
                                 "--partial-credit", "--workers", "1", "--out", str(out), "--no-report"])
    assert r.exit_code == 0, r.output
    (row,) = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert (row["reward"], row["partial"], row["passed"], row["partial_credit"]) == (1.0, 1.0, True, True)
