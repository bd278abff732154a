"""A fixture app with two looks (apps/_shared/looks.py): `plain` (the default) and `fancy`, which overrides
only the base layout. The toy app's models and world."""

from __future__ import annotations

from flask import Blueprint, render_template

from apps._shared import AppSpec, create_app as _create_app
from tests.fixture_apps import toy


def blueprints():
    bp = Blueprint("looked", __name__)

    @bp.get("/")
    def page():
        return render_template("looked/page.html")

    @bp.get("/other")
    def other():
        return render_template("looked/other.html")

    return [bp]


SPEC = AppSpec(name="looked", title="Looked", import_name=__name__, base=toy.Base, build_world=toy.build,
               views=__name__, default_now=toy.SPEC.default_now, fingerprint_modules=[toy.__name__],
               looks={"plain": "Plain Co", "fancy": "Fancy Co"})


def create_app(config=None):
    return _create_app(SPEC, config)
