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


LAZY_AGENTS = ("openai", "vllm", "openai-tools")  # the model agents, imported only when named (_model_agent)


def _model_agent(name: str) -> type[Agent] | None:
    """The model agents, imported only when named: they pull in HTTP clients and image codecs."""
    if name in ("openai", "vllm"):
        from agent_harness.agents.model import ModelAgent

        return ModelAgent
    if name == "openai-tools":
        from agent_harness.agents.tool_model import ToolModelAgent

        return ToolModelAgent
    return None


def agent_parameters(cls: type[Agent]) -> set[str]:
    """The keyword arguments an agent class takes: its own and its bases' (each passes **kw up to Agent,
    which accepts and drops anything, so a misspelt option would otherwise vanish without a word)."""
    import inspect

    names: set[str] = set()
    for klass in cls.__mro__:
        init = klass.__dict__.get("__init__")
        if init is None:
            continue
        for p in inspect.signature(init).parameters.values():
            if p.name != "self" and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
                names.add(p.name)
    return names


def make_agent(name: str, **kwargs) -> Agent:
    cls = AGENTS.get(name) or _model_agent(name)
    if cls is None:
        known = sorted({*AGENTS, *LAZY_AGENTS})
        raise ValueError(f"unknown agent {name!r}; known agents: {', '.join(known)}")
    return cls(**kwargs)


__all__ = ["Agent", "AGENTS", "agent_parameters", "make_agent", "register_agent", "OracleAgent", "NoopAgent", "RandomAgent", "ToolOracleAgent"]
