"""Forkful: a DoorDash-like food delivery clone (our own brand)."""

from __future__ import annotations

import datetime as dt

from apps._shared import AppSpec
from apps._shared import create_app as _create_app
from apps.food.models import Base


def _build_world(seed: int, now: dt.datetime):
    from seed_data.food import build_world

    return build_world(seed, now)


def _blueprints():
    from apps.food.views import blueprints

    return blueprints()


def _init_app(app):
    from apps.food.views import init_app

    init_app(app)


SPEC = AppSpec(
    name="food",
    title="Forkful",
    import_name="apps.food",
    base=Base,
    build_world=_build_world,
    blueprints=_blueprints,
    default_now=dt.datetime(2026, 3, 13, 18, 30),
    start_path="/",
    fingerprint_modules=["seed_data.food", "apps.food.logic"],
    init_app=_init_app,
)


def create_app(config=None):
    return _create_app(SPEC, config)
