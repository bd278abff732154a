"""The frozen clock: every world has one fixed 'now' (set at reset), so pages and graders never drift."""

from __future__ import annotations

import datetime as dt

from flask import g, has_request_context

from apps._shared.db import world_meta


def now() -> dt.datetime:
    """The current world's frozen time (naive, read as UTC)."""
    if not has_request_context():
        raise RuntimeError("apps._shared.now() needs a request: the clock belongs to a world")
    if "uigym_now" not in g:
        g.uigym_now = dt.datetime.fromisoformat(world_meta()["now"])
    return g.uigym_now


def today() -> dt.date:
    return now().date()
