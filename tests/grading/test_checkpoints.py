"""Partial credit by checkpoints (#38): a long task's milestones, each reached when the checks it names pass; the
share reached is the score only under `partial_credit` (off by default), a failed guard scores 0, and the binary
pass is the same either way."""

from __future__ import annotations

import copy

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from pydantic import ValidationError

from grading import VerifySpec, verify

# Two milestones and a guard over a small mail world: message 10 starred, message 11 read (milestones), message 12
# left unread (a guard no milestone names), and nothing else changed (unchanged_except, a guard too).
SPEC = {
    "checks": [
        {"name": "starred", "table": "messages", "where": {"id": 10}, "expect": {"starred": True}},
        {"name": "read", "table": "messages", "where": {"id": 11}, "expect": {"unread": False}},
        {"name": "12 untouched", "table": "messages", "where": {"id": 12}, "expect": {"unread": True}},
    ],
    "unchanged_except": [{"table": "messages", "where": {"id": {"$in": [10, 11, 13]}},
                          "fields": ["starred", "unread"]}],
    "checkpoints": [{"name": "the message starred", "checks": ["starred"]},
                    {"name": "the invoice read", "checks": ["read"]}],
}


def world() -> dict:
    return {"messages": [{"id": 10, "starred": False, "unread": True}, {"id": 11, "starred": False, "unread": True},
                         {"id": 12, "starred": False, "unread": True}, {"id": 13, "starred": False, "unread": True}]}


def end_state(star_10: bool, read_11: bool, read_12: bool, star_13: bool, delete_13: bool) -> dict:
    end = copy.deepcopy(world())
    rows = {r["id"]: r for r in end["messages"]}
    rows[10]["starred"] = star_10
    rows[11]["unread"] = not read_11
    rows[12]["unread"] = not read_12
    rows[13]["starred"] = star_13
    if delete_13:  # a change no allowance covers
        end["messages"] = [r for r in end["messages"] if r["id"] != 13]
    return end


@given(star_10=st.booleans(), read_11=st.booleans(), read_12=st.booleans(), star_13=st.booleans(),
       delete_13=st.booleans(), partial_credit=st.booleans())
@example(star_10=True, read_11=False, read_12=True, star_13=False, delete_13=False, partial_credit=True)  # a guard
@example(star_10=True, read_11=True, read_12=False, star_13=False, delete_13=True, partial_credit=True)  # extra harm
def test_partial_credit_is_the_share_reached_zero_on_a_failed_guard_and_never_moves_the_pass(
        star_10, read_11, read_12, star_13, delete_13, partial_credit):
    end = end_state(star_10, read_11, read_12, star_13, delete_13)
    r = verify(SPEC, world(), end, None, partial_credit=partial_credit)
    binary = verify(SPEC, world(), end, None)
    guards_ok = not read_12 and not delete_13
    share = (star_10 + read_11) / 2
    assert r.passed == binary.passed == (star_10 and read_11 and guards_ok)
    assert [c.reached for c in r.checkpoints] == [star_10, read_11]
    assert r.partial == (share if guards_ok else 0.0)
    assert binary.score == float(binary.passed)  # off by default: the score is the pass
    assert r.score == (r.partial if partial_credit else float(r.passed))
    assert (r.score >= 1.0) == r.passed  # a results row's `passed` (reward >= 1) holds under partial credit too
    assert r.checks == binary.checks


def test_the_start_state_reaches_no_checkpoint():
    r = verify(SPEC, world(), world(), None, partial_credit=True)
    assert r.partial == 0.0 and r.score == 0.0 and not r.passed


def test_a_spec_without_checkpoints_has_no_partial():
    spec = {k: v for k, v in SPEC.items() if k != "checkpoints"}
    end = end_state(True, False, False, False, False)
    r = verify(spec, world(), end, None, partial_credit=True)
    assert r.checkpoints is None and r.partial is None and r.score == 0.0


@pytest.mark.parametrize("checkpoints, error", [
    ([], "must not be empty"),
    ([{"name": "x", "checks": ["no such check"]}], "not a check of this spec"),
    ([{"name": "x", "checks": ["starred"]}, {"name": "x", "checks": ["read"]}], "unique"),
    ([{"name": "x", "checks": ["starred"]}, {"name": "y", "checks": ["starred"]}], "two checkpoints"),
    ([{"name": "x", "checks": []}], "at least 1"),
])
def test_checkpoints_that_name_nothing_real_are_refused(checkpoints, error):
    with pytest.raises(ValidationError, match=error):
        VerifySpec.model_validate({**SPEC, "checkpoints": checkpoints})


def test_checkpoints_need_all_or_nothing_scoring():
    with pytest.raises(ValidationError, match="fraction"):
        VerifySpec.model_validate({**SPEC, "scoring": "fraction"})


def test_a_spec_dumps_back_with_its_checkpoints():
    spec = VerifySpec.model_validate(SPEC)
    again = VerifySpec.model_validate(spec.model_dump(by_alias=True, exclude_none=True))
    assert again == spec and [cp.name for cp in again.checkpoints] == ["the message starred", "the invoice read"]
