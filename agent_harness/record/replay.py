"""Replay a saved trajectory through env.step in a fresh world and compare where it ends.

Quality control for demonstrations (and a check that any trajectory is what it claims): the
recorded actions, played again from a fresh reset of the same task, must reach the same grade and
change the world in the same way.

    result = await replay_episode("runs/demos/episodes/mail__star-x/s0", env)
    assert result.ok, result.describe()
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent_harness.trajectory import Trajectory
from gym_core.env import AsyncUIEnv
from gym_core.world_env import EpisodeOver
from tasks import Task


@dataclass
class ReplayResult:
    task_id: str
    recorded_reward: float
    reward: float
    steps: int
    recorded_steps: int
    diff: dict
    recorded_diff: dict | None
    screens_equal: int = 0  # final screenshots identical to the recorded ones, of the steps replayed
    action_errors: list[str] = field(default_factory=list)

    @property
    def same_reward(self) -> bool:
        return self.reward == self.recorded_reward

    @property
    def same_state(self) -> bool | None:
        """Whether the world changed as it did when recorded (None: the recording kept no diff)."""
        return None if self.recorded_diff is None else _norm(self.diff) == _norm(self.recorded_diff)

    @property
    def ok(self) -> bool:
        return self.same_reward and self.steps == self.recorded_steps and self.same_state is not False

    def describe(self) -> str:
        errors = f", errors: {self.action_errors}" if self.action_errors else ""
        return (f"{self.task_id}: reward {self.reward} (recorded {self.recorded_reward}), steps {self.steps}/"
                f"{self.recorded_steps}, same end state: {self.same_state}, identical screens: "
                f"{self.screens_equal}/{self.steps}{errors}")


def _norm(diff: Any) -> Any:
    return json.loads(json.dumps(diff, default=str, sort_keys=True))


def _task_for(edir: Path, traj: Trajectory, task: Task | None) -> Task:
    if task is not None:
        return task
    f = edir / "task.json"
    if f.exists():
        return Task.model_validate_json(f.read_text())
    from tasks import load_task

    return load_task(traj.task_id)


async def replay_episode(episode: str | Path, env: AsyncUIEnv, task: Task | None = None,
                         compare_screens: bool = True) -> ReplayResult:
    """Reset `env` to the episode's task (its task.json, or the bundled task of that id) and step
    through the recorded actions; the end state's diff is compared with the recorded state_diff.json."""
    from grading import diff_states

    edir = Path(episode)
    traj = Trajectory.load(edir / "trajectory.json")
    task = _task_for(edir, traj, task)
    await env.reset(task=task, look=getattr(traj, "look", None))  # the look it was recorded in
    reward, n, same_screens, errors = 0.0, 0, 0, []
    for rec in traj.steps:
        action = rec.action
        try:
            _, reward, terminated, truncated, _ = await env.step(action)
        except EpisodeOver:
            break
        n += 1
        if env.last_error:
            errors.append(f"step {n}: {env.last_error}")
        if compare_screens:
            shot = edir / rec.screenshot
            if shot.exists() and shot.read_bytes() == env.last_png:
                same_screens += 1
        if terminated or truncated:
            break
    end = await env.state()
    diff = diff_states(env.start_state, end)
    recorded = None
    f = edir / "state_diff.json"
    if f.exists():
        recorded = json.loads(f.read_text())
    return ReplayResult(task_id=task.id, recorded_reward=float(traj.reward), reward=float(reward), steps=n,
                        recorded_steps=len(traj.steps), diff=diff, recorded_diff=recorded,
                        screens_equal=same_screens, action_errors=errors)
