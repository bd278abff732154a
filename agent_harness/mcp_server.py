"""`uigym mcp`: one world's tools as an MCP server (the official `mcp` SDK, streamable HTTP or stdio).

    uigym mcp --app mail --world w1 --seed 0                             # a bare world: its tools only
    uigym mcp --task mail/star-latest-from-00 --grade                    # an episode: goal, tools, done
    uigym mcp --tasks 'mail/star-*' --mode ui                            # the screen's tools, next_task

The server is bound to one world of one app at start: the world's id is not an argument of any tool, and
the control API's token stays in this process, so a client can act on that world and nothing else. Tools,
schemas and errors are the app's own (apps/<app>/tools.py, through the control API's tool routes): the
same calls the tools env makes. A refused call comes back as an MCP error result (`isError`) with the
app's message, except arguments no tool could take (nested too deeply, an integer beyond SQLite's range;
a lone surrogate, which the SDK's JSON reader already refuses as a parse error), which are a JSON-RPC error
-32602 (invalid params) with the message; either way the world is unchanged, and nothing is logged as a
server failure.

With a task (`McpEpisodes`, `build_episode_server`) the server plays episodes of the env itself (AsyncToolEnv,
or AsyncUIEnv for the screen): every call is a step, `done` is the env's done action and its grade is the
env's, so an MCP episode is bounded and graded as an eval episode is. The client sees the goal and the
results; the control API, the task's solution and its verifier spec stay here, and the grade reaches the
client only where the operator asked for it (--grade).
"""

from __future__ import annotations

import asyncio
import base64
import json
from typing import Any, Callable

from mcp import types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS

from apps.tool_args import MalformedArgs, encode_args
from gym_core.env import AsyncUIEnv
from gym_core.server import ControlClient, InvalidToolArguments, ServerError, ToolCallError
from gym_core.world_env import DONE_TOOL, WorldEnv
from tasks import Task


def build_server(control: ControlClient, world: str, tools: list[dict], *, name: str) -> Server:
    """An MCP server whose tools are `tools` ({name, description, input_schema}, the control API's list),
    every call run in `world` through `control`."""
    listed = [types.Tool(name=t["name"], description=t["description"], input_schema=t["input_schema"]) for t in tools]

    async def list_tools(_ctx: Any, _params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=listed)

    async def call_tool(_ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        # The checks are the ControlClient's and the app's (one rule each, as for the envs). Arguments no tool
        # could take (too deep, an integer beyond SQLite's range, a lone surrogate: see `encode_args`) are
        # the request's invalid params: JSON-RPC -32602 with the message. Any other refusal (an unknown name,
        # a mistyped argument, an unknown id) is the tool's error result, which the model reads and corrects.
        try:
            result = await control.call_tool(world, params.name, dict(params.arguments or {}))
        except InvalidToolArguments as e:
            raise MCPError(INVALID_PARAMS, str(e)) from None
        except ToolCallError as e:
            return _error(str(e))
        text = json.dumps(result, ensure_ascii=False, separators=(",", ":"))
        structured = result if isinstance(result, dict) else {"result": result}
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)], structured_content=structured)

    # A world without a task has no goal: the prompt and resource lists are empty (not "method not found").
    async def no_prompts(_ctx: Any, _params: Any) -> types.ListPromptsResult:
        return types.ListPromptsResult(prompts=[])

    async def no_resources(_ctx: Any, _params: Any) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=[])

    return Server(name, version="1", instructions=f"The tools of one uigym {name} world.",
                  on_list_tools=list_tools, on_call_tool=call_tool, on_list_prompts=no_prompts,
                  on_list_resources=no_resources)


# ---------------------------------------------------------------------------------------------- episodes
# `uigym mcp --task T` (or `--tasks GLOB`) serves an episode, not only a world: the goal as a prompt and a
# resource, a `done` tool that ends it (graded by the env's own `step`, the verifier every mode uses), and
# with several tasks a `next_task` tool that resets the world for the next one. The calls are the env's steps
# (AsyncToolEnv, or AsyncUIEnv for the screen tools), so an MCP episode is counted, bounded and graded as an
# eval episode is; the client sees the goal, the tools' results and, only with --grade, the grade.

GOAL_URI = "uigym://task/goal"
GOAL_PROMPT = "task"
NEXT_TOOL = {"name": "next_task", "description": "Start the next task, in a fresh world (after `done`). Returns its "
                                                 "goal; the `task` prompt and the goal resource then give it too.",
             "input_schema": {"type": "object", "properties": {}, "additionalProperties": False}}
_POINT = {"x": {"type": "integer", "description": "pixels from the screenshot's left edge"},
          "y": {"type": "integer", "description": "pixels from the screenshot's top edge"}}
# The screen's tools, as computer-use MCP servers serve them: each is one of the env's actions (gym_core/actions.py),
# and each returns the screen after it (a PNG), so a client need not ask for a screenshot after every action.
SCREEN_TOOLS: dict[str, dict] = {
    "screenshot": {"action": "screenshot", "description": "The screen as it is now (a PNG; its pixels are the "
                                                          "coordinates the other tools take).",
                   "properties": {}, "required": []},
    "click": {"action": "click", "description": "Click at (x, y) on the screen.",
              "properties": {**_POINT, "button": {"type": "string", "enum": ["left", "right", "middle"]}},
              "required": ["x", "y"]},
    "type": {"action": "type", "description": "Type text into the focused field.",
             "properties": {"text": {"type": "string", "maxLength": 4000}}, "required": ["text"]},
    "key": {"action": "keypress", "description": "Press a key or a chord, e.g. [\"Enter\"] or [\"Control\", \"a\"].",
            "properties": {"keys": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 5}},
            "required": ["keys"]},
    "scroll": {"action": "scroll", "description": "Scroll by (dx, dy) pixels with the mouse at (x, y).",
               "properties": {**_POINT, "dx": {"type": "integer"}, "dy": {"type": "integer"}},
               "required": ["x", "y"]},
    "double_click": {"action": "double_click", "description": "Double-click at (x, y) on the screen.",
                     "properties": dict(_POINT), "required": ["x", "y"]},
    "move": {"action": "move", "description": "Move the mouse to (x, y) (hover).", "properties": dict(_POINT),
             "required": ["x", "y"]},
    "drag": {"action": "drag", "description": "Press the left button at the path's first point, move through the "
                                              "others and release at the last, e.g. [[100, 200], [400, 200]].",
             "properties": {"path": {"type": "array", "minItems": 2, "maxItems": 64, "items": {
                 "type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}}},
             "required": ["path"]},
    "wait": {"action": "wait", "description": "Wait, then look again (a page still loading, a toast).",
             "properties": {"ms": {"type": "integer", "minimum": 0, "maximum": 10000}}, "required": []},
}


class McpEpisodes:
    """The episodes one `uigym mcp` serves: `tasks` played in order in `env`'s world (one env, one world,
    reset through the control API for each task, as the envs do). `grade`: the operator lets `done` return
    the grade. `on_end(task, verify_dict)` hears each ended episode's grade (the operator's log). A task of
    None is free play (the screen mode without a task): no goal, `done` ends it ungraded."""

    def __init__(self, env: WorldEnv, tasks: list[Task | None], *, grade: bool = False,
                 on_end: Callable[[Task | None, dict], None] | None = None, seed: int = 0):
        if not tasks:
            raise ValueError("no task to serve")
        self.env, self.tasks, self.grade, self.on_end, self.seed = env, list(tasks), grade, on_end, seed
        self.index = -1
        self.screen = isinstance(env, AsyncUIEnv)
        # One call at a time: the env plays one episode, and a client may send calls concurrently.
        self.lock = asyncio.Lock()

    @property
    def task(self) -> Task | None:
        return self.tasks[self.index] if self.index >= 0 else None

    async def start(self) -> None:
        await self._reset(0)

    async def _reset(self, index: int) -> None:
        self.index = index
        task = self.tasks[index]
        await self.env.reset(task=task, seed=None if task is not None else self.seed)

    async def tool_list(self) -> list[types.Tool]:
        if self.screen:
            listed = [types.Tool(name=name, description=t["description"], input_schema={
                "type": "object", "properties": t["properties"], "required": t["required"],
                "additionalProperties": False}) for name, t in SCREEN_TOOLS.items()]
            listed.append(_tool(DONE_TOOL["function"]))
        else:  # the app's tools and done, as the tools env gives them to a function-calling model
            listed = [_tool(t["function"]) for t in await self.env.tools()]
        if len(self.tasks) > 1:
            listed.append(types.Tool(**NEXT_TOOL))
        return listed

    # -------------------------------------------------------------------------------------------- calls
    async def call(self, name: str, args: dict) -> types.CallToolResult:
        async with self.lock:
            if name == "next_task" and len(self.tasks) > 1:
                return await self._next()
            if self.env.done:
                return _error(f"the episode is over{self._after()}")
            if name == "done":
                return await self._step({**args, "type": "done"}, done=True)
            if self.screen:
                spec = SCREEN_TOOLS.get(name)
                if spec is None:
                    return _error(f"unknown tool {name!r}; the tools are {', '.join([*SCREEN_TOOLS, 'done'])}")
                if "type" in args:  # the action's own key: never taken from the arguments
                    return _error(f"'type' is not an argument of {name}")
                if name == "key" and isinstance(args.get("keys"), str):  # "Enter" for ["Enter"]
                    args = {**args, "keys": [args["keys"]]}
                return await self._step({**args, "type": spec["action"]})
            # Arguments no tool could take are the request's invalid params, as for a bare world's server
            # (build_server): refused before they are a step.
            try:
                encode_args(name, args)
            except MalformedArgs as e:
                raise MCPError(INVALID_PARAMS, str(e)) from None
            return await self._step({"type": "tool", "name": name, "args": args})

    async def _step(self, action: dict, *, done: bool = False) -> types.CallToolResult:
        obs, _reward, terminated, truncated, info = await self.env.step(action)
        error = obs["last_action_error"]
        content: list = []
        structured: dict | None = None
        if self.screen:
            content += self._screen()
        elif not done and not error:
            text = obs["tool_result"]
            content.append(types.TextContent(type="text", text=text))
            try:
                value = json.loads(text)
            except ValueError:  # clipped to the observation's bound: the text only
                value = None
            structured = value if isinstance(value, dict) else {"result": value} if value is not None else None
        if error:
            content.insert(0, types.TextContent(type="text", text=error))
        if terminated or truncated:
            ended = self._ended(info, truncated)
            content.append(types.TextContent(type="text", text=json.dumps(ended, ensure_ascii=False)))
            structured = ended if done else {**(structured or {}), "episode": ended}
        return types.CallToolResult(content=content, structured_content=structured, is_error=bool(error))

    def _ended(self, info: dict, truncated: bool) -> dict:
        """What the client is told of an ended episode: that it ended, and the grade only with --grade
        (the score, passed, and the verifier's report of each check)."""
        verify = info.get("verify") or {}
        if self.on_end is not None:
            self.on_end(self.task, verify)
        ended: dict[str, Any] = {"ended": True}
        if truncated:
            ended["reason"] = f"the step budget ({self.env.max_steps} steps) is spent"
        if self.grade and self.task is not None:
            ended.update(score=verify.get("score"), passed=verify.get("passed"), graded=info.get("graded"),
                         checks=[{k: c[k] for k in ("name", "passed", "detail")} for c in verify.get("checks", [])])
        if self.left:
            ended["next"] = f"{self.left} more task{'s' if self.left > 1 else ''}: call next_task"
        return ended

    @property
    def left(self) -> int:
        """The tasks after the current one."""
        return len(self.tasks) - 1 - self.index

    def _after(self) -> str:
        return "; call next_task for the next task" if self.left else "; there is no task after this one"

    def _screen(self) -> list[types.ImageContent]:
        """The screen after the last step or reset, as the tools' result carries it (none before one)."""
        if not self.screen or self.env.last_png is None:
            return []
        return [types.ImageContent(type="image", data=base64.b64encode(self.env.last_png).decode(),
                                   mime_type="image/png")]

    async def _next(self) -> types.CallToolResult:
        if not self.env.done:
            return _error("this task's episode is not over: call done first")
        if not self.left:
            return _error(f"there is no task after this one (task {self.index + 1} of {len(self.tasks)})")
        try:
            await self._reset(self.index + 1)
        except ServerError as e:  # the app could not reset the world (down, restarting): said, and asked again
            self.index -= 1
            return _error(f"the next task's world could not be reset: {e}; call next_task again")
        text = f"task {self.index + 1} of {len(self.tasks)}: {self.goal()}"
        content: list = [types.TextContent(type="text", text=text), *self._screen()]
        return types.CallToolResult(content=content, structured_content={
            "task": self.index + 1, "of": len(self.tasks), "goal": self.goal()})

    # ----------------------------------------------------------------------------------- the goal
    def goal(self) -> str:
        return self.task.goal if self.task is not None else ""

    def prompts(self) -> list[types.Prompt]:
        if self.task is None:
            return []
        return [types.Prompt(name=GOAL_PROMPT, title="The task", description="The goal of the task to do in this "
                                                                                "world (it changes with next_task)")]

    def resources(self) -> list[types.Resource]:
        if self.task is None:
            return []
        return [types.Resource(name="goal", title="The task's goal", uri=GOAL_URI, mime_type="text/plain",
                               description="The goal of the task to do in this world")]


def _tool(function: dict) -> types.Tool:
    """An OpenAI function ({name, description, parameters}) as an MCP tool."""
    return types.Tool(name=function["name"], description=function["description"], input_schema=function["parameters"])


def build_episode_server(episodes: McpEpisodes, *, name: str) -> Server:
    """An MCP server playing `episodes` (started: `await episodes.start()` first): the goal as the prompt
    `task` and the resource uigym://task/goal, the mode's tools with `done`, and `next_task` for a set."""

    async def list_tools(_ctx: Any, _params: Any) -> types.ListToolsResult:
        async with episodes.lock:
            return types.ListToolsResult(tools=await episodes.tool_list())

    async def call_tool(_ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        return await episodes.call(params.name, dict(params.arguments or {}))

    async def list_prompts(_ctx: Any, _params: Any) -> types.ListPromptsResult:
        return types.ListPromptsResult(prompts=episodes.prompts())

    async def get_prompt(_ctx: Any, params: types.GetPromptRequestParams) -> types.GetPromptResult:
        if params.name != GOAL_PROMPT or episodes.task is None:
            raise MCPError(INVALID_PARAMS, f"unknown prompt {params.name!r}"
                                           + ("; this server has the prompt 'task'" if episodes.task else ""))
        return types.GetPromptResult(description="The task to do", messages=[
            types.PromptMessage(role="user", content=types.TextContent(type="text", text=episodes.goal()))])

    async def list_resources(_ctx: Any, _params: Any) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=episodes.resources())

    async def read_resource(_ctx: Any, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        if str(params.uri) != GOAL_URI or episodes.task is None:
            raise MCPError(INVALID_PARAMS, f"unknown resource {str(params.uri)!r}")
        return types.ReadResourceResult(contents=[
            types.TextResourceContents(uri=GOAL_URI, mime_type="text/plain", text=episodes.goal())])

    mode = "screen" if episodes.screen else "tools"
    return Server(name, version="1", instructions=f"One uigym {name} world ({mode}): the task is the prompt "
                                                  f"'{GOAL_PROMPT}' (or the resource {GOAL_URI}); call done when "
                                                  "it is finished.",
                  on_list_tools=list_tools, on_call_tool=call_tool, on_list_prompts=list_prompts,
                  on_get_prompt=get_prompt, on_list_resources=list_resources, on_read_resource=read_resource)


def _error(message: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=message)], is_error=True)


def streamable_http_app(server: Server, *, host: str = "127.0.0.1"):
    """The Starlette app serving `server` at /mcp (with the SDK's DNS-rebinding protection on localhost)."""
    return server.streamable_http_app(streamable_http_path="/mcp", host=host)
