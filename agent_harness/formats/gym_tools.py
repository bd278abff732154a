"""uigym's action space as function calling: one tool per action, in two dialects of one format class.

    <tool_call>
    {"name": "click", "arguments": {"x": 41, "y": 12}}
    </tool_call>

`json` (aliases `uigym`, `tools`): the eval harness's tool calls. Tools click{x, y, button?},
double_click{x, y}, move{x, y}, drag{path}, scroll{x, y, dx?, dy?}, type{text}, keypress{keys}, wait{ms?},
done{answer?}. It reads leniently: servers with a tool parser (vLLM `--enable-auto-tool-choice
--tool-call-parser hermes`, hosted APIs) return `tool_calls`; without one the model's
`<tool_call>{...}</tool_call>` text is read instead, and so is a bare action object (`{"type": "click",
"x": 412, "y": 96}`) in the text or a code fence, a `coordinate` for x and y, a `key` for keys.

`gym` (alias `rl`): the tools the GRPO environment exposes (agent_harness.train.env), read strictly (only
its tools, no unknown argument). Tools click{x, y, button?}, double_click{x, y}, drag{x1, y1, x2, y2},
scroll{x, y, dx?, dy?}, type_text{text}, keypress{keys}, wait{ms?}, done{answer?}. Its schemas (`TOOLS`)
are exactly what `transformers.utils.get_json_schema` makes of the environment's tool methods (a test holds
them equal), so SFT data (`uigym export sft --format gym`), the GRPO rollouts and `uigym eval --format gym`
show the model the same tools and read back the same calls.

Coordinates are pixels of the (resized) screenshot the model sees, or 0-1000 units (`coords="rel1000"`).
What differs between the dialects is data (`Dialect`): the tool names, the schemas' words, how a drag's
points are spelled, and whether the reader is lenient; rendering and reading are one code path.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from agent_harness.formats.base import (
    ActionFormat, FormatContext, Parsed, ParseError, Rendered, RenderError, Reply, ToolCall, as_action, checked,
    json_objects, key_list, model_point, num, point, read_reply,
)
from gym_core.actions import ACTION_TYPES


def _fn(name: str, description: str, props: dict, required: list[str], empty_required: bool) -> dict:
    params: dict[str, Any] = {"type": "object", "properties": props}
    if required or empty_required:
        params["required"] = required
    return {"type": "function", "function": {"name": name, "description": description, "parameters": params}}


# ------------------------------------------------------------------------------------------ schemas
def _gym_tools() -> list[dict]:
    x = {"type": "integer", "description": "Horizontal coordinate, in screenshot pixels."}
    y = {"type": "integer", "description": "Vertical coordinate, in screenshot pixels."}

    def fn(name, description, props, required):
        return _fn(name, description, props, required, empty_required=False)

    return [
        fn("click", "Click at a point of the screenshot.",
           {"x": x, "y": y, "button": {"type": "string", "enum": ["left", "right", "middle"],
                                       "description": "The mouse button (default left)."}}, ["x", "y"]),
        fn("double_click", "Double-click at a point of the screenshot.", {"x": x, "y": y}, ["x", "y"]),
        fn("drag", "Press the left button at (x1, y1), move to (x2, y2) and release.",
           {"x1": {"type": "integer", "description": "Start x, in screenshot pixels."},
            "y1": {"type": "integer", "description": "Start y, in screenshot pixels."},
            "x2": {"type": "integer", "description": "End x, in screenshot pixels."},
            "y2": {"type": "integer", "description": "End y, in screenshot pixels."}}, ["x1", "y1", "x2", "y2"]),
        fn("scroll", "Scroll with the mouse wheel over a point.",
           {"x": x, "y": y,
            "dx": {"type": "integer", "description": "Pixels to scroll right (negative: left)."},
            "dy": {"type": "integer", "description": "Pixels to scroll down (negative: up)."}}, ["x", "y"]),
        fn("type_text", "Type text with the keyboard where the focus is (click a field first).",
           {"text": {"type": "string", "description": "The text to type."}}, ["text"]),
        fn("keypress", "Press keys together, as one chord.",
           {"keys": {"type": "array", "items": {"type": "string"},
                     "description": 'Key names, e.g. ["Enter"] or ["Control", "a"].'}}, ["keys"]),
        fn("wait", "Wait for the page to change.",
           {"ms": {"type": "integer", "description": "Milliseconds to wait (default 1000)."}}, []),
        fn("done", "End the task. Give the answer when the task asks a question.",
           {"answer": {"type": "string", "description": "The answer, when the task asks for one."}}, []),
    ]


def _json_tools() -> list[dict]:
    xy = {"x": {"type": "integer", "description": "x coordinate"}, "y": {"type": "integer", "description": "y coordinate"}}

    def fn(name, description, props=None, required=None):
        return _fn(name, description, props or {}, required or [], empty_required=True)

    return [
        fn("click", "Click at a point of the screen.",
           {**xy, "button": {"type": "string", "enum": ["left", "right", "middle"], "default": "left"}}, ["x", "y"]),
        fn("double_click", "Double-click at a point.", dict(xy), ["x", "y"]),
        fn("move", "Move the mouse to a point (hover).", dict(xy), ["x", "y"]),
        fn("drag", "Press the left button at the first point, move through the others, release at the last.",
           {"path": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}, "minItems": 2,
                                                "maxItems": 2}, "minItems": 2,
                     "description": "points [[x, y], ...]"}}, ["path"]),
        fn("scroll", "Scroll with the mouse wheel over a point. dy > 0 scrolls down, dx > 0 right, in pixels.",
           {**xy, "dx": {"type": "integer", "default": 0}, "dy": {"type": "integer", "default": 0}}, ["x", "y"]),
        fn("type", "Type text with the keyboard where the focus is.", {"text": {"type": "string"}}, ["text"]),
        fn("keypress", "Press keys together, e.g. [\"Enter\"] or [\"Control\", \"a\"].",
           {"keys": {"type": "array", "items": {"type": "string"}, "minItems": 1}}, ["keys"]),
        fn("wait", "Wait for the page.", {"ms": {"type": "integer", "default": 1000}}),
        fn("done", "End the task. Give `answer` when the task asks a question.", {"answer": {"type": "string"}}),
    ]


TOOLS: list[dict] = _gym_tools()  # the GRPO environment's tools (tests/train/test_env_tools.py)
TOOL_NAMES = [t["function"]["name"] for t in TOOLS]


@dataclass(frozen=True)
class Dialect:
    """What one rendering of the action space calls things; the format's code is the same for all."""

    name: str  # the format's registry name
    title: str
    tools: tuple[dict, ...]
    type_tool: str  # the tool that types text
    two_point_drag: bool  # drag{x1, y1, x2, y2} (else drag{path})
    lenient: bool  # read bare action objects, `coordinate`, `key`, an action named by `type`; no argument check
    always_dx: bool  # a rendered scroll always names dx (else only when it is not 0)
    intro: str  # the system prompt's first sentence
    rules: str  # the system prompt's rules, after the coordinates

    @property
    def names(self) -> list[str]:
        return [t["function"]["name"] for t in self.tools]


GYM = Dialect(
    name="gym", title="uigym RL tools (click, type_text, keypress, ..., done)", tools=tuple(TOOLS),
    type_tool="type_text", two_point_drag=True, lenient=False, always_dx=False,
    intro="Each tool call acts on the browser and returns a new screenshot.",
    rules=("Call exactly one tool per reply: click, double_click, drag, scroll, type_text, keypress, wait or done. "
           "Click a text field before typing into it. When the task is complete, call done (with the answer if "
           "the task asks for information). Do not ask the user questions."),
)
JSON = Dialect(
    name="json", title="uigym JSON tool calls", tools=tuple(_json_tools()),
    type_tool="type", two_point_drag=False, lenient=True, always_dx=True,
    intro="After each of your actions you get a new screenshot of the browser.",
    rules=("Act by calling exactly one of the tools: click, double_click, move, drag, scroll, type, keypress, wait, "
           "done. Think briefly in plain text first if it helps, then make the tool call. Click a text field "
           "before typing into it. When the task is complete, call done (with `answer` if the task asks for "
           "information). Do not ask the user questions."),
)


class FunctionTools(ActionFormat):
    """uigym actions as function tool calls, in the names and shapes of `dialect`."""

    uses_tools = True

    def __init__(self, dialect: Dialect):
        self.dialect = dialect
        self.name = dialect.name
        self.title = dialect.title

    def tools(self, ctx: FormatContext) -> list[dict]:
        return [dict(t) for t in self.dialect.tools]

    def action_prompt(self, ctx: FormatContext) -> str:
        return (f"You operate a web browser to complete the user's task. {self.dialect.intro}\n"
                f"{ctx.describe_coords()}\n{self.dialect.rules}")

    # ------------------------------------------------------------------ render
    def _call(self, a: dict, ctx: FormatContext) -> ToolCall:
        d, t = self.dialect, a["type"]
        args: dict[str, Any] = {}
        if t in ("click", "double_click") or (t == "move" and "move" in d.names):
            args["x"], args["y"] = model_point(a["x"], a["y"], ctx)
            if t == "click" and a.get("button", "left") != "left":
                args["button"] = a["button"]
        elif t == "scroll":
            args["x"], args["y"] = model_point(a["x"], a["y"], ctx)
            if d.always_dx or a.get("dx"):
                args["dx"] = a.get("dx", 0)
            args["dy"] = a.get("dy", 0)
        elif t == "drag" and d.two_point_drag:
            if len(a["path"]) != 2:
                raise RenderError(f"{d.name} drags go between two points")
            (args["x1"], args["y1"]), (args["x2"], args["y2"]) = (model_point(x, y, ctx) for x, y in a["path"])
        elif t == "drag":
            args["path"] = [model_point(x, y, ctx) for x, y in a["path"]]
        elif t == "type":
            t, args["text"] = d.type_tool, a["text"]
        elif t == "keypress":
            args["keys"] = list(a["keys"])
        elif t == "wait":
            args["ms"] = a.get("ms", 500)
        elif t == "done":
            if a.get("answer") is not None:
                args["answer"] = a["answer"]
        elif not d.lenient:
            raise RenderError(f"the {d.name} tools have no {t!r} action")
        return ToolCall(name=t, arguments=args)

    def render_many(self, actions: Iterable[Any], ctx: FormatContext, thought: str = "") -> Rendered:
        return Rendered(content=thought, tool_calls=[self._call(as_action(a), ctx) for a in actions])

    # ------------------------------------------------------------------- parse
    def _known(self, name: str, args: dict) -> tuple[str, dict]:
        """The action type a tool call names, and its arguments (ParseError for an unknown tool)."""
        d = self.dialect
        if not d.lenient:
            if name not in d.names:
                raise ParseError(f"unknown tool {name!r}; the tools are {', '.join(d.names)}")
            props = next(t for t in d.tools if t["function"]["name"] == name)["function"]["parameters"]["properties"]
            extra = sorted(set(args) - set(props))
            if extra:
                raise ParseError(f"{name} takes no argument {', '.join(extra)}")
            return ("type" if name == d.type_tool else name), args
        if name not in ACTION_TYPES and isinstance(args.get("type"), str):
            name, args = args["type"], {k: v for k, v in args.items() if k != "type"}
        if name not in ACTION_TYPES:
            raise ParseError(f"unknown tool {name!r}; the tools are {', '.join(t for t in ACTION_TYPES if t != 'screenshot')}")
        return name, args

    def action(self, name: str, args: dict, ctx: FormatContext) -> dict:
        """One tool call -> a uigym action in screen pixels (ParseError, written for the model, if it is wrong)."""
        d = self.dialect
        kind, args = self._known(name, args)
        a: dict[str, Any] = {"type": kind}
        if kind in ("click", "double_click", "move", "scroll"):
            if "x" in args and "y" in args:
                a["x"], a["y"] = point([args["x"], args["y"]], ctx)
            elif d.lenient and "coordinate" in args:
                a["x"], a["y"] = point(args["coordinate"], ctx)
            else:
                raise ParseError(f"{kind} needs x and y")
            if kind == "click" and "button" in args:
                a["button"] = args["button"]
            if kind == "scroll":
                a["dx"] = int(num(args.get("dx", 0), "dx"))
                a["dy"] = int(num(args.get("dy", 0), "dy"))
        elif kind == "drag" and d.two_point_drag:
            missing = [k for k in ("x1", "y1", "x2", "y2") if k not in args]
            if missing:
                raise ParseError(f"drag needs {', '.join(missing)}")
            a["path"] = [list(point([args["x1"], args["y1"]], ctx)), list(point([args["x2"], args["y2"]], ctx))]
        elif kind == "drag":
            path = args.get("path")
            if not isinstance(path, list) or len(path) < 2:
                raise ParseError("drag needs a path of at least two points [[x, y], ...]")
            a["path"] = [list(point(p, ctx, "path point")) for p in path]
        elif kind == "type":
            if not isinstance(args.get("text"), str):
                raise ParseError(f"{d.type_tool} needs text (a string)")
            a["text"] = args["text"]
        elif kind == "keypress":
            a["keys"] = key_list(args.get("keys", args.get("key", []) if d.lenient else []))
        elif kind == "wait":
            a["ms"] = int(num(args.get("ms", 1000), "ms"))
        elif kind == "done":
            ans = args.get("answer")
            if ans is not None and (d.lenient or ans != ""):
                a["answer"] = ans if isinstance(ans, str) else str(ans)
        return checked(a)

    def _bare_objects(self, text: str, ctx: FormatContext) -> list[dict]:
        """Actions written as JSON objects in the text: `{"type": "click", ...}` or `{"name": ..., "arguments": ...}`."""
        acts = []
        for o in json_objects(text):
            if not isinstance(o, dict):
                continue
            if "type" in o:
                acts.append(self.action(o["type"], {k: v for k, v in o.items() if k != "type"}, ctx))
            elif "name" in o:
                acts.append(self.action(str(o["name"]), ToolCall(o["name"], o.get("arguments", {})).args(), ctx))
        return acts

    def parse(self, reply: Reply | str | dict, ctx: FormatContext) -> Parsed:
        thought, text, calls = read_reply(reply)
        if calls:
            return Parsed([self.action(c.name, c.args(), ctx) for c in calls], thought=(thought + "\n" + text).strip())
        if self.dialect.lenient:
            acts = self._bare_objects(text, ctx)
            if acts:
                return Parsed(acts, thought=thought)
        some = f"{', '.join(self.dialect.names[:1] + [self.dialect.type_tool])}, ..., done"
        if not text.strip():
            raise ParseError(f"the reply is empty; call one of the tools ({some})")
        raise ParseError(f"no tool call found in the reply; act by calling one of the tools ({some})")


class GymTools(FunctionTools):
    def __init__(self):
        super().__init__(GYM)


class UigymJSON(FunctionTools):
    def __init__(self):
        super().__init__(JSON)
