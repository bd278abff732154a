"""The app factory every clone uses: Flask + worlds + control API + shared templates and assets."""

from __future__ import annotations

import importlib
import os
import secrets
from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, g, render_template, request

from apps._shared import inputs
from apps._shared.caching import init_caching
from apps._shared.control import create_control_app
from apps._shared.db import DEFAULT_WORLD, close_db, store
from apps._shared.display import init_display
from apps._shared.i18n import init_i18n
from apps._shared.looks import LookEnvironment, init_looks
from apps._shared.sandbox import init_sandbox
from apps._shared.session import WORLD_COOKIE, verified_world
from apps._shared.spec import AppSpec
from apps._shared.worlds import WorldStore

SHARED_DIR = Path(__file__).parent


class _LookedFlask(Flask):
    jinja_environment = LookEnvironment  # every clone's templates answer per look (apps/_shared/looks.py)


def _views(spec: AppSpec):
    return importlib.import_module(spec.views)


def default_home() -> Path:
    return Path(os.environ.get("UIGYM_HOME") or Path.home() / ".cache" / "uigym")


def create_app(spec: AppSpec, config: dict[str, Any] | None = None) -> Flask:
    """The app's pages. Its control API is another WSGI app, `app.extensions["uigym_control"]`, served on
    its own port (apps/serve.py), so no page can address it."""
    app = _LookedFlask(spec.import_name, template_folder="templates", static_folder="static")
    app.config.update(
        UIGYM_HOME=str(default_home()),
        GYM_TOKEN=os.environ.get("UIGYM_GYM_TOKEN") or secrets.token_hex(16),
        DEFAULT_SEED=0,
        OPEN_DEFAULT_WORLD=False,  # see apps/_shared/session.py
        UIGYM_LOOK=None,  # the look of a request whose binding names none (apps/_shared/looks.py)
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
    views = _views(spec)
    for bp in views.blueprints():
        app.register_blueprint(bp)

    @app.before_request
    def _select_world():
        """The world of this request, from its signed binding (apps/_shared/session.py); a request
        without a valid binding to an existing world is refused, and never creates one."""
        if request.path.startswith(("/_shared/static/", "/static/")):
            return None
        if request.routing_exception is not None:
            return None  # no such page (e.g. any /_gym/... spelling): its 404 or 405, world or not
        value = request.cookies.get(WORLD_COOKIE)
        if value is None and app.config["OPEN_DEFAULT_WORLD"]:
            g.uigym_world = DEFAULT_WORLD
            return None
        bound = verified_world(app, value)
        wid, look = bound or (None, None)
        if wid is None:
            why = "carries no world" if value is None else "carries a world binding this app did not sign"
            return _refuse(403, f"This browser {why}. Worlds are opened by the gym (its control API's reset); "
                                "to look around by hand, serve the app with --browse.")
        if not store().world_path(wid).exists():
            return _refuse(410, f"The world {wid!r} does not exist any more (it was dropped, or never reset).")
        g.uigym_world = wid
        if look in spec.looks:
            g.uigym_look = look
        return None

    def _refuse(code: int, message: str):
        return render_template("_shared/error.html", code=code, message=message), code

    app.teardown_appcontext(close_db)
    init_caching(app)
    init_sandbox(app, inline_scripts=spec.inline_scripts)
    init_looks(app)
    init_display(app)
    init_i18n(app)

    @app.context_processor
    def _shared_context():
        return {"app_spec": spec}

    @app.errorhandler(404)
    def _not_found(e):
        return render_template("_shared/error.html", code=404, message="That page does not exist."), 404

    if hasattr(views, "init_app"):
        views.init_app(app)
    app.extensions["uigym_control"] = create_control_app(app)
    return app
