"""OpenAI computer-use actions: the `action` of a Responses API `computer_call` item.

    {"type": "click", "button": "left", "x": 412, "y": 96}
    {"type": "scroll", "x": 640, "y": 400, "scroll_x": 0, "scroll_y": 300}
    {"type": "keypress", "keys": ["CTRL", "A"]}
    {"type": "drag", "path": [{"x": 100, "y": 100}, {"x": 300, "y": 400}]}

Over chat completions the action travels as the `computer` function tool (`{"action": {...}}`);
in free text, a `{"type": "computer_call", "action": {...}}` item (or a list of output items, or a
bare action) is read too. As in the Responses API, a reply without a computer call ends the episode:
its text is the answer ("DONE" alone means no answer).
"""

from __future__ import annotations

from typing import Any, Iterable

from agent_harness.formats.base import (
    WAIT_DEFAULT_MS, ActionFormat, FormatContext, Parsed, ParseError, Rendered, Reply, ToolCall, as_action, checked,
    json_objects, key_list, key_names_for, model_point, num, point, read_reply,
)

KEY_OUT = {"Control": "CTRL", "Alt": "ALT", "Shift": "SHIFT", "Meta": "CMD", "Enter": "ENTER", "Escape": "ESC",
           "Tab": "TAB", "Backspace": "BACKSPACE", "Delete": "DELETE", " ": "SPACE", "ArrowUp": "UP",
           "ArrowDown": "DOWN", "ArrowLeft": "LEFT", "ArrowRight": "RIGHT", "PageUp": "PAGEUP",
           "PageDown": "PAGEDOWN", "Home": "HOME", "End": "END"}
BUTTONS = {"left": "left", "right": "right", "wheel": "middle", "middle": "middle"}
DONE_WORD = "DONE"
TOOL_NAMES = ("computer", "computer_use_preview", "computer_call", "computer_use")


class OpenAIComputerUse(ActionFormat):
    name = "openai"
    title = "OpenAI computer-use (computer_call actions)"
    uses_tools = True

    def tools(self, ctx: FormatContext) -> list[dict]:
        return [{"type": "function", "function": {
            "name": "computer",
            "description": "Perform one computer action (OpenAI computer-use action schema).",
            "parameters": {"type": "object", "required": ["action"], "properties": {"action": {
                "type": "object",
                "description": ("One of: click{button,x,y}, double_click{x,y}, drag{path:[{x,y},...]}, keypress{keys}, "
                                "move{x,y}, screenshot{}, scroll{x,y,scroll_x,scroll_y}, type{text}, wait{}"),
                "properties": {
                    "type": {"type": "string", "enum": ["click", "double_click", "drag", "keypress", "move",
                                                        "screenshot", "scroll", "type", "wait"]},
                    "button": {"type": "string", "enum": ["left", "right", "wheel", "back", "forward"]},
                    "x": {"type": "integer"}, "y": {"type": "integer"},
                    "path": {"type": "array", "items": {"type": "object", "properties": {
                        "x": {"type": "integer"}, "y": {"type": "integer"}}}},
                    "keys": {"type": "array", "items": {"type": "string"}},
                    "scroll_x": {"type": "integer"}, "scroll_y": {"type": "integer"},
                    "text": {"type": "string"},
                },
                "required": ["type"],
            }}},
        }}]

    def action_prompt(self, ctx: FormatContext) -> str:
        return (
            "You are a computer-use agent operating a web browser to complete the user's task. After each action "
            "you receive a new screenshot.\n"
            f"{ctx.describe_coords()}\n"
            "Act with the `computer` tool, one action per call, using OpenAI computer-use actions: "
            "click {button, x, y}, double_click {x, y}, drag {path: [{x, y}, ...]}, keypress {keys: [...]}, "
            "move {x, y}, scroll {x, y, scroll_x, scroll_y} (pixels; scroll_y > 0 scrolls down), type {text}, "
            "wait {}, screenshot {}.\n"
            f"When the task is complete, reply with a message and no tool call: the answer if the task asks for "
            f"information, otherwise just {DONE_WORD}."
        )

    # ------------------------------------------------------------------ render
    def _action(self, a: dict, ctx: FormatContext) -> dict:
        t = a["type"]
        if t == "click":
            x, y = model_point(a["x"], a["y"], ctx)
            return {"type": "click", "button": {"middle": "wheel"}.get(a.get("button", "left"), a.get("button", "left")),
                    "x": x, "y": y}
        if t in ("double_click", "move"):
            x, y = model_point(a["x"], a["y"], ctx)
            return {"type": t, "x": x, "y": y}
        if t == "scroll":
            x, y = model_point(a["x"], a["y"], ctx)
            return {"type": "scroll", "x": x, "y": y, "scroll_x": a.get("dx", 0), "scroll_y": a.get("dy", 0)}
        if t == "drag":
            return {"type": "drag", "path": [dict(zip("xy", model_point(x, y, ctx))) for x, y in a["path"]]}
        if t == "keypress":
            return {"type": "keypress", "keys": key_names_for(a["keys"], KEY_OUT, lower=False)}
        if t == "type":
            return {"type": "type", "text": a["text"]}
        if t == "wait":
            return {"type": "wait"}
        if t == "screenshot":
            return {"type": "screenshot"}
        raise AssertionError(t)

    def render_many(self, actions: Iterable[Any], ctx: FormatContext, thought: str = "") -> Rendered:
        calls, content = [], thought
        for a in map(as_action, actions):
            if a["type"] == "done":
                # The final message is the answer itself (a thought would become part of it).
                answer = a.get("answer")
                content = answer if answer is not None else DONE_WORD
                break
            calls.append(ToolCall(name="computer", arguments={"action": self._action(a, ctx)}))
        return Rendered(content=content, tool_calls=calls)

    # ------------------------------------------------------------------- parse
    def action_from(self, act: Any, ctx: FormatContext) -> dict:
        if not isinstance(act, dict):
            raise ParseError(f"a computer action must be an object with a 'type', got {act!r}")
        t = act.get("type")
        if t == "click":
            button = BUTTONS.get(str(act.get("button", "left")).lower())
            if button is None:
                raise ParseError(f"click button {act.get('button')!r} is not supported (left, right, wheel)")
            x, y = point([act.get("x"), act.get("y")], ctx)
            return {"type": "click", "x": x, "y": y, "button": button}
        if t in ("double_click", "move"):
            x, y = point([act.get("x"), act.get("y")], ctx)
            return {"type": t, "x": x, "y": y}
        if t == "scroll":
            x, y = point([act.get("x"), act.get("y")], ctx)
            return {"type": "scroll", "x": x, "y": y, "dx": int(num(act.get("scroll_x", 0), "scroll_x")),
                    "dy": int(num(act.get("scroll_y", 0), "scroll_y"))}
        if t == "drag":
            path = act.get("path")
            if not isinstance(path, list) or len(path) < 2:
                raise ParseError("drag needs a path of at least two points [{x, y}, ...]")
            return {"type": "drag", "path": [list(point(p, ctx, "path point")) for p in path]}
        if t == "keypress":
            return {"type": "keypress", "keys": key_list(act.get("keys", []))}
        if t == "type":
            if not isinstance(act.get("text"), str):
                raise ParseError("type needs text (a string)")
            return {"type": "type", "text": act["text"]}
        if t == "wait":
            return {"type": "wait", "ms": int(num(act.get("ms", WAIT_DEFAULT_MS), "ms"))}
        if t == "screenshot":
            return {"type": "screenshot"}
        raise ParseError(f"unknown computer action type {t!r}; expected click, double_click, drag, keypress, "
                         "move, scroll, type, wait or screenshot")

    def _unwrap(self, obj: Any) -> list[Any]:
        """Computer actions in a parsed JSON value: output items, a computer_call, {action: ...}, an action."""
        if isinstance(obj, list):
            return [a for o in obj for a in self._unwrap(o)]
        if not isinstance(obj, dict):
            return []
        if obj.get("type") == "computer_call" or ("action" in obj and isinstance(obj["action"], dict)):
            return [obj["action"]]
        if "actions" in obj and isinstance(obj["actions"], list):
            return list(obj["actions"])
        if isinstance(obj.get("type"), str) and obj["type"] not in ("message", "reasoning", "output_text"):
            return [obj]
        return []

    def parse(self, reply: Reply | str | dict, ctx: FormatContext) -> Parsed:
        thought, text, calls = read_reply(reply)
        raw: list[Any] = []
        for c in calls:
            args = c.args()
            if c.name not in TOOL_NAMES and "action" not in args and "type" not in args:
                raise ParseError(f"unknown tool {c.name!r}; use the computer tool")
            raw.extend(self._unwrap(args) or [args])
        if not raw:
            for obj in json_objects(text):
                raw.extend(self._unwrap(obj))
        if raw:
            return Parsed([checked(self.action_from(a, ctx)) for a in raw], thought=(thought + "\n" + text).strip())
        text = text.strip()
        if not text:
            raise ParseError(f"the reply is empty; call the computer tool, or say {DONE_WORD} when the task is complete")
        answer = None if text.rstrip(".").upper() == DONE_WORD else text
        return Parsed([checked({"type": "done", "answer": answer})], thought=thought)
