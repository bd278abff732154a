"""The control API under /_gym/, for the gym only: reset a world, read its state, health.

Every request must carry the header X-Gym-Token with the app's GYM_TOKEN. The agent's browser
cannot reach these routes anyway (the env aborts them), the token is the second lock.
"""

from __future__ import annotations

import hmac

from flask import Blueprint, abort, current_app, jsonify, request

from apps._shared.fixtures import FixtureError
from apps._shared.worlds import WorldError

bp = Blueprint("gym_control", __name__, url_prefix="/_gym")


@bp.before_request
def _require_token():
    expected = current_app.config.get("GYM_TOKEN") or ""
    given = request.headers.get("X-Gym-Token", "")
    if not expected or not hmac.compare_digest(given, expected):
        abort(403, description="the control API needs the X-Gym-Token header")


def _store():
    return current_app.extensions["uigym_worlds"]


@bp.errorhandler(403)
def _forbidden(e):
    return jsonify(error=str(e.description)), 403


@bp.errorhandler(WorldError)
@bp.errorhandler(FixtureError)
def _bad_request(e):
    return jsonify(error=str(e)), 400


@bp.get("/health")
def health():
    spec = _store().spec
    return jsonify(ok=True, app=spec.name, start_path=spec.start_path, default_now=spec.default_now.isoformat())


@bp.post("/worlds/<world_id>/reset")
def reset(world_id: str):
    body = request.get_json(silent=True)
    if body is None:
        body = {}
    if not isinstance(body, dict):
        raise WorldError("reset body must be a JSON object {seed, now, fixtures}")
    fixtures = body.get("fixtures") or []
    if not isinstance(fixtures, list):
        raise WorldError("'fixtures' must be a list")
    seed = body.get("seed", current_app.config.get("DEFAULT_SEED", 0))
    return jsonify(_store().reset(world_id, seed, body.get("now"), fixtures))


@bp.get("/worlds/<world_id>/state")
def state(world_id: str):
    store = _store()
    if not store.world_path(world_id).exists():
        raise WorldError(f"world {world_id!r} does not exist; reset it first")
    return jsonify(store.state(world_id))


@bp.delete("/worlds/<world_id>")
def drop(world_id: str):
    return jsonify(dropped=_store().drop(world_id))
