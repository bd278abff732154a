"""The CRM's views: the blueprint and page helpers (base), and a module per area that registers its routes."""

from __future__ import annotations

from flask import Blueprint

from apps.crm.views.base import bp, init_app  # noqa: F401 - the factory calls init_app


def blueprints() -> list[Blueprint]:
    from apps.crm.views import (  # noqa: F401 - registers routes
        activity, convert, files, goal, home, lists, merge, products, records, reports, search, shell)
    from apps.crm.views import cases, listfields  # noqa: F401 - Close Case form; Select Fields to Display
    from apps.crm.views import dashboards, feed  # noqa: F401 - Edit dashboards; Chatter on records

    return [bp]
