"""`uigym serve`: a transformers VLM behind the OpenAI chat completions API (the subset uigym uses).

    uigym serve --model PATH [--port 8000] [--served-model-name NAME]
    uigym serve --model tiny            # a tiny random Qwen2.5-VL, built on the spot

Endpoints: GET /v1/models, POST /v1/chat/completions (image_url data URLs, tools, logprobs,
temperature/top_p/seed/max_tokens/stop), GET /health. Errors come back as OpenAI error objects.
It speaks the same protocol as `vllm serve`, so `uigym eval --agent openai --base-url ...` runs
unchanged against either. On start it prints `UIGYM_SERVE_READY port=<n>` (for scripts and tests).

Why not `transformers serve`: in transformers 5.17 it refuses `logprobs` and `tool_choice`
(listed as unsupported fields), and RL rollouts need logprobs.
"""

from __future__ import annotations

import logging
import traceback

from flask import Flask, jsonify, request

from agent_harness.serve.engine import Engine, RequestError

READY_PREFIX = "UIGYM_SERVE_READY port="


def _error(status: int, message: str, kind: str = "invalid_request_error"):
    return jsonify({"error": {"message": message, "type": kind, "code": status}}), status


def create_server_app(engine: Engine, api_key: str | None = None) -> Flask:
    app = Flask("uigym-serve")

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
        body = request.get_json(silent=True)
        if not isinstance(body, dict):
            return _error(400, "the body must be a JSON object")
        if body.get("stream"):
            return _error(400, "stream=true is not supported by uigym serve")
        model = body.get("model")
        if model not in (None, engine.name, engine.path):
            return _error(404, f"the model {model!r} does not exist; this server serves {engine.name!r}",
                          "not_found_error")
        try:
            return engine.chat(body)
        except RequestError as e:
            return _error(400, str(e))
        except Exception as e:  # noqa: BLE001 - report, keep serving
            logging.getLogger("uigym.serve").error("generation failed: %s", traceback.format_exc())
            return _error(500, f"{type(e).__name__}: {e}", "server_error")

    return app


def serve(model: str, *, host: str = "127.0.0.1", port: int = 8000, served_name: str | None = None,
          device: str = "cpu", dtype: str = "auto", api_key: str | None = None, quiet: bool = False) -> None:
    from werkzeug.serving import make_server

    if model == "tiny":
        from agent_harness.models import cached_tiny_qwen25vl

        model = str(cached_tiny_qwen25vl())
        served_name = served_name or "tiny-qwen2.5-vl"
    engine = Engine(model, served_name=served_name, device=device, dtype=dtype)
    app = create_server_app(engine, api_key=api_key)
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
