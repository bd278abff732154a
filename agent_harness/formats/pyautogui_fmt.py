"""pyautogui code, one call a line (OSWorld style), read with Python's parser (never executed).

    pyautogui.click(412, 96)
    pyautogui.write('hello')
    pyautogui.hotkey('ctrl', 'a')
    pyautogui.scroll(-3, x=640, y=400)        # clicks of 100 pixels; negative scrolls down
    pyautogui.moveTo(100, 100); pyautogui.dragTo(300, 400)
    DONE            (or done(answer='March 14'), FAIL, WAIT)

Accepted calls: click (x, y, button, clicks), doubleClick, rightClick, middleClick, moveTo, dragTo,
mouseDown/mouseUp (a drag when moves come between), scroll, hscroll, write/typewrite, press,
hotkey, sleep/time.sleep. Code may sit in a ```python fence; comments and imports are ignored.
"""

from __future__ import annotations

import ast
import re
from typing import Any, Iterable

from agent_harness.formats.base import (
    SCROLL_CLICK_PX, WAIT_DEFAULT_MS, ActionFormat, FormatContext, Parsed, ParseError, Rendered, Reply, as_action,
    fold_pointer_ops, key_list, model_point, num, point, strip_think,
)

KEY_OUT = {"Control": "ctrl", "Alt": "alt", "Shift": "shift", "Meta": "win", "Enter": "enter", "Escape": "esc",
           "Tab": "tab", "Backspace": "backspace", "Delete": "delete", " ": "space", "ArrowUp": "up",
           "ArrowDown": "down", "ArrowLeft": "left", "ArrowRight": "right", "PageUp": "pageup",
           "PageDown": "pagedown", "Home": "home", "End": "end"}
_FENCE = re.compile(r"```(?:python|py)?\s*\n(.*?)```", re.S)
SPECIAL = {"DONE", "FAIL", "WAIT"}
MAX_REPEATS = 10  # clicks= / presses=: more is refused, not expanded into that many actions


def repeats(v: Any, what: str) -> int:
    n = num(v, what)
    if n > MAX_REPEATS:
        raise ParseError(f"{what} must be at most {MAX_REPEATS}, got {n:g}")
    return int(n)


class PyAutoGUI(ActionFormat):
    name = "pyautogui"
    title = "pyautogui code"
    uses_tools = False

    def action_prompt(self, ctx: FormatContext) -> str:
        return (
            "You are an agent that operates a web browser by writing pyautogui code. After each reply you get a new "
            "screenshot.\n"
            f"{ctx.describe_coords()}\n"
            "Reply with a short thought, then Python code in a ```python block, one pyautogui call per line: "
            "pyautogui.click(x, y), pyautogui.doubleClick(x, y), pyautogui.rightClick(x, y), pyautogui.moveTo(x, y), "
            "pyautogui.moveTo(x1, y1) then pyautogui.dragTo(x2, y2), pyautogui.scroll(clicks, x=x, y=y) "
            "(negative clicks scroll down; a click is 100 pixels), pyautogui.write('text'), pyautogui.press('enter'), "
            "pyautogui.hotkey('ctrl', 'a'), time.sleep(seconds).\n"
            "Do not write anything else in the code (no variables, no loops, no screenshots or locate calls).\n"
            "When the task is complete reply with DONE alone, or done(answer='...') if the task asks for information "
            "or you stop without doing it (say why in the answer)."
        )

    # ------------------------------------------------------------------ render
    def _lines(self, a: dict, ctx: FormatContext) -> list[str]:
        t = a["type"]
        if t == "click":
            x, y = model_point(a["x"], a["y"], ctx)
            b = a.get("button", "left")
            return [f"pyautogui.click({x}, {y})" if b == "left" else
                    f"pyautogui.{'rightClick' if b == 'right' else 'middleClick'}({x}, {y})"]
        if t == "double_click":
            x, y = model_point(a["x"], a["y"], ctx)
            return [f"pyautogui.doubleClick({x}, {y})"]
        if t == "move":
            x, y = model_point(a["x"], a["y"], ctx)
            return [f"pyautogui.moveTo({x}, {y})"]
        if t == "drag":
            pts = [model_point(x, y, ctx) for x, y in a["path"]]
            if len(pts) == 2:
                return [f"pyautogui.moveTo({pts[0][0]}, {pts[0][1]})", f"pyautogui.dragTo({pts[1][0]}, {pts[1][1]})"]
            return ([f"pyautogui.moveTo({pts[0][0]}, {pts[0][1]})", "pyautogui.mouseDown()"]
                    + [f"pyautogui.moveTo({x}, {y})" for x, y in pts[1:]] + ["pyautogui.mouseUp()"])
        if t == "scroll":
            x, y = model_point(a["x"], a["y"], ctx)
            out = []
            if a.get("dy"):
                out.append(f"pyautogui.scroll({-round(a['dy'] / SCROLL_CLICK_PX)}, x={x}, y={y})")
            if a.get("dx"):
                out.append(f"pyautogui.hscroll({round(a['dx'] / SCROLL_CLICK_PX)}, x={x}, y={y})")
            return out or [f"pyautogui.scroll(0, x={x}, y={y})"]
        if t == "type":
            return [f"pyautogui.write({a['text']!r})"]
        if t == "keypress":
            names = [KEY_OUT.get(k, k.lower() if len(k) > 1 else k) for k in a["keys"]]
            if len(names) == 1:
                return [f"pyautogui.press({names[0]!r})"]
            return ["pyautogui.hotkey(" + ", ".join(repr(n) for n in names) + ")"]
        if t == "wait":
            return [f"time.sleep({a.get('ms', 500) / 1000:g})"]
        if t == "screenshot":
            return ["pyautogui.screenshot()"]
        if t == "done":
            return [f"done(answer={a['answer']!r})"] if a.get("answer") is not None else ["DONE"]
        raise AssertionError(t)

    def render_many(self, actions: Iterable[Any], ctx: FormatContext, thought: str = "") -> Rendered:
        acts = [as_action(a) for a in actions]
        if len(acts) == 1 and acts[0]["type"] == "done" and acts[0].get("answer") is None:
            return Rendered(content=(thought + "\n" if thought else "") + "DONE")
        lines = [line for a in acts for line in self._lines(a, ctx)]
        return Rendered(content=(thought + "\n" if thought else "") + "```python\n" + "\n".join(lines) + "\n```")

    # ------------------------------------------------------------------- parse
    def _code(self, text: str) -> tuple[str, str]:
        blocks = _FENCE.findall(text)
        if blocks:
            return "\n".join(blocks), _FENCE.sub("", text).strip()
        lines = text.splitlines()
        code = [ln for ln in lines if re.match(r"\s*(pyautogui\.|time\.sleep|done\(|(DONE|FAIL|WAIT)\s*$)", ln)]
        rest = [ln for ln in lines if ln not in code]
        return "\n".join(code), "\n".join(rest).strip()

    def _call(self, node: ast.Call, ctx: FormatContext) -> list[dict]:
        f = node.func
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
            mod, name = f.value.id, f.attr
        elif isinstance(f, ast.Name):
            mod, name = "", f.id
        else:
            raise ParseError("only pyautogui.<function>(...) calls are allowed")
        try:
            args = [ast.literal_eval(a) for a in node.args]
            kw = {k.arg: ast.literal_eval(k.value) for k in node.keywords if k.arg}
        except (ValueError, RecursionError, MemoryError):
            raise ParseError(f"the arguments of {name}(...) must be literal values (numbers, strings)") from None

        def xy(required: bool = True) -> tuple[int, int] | None:
            if len(args) >= 2 and all(isinstance(a, (int, float)) for a in args[:2]):
                return point(args[:2], ctx)
            if args and isinstance(args[0], (list, tuple)):
                return point(args[0], ctx)
            if "x" in kw and "y" in kw:
                return point([kw["x"], kw["y"]], ctx)
            if required:
                if ctx.cursor is not None and not args and "x" not in kw:
                    return ctx.cursor
                raise ParseError(f"{name} needs x and y")
            return None

        if (mod, name) in (("time", "sleep"), ("", "sleep"), ("pyautogui", "sleep")):
            secs = num(args[0] if args else kw.get("secs", kw.get("seconds", 1)), "seconds")
            return [{"type": "wait", "ms": int(round(secs * 1000))}]
        if mod == "" and name == "done":
            ans = kw.get("answer", args[0] if args else None)
            return [{"type": "done", **({"answer": str(ans)} if ans is not None else {})}]
        if mod != "pyautogui":
            raise ParseError(f"unknown call {mod + '.' if mod else ''}{name}(...); use pyautogui functions")
        if name == "click":
            x, y = xy()
            button = str(kw.get("button", "left")).lower()
            clicks = repeats(kw.get("clicks", 1), "clicks")
            if button not in ("left", "right", "middle"):
                raise ParseError(f"unknown button {button!r}")
            if clicks == 2 and button == "left":
                return [{"type": "double_click", "x": x, "y": y}]
            return [{"type": "click", "x": x, "y": y, "button": button}] * max(1, clicks)
        if name in ("doubleClick", "tripleClick"):
            if name == "tripleClick":
                raise ParseError("tripleClick is not available; use doubleClick, or click then hotkey('ctrl', 'a')")
            x, y = xy()
            return [{"type": "double_click", "x": x, "y": y}]
        if name in ("rightClick", "middleClick"):
            x, y = xy()
            return [{"type": "click", "x": x, "y": y, "button": "right" if name == "rightClick" else "middle"}]
        if name in ("moveTo", "move"):
            x, y = xy()
            return [{"type": "move", "x": x, "y": y}]
        if name == "dragTo":
            x, y = xy()
            return [{"type": "_drag_to", "x": x, "y": y}]
        if name == "mouseDown":
            p = xy(required=False)
            return ([{"type": "move", "x": p[0], "y": p[1]}] if p else []) + [{"type": "_down"}]
        if name == "mouseUp":
            p = xy(required=False)
            return ([{"type": "move", "x": p[0], "y": p[1]}] if p else []) + [{"type": "_up"}]
        if name in ("scroll", "vscroll", "hscroll"):
            clicks = num(args[0] if args else kw.get("clicks", 0), "clicks")
            rest = args[1:]
            if len(rest) >= 2:
                x, y = point(rest[:2], ctx)
            elif "x" in kw and "y" in kw:
                x, y = point([kw["x"], kw["y"]], ctx)
            else:
                x, y = ctx.cursor or ctx.center()
            px = int(round(clicks * SCROLL_CLICK_PX))
            if name == "hscroll":
                return [{"type": "scroll", "x": x, "y": y, "dx": px, "dy": 0}]
            return [{"type": "scroll", "x": x, "y": y, "dx": 0, "dy": -px}]
        if name in ("write", "typewrite"):
            text = args[0] if args else kw.get("message", kw.get("text"))
            if isinstance(text, list):
                return [{"type": "keypress", "keys": key_list([k])} for k in text]
            if not isinstance(text, str):
                raise ParseError(f"{name} needs a string")
            return [{"type": "type", "text": text}]
        if name == "press":
            keys = args[0] if args else kw.get("keys")
            presses = repeats(kw.get("presses", 1), "presses")
            if isinstance(keys, list):
                return [{"type": "keypress", "keys": key_list([k])} for k in keys] * presses
            if not isinstance(keys, str):
                raise ParseError("press needs a key name, e.g. press('enter')")
            return [{"type": "keypress", "keys": key_list([keys])}] * max(1, presses)
        if name == "hotkey":
            keys = [a for a in args if isinstance(a, str)]
            if not keys:
                raise ParseError("hotkey needs key names, e.g. hotkey('ctrl', 'a')")
            return [{"type": "keypress", "keys": key_list(keys)}]
        if name == "screenshot":
            return [{"type": "screenshot"}]
        raise ParseError(f"pyautogui.{name} is not available here")

    def parse(self, reply: Reply | str | dict, ctx: FormatContext) -> Parsed:
        reply = Reply.of(reply)
        think, text = strip_think(reply.content or "")
        if not text.strip():
            raise ParseError("the reply is empty; reply with pyautogui code in a ```python block, or DONE")
        code, thought = self._code(text)
        stripped = text.strip().strip("`").strip()
        if not code.strip():
            last = stripped.splitlines()[-1].strip() if stripped else ""
            if last in SPECIAL:
                code, thought = last, "\n".join(stripped.splitlines()[:-1]).strip()
            else:
                raise ParseError("no pyautogui code found; reply with code in a ```python block, or DONE")
        ops: list[dict] = []
        for raw in code.splitlines():
            line = raw.strip()
            if not line or line.startswith("#") or line.startswith(("import ", "from ")):
                continue
            if line in SPECIAL:
                if line == "WAIT":
                    ops.append({"type": "wait", "ms": WAIT_DEFAULT_MS})
                else:
                    ops.append({"type": "done", **({"answer": "FAIL"} if line == "FAIL" else {})})
                continue
            try:
                tree = ast.parse(line)
            except SyntaxError as e:
                raise ParseError(f"line {line[:80]!r} is not valid Python: {e.msg}") from None
            except (RecursionError, MemoryError):  # nested beyond the parser's limits
                raise ParseError(f"line {line[:80]!r} is nested too deeply to read") from None
            for stmt in tree.body:
                if not isinstance(stmt, ast.Expr) or not isinstance(stmt.value, ast.Call):
                    raise ParseError(f"only calls are allowed, not {line[:80]!r}")
                ops.extend(self._call(stmt.value, ctx))
        if not ops:
            raise ParseError("no pyautogui call found")
        return Parsed(fold_pointer_ops(ops, ctx), thought=(think + "\n" + thought).strip())
