"""The tool oracle: plays a task's gold function calls (`task.tools.solution`) through env.step, in tool
or hybrid mode, so every task is proven solvable through the app's tools as well as through its screen."""

from __future__ import annotations

from agent_harness.agents.base import Agent
from tasks.schema import ToolCall


def call_to_action(call: ToolCall) -> dict:
    """A tool plan's call as the env's action: `done` ends the episode, anything else is a tool call."""
    if call.tool == "done":
        return {"type": "done", **({"answer": call.args["answer"]} if call.args.get("answer") is not None else {})}
    return {"type": "tool", "name": call.tool, "args": dict(call.args)}


class ToolOracleAgent(Agent):
    name = "tool-oracle"
    privileged = True

    def __init__(self, calls: list[ToolCall] | None = None, **kw):
        super().__init__(**kw)
        self.fixed_calls = calls

    async def reset(self, env, task) -> None:
        await super().reset(env, task)
        if self.fixed_calls is not None:
            calls = self.fixed_calls
        elif task is not None and task.tools is not None and task.tools.solution:
            calls = task.tools.solution
        else:
            why = task.tools.unsupported if task is not None and task.tools is not None else "it has no tool plan"
            raise ValueError(f"task {task.id if task else '(free play)'} has no tool solution: {why}")
        self._plan = iter([call_to_action(c) for c in calls])

    async def act(self, obs: dict) -> dict:
        return next(self._plan, {"type": "done"})
