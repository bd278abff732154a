"""One episode's evidence, seen as row sets: start, end, and the diff between them.

Checks and `$ref`s select from the same five sets, computed once per `verify` call:
`end` and `start` (the states' rows), `created` and `deleted` (whole rows from the diff) and
`changed` (end rows that differ, each with its start row under `_before`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .diff import diff_states, state_tables, table_rows, volatile_fields
from .matchers import match_where
from .values import MISSING, get_path

__all__ = ["StateView"]


class StateView:
    """Row sets over (start, end) and the `$ref` resolver the matchers use."""

    def __init__(self, start: Any, end: Any, volatile: Mapping[str, list[str]] | None = None) -> None:
        self.start: dict = start if isinstance(start, dict) else {}
        self.end: dict = end if isinstance(end, dict) else {}
        self.volatile = volatile if volatile is not None else volatile_fields(self.start, self.end)
        self._diff: dict[str, dict] | None = None
        self._rows: dict[tuple[str, str], list[dict]] = {}
        self._refs: dict[str, list[Any]] = {}

    @property
    def diff(self) -> dict[str, dict]:
        """`diff_states(start, end)`, computed on first use (many specs never need it)."""
        if self._diff is None:
            self._diff = diff_states(self.start, self.end, self.volatile)
        return self._diff

    def tables(self) -> list[str]:
        return state_tables(self.start, self.end)

    def has_table(self, table: str) -> bool:
        return table != "_meta" and (table in self.start or table in self.end)

    def rows(self, table: str, which: str = "end") -> list[dict[str, Any]]:
        """The rows of `table` in row set `which` (end, start, created, deleted, changed)."""
        key = (table, which)
        if key not in self._rows:
            self._rows[key] = self._compute_rows(table, which)
        return self._rows[key]

    def _compute_rows(self, table: str, which: str) -> list[dict[str, Any]]:
        if which == "end":
            return table_rows(self.end, table)
        if which == "start":
            return table_rows(self.start, table)
        d = self.diff.get(table, {})
        if which in ("created", "deleted"):
            return list(d.get(which, []))
        if which == "changed":
            return [{**c["after"], "_before": c["before"]} for c in d.get("changed", [])]
        return []

    def resolve_ref(self, ref: Mapping[str, Any]) -> list[Any]:
        """The `field` values of the rows of `table` (in set `in`) that match `where`."""
        try:
            key = json.dumps(ref, sort_keys=True, default=str)
        except (TypeError, ValueError):
            key = repr(ref)
        if key not in self._refs:
            rows = self.rows(str(ref.get("table")), str(ref.get("in", "end")))
            where = ref.get("where")
            values = [get_path(r, str(ref.get("field"))) for r in rows if match_where(r, where, self)]
            self._refs[key] = [v for v in values if v is not MISSING]
        return self._refs[key]
