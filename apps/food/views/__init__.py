"""Forkful's views: one blueprint, a module per area."""

from __future__ import annotations

from flask import Blueprint

from apps.food.views.blueprint import bp

from apps.food.views import common  # noqa: E402,F401
from apps.food.views import browse, store, cart, checkout, orders, account, media  # noqa: E402,F401


def blueprints() -> list[Blueprint]:
    return [bp]


def init_app(app) -> None:
    common.init_app(app)
