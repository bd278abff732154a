"""What every tool call's arguments must be, whatever the tool: a JSON object of plain JSON data that a
SQLite-backed tool can take. Public (outside apps/_shared) because both ends of a call run it: the seam
every call passes (apps/_shared/tools.py, `ToolSet.check`) and the gym's control client before it sends a
call (gym_core/server.py), so a call the app would refuse for its shape is not even sent, with the same
message.

    encode_args("star", {"thread_id": 2**63})   # MalformedArgs: 'thread_id': ... is out of range; ...
"""

from __future__ import annotations

import json
import re
from typing import Any

MAX_STRING = 20_000  # characters in any one string argument (a long email body is a few thousand)
MAX_ARGS_BYTES = 200_000  # the whole JSON payload of one call
MAX_DEPTH = 32  # levels of nesting in one call's arguments, the object itself the first (no tool takes more than 3)
INT_MIN, INT_MAX = -(2**63), 2**63 - 1  # SQLite's INTEGER: an integer beyond it cannot be stored or compared
TOOL_NAME_RE = re.compile(r"^[a-z][a-z0-9_]{0,63}$")


def depth_within(value: Any, limit: int) -> bool:
    """Is parsed JSON nested at most `limit` levels (the value itself the first)? Iterative, so a hostile depth
    cannot exhaust the stack: the one depth check of every JSON body the project reads (the control API's,
    `uigym serve`'s requests)."""
    stack = [(value, 1)]
    while stack:
        v, d = stack.pop()
        if d > limit:
            return False
        if isinstance(v, dict):
            stack.extend((x, d + 1) for x in v.values())
        elif isinstance(v, list):
            stack.extend((x, d + 1) for x in v)
    return True


class ToolError(ValueError):
    """A mistake a model can act on (unknown id, missing option, invalid value). The world is unchanged."""


class MalformedArgs(ToolError):
    """Arguments no tool could take, whatever its schema (see `encode_args`): invalid parameters, not a
    mistake about the world. The world is unchanged."""


def unknown_tool_message(app: str, name: Any, names: Any) -> str:
    return f"unknown tool {shown(name)}; the {app} tools are: {', '.join(names)}"


def shown(value: Any, limit: int = 60) -> str:
    """A value for a message: its repr, shortened, any lone surrogate escaped (a message must be Unicode)."""
    try:
        text = repr(value)
    except ValueError:  # an int over Python's 4300 digits
        return f"an integer of {value.bit_length()} bits" if isinstance(value, int) else type(value).__name__
    text = text if len(text) <= limit else text[:limit] + "..."
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _unicode_ok(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate (JSON's "\ud800" decodes to one)
        return False
    return True


def _path(node: tuple | None) -> str:
    """'a.b[2]' from the linked (parent, key) nodes the walk keeps (strings are built only for a message)."""
    parts: list[str] = []
    while node is not None:
        node, key = node
        parts.append(f"[{key}]" if isinstance(key, int) else (f".{key}" if node is not None else key))
    path = "".join(reversed(parts))
    return f"'{path if len(path) <= 80 else path[:80] + '...'}'" if path else "the arguments"


def _scalar_error(v: Any) -> str | None:
    """What is wrong with one non-container value, or None."""
    if isinstance(v, str):
        if len(v) > MAX_STRING:
            return f"is longer than {MAX_STRING} characters"
        if not _unicode_ok(v):
            return "is not valid Unicode text (it holds a lone surrogate)"
    elif isinstance(v, bool) or v is None:
        pass
    elif isinstance(v, int):
        if not INT_MIN <= v <= INT_MAX:
            return f"{shown(v, 30)} is out of range; an integer must lie in {INT_MIN}..{INT_MAX}"
    elif isinstance(v, float):
        if v != v or v in (float("inf"), float("-inf")):
            return "the arguments must be plain JSON (no NaN or Infinity)"
    else:
        return f"the arguments must be plain JSON data, not {type(v).__name__}"
    return None


def _shape_error(args: Any) -> str | None:
    """What makes `args` something no tool could take, or None. Iterative: no input can exhaust the stack."""
    if not isinstance(args, dict):
        return f"the arguments must be a JSON object, got {type(args).__name__}"
    stack: list[tuple[Any, int, tuple | None]] = [(args, 1, None)]
    while stack:
        v, depth, node = stack.pop()
        items = v.items() if isinstance(v, dict) else enumerate(v)
        for k, x in items:
            if isinstance(k, str) and not _unicode_ok(k):
                return f"{_path(node)}: the key {shown(k)} is not valid Unicode (it holds a lone surrogate)"
            if not isinstance(k, (str, int)) or (isinstance(k, int) and isinstance(v, dict)):
                return f"{_path(node)}: a key must be a string, got {type(k).__name__}"
            # As the control API counts a body's depth: every value one level below its container.
            if depth + 1 > MAX_DEPTH:
                return f"{_path((node, k))}: the arguments are nested deeper than {MAX_DEPTH} levels"
            if isinstance(x, (dict, list, tuple)):
                stack.append((x, depth + 1, (node, k)))
            else:
                problem = _scalar_error(x)
                if problem:
                    return f"{_path((node, k))}{' ' if problem.startswith('is ') else ': '}{problem}"
    return None


def encode_args(name: str, args: Any) -> bytes:
    """A call's arguments as they travel (UTF-8 JSON), or MalformedArgs saying why no tool could take them:
    not a JSON object (None is {}), over MAX_ARGS_BYTES, not plain JSON data, nested deeper than MAX_DEPTH,
    an integer SQLite cannot hold, a string that is not valid Unicode or over MAX_STRING characters.
    `ToolSet.check` runs it first; a client (gym_core's ControlClient) runs it before it sends a call."""
    args = {} if args is None else args
    try:  # the size first, at C speed, so the walk below only ever sees a bounded payload
        size = len(json.dumps(args, ensure_ascii=False).encode("utf-8", "surrogatepass"))
    except (TypeError, ValueError, RecursionError):
        size = 0  # not JSON at all: the walk says why
    if size > MAX_ARGS_BYTES:
        raise MalformedArgs(f"{name}: the arguments are {size} bytes; at most {MAX_ARGS_BYTES}")
    problem = _shape_error(args)
    if problem:
        raise MalformedArgs(f"{name}: {problem}")
    return json.dumps(args, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")
