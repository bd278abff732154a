"""The eval runner: results stream to results.jsonl, reruns skip finished episodes, a crashing
agent is recorded and the run goes on, trajectories are saved."""

from __future__ import annotations

import json

import pytest

from agent_harness.agents import Agent, register_agent
from agent_harness.runner import EvalConfig, read_results, run_eval
from agent_harness.trajectory import Trajectory
from tasks import select_tasks


class BoomAgent(Agent):
    name = "boom"

    async def act(self, obs):
        if self.task.id.endswith("0"):
            raise RuntimeError("agent exploded")
        return {"type": "done"}


register_agent("boom", BoomAgent)


@pytest.fixture(scope="module")
def three_tasks():
    tasks = select_tasks("mail/*")
    assert len(tasks) >= 3, "the bundled mail tasks are missing"
    return tasks[:3]


async def test_oracle_results_and_trajectories(tmp_path, three_tasks, runtime):
    cfg = EvalConfig(agent="oracle", tasks=three_tasks, out=tmp_path, workers=2)
    rows = await run_eval(cfg)
    assert sorted(r["task_id"] for r in rows) == sorted(t.id for t in three_tasks)
    for r in rows:
        assert {"task_id", "app", "difficulty", "agent", "reward", "steps", "seconds", "error"} <= set(r)
        assert r["reward"] == 1.0 and r["error"] is None and r["agent"] == "oracle" and r["steps"] >= 1
        traj = Trajectory.load(tmp_path / r["episode_dir"] / "trajectory.json")
        assert traj.reward == 1.0 and len(traj.steps) == r["steps"]
        assert all((tmp_path / r["episode_dir"] / s.screenshot).exists() for s in traj.steps)
        assert (tmp_path / r["episode_dir"] / "000.png").exists()
        assert traj.verify and all(c["passed"] for c in traj.verify["checks"])
    lines = (tmp_path / "results.jsonl").read_text().splitlines()
    assert len(lines) == 3 and all(json.loads(x)["task_id"] for x in lines)

    # A rerun skips what is finished: nothing is appended.
    again = await run_eval(cfg)
    assert len(again) == 3
    assert (tmp_path / "results.jsonl").read_text().splitlines() == lines


async def test_a_crashing_agent_is_recorded_and_the_run_goes_on(tmp_path, three_tasks, runtime):
    tasks = [t for t in select_tasks("mail/*") if t.id.endswith("0")][:1] + [three_tasks[1]]
    rows = await run_eval(EvalConfig(agent="boom", tasks=tasks, out=tmp_path, workers=1))
    by_id = {r["task_id"]: r for r in rows}
    crashed = by_id[tasks[0].id]
    assert crashed["reward"] == 0.0 and "agent exploded" in crashed["error"]
    assert by_id[tasks[1].id]["error"] is None  # the next episode ran normally
    traj = Trajectory.load(tmp_path / crashed["episode_dir"] / "trajectory.json")
    assert "agent exploded" in traj.error


async def test_cut_short_results_line_is_ignored_and_rerun(tmp_path, three_tasks, runtime):
    (tmp_path / "results.jsonl").write_text('{"task_id": "' + three_tasks[0].id + '", "agent": "noop", "sam')
    rows = await run_eval(EvalConfig(agent="noop", tasks=three_tasks[:1], out=tmp_path, workers=1))
    assert len(rows) == 1 and rows[0]["reward"] == 0.0
    assert len(read_results(tmp_path)) == 1
