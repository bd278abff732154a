"""The app factory every clone uses: Flask + worlds + control API + shared templates and assets."""

from __future__ import annotations

import datetime as dt
import importlib
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from flask import Blueprint, Flask, g, jsonify, render_template, request
from sqlalchemy.orm import DeclarativeBase

from apps._shared import control, inputs
from apps._shared.caching import init_caching
from apps._shared.db import DEFAULT_WORLD, WORLD_COOKIE, close_db, store
from apps._shared.worlds import WorldError, WorldStore

SHARED_DIR = Path(__file__).parent


@dataclass
class AppSpec:
    """What a clone declares about itself; `create_app` does the rest."""

    name: str  # "mail"
    title: str  # the brand shown in the UI, e.g. "Postbox"
    import_name: str  # the clone's package, for its templates/ and static/
    base: type[DeclarativeBase]  # the clone's models
    build_world: Callable[[int, dt.datetime], dict[str, list[dict[str, Any]]]]  # (seed, now) -> rows per table
    # The views package: its `blueprints()` and, if it has one, `init_app(app)`, imported when the app is
    # built (so importing the spec stays cheap).
    views: str
    default_now: dt.datetime
    start_path: str = "/"
    version: str = "1"
    # What, when changed, invalidates cached snapshots: the seed code's modules and the vocab folder
    # (the fingerprint also covers the schema, and Faker's version: another Faker draws other names).
    fingerprint_modules: list[str] = field(default_factory=list)
    vocab_dir: Path | None = None
    # Fields that change by merely looking (e.g. "recently viewed"): ignored by unchanged_except.
    volatile: dict[str, list[str]] = field(default_factory=dict)


def _views(spec: AppSpec):
    return importlib.import_module(spec.views)


def default_home() -> Path:
    return Path(os.environ.get("UIGYM_HOME") or Path.home() / ".cache" / "uigym")


def create_app(spec: AppSpec, config: dict[str, Any] | None = None) -> Flask:
    app = Flask(spec.import_name, template_folder="templates", static_folder="static")
    app.config.update(
        UIGYM_HOME=str(default_home()),
        GYM_TOKEN=os.environ.get("UIGYM_GYM_TOKEN") or secrets.token_hex(16),
        DEFAULT_SEED=0,
        SEND_FILE_MAX_AGE_DEFAULT=86400,  # fonts and icons cached by the browser context
        JSON_SORT_KEYS=False,
    )
    app.config.update(config or {})
    inputs.init_app(app)  # size limits, bounded ids, 4xx pages: before the views add their rules
    app.json.sort_keys = False
    app.extensions["uigym_worlds"] = WorldStore(spec, Path(app.config["UIGYM_HOME"]), app.config["DEFAULT_SEED"])
    app.extensions["uigym_spec"] = spec

    shared = Blueprint(
        "shared",
        __name__,
        url_prefix="/_shared",
        template_folder="templates",
        static_folder="static",
        static_url_path="/static",
    )
    app.register_blueprint(shared)
    app.register_blueprint(control.bp)
    views = _views(spec)
    for bp in views.blueprints():
        app.register_blueprint(bp)

    @app.before_request
    def _select_world():
        if request.path.startswith(("/_gym/", "/_shared/static/", "/static/")):
            return None
        wid = request.cookies.get(WORLD_COOKIE) or DEFAULT_WORLD
        try:
            store().check_id(wid)
        except WorldError as e:
            return jsonify(error=str(e)), 400
        g.uigym_world = wid
        return None

    app.teardown_appcontext(close_db)
    init_caching(app)

    @app.context_processor
    def _shared_context():
        return {"app_spec": spec}

    @app.errorhandler(404)
    def _not_found(e):
        return render_template("_shared/error.html", code=404, message="That page does not exist."), 404

    if hasattr(views, "init_app"):
        views.init_app(app)
    return app
