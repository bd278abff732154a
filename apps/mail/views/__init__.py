"""The Inkbox blueprint: one blueprint, a module per area (lists, thread, actions, assets)."""

from __future__ import annotations

from flask import Blueprint, Flask

from apps.mail.views.blueprint import bp

# The modules register their routes on `bp` when imported.
from apps.mail.views import actions, assets, contacts, lists, manage, settings, thread  # noqa: E402,F401


def blueprints() -> list[Blueprint]:
    return [bp]


def init_app(app: Flask) -> None:
    from apps.mail.views.common import register_template_helpers

    register_template_helpers(app)
