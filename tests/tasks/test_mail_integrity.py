"""The mail templates' reward-integrity helpers (tasks/templates/mail/_common.py), offline and fast."""

from __future__ import annotations

import datetime as dt

from tasks.templates.mail._common import (READ_BUDGET, competing, date_forms, graded, on_messages, other_dates,
                                          text_bound)
from grading import verify
from grading.lint import spec_holes


def _msgs(n: int, read: bool = False, thread: int = 1) -> list[dict]:
    return [{"id": i, "thread_id": thread if i < 3 else 100 + i, "is_read": read, "is_starred": False}
            for i in range(n)]


def _state(msgs: list[dict]) -> dict:
    return {"messages": msgs, "_meta": {"app": "mail", "seed": 0}}


def _read(msgs: list[dict], ids, value: bool = True) -> list[dict]:
    return [{**m, "is_read": value} if m["id"] in ids else dict(m) for m in msgs]


STAR_FIRST = [{"table": "messages", "where": {"id": 0}, "expect": {"is_starred": True}}]


def _starred(msgs: list[dict]) -> list[dict]:
    return [{**m, "is_starred": True} if m["id"] == 0 else m for m in msgs]


def test_reading_is_allowed_up_to_the_budget():
    spec = graded(STAR_FIRST, [on_messages({"id": 0}, ["is_starred"])])
    start = _msgs(40)
    end = _read(_starred(start), range(1, 1 + READ_BUDGET))
    assert verify(spec, _state(start), _state(end), None).passed
    assert spec_holes(spec) == []


def test_marking_more_than_the_budget_read_fails():
    # "Mark all as read" over the inbox is a change, not reading.
    spec = graded(STAR_FIRST, [on_messages({"id": 0}, ["is_starred"])])
    start = _msgs(40)
    end = _read(_starred(start), range(1, 2 + READ_BUDGET))
    result = verify(spec, _state(start), _state(end), None)
    assert not result.passed
    assert "more than allowed" in result.checks[-1].detail


def test_the_tasks_own_rows_may_be_read_with_their_change():
    # Opening the starred conversation reads it: [is_starred, is_read] fits the task's allowance.
    spec = graded(STAR_FIRST, [on_messages({"id": 0}, ["is_starred"])], read=0)
    start = _msgs(5)
    end = _read(_starred(start), [0])
    assert verify(spec, _state(start), _state(end), None).passed


def test_marking_mail_unread_fails_unless_the_task_is_about_it():
    start = _msgs(10, read=True)
    end = _read(_starred(start), [5], value=False)
    spec = graded(STAR_FIRST, [on_messages({"id": 0}, ["is_starred"])])
    assert not verify(spec, _state(start), _state(end), None).passed
    # A task about read state allows exactly its own conversation to become unread.
    unread_thread = graded([], [on_messages({"thread_id": 1}, [])], unread_ok=[1])
    end = _read(start, [0, 1, 2], value=False)
    assert verify(unread_thread, _state(start), _state(end), None).passed
    end = _read(start, [0, 1, 2, 7], value=False)
    assert not verify(unread_thread, _state(start), _state(end), None).passed


def test_read_zero_allows_only_the_tasks_rows():
    spec = graded([{"table": "messages", "where": {"id": {"$in": [0, 1]}}, "expect": {"is_read": True}}],
                  [on_messages({"id": {"$in": [0, 1]}}, [])], read=0)
    start = _msgs(10)
    assert verify(spec, _state(start), _state(_read(start, [0, 1])), None).passed
    assert not verify(spec, _state(start), _state(_read(start, [0, 1, 5])), None).passed


def test_competing_drops_facts_the_gold_text_mentions():
    gold = "Please pay $1,200.00 for this one.\n\nTotal due: $1,200.00\nSubtotal: $980.00"
    assert competing(["$1,200.00", "$980.00", "$4,410.50", "$4,410.50", " "], gold) == ["$4,410.50"]


def test_other_dates_leave_the_gold_date_writable():
    day = dt.date(2026, 3, 20)
    others = other_dates(dt.datetime(2026, 3, 12, 10, 24), [day])
    assert not set(date_forms(day)) & set(others)
    assert "March 2" in others and "3/21" in others and "2026-03-21" in others
    excl = {"$excludes": others}
    from grading.matchers import match

    assert match("It's on Friday, March 20.", excl)
    assert not match("It's on March 20 or March 21.", excl)
    assert date_forms(dt.date(2026, 5, 5)) == ["May 5", "5/5", "2026-05-05"]


def test_text_bound_is_relative_to_the_gold_text():
    assert text_bound("abc", slack=10, extra="sig") == {"$lte": 16}
