"""The recorder's web page and its JSON API (Flask), served on 127.0.0.1 by default.

    GET  /                  the page: the live screen at 1:1, the goal, step count, errors, buttons
    GET  /api/state         the session as JSON (task, step, last_action_error, result, queue progress)
    GET  /api/screen.png    the current screen (PNG, the env's own pixels)
    POST /api/action        {"action": {...uigym action...}, "think_ms": 1234} -> state
    POST /api/done          {"answer": "..."} -> state (graded, saved)
    POST /api/restart       start the task again (an unfinished episode is discarded)
    POST /api/next          {"skip": false} the next task of the queue
    POST /api/quit          stop the server
"""

from __future__ import annotations

import threading
from pathlib import Path

from flask import Flask, Response, jsonify, request, send_from_directory
from werkzeug.serving import make_server

from agent_harness.record.session import Recorder, RecorderError

STATIC = Path(__file__).parent / "static"


def create_app(recorder: Recorder, on_quit=None) -> Flask:
    app = Flask(__name__, static_folder=None)

    @app.errorhandler(RecorderError)
    def _refused(e):
        return jsonify({"error": str(e), "state": recorder.state()}), 409

    @app.get("/")
    def index():
        return send_from_directory(STATIC, "record.html", max_age=0)

    @app.get("/static/<path:name>")
    def static_file(name: str):
        return send_from_directory(STATIC, name, max_age=0)

    @app.get("/api/state")
    def state():
        return jsonify(recorder.state())

    @app.get("/api/screen.png")
    def screen():
        png = recorder.screen()
        if png is None:
            return Response(status=404)
        return Response(png, mimetype="image/png", headers={"Cache-Control": "no-store"})

    def body() -> dict:
        data = request.get_json(silent=True)
        return data if isinstance(data, dict) else {}

    @app.post("/api/action")
    def action():
        data = body()
        if "action" not in data:
            raise RecorderError("the request needs an 'action'")
        return jsonify(recorder.act(data["action"], data.get("think_ms")))

    @app.post("/api/done")
    def done():
        data = body()
        answer = data.get("answer")
        return jsonify(recorder.done(answer if isinstance(answer, str) else None, data.get("think_ms")))

    @app.post("/api/restart")
    def restart():
        return jsonify(recorder.restart())

    @app.post("/api/next")
    def next_task():
        return jsonify(recorder.next(skip=bool(body().get("skip"))))

    @app.post("/api/quit")
    def quit_():
        if on_quit is not None:
            threading.Timer(0.1, on_quit).start()
        return jsonify({"ok": True})

    return app


class RecordServer:
    """The recorder behind its page, on a port (0: a free one); `serve_forever()` or `start()` in a thread."""

    def __init__(self, recorder: Recorder, host: str = "127.0.0.1", port: int = 0):
        self.recorder = recorder
        self.stopped = threading.Event()
        self.app = create_app(recorder, on_quit=self.shutdown)
        self.httpd = make_server(host, port, self.app, threaded=True)
        self.host = host
        self.port = self.httpd.server_port
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        if ":" in host and not host.startswith("["):
            host = f"[{host}]"
        return f"http://{host}:{self.port}/"

    def serve_forever(self) -> None:
        try:
            self.httpd.serve_forever()
        finally:
            self.stopped.set()

    def start(self) -> "RecordServer":
        self._thread = threading.Thread(target=self.serve_forever, name="uigym-record-http", daemon=True)
        self._thread.start()
        return self

    def shutdown(self) -> None:
        self.httpd.shutdown()

    def close(self) -> None:
        """Stop serving and close the recorder (its browser and app servers)."""
        if self._thread is not None:
            self.httpd.shutdown()
            self._thread.join(10)
        self.httpd.server_close()
        self.recorder.close()
