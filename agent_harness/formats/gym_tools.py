"""uigym's RL tools: one function per action, as the GRPO environment exposes them (agent_harness.train.env).

    <tool_call>
    {"name": "click", "arguments": {"x": 41, "y": 12}}
    </tool_call>

Tools: click{x, y, button?}, double_click{x, y}, drag{x1, y1, x2, y2}, scroll{x, y, dx?, dy?}, type_text{text},
keypress{keys}, wait{ms?}, done{answer?}. Coordinates are pixels of the (resized) screenshot the model sees.

The tool schemas below are exactly what `transformers.utils.get_json_schema` makes of the environment's
tool methods (a test holds them equal), so SFT data (`uigym export sft --format gym`), the GRPO rollouts and
`uigym eval --format gym` show the model the same tools and read back the same calls.
"""

from __future__ import annotations

from typing import Any, Iterable

from agent_harness.formats.base import (
    ActionFormat, FormatContext, Parsed, ParseError, Rendered, RenderError, Reply, ToolCall, as_action, checked,
    key_list, model_point, num, point, read_reply,
)

_X = {"type": "integer", "description": "Horizontal coordinate, in screenshot pixels."}
_Y = {"type": "integer", "description": "Vertical coordinate, in screenshot pixels."}


def _fn(name: str, description: str, props: dict, required: list[str]) -> dict:
    params: dict[str, Any] = {"type": "object", "properties": props}
    if required:
        params["required"] = required
    return {"type": "function", "function": {"name": name, "description": description, "parameters": params}}


TOOLS: list[dict] = [
    _fn("click", "Click at a point of the screenshot.",
        {"x": _X, "y": _Y, "button": {"type": "string", "enum": ["left", "right", "middle"],
                                      "description": "The mouse button (default left)."}}, ["x", "y"]),
    _fn("double_click", "Double-click at a point of the screenshot.", {"x": _X, "y": _Y}, ["x", "y"]),
    _fn("drag", "Press the left button at (x1, y1), move to (x2, y2) and release.",
        {"x1": {"type": "integer", "description": "Start x, in screenshot pixels."},
         "y1": {"type": "integer", "description": "Start y, in screenshot pixels."},
         "x2": {"type": "integer", "description": "End x, in screenshot pixels."},
         "y2": {"type": "integer", "description": "End y, in screenshot pixels."}}, ["x1", "y1", "x2", "y2"]),
    _fn("scroll", "Scroll with the mouse wheel over a point.",
        {"x": _X, "y": _Y,
         "dx": {"type": "integer", "description": "Pixels to scroll right (negative: left)."},
         "dy": {"type": "integer", "description": "Pixels to scroll down (negative: up)."}}, ["x", "y"]),
    _fn("type_text", "Type text with the keyboard where the focus is (click a field first).",
        {"text": {"type": "string", "description": "The text to type."}}, ["text"]),
    _fn("keypress", "Press keys together, as one chord.",
        {"keys": {"type": "array", "items": {"type": "string"},
                  "description": 'Key names, e.g. ["Enter"] or ["Control", "a"].'}}, ["keys"]),
    _fn("wait", "Wait for the page to change.",
        {"ms": {"type": "integer", "description": "Milliseconds to wait (default 1000)."}}, []),
    _fn("done", "End the task. Give the answer when the task asks a question.",
        {"answer": {"type": "string", "description": "The answer, when the task asks for one."}}, []),
]
TOOL_NAMES = [t["function"]["name"] for t in TOOLS]


class GymTools(ActionFormat):
    name = "gym"
    title = "uigym RL tools (click, type_text, keypress, ..., done)"
    uses_tools = True

    def tools(self, ctx: FormatContext) -> list[dict]:
        return [dict(t) for t in TOOLS]

    def system_prompt(self, ctx: FormatContext) -> str:
        return (
            "You operate a web browser to complete the user's task. Each tool call acts on the browser and "
            "returns a new screenshot.\n"
            f"{ctx.describe_coords()}\n"
            "Call exactly one tool per reply: click, double_click, drag, scroll, type_text, keypress, wait or done. "
            "Click a text field before typing into it. When the task is complete, call done (with the answer if "
            "the task asks for information). Do not ask the user questions."
        )

    # ------------------------------------------------------------------ render
    def _call(self, a: dict, ctx: FormatContext) -> ToolCall:
        t = a["type"]
        args: dict[str, Any] = {}
        if t in ("click", "double_click"):
            args["x"], args["y"] = model_point(a["x"], a["y"], ctx)
            if t == "click" and a.get("button", "left") != "left":
                args["button"] = a["button"]
        elif t == "scroll":
            args["x"], args["y"] = model_point(a["x"], a["y"], ctx)
            if a.get("dx"):
                args["dx"] = a["dx"]
            args["dy"] = a.get("dy", 0)
        elif t == "drag":
            if len(a["path"]) != 2:
                raise RenderError("gym drags go between two points")
            (args["x1"], args["y1"]), (args["x2"], args["y2"]) = (model_point(x, y, ctx) for x, y in a["path"])
        elif t == "type":
            t, args["text"] = "type_text", a["text"]
        elif t == "keypress":
            args["keys"] = list(a["keys"])
        elif t == "wait":
            args["ms"] = a.get("ms", 500)
        elif t == "done":
            if a.get("answer") is not None:
                args["answer"] = a["answer"]
        else:
            raise RenderError(f"the gym tools have no {t!r} action")
        return ToolCall(name=t, arguments=args)

    def render_many(self, actions: Iterable[Any], ctx: FormatContext, thought: str = "") -> Rendered:
        return Rendered(content=thought, tool_calls=[self._call(as_action(a), ctx) for a in actions])

    # ------------------------------------------------------------------- parse
    def action(self, name: str, args: dict, ctx: FormatContext) -> dict:
        """One tool call -> a uigym action in screen pixels (ParseError, written for the model, if it is wrong)."""
        if name not in TOOL_NAMES:
            raise ParseError(f"unknown tool {name!r}; the tools are {', '.join(TOOL_NAMES)}")
        known = set(next(t for t in TOOLS if t["function"]["name"] == name)["function"]["parameters"]["properties"])
        extra = sorted(set(args) - known)
        if extra:
            raise ParseError(f"{name} takes no argument {', '.join(extra)}")
        if name in ("click", "double_click", "scroll"):
            if "x" not in args or "y" not in args:
                raise ParseError(f"{name} needs x and y")
            x, y = point([args["x"], args["y"]], ctx)
            a: dict[str, Any] = {"type": name, "x": x, "y": y}
            if name == "click" and "button" in args:
                a["button"] = args["button"]
            if name == "scroll":
                a["dx"] = int(num(args.get("dx", 0), "dx"))
                a["dy"] = int(num(args.get("dy", 0), "dy"))
        elif name == "drag":
            missing = [k for k in ("x1", "y1", "x2", "y2") if k not in args]
            if missing:
                raise ParseError(f"drag needs {', '.join(missing)}")
            a = {"type": "drag", "path": [list(point([args["x1"], args["y1"]], ctx)),
                                          list(point([args["x2"], args["y2"]], ctx))]}
        elif name == "type_text":
            if not isinstance(args.get("text"), str):
                raise ParseError("type_text needs text (a string)")
            a = {"type": "type", "text": args["text"]}
        elif name == "keypress":
            a = {"type": "keypress", "keys": key_list(args.get("keys", []))}
        elif name == "wait":
            a = {"type": "wait", "ms": int(num(args.get("ms", 1000), "ms"))}
        else:  # done
            ans = args.get("answer")
            a = {"type": "done"}
            if ans not in (None, ""):
                a["answer"] = ans if isinstance(ans, str) else str(ans)
        return checked(a)

    def parse(self, reply: Reply | str | dict, ctx: FormatContext) -> Parsed:
        thought, text, calls = read_reply(reply)
        if calls:
            return Parsed([self.action(c.name, c.args(), ctx) for c in calls], thought=(thought + "\n" + text).strip())
        if not text.strip():
            raise ParseError("the reply is empty; call one of the tools (click, type_text, ..., done)")
        raise ParseError("no tool call found in the reply; act by calling one of the tools (click, type_text, ..., done)")
