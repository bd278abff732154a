"""Value helpers shared by the matchers, the diff and the engine.

State rows are plain JSON, written by apps we do not control from here, so every helper is total:
it answers for any input (odd types, missing keys, NaN) and never raises. The rules that graders
depend on live here in one place: what "equal" means (1 == 1.0 but True != 1), which values can be
ordered (numbers with numbers, strings with strings, so ISO dates compare lexicographically), which
numbers free text states (read by grading.numbers), and how values are shown in failure reports.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any, Final

from .numbers import read_numbers

__all__ = [
    "MISSING",
    "canonical",
    "compare",
    "distinct",
    "distinct_numbers",
    "extract_number",
    "extract_numbers",
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


def extract_number(v: Any) -> int | float | None:
    """The first number written in `v`, or None.

    Agents answer in prose ("The total is $1,234.50.", "two"), so graders compare numbers, not
    strings. Numbers pass through unchanged; booleans and other types have no number.
    """
    nums = extract_numbers(v)
    return nums[0] if nums else None


def extract_numbers(v: Any) -> list[int | float]:
    """Every number written in `v`, in order, in any form (digits, words, Roman numerals, superscripts,
    fractions: `grading.numbers.read_numbers`); [] for none; a number passes through as [v].

    The `$number` matcher insists on exactly one distinct value: "Either 23 or 8" and "2 (or maybe
    three)" name two candidates, and an answer that hedges between values must not be graded by
    whichever comes first; "2 (two)" names one.
    """
    if is_number(v):
        return [v]
    if not isinstance(v, str):
        return []
    return [r.value for r in read_numbers(v)]


def distinct_numbers(v: Any) -> list[int | float]:
    """The distinct values among `extract_numbers(v)`, in order of first mention: "2 (two)" states one
    value, [2]; "2 or 3" states two. What `$number` and `$numbers` grade."""
    return distinct(extract_numbers(v))


def distinct(values: Any) -> list[Any]:
    """`values` without repeats (by ==, so 2 and 2.0 are one), in order of first appearance."""
    out: list[Any] = []
    for n in values:
        if not any(n == m for m in out):
            out.append(n)
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
