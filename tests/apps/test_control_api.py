"""The control API's contract (its own WSGI app, apps/_shared/control.py) and the world binding
(apps/_shared/session.py), on the toy fixture app: every input error is a 4xx with a clear JSON message,
never a 5xx; a page request is served only for a world the gym bound, and never creates one."""

from __future__ import annotations

import json
import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps._shared.control import MAX_BODY_BYTES
from apps._shared.session import WORLD_COOKIE, sign_world
from tests.fixture_apps import qa_clean, toy

TOKEN = "control-test-token"
H = {"X-Gym-Token": TOKEN}


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return toy.create_app({"TESTING": True, "GYM_TOKEN": TOKEN, "UIGYM_HOME": str(tmp_path_factory.mktemp("home"))})


@pytest.fixture(scope="module")
def ctl(app):
    return app.extensions["uigym_control"].test_client()


def worlds_on_disk(app) -> set[str]:
    return {p.stem for p in app.extensions["uigym_worlds"].worlds_dir.glob("*.sqlite")}


# ----------------------------------------------------------------------------------------- control API
def test_reset_answers_the_world_and_its_signed_binding(app, ctl):
    r = ctl.post("/worlds/w1/reset", json={"seed": 3, "now": "2026-01-02T03:04:05Z"}, headers=H)
    assert r.status_code == 200
    assert (r.json["world"], r.json["seed"], r.json["now"]) == ("w1", 3, "2026-01-02T03:04:05")
    assert r.json["cookie"] == {"name": WORLD_COOKIE, "value": sign_world(app, "w1")}
    assert ctl.post("/worlds/w1/reset", headers=H).json["seed"] == 0  # an empty body: the defaults
    assert ctl.get("/worlds/w1/state", headers=H).json["notes"][0]["title"] == "Note 0-1"


def test_the_token_is_required(ctl):
    for headers in ({}, {"X-Gym-Token": "wrong"}, {"X-Gym-Token": TOKEN + "x"}):
        r = ctl.get("/health", headers=headers)
        assert r.status_code == 403 and "X-Gym-Token" in r.json["error"]
    assert ctl.get("/health", headers=H).json["app"] == "toy"


@pytest.mark.parametrize("body, message", [
    ('{"seed": 1', "not valid JSON"),  # truncated: used to reset to seed 0 and answer 200
    ("[1, 2]", "must be a JSON object"),
    ("\xff\xfe", "not valid JSON"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    (json.dumps({"fixtures": [{"op": "insert", "table": "notes", "rows": [{"title": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}]}]}),
     "nested too deeply"),
    ('{"seed": "1"}', "'seed' must be an integer"),
    ('{"seed": true}', "'seed' must be an integer"),
    ('{"seed": -1}', "'seed' must be an integer"),
    ('{"seed": 1e400}', "'seed' must be an integer"),
    ('{"seed": 123456789012345678901234567890}', "'seed' must be an integer"),
    ('{"now": "9999-12-31T23:59:59-23:59"}', "out of range"),  # used to be a 500 (OverflowError)
    ('{"now": "0001-01-01T00:00:00"}', "'now' must lie in"),  # the seed's date arithmetic would overflow
    ('{"now": 5}', "'now' must be an ISO date-time"),
    ('{"now": "yesterday"}', "'now' must be an ISO date-time"),
    ('{"fixtures": {"op": "insert"}}', "'fixtures' must be a list"),
    ('{"fixtures": [5]}', "must be an object"),
    ('{"fixtures": [{"op": "update", "table": "notes", "where": {"nope": 1}, "set": {"title": "x"}}]}',
     "has no column 'nope'"),  # used to be a 500 (KeyError)
    ('{"fixtures": [{"op": "insert", "table": ["notes"], "rows": [{}]}]}', "unknown table"),
    ('{"fixtures": [{"op": "insert", "table": "notes", "rows": [5]}]}', "a row must be an object"),
    ('{"fixtures": [{"op": "insert", "table": "notes", "rows": [{"id": 1, "title": "dup", "created_at": null}]}]}',
     "cannot be applied"),  # a broken constraint
    ('{"fixtures": [{"op": "update", "table": "notes", "where": {"id": 1}, "set": {"title": {"a": 1}}}]}',
     "cannot be applied"),  # a value the column cannot take
    ('{"fixtures": [{"op": "drop", "table": "notes"}]}', "unknown op"),
    ('{"seeds": 1}', "unknown keys"),
])
def test_bad_reset_bodies_are_400_with_a_message(app, ctl, body, message):
    r = ctl.post("/worlds/bad/reset", data=body.encode("utf-8", "surrogateescape") if isinstance(body, str) else body,
                 headers=H, content_type="application/json")
    assert r.status_code == 400 and message in r.json["error"], r.json


def test_bad_ids_paths_and_methods_are_4xx_json(ctl):
    assert ctl.post("/worlds/bad id!/reset", headers=H).status_code == 400
    assert "bad world id" in ctl.post("/worlds/" + "x" * 65 + "/reset", headers=H).json["error"]
    assert "does not exist" in ctl.get("/worlds/never-reset/state", headers=H).json["error"]
    assert ctl.get("/worlds/w1/nothing", headers=H).status_code == 404
    assert ctl.put("/worlds/w1/reset", headers=H).status_code == 405
    assert ctl.get("/_gym/health", headers=H).status_code == 404  # no prefix on its own port


def test_a_body_over_the_limit_is_413(ctl):
    r = ctl.post("/worlds/big/reset", data=b"{" + b" " * MAX_BODY_BYTES + b"}", headers=H,
                 content_type="application/json")
    assert r.status_code == 413 and r.json["error"]


# Paths, methods, headers and bodies as a fuzzer (or a confused client) sends them: never a 5xx.
_segment = st.one_of(st.sampled_from(["worlds", "reset", "state", "health", "w1", "_gym", "", "..", "%00",
                                      "x" * 70]), st.text(min_size=0, max_size=12))
_json = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                     lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c, max_size=4),
                     max_leaves=20)
_fixture = st.fixed_dictionaries({"op": st.sampled_from(["insert", "update", "delete", "x"]),
                                  "table": st.sampled_from(["notes", "nope"]) | _json},
                                 optional={"rows": st.lists(st.dictionaries(
                                     st.sampled_from(["id", "title", "starred", "created_at", "zz"]), _json,
                                     max_size=4), max_size=3) | _json,
                                     "where": st.dictionaries(st.sampled_from(["id", "title", "zz"]), _json,
                                                              max_size=2) | _json,
                                     "set": st.dictionaries(st.sampled_from(["title", "starred", "created_at"]),
                                                            _json, max_size=2) | _json})
_reset_body = st.fixed_dictionaries({}, optional={
    "seed": st.integers(min_value=0, max_value=3) | _json,
    "now": st.sampled_from(["2026-03-12T10:24:00", "2026-03-12", "9999-12-31T23:59:59+14:00", "", "Z"])
    | _json,  # few distinct valid (seed, now): each builds a snapshot
    "fixtures": st.lists(_fixture, max_size=3) | _json,
}) | _json
_body = st.one_of(_reset_body.map(lambda b: json.dumps(b).encode()), st.binary(max_size=200),
                  _reset_body.map(lambda b: json.dumps(b).encode()[:-1]))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(method=st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"]),
       path=st.one_of(st.sampled_from(["/health", "/worlds/f1/reset", "/worlds/f1/state", "/worlds/f1"]),
                      st.lists(_segment, min_size=1, max_size=4).map(lambda s: "/" + "/".join(s))),
       body=_body,
       token=st.sampled_from([TOKEN, TOKEN, TOKEN, "", "nope", TOKEN + "\u00e9"]),
       content_type=st.sampled_from(["application/json", "text/plain", "", "application/json; charset=latin-1"]))
def test_fuzz_control_api_never_5xx(ctl, method, path, body, token, content_type):
    headers = {"X-Gym-Token": token} if token else {}
    # The raw path straight into the WSGI environ: the test client would parse '//x' as a host.
    r = ctl.open("/", method=method, data=body, headers=headers, content_type=content_type or None,
                 environ_overrides={"PATH_INFO": path.encode().decode("latin-1")})  # as a server passes it
    assert r.status_code < 500, (method, path, body[:200], r.status_code, r.get_data()[:300])
    if r.status_code >= 400 and method != "HEAD":
        assert r.is_json and r.json["error"]


# ------------------------------------------------------------------------------------- world binding
@pytest.fixture()
def bound(app, ctl):
    cookie = ctl.post("/worlds/bound/reset", json={"seed": 1}, headers=H).json["cookie"]
    return cookie["value"]


def test_a_bound_request_sees_its_world(app, bound):
    c = app.test_client()
    c.set_cookie(WORLD_COOKIE, bound)
    r = c.get("/")
    assert r.status_code == 200 and b"Note 1-1" in r.data


@pytest.mark.parametrize("value, code, message", [
    (None, 403, b"carries no world"),
    ("bound", 403, b"did not sign"),  # the bare id: what the cookie used to be
    ("made-up-world", 403, b"did not sign"),
    ("InZvcmdlZCI.bad-signature", 403, b"did not sign"),
])
def test_missing_and_forged_bindings_are_refused_and_create_nothing(app, bound, value, code, message):
    before = worlds_on_disk(app)
    c = app.test_client()
    if value is not None:
        c.set_cookie(WORLD_COOKIE, value)
    for path in ("/", "/second", "/notes/1/star"):
        r = c.post(path) if path.endswith("star") else c.get(path)
        assert r.status_code == code and message in r.data and b"<html" in r.data
    assert worlds_on_disk(app) == before


def test_an_unknown_world_is_refused_and_not_created(app):
    """A valid signature for a world that does not exist (dropped, or never reset): 410, no file."""
    before = worlds_on_disk(app)
    c = app.test_client()
    for wid in [f"ghost{i}" for i in range(5)]:  # each used to create a world file
        c.set_cookie(WORLD_COOKIE, sign_world(app, wid))
        r = c.get("/")
        assert r.status_code == 410 and b"does not exist" in r.data
    assert worlds_on_disk(app) == before


def test_another_apps_binding_is_refused(app, ctl, tmp_path):
    """Cookies do not isolate ports: a binding another clone signed (same token) must not open this one."""
    other = qa_clean.create_app({"TESTING": True, "GYM_TOKEN": TOKEN, "UIGYM_HOME": str(tmp_path)})
    ctl.post("/worlds/shared/reset", headers=H)
    c = app.test_client()
    c.set_cookie(WORLD_COOKIE, sign_world(other, "shared"))
    assert c.get("/").status_code == 403


def test_a_dropped_world_is_refused(app, ctl, bound):
    c = app.test_client()
    c.set_cookie(WORLD_COOKIE, bound)
    assert c.get("/").status_code == 200
    ctl.delete("/worlds/bound", headers=H)
    assert c.get("/").status_code == 410
    assert "bound" not in worlds_on_disk(app)


@pytest.mark.parametrize("path", ["/_gym/health", "//_gym/health", "/%5Fgym/health", "/_gym%2Fhealth",
                                  "/_gym/worlds/x/reset", "/%5fgym/worlds/x/reset", "/worlds/x/reset", "/health"])
def test_control_paths_on_the_page_port_are_404(app, bound, path):
    before = worlds_on_disk(app)
    bound_client, bare_client = app.test_client(), app.test_client()
    bound_client.set_cookie(WORLD_COOKIE, bound)
    for c in (bound_client, bare_client):
        for method in ("GET", "POST"):
            r = c.open(path, method=method, headers=H, json={"seed": 2})
            assert r.status_code in (404, 405), (path, method, r.status_code)
    assert worlds_on_disk(app) == before


def test_every_page_carries_the_csp(app, bound):
    c = app.test_client()
    c.set_cookie(WORLD_COOKIE, bound)
    for r in (c.get("/"), c.get("/nope"), app.test_client().get("/"), c.get("/_shared/static/parked.html")):
        csp = r.headers["Content-Security-Policy"]
        assert "connect-src 'self'" in csp and "worker-src 'none'" in csp and "form-action 'self'" in csp
        assert "sandbox " in csp and "allow-popups" not in csp
    page = c.get("/")
    nonce = page.headers["Content-Security-Policy"].split("'nonce-")[1].split("'")[0]
    assert f'<script nonce="{nonce}">'.encode() in page.data  # the toy's inline script runs, no other


def test_open_default_world_serves_a_cookieless_browser_only(tmp_path):
    """`apps.serve --browse`: a person's browser without a cookie sees `default`; forged cookies stay out."""
    app = toy.create_app({"TESTING": True, "GYM_TOKEN": TOKEN, "UIGYM_HOME": str(tmp_path),
                          "OPEN_DEFAULT_WORLD": True})
    assert app.test_client().get("/").status_code == 200
    c = app.test_client()
    c.set_cookie(WORLD_COOKIE, "default")
    assert c.get("/").status_code == 403


def test_binding_values_are_not_guessable(app):
    assert sign_world(app, "a") != sign_world(app, "b")
    assert set(sign_world(app, "a")) <= set(string.ascii_letters + string.digits + "-_.")


def test_the_clock_moves_forward_only_and_bad_bodies_are_400s(app, ctl):
    """POST /worlds/<id>/clock (the workspace env's wait): the frozen clock moved on, never back; the toy app has no
    on_clock, so nothing is delivered; a malformed body or an unknown world is a 400 naming what is wrong."""
    assert ctl.post("/worlds/clk/reset", json={"seed": 0, "now": "2026-03-12T10:00:00"}, headers=H).status_code == 200
    r = ctl.post("/worlds/clk/clock", json={"now": "2026-03-12T10:30:00"}, headers=H)
    assert r.status_code == 200 and r.get_json() == {"now": "2026-03-12T10:30:00", "delivered": 0}
    assert ctl.get("/worlds/clk/state", headers=H).get_json()["_meta"]["now"] == "2026-03-12T10:30:00"
    for body in ({"now": "2026-03-12T10:00:00"}, {"now": 5}, {}, {"now": "soon"}, {"now": "2026-03-13T00:00:00", "x": 1}):
        r = ctl.post("/worlds/clk/clock", json=body, headers=H)
        assert r.status_code == 400 and r.get_json()["error"], (body, r.get_json())
    assert ctl.post("/worlds/nowhere/clock", json={"now": "2026-03-13T00:00:00"}, headers=H).status_code == 400
