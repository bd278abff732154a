"""Value helpers shared by the matchers, the diff and the engine.

State rows are plain JSON, written by apps we do not control from here, so every helper is total:
it answers for any input (odd types, missing keys, NaN) and never raises. The rules that graders
depend on live here in one place: what "equal" means (1 == 1.0 but True != 1), which values can be
ordered (numbers with numbers, strings with strings, so ISO dates compare lexicographically), how a
number is read out of free text, and how values are shown in failure reports.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any, Final

__all__ = [
    "MISSING",
    "canonical",
    "compare",
    "extract_number",
    "get_path",
    "is_number",
    "render",
    "values_equal",
]


class _Missing:
    """The value of a field that is not there at all (as opposed to a JSON null)."""

    _instance: _Missing | None = None

    def __new__(cls) -> _Missing:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "<missing>"

    def __bool__(self) -> bool:
        return False


MISSING: Final = _Missing()


def get_path(obj: Any, path: str) -> Any:
    """The value at `path` in `obj`, or MISSING.

    A key that exists verbatim wins (so a column literally named "a.b" still works); otherwise the
    path is split on dots and walked through dicts, and through lists by integer index, which is
    how graders reach into JSON columns and into the `_before` copy of a changed row.
    """
    if isinstance(obj, Mapping) and path in obj:
        return obj[path]
    cur = obj
    for part in path.split("."):
        if isinstance(cur, Mapping):
            if part not in cur:
                return MISSING
            cur = cur[part]
        elif isinstance(cur, list) and part.lstrip("-").isdigit():
            idx = int(part)
            if not -len(cur) <= idx < len(cur):
                return MISSING
            cur = cur[idx]
        else:
            return MISSING
    return cur


def is_number(v: Any) -> bool:
    """True for ints and floats but not bools (JSON booleans are not numbers to a grader)."""
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def values_equal(a: Any, b: Any) -> bool:
    """JSON equality: numbers by value (1 == 1.0), booleans only equal booleans, strings exact,
    lists and dicts element by element. Never raises."""
    t = type(a)
    if t is type(b) and (t is str or t is int or t is bool or a is None):  # fast path, the common case
        return a == b
    if a is MISSING or b is MISSING:
        return a is b
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if is_number(a) and is_number(b):
        return a == b
    if isinstance(a, str) or isinstance(b, str):
        return isinstance(a, str) and isinstance(b, str) and a == b
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(values_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(values_equal(a[k], b[k]) for k in a)
    try:
        return bool(a == b)
    except Exception:
        return False


def compare(a: Any, b: Any) -> int | None:
    """-1, 0 or 1 when `a` and `b` can be ordered, else None.

    Only numbers with numbers and strings with strings are ordered. Strings compare
    lexicographically, which is exactly right for ISO dates ("2026-03-12T10:00" >= "2026-03-12").
    """
    if is_number(a) and is_number(b):
        if isinstance(a, float) and math.isnan(a) or isinstance(b, float) and math.isnan(b):
            return None
    elif not (isinstance(a, str) and isinstance(b, str)):
        return None
    return (a > b) - (a < b)


# A sign counts only when it is not glued to a word ("item-3" is 3, "-3" is -3); a currency symbol
# may sit on either side of the sign ("-$5", "$-5"); thousands separators need groups of three.
_NUMBER_RE = re.compile(
    r"(?:(?<![\w.])(?P<sign>[-\u2212]))?"
    r"(?:[$\u20ac\u00a3\u00a5]\s?(?P<sign2>-)?)?"
    r"(?P<num>(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)"
)


def extract_number(v: Any) -> int | float | None:
    """The first number written in `v`, or None.

    Agents answer in prose ("The total is $1,234.50."), so graders compare numbers, not strings.
    Numbers pass through unchanged; booleans and other types have no number.
    """
    nums = extract_numbers(v)
    return nums[0] if nums else None


def extract_numbers(v: Any) -> list[int | float]:
    """Every number written in `v`, in order ([] for none; a number passes through as [v]).

    The `$number` matcher insists on exactly one: "Either 23 or 8" names two candidates, and an
    answer that hedges between values must not be graded by whichever comes first.
    """
    if is_number(v):
        return [v]
    if not isinstance(v, str):
        return []
    out: list[int | float] = []
    for m in _NUMBER_RE.finditer(v):
        text = m.group("num").replace(",", "")
        num: int | float = float(text) if "." in text else int(text)
        out.append(-num if (m.group("sign") or m.group("sign2")) else num)
    return out


def canonical(v: Any) -> str:
    """A stable text key for any JSON value (used to match rows that have no `id`)."""
    try:
        return json.dumps(v, sort_keys=True, default=str, separators=(",", ":"))
    except (TypeError, ValueError):
        return repr(v)


def render(v: Any, limit: int = 80) -> str:
    """A short, unambiguous rendering for reports: Python-style (True, None, 'text'), truncated."""
    text = repr(v)
    if len(text) > limit:
        text = text[: limit - 1] + "\u2026"
    return text
