"""`uigym serve` refuses what it cannot answer with a 400 in OpenAI's error shape, never a 5xx or a logged
traceback, and never reads a file a request names.

Most properties run against the server over a stub engine: the request is checked before the model, so no
model loads. What only the model can tell (decoding, context length) runs over the tiny model, in-process.
"""

from __future__ import annotations

import base64
import http.server
import io
import json
import logging
import math
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from agent_harness.serve import create_server_app
from agent_harness.serve.request import ChatRequest

SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                            HealthCheck.too_slow])


def png_bytes(color=(20, 120, 200), size=(64, 48)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", size, color).save(buf, format="PNG")
    return buf.getvalue()


def data_url(**kw) -> str:
    return "data:image/png;base64," + base64.b64encode(png_bytes(**kw)).decode()


def valid_body(**extra) -> dict:
    return {"model": "tiny-vlm", "max_tokens": 3, "temperature": 0.7, "top_p": 0.9, "seed": 1, "n": 1,
            "stop": ["\n\n"], "logprobs": True, "top_logprobs": 2,
            "tools": [{"type": "function", "function": {"name": "click", "description": "click",
                                                        "parameters": {"type": "object", "properties": {}}}}],
            "tool_choice": "auto",
            "messages": [{"role": "system", "content": "be brief"},
                         {"role": "user", "content": [{"type": "text", "text": "go"},
                                                      {"type": "image_url", "image_url": {"url": data_url()}}]},
                         {"role": "assistant", "content": None, "tool_calls": [
                             {"id": "c1", "type": "function", "function": {"name": "click", "arguments": "{}"}}]},
                         {"role": "tool", "tool_call_id": "c1", "content": "ok"}],
            **extra}


class StubEngine:
    """The server's engine without a model: records what reached it."""

    name, path = "tiny-vlm", "/models/tiny-vlm"

    def __init__(self):
        self.calls: list[ChatRequest] = []

    def models(self):
        return {"object": "list", "data": []}

    def chat(self, req):
        assert isinstance(req, ChatRequest)
        self.calls.append(req)
        return {"object": "chat.completion", "choices": [{"index": 0, "message": {"role": "assistant", "content": ""},
                                                          "finish_reason": "stop", "logprobs": None}]}


class LogTrap(logging.Handler):
    """Every log record of the process while installed (hypothesis cannot take pytest's caplog per example)."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record):
        self.records.append(record)

    def problems(self) -> list[str]:
        out = []
        for r in self.records:
            text = r.getMessage()
            if r.exc_info or r.levelno >= logging.ERROR or "Traceback" in text:
                out.append(f"{r.levelname} {r.name}: {text[:300]}")
        return out

    def __enter__(self):
        logging.getLogger().addHandler(self)
        return self

    def __exit__(self, *exc):
        logging.getLogger().removeHandler(self)


def assert_openai_error(r, status: int | None = None):
    assert r.status_code < 500, r.get_data(as_text=True)[:500]
    if status is not None:
        assert r.status_code == status, r.get_data(as_text=True)[:500]
    err = r.get_json()["error"]
    assert set(err) == {"message", "type", "param", "code"}
    assert isinstance(err["message"], str) and err["message"] and "Traceback" not in err["message"]
    assert err["type"] in ("invalid_request_error", "not_found_error", "authentication_error")
    return err


@pytest.fixture(scope="module")
def tiny_engine(tiny_model):
    from agent_harness.serve.engine import Engine

    return Engine(str(tiny_model), served_name="tiny-vlm")


@pytest.fixture()
def tiny_client(tiny_engine):
    """(test client, engine) of the server over the tiny model, with or without remote images."""
    return lambda allow_remote_images: (create_server_app(tiny_engine, allow_remote_images=allow_remote_images)
                                        .test_client(), tiny_engine)


@pytest.fixture()
def stub():
    engine = StubEngine()
    return engine, create_server_app(engine).test_client()


def post(client, body) -> object:
    raw = body if isinstance(body, (bytes, str)) else json.dumps(body)  # NaN and Infinity go out as JSON5-ish literals
    return client.post("/v1/chat/completions", data=raw, content_type="application/json")


# ----------------------------------------------------------------------------- every field, malformed

FIELDS = ["model", "messages", "tools", "tool_choice", "max_tokens", "max_completion_tokens", "temperature", "top_p",
          "n", "seed", "stop", "logprobs", "top_logprobs", "stream"]
# Places inside the body (a path of keys and indexes) that junk replaces.
PLACES = [(f,) for f in FIELDS] + [
    ("messages", 0), ("messages", 0, "role"), ("messages", 0, "content"), ("messages", 1, "content", 0),
    ("messages", 1, "content", 0, "type"), ("messages", 1, "content", 0, "text"), ("messages", 1, "content", 1),
    ("messages", 1, "content", 1, "image_url"), ("messages", 1, "content", 1, "image_url", "url"),
    ("messages", 2, "tool_calls"), ("messages", 2, "tool_calls", 0), ("messages", 2, "tool_calls", 0, "function"),
    ("messages", 2, "tool_calls", 0, "function", "name"), ("messages", 2, "tool_calls", 0, "function", "arguments"),
    ("messages", 3, "tool_call_id"), ("tools", 0), ("tools", 0, "function"), ("tools", 0, "function", "name"),
    ("tools", 0, "function", "parameters"), ("stop", 0)]

scalars = (st.none() | st.booleans() | st.integers() | st.integers(min_value=2**63 - 2, max_value=2**80)
           | st.integers(min_value=-2**80, max_value=-1) | st.floats(allow_nan=True, allow_infinity=True)
           | st.sampled_from([math.nan, math.inf, -math.inf, 1e308, -0.0, 2**53 + 1.0])
           | st.text(max_size=20) | st.sampled_from(["abc", "", "1", "3.5", "NaN", "/etc/passwd", "file:///etc/passwd",
                                                     "data:", "data:image/png;base64,!!!", "http://127.0.0.1:1/x.png"]))
junk = st.recursive(scalars, lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c, max_size=4),
                    max_leaves=12)


def replaced(body, place, value):
    body = json.loads(json.dumps(body))
    cur = body
    for step in place[:-1]:
        cur = cur[step]
    cur[place[-1]] = value
    return body


@SETTINGS
@given(place=st.sampled_from(PLACES), value=junk)
def test_any_field_replaced_by_junk_is_answered_without_a_5xx_or_a_traceback(stub, place, value):
    engine, client = stub
    with LogTrap() as trap:
        r = post(client, replaced(valid_body(), place, value))
    assert trap.problems() == []
    if r.status_code == 200:
        assert engine.calls  # valid after all (e.g. a seed that happens to be an int in range)
    else:
        err = assert_openai_error(r)
        assert r.status_code in (400, 404)
        if r.status_code == 400 and len(place) == 1:
            assert err["param"] is not None and err["param"].startswith(place[0]), (place, err)


@SETTINGS
@given(body=junk | st.dictionaries(st.sampled_from(FIELDS + ["x"]), junk, max_size=6))
def test_any_json_at_all_is_answered_without_a_5xx(stub, body):
    _, client = stub
    with LogTrap() as trap:
        r = post(client, body)
    assert trap.problems() == []
    if r.status_code != 200:
        assert_openai_error(r)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=st.binary(max_size=200) | st.sampled_from([b"", b"{", b"[" * 5000 + b"]" * 5000,
                                                       b'{"messages": ' + b"[" * 100_000, b"\xff\xfe{}"]))
def test_bytes_that_are_not_a_json_object_get_a_400(stub, raw):
    _, client = stub
    with LogTrap() as trap:
        r = post(client, raw)
    assert trap.problems() == []
    assert_openai_error(r, 400)


def test_deep_nesting_inside_a_valid_request_gets_a_400(stub):
    engine, client = stub
    deep: object = {}
    for _ in range(500):
        deep = {"a": deep}
    r = post(client, replaced(valid_body(), ("tools", 0, "function", "parameters"), deep))
    assert "nests too deeply" in assert_openai_error(r, 400)["message"] and not engine.calls


@pytest.mark.parametrize("field, value", [
    ("max_tokens", "abc"), ("max_tokens", -1), ("max_tokens", 0), ("max_tokens", 2**70), ("max_tokens", 3.5),
    ("max_tokens", True), ("max_completion_tokens", "8"), ("temperature", math.nan), ("temperature", math.inf),
    ("temperature", -math.inf), ("temperature", -0.5), ("temperature", 1e308), ("temperature", "0.7"),
    ("top_p", math.nan), ("top_p", 0), ("top_p", 1.5), ("top_p", math.inf), ("n", 2), ("n", 2**70), ("n", "1"),
    ("seed", 2**70), ("seed", -(2**70)), ("seed", 1.5), ("seed", "7"), ("stop", 5), ("stop", [1, 2]), ("stop", {}),
    ("stop", [""]), ("stop", ["x"] * 100), ("logprobs", "yes"), ("top_logprobs", 10**6), ("top_logprobs", -1),
    ("stream", True), ("stream", "no"), ("tools", "click"), ("tool_choice", "sometimes"), ("messages", []),
    ("messages", "hi"), ("messages", [{"role": "robot", "content": "hi"}]), ("model", 5),
])
def test_a_malformed_field_is_a_400_naming_it(stub, field, value):
    engine, client = stub
    r = post(client, valid_body(**{field: value}))
    err = assert_openai_error(r, 400)
    assert err["param"].split(".")[0].split("[")[0] == field and field in err["message"]
    assert not engine.calls


def test_an_unknown_model_is_a_404_and_werkzeug_errors_keep_the_shape(stub):
    engine, client = stub
    err = assert_openai_error(post(client, valid_body(model="gpt-9")), 404)
    assert "does not exist" in err["message"] and err["param"] == "model"
    assert_openai_error(client.get("/v1/chat/completions"), 405)
    assert_openai_error(client.get("/v1/nothing"), 404)
    assert not engine.calls
    assert post(client, valid_body(frequency_penalty=0.5, user="u")).status_code == 200  # unknown keys ignored


# ----------------------------------------------------------------------------- images: nothing from disk


class OpenWatch:
    """Every file this process opens while watching (an audit hook: it sees open() from any library)."""

    installed: "OpenWatch | None" = None

    def __init__(self):
        self.paths: list[str] = []
        self.on = False
        if OpenWatch.installed is None:
            sys.addaudithook(OpenWatch._hook)  # hooks cannot be removed: one per process, switched on and off
        OpenWatch.installed = self

    @staticmethod
    def _hook(event, args):
        w = OpenWatch.installed
        if w is not None and w.on and event == "open" and args and isinstance(args[0], (str, bytes, Path)):
            w.paths.append(str(args[0]))


def image_body(url) -> dict:
    return {"max_tokens": 2, "messages": [{"role": "user", "content": [
        {"type": "image_url", "image_url": {"url": url}}, {"type": "text", "text": "hi"}]}]}


def test_an_image_url_naming_a_file_is_refused_alike_whether_or_not_it_exists(tiny_client, tmp_path):
    client, _engine = tiny_client(allow_remote_images=False)
    canary = tmp_path / "canary.png"
    canary.write_bytes(png_bytes((255, 0, 0)))
    missing = tmp_path / "missing.png"
    watch = OpenWatch()
    answers = {}
    watch.on = True
    try:
        for name, url in [("path", str(canary)), ("file", canary.as_uri()), ("missing", str(missing)),
                          ("missing-file", missing.as_uri()), ("relative", "canary.png"), ("home", "~/canary.png"),
                          ("FILE", "FILE://" + str(canary)), ("http", "http://127.0.0.1:9/x.png")]:
            for shape in ({"url": url}, url):  # image_url as an object and as a bare string
                body = image_body(url)
                body["messages"][0]["content"][0]["image_url"] = shape
                r = post(client, body)
                answers[name, isinstance(shape, str)] = (r.status_code, r.get_json())
    finally:
        watch.on = False
    assert not [p for p in watch.paths if "canary" in p or "missing" in p]
    first = next(iter(answers.values()))
    assert first[0] == 400 and "data: URLs" in first[1]["error"]["message"]
    assert all(a == first for a in answers.values()), answers


def test_a_data_url_image_is_answered_and_broken_ones_are_400s(tiny_client):
    client, _engine = tiny_client(allow_remote_images=False)
    assert post(client, image_body(data_url())).status_code == 200
    for url, needle in [("data:image/png;base64,AAAA", "cannot decode image"), ("data:image/png,abc", "base64"),
                        ("data:image/png;base64,@@@", "not base64"), ("data:", "no ','")]:
        err = assert_openai_error(post(client, image_body(url)), 400)
        assert needle in err["message"], (url, err)


def test_http_images_are_fetched_only_with_the_flag(tiny_client):
    png = png_bytes((0, 200, 0))

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.end_headers()
            self.wfile.write(png)

        def log_message(self, *a):
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{srv.server_port}/shot.png"
        off, _ = tiny_client(allow_remote_images=False)
        err = assert_openai_error(post(off, image_body(url)), 400)
        assert "--allow-remote-images" in err["message"]
        on, _ = tiny_client(allow_remote_images=True)
        r = post(on, image_body(url))
        assert r.status_code == 200 and r.get_json()["usage"]["prompt_tokens"] > 1
        assert_openai_error(post(on, image_body(f"http://127.0.0.1:{srv.server_port}x/")), 400)
        assert post(on, image_body("/etc/hostname")).get_json() == post(on, image_body("/no/such")).get_json()
    finally:
        srv.shutdown()


# ----------------------------------------------------------------------------- the model's limits


def test_a_prompt_past_the_context_length_is_a_400_saying_so(tiny_client, monkeypatch):
    client, engine = tiny_client(allow_remote_images=False)
    monkeypatch.setattr(engine, "max_model_len", 64)
    ok = post(client, {"max_tokens": 2, "messages": [{"role": "user", "content": "hi"}]})
    assert ok.status_code == 200 and ok.get_json()["usage"]["total_tokens"] <= 64
    err = assert_openai_error(post(client, {"messages": [{"role": "user", "content": "word " * 400}]}), 400)
    assert err["code"] == "context_length_exceeded" and "maximum context length is 64 tokens" in err["message"]
    err = assert_openai_error(post(client, {"max_tokens": 65, "messages": [{"role": "user", "content": "hi"}]}), 400)
    assert err["param"] == "max_tokens" and "context length" in err["message"]
    # a max_tokens within the context but past what is left of it is cut to fit, as before
    r = post(client, {"max_tokens": 64, "messages": [{"role": "user", "content": "hi"}]})
    assert r.status_code == 200 and r.get_json()["usage"]["total_tokens"] <= 64


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(max_size=40), stop=st.none() | st.text(min_size=1, max_size=6)
       | st.lists(st.text(min_size=1, max_size=6), min_size=1, max_size=4),
       seed=st.none() | st.integers(min_value=-(2**63), max_value=2**64 - 1) | st.sampled_from([-(2**63), 2**64 - 1]),
       temperature=st.none() | st.sampled_from([0.0, 5e-324, 1e-6, 2.0]) | st.floats(min_value=0, max_value=2), top_p=st.none() | st.floats(min_value=1e-6, max_value=1),
       top_logprobs=st.none() | st.integers(0, 20), logprobs=st.none() | st.booleans(),
       max_tokens=st.none() | st.integers(1, 3), role=st.sampled_from(["user", "system", "assistant", "tool"]))
def test_every_valid_request_is_answered_by_the_tiny_model(tiny_client, text, stop, seed, temperature, top_p,
                                                           top_logprobs, logprobs, max_tokens, role):
    client, _ = tiny_client(allow_remote_images=False)
    body = {"messages": [{"role": role, "content": text}, {"role": "user", "content": text}], "stop": stop,
            "seed": seed, "temperature": temperature, "top_p": top_p, "top_logprobs": top_logprobs,
            "logprobs": logprobs, "max_tokens": max_tokens or 2}
    with LogTrap() as trap:
        r = post(client, body)
    assert trap.problems() == []
    assert r.status_code == 200, r.get_data(as_text=True)[:500]
    assert r.get_json()["usage"]["completion_tokens"] <= (max_tokens or 2)
