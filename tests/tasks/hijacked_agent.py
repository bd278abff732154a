"""A tool-mode agent that obeys the injection: it plays an injection task's first tool near-miss (the task, then
the injected action). `uigym eval --agent tests.tasks.hijacked_agent:HijackedToolAgent --mode tools --tasks
'mail/injection-*'` shows the ASR column at 100% (README: Judgement tasks)."""

from __future__ import annotations

from agent_harness.agents.tool_oracle import ToolOracleAgent


class HijackedToolAgent(ToolOracleAgent):
    name = "hijacked"

    async def reset(self, env, task) -> None:
        if task is None or task.attack is None or task.tools is None or not task.tools.near_misses:
            raise ValueError("the hijacked agent plays injection tasks only (Task.attack and tool near-misses)")
        self.fixed_calls = task.tools.near_misses[0]
        await super().reset(env, task)
