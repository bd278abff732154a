"""Task fixtures: small table-level edits applied to a world right after its reset.

    {"op": "insert", "table": "messages", "rows": [{...}, ...]}
    {"op": "update", "table": "messages", "where": {"id": 5}, "set": {"starred": true}}
    {"op": "delete", "table": "messages", "where": {"thread_id": 9}}

Values arrive as JSON; date-times are ISO strings and are converted by the column's type.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import Boolean, Date, DateTime, MetaData, Table, and_, delete, insert, update
from sqlalchemy.engine import Connection


class FixtureError(ValueError):
    """A fixture that cannot be applied: names the fixture's index and the reason."""


def _coerce(table: Table, col: str, value: Any, where: str) -> Any:
    if not isinstance(col, str) or col not in table.c:
        raise FixtureError(f"{where}: table {table.name!r} has no column {col!r}")
    typ = table.c[col].type
    if value is None:
        return None
    try:
        if isinstance(typ, DateTime) and isinstance(value, str):
            return dt.datetime.fromisoformat(value)
        if isinstance(typ, Date) and isinstance(value, str):
            return dt.date.fromisoformat(value)
        if isinstance(typ, Boolean):
            return bool(value)
    except ValueError as e:
        raise FixtureError(f"{where}: bad value {value!r} for {table.name}.{col}: {e}") from e
    return value


def _where(table: Table, where: dict[str, Any], ctx: str):
    if not isinstance(where, dict) or not where:
        raise FixtureError(f"{ctx}: 'where' must be a non-empty object of column: value")
    values = {k: _coerce(table, k, v, ctx) for k, v in where.items()}  # checks the columns first
    return and_(*[table.c[k] == v for k, v in values.items()])


def _row(table: Table, row: Any, ctx: str) -> dict[str, Any]:
    if not isinstance(row, dict):
        raise FixtureError(f"{ctx}: a row must be an object of column: value, got {type(row).__name__}")
    return {k: _coerce(table, k, v, ctx) for k, v in row.items()}


def apply_fixtures(conn: Connection, metadata: MetaData, fixtures: list[dict]) -> None:
    for i, fx in enumerate(fixtures):
        ctx = f"fixture #{i}"
        if not isinstance(fx, dict):
            raise FixtureError(f"{ctx}: must be an object, got {type(fx).__name__}")
        op, name = fx.get("op"), fx.get("table")
        if not isinstance(name, str) or name not in metadata.tables:
            raise FixtureError(f"{ctx}: unknown table {name!r}")
        table = metadata.tables[name]
        if op == "insert":
            rows = fx.get("rows")
            if not isinstance(rows, list) or not rows:
                raise FixtureError(f"{ctx}: insert needs a non-empty list 'rows'")
            conn.execute(insert(table), [_row(table, r, ctx) for r in rows])
        elif op == "update":
            values = _row(table, fx.get("set") or {}, ctx)
            if not values:
                raise FixtureError(f"{ctx}: update needs a non-empty object 'set'")
            res = conn.execute(update(table).where(_where(table, fx.get("where"), ctx)).values(values))
            if res.rowcount == 0:
                raise FixtureError(f"{ctx}: update of {name} matched no row for {fx.get('where')}")
        elif op == "delete":
            conn.execute(delete(table).where(_where(table, fx.get("where"), ctx)))
        else:
            raise FixtureError(f"{ctx}: unknown op {op!r} (use insert, update or delete)")
