"""Tools: the operations of a clone as typed function calls, bound to one world.

A clone declares its tools in `apps/<app>/tools.py`:

    TOOLS = ToolSet("mail")

    @TOOLS.tool
    def star_thread(thread_id: Annotated[int, Field(description="the conversation's id")],
                    starred: bool = True) -> dict:
        '''Star (or unstar) a conversation.'''
        return services.star_thread(thread_id, starred)

The parameters' annotations become a pydantic model (extra keys forbidden), whose JSON schema is what MCP
and OpenAI function calling publish; the docstring is the description. A tool body calls the same service
functions the UI's views call, so a rule (a validation, a fee, a side effect) lives once.

`ToolSet.call(app, world, name, args)` runs one call inside the world's database session:
- the arguments are checked first (unknown tool, unknown or missing or mistyped argument, a string over
  MAX_STRING characters, a payload over MAX_ARGS_BYTES): a ToolError naming what is wrong;
- a ToolError raised by the body (unknown id, a missing required option, an invalid value) rolls the
  session back: the world is unchanged and the model gets the message;
- otherwise the session is committed and the result returned as plain JSON.
Service functions therefore never commit: the caller (a view, or this wrapper) does, once.

The world is chosen by whoever serves the tools (the control API's /worlds/<id>/tools/<name>, an MCP server
started for one world): no tool takes a world argument, so no call can reach another world.
"""

from __future__ import annotations

import inspect
import json
import re
from dataclasses import dataclass
from typing import Any, Callable

from flask import Flask, g
from pydantic import BaseModel, ConfigDict, ValidationError, create_model

from apps._shared.jsonable import to_json_value

MAX_STRING = 20_000  # characters in any one string argument (a long email body is a few thousand)
MAX_ARGS_BYTES = 200_000  # the whole JSON payload of one call
TOOL_NAME_RE = re.compile(r"^[a-z][a-z0-9_]{0,63}$")


class ToolError(ValueError):
    """A mistake a model can act on (unknown id, missing option, invalid value). The world is unchanged."""


@dataclass
class Tool:
    name: str
    description: str
    params: type[BaseModel]
    fn: Callable[..., Any]

    def schema(self) -> dict:
        """The arguments' JSON schema, self-contained (no $defs references left to resolve)."""
        schema = self.params.model_json_schema()
        schema.pop("title", None)
        for prop in schema.get("properties", {}).values():
            prop.pop("title", None)
        return schema

    def describe(self) -> dict:
        return {"name": self.name, "description": self.description, "input_schema": self.schema()}

    def openai(self) -> dict:
        """The OpenAI function-calling entry (chat completions' `tools`)."""
        return {"type": "function", "function": {"name": self.name, "description": self.description,
                                                 "parameters": self.schema()}}


def _summary(e: ValidationError) -> str:
    parts = []
    for err in e.errors()[:5]:
        loc = ".".join(str(p) for p in err["loc"]) or "arguments"
        if err["type"] == "missing":
            parts.append(f"'{loc}' is required")
        elif err["type"] == "extra_forbidden":
            parts.append(f"'{loc}' is not an argument of this tool")
        else:
            got = err.get("input")
            shown = json.dumps(got)[:60] if isinstance(got, (str, int, float, bool, type(None))) else type(got).__name__
            parts.append(f"'{loc}': {err['msg']} (got {shown})")
    more = len(e.errors()) - 5
    return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")


def _too_long(value: Any, path: str = "") -> str | None:
    stack = [(value, path)]
    while stack:
        v, p = stack.pop()
        if isinstance(v, str) and len(v) > MAX_STRING:
            return p or "an argument"
        if isinstance(v, dict):
            stack.extend((x, f"{p}.{k}" if p else str(k)) for k, x in v.items())
        elif isinstance(v, list):
            stack.extend((x, f"{p}[{i}]") for i, x in enumerate(v))
    return None


class ToolSet:
    """One clone's tools, in the order they were declared."""

    def __init__(self, app: str):
        self.app = app
        self.tools: dict[str, Tool] = {}

    def tool(self, fn: Callable[..., Any] | None = None, *, name: str | None = None):
        def register(f: Callable[..., Any]) -> Callable[..., Any]:
            tool_name = name or f.__name__
            if not TOOL_NAME_RE.match(tool_name):
                raise ValueError(f"tool name {tool_name!r} must be lowercase snake_case")
            if tool_name in self.tools or tool_name == "done":
                raise ValueError(f"tool {tool_name!r} is defined twice (or is the env's reserved 'done')")
            doc = inspect.getdoc(f)
            if not doc:
                raise ValueError(f"tool {tool_name!r} needs a docstring: it is the description a model reads")
            fields: dict[str, Any] = {}
            for p in inspect.signature(f, eval_str=True).parameters.values():
                if p.kind not in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) or p.annotation is p.empty:
                    raise ValueError(f"tool {tool_name!r}: parameter {p.name!r} needs a type and a name")
                fields[p.name] = (p.annotation, ... if p.default is p.empty else p.default)
            params = create_model(f"{tool_name}_args", __config__=ConfigDict(extra="forbid"), **fields)
            self.tools[tool_name] = Tool(tool_name, doc, params, f)
            return f

        return register(fn) if fn is not None else register

    def only(self, names: tuple[str, ...] | list[str]) -> "ToolSet":
        """The same tools, fewer of them (the same Tool objects, so the same services run)."""
        missing = [n for n in names if n not in self.tools]
        if missing:
            raise KeyError(f"no tool(s) {missing} in {self.app}'s tools")
        out = ToolSet(self.app)
        out.tools = {n: self.tools[n] for n in names}
        return out

    def get(self, name: Any) -> Tool:
        tool = self.tools.get(name) if isinstance(name, str) else None
        if tool is None:
            raise ToolError(f"unknown tool {name!r}; the {self.app} tools are: {', '.join(self.tools)}")
        return tool

    def describe(self) -> list[dict]:
        return [t.describe() for t in self.tools.values()]

    def openai(self) -> list[dict]:
        return [t.openai() for t in self.tools.values()]

    def check(self, name: Any, args: Any) -> tuple[Tool, dict]:
        """The tool and its validated arguments, or a ToolError saying what is wrong."""
        tool = self.get(name)
        if args is None:
            args = {}
        if not isinstance(args, dict):
            raise ToolError(f"{tool.name}: the arguments must be a JSON object, got {type(args).__name__}")
        try:
            size = len(json.dumps(args, allow_nan=False))
        except (TypeError, ValueError):
            raise ToolError(f"{tool.name}: the arguments must be plain JSON (no NaN or Infinity)") from None
        if size > MAX_ARGS_BYTES:
            raise ToolError(f"{tool.name}: the arguments are {size} bytes; at most {MAX_ARGS_BYTES}")
        where = _too_long(args)
        if where:
            raise ToolError(f"{tool.name}: '{where}' is longer than {MAX_STRING} characters")
        try:
            model = tool.params.model_validate(args)
        except ValidationError as e:
            raise ToolError(f"{tool.name}: {_summary(e)}") from None
        return tool, {k: getattr(model, k) for k in type(model).model_fields}

    def call(self, app: Flask, world_id: str, name: Any, args: Any) -> Any:
        """Run one call in `world_id` (which must exist); commit on success, roll back on any error."""
        from apps._shared.db import db

        tool, kwargs = self.check(name, args)
        with app.test_request_context("/"):
            g.uigym_world = world_id
            session = db()
            try:
                result = tool.fn(**kwargs)
                session.commit()
            except BaseException:
                session.rollback()
                raise
            return to_json_value(result)
