"""UI-TARS / Qwen2.5-VL text actions: a `Thought:` then an `Action:` call.

    Thought: The Star button of Ana's email is at the right of her row.
    Action: click(start_box='(412,96)')

Points may be written '(x,y)', '<|box_start|>(x,y)<|box_end|>', '[x1,y1,x2,y2]' (a box: its centre)
or '<point>x y</point>'; in model-image pixels (`coords="abs"`: UI-TARS-1.5, Qwen2.5-VL) or
normalised to 0-1000 (`coords="rel1000"`: UI-TARS-1.0). Actions:

    click / left_single / left_double / right_single (start_box)   hover (start_box)
    drag(start_box, end_box)      scroll(start_box, direction)     type(content)   hotkey(key='ctrl c')
    press(key)   wait()   finished(content)   call_user()

`type(content='...\\n')`: a trailing newline submits (an Enter after the text). A scroll by direction
moves 300 pixels.
"""

from __future__ import annotations

import ast
import re
from typing import Any, Iterable

from agent_harness.formats.base import (
    SCROLL_STEP_PX, WAIT_DEFAULT_MS, ActionFormat, FormatContext, Parsed, ParseError, Rendered, RenderError, Reply,
    as_action, checked, key_list, model_point, point, strip_think,
)

KEY_OUT = {"Control": "ctrl", "Alt": "alt", "Shift": "shift", "Meta": "meta", "Enter": "enter", "Escape": "esc",
           "Tab": "tab", "Backspace": "backspace", "Delete": "delete", " ": "space", "ArrowUp": "up",
           "ArrowDown": "down", "ArrowLeft": "left", "ArrowRight": "right", "PageUp": "pageup",
           "PageDown": "pagedown", "Home": "home", "End": "end"}

PROMPT = """You are a GUI agent. You are given a task and your action history, with screenshots. You need to perform the next action to complete the task.

## Output Format
```
Thought: ...
Action: ...
```

## Action Space
click(start_box='(x1,y1)')
left_double(start_box='(x1,y1)')
right_single(start_box='(x1,y1)')
hover(start_box='(x1,y1)')
drag(start_box='(x1,y1)', end_box='(x2,y2)')
hotkey(key='ctrl c') # Split keys with a space and use lowercase. Also, do not use more than 3 keys in one hotkey action.
type(content='xxx') # Use escape characters \\', \\\", and \\n in content part to ensure we can parse the content in normal python string format. If you want to submit your input, use \\n at the end of content.
scroll(start_box='(x1,y1)', direction='down or up or right or left') # Show more information on the `direction` side.
wait() # Sleep for 1s and take a screenshot to check for any changes.
finished(content='xxx') # Use escape characters \\', \\", and \\n in content part to ensure we can parse the content in normal python string format. Give the answer in content when the task asks for information.

## Note
- Use English in `Thought` part.
- Write a small plan and finally summarize your next action (with its target element) in one sentence in `Thought` part.
- {coords}
"""

_CALL_START = re.compile(r"(?m)^\s*([a-z_]+)\(")
_POINT_RE = re.compile(r"<point>\s*(-?[\d.]+)[\s,]+(-?[\d.]+)\s*</point>")


def _q(s: str) -> str:
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n") + "'"


def _box(p: list[int]) -> str:
    return f"'({p[0]},{p[1]})'"


def _split_calls(text: str) -> list[str]:
    """The action calls in the text after 'Action:' (one per line or paragraph)."""
    starts = [m.start(1) for m in _CALL_START.finditer(text)]
    if not starts:
        m = re.match(r"\s*([a-z_]+)\s*(\(.*)?$", text.strip(), re.S)
        return [text.strip()] if m else []
    return [text[a:b].strip() for a, b in zip(starts, starts[1:] + [len(text)])]


def _kwargs(call: str) -> tuple[str, dict[str, Any]]:
    """name(k='v', ...) -> (name, {k: v}); Python syntax first, then a forgiving reading."""
    call = call.strip().rstrip(";")
    m = re.match(r"([a-z_]+)\s*\((.*)\)\s*$", call, re.S)
    if not m:
        name = re.match(r"([a-z_]+)", call)
        if name and name.group(1) in ("wait", "finished", "call_user"):
            return name.group(1), {}
        raise ParseError(f"cannot read the action {call[:80]!r}; write it as name(arg='...'), e.g. click(start_box='(x,y)')")
    name, inner = m.group(1), m.group(2)
    try:
        node = ast.parse(f"f({inner})", mode="eval").body
        kwargs = {k.arg: ast.literal_eval(k.value) for k in node.keywords if k.arg}
        if node.args:
            kwargs["_args"] = [ast.literal_eval(a) for a in node.args]
        return name, kwargs
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # the parser's limits too: read it forgivingly
        pass
    # Unescaped quotes inside content='...' (models write "content='It's done'"): take the outermost quotes.
    kwargs = {}
    for km in re.finditer(r"(\w+)\s*=\s*(['\"])(.*?)\2(?=\s*(?:,\s*\w+\s*=|$))", inner, re.S):
        kwargs[km.group(1)] = km.group(3).replace("\\n", "\n").replace("\\'", "'").replace('\\"', '"')
    if not kwargs and inner.strip():
        raise ParseError(f"cannot read the arguments of {name}(...): {inner[:80]!r}")
    return name, kwargs


def _pt(v: Any, ctx: FormatContext, what: str) -> tuple[int, int]:
    if isinstance(v, str):
        m = _POINT_RE.search(v)
        if m:
            return point([float(m.group(1)), float(m.group(2))], ctx, what)
        v = v.replace("<|box_start|>", "").replace("<|box_end|>", "")
    return point(v, ctx, what)


class UITars(ActionFormat):
    name = "uitars"
    title = "UI-TARS / Qwen2.5-VL text actions (Thought/Action)"
    uses_tools = False

    def action_prompt(self, ctx: FormatContext) -> str:
        coords = ctx.describe_coords()
        return PROMPT.replace("{coords}", coords)

    # ------------------------------------------------------------------ render
    def _call(self, a: dict, ctx: FormatContext) -> str:
        t = a["type"]
        if t == "click":
            name = {"left": "click", "right": "right_single"}.get(a.get("button", "left"))
            if name is None:
                raise RenderError("UI-TARS has no middle click")
            return f"{name}(start_box={_box(model_point(a['x'], a['y'], ctx))})"
        if t == "double_click":
            return f"left_double(start_box={_box(model_point(a['x'], a['y'], ctx))})"
        if t == "move":
            return f"hover(start_box={_box(model_point(a['x'], a['y'], ctx))})"
        if t == "drag":
            p = a["path"]
            if len(p) != 2:
                raise RenderError("UI-TARS drags go from one point to another (two points)")
            return (f"drag(start_box={_box(model_point(*p[0], ctx))}, "
                    f"end_box={_box(model_point(*p[1], ctx))})")
        if t == "scroll":
            dx, dy = a.get("dx", 0), a.get("dy", 0)
            if (dx and dy) or not (dx or dy):
                raise RenderError("UI-TARS scrolls in one direction")
            direction = ("down" if dy > 0 else "up") if dy else ("right" if dx > 0 else "left")
            return f"scroll(start_box={_box(model_point(a['x'], a['y'], ctx))}, direction='{direction}')"
        if t == "type":
            return f"type(content={_q(a['text'])})"
        if t == "keypress":
            return f"hotkey(key={_q(' '.join(KEY_OUT.get(k, k.lower() if len(k) > 1 else k) for k in a['keys']))})"
        if t == "wait":
            return "wait()"
        if t == "done":
            return f"finished(content={_q(a.get('answer') or '')})"
        raise RenderError(f"UI-TARS has no {t} action")

    def render_many(self, actions: Iterable[Any], ctx: FormatContext, thought: str = "") -> Rendered:
        calls = [self._call(as_action(a), ctx) for a in actions]
        return Rendered(content=f"Thought: {thought or '...'}\nAction: " + "\n\n".join(calls))

    # ------------------------------------------------------------------- parse
    def _actions(self, name: str, kw: dict, ctx: FormatContext) -> list[dict]:
        args = kw.pop("_args", [])

        def box(key: str = "start_box") -> tuple[int, int]:
            for k in (key, "point", "start_point", "coordinate") if key == "start_box" else (key, "end_point"):
                if k in kw:
                    return _pt(kw[k], ctx, k)
            if key == "start_box" and args:
                return _pt(args[0], ctx, key)
            raise ParseError(f"{name} needs {key}='(x,y)'")

        if name in ("click", "left_single"):
            x, y = box()
            return [{"type": "click", "x": x, "y": y}]
        if name in ("left_double", "double_click"):
            x, y = box()
            return [{"type": "double_click", "x": x, "y": y}]
        if name in ("right_single", "right_click"):
            x, y = box()
            return [{"type": "click", "x": x, "y": y, "button": "right"}]
        if name in ("hover", "mouse_move", "move_to"):
            x, y = box()
            return [{"type": "move", "x": x, "y": y}]
        if name in ("drag", "select"):
            s, e = box(), box("end_box")
            return [{"type": "drag", "path": [list(s), list(e)]}]
        if name == "scroll":
            x, y = box() if any(k in kw for k in ("start_box", "point")) or args else ctx.cursor or ctx.center()
            direction = str(kw.get("direction", "down")).strip().lower()
            d = {"down": (0, SCROLL_STEP_PX), "up": (0, -SCROLL_STEP_PX), "right": (SCROLL_STEP_PX, 0),
                 "left": (-SCROLL_STEP_PX, 0)}.get(direction)
            if d is None:
                raise ParseError(f"scroll direction must be up, down, left or right, not {direction!r}")
            return [{"type": "scroll", "x": x, "y": y, "dx": d[0], "dy": d[1]}]
        if name == "type":
            content = kw.get("content", args[0] if args else None)
            if not isinstance(content, str):
                raise ParseError("type needs content='...'")
            if content.endswith("\n"):
                body = content.rstrip("\n")
                return ([{"type": "type", "text": body}] if body else []) + [{"type": "keypress", "keys": ["Enter"]}]
            return [{"type": "type", "text": content}]
        if name in ("hotkey", "press", "key", "keydown"):
            keys = kw.get("key", kw.get("keys", args[0] if args else None))
            if not isinstance(keys, str) or not keys.strip():
                raise ParseError(f"{name} needs key='...', e.g. hotkey(key='ctrl c')")
            return [{"type": "keypress", "keys": key_list(keys, sep=" ")}]
        if name == "wait":
            return [{"type": "wait", "ms": WAIT_DEFAULT_MS}]
        if name in ("finished", "call_user"):
            content = kw.get("content", args[0] if args else "")
            content = content.strip() if isinstance(content, str) else str(content)
            return [{"type": "done", **({"answer": content} if content else {})}]
        raise ParseError(f"unknown action {name!r}; the actions are click, left_double, right_single, hover, drag, "
                         "hotkey, type, scroll, wait, finished")

    def parse(self, reply: Reply | str | dict, ctx: FormatContext) -> Parsed:
        reply = Reply.of(reply)
        think, text = strip_think(reply.content or "")
        text = text.replace("<|box_start|>", "").replace("<|box_end|>", "")
        m = re.search(r"(?im)^\s*Action\s*:\s*", text)
        if not m:
            if not text.strip():
                raise ParseError("the reply is empty; answer with 'Thought: ...' then 'Action: ...'")
            raise ParseError("no 'Action:' line in the reply; answer with 'Thought: ...' then 'Action: ...'")
        head, body = text[:m.start()], text[m.end():]
        thought = re.sub(r"(?is)^\s*(Thought|Reflection|Action_Summary)\s*:\s*", "", head).strip()
        body = body.strip().strip("`").strip()
        calls = _split_calls(body)
        if not calls:
            raise ParseError("the 'Action:' line holds no action, e.g. click(start_box='(x,y)')")
        out: list[dict] = []
        for c in calls:
            name, kw = _kwargs(c)
            out.extend(self._actions(name, kw, ctx))
        return Parsed([checked(a) for a in out], thought=(think + "\n" + thought).strip())
