"""The agent interface the runner drives."""

from __future__ import annotations

from typing import Any

from gym_core.env import AsyncUIEnv
from tasks import Task


class Agent:
    """An agent sees observations and answers with uigym actions (dicts).

    `reset` is called at the start of each episode with the env (privileged agents such as the
    oracle read its page to resolve targets; model agents must not) and the task.
    What every agent reports, read by the runner after each action (and set by it before reset):
    `last_text`: what the agent 'said' for its last action (a model's reasoning), for reports;
    `last_usage`: a model call's tokens, latency, retries; `last_parse_error`: why the last reply could
    not be used (empty when it could); `episode_sample`: which sample of the task this episode is (a
    jittered oracle varies by it).
    """

    name = "agent"
    privileged = False

    def __init__(self, **_: Any):
        self.last_text: str = ""
        self.last_usage: dict[str, Any] = {}
        self.last_parse_error: str = ""
        self.episode_sample: int = 0
        self.env: AsyncUIEnv | None = None  # set by reset
        self.task: Task | None = None

    async def reset(self, env: AsyncUIEnv, task: Task | None) -> None:
        self.env = env
        self.task = task

    async def act(self, obs: dict) -> dict:
        raise NotImplementedError

    async def close(self) -> None:
        pass
