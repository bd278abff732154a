"""Row-level diff of two world states.

The diff is what `unchanged_except` audits and what the `created` / `deleted` / `changed` row sets
of a check are made of. Rows are paired by `id` (the apps' integer primary keys); tables without
ids are compared as multisets of whole rows. Volatile fields (bookkeeping the app rewrites on its
own, like `last_seen_at`) are ignored, or every episode would "change" the world.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from .values import canonical, is_number, values_equal

__all__ = ["diff_states", "state_tables", "table_rows", "volatile_fields"]

META = "_meta"


def state_tables(*states: Any) -> list[str]:
    """Table names across states, in first-seen order, without `_meta`."""
    seen: dict[str, None] = {}
    for state in states:
        if isinstance(state, Mapping):
            seen.update((t, None) for t in state if isinstance(t, str) and t != META)
    return list(seen)


def table_rows(state: Any, table: str) -> list[dict[str, Any]]:
    """The rows of `table` in `state`; [] when the table or the state is missing or malformed."""
    rows = state.get(table) if isinstance(state, Mapping) else None
    if not isinstance(rows, list):
        return []
    return [r for r in rows if isinstance(r, dict)]


def volatile_fields(*states: Any) -> dict[str, list[str]]:
    """`_meta.volatile` of the given states, merged ({table: [field, ...]})."""
    out: dict[str, list[str]] = {}
    for state in states:
        meta = state.get(META) if isinstance(state, Mapping) else None
        vol = meta.get("volatile") if isinstance(meta, Mapping) else None
        if not isinstance(vol, Mapping):
            continue
        for table, fields in vol.items():
            if isinstance(fields, list):
                out.setdefault(table, [])
                out[table] += [f for f in fields if isinstance(f, str) and f not in out[table]]
    return out


def diff_states(start: Any, end: Any, volatile: Mapping[str, Iterable[str]] | None = None) -> dict[str, dict]:
    """`{table: {"created": [...], "deleted": [...], "changed": [{"id", "before", "after", "fields"}]}}`.

    Only tables with differences appear. `volatile` defaults to the states' `_meta.volatile`.
    """
    if volatile is None:
        volatile = volatile_fields(start, end)
    out: dict[str, dict] = {}
    for table in state_tables(start, end):
        if isinstance(start, Mapping) and isinstance(end, Mapping) and start.get(table) is end.get(table) \
                and start.get(table) is not None:
            continue  # the very same rows (an end state that reused the start's unwritten tables)
        ignore = set(volatile.get(table, ()) if isinstance(volatile, Mapping) else ())
        d = _diff_table(table_rows(start, table), table_rows(end, table), ignore)
        if d["created"] or d["deleted"] or d["changed"]:
            out[table] = d
    return out


_SCALARS = (str, int, bool, type(None))


def _same(a: Any, b: Any) -> bool:
    """values_equal with a fast path for the common case: identical scalar types."""
    if a is b:
        return True
    t = type(a)
    if t is type(b) and t in _SCALARS:
        return a == b
    return values_equal(a, b)


def changed_fields(before: Mapping[str, Any], after: Mapping[str, Any], ignore: Iterable[str] = ()) -> list[str]:
    """Fields whose values differ (a field present on one side only counts), minus `ignore`."""
    ignore = set(ignore)
    keys = list(before) + [k for k in after if k not in before]
    return [k for k in keys if k not in ignore
            and (k not in before or k not in after or not _same(before[k], after[k]))]


def _content_key(row: Mapping[str, Any], ignore: set[str]) -> Any:
    """A hashable key for a whole row (types kept, so 1 and True differ)."""
    try:
        key = tuple(sorted((k, type(v).__name__, v) for k, v in row.items() if k not in ignore))
        hash(key)
        return key
    except TypeError:  # unhashable values (JSON columns) or unorderable keys
        return canonical({k: v for k, v in row.items() if k not in ignore})


def _id_key(v: Any) -> tuple[str, Any]:
    """Hashable identity of an id value: 3 and 3.0 pair up, 3 and "3" and True do not."""
    if type(v) is int:
        return ("n", v)
    if type(v) is str:
        return ("s", v)
    if is_number(v) and float(v).is_integer():
        return ("n", int(v))
    return ("j", canonical(v))


def _diff_table(before: list[dict], after: list[dict], ignore: set[str]) -> dict[str, list]:
    created: list[dict] = []
    deleted: list[dict] = []
    changed: list[dict] = []

    # Rows with an id are paired by id; duplicates (which a real table cannot have) pair in order.
    b_ids: dict[str, list[dict]] = {}
    a_ids: dict[str, list[dict]] = {}
    b_plain = [r for r in before if "id" not in r]
    a_plain = [r for r in after if "id" not in r]
    for r in before:
        if "id" in r:
            b_ids.setdefault(_id_key(r["id"]), []).append(r)
    for r in after:
        if "id" in r:
            a_ids.setdefault(_id_key(r["id"]), []).append(r)

    for key, a_rows in a_ids.items():
        b_rows = b_ids.get(key, [])
        for b, a in zip(b_rows, a_rows):
            fields = changed_fields(b, a, ignore)
            if fields:
                changed.append({"id": a["id"], "before": b, "after": a, "fields": fields})
        created.extend(a_rows[len(b_rows):])
    for key, b_rows in b_ids.items():
        deleted.extend(b_rows[len(a_ids.get(key, [])):])

    # Rows without an id: a multiset of contents (volatile fields left out).
    b_keys = [_content_key(r, ignore) for r in b_plain]
    a_keys = [_content_key(r, ignore) for r in a_plain]
    for rows, keys, theirs, into in ((a_plain, a_keys, b_keys, created), (b_plain, b_keys, a_keys, deleted)):
        budget = Counter(theirs)
        for r, k in zip(rows, keys):
            if budget[k] > 0:
                budget[k] -= 1
            else:
                into.append(r)
    return {"created": created, "deleted": deleted, "changed": changed}
