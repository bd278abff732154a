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
- the arguments are checked first, by `ToolSet.check`, the one seam every caller passes (the control API's
  tool route, hence the envs and `uigym mcp`): a ToolError naming what is wrong. First the shape any tool's
  arguments must have (`encode_args` in apps/tool_args.py, which the gym's ControlClient also runs before
  it sends a call): a
  JSON object of plain JSON data, nested at most MAX_DEPTH levels, every integer within SQLite's signed
  64-bit range (INT_MIN..INT_MAX: a bigger one would overflow the database, not name a row), every string
  valid Unicode (no lone surrogate) of at most MAX_STRING characters, at most MAX_ARGS_BYTES in all; a
  refusal of this kind is a MalformedArgs. Then the tool's own: a registered name, no unknown or missing or
  mistyped argument, the annotations' bounds. Each tool's JSON schema publishes the integer range as
  minimum/maximum wherever its annotation sets no tighter bound;
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
from dataclasses import dataclass
from typing import Any, Callable

from flask import Flask, g
from pydantic import BaseModel, ConfigDict, ValidationError, create_model
from pydantic.json_schema import GenerateJsonSchema

from apps._shared.jsonable import to_json_value
from apps.tool_args import (  # noqa: F401 - MAX_STRING, MAX_ARGS_BYTES and TOOL_NAME_RE are this module's API too
    INT_MAX, INT_MIN, MAX_ARGS_BYTES, MAX_DEPTH, MAX_STRING, TOOL_NAME_RE, MalformedArgs, ToolError, encode_args, shown,
    unknown_tool_message,
)


def _int_out_of_range(value: Any, path: str = "") -> str | None:
    """The first integer beyond INT_MIN..INT_MAX in validated arguments (a string like "1"*30 becomes one
    in an int field), as a message; None if there is none."""
    stack = [(value, path)]
    while stack:
        v, p = stack.pop()
        if isinstance(v, int) and not isinstance(v, bool) and not INT_MIN <= v <= INT_MAX:
            return f"'{p}': {shown(v, 30)} is out of range; an integer must lie in {INT_MIN}..{INT_MAX}"
        if isinstance(v, dict):
            stack.extend((x, f"{p}.{k}" if p else str(k)) for k, x in v.items())
        elif isinstance(v, (list, tuple, set, frozenset)):
            stack.extend((x, f"{p}[{i}]") for i, x in enumerate(v))
    return None


class _SchemaWithIntRange(GenerateJsonSchema):
    """Every integer's schema states SQLite's range, unless its annotation sets a tighter bound."""

    def int_schema(self, schema):
        out = super().int_schema(schema)
        if "exclusiveMinimum" not in out:
            out["minimum"] = max(out.get("minimum", INT_MIN), INT_MIN)
        if "exclusiveMaximum" not in out:
            out["maximum"] = min(out.get("maximum", INT_MAX), INT_MAX)
        return out


@dataclass
class Tool:
    name: str
    description: str
    params: type[BaseModel]
    fn: Callable[..., Any]

    def schema(self) -> dict:
        """The arguments' JSON schema, self-contained (no $defs references left to resolve)."""
        schema = self.params.model_json_schema(schema_generator=_SchemaWithIntRange)
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



class ToolSet:
    """One clone's tools, in the order they were declared."""

    def __init__(self, app: str):
        self.app = app
        self.tools: dict[str, Tool] = {}

    def tool(self, fn: Callable[..., Any] | None = None, *, name: str | None = None):
        def register(f: Callable[..., Any]) -> Callable[..., Any]:
            tool_name = name or f.__name__
            if not TOOL_NAME_RE.fullmatch(tool_name):
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
            raise ToolError(unknown_tool_message(self.app, name, self.tools))
        return tool

    def describe(self) -> list[dict]:
        return [t.describe() for t in self.tools.values()]

    def openai(self) -> list[dict]:
        return [t.openai() for t in self.tools.values()]

    def check(self, name: Any, args: Any) -> tuple[Tool, dict]:
        """The tool and its validated arguments, or a ToolError saying what is wrong (a MalformedArgs for
        arguments no tool could take). Never any other exception, whatever `name` and `args` are."""
        tool = self.get(name)
        encode_args(tool.name, args)
        try:
            model = tool.params.model_validate(args or {})
        except ValidationError as e:
            raise ToolError(f"{tool.name}: {_summary(e)}") from None
        kwargs = {k: getattr(model, k) for k in type(model).model_fields}
        beyond = _int_out_of_range(kwargs)
        if beyond:
            raise MalformedArgs(f"{tool.name}: {beyond}")
        return tool, kwargs

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
