"""The control API, for the gym only: reset a world, read its state, drop it, health.

It is its own WSGI app, served on its own listener (`python -m apps.serve` opens a second port for it), so
no page of the app can address it: on the page port `/_gym/...` is just a 404, whatever its spelling.
Every request must also carry the header X-Gym-Token with the app's GYM_TOKEN (the second lock: in
containers the control port is reachable by whoever can reach the app's host).

Routes (JSON in, JSON out; every input error is a 4xx with {"error": "..."}):
    GET    /health
    POST   /worlds/<id>/reset    {"seed": int, "now": ISO date-time, "fixtures": [...], "look": id,
                                  "family": a seed family of the app's (AppSpec.families), or left out}
                                 -> {..., "cookie", "look"}
    POST   /worlds/<id>/clock    {"now": ISO date-time}: the frozen clock moved forward, then AppSpec.on_clock
                                 (a correspondent's answer delivered) -> {"now", "delivered"}
    GET    /worlds/<id>/state[?written=1[&rows=1]]   (written=1: only the tables written since the reset, named
                                          in `_written`; None there when unknown and the whole world is sent;
                                          rows=1: of those, only the rows that differ from the start, in `_rows`,
                                          see WorldStore.state and grading.written.merge_written)
    DELETE /worlds/<id>
    GET    /tools                       -> {"app", "tools": [{name, description, input_schema}]}
    POST   /worlds/<id>/tools/<name>    {arguments}  -> {"result": ...}, or 422 {"error": ...} (world unchanged):
                                        any refusal of the call (unknown name, arguments too deep or beyond
                                        their bounds, see apps/_shared/tools.py), never a 5xx

`cookie` in the reset's answer, {name, value}, is the signed binding of a browser to the world: the gym sets
it HttpOnly in its browser (apps/_shared/session.py). It carries the reset's look (apps/_shared/looks.py; the
app's default when none is named): the pages that browser sees are that look's.
"""

from __future__ import annotations

import hmac
import importlib
import json
from typing import Any

from flask import Flask, abort, jsonify, request
from werkzeug.exceptions import HTTPException

from apps._shared.fixtures import FixtureError
from apps._shared.looks import UnknownLook, check_look
from apps._shared.session import WORLD_COOKIE, sign_world
from apps._shared.tools import MAX_DEPTH as MAX_ARGS_DEPTH
from apps._shared.tools import MalformedArgs, ToolError, ToolSet
from apps._shared.worlds import WorldError
from apps.tool_args import depth_within

MAX_BODY_BYTES = 8 * 1024 * 1024  # the largest bundled task's fixtures are a few kB
MAX_JSON_DEPTH = 32  # fixtures are rows of scalars (a JSON column holds a small object): deeper is a mistake



def _json_body(shape: str = "{seed, now, fixtures}", *, max_depth: int = MAX_JSON_DEPTH,
               too_deep: type[Exception] = WorldError) -> dict:
    """The request's JSON object; an empty body is {}. Anything else is a 400 saying what is wrong (a body
    nested deeper than `max_depth`: `too_deep`, which the tool route makes a 422 like its other refusals)."""
    raw = request.get_data(cache=False)
    if not raw.strip():
        return {}
    try:
        body = json.loads(raw)
    except RecursionError:
        raise too_deep(f"the JSON body is nested too deeply (at most {max_depth} levels)") from None
    except (ValueError, UnicodeDecodeError) as e:  # JSONDecodeError is a ValueError
        raise WorldError(f"the body is not valid JSON: {e}") from None
    if not isinstance(body, dict):
        raise WorldError(f"the body must be a JSON object {shape}")
    if not depth_within(body, max_depth):
        raise too_deep(f"the JSON body is nested too deeply (at most {max_depth} levels)")
    return body


def tool_set(page_app: Flask):
    """The clone's ToolSet (apps/<app>/tools.py), imported on first use."""
    tools = page_app.extensions.get("uigym_tools")
    if tools is None:
        spec = page_app.extensions["uigym_spec"]
        tools = importlib.import_module(spec.tools).TOOLS if spec.tools else ToolSet(spec.name)  # none: no tools
        page_app.extensions["uigym_tools"] = tools
    return tools


def run_on_clock(page_app: Flask, world_id: str) -> int:
    """The app's `on_clock` in one transaction on the world (as a tool call runs): how many things it delivered."""
    from flask import g

    from apps._shared.db import db

    spec = page_app.extensions["uigym_spec"]
    if not spec.on_clock:
        return 0
    mod, _, fn = spec.on_clock.partition(":")
    hook = getattr(importlib.import_module(mod), fn)
    with page_app.test_request_context("/"):
        g.uigym_world = world_id
        session = db()
        try:
            n = int(hook(session) or 0)
            session.commit()
        except BaseException:
            session.rollback()
            raise
    return n


def create_control_app(page_app: Flask) -> Flask:
    """The control API of `page_app`, sharing its worlds and its token."""
    ctl = Flask(f"{page_app.import_name}.control")
    ctl.config.update(MAX_CONTENT_LENGTH=MAX_BODY_BYTES, JSON_SORT_KEYS=False)
    ctl.json.sort_keys = False
    store = page_app.extensions["uigym_worlds"]
    spec = page_app.extensions["uigym_spec"]

    @ctl.before_request
    def _require_token():
        expected = page_app.config.get("GYM_TOKEN") or ""
        given = request.headers.get("X-Gym-Token", "")
        if not expected or not hmac.compare_digest(given.encode("utf-8", "surrogateescape"), expected.encode()):
            abort(403, description="the control API needs the X-Gym-Token header")

    @ctl.errorhandler(HTTPException)
    def _http_error(e: HTTPException):
        # Werkzeug's own answers (404, 405, 413, 400) as JSON, like ours.
        return jsonify(error=str(e.description or e.name)), e.code

    @ctl.errorhandler(WorldError)
    @ctl.errorhandler(FixtureError)
    def _bad_request(e):
        return jsonify(error=str(e)), 400

    @ctl.get("/health")
    def health():
        return jsonify(ok=True, app=spec.name, start_path=spec.start_path, default_now=spec.default_now.isoformat())

    @ctl.post("/worlds/<world_id>/reset")
    def reset(world_id: str):
        store.check_id(world_id)
        body = _json_body()
        unknown = set(body) - {"seed", "now", "fixtures", "look", "family"}
        if unknown:
            raise WorldError(f"unknown keys {sorted(unknown)}: the body is {{seed, now, fixtures, look, family}}")
        look = body.get("look")
        if look is not None and not isinstance(look, str):
            raise WorldError("'look' must be a string: one of the app's looks")
        try:
            look = check_look(spec.name, spec.look_ids(), look)
        except UnknownLook as e:
            raise WorldError(str(e)) from None
        fixtures = body.get("fixtures")
        if fixtures is None:
            fixtures = []
        if not isinstance(fixtures, list):
            raise WorldError("'fixtures' must be a list")
        seed = body.get("seed")
        if seed is None:
            seed = page_app.config.get("DEFAULT_SEED", 0)
        info = store.reset(world_id, seed, body.get("now"), fixtures, family=body.get("family"))
        return jsonify({**info, "cookie": {"name": WORLD_COOKIE, "value": sign_world(page_app, world_id, look)},
                        "look": look or spec.default_look})

    @ctl.post("/worlds/<world_id>/clock")
    def clock(world_id: str):
        """Move the world's frozen clock forward ({"now": ISO date-time}), then let the app deliver what came due
        (AppSpec.on_clock: a correspondent's answer)."""
        store.check_id(world_id)
        if not store.world_path(world_id).exists():
            raise WorldError(f"world {world_id!r} does not exist; reset it first")
        body = _json_body("{now}")
        if set(body) != {"now"} or not isinstance(body["now"], str):
            raise WorldError("the body is {\"now\": an ISO date-time string}")
        new = store.set_now(world_id, body["now"])
        return jsonify(now=new.isoformat(), delivered=run_on_clock(page_app, world_id))

    @ctl.get("/worlds/<world_id>/state")
    def state(world_id: str):
        if not store.world_path(world_id).exists():
            raise WorldError(f"world {world_id!r} does not exist; reset it first")
        written, rows = request.args.get("written"), request.args.get("rows")
        if written not in (None, "0", "1"):
            raise WorldError("'written' must be 0 or 1")
        if rows not in (None, "0", "1"):
            raise WorldError("'rows' must be 0 or 1")
        if rows == "1" and written != "1":
            raise WorldError("'rows=1' reads the changed rows of the written tables: it needs 'written=1'")
        return jsonify(store.state(world_id, written_only=written == "1", rows=rows == "1"))

    @ctl.errorhandler(ToolError)
    def _tool_error(e):
        return jsonify(error=str(e)), 422

    @ctl.get("/tools")
    def tools():
        return jsonify(app=spec.name, tools=tool_set(page_app).describe())

    @ctl.post("/worlds/<world_id>/tools/<name>")
    def call_tool(world_id: str, name: str):
        store.check_id(world_id)
        if not store.world_path(world_id).exists():
            raise WorldError(f"world {world_id!r} does not exist; reset it first")
        # The arguments' own checks (ToolSet.check: a registered name, plain JSON within bounds, the schema)
        # answer 422; the body's depth is checked first here, as a 422 too, since json.loads cannot read
        # every depth.
        args = _json_body("of the tool's arguments", max_depth=MAX_ARGS_DEPTH, too_deep=MalformedArgs)
        return jsonify(result=tool_set(page_app).call(page_app, world_id, name, args))

    @ctl.delete("/worlds/<world_id>")
    def drop(world_id: str):
        return jsonify(dropped=store.drop(world_id))

    return ctl
