"""AsyncToolEnv: one agent's world through the app's tools only: no browser, text observations.

    env = AsyncToolEnv("mail")
    obs, info = await env.reset(task="mail/star-latest-from-00")     # info["tools"]: OpenAI function list
    obs, reward, terminated, truncated, info = await env.step(
        {"type": "tool", "name": "search_threads", "args": {"query": "from:ana"}})
    ... await env.step({"type": "done", "answer": "March 14"})

Observation: {goal, step, last_action_error, tool_result} (the last call's JSON result). The same worlds,
tasks and verifiers as the screen: a task's reward is the verifier's score of the world the calls left.
A refused call (unknown tool, bad arguments, unknown id) changes nothing, is reported in
`last_action_error` and costs a step, as a bad screen action does.
"""

from __future__ import annotations

from typing import Any

from gym_core.actions import TOOL_ACTION_TYPES, ActionError, Done, ToolUse, action_to_dict, parse_action
from gym_core.spaces import ERROR_MAX_CHARS, clip_text
from gym_core.world_env import EpisodeOver, WorldEnv
from tasks import Task


class AsyncToolEnv(WorldEnv):
    mode = "tools"

    async def reset(self, *, task: Task | str | dict | None = None, seed: int | None = None,
                    start_path: str | None = None) -> tuple[dict, dict]:
        """`start_path` is accepted for the screen envs' signature and ignored: there is no page."""
        task, app = self._take_task(task)
        reset_info = await self._reset_world(task, app, seed)
        return self._observe(), self._info(reset=reset_info, tools=await self.tools())

    async def step(self, action: Any) -> tuple[dict, float, bool, bool, dict]:
        if self.server is None:
            raise RuntimeError("call reset() before step()")
        if self.done:
            raise EpisodeOver("the episode is over; call reset() to start another")
        self.steps += 1
        self.last_error = ""
        parsed = None
        terminated = False
        try:
            parsed = parse_action(action, TOOL_ACTION_TYPES)
            if isinstance(parsed, Done):
                terminated = True
                self.answer = parsed.answer
            elif isinstance(parsed, ToolUse):
                await self._call_tool(parsed)
        except ActionError as e:
            self.last_error = str(e)
        truncated = not terminated and self.steps >= self.max_steps
        self.trajectory.append({"step": self.steps, "action": action_to_dict(parsed) if parsed is not None else None,
                                "url": "", "error": self.last_error})
        reward = 0.0
        info_extra: dict[str, Any] = {}
        if terminated or truncated:
            info_extra = await self._finish()
            reward = info_extra.pop("reward")
        info = self._info(**info_extra)
        info["action"] = action_to_dict(parsed) if parsed is not None else action
        return self._observe(), reward, terminated, truncated, info

    def _observe(self) -> dict[str, Any]:
        # Every value within its bound in gym_core.spaces.tool_observation_space(self.config).
        return {"goal": self.goal, "step": self.steps, "last_action_error": clip_text(self.last_error, ERROR_MAX_CHARS),
                "tool_result": self.last_tool_result}
