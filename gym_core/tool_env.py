"""AsyncToolEnv: one agent's world through the app's tools only: no browser, text observations.

    env = AsyncToolEnv("mail")
    obs, info = await env.reset(task="mail/star-latest-from-00")     # info["tools"]: OpenAI function list
    obs, reward, terminated, truncated, info = await env.step(
        {"type": "tool", "name": "search_mail", "args": {"query": "from:ana"}})
    ... await env.step({"type": "done", "answer": "March 14"})

Observation: {goal, step, last_action_error, tool_result} (the last call's JSON result). The same worlds,
tasks and verifiers as the screen: a task's reward is the verifier's score of the world the calls left.
A refused call (unknown tool, bad arguments, unknown id) changes nothing, is reported in
`last_action_error` and costs a step, as a bad screen action does.
"""

from __future__ import annotations

from typing import Any

from gym_core.actions import TOOL_ACTION_TYPES, Action, ToolUse
from gym_core.spaces import ERROR_MAX_CHARS, clip_text
from gym_core.world_env import WorldEnv
from tasks import Task


class AsyncToolEnv(WorldEnv):
    mode = "tools"

    async def reset(self, *, task: Task | str | dict | None = None, seed: int | None = None,
                    start_path: str | None = None, look: str | list[str] | None = None,
                    fixtures: list[dict] | None = None) -> tuple[dict, dict]:
        """`start_path` is accepted for the screen envs' signature and ignored: there is no page. `fixtures`: with
        no task, applied to the world after its reset (a workspace task's part for this app)."""
        task, app = self._take_task(task)
        reset_info = await self._reset_world(task, app, seed, look, fixtures)
        return await self._observe(), self._info(reset=reset_info, tools=await self.tools())

    allowed_actions = TOOL_ACTION_TYPES

    async def _act(self, action: Action) -> None:
        if isinstance(action, ToolUse):
            await self._call_tool(action)

    async def _observe(self) -> dict[str, Any]:
        # Every value within its bound in gym_core.spaces.tool_observation_space(self.config).
        return {"goal": self.goal, "step": self.steps, "last_action_error": clip_text(self.last_error, ERROR_MAX_CHARS),
                "tool_result": self.last_tool_result}
