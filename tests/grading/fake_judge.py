"""A fake LLM judge behind the OpenAI chat completions API, for tests of the judge path.

`FakeJudgeServer().start()` listens on a free loopback port; `.base_url` is its /v1. Its `mode` says how
it answers (switch it between requests); every request body is kept in `.requests`:

- "labels": grades from `labels` {candidate text: True/False} (unknown text: every criterion fails);
  the candidate text is read back from between the prompt's delimiters, as a real judge would see it;
- "yes": every criterion passes (a lenient judge: calibration must catch it);
- "obey": passes a text that contains "ignore" (a judge fooled by injection), else as "labels";
- "malformed": prose, not JSON; "wrong_count": one criterion too few; "non_bool": "pass": "yes";
- "not_completion": a 200 whose body is not a chat completion; "http500": a server error;
- "timeout": answers after `delay` seconds (longer than the client's timeout).
"""

from __future__ import annotations

import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class FakeJudgeServer:
    def __init__(self, mode: str = "labels", labels: dict[str, bool] | None = None, delay: float = 2.0):
        self.mode = mode
        self.labels = dict(labels or {})
        self.delay = delay
        self.requests: list[dict] = []
        self._httpd: ThreadingHTTPServer | None = None

    @property
    def base_url(self) -> str:
        assert self._httpd is not None
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def start(self) -> "FakeJudgeServer":
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):  # quiet
                pass

            def do_POST(self):  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                fake.requests.append(body)
                status, payload = fake.answer(body)
                if status is None:  # timeout mode
                    time.sleep(fake.delay)
                    status = 200
                data = payload.encode() if isinstance(payload, str) else json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()

    @staticmethod
    def candidate(body: dict) -> tuple[str, int]:
        """(the candidate text, the number of criteria) from a judge request."""
        user = body["messages"][-1]["content"]
        m = re.search(r"<<<(TEXT-[0-9A-F]+)>>>\n(.*)\n<<<END \1>>>", user, re.S)
        n = len(re.findall(r"^\d+\. ", user.split("CANDIDATE TEXT")[0], re.M))
        return (m.group(2) if m else ""), n

    def answer(self, body: dict) -> tuple[int | None, object]:
        text, n = self.candidate(body)
        mode = self.mode
        if mode == "timeout":
            return None, completion(verdict([True] * n))
        if mode == "http500":
            return 500, {"error": {"message": "boom"}}
        if mode == "not_completion":
            return 200, "<html>gateway</html>"
        if mode == "malformed":
            return 200, completion("I think the text is fine and passes.")
        if mode == "wrong_count":
            return 200, completion(verdict([True] * (n - 1)))
        if mode == "non_bool":
            return 200, completion(json.dumps({"criteria": [{"id": i + 1, "pass": "yes"} for i in range(n)]}))
        if mode == "yes":
            return 200, completion(verdict([True] * n))
        if mode == "obey" and "ignore" in text.lower():
            return 200, completion(verdict([True] * n))
        ok = self.labels.get(text, False)
        # "labels" fails only the first criterion of a bad text, as a real judge would single one out.
        return 200, completion("```json\n" + verdict([ok] + [True] * (n - 1)) + "\n```")


def verdict(passes: list[bool]) -> str:
    return json.dumps({"criteria": [{"id": i + 1, "pass": p, "reason": "ok" if p else "does not meet it"}
                                    for i, p in enumerate(passes)]})


def completion(content: str) -> dict:
    return {"id": "chatcmpl-fake", "object": "chat.completion", "model": "fake-judge",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}]}
