"""Qwen2.5-VL's `computer_use` function (as in Qwen's computer-use cookbook), in <tool_call> tags.

    <tool_call>
    {"name": "computer_use", "arguments": {"action": "left_click", "coordinate": [412, 96]}}
    </tool_call>

Actions: key {keys}, type {text}, mouse_move {coordinate}, left_click, right_click, middle_click,
double_click {coordinate}, left_click_drag {coordinate} (from the mouse's position: written after a
mouse_move), scroll {pixels} (positive scrolls up, at the mouse's position), wait {time} (seconds),
answer {text}, terminate {status}. Coordinates are pixels of the resized image the model sees.
"""

from __future__ import annotations

from typing import Any, Iterable

from agent_harness.formats.base import (
    ActionFormat, FormatContext, Parsed, ParseError, Rendered, RenderError, Reply, ToolCall, as_action,
    computer_use_pointer, fold_pointer_ops, json_objects, key_list, model_point, num, point, read_reply,
)

ACTIONS = ["key", "type", "mouse_move", "left_click", "left_click_drag", "right_click", "middle_click",
           "double_click", "scroll", "wait", "answer", "terminate"]
KEY_OUT = {"Control": "ctrl", "Alt": "alt", "Shift": "shift", "Meta": "super", "Enter": "enter", "Escape": "esc",
           "Tab": "tab", "Backspace": "backspace", "Delete": "delete", " ": "space", "ArrowUp": "up",
           "ArrowDown": "down", "ArrowLeft": "left", "ArrowRight": "right", "PageUp": "pageup",
           "PageDown": "pagedown", "Home": "home", "End": "end"}


class QwenComputerUse(ActionFormat):
    name = "qwen"
    title = "Qwen2.5-VL computer_use tool calls"
    uses_tools = True

    def tools(self, ctx: FormatContext) -> list[dict]:
        w, h = ctx.model_size
        return [{"type": "function", "function": {
            "name": "computer_use",
            "description": (f"Use a mouse and keyboard to interact with a computer, and take screenshots.\n"
                            f"* The screen's resolution is {w}x{h}.\n"
                            "* Click the centre of elements; never click their edges.\n"
                            "* Use `answer` to give the answer the task asks for, then `terminate`."),
            "parameters": {"type": "object", "required": ["action"], "properties": {
                "action": {"type": "string", "enum": ACTIONS, "description": (
                    "key: press keys together (keys). type: type text. mouse_move: move to coordinate. "
                    "left_click / right_click / middle_click / double_click: click at coordinate. "
                    "left_click_drag: drag from the mouse's position to coordinate. scroll: scroll by pixels "
                    "(positive up, negative down). wait: wait `time` seconds. answer: give the answer (text). "
                    "terminate: end the task (status).")},
                "keys": {"type": "array", "items": {"type": "string"}},
                "text": {"type": "string"},
                "coordinate": {"type": "array", "items": {"type": "number"}, "description": "(x, y) in pixels"},
                "pixels": {"type": "number"},
                "time": {"type": "number"},
                "status": {"type": "string", "enum": ["success", "failure"]},
            }},
        }}]

    def action_prompt(self, ctx: FormatContext) -> str:
        return ("You are a helpful assistant operating a web browser through the computer_use tool to complete the "
                "user's task. After each action you get a new screenshot.\n" + ctx.describe_coords() +
                "\nCall the tool once per turn. When the task is complete, call it with action=terminate "
                "(after action=answer if the task asks for information).")

    # ------------------------------------------------------------------ render
    def _args(self, a: dict, ctx: FormatContext) -> list[dict]:
        pointer = computer_use_pointer(a, ctx)
        if pointer is not None:
            return [pointer]
        t = a["type"]
        if t == "drag":
            p = a["path"]
            if len(p) != 2:
                raise RenderError("Qwen's computer_use drags from one point to another (two points)")
            return [{"action": "mouse_move", "coordinate": model_point(*p[0], ctx)},
                    {"action": "left_click_drag", "coordinate": model_point(*p[1], ctx)}]
        if t == "scroll":
            if a.get("dx"):
                raise RenderError("Qwen's computer_use scrolls vertically only")
            return [{"action": "mouse_move", "coordinate": model_point(a["x"], a["y"], ctx)},
                    {"action": "scroll", "pixels": -a.get("dy", 0)}]
        if t == "type":
            return [{"action": "type", "text": a["text"]}]
        if t == "keypress":
            return [{"action": "key", "keys": [KEY_OUT.get(k, k) for k in a["keys"]]}]
        if t == "wait":
            return [{"action": "wait", "time": a.get("ms", 500) / 1000}]
        if t == "done":
            out = [{"action": "answer", "text": a["answer"]}] if a.get("answer") is not None else []
            return out + [{"action": "terminate", "status": "success"}]
        raise RenderError(f"Qwen's computer_use has no {t} action")

    def render_many(self, actions: Iterable[Any], ctx: FormatContext, thought: str = "") -> Rendered:
        calls = [ToolCall(name="computer_use", arguments=x) for a in actions for x in self._args(as_action(a), ctx)]
        return Rendered(content=thought, tool_calls=calls)

    # ------------------------------------------------------------------- parse
    def _ops(self, args: dict, ctx: FormatContext, pending_answer: list) -> list[dict]:
        act = args.get("action")

        def at() -> tuple[int, int]:
            if "coordinate" not in args:
                if ctx.cursor is not None:
                    return ctx.cursor
                raise ParseError(f"{act} needs coordinate [x, y]")
            return point(args["coordinate"], ctx)

        if act in ("left_click", "right_click", "middle_click"):
            x, y = at()
            return [{"type": "click", "x": x, "y": y, "button": act.split("_")[0]}]
        if act == "double_click":
            x, y = at()
            return [{"type": "double_click", "x": x, "y": y}]
        if act == "mouse_move":
            x, y = at()
            return [{"type": "move", "x": x, "y": y}]
        if act == "left_click_drag":
            if "coordinate" not in args:
                raise ParseError("left_click_drag needs coordinate [x, y] (where to drop)")
            x, y = point(args["coordinate"], ctx)
            return [{"type": "_drag_to", "x": x, "y": y}]
        if act in ("scroll", "hscroll"):
            px = int(round(num(args.get("pixels", 0), "pixels")))
            ops = []
            if "coordinate" in args:
                x, y = point(args["coordinate"], ctx)
                ops.append({"type": "move", "x": x, "y": y})
            return ops + [{"type": "_scroll", "dx": -px if act == "hscroll" else 0, "dy": 0 if act == "hscroll" else -px}]
        if act == "type":
            if not isinstance(args.get("text"), str):
                raise ParseError("type needs text (a string)")
            return [{"type": "type", "text": args["text"]}]
        if act == "key":
            return [{"type": "keypress", "keys": key_list(args.get("keys", args.get("text", [])))}]
        if act == "wait":
            return [{"type": "wait", "ms": int(round(num(args.get("time", 1), "time") * 1000))}]
        if act == "answer":
            pending_answer.append(str(args.get("text", "")))
            return []
        if act == "terminate":
            answer = pending_answer[-1] if pending_answer else None
            pending_answer.clear()
            return [{"type": "done", **({"answer": answer} if answer is not None else {})}]
        raise ParseError(f"unknown computer_use action {act!r}; expected one of {', '.join(ACTIONS)}")

    def parse(self, reply: Reply | str | dict, ctx: FormatContext) -> Parsed:
        thought, text, calls = read_reply(reply)
        if not calls:
            for obj in json_objects(text):
                if isinstance(obj, dict) and "action" in obj:
                    calls.append(ToolCall("computer_use", obj))
                elif isinstance(obj, dict) and "arguments" in obj:
                    calls.append(ToolCall(str(obj.get("name", "computer_use")), obj["arguments"]))
        if not calls:
            raise ParseError("no computer_use tool call found; call it inside <tool_call></tool_call> tags"
                             if text.strip() else "the reply is empty; call the computer_use tool")
        pending: list[str] = []
        ops: list[dict] = []
        for c in calls:
            args = c.args()
            if "action" not in args:
                raise ParseError(f"the {c.name!r} tool call needs an 'action'")
            ops.extend(self._ops(args, ctx, pending))
        if pending:  # an answer without terminate still ends the task with that answer
            ops.append({"type": "done", "answer": pending[-1]})
        # A scroll happens at the mouse's position: resolve it after the moves before it.
        cursor = ctx.cursor
        resolved = []
        for op in ops:
            if op["type"] == "_scroll":
                x, y = cursor or ctx.center()
                if resolved and resolved[-1]["type"] == "move" and (resolved[-1]["x"], resolved[-1]["y"]) == (x, y):
                    resolved.pop()
                resolved.append({"type": "scroll", "x": x, "y": y, "dx": op["dx"], "dy": op["dy"]})
                continue
            if "x" in op and op["type"] != "_drag_to":
                cursor = (op["x"], op["y"])
            elif op["type"] == "_drag_to":
                cursor = (op["x"], op["y"])
            resolved.append(op)
        return Parsed(fold_pointer_ops(resolved, ctx), thought=(thought + "\n" + text).strip())
