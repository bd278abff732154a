"""Agents: `act(obs) -> action` after `reset(env, task)`. The registry maps CLI names to classes."""

from __future__ import annotations

from agent_harness.agents.base import Agent
from agent_harness.agents.noop import NoopAgent
from agent_harness.agents.oracle import OracleAgent
from agent_harness.agents.random_agent import RandomAgent
from agent_harness.agents.tool_oracle import ToolOracleAgent

AGENTS: dict[str, type[Agent]] = {"oracle": OracleAgent, "noop": NoopAgent, "random": RandomAgent,
                                  "tool-oracle": ToolOracleAgent}


def register_agent(name: str, cls: type[Agent]) -> None:
    AGENTS[name] = cls


def make_agent(name: str, **kwargs) -> Agent:
    if name not in AGENTS:
        # Model agents live in their own module and register on import (they pull in HTTP clients).
        try:
            import agent_harness.agents.model  # noqa: F401
        except ImportError:
            pass
    if name == "openai-tools" and name not in AGENTS:
        from agent_harness.agents.tool_model import ToolModelAgent

        AGENTS[name] = ToolModelAgent
    if name not in AGENTS:
        raise ValueError(f"unknown agent {name!r}; known agents: {', '.join(sorted(AGENTS))}")
    return AGENTS[name](**kwargs)


__all__ = ["Agent", "AGENTS", "make_agent", "register_agent", "OracleAgent", "NoopAgent", "RandomAgent", "ToolOracleAgent"]
