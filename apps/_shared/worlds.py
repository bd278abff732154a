"""Worlds: one SQLite file per world, reset from a pristine snapshot built once per (seed, now).

A snapshot is the seeded database for one (app, seed, now), keyed also by a fingerprint of the
schema and of the seed code, so changing either rebuilds it. Resetting a world copies the snapshot
into the world's file with SQLite's online backup (milliseconds, and safe while other connections
to that file are open), then applies the task's fixtures.

Each world records in its `_gym_meta` table the `seed`, the frozen `now`, and `start`: a short hash
naming what it started from (the snapshot, plus the fixtures if any). Two worlds with the same
`start` began identical, so an app may let the browser cache, for good, what only the start decides
(food's generated images, see apps/_shared/caching.py).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import importlib
import inspect
import itertools
import json
import os
import re
import sqlite3
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import faker
from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.schema import CreateTable
from sqlalchemy.sql import sqltypes

from apps._shared.written import Written
from apps._shared.fixtures import FixtureError, apply_fixtures
from apps._shared.jsonable import to_json_value

if TYPE_CHECKING:
    from apps._shared.spec import AppSpec

WORLD_ID_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")  # the whole id: use valid_world_id (fullmatch), never .match
META_TABLE = "_gym_meta"
SNAPSHOT_FORMAT = 2  # 2: `start` in _gym_meta


def valid_world_id(world_id: object) -> bool:
    """Whether `world_id` is a world id: 1-64 letters, digits, '-' or '_', the whole string. (fullmatch: a
    `^...$` pattern with .match would take "x\n", and make a world file whose name ends in a newline.)"""
    return isinstance(world_id, str) and WORLD_ID_RE.fullmatch(world_id) is not None


def _short_hash(text_: str) -> str:
    return hashlib.blake2b(text_.encode(), digest_size=6).hexdigest()


class WorldError(ValueError):
    """A bad world request (bad id, bad seed or time): reported to the caller as a 400."""


# The seeds draw dates years before and after `now`: near datetime's limits that arithmetic overflows.
NOW_RANGE = (dt.datetime(1970, 1, 1), dt.datetime(2200, 1, 1))
MAX_SEED = 2**63 - 1  # SQLite's integer; a seed also names a snapshot file


def parse_now(value: Any, default: dt.datetime) -> dt.datetime:
    if value is None or value == "":
        return default
    if isinstance(value, dt.datetime):
        parsed = value
    elif isinstance(value, str):
        try:
            parsed = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError as e:
            raise WorldError(f"'now' must be an ISO date-time like 2026-03-12T10:24:00, got {value!r}") from e
    else:
        raise WorldError(f"'now' must be an ISO date-time string like 2026-03-12T10:24:00, got {value!r}")
    if parsed.tzinfo is not None:
        try:
            parsed = parsed.astimezone(dt.timezone.utc)
        except OverflowError:
            raise WorldError(f"'now' {value!r} is out of range") from None
        parsed = parsed.replace(tzinfo=None)
    parsed = parsed.replace(microsecond=0)
    if not NOW_RANGE[0] <= parsed < NOW_RANGE[1]:
        raise WorldError(f"'now' must lie in [{NOW_RANGE[0].year}, {NOW_RANGE[1].year}), got {value!r}")
    return parsed


def _configure_sqlite(dbapi_conn, _record):
    cur = dbapi_conn.cursor()
    # World files are scratch copies of a snapshot: durability buys nothing, speed does.
    cur.execute("PRAGMA synchronous=OFF")
    cur.execute("PRAGMA temp_store=MEMORY")
    cur.close()


def _hash_sources(h, modules: list[str], vocab_dirs: list) -> None:
    """Feed `h` the source of `modules` and the JSON vocabularies under `vocab_dirs` (what a snapshot is built from)."""
    for mod_name in modules:
        h.update(inspect.getsource(importlib.import_module(mod_name)).encode())
    for folder in vocab_dirs:
        for path in sorted(Path(folder).rglob("*.json")):
            h.update(path.name.encode() + path.read_bytes())


def snapshot_home(home: Path) -> Path:
    """Where a world store keeps its snapshots: $UIGYM_SNAPSHOTS when set, else `<home>/snapshots`. Several homes may
    share one (the test suite's workers and the servers of tests with a home of their own: each snapshot is then built
    once per run): a snapshot's name is the key of what built it (seed, clock, the schema's and seed code's
    fingerprint), it is written once, atomically, and only read after; worlds stay in their own home."""
    shared = os.environ.get("UIGYM_SNAPSHOTS")
    return Path(shared) if shared else Path(home) / "snapshots"


class WorldStore:
    def __init__(self, spec: "AppSpec", home: Path, default_seed: int = 0):
        self.spec = spec
        self.home = Path(home)
        self.worlds_dir = self.home / "worlds" / spec.name
        self.snap_dir = snapshot_home(self.home) / spec.name
        self.worlds_dir.mkdir(parents=True, exist_ok=True)
        self.snap_dir.mkdir(parents=True, exist_ok=True)
        self.default_seed = default_seed
        self._engines: dict[str, Engine] = {}
        self._lock = threading.Lock()
        self._world_locks: dict[str, threading.Lock] = {}
        self._snap_locks: dict[str, threading.Lock] = {}
        self._fingerprint: str | None = None
        self._family_fingerprint: str | None = None
        self.written = Written()  # the tables each world wrote since its reset (apps/_shared/written.py)
        # Per world: the database file its start state is in (the snapshot, or a copy made after the fixtures), which
        # `state(rows=True)` compares the written tables with, row by row, in SQLite.
        self._start_files: dict[str, Path] = {}

    # ---------------------------------------------------------------- snapshots
    def fingerprint(self) -> str:
        """Hash of the schema DDL and the seed code: snapshots built by other code are never reused."""
        if self._fingerprint is None:
            h = hashlib.sha256()
            for table in sorted(self.spec.base.metadata.tables.values(), key=lambda t: t.name):
                h.update(str(CreateTable(table)).encode())
            _hash_sources(h, self.spec.fingerprint_modules, [self.spec.vocab_dir] if self.spec.vocab_dir else [])
            h.update(f"{self.spec.version}-faker{faker.VERSION}-format{SNAPSHOT_FORMAT}".encode())
            self._fingerprint = h.hexdigest()[:16]
        return self._fingerprint

    def family_fingerprint(self) -> str:
        """Hash of the seed families' code (AppSpec.family_modules): a family's snapshots are keyed by it too.
        Computed once, as `fingerprint` is: every reset of a family world names its snapshot with it."""
        if self._family_fingerprint is None:
            h = hashlib.sha256()
            _hash_sources(h, self.spec.family_modules, self.spec.family_vocab_dirs)
            self._family_fingerprint = h.hexdigest()[:12]
        return self._family_fingerprint

    def check_family(self, family: Any) -> str | None:
        if family is None:
            return None
        if not isinstance(family, str) or family not in self.spec.families:
            raise WorldError(f"'family' must be one of {sorted(self.spec.families)} or left out, got {family!r}")
        return family

    def snapshot_path(self, seed: int, now: dt.datetime, family: str | None = None) -> Path:
        key = f"s{seed}-{now.strftime('%Y%m%dT%H%M%S')}-{self.fingerprint()}"
        if family is not None:  # another seed family: its own key, never a default snapshot's name
            key = f"{family}-{key}-{self.family_fingerprint()}"
        path = self.snap_dir / f"{key}.sqlite"
        if path.exists():
            return path
        with self._lock:
            lock = self._snap_locks.setdefault(key, threading.Lock())
        with lock:
            if not path.exists():
                self._build_snapshot(path, seed, now, family)
        return path

    def _build_snapshot(self, path: Path, seed: int, now: dt.datetime, family: str | None = None) -> None:
        tmp = path.with_name(f".{path.stem}.{os.getpid()}.{threading.get_ident()}.tmp")
        tmp.unlink(missing_ok=True)
        engine = create_engine(f"sqlite:///{tmp}")
        try:
            self.spec.base.metadata.create_all(engine)
            build = self.spec.build_world if family is None else self.spec.families[family]
            rows_by_table = build(seed, now)
            tables = self.spec.base.metadata.tables
            unknown = set(rows_by_table) - set(tables)
            if unknown:
                raise RuntimeError(f"seed data for unknown tables: {sorted(unknown)}")
            with engine.begin() as conn:
                for table in self.spec.base.metadata.sorted_tables:
                    rows = rows_by_table.get(table.name) or []
                    # One executemany per run of rows with the same columns: an executemany takes its columns from
                    # its first row, so a row with a column the others leave to its default (an injected email's
                    # html_body, seed_data/injected.py) would lose it. A table whose rows agree is one run, as before.
                    for _, run in itertools.groupby(rows, key=lambda r: tuple(r)):
                        conn.execute(table.insert(), list(run))
                conn.execute(text(f"CREATE TABLE {META_TABLE} (key TEXT PRIMARY KEY, value TEXT NOT NULL)"))
                conn.execute(
                    text(f"INSERT INTO {META_TABLE} (key, value) VALUES ('seed', :s), ('now', :n), ('start', :k)"),
                    {"s": str(seed), "n": now.isoformat(), "k": _short_hash(path.stem)},
                )
                if family is not None:
                    conn.execute(text(f"INSERT INTO {META_TABLE} (key, value) VALUES ('family', :f)"), {"f": family})
            engine.dispose()
            con = sqlite3.connect(tmp)
            con.execute("VACUUM")
            con.close()
            os.replace(tmp, path)  # atomic: concurrent builders write identical bytes
        finally:
            engine.dispose()
            tmp.unlink(missing_ok=True)

    # ------------------------------------------------------------------- worlds
    def check_id(self, world_id: str) -> str:
        if not valid_world_id(world_id):
            raise WorldError(f"bad world id {world_id!r}: use 1-64 letters, digits, '-' or '_'")
        return world_id

    def world_path(self, world_id: str) -> Path:
        return self.worlds_dir / f"{self.check_id(world_id)}.sqlite"

    def _world_lock(self, world_id: str) -> threading.Lock:
        with self._lock:
            return self._world_locks.setdefault(world_id, threading.Lock())

    def engine(self, world_id: str) -> Engine:
        """The engine of a world, creating the world from the default seed if it does not exist yet."""
        eng = self._engines.get(world_id)
        if eng is not None:
            return eng
        path = self.world_path(world_id)
        if not path.exists():
            self.reset(world_id, self.default_seed, None, [])
        with self._lock:
            eng = self._engines.get(world_id)
            if eng is None:
                eng = create_engine(
                    f"sqlite:///{path}",
                    connect_args={"check_same_thread": False, "timeout": 30},
                    pool_size=4,
                    max_overflow=16,
                )
                event.listen(eng, "connect", _configure_sqlite)
                self.written.watch(eng, world_id)
                self._engines[world_id] = eng
        return eng

    def reset(self, world_id: str, seed: int, now: Any, fixtures: list[dict], family: str | None = None) -> dict:
        t0 = time.perf_counter()
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
            raise WorldError(f"'seed' must be an integer in [0, 2**63), got {seed!r}")
        family = self.check_family(family)
        now_dt = parse_now(now, self.spec.default_now)
        snap = self.snapshot_path(seed, now_dt, family)
        path = self.world_path(world_id)
        with self._world_lock(world_id):
            src = sqlite3.connect(f"file:{snap}?mode=ro", uri=True)
            dst = sqlite3.connect(path, timeout=30)
            try:
                src.backup(dst)
            finally:
                src.close()
                dst.close()
            if fixtures:
                eng = self.engine(world_id)
                try:
                    with eng.begin() as conn:
                        apply_fixtures(conn, self.spec.base.metadata, fixtures)
                        # Another start than the bare snapshot's (see `start` in the module docstring).
                        conn.execute(text(f"UPDATE {META_TABLE} SET value = :k WHERE key = 'start'"),
                                     {"k": _short_hash(snap.stem + json.dumps(fixtures, sort_keys=True, default=str))})
                except (SQLAlchemyError, TypeError, ValueError, OverflowError) as e:
                    if isinstance(e, FixtureError):
                        raise
                    # A value the column cannot take (wrong type, a broken constraint): the caller's input.
                    raise FixtureError(f"the fixtures cannot be applied: {str(e).splitlines()[0][:300]}") from None
                start_file = self.worlds_dir / f"{world_id}.start.sqlite"
                src, dst = sqlite3.connect(path, timeout=30), sqlite3.connect(start_file, timeout=30)
                try:
                    src.backup(dst)
                finally:
                    src.close()
                    dst.close()
                self._start_files[world_id] = start_file
            else:
                self._start_files[world_id] = snap
            self.written.start(world_id)  # the start state: what the episode writes from here is recorded
        info = {
            "world": world_id,
            "app": self.spec.name,
            "seed": seed,
            "now": now_dt.isoformat(),
            "ms": round((time.perf_counter() - t0) * 1000, 2),
        }
        if family is not None:
            info["family"] = family
        return info

    def drop(self, world_id: str) -> bool:
        path = self.world_path(world_id)
        with self._lock:
            eng = self._engines.pop(world_id, None)
        self.written.forget(world_id)
        self._start_files.pop(world_id, None)
        if eng is not None:
            eng.dispose()
        existed = path.exists()
        path.unlink(missing_ok=True)
        (self.worlds_dir / f"{world_id}.start.sqlite").unlink(missing_ok=True)
        return existed

    def meta(self, world_id: str) -> dict[str, str]:
        with self.engine(world_id).connect() as conn:
            return {k: v for k, v in conn.execute(text(f"SELECT key, value FROM {META_TABLE}"))}

    def now(self, world_id: str) -> dt.datetime:
        return dt.datetime.fromisoformat(self.meta(world_id)["now"])

    def set_now(self, world_id: str, now: Any) -> dt.datetime:
        """Move the world's frozen clock forward to `now` (never back: what was written at a time stays in its
        past). The app's `on_clock` runs after (the control API's clock route)."""
        cur = self.now(world_id)
        new = parse_now(now, cur)
        if new < cur:
            raise WorldError(f"the clock only moves forward: the world's now is {cur.isoformat()}, got {new.isoformat()}")
        with self.engine(world_id).begin() as conn:
            conn.execute(text(f"UPDATE {META_TABLE} SET value = :n WHERE key = 'now'"), {"n": new.isoformat()})
        return new

    def state(self, world_id: str, written_only: bool = False, rows: bool = False) -> dict[str, Any]:
        """The whole world as JSON: {table: [row, ...]} ordered by primary key, plus `_meta`.

        Read with the raw DB-API cursor and per-column converters (a few thousand rows in tens of
        milliseconds); the values are exactly what `to_json_value` makes of the ORM's Python values.

        `written_only`: only the tables written since the world's reset, and `_written`, their names: every
        other table is as the start state has it (apps/_shared/written.py). Where that is not known (the server
        was restarted since, or a statement changed the schema) the whole world, with `_written` None.

        `rows` (with `written_only`): of each written table keyed by one `id` column, only the rows that differ from
        the start state, `_rows: {table: {"upsert": [row, ...], "deleted": [id, ...]}}`, compared in SQLite with
        the world's start file (its snapshot, or the copy made after its fixtures); other written tables whole.
        A mail episode that sends one message then reads one row, not the 2,500 of `messages`.
        `grading.written.merge_written` rebuilds the whole end state from the start state and this."""
        out: dict[str, Any] = {}
        md = self.spec.base.metadata
        names = sorted(md.tables)
        if written_only:
            written = self.written.since_reset(world_id)
            out["_written"] = None if written is None else sorted(set(names) & written)
            if written is not None:
                names = out["_written"]
        start_file = self._start_files.get(world_id) if rows and out.get("_written") is not None else None
        if start_file is not None and not start_file.exists():
            start_file = None
        eng = self.engine(world_id)
        raw = eng.raw_connection()
        try:
            cur = raw.cursor()
            if start_file is not None:
                cur.execute("ATTACH DATABASE ? AS gym_start", (str(start_file),))
                out["_rows"] = {}
            try:
                for name in names:
                    table = md.tables[name]
                    cols = list(table.columns)
                    order = list(table.primary_key.columns) or cols
                    select_cols = ", ".join(_q(c.name) for c in cols)
                    convs = [_converter(c.type) for c in cols]
                    keys = [c.key for c in cols]
                    keyed_by_id = [(c.name, c.key) for c in table.primary_key.columns] == [("id", "id")]
                    if start_file is not None and keyed_by_id:
                        # What differs from the start, in SQLite: the rows not in the start as they are (new or
                        # changed), and the ids the start has that are gone.
                        t = _q(name)
                        got = cur.execute(f"SELECT {select_cols} FROM main.{t} EXCEPT "
                                          f"SELECT {select_cols} FROM gym_start.{t} ORDER BY id").fetchall()
                        gone = cur.execute(f"SELECT id FROM gym_start.{t} EXCEPT SELECT id FROM main.{t} "
                                           "ORDER BY id").fetchall()
                        out["_rows"][name] = {"upsert": _as_json(keys, convs, got), "deleted": [r[0] for r in gone]}
                        continue
                    sql = (f'SELECT {select_cols} FROM main.{_q(name)} '
                           f'ORDER BY {", ".join(_q(c.name) for c in order)}')
                    out[name] = _as_json(keys, convs, cur.execute(sql).fetchall())
                meta = dict(cur.execute(f"SELECT key, value FROM main.{META_TABLE}").fetchall())
            finally:
                if start_file is not None:
                    cur.execute("DETACH DATABASE gym_start")
            cur.close()
        finally:
            raw.close()
        out["_meta"] = {
            "app": self.spec.name,
            "seed": int(meta.get("seed", 0)),
            "now": meta.get("now"),
            "volatile": self.spec.volatile,
        }
        if "family" in meta:
            out["_meta"]["family"] = meta["family"]
        return out


def _as_json(keys: list[str], convs: list, rows: list) -> list[dict[str, Any]]:
    """Raw SQLite rows as JSON rows: each column's value through its converter (`_converter`)."""
    if any(convs):
        pairs = list(zip(keys, convs))
        return [{k: (f(v) if f is not None and v is not None else v) for (k, f), v in zip(pairs, r)} for r in rows]
    return [dict(zip(keys, r)) for r in rows]


def _q(ident: str) -> str:
    return '"' + ident.replace('"', '""') + '"'


def _iso_datetime(v: Any) -> Any:
    """SQLite's stored '2026-03-12 10:24:00.000000' -> '2026-03-12T10:24:00' (to_json_value's form)."""
    if not isinstance(v, str):
        return to_json_value(v)
    s = v.replace(" ", "T", 1)
    if s.endswith(".000000"):
        s = s[:-7]
    return s


def _converter(typ):
    """How a raw SQLite value of this column type becomes its JSON value (None: as it is)."""
    if isinstance(typ, sqltypes.Boolean):
        return bool
    if isinstance(typ, sqltypes.DateTime):
        return _iso_datetime
    if isinstance(typ, sqltypes.JSON):
        return json.loads
    if isinstance(typ, (sqltypes.Numeric,)) and not isinstance(typ, (sqltypes.Float, sqltypes.Integer)):
        return float
    if isinstance(typ, (sqltypes.LargeBinary, sqltypes.PickleType)):
        return to_json_value
    return None


__all__ = ["WorldStore", "WorldError", "FixtureError", "parse_now"]
