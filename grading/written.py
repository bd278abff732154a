"""The end state of a world rebuilt from its start state and what the app says the episode wrote.

The control API's `state?written=1` sends only the tables written since the reset (`_written` names them; every
other table is as the start state has it), and with `rows=1` only the rows of those tables that differ from the
start (`_rows: {table: {"upsert": [...], "deleted": [id, ...]}}`, apps/_shared/worlds.py). `merge_written` is the
one place that puts a whole end state back together from either, for the gym's grading and for rescoring; it is
proven equal to reading the whole world (tests/apps/test_written.py). Unchanged rows and tables are the start
state's own objects, which the diff (grading/diff.py) passes over by identity.
"""

from __future__ import annotations

from typing import Any

__all__ = ["merge_written", "patch_rows"]


def patch_rows(rows: list[dict[str, Any]], upsert: list[dict[str, Any]], deleted: list[Any]) -> list[dict[str, Any]]:
    """`rows` (ordered by `id`) with the `upsert` rows put in place of, or beside, those of the same id and the
    `deleted` ids taken out: ordered by id, as a whole read of the table is."""
    new = {r["id"]: r for r in upsert}
    gone = set(deleted)
    out = []
    for r in rows:
        i = r.get("id")
        if i in gone:
            continue
        out.append(new.pop(i, r))
    if new:  # rows the start did not have
        out += new.values()
        out.sort(key=lambda r: r["id"])
    return out


def merge_written(start: dict[str, Any] | None, part: dict[str, Any]) -> dict[str, Any]:
    """The whole end state from the `start` state and a `state?written=1[&rows=1]` reply (`part` is not changed).
    A reply that is the whole world (`_written` None or missing), or no start state: the reply as it is."""
    part = dict(part)
    written = part.pop("_written", None)
    changed = part.pop("_rows", None) or {}
    if written is None or start is None:
        return part
    end = {**start, **part}
    for table, d in changed.items():
        end[table] = patch_rows(start.get(table) or [], d.get("upsert") or [], d.get("deleted") or [])
    return end
