"""Which tables of a world were written since its reset: so grading reads only those (issue #36, CI time).

The grader compares a world's end state with its start state. The start state is read once per (seed,
now, fixtures) and cached by the gym; reading the whole end state again for every episode (thousands of
rows, 0.2-0.9 s of the app server per grade) is what most of those rows do not need: an episode writes a
few tables. `Written` learns the tables each SQL statement writes from SQLite itself: its authorizer is
called while a statement is prepared, once per write target (INSERT, UPDATE, DELETE, and the statements
of any trigger it fires), with the table's name. sqlite3 caches prepared statements per connection, so a
statement is not prepared (authorized) again on every execution: the tables a statement text writes are
kept per text, and every execution adds them. DDL, or anything the authorizer cannot name, makes the world
`unknown`: its next state is read whole.

A world's record starts empty at its reset, after the fixtures. A world with no record (the server started
after the reset: a restarted app server) is unknown: read whole, never assumed unchanged.
"""

from __future__ import annotations

import re
import sqlite3
import threading
from typing import Any

ALL = "*"
_WRITE_WORD = re.compile(r"\s*(INSERT|UPDATE|DELETE|REPLACE|WITH)\b", re.I)
_WRITES = {sqlite3.SQLITE_INSERT, sqlite3.SQLITE_UPDATE, sqlite3.SQLITE_DELETE}
_SCHEMA = {getattr(sqlite3, n) for n in dir(sqlite3) if n.startswith(("SQLITE_CREATE_", "SQLITE_DROP_"))} | {
    sqlite3.SQLITE_ALTER_TABLE}


class Written:
    """Per world: the tables written since its reset (a set; ALL in it: unknown)."""

    def __init__(self) -> None:
        self._worlds: dict[str, set[str]] = {}
        self._by_sql: dict[str, frozenset[str]] = {}
        self._preparing = threading.local()
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ the record
    def start(self, world_id: str) -> None:
        """The world was just reset: nothing written since."""
        with self._lock:
            self._worlds[world_id] = set()

    def forget(self, world_id: str) -> None:
        with self._lock:
            self._worlds.pop(world_id, None)

    def since_reset(self, world_id: str) -> set[str] | None:
        """The tables written since the world's reset, or None when that is not known (read it whole)."""
        with self._lock:
            got = self._worlds.get(world_id)
            if got is None or ALL in got:
                return None
            return set(got)

    def _add(self, world_id: str, tables) -> None:
        with self._lock:
            got = self._worlds.get(world_id)
            if got is not None:
                got.update(tables)

    # ------------------------------------------------------------------ the hooks
    def watch(self, engine, world_id: str) -> None:
        """Record the writes of every statement `engine` runs for `world_id`."""
        from sqlalchemy import event

        def on_connect(dbapi_conn, _record) -> None:
            dbapi_conn.set_authorizer(self._authorizer)

        def before_execute(conn, cursor, statement: str, parameters: Any, context, executemany: bool) -> None:
            known = self._by_sql.get(statement)
            if known is not None:
                if known:
                    self._add(world_id, known)
                self._preparing.sql = None
                return
            # Not seen yet: sqlite3 prepares it during this execution and the authorizer names its targets.
            self._preparing.sql = statement
            self._preparing.tables = set()

        def learnt(statement: str) -> None:
            """The statement was prepared in this execution: keep what the authorizer named for it."""
            if getattr(self._preparing, "sql", None) != statement:
                return
            tables = set(self._preparing.tables)
            if not tables and _WRITE_WORD.match(statement):
                tables.add(ALL)  # a write the authorizer did not name (it was prepared before): read it whole
            self._by_sql[statement] = frozenset(tables)
            self._preparing.sql = None
            if tables:
                self._add(world_id, tables)

        def after_execute(conn, cursor, statement: str, parameters: Any, context, executemany: bool) -> None:
            learnt(statement)

        def on_error(ctx) -> None:
            # A statement that failed when it ran was prepared (and authorized) all the same, and sqlite3 keeps
            # it in its cache: what it writes is kept too, for its next, successful, execution.
            if ctx.statement is not None:
                learnt(ctx.statement)

        event.listen(engine, "connect", on_connect)
        event.listen(engine, "before_cursor_execute", before_execute)
        event.listen(engine, "after_cursor_execute", after_execute)
        event.listen(engine, "handle_error", on_error)

    def _authorizer(self, action: int, arg1, arg2, db_name, trigger) -> int:
        tables = getattr(self._preparing, "tables", None)
        if getattr(self._preparing, "sql", None) is not None and tables is not None:
            if action in _WRITES and arg1:
                tables.add(arg1)
            elif action in _SCHEMA:
                tables.add(ALL)
        return sqlite3.SQLITE_OK
