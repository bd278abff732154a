"""The agent interface the runner drives."""

from __future__ import annotations

from typing import Any

from gym_core.env import AsyncUIEnv
from tasks import Task


class Agent:
    """An agent sees observations and answers with uigym actions (dicts).

    `reset` is called at the start of each episode with the env (privileged agents such as the
    oracle read its page to resolve targets; model agents must not) and the task.
    `last_text` is what the agent 'said' for its last action (a model's reasoning), for reports.
    """

    name = "agent"
    privileged = False

    def __init__(self, **_: Any):
        self.last_text: str = ""
        self.last_usage: dict[str, Any] = {}

    async def reset(self, env: AsyncUIEnv, task: Task | None) -> None:
        self.env = env
        self.task = task

    async def act(self, obs: dict) -> dict:
        raise NotImplementedError

    async def close(self) -> None:
        pass
