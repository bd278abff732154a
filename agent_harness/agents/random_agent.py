"""A random agent: random clicks, scrolls and keys for a few steps; a floor for every task."""

from __future__ import annotations

import random

import numpy as np

from agent_harness.agents.base import Agent
from gym_core.actions import ACTION_TYPES
from gym_core.spaces import ActionSpace

NOT_DONE = np.array([t != "done" for t in ACTION_TYPES], dtype=np.int8)


class RandomAgent(Agent):
    name = "random"

    def __init__(self, steps: int = 10, seed: int = 0, **kw):
        super().__init__(**kw)
        self.steps, self.seed = steps, seed

    async def reset(self, env, task) -> None:
        await super().reset(env, task)
        self.space = ActionSpace(env.width, env.height)
        self.space.seed(random.Random(f"{self.seed}:{task.id if task else ''}").randrange(2**31))
        self.n = 0

    async def act(self, obs: dict) -> dict:
        self.n += 1
        if self.n > self.steps:
            return {"type": "done"}
        return self.space.sample(mask=NOT_DONE)  # it says done itself, after `steps` actions
