"""uigym's own action space as function calling: one tool per action type.

    tool call: {"name": "click", "arguments": {"x": 412, "y": 96}}
               {"name": "type", "arguments": {"text": "hello"}}
               {"name": "done", "arguments": {"answer": "March 14"}}

Servers with a tool parser (vLLM `--enable-auto-tool-choice --tool-call-parser hermes`, hosted APIs)
return `tool_calls`; without one the model's `<tool_call>{...}</tool_call>` text is read instead, and
so is a bare action object (`{"type": "click", "x": 412, "y": 96}`) in the text or a code fence.
"""

from __future__ import annotations

from typing import Any, Iterable

from agent_harness.formats.base import (
    ActionFormat, FormatContext, Parsed, ParseError, Rendered, Reply, ToolCall, as_action, checked, json_objects,
    key_list, model_point, num, point, read_reply,
)
from gym_core.actions import ACTION_TYPES

_XY = {"x": {"type": "integer", "description": "x coordinate"}, "y": {"type": "integer", "description": "y coordinate"}}


def _fn(name: str, description: str, props: dict | None = None, required: list[str] | None = None) -> dict:
    return {"type": "function", "function": {
        "name": name, "description": description,
        "parameters": {"type": "object", "properties": props or {}, "required": required or []},
    }}


class UigymJSON(ActionFormat):
    name = "json"
    title = "uigym JSON tool calls"
    uses_tools = True

    def tools(self, ctx: FormatContext) -> list[dict]:
        return [
            _fn("click", "Click at a point of the screen.",
                {**_XY, "button": {"type": "string", "enum": ["left", "right", "middle"], "default": "left"}}, ["x", "y"]),
            _fn("double_click", "Double-click at a point.", dict(_XY), ["x", "y"]),
            _fn("move", "Move the mouse to a point (hover).", dict(_XY), ["x", "y"]),
            _fn("drag", "Press the left button at the first point, move through the others, release at the last.",
                {"path": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}, "minItems": 2,
                                                     "maxItems": 2}, "minItems": 2,
                          "description": "points [[x, y], ...]"}}, ["path"]),
            _fn("scroll", "Scroll with the mouse wheel over a point. dy > 0 scrolls down, dx > 0 right, in pixels.",
                {**_XY, "dx": {"type": "integer", "default": 0}, "dy": {"type": "integer", "default": 0}}, ["x", "y"]),
            _fn("type", "Type text with the keyboard where the focus is.",
                {"text": {"type": "string"}}, ["text"]),
            _fn("keypress", "Press keys together, e.g. [\"Enter\"] or [\"Control\", \"a\"].",
                {"keys": {"type": "array", "items": {"type": "string"}, "minItems": 1}}, ["keys"]),
            _fn("wait", "Wait for the page.", {"ms": {"type": "integer", "default": 1000}}),
            _fn("done", "End the task. Give `answer` when the task asks a question.",
                {"answer": {"type": "string"}}),
        ]

    def system_prompt(self, ctx: FormatContext) -> str:
        return (
            "You operate a web browser to complete the user's task. After each of your actions you get a new "
            "screenshot of the browser.\n"
            f"{ctx.describe_coords()}\n"
            "Act by calling exactly one of the tools: click, double_click, move, drag, scroll, type, keypress, wait, "
            "done. Think briefly in plain text first if it helps, then make the tool call. Click a text field "
            "before typing into it. When the task is complete, call done (with `answer` if the task asks for "
            "information). Do not ask the user questions."
        )

    # ------------------------------------------------------------------ render
    def _call(self, a: dict, ctx: FormatContext) -> ToolCall:
        t = a["type"]
        args: dict[str, Any] = {}
        if t in ("click", "double_click", "move"):
            args["x"], args["y"] = model_point(a["x"], a["y"], ctx)
            if t == "click" and a.get("button", "left") != "left":
                args["button"] = a["button"]
        elif t == "scroll":
            args["x"], args["y"] = model_point(a["x"], a["y"], ctx)
            args["dx"], args["dy"] = a.get("dx", 0), a.get("dy", 0)
        elif t == "drag":
            args["path"] = [model_point(x, y, ctx) for x, y in a["path"]]
        elif t == "type":
            args["text"] = a["text"]
        elif t == "keypress":
            args["keys"] = list(a["keys"])
        elif t == "wait":
            args["ms"] = a.get("ms", 500)
        elif t == "done":
            if a.get("answer") is not None:
                args["answer"] = a["answer"]
        return ToolCall(name=t, arguments=args)

    def render_many(self, actions: Iterable[Any], ctx: FormatContext, thought: str = "") -> Rendered:
        calls = [self._call(as_action(a), ctx) for a in actions]
        return Rendered(content=thought, tool_calls=calls)

    # ------------------------------------------------------------------- parse
    def _action(self, name: str, args: dict, ctx: FormatContext) -> dict:
        if name not in ACTION_TYPES and isinstance(args.get("type"), str):
            name, args = args["type"], {k: v for k, v in args.items() if k != "type"}
        if name not in ACTION_TYPES:
            raise ParseError(f"unknown tool {name!r}; the tools are {', '.join(t for t in ACTION_TYPES if t != 'screenshot')}")
        a: dict[str, Any] = {"type": name}
        if name in ("click", "double_click", "move", "scroll"):
            if "x" not in args or "y" not in args:
                if "coordinate" in args:
                    a["x"], a["y"] = point(args["coordinate"], ctx)
                else:
                    raise ParseError(f"{name} needs x and y")
            else:
                a["x"], a["y"] = point([args["x"], args["y"]], ctx)
            if name == "click" and "button" in args:
                a["button"] = args["button"]
            if name == "scroll":
                a["dx"] = int(num(args.get("dx", 0), "dx"))
                a["dy"] = int(num(args.get("dy", 0), "dy"))
        elif name == "drag":
            path = args.get("path")
            if not isinstance(path, list) or len(path) < 2:
                raise ParseError("drag needs a path of at least two points [[x, y], ...]")
            a["path"] = [list(point(p, ctx, "path point")) for p in path]
        elif name == "type":
            if not isinstance(args.get("text"), str):
                raise ParseError("type needs text (a string)")
            a["text"] = args["text"]
        elif name == "keypress":
            a["keys"] = key_list(args.get("keys", args.get("key", [])))
        elif name == "wait":
            a["ms"] = int(num(args.get("ms", 1000), "ms"))
        elif name == "done":
            ans = args.get("answer")
            if ans is not None:
                a["answer"] = ans if isinstance(ans, str) else str(ans)
        return checked(a)

    def parse(self, reply: Reply | str | dict, ctx: FormatContext) -> Parsed:
        thought, text, calls = read_reply(reply)
        if calls:
            return Parsed([self._action(c.name, c.args(), ctx) for c in calls], thought=(thought + "\n" + text).strip())
        objs = [o for o in json_objects(text) if isinstance(o, dict) and ("type" in o or "name" in o)]
        if objs:
            acts = []
            for o in objs:
                if "type" in o:
                    acts.append(self._action(o["type"], {k: v for k, v in o.items() if k != "type"}, ctx))
                else:
                    acts.append(self._action(str(o["name"]), ToolCall(o["name"], o.get("arguments", {})).args(), ctx))
            return Parsed(acts, thought=thought)
        if not text.strip():
            raise ParseError("the reply is empty; call one of the tools (click, type, ..., done)")
        raise ParseError("no tool call found in the reply; act by calling one of the tools (click, type, ..., done)")
