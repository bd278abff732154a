"""`uigym serve`: a transformers VLM behind the OpenAI chat completions API (the subset uigym uses).

    uigym serve --model PATH [--port 8000] [--served-model-name NAME]
    uigym serve --model tiny            # a tiny random Qwen2.5-VL, built on the spot

Endpoints: GET /v1/models, POST /v1/chat/completions (image_url data URLs, tools, logprobs,
temperature/top_p/seed/max_tokens/stop), GET /health. Errors come back as OpenAI error objects
({"error": {"message", "type", "param", "code"}}): every malformed request is a 400 (checked in one place,
agent_harness/serve/request.py), before the model sees it. Images are data: URLs only (http(s) with
--allow-remote-images); the server never opens a file a request names.
It speaks the same protocol as `vllm serve`, so `uigym eval --agent openai --base-url ...` runs
unchanged against either. On start it prints `UIGYM_SERVE_READY port=<n>` (for scripts and tests).

Why not `transformers serve`: in transformers 5.17 it refuses `logprobs` and `tool_choice`
(listed as unsupported fields), and RL rollouts need logprobs.
"""

from __future__ import annotations

import logging
import traceback

from flask import Flask, jsonify, request
from werkzeug.exceptions import HTTPException

from agent_harness.serve.engine import Engine
from agent_harness.serve.request import RequestError, parse_chat_request, parse_json_body

READY_PREFIX = "UIGYM_SERVE_READY port="
MAX_BODY_BYTES = 64 * 1024 * 1024  # a conversation with a few dozen base64 screenshots


def _error(status: int, message: str, kind: str = "invalid_request_error", param: str | None = None,
           code: str | None = None):
    return jsonify({"error": {"message": message, "type": kind, "param": param, "code": code}}), status


def create_server_app(engine: Engine, api_key: str | None = None, allow_remote_images: bool = False) -> Flask:
    """The Flask app over `engine`. `allow_remote_images`: also take http(s) image URLs (fetched by the
    server); off, only data: URLs are accepted."""
    app = Flask("uigym-serve")
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES

    @app.errorhandler(HTTPException)
    def _http_error(e: HTTPException):
        # Werkzeug's own answers (404, 405, 413 for a body over MAX_BODY_BYTES) in OpenAI's shape too.
        kind = "not_found_error" if e.code == 404 else "invalid_request_error"
        return _error(e.code or 400, str(e.description or e.name), kind)

    @app.before_request
    def _auth():
        if api_key and request.path.startswith("/v1/"):
            if request.headers.get("Authorization", "") != f"Bearer {api_key}":
                return _error(401, "invalid API key", "authentication_error")
        return None

    @app.get("/health")
    def health():
        return {"status": "ok", "model": engine.name}

    @app.get("/v1/models")
    def models():
        return engine.models()

    @app.post("/v1/chat/completions")
    def chat():
        try:
            req = parse_chat_request(parse_json_body(request.get_data(cache=False)),
                                     allow_remote_images=allow_remote_images)
            if req.model not in (None, engine.name, engine.path):
                return _error(404, f"the model {req.model!r} does not exist; this server serves {engine.name!r}",
                              "not_found_error", "model", "model_not_found")
            return engine.chat(req)
        except RequestError as e:
            return _error(e.status, e.message, param=e.param, code=e.code)
        except Exception as e:  # noqa: BLE001 - a bug of ours: report, keep serving
            logging.getLogger("uigym.serve").error("generation failed: %s", traceback.format_exc())
            return _error(500, f"{type(e).__name__}: {e}", "server_error")

    return app


def serve(model: str, *, host: str = "127.0.0.1", port: int = 8000, served_name: str | None = None,
          device: str = "cpu", dtype: str = "auto", api_key: str | None = None, quiet: bool = False,
          allow_remote_images: bool = False, max_model_len: int | None = None) -> None:
    from werkzeug.serving import make_server

    if model == "tiny":
        from agent_harness.models import cached_tiny_qwen25vl

        model = str(cached_tiny_qwen25vl())
        served_name = served_name or "tiny-qwen2.5-vl"
    engine = Engine(model, served_name=served_name, device=device, dtype=dtype, max_model_len=max_model_len)
    app = create_server_app(engine, api_key=api_key, allow_remote_images=allow_remote_images)
    if quiet:
        logging.getLogger("werkzeug").setLevel(logging.WARNING)
    server = make_server(host, port, app, threaded=True)
    print(f"{READY_PREFIX}{server.server_port} model={engine.name}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
