"""`uigym mcp`: one world's tools as an MCP server (the official `mcp` SDK, streamable HTTP or stdio).

    uigym mcp --app mail --world w1 --task mail/star-latest-from-00      # http://127.0.0.1:8765/mcp

The server is bound to one world of one app at start: the world's id is not an argument of any tool, and
the control API's token stays in this process, so a client can act on that world and nothing else. Tools,
schemas and errors are the app's own (apps/<app>/tools.py, through the control API's tool routes): the
same calls the tools env makes. A refused call comes back as an MCP error result (`isError`) with the
app's message, except arguments no tool could take (nested too deeply, an integer beyond SQLite's range;
a lone surrogate, which the SDK's JSON reader already refuses as a parse error), which are a JSON-RPC error
-32602 (invalid params) with the message; either way the world is unchanged, and nothing is logged as a
server failure.
"""

from __future__ import annotations

import json
from typing import Any

from mcp import types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS

from gym_core.server import ControlClient, InvalidToolArguments, ToolCallError


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

    return Server(name, version="1", instructions=f"The tools of one uigym {name} world.",
                  on_list_tools=list_tools, on_call_tool=call_tool)


def _error(message: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=message)], is_error=True)


def streamable_http_app(server: Server, *, host: str = "127.0.0.1"):
    """The Starlette app serving `server` at /mcp (with the SDK's DNS-rebinding protection on localhost)."""
    return server.streamable_http_app(streamable_http_path="/mcp", host=host)
