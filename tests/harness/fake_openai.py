"""A scripted OpenAI-compatible endpoint for agent tests: answers from a list, records every request."""

from __future__ import annotations

import json
import threading
from typing import Any, Callable

from werkzeug.serving import make_server
from werkzeug.wrappers import Request, Response


class FakeOpenAI:
    """replies: items are a message dict, a str (the content), an int (an HTTP error status to send),
    or a callable(request_body) -> message dict."""

    def __init__(self, replies: list[Any] | None = None, model: str = "fake-vlm"):
        self.replies = list(replies or [])
        self.requests: list[dict] = []
        self.model = model
        self._server = make_server("127.0.0.1", 0, self._app, threaded=True)
        self.base_url = f"http://127.0.0.1:{self._server.server_port}/v1"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> "FakeOpenAI":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()

    @Request.application
    def _app(self, request: Request) -> Response:
        if request.path.endswith("/models"):
            return Response(json.dumps({"object": "list", "data": [{"id": self.model, "object": "model"}]}),
                            content_type="application/json")
        body = json.loads(request.get_data() or b"{}")
        self.requests.append(body)
        item: Any = self.replies.pop(0) if self.replies else "DONE"
        if isinstance(item, int):
            return Response(json.dumps({"error": {"message": f"scripted {item}"}}), status=item,
                            content_type="application/json")
        if callable(item):
            item = item(body)
        message = item if isinstance(item, dict) else {"role": "assistant", "content": item}
        out = {"id": "x", "object": "chat.completion", "created": 0, "model": body.get("model"),
               "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
               "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110}}
        return Response(json.dumps(out), content_type="application/json")


def images_in(body: dict) -> int:
    return sum(1 for m in body["messages"] if isinstance(m.get("content"), list)
               for p in m["content"] if p.get("type") == "image_url")


def texts_in(body: dict) -> str:
    out = []
    for m in body["messages"]:
        c = m.get("content")
        if isinstance(c, str):
            out.append(c)
        elif isinstance(c, list):
            out.extend(p.get("text", "") for p in c if p.get("type") == "text")
    return "\n".join(out)


Reply = Callable[[dict], dict]
