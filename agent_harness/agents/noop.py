"""The do-nothing agent: ends every episode at once. Every task must grade it 0."""

from __future__ import annotations

from agent_harness.agents.base import Agent


class NoopAgent(Agent):
    name = "noop"

    async def act(self, obs: dict) -> dict:
        return {"type": "done"}
