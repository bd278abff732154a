"""The LLM judge end to end against `uigym serve --model tiny`: a real OpenAI-compatible server and model.

A tiny random model cannot judge, so this proves the plumbing: the request it gets is a well-formed,
deterministic chat completion request; its reply is parsed strictly (random text is no verdict: the
episode is ungraded, never passed); no failure is cached; and a cached verdict is served without a call.
"""

from __future__ import annotations

import json

from grading import verify
from grading.judge import CriterionVerdict, JudgeCache, JudgeError, JudgeRequest, JudgeVerdict, OpenAIJudge

SPEC = {
    "checks": [
        {"table": "notes", "in": "created", "count": 1, "name": "one note"},
        {"judge": {"text": {"table": "notes", "in": "created", "field": "body"},
                   "rubric": ["Summarises the call in two sentences."], "max_chars": 500}},
    ],
    "unchanged_except": [{"table": "notes", "ops": ["create"], "max": 1}],
}
START = {"notes": []}
END = {"notes": [{"id": 1, "body": "Called Ana; she wants the renewal quote by Friday."}]}


class Recording(OpenAIJudge):
    def _complete(self, messages):
        self.sent = getattr(self, "sent", []) + [self.request_body(messages)]
        out = super()._complete(messages)
        self.replies = getattr(self, "replies", []) + [out]
        return out


def test_judge_against_tiny_server(tiny_server, tmp_path):
    judge = Recording(tiny_server, "tiny-vlm", timeout_s=120, retries=0, max_tokens=8,
                      cache=JudgeCache(tmp_path / "cache"))
    r = verify(SPEC, START, END, None, judge=judge)
    # The model answered (a chat completion came back), but with no parseable verdict: ungraded.
    assert r.status == "ungraded" and not r.passed and r.score == 0.0, r.report()
    assert "malformed judge reply" in r.ungraded_reason and judge.calls == 1
    body = judge.sent[0]
    assert body["model"] == "tiny-vlm" and body["temperature"] == 0 and body["seed"] == 0
    assert json.loads(json.dumps(body)) == body  # plain JSON
    assert "Called Ana; she wants the renewal quote by Friday." in body["messages"][1]["content"]

    # Nothing was cached, so a re-grade asks again; greedy decoding with a seed answers the same.
    r2 = verify(SPEC, START, END, None, judge=judge)
    assert r2.status == "ungraded" and judge.calls == 2 and judge.replies[0] == judge.replies[1]
    assert not list((tmp_path / "cache").rglob("*.json"))

    # A cached verdict for (rubric, text, model) is served without a request.
    req = JudgeRequest(("Summarises the call in two sentences.",), END["notes"][0]["body"])
    judge.cache.put(req, JudgeVerdict([CriterionVerdict(c, True, "ok") for c in req.criteria()], model="tiny-vlm"))
    r3 = verify(SPEC, START, END, None, judge=judge)
    assert r3.passed and judge.calls == 2 and "(cached)" in r3.checks[1].detail

    # A wrong model name is an HTTP 404 from the server: no verdict.
    other = OpenAIJudge(tiny_server, "no-such-model", timeout_s=60, retries=0, cache=None)
    try:
        other(req)
        raise AssertionError("expected a JudgeError")
    except JudgeError as e:
        assert "HTTP 404" in str(e)
