"""Code checks: registered Python checks named by a spec, process checks read from the trajectory."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from grading import CODE_CHECKS, CodeResult, VerifySpec, code_check, verify

START = {"messages": [{"id": 1, "body": "a"}]}
END = {"messages": [{"id": 1, "body": "a"}, {"id": 2, "body": "b"}]}
TRAJ = [{"step": 1, "action": {"type": "click", "x": 1, "y": 2}, "url": "http://127.0.0.1:5000/inbox", "error": ""},
        {"step": 2, "action": {"type": "keypress", "keys": ["Control", "f"]}, "url": "http://127.0.0.1:5000/settings/filters",
         "error": ""},
        {"step": 3, "action": {"type": "done"}, "url": "http://127.0.0.1:5000/inbox", "error": ""}]


def one(check: dict, trajectory=TRAJ, start=START, end=END, answer=None):
    r = verify({"checks": [check]}, start, end, answer, trajectory=trajectory)
    return r.checks[0], r


def test_process_checks_read_the_trajectory():
    c, _ = one({"code": "steps_at_most", "args": {"n": 3}})
    assert c.passed and c.kind == "code" and c.detail == "3 step(s), budget 3"
    assert not one({"code": "steps_at_most", "args": {"n": 2}})[0].passed
    c, _ = one({"code": "never_visited", "args": {"path": "/settings"}})
    assert not c.passed and "step 2 was on /settings/filters" in c.detail
    assert one({"code": "never_visited", "args": {"path": "/contacts"}})[0].passed
    assert not one({"code": "no_action", "args": {"type": "keypress", "key": "f"}})[0].passed
    assert one({"code": "no_action", "args": {"type": "drag"}})[0].passed


def test_a_process_check_without_a_trajectory_fails():
    c, r = one({"code": "steps_at_most", "args": {"n": 30}}, trajectory=None)
    assert not c.passed and "no trajectory" in c.detail and r.score == 0


def test_state_code_check_and_spec_errors():
    assert one({"code": "created_at_most", "args": {"table": "messages", "n": 1}})[0].passed
    assert not one({"code": "created_at_most", "args": {"table": "messages", "n": 0}})[0].passed
    with pytest.raises(ValidationError, match="did you mean 'steps_at_most'"):
        VerifySpec.model_validate({"checks": [{"code": "steps_at_mots", "args": {"n": 1}}]})
    with pytest.raises(ValidationError, match="missing args"):
        VerifySpec.model_validate({"checks": [{"code": "steps_at_most"}]})
    with pytest.raises(ValidationError, match="must be int"):
        VerifySpec.model_validate({"checks": [{"code": "steps_at_most", "args": {"n": "3"}}]})
    with pytest.raises(ValidationError, match="exactly one of"):
        VerifySpec.model_validate({"checks": [{"code": "steps_at_most", "table": "x"}]})
    spec = {"checks": [{"code": "steps_at_most", "args": {"n": 3}, "name": "budget"}]}
    assert VerifySpec.model_validate(spec).model_dump(exclude_none=True)["checks"][0]["code"] == "steps_at_most"


def test_registered_checks_scores_and_crashes():
    @code_check("_test_half", args={})
    def half(ctx):
        return 0.5, f"answer {ctx.answer!r}"

    @code_check("_test_boom")
    def boom(ctx):
        raise RuntimeError("bug")

    @code_check("_test_result", args={"want": str})
    def result(ctx, want):
        return CodeResult(ctx.answer == want, "compared")

    try:
        r = verify({"checks": [{"code": "_test_half"}, {"code": "_test_result", "args": {"want": "x"}}],
                    "scoring": "fraction"}, START, END, "x", trajectory=[])
        assert r.checks[0].score == 0.5 and not r.checks[0].passed and r.score == 0.75
        c, r = one({"code": "_test_boom"})
        assert not c.passed and "internal error in code check '_test_boom': RuntimeError: bug" in c.detail
    finally:
        for k in ("_test_half", "_test_boom", "_test_result"):
            CODE_CHECKS.pop(k, None)
