"""List-view and report filters -> SQL, sorting, and relative date literals (TODAY, THIS_QUARTER...)."""

from __future__ import annotations

import calendar
import datetime as dt
import re
from typing import Any

from sqlalchemy import and_, case, false, func, not_, or_, select

from apps._shared import inputs
from apps.crm import models as m
from apps.crm.meta import OBJECTS, Field, ObjectMeta
from domain.crm import quarter_bounds

ME = m.CURRENT_USER_ID

OPS = {
    "equals": "equals", "not_equal": "not equal to", "less": "less than", "greater": "greater than",
    "less_equal": "less or equal", "greater_equal": "greater or equal", "contains": "contains",
    "not_contains": "does not contain", "starts_with": "starts with",
}
TEXT_OPS = ["equals", "not_equal", "contains", "not_contains", "starts_with"]
PICK_OPS = ["equals", "not_equal"]
NUM_OPS = ["equals", "not_equal", "less", "greater", "less_equal", "greater_equal"]
DATE_LITERALS = {
    "TODAY": "Today", "YESTERDAY": "Yesterday", "TOMORROW": "Tomorrow", "THIS_WEEK": "This Week",
    "LAST_WEEK": "Last Week", "NEXT_WEEK": "Next Week", "THIS_MONTH": "This Month", "LAST_MONTH": "Last Month",
    "NEXT_MONTH": "Next Month", "THIS_QUARTER": "This Quarter", "LAST_QUARTER": "Last Quarter",
    "NEXT_QUARTER": "Next Quarter", "THIS_YEAR": "This Year", "LAST_YEAR": "Last Year", "NEXT_YEAR": "Next Year",
    "THIS_MONTH_ANY_YEAR": "This Month (any year)",
}


def ops_for(f: Field) -> list[str]:
    if f.type in ("picklist", "checkbox"):
        return PICK_OPS
    if f.type in ("number", "currency", "percent", "date", "datetime"):
        return NUM_OPS
    return TEXT_OPS


def date_range(value: str, today: dt.date) -> tuple[dt.date, dt.date] | None:
    v = value.strip().upper().replace(" ", "_")
    if v == "TODAY":
        return today, today
    if v == "YESTERDAY":
        d = today - dt.timedelta(days=1)
        return d, d
    if v == "TOMORROW":
        d = today + dt.timedelta(days=1)
        return d, d
    if v in ("THIS_WEEK", "LAST_WEEK", "NEXT_WEEK"):
        start = today - dt.timedelta(days=(today.weekday() + 1) % 7)  # weeks start on Sunday
        start += dt.timedelta(days={"THIS_WEEK": 0, "LAST_WEEK": -7, "NEXT_WEEK": 7}[v])
        return start, start + dt.timedelta(days=6)
    if v in ("THIS_MONTH", "LAST_MONTH", "NEXT_MONTH"):
        y, mth = today.year, today.month + {"THIS_MONTH": 0, "LAST_MONTH": -1, "NEXT_MONTH": 1}[v]
        if mth == 0:
            y, mth = y - 1, 12
        if mth == 13:
            y, mth = y + 1, 1
        return dt.date(y, mth, 1), dt.date(y, mth, calendar.monthrange(y, mth)[1])
    if v in ("THIS_QUARTER", "LAST_QUARTER", "NEXT_QUARTER"):
        s, e = quarter_bounds(today)
        if v == "LAST_QUARTER":
            s, e = quarter_bounds(s - dt.timedelta(days=1))
        if v == "NEXT_QUARTER":
            s, e = quarter_bounds(e + dt.timedelta(days=1))
        return s, e
    if v in ("THIS_YEAR", "LAST_YEAR", "NEXT_YEAR"):
        y = today.year + {"THIS_YEAR": 0, "LAST_YEAR": -1, "NEXT_YEAR": 1}[v]
        return dt.date(y, 1, 1), dt.date(y, 12, 31)
    mm = re.fullmatch(r"(LAST|NEXT)_N_DAYS:(\d+)", v)
    if mm:
        n = int(mm.group(2))
        return (today - dt.timedelta(days=n), today) if mm.group(1) == "LAST" else (today, today + dt.timedelta(days=n))
    from apps.crm.records import parse_date

    try:
        d = parse_date(value)
    except ValueError:
        return None
    return d, d


def describe_value(f: Field, value: str) -> str:
    v = str(value)
    if f.type in ("date", "datetime"):
        mm = re.fullmatch(r"(LAST|NEXT)_N_DAYS:(\d+)", v.upper())
        if mm:
            return f"{mm.group(1).title()} {mm.group(2)} Days"
        return DATE_LITERALS.get(v.upper(), v)
    return v.replace(",", ", ")


def describe(o: ObjectMeta, flt: dict) -> str:
    f = o.by_name.get(flt["field"])
    if f is None:
        return ""
    return f"{f.label} {OPS.get(flt['op'], flt['op'])} {describe_value(f, flt['value'])}"


def _lookup_subquery(f: Field, text: str, op: str):
    target = f.ref[0]
    if target == "User":
        name_expr = m.User.first_name + " " + m.User.last_name
        model = m.User
    else:
        model = OBJECTS[target].model
        nf = OBJECTS[target].name_field
        name_expr = (model.first_name + " " + model.last_name) if nf == "name" and target in ("Contact", "Lead") else getattr(model, nf)
    cond = _text_cond(name_expr, text, op if op in ("contains", "not_contains", "starts_with") else "equals")
    return select(model.id).where(cond)


def _text_cond(col, value: str, op: str):
    vals = [x.strip() for x in str(value).split(",") if x.strip()] or [""]
    low = func.lower(col)
    if op in ("equals", "not_equal"):
        cond = or_(*[low == v.lower() for v in vals])
    elif op in ("contains", "not_contains"):
        cond = or_(*[low.like(f"%{v.lower()}%") for v in vals])
    elif op == "starts_with":
        cond = or_(*[low.like(f"{v.lower()}%") for v in vals])
    else:
        cond = or_(*[col < v if op == "less" else col > v if op == "greater" else col <= v if op == "less_equal"
                     else col >= v for v in vals])
    return not_(cond) if op in ("not_equal", "not_contains") else cond


def condition(o: ObjectMeta, flt: dict, today: dt.date):
    f = o.by_name.get(flt.get("field", ""))
    op, value = flt.get("op", "equals"), str(flt.get("value", ""))
    if f is None:
        return false()
    if f.type == "name":
        col = o.model.first_name + " " + o.model.last_name
        return _text_cond(col, value, op)
    if f.type in ("lookup", "user"):
        sub = _lookup_subquery(f, value, op)
        col = getattr(o.model, f.name)
        return not_(col.in_(sub)) if op in ("not_equal", "not_contains") else col.in_(sub)
    col = getattr(o.model, f.name)
    if f.type == "checkbox":
        want = value.strip().lower() in ("true", "1", "yes", "checked")
        return (col == want) if op == "equals" else (col != want)
    if f.type in ("number", "currency", "percent"):
        n = inputs.number(value)
        if n is None:
            return false()
        return {"equals": col == n, "not_equal": col != n, "less": col < n, "greater": col > n,
                "less_equal": col <= n, "greater_equal": col >= n}.get(op, false())
    if f.type in ("date", "datetime"):
        if value.strip().upper() == "THIS_MONTH_ANY_YEAR":
            cond = func.strftime("%m", col) == f"{today.month:02d}"
            return cond if op == "equals" else not_(cond)
        rng = date_range(value, today)
        if rng is None:
            return false()
        s, e = rng
        if f.type == "datetime":
            lo, hi = dt.datetime.combine(s, dt.time.min), dt.datetime.combine(e + dt.timedelta(days=1), dt.time.min)
            within = and_(col >= lo, col < hi)
            return {"equals": within, "not_equal": or_(col.is_(None), not_(within)), "less": col < lo,
                    "greater": col >= hi, "less_equal": col < hi, "greater_equal": col >= lo}.get(op, false())
        within = and_(col >= s, col <= e)
        return {"equals": within, "not_equal": or_(col.is_(None), not_(within)), "less": col < s, "greater": col > e,
                "less_equal": col <= e, "greater_equal": col >= s}.get(op, false())
    return _text_cond(col, value, op)


def scope_condition(o: ObjectMeta, scope: str):
    if scope == "mine":
        return o.model.owner_id == ME
    if scope == "delegated":
        return and_(o.model.created_by_id == ME, o.model.owner_id != ME)
    return None


def sort_expr(o: ObjectMeta, field_name: str):
    f = o.by_name.get(field_name)
    if f is None or not f.sortable:
        return None
    if f.type == "name":
        return func.lower(o.model.first_name + " " + o.model.last_name)
    if f.type in ("lookup", "user"):
        target = f.ref[0]
        col = getattr(o.model, f.name)
        if target == "User":
            return select(func.lower(m.User.first_name + " " + m.User.last_name)).where(m.User.id == col).scalar_subquery()
        tm = OBJECTS[target].model
        nf = OBJECTS[target].name_field
        expr = (tm.first_name + " " + tm.last_name) if nf == "name" and target in ("Contact", "Lead") else getattr(tm, nf)
        return select(func.lower(expr)).where(tm.id == col).scalar_subquery()
    col = getattr(o.model, f.name)
    if f.type == "picklist" and f.options:
        # The picklist's defined order (Field.rank, the one rule), as SQL.
        return case(*[(col == v, f.rank(v)) for v in f.options], (func.coalesce(col, "") == "", f.rank("")),
                    else_=f.rank(object()))  # a value it does not define
    if f.type in ("text", "email", "phone", "url", "picklist", "textarea"):
        return func.lower(col)
    return col


def search_condition(o: ObjectMeta, q: str):
    q = q.strip().lower()
    if not q:
        return None
    terms = []
    for name in o.search_fields:
        terms.append(func.lower(getattr(o.model, name)).like(f"%{q}%"))
    if o.api in ("Contact", "Lead"):
        terms.append(func.lower(o.model.first_name + " " + o.model.last_name).like(f"%{q}%"))
    if o.api in ("Contact", "Opportunity", "Case"):
        terms.append(o.model.account_id.in_(select(m.Account.id).where(func.lower(m.Account.name).like(f"%{q}%"))))
    return or_(*terms)


def parse_filter_param(s: str) -> list[dict[str, Any]]:
    """URL form of ad-hoc report filters: field~op~value joined by '|'."""
    out = []
    for part in (s or "").split("|"):
        bits = part.split("~", 2)
        if len(bits) == 3 and bits[1] in OPS:
            out.append({"field": bits[0], "op": bits[1], "value": bits[2]})
    return out


def filter_param(filters: list[dict[str, Any]]) -> str:
    return "|".join(f"{f['field']}~{f['op']}~{f['value']}" for f in filters)


# ------------------------------------------------------------------ filter logic ("1 AND (2 OR 3)")
class LogicError(ValueError):
    """Filter logic that Salesforce would refuse, with its message."""


_LOGIC_TOKEN = re.compile(r"\s*(?:(\d+)|(AND|OR|NOT)\b|(\()|(\)))", re.IGNORECASE)
MAX_LOGIC = 120  # the column's length (ListView.filter_logic)


def _logic_tokens(text: str) -> list[str]:
    out, pos, text = [], 0, text.rstrip()
    while pos < len(text):
        mt = _LOGIC_TOKEN.match(text, pos)
        if mt is None:
            bad = text[pos:].strip().split()[0] if text[pos:].strip() else text[pos:]
            raise LogicError(f"Check the spelling in your filter logic: {bad[:20]!r} is not a filter number, AND, OR, "
                             "NOT or a parenthesis.")
        out.append((mt.group(1) or mt.group(2) or mt.group(3) or mt.group(4)).upper())
        pos = mt.end()
    return out


def parse_logic(text: str, n: int):
    """Filter logic over filters 1..n as a tree: ("num", i) | ("not", t) | ("and", [t...]) | ("or", [t...]).
    Salesforce's rules: AND / OR / NOT (any case), parentheses, every filter number 1..n used (and no other), and
    AND mixed with OR only inside parentheses ("1 AND 2 OR 3" is refused). Raises LogicError with the message."""
    if not isinstance(text, str) or not text.strip():
        raise LogicError("Enter filter logic, or remove it.")
    if len(text) > MAX_LOGIC:
        raise LogicError(f"Filter logic can have at most {MAX_LOGIC} characters.")
    toks = _logic_tokens(text)
    pos = 0

    def peek():
        return toks[pos] if pos < len(toks) else None

    def take():
        nonlocal pos
        pos += 1
        return toks[pos - 1]

    def term(depth: int):
        t = peek()
        if t is None:
            raise LogicError("Your filter logic is incomplete: it ends where a filter number is expected.")
        if depth > 30:
            raise LogicError("Your filter logic is nested too deeply.")
        if t == "NOT":
            take()
            return ("not", term(depth + 1))
        if t == "(":
            take()
            inner = expr(depth + 1)
            if peek() != ")":
                raise LogicError("Your filter logic has a parenthesis that isn't closed.")
            take()
            return inner
        if t.isdigit():
            take()
            i = int(t)
            if not 1 <= i <= n:
                raise LogicError(f"The filter logic references filter {t}, which isn't defined (there "
                                 f"{'is' if n == 1 else 'are'} {n} filter{'' if n == 1 else 's'}).")
            return ("num", i)
        raise LogicError(f"Check the spelling in your filter logic: {t!r} where a filter number is expected.")

    def expr(depth: int):
        items = [term(depth)]
        op = None
        while peek() in ("AND", "OR"):
            nxt = take()
            if op is not None and nxt != op:
                raise LogicError("Your filter logic mixes AND and OR: add parentheses, e.g. 1 AND (2 OR 3).")
            op = nxt
            items.append(term(depth))
        return items[0] if op is None else (op.lower(), items)

    tree = expr(0)
    if pos != len(toks):
        raise LogicError(f"Check the spelling in your filter logic: {toks[pos]!r} is not expected there.")
    used = logic_numbers(tree)
    missing = [i for i in range(1, n + 1) if i not in used]
    if missing:
        raise LogicError("Some filter conditions are defined but not referenced in your filter logic: "
                         + ", ".join(map(str, missing)) + ".")
    return tree


def logic_numbers(tree) -> set[int]:
    kind, arg = tree
    if kind == "num":
        return {arg}
    if kind == "not":
        return logic_numbers(arg)
    return set().union(*(logic_numbers(t) for t in arg))


def logic_text(tree, top: bool = True) -> str:
    """The tree as Salesforce writes it back: upper-case operators, single spaces, parentheses where needed."""
    kind, arg = tree
    if kind == "num":
        return str(arg)
    if kind == "not":
        inner = logic_text(arg, top=False)
        return f"NOT {inner}"
    s = f" {kind.upper()} ".join(logic_text(t, top=False) for t in arg)
    return s if top else f"({s})"


def logic_condition(tree, conds: list):
    """The tree over the filters' SQL conditions (conds[0] is filter 1). Each filter is true or false for a row,
    as in Salesforce: a blank field does not match "Lead Source equals Web", so NOT of it matches. SQL's own
    comparison with a NULL is unknown, and NOT unknown is unknown (the row would drop out of both a filter and its
    NOT), so each filter's unknown counts as false here."""
    kind, arg = tree
    if kind == "num":
        return func.coalesce(conds[arg - 1], false())
    if kind == "not":
        return not_(logic_condition(arg, conds))
    parts = [logic_condition(t, conds) for t in arg]
    return and_(*parts) if kind == "and" else or_(*parts)


def logic_eval(tree, truth: list[bool]) -> bool:
    """The tree over the filters' truth values (for a row): what logic_condition asks of the database."""
    kind, arg = tree
    if kind == "num":
        return truth[arg - 1]
    if kind == "not":
        return not logic_eval(arg, truth)
    vals = [logic_eval(t, truth) for t in arg]
    return all(vals) if kind == "and" else any(vals)
