"""Matchers and where clauses: the small query language graders are written in.

A *matcher* tests one value. A non-dict (or a dict without `$` keys) means equality; a dict of
`$operators` means all of those tests. A *where clause* tests a row: `{field: matcher, ...}` ANDed,
plus `$or` / `$and` / `$not` over nested clauses; fields may be dotted paths into JSON values.

Every operator is declared once in `_OPS` with three functions: its test, its validation (run when a
task is loaded, so a typo fails the task file, not the episode) and its description (so a failing
check can say "expected containing 'ana@example.com', got 'bob@example.com'"). Tests never raise
on odd data: values of the wrong type simply do not match.

A missing field matches only absence tests: plain `null`, `{"$eq": null}`, `{"$exists": false}`
(and, by logic, a `$not` around a test that fails). Everything else, `$ne` and `$nin` included, is
false for a missing field, so a typo in a field name never makes a check pass.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from .refusal import refusal_problem, validate_forms
from .values import MISSING, compare, distinct, distinct_numbers, get_path, is_number, render, values_equal

__all__ = [
    "strict_end",
    "OPERATORS",
    "MatcherError",
    "ROW_SETS",
    "RefResolver",
    "describe",
    "explain",
    "explain_where",
    "is_ref",
    "match",
    "match_where",
    "validate_matcher",
    "validate_where",
    "where_score",
]

ROW_SETS = ("end", "start", "created", "deleted", "changed")
"""The row sets a check or a `$ref` can select from (see the engine)."""

WHERE_OPS = ("$or", "$and", "$not")


class RefResolver(Protocol):
    """Resolves `{"$ref": {...}}` to the list of referenced values (the engine's StateView)."""

    def resolve_ref(self, ref: Mapping[str, Any]) -> list[Any]: ...


class MatcherError(ValueError):
    """A matcher or where clause that is not well formed."""


# ----------------------------------------------------------------------------- operator table

Test = Callable[[Any, Any, Mapping[str, Any], "RefResolver | None"], bool]


@dataclass(frozen=True)
class _Op:
    test: Test
    validate: Callable[[Any, Mapping[str, Any], str], None]
    describe: Callable[[Any, Mapping[str, Any]], str]
    sees_missing: bool = False  # else a missing value fails without calling `test`
    explain: Callable[[Any, Any, Mapping[str, Any], RefResolver | None], str] | None = None


# Keys that only qualify a sibling operator.
_MODIFIERS = {"$options": "$regex", "$tol": "$approx"}


def is_ref(v: Any) -> bool:
    """True for `{"$ref": {...}}`: a reference to values elsewhere in the state."""
    return isinstance(v, Mapping) and len(v) == 1 and "$ref" in v


def _resolve(ref: Any, refs: RefResolver | None) -> list[Any] | None:
    if refs is None:
        return None
    try:
        return list(refs.resolve_ref(ref))
    except Exception:
        return None


def _ref_values(arg: Any, refs: RefResolver | None) -> list[Any] | None:
    """The list an `$in`-like argument stands for: the list itself or a resolved `$ref`."""
    if is_ref(arg):
        return _resolve(arg["$ref"], refs)
    return arg if isinstance(arg, list) else None


def _describe_ref(ref: Mapping[str, Any]) -> str:
    where = ref.get("where")
    text = f"{ref.get('table')}.{ref.get('field')}"
    if ref.get("in", "end") != "end":
        text = f"{ref['in']} {text}"
    return f"{text} where {_json(where)}" if where else text


def _json(v: Any) -> str:
    try:
        return json.dumps(v, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return repr(v)


# --- tests


def _t_eq(v: Any, arg: Any, m: Mapping[str, Any], refs: RefResolver | None) -> bool:
    if is_ref(arg):
        vals = _resolve(arg["$ref"], refs)
        return vals is not None and len(vals) == 1 and values_equal(v, vals[0])
    if arg is None:
        return v is None or v is MISSING
    return values_equal(v, arg)


def _t_in(v: Any, arg: Any, m: Mapping[str, Any], refs: RefResolver | None) -> bool:
    vals = _ref_values(arg, refs)
    return vals is not None and any(values_equal(v, x) for x in vals)


def _t_nin(v: Any, arg: Any, m: Mapping[str, Any], refs: RefResolver | None) -> bool:
    vals = _ref_values(arg, refs)
    return vals is not None and not any(values_equal(v, x) for x in vals)


def _t_cmp(pred: Callable[[int], bool]) -> Test:
    def test(v: Any, arg: Any, m: Mapping[str, Any], refs: RefResolver | None) -> bool:
        c = compare(v, arg)
        return c is not None and pred(c)

    return test


def _t_contains(v: Any, arg: Any, m: Mapping[str, Any], refs: RefResolver | None) -> bool:
    if isinstance(v, str):
        return isinstance(arg, str) and arg in v
    if isinstance(v, list):
        return any(values_equal(x, arg) for x in v)
    if isinstance(v, Mapping):
        return isinstance(arg, str) and arg in v
    return False


def _fold(s: str) -> str:
    return " ".join(s.split()).casefold()


def _t_icontains(v: Any, arg: Any, m: Mapping[str, Any], refs: RefResolver | None) -> bool:
    needle = arg.casefold()
    if isinstance(v, str):
        return needle in v.casefold()
    if isinstance(v, list):
        return any(isinstance(x, str) and needle in x.casefold() for x in v)
    return False


def _regex_flags(m: Mapping[str, Any]) -> int:
    flags = 0
    for ch in m.get("$options", ""):
        flags |= {"i": re.IGNORECASE, "m": re.MULTILINE, "s": re.DOTALL, "x": re.VERBOSE}[ch]
    return flags


def strict_end(pattern: str) -> str:
    """The pattern with each `$` that ends it (outside a class, unescaped) written as `\\Z`.

    Python's `$` also matches before a final newline, so `^X$` would accept "X\\n": a value that is not X.
    In a grader `$` means the end of the value (with the m option, the end of a line, as written)."""
    out, i, in_class = [], 0, False
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and i + 1 < len(pattern):
            out.append(pattern[i:i + 2])
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
            lead = "[^" if pattern[i + 1:i + 2] == "^" else "["
            if pattern[i + len(lead):i + len(lead) + 1] == "]":  # `[]...]`, `[^]...]`: a leading ] is a member
                out.append(lead + "]")
                i += len(lead) + 1
                continue
        elif ch == "$":
            ch = r"\Z"
        out.append(ch)
        i += 1
    return "".join(out)


def _t_regex(v: Any, arg: Any, m: Mapping[str, Any], refs: RefResolver | None) -> bool:
    flags = _regex_flags(m)
    pattern = arg if flags & re.MULTILINE else strict_end(arg)
    return isinstance(v, str) and re.search(pattern, v, flags) is not None


def _t_startswith(v: Any, arg: Any, m: Mapping[str, Any], refs: RefResolver | None) -> bool:
    return isinstance(v, str) and v.startswith(arg)


def _t_istartswith(v: Any, arg: Any, m: Mapping[str, Any], refs: RefResolver | None) -> bool:
    return isinstance(v, str) and v.casefold().startswith(arg.casefold())


def _t_ieq(v: Any, arg: Any, m: Mapping[str, Any], refs: RefResolver | None) -> bool:
    return isinstance(v, str) and _fold(v) == _fold(arg)


def _t_len(v: Any, arg: Any, m: Mapping[str, Any], refs: RefResolver | None) -> bool:
    return isinstance(v, (str, list, Mapping)) and match(len(v), arg, refs)


def _t_any(v: Any, arg: Any, m: Mapping[str, Any], refs: RefResolver | None) -> bool:
    return isinstance(v, list) and any(match(x, arg, refs) for x in v)


def _t_all(v: Any, arg: Any, m: Mapping[str, Any], refs: RefResolver | None) -> bool:
    return isinstance(v, list) and all(match(x, arg, refs) for x in v)


def _t_approx(v: Any, arg: Any, m: Mapping[str, Any], refs: RefResolver | None) -> bool:
    return is_number(v) and abs(v - arg) <= m.get("$tol", 1e-6)


def _t_number(v: Any, arg: Any, m: Mapping[str, Any], refs: RefResolver | None) -> bool:
    # Exactly one value, in whatever form it is written: an answer naming two ("Either 23 or 8",
    # "$524,000, $612,000", "2 (or maybe three)") is a hedge; "2 (two)" names one.
    nums = distinct_numbers(v)
    return len(nums) == 1 and match(nums[0], arg, refs)


_NUMBERS_TOL = 0.005  # half a cent: amounts are written to the cent


def _t_numbers(v: Any, arg: Any, m: Mapping[str, Any], refs: RefResolver | None) -> bool:
    # The distinct values written equal the distinct expected ones (in any order): no extra, none missing.
    got = sorted(distinct_numbers(v))
    want = sorted(distinct(arg))
    return len(got) == len(want) and all(abs(a - b) <= _NUMBERS_TOL for a, b in zip(got, want))


_PHONE_CHARS = re.compile(r"[\s().+\-\u2010-\u2015]")


def phone_digits(text: str) -> str | None:
    """The digits of a phone number written with its usual punctuation, or None for anything else.

    Anchored: "(509) 555-8054" -> "5095558054"; "509-555-8054 or 509-555-1215" -> None (two numbers
    run together are not a phone number), "call 5095558054" -> None (words are not formatting).
    """
    if not isinstance(text, str):
        return None
    digits = _PHONE_CHARS.sub("", text)
    return digits if digits.isdigit() else None


def _t_phone(v: Any, arg: Any, m: Mapping[str, Any], refs: RefResolver | None) -> bool:
    got, want = phone_digits(v), phone_digits(arg)
    if got is None or want is None:
        return False
    return got == want or (got.startswith("1") and got[1:] == want)  # a +1 country code is the same number


_LIST_SPLIT = re.compile(r"\s*(?:[,;\n]|\band\b|&)\s*", re.IGNORECASE)


def split_list(text: str) -> list[str]:
    """The items of a list written as text: commas, semicolons, new lines, 'and', '&'; folded."""
    return [_fold(x) for x in _LIST_SPLIT.split(text) if x and x.strip(" .")]


def _t_set(v: Any, arg: Any, m: Mapping[str, Any], refs: RefResolver | None) -> bool:
    # Set equality of the listed items (case and spacing ignored): every one named, nothing else.
    if isinstance(v, list):
        got = {_fold(x) for x in v if isinstance(x, str)} if all(isinstance(x, str) for x in v) else None
    elif isinstance(v, str):
        got = {x.strip(" .") for x in split_list(v)}
    else:
        got = None
    return got is not None and got == {_fold(x).strip(" .") for x in arg}


def _t_excludes(v: Any, arg: Any, m: Mapping[str, Any], refs: RefResolver | None) -> bool:
    # None of the world's competing facts is written (case-insensitive): a dump of candidates fails.
    if isinstance(v, list):
        v = "\n".join(x for x in v if isinstance(x, str))
    if not isinstance(v, str):
        return False
    text = _fold(v)
    return not any(_mentions(text, x) for x in arg)


def _t_refusal(v: Any, arg: Any, m: Mapping[str, Any], refs: RefResolver | None) -> bool:
    # The answer is a refusal in one of the declared forms (grading/refusal.py: the one place of the rule).
    return refusal_problem(v, arg) is None


def _mentions(folded_text: str, needle: str) -> bool:
    # Whole words only: excluding "March 1" must not reject a text that says "March 14".
    return re.search(r"(?<!\w)" + re.escape(_fold(needle)) + r"(?!\w)", folded_text) is not None


# --- validation


def _v_any(arg: Any, m: Mapping[str, Any], path: str) -> None:
    return None


def _v_eq(arg: Any, m: Mapping[str, Any], path: str) -> None:
    if is_ref(arg):
        _validate_ref(arg["$ref"], f"{path}.$ref")


def _v_ne(arg: Any, m: Mapping[str, Any], path: str) -> None:
    if is_ref(arg):
        raise MatcherError(f"{path}: $ne does not take a $ref; use {{\"$nin\": {{\"$ref\": ...}}}}")


def _v_list_or_ref(arg: Any, m: Mapping[str, Any], path: str) -> None:
    if is_ref(arg):
        _validate_ref(arg["$ref"], f"{path}.$ref")
    elif not isinstance(arg, list):
        raise MatcherError(f"{path}: expects a list of values or a {{\"$ref\": ...}}, got {render(arg)}")


def _v_orderable(arg: Any, m: Mapping[str, Any], path: str) -> None:
    if not (is_number(arg) or isinstance(arg, str)):
        raise MatcherError(f"{path}: expects a number or a string (e.g. an ISO date), got {render(arg)}")


def _v_bool(arg: Any, m: Mapping[str, Any], path: str) -> None:
    if not isinstance(arg, bool):
        raise MatcherError(f"{path}: expects true or false, got {render(arg)}")


def _v_str(arg: Any, m: Mapping[str, Any], path: str) -> None:
    if not isinstance(arg, str):
        raise MatcherError(f"{path}: expects a string, got {render(arg)}")


def _v_regex(arg: Any, m: Mapping[str, Any], path: str) -> None:
    _v_str(arg, m, path)
    opts = m.get("$options", "")
    if not isinstance(opts, str) or set(opts) - set("imsx"):
        raise MatcherError(f"{path}: $options must be a string of the flags i, m, s, x, got {render(opts)}")
    try:
        re.compile(arg, _regex_flags(m))
    except re.error as e:
        raise MatcherError(f"{path}: invalid regular expression {arg!r}: {e}") from None


def _v_nested(arg: Any, m: Mapping[str, Any], path: str) -> None:
    validate_matcher(arg, path)


def _v_approx(arg: Any, m: Mapping[str, Any], path: str) -> None:
    if not is_number(arg):
        raise MatcherError(f"{path}: expects a number, got {render(arg)}")
    tol = m.get("$tol", 1e-6)
    if not is_number(tol) or tol < 0:
        raise MatcherError(f"{path}: $tol must be a non-negative number, got {render(tol)}")


def _v_ref(arg: Any, m: Mapping[str, Any], path: str) -> None:
    _validate_ref(arg, path)


def _v_numbers(arg: Any, m: Mapping[str, Any], path: str) -> None:
    if not isinstance(arg, list) or not arg or not all(is_number(x) for x in arg):
        raise MatcherError(f"{path}: expects a non-empty list of numbers, got {render(arg)}")


def _v_strings(arg: Any, m: Mapping[str, Any], path: str) -> None:
    if not isinstance(arg, list) or not arg or not all(isinstance(x, str) and x.strip() for x in arg):
        raise MatcherError(f"{path}: expects a non-empty list of non-empty strings, got {render(arg)}")


def _v_phone(arg: Any, m: Mapping[str, Any], path: str) -> None:
    if phone_digits(arg) is None or len(phone_digits(arg)) < 7:
        raise MatcherError(f"{path}: expects a phone number (digits and punctuation), got {render(arg)}")


def _v_refusal(arg: Any, m: Mapping[str, Any], path: str) -> None:
    try:
        validate_forms(arg)
    except ValueError as e:
        raise MatcherError(f"{path}: {e}") from None


def _validate_ref(ref: Any, path: str) -> None:
    if not isinstance(ref, Mapping):
        raise MatcherError(f"{path}: a $ref is {{\"table\": ..., \"field\": ..., \"where\"?: ..., \"in\"?: ...}}, "
                           f"got {render(ref)}")
    extra = set(ref) - {"table", "field", "where", "in"}
    if extra:
        raise MatcherError(f"{path}: unknown $ref key(s) {sorted(extra)}; allowed: table, field, where, in")
    for key in ("table", "field"):
        if not isinstance(ref.get(key), str) or not ref.get(key):
            raise MatcherError(f"{path}: $ref needs a non-empty string {key!r}")
    if ref.get("in", "end") not in ROW_SETS:
        raise MatcherError(f"{path}: $ref 'in' must be one of {', '.join(ROW_SETS)}, got {render(ref.get('in'))}")
    if ref.get("where") is not None:
        validate_where(ref["where"], f"{path}.where")


# --- descriptions (phrases that follow "expected ...")


def _d(fmt: str) -> Callable[[Any, Mapping[str, Any]], str]:
    return lambda arg, m: fmt.format(arg=render(arg))


def _d_eq(arg: Any, m: Mapping[str, Any]) -> str:
    return f"== the single value of {_describe_ref(arg['$ref'])}" if is_ref(arg) else render(arg)


def _d_in(neg: bool) -> Callable[[Any, Mapping[str, Any]], str]:
    def d(arg: Any, m: Mapping[str, Any]) -> str:
        what = _describe_ref(arg["$ref"]) if is_ref(arg) else render(arg)
        return f"{'none' if neg else 'one'} of {what}"

    return d


def _d_regex(arg: Any, m: Mapping[str, Any]) -> str:
    return f"matching /{arg}/{m.get('$options', '')}"


def _d_nested(prefix: str) -> Callable[[Any, Mapping[str, Any]], str]:
    return lambda arg, m: f"{prefix}{describe(arg)}"


def _d_approx(arg: Any, m: Mapping[str, Any]) -> str:
    return f"~= {render(arg)} (\u00b1{m.get('$tol', 1e-6)})"


# --- explanations for operators whose failure needs more than "got <value>"


def _e_number(v: Any, arg: Any, m: Mapping[str, Any], refs: RefResolver | None) -> str:
    nums = distinct_numbers(v)
    if not nums:
        return f"expected a number {describe(arg)}, but found no number in {render(v)}"
    if len(nums) > 1:
        return f"expected one number {describe(arg)}, but {render(v)} names {len(nums)} values: {render(nums)}"
    return f"expected a number {describe(arg)}, got {render(nums[0])} (read from {render(v)})"


def _e_numbers(v: Any, arg: Any, m: Mapping[str, Any], refs: RefResolver | None) -> str:
    return f"expected exactly the numbers {render(sorted(arg))}, got {render(sorted(distinct_numbers(v)))}"


def _e_excludes(v: Any, arg: Any, m: Mapping[str, Any], refs: RefResolver | None) -> str:
    text = _fold("\n".join(x for x in v if isinstance(x, str)) if isinstance(v, list) else str(v))
    found = [x for x in arg if _mentions(text, x)]
    return f"expected none of the competing values, but found {render(found[:5])}"


def _e_refusal(v: Any, arg: Any, m: Mapping[str, Any], refs: RefResolver | None) -> str:
    return f"expected a refusal (form {render(arg)}), but the answer: {refusal_problem(v, arg)}: {render(v)}"


def _e_len(v: Any, arg: Any, m: Mapping[str, Any], refs: RefResolver | None) -> str:
    if not isinstance(v, (str, list, Mapping)):
        return f"expected a string or list with length {describe(arg)}, got {render(v)}"
    return f"expected length {describe(arg)}, got length {len(v)} ({render(v)})"


def _e_all(v: Any, arg: Any, m: Mapping[str, Any], refs: RefResolver | None) -> str:
    if not isinstance(v, list):
        return f"expected a list, got {render(v)}"
    for i, x in enumerate(v):
        why = explain(x, arg, refs)
        if why is not None:
            return f"expected every element {describe(arg)}, but element {i} {why}"
    return f"expected every element {describe(arg)}, got {render(v)}"


def _e_in(neg: bool) -> Callable[[Any, Any, Mapping[str, Any], RefResolver | None], str]:
    def e(v: Any, arg: Any, m: Mapping[str, Any], refs: RefResolver | None) -> str:
        desc = _d_in(neg)(arg, m)
        if is_ref(arg):
            vals = _resolve(arg["$ref"], refs)
            if vals is None:
                return f"expected {desc}, but the $ref could not be resolved"
            desc += f" (resolved to {render(vals)})"
        return f"expected {desc}, got {render(v)}"

    return e


def _e_eq(v: Any, arg: Any, m: Mapping[str, Any], refs: RefResolver | None) -> str:
    if not is_ref(arg):
        return f"expected {render(arg)}, got {render(v)}"
    vals = _resolve(arg["$ref"], refs)
    if vals is None:
        return f"expected {_d_eq(arg, m)}, but the $ref could not be resolved"
    if len(vals) != 1:
        return f"expected {_d_eq(arg, m)}, but it resolved to {len(vals)} values {render(vals)}"
    return f"expected {render(vals[0])} (from {_describe_ref(arg['$ref'])}), got {render(v)}"


_OPS: dict[str, _Op] = {
    "$eq": _Op(_t_eq, _v_eq, _d_eq, sees_missing=True, explain=_e_eq),
    "$ne": _Op(lambda v, a, m, r: not _t_eq(v, a, m, r), _v_ne, _d("!= {arg}")),
    "$in": _Op(_t_in, _v_list_or_ref, _d_in(False), explain=_e_in(False)),
    "$nin": _Op(_t_nin, _v_list_or_ref, _d_in(True), explain=_e_in(True)),
    "$gt": _Op(_t_cmp(lambda c: c > 0), _v_orderable, _d("> {arg}")),
    "$gte": _Op(_t_cmp(lambda c: c >= 0), _v_orderable, _d(">= {arg}")),
    "$lt": _Op(_t_cmp(lambda c: c < 0), _v_orderable, _d("< {arg}")),
    "$lte": _Op(_t_cmp(lambda c: c <= 0), _v_orderable, _d("<= {arg}")),
    "$exists": _Op(lambda v, a, m, r: (v is not MISSING) == a, _v_bool,
                   lambda a, m: "present" if a else "absent", sees_missing=True),
    "$contains": _Op(_t_contains, _v_any, _d("containing {arg}")),
    "$icontains": _Op(_t_icontains, _v_str, _d("containing {arg} (case-insensitive)")),
    "$regex": _Op(_t_regex, _v_regex, _d_regex),
    "$startswith": _Op(_t_startswith, _v_str, _d("starting with {arg}")),
    "$istartswith": _Op(_t_istartswith, _v_str, _d("starting with {arg} (case-insensitive)")),
    "$ieq": _Op(_t_ieq, _v_str, _d("{arg} (ignoring case and spacing)")),
    "$len": _Op(_t_len, _v_nested, _d_nested("length "), explain=_e_len),
    "$any": _Op(_t_any, _v_nested, _d_nested("some element ")),
    "$all": _Op(_t_all, _v_nested, _d_nested("every element "), explain=_e_all),
    "$not": _Op(lambda v, a, m, r: not match(v, a, r), _v_nested, _d_nested("not "), sees_missing=True),
    "$approx": _Op(_t_approx, _v_approx, _d_approx),
    "$number": _Op(_t_number, _v_nested, _d_nested("a number "), explain=_e_number),
    "$numbers": _Op(_t_numbers, _v_numbers, _d("exactly the numbers {arg} (any order)"), explain=_e_numbers),
    "$phone": _Op(_t_phone, _v_phone, _d("the phone number {arg} (and nothing else)")),
    "$set": _Op(_t_set, _v_strings, _d("exactly the items {arg} (any order, ignoring case)")),
    "$excludes": _Op(_t_excludes, _v_strings, _d("none of {arg} (case-insensitive)"), explain=_e_excludes),
    "$refusal": _Op(_t_refusal, _v_refusal, _d("a refusal in the form {arg} (grading/refusal.py)"),
                    explain=_e_refusal),
    "$ref": _Op(lambda v, a, m, r: _t_in(v, {"$ref": a}, m, r), _v_ref,
                lambda a, m: f"one of {_describe_ref(a)}",
                explain=lambda v, a, m, r: _e_in(False)(v, {"$ref": a}, m, r)),
}

OPERATORS: tuple[str, ...] = tuple(_OPS) + tuple(_MODIFIERS)
"""Every `$key` a matcher may use (operators and the `$options` / `$tol` modifiers)."""


# ----------------------------------------------------------------------------- matching


def _is_op_dict(m: Any) -> bool:
    return isinstance(m, Mapping) and bool(m) and all(isinstance(k, str) and k.startswith("$") for k in m)


def _op(key: str) -> _Op:
    try:
        return _OPS[key]
    except KeyError:
        raise MatcherError(_unknown_op_message(key, "")) from None


def _test_op(key: str, v: Any, m: Mapping[str, Any], refs: RefResolver | None) -> bool:
    op = _op(key)
    if v is MISSING and not op.sees_missing:
        return False
    return op.test(v, m[key], m, refs)


def match(value: Any, matcher: Any, refs: RefResolver | None = None) -> bool:
    """Does `value` satisfy `matcher`? `refs` resolves `$ref`s (without it a `$ref` never matches).

    Raises MatcherError only for a malformed matcher (unknown operator); validated specs never do.
    """
    if _is_op_dict(matcher):
        return all(_test_op(k, value, matcher, refs) for k in matcher if k not in _MODIFIERS)
    if matcher is None:
        return value is None or value is MISSING
    return values_equal(value, matcher)


def describe(matcher: Any) -> str:
    """The matcher as a phrase that reads after "expected": `containing 'x' and != 3`."""
    if not _is_op_dict(matcher):
        return render(matcher)
    parts = [_OPS[k].describe(arg, matcher) if k in _OPS else f"{k} {render(arg)}"
             for k, arg in matcher.items() if k not in _MODIFIERS]
    return " and ".join(parts)


def explain(value: Any, matcher: Any, refs: RefResolver | None = None) -> str | None:
    """None when `value` matches, else why not, as "expected ..., got ...".

    Only the failing operators of a compound matcher are mentioned.
    """
    if match(value, matcher, refs):
        return None
    if not _is_op_dict(matcher):
        return f"expected {render(matcher)}, got {render(value)}"
    generic: list[str] = []
    special: list[str] = []
    for key, arg in matcher.items():
        if key in _MODIFIERS or _test_op(key, value, matcher, refs):
            continue
        op = _OPS[key]
        if op.explain is not None and value is not MISSING:
            special.append(op.explain(value, arg, matcher, refs))
        else:
            generic.append(op.describe(arg, matcher))
    if generic:
        special.insert(0, f"expected {' and '.join(generic)}, got {render(value)}")
    return "; ".join(special)


# ----------------------------------------------------------------------------- where clauses


def match_where(row: Any, where: Mapping[str, Any] | None, refs: RefResolver | None = None) -> bool:
    """Does `row` satisfy every condition of `where` (None or {} selects everything)?"""
    if not where:
        return True
    for key, cond in where.items():
        if key == "$or":
            if not any(match_where(row, w, refs) for w in cond):
                return False
        elif key == "$and":
            if not all(match_where(row, w, refs) for w in cond):
                return False
        elif key == "$not":
            if match_where(row, cond, refs):
                return False
        elif not match(get_path(row, key), cond, refs):
            return False
    return True


def explain_where(row: Any, where: Mapping[str, Any] | None,
                  refs: RefResolver | None = None) -> list[tuple[str, str]]:
    """The failing conditions of `where` for `row`, as (field, reason) pairs; [] when it matches."""
    out: list[tuple[str, str]] = []
    for key, cond in (where or {}).items():
        if key == "$or":
            if not any(match_where(row, w, refs) for w in cond):
                alts = [", ".join(f"{f!r} {r}" for f, r in explain_where(row, w, refs)) for w in cond]
                out.append(("$or", "no alternative matched: " + " | ".join(alts)))
        elif key == "$and":
            for w in cond:
                out.extend(explain_where(row, w, refs))
        elif key == "$not":
            if match_where(row, cond, refs):
                out.append(("$not", f"expected the row not to match {_json(cond)}, but it does"))
        else:
            why = explain(get_path(row, key), cond, refs)
            if why is not None:
                out.append((key, why))
    return out


def where_score(row: Any, where: Mapping[str, Any] | None, refs: RefResolver | None = None) -> int:
    """How many top-level conditions of `where` the row meets (to find the closest near miss)."""
    return sum(match_where(row, {k: c}, refs) for k, c in (where or {}).items())


# ----------------------------------------------------------------------------- validation


def _unknown_op_message(key: str, path: str) -> str:
    known = list(_OPS) + list(_MODIFIERS)
    close = difflib.get_close_matches(key, known, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    where = f"{path}: " if path else ""
    return f"{where}unknown matcher operator {key!r}{hint}; known operators: {', '.join(known)}"


def validate_matcher(matcher: Any, path: str = "matcher") -> None:
    """Raise MatcherError (a ValueError) naming the operator and path if `matcher` is malformed."""
    if not isinstance(matcher, Mapping):
        return
    keys = [k for k in matcher if isinstance(k, str) and k.startswith("$")]
    if not keys:
        return  # a literal dict, compared for equality
    if len(keys) != len(matcher):
        plain = [k for k in matcher if k not in keys]
        raise MatcherError(f"{path}: matcher mixes operators {keys} with plain keys {plain}; "
                           f"to compare a dict literally use {{\"$eq\": {{...}}}}")
    for key in keys:
        if key in _MODIFIERS:
            if _MODIFIERS[key] not in matcher:
                raise MatcherError(f"{path}: {key} only goes with {_MODIFIERS[key]}")
            continue
        if key not in _OPS:
            raise MatcherError(_unknown_op_message(key, path))
        _OPS[key].validate(matcher[key], matcher, f"{path}.{key}")


def validate_where(where: Any, path: str = "where") -> None:
    """Raise MatcherError if `where` is not a where clause (a dict of field -> matcher)."""
    if not isinstance(where, Mapping):
        raise MatcherError(f"{path}: a where clause is a dict of field -> matcher, got {render(where)}")
    for key, cond in where.items():
        if not isinstance(key, str) or not key:
            raise MatcherError(f"{path}: field names must be non-empty strings, got {render(key)}")
        if key in ("$or", "$and"):
            if not isinstance(cond, list) or not cond:
                raise MatcherError(f"{path}.{key}: expects a non-empty list of where clauses")
            for i, w in enumerate(cond):
                validate_where(w, f"{path}.{key}[{i}]")
        elif key == "$not":
            validate_where(cond, f"{path}.$not")
        elif key.startswith("$"):
            close = difflib.get_close_matches(key, WHERE_OPS, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise MatcherError(f"{path}: unknown where operator {key!r}{hint}; a where clause takes field names "
                               f"and $or, $and, $not (matcher operators go inside a field's matcher)")
        else:
            validate_matcher(cond, f"{path}.{key}")
