"""Anthropic computer-use tool input (the `computer` tool, computer_20250124 actions).

    {"action": "left_click", "coordinate": [412, 96]}
    {"action": "type", "text": "hello"}
    {"action": "key", "text": "ctrl+a"}
    {"action": "scroll", "coordinate": [640, 400], "scroll_direction": "down", "scroll_amount": 3}
    {"action": "left_click_drag", "start_coordinate": [100, 100], "coordinate": [300, 400]}

Over chat completions the input travels as the arguments of a `computer` function tool; in free
text a `{"type": "tool_use", "name": "computer", "input": {...}}` block or a bare input object is
read too. A reply without a tool call ends the episode; its text is the answer ("DONE" = none).
Scrolls are in clicks of 100 pixels. Multi-point drags are written as left_mouse_down, mouse_move...,
left_mouse_up, and read back as one drag.
"""

from __future__ import annotations

from typing import Any, Iterable

from agent_harness.formats.base import (
    SCROLL_CLICK_PX, ActionFormat, FormatContext, Parsed, ParseError, Rendered, Reply, ToolCall, as_action,
    computer_use_pointer, fold_pointer_ops, json_objects, key_list, model_point, num, point, read_reply,
)

# uigym key -> xdotool keysym (what Claude writes)
KEY_OUT = {"Control": "ctrl", "Alt": "alt", "Shift": "shift", "Meta": "super", "Enter": "Return",
           "Escape": "Escape", "Tab": "Tab", "Backspace": "BackSpace", "Delete": "Delete", " ": "space",
           "ArrowUp": "Up", "ArrowDown": "Down", "ArrowLeft": "Left", "ArrowRight": "Right",
           "PageUp": "Page_Up", "PageDown": "Page_Down", "Home": "Home", "End": "End"}
KEY_IN = {"kp_enter": "Enter", "prior": "PageUp", "next": "PageDown", "super_l": "Meta", "control_l": "Control",
          "alt_l": "Alt", "shift_l": "Shift"}
DONE_WORD = "DONE"
ACTIONS = ("key", "type", "mouse_move", "left_click", "left_click_drag", "right_click", "middle_click",
           "double_click", "scroll", "wait", "screenshot", "cursor_position", "left_mouse_down", "left_mouse_up")


def _keys(text: Any) -> list[str]:
    if not isinstance(text, str) or not text.strip():
        raise ParseError("key needs text, e.g. \"Return\" or \"ctrl+a\"")
    parts = [p for p in text.replace(" ", "+").split("+") if p] if len(text.strip()) > 1 else [text]
    return key_list([KEY_IN.get(p.lower(), p) for p in parts])


class AnthropicComputerUse(ActionFormat):
    name = "anthropic"
    title = "Anthropic computer-use tool input"
    uses_tools = True

    def tools(self, ctx: FormatContext) -> list[dict]:
        return [{"type": "function", "function": {
            "name": "computer",
            "description": "Use a mouse and keyboard to interact with the computer, and take screenshots.",
            "parameters": {"type": "object", "required": ["action"], "properties": {
                "action": {"type": "string", "enum": list(ACTIONS)},
                "coordinate": {"type": "array", "items": {"type": "integer"}, "description": "[x, y]"},
                "start_coordinate": {"type": "array", "items": {"type": "integer"}},
                "text": {"type": "string"},
                "scroll_direction": {"type": "string", "enum": ["up", "down", "left", "right"]},
                "scroll_amount": {"type": "integer"},
                "duration": {"type": "number"},
            }},
        }}]

    def action_prompt(self, ctx: FormatContext) -> str:
        w, h = ctx.model_size
        return (
            "You are using a computer to complete the user's task in a web browser. After each action you get a "
            "new screenshot.\n"
            f"{ctx.describe_coords()}\n"
            f"Use the `computer` tool (display {w}x{h}). Actions: key {{text}} (xdotool names: Return, ctrl+a, "
            "Page_Down), type {text}, mouse_move {coordinate}, left_click {coordinate}, right_click {coordinate}, "
            "middle_click {coordinate}, double_click {coordinate}, left_click_drag {start_coordinate, coordinate}, "
            "scroll {coordinate, scroll_direction, scroll_amount}, wait {duration}, screenshot.\n"
            f"When the task is complete, reply without a tool call: the answer if the task asks for information, "
            f"otherwise just {DONE_WORD}."
        )

    # ------------------------------------------------------------------ render
    def _inputs(self, a: dict, ctx: FormatContext) -> list[dict]:
        pointer = computer_use_pointer(a, ctx)
        if pointer is not None:
            return [pointer]
        t = a["type"]
        if t == "drag":
            pts = [model_point(x, y, ctx) for x, y in a["path"]]
            if len(pts) == 2:
                return [{"action": "left_click_drag", "start_coordinate": pts[0], "coordinate": pts[1]}]
            return ([{"action": "mouse_move", "coordinate": pts[0]}, {"action": "left_mouse_down"}]
                    + [{"action": "mouse_move", "coordinate": p} for p in pts[1:]] + [{"action": "left_mouse_up"}])
        if t == "scroll":
            dx, dy = a.get("dx", 0), a.get("dy", 0)
            if dx and dy:
                raise ValueError("a diagonal scroll is two Anthropic scroll actions")
            d = dy or dx
            direction = ("down" if d > 0 else "up") if dy else ("right" if d > 0 else "left")
            return [{"action": "scroll", "coordinate": model_point(a["x"], a["y"], ctx), "scroll_direction": direction,
                     "scroll_amount": max(1, round(abs(d) / SCROLL_CLICK_PX))}]
        if t == "type":
            return [{"action": "type", "text": a["text"]}]
        if t == "keypress":
            return [{"action": "key", "text": "+".join(KEY_OUT.get(k, k) for k in a["keys"])}]
        if t == "wait":
            return [{"action": "wait", "duration": a.get("ms", 500) / 1000}]
        if t == "screenshot":
            return [{"action": "screenshot"}]
        raise AssertionError(t)

    def render_many(self, actions: Iterable[Any], ctx: FormatContext, thought: str = "") -> Rendered:
        calls = []
        for a in map(as_action, actions):
            if a["type"] == "done":
                answer = a.get("answer")
                return Rendered(content=answer if answer is not None else DONE_WORD, tool_calls=calls)
            calls.extend(ToolCall(name="computer", arguments=i) for i in self._inputs(a, ctx))
        return Rendered(content=thought, tool_calls=calls)

    # ------------------------------------------------------------------- parse
    def _op(self, inp: dict, ctx: FormatContext) -> list[dict]:
        act = inp.get("action")
        if act not in ACTIONS:
            if act == "triple_click":
                raise ParseError("triple_click is not available; use double_click, or click and key ctrl+a")
            raise ParseError(f"unknown computer action {act!r}; expected one of {', '.join(ACTIONS)}")

        def at(key: str = "coordinate") -> tuple[int, int]:
            if key not in inp:
                raise ParseError(f"{act} needs {key} [x, y]")
            return point(inp[key], ctx, key)

        if act in ("left_click", "right_click", "middle_click", "double_click"):
            if "coordinate" not in inp:
                if ctx.cursor is None:
                    raise ParseError(f"{act} needs coordinate [x, y]")
                x, y = ctx.cursor
            else:
                x, y = at()
            ops = []
            if inp.get("text"):  # a modifier held during the click ("shift")
                raise ParseError(f"{act} with a held key ({inp['text']!r}) is not available")
            if act == "double_click":
                ops.append({"type": "double_click", "x": x, "y": y})
            else:
                ops.append({"type": "click", "x": x, "y": y, "button": act.split("_")[0]})
            return ops
        if act == "mouse_move":
            x, y = at()
            return [{"type": "move", "x": x, "y": y}]
        if act == "left_click_drag":
            end = at()
            if "start_coordinate" in inp:
                start = at("start_coordinate")
                return [{"type": "drag", "path": [list(start), list(end)]}]
            return [{"type": "_drag_to", "x": end[0], "y": end[1]}]
        if act == "left_mouse_down":
            return [{"type": "_down"}]
        if act == "left_mouse_up":
            return [{"type": "_up"}]
        if act == "scroll":
            x, y = at() if "coordinate" in inp else (ctx.cursor or ctx.center())
            direction = str(inp.get("scroll_direction", "down")).lower()
            amount = int(num(inp.get("scroll_amount", 3), "scroll_amount")) * SCROLL_CLICK_PX
            d = {"down": (0, amount), "up": (0, -amount), "right": (amount, 0), "left": (-amount, 0)}.get(direction)
            if d is None:
                raise ParseError(f"scroll_direction must be up, down, left or right, not {direction!r}")
            return [{"type": "scroll", "x": x, "y": y, "dx": d[0], "dy": d[1]}]
        if act == "type":
            if not isinstance(inp.get("text"), str):
                raise ParseError("type needs text (a string)")
            return [{"type": "type", "text": inp["text"]}]
        if act == "key":
            return [{"type": "keypress", "keys": _keys(inp.get("text"))}]
        if act == "wait":
            return [{"type": "wait", "ms": int(round(num(inp.get("duration", 1), "duration") * 1000))}]
        return [{"type": "screenshot"}]  # screenshot, cursor_position

    def parse(self, reply: Reply | str | dict, ctx: FormatContext) -> Parsed:
        thought, text, calls = read_reply(reply)
        inputs: list[dict] = []
        for c in calls:
            args = c.args()
            if "action" not in args:
                raise ParseError(f"the {c.name!r} tool call needs an 'action'")
            inputs.append(args)
        if not inputs:
            for obj in json_objects(text):
                for o in obj if isinstance(obj, list) else [obj]:
                    if isinstance(o, dict) and o.get("type") == "tool_use" and isinstance(o.get("input"), dict):
                        inputs.append(o["input"])
                    elif isinstance(o, dict) and "action" in o:
                        inputs.append(o)
        if inputs:
            ops = [op for inp in inputs for op in self._op(inp, ctx)]
            return Parsed(fold_pointer_ops(ops, ctx), thought=(thought + "\n" + text).strip())
        text = text.strip()
        if not text:
            raise ParseError(f"the reply is empty; use the computer tool, or say {DONE_WORD} when the task is complete")
        answer = None if text.rstrip(".").upper() == DONE_WORD else text
        return Parsed(fold_pointer_ops([{"type": "done", "answer": answer}], ctx), thought=thought)
