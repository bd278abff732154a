"""The database session of the current request, bound to the world its signed cookie selects."""

from __future__ import annotations

from flask import current_app, g
from sqlalchemy.orm import Session

DEFAULT_WORLD = "default"


def store():
    return current_app.extensions["uigym_worlds"]


def world_id() -> str:
    return g.get("uigym_world", DEFAULT_WORLD)


def world_meta() -> dict[str, str]:
    """The current world's `_gym_meta` (seed, now, start), read once per request."""
    if "uigym_meta" not in g:
        g.uigym_meta = store().meta(world_id())
    return g.uigym_meta


def db() -> Session:
    """One ORM session per request; committed by the view, closed at teardown."""
    if "uigym_db" not in g:
        g.uigym_db = Session(store().engine(world_id()), expire_on_commit=False)
    return g.uigym_db


def close_db(_exc=None) -> None:
    session = g.pop("uigym_db", None)
    if session is not None:
        session.close()
