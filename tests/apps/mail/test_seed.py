"""The seeded world: deterministic, and deep enough (counts, spread over time, flags, categories)."""

from __future__ import annotations

import collections
import datetime as dt
import json

import pytest

from apps.mail.models import Base
from seed_data.mail import build

NOW = dt.datetime(2026, 3, 12, 10, 24)


@pytest.fixture(scope="module")
def world():
    return build(0, NOW)


def test_same_seed_same_rows_and_different_seed_different_rows(world):
    assert build(0, NOW) == world
    other = build(1, NOW)
    assert other["messages"] != world["messages"]
    assert other["account"][0]["email"] != world["account"][0]["email"] or other["contacts"] != world["contacts"]


def test_rows_match_the_models(world):
    tables = Base.metadata.tables
    assert set(world) <= set(tables)
    for name, rows in world.items():
        cols = set(tables[name].c.keys())
        ids = [r["id"] for r in rows]
        assert ids == list(range(1, len(rows) + 1)), name  # explicit, dense integer ids
        for r in rows:
            assert set(r) == cols, (name, set(r) ^ cols)


def test_counts(world):
    msgs, threads = world["messages"], world["threads"]
    assert len(msgs) >= 2000
    per_thread = collections.Counter(m["thread_id"] for m in msgs)
    assert set(per_thread) == {t["id"] for t in threads}
    assert min(per_thread.values()) >= 1 and max(per_thread.values()) <= 6
    assert sum(1 for n in per_thread.values() if n >= 3) >= 30  # real back-and-forth
    assert len(world["contacts"]) >= 200
    assert sum(c["has_photo"] for c in world["contacts"]) >= 40
    assert sum(m["is_draft"] for m in msgs) >= 3 and sum(m["scheduled_at"] is not None for m in msgs) >= 2
    assert len({m["thread_id"] for m in msgs if m["snoozed_until"]}) >= 4
    assert world["filters"] and world["blocked_senders"]
    assert any(lab["parent_id"] for lab in world["labels"])
    assert all(c["company"] for c in world["contacts"] if c["relation"] in ("coworker", "client", "vendor"))
    assert len({c["email"] for c in world["contacts"]}) == len(world["contacts"])
    assert sum(m["is_sent"] for m in msgs) >= 40
    assert sum(m["is_starred"] for m in msgs) >= 10
    assert sum(not m["is_read"] for m in msgs) >= 20
    assert sum(m["is_spam"] for m in msgs) >= 3
    assert sum(m["is_trashed"] for m in msgs) >= 3
    assert {t["category"] for t in threads} >= {"primary", "promotions", "social", "updates"}
    assert world["attachments"] and world["invites"] and world["message_labels"]


def test_dates_relative_to_now(world):
    msgs = world["messages"]
    sched = [m for m in msgs if m["scheduled_at"]]
    assert all(m["sent_at"] > NOW and m["sent_at"] == m["scheduled_at"] for m in sched)
    msgs = [m for m in msgs if not m["scheduled_at"]]
    assert all(NOW - dt.timedelta(days=560) <= m["sent_at"] < NOW for m in msgs)
    assert min(m["sent_at"] for m in msgs) < NOW - dt.timedelta(days=480)  # 18 months of mail
    today = [m for m in msgs if m["sent_at"].date() == NOW.date()]
    week = [m for m in msgs if NOW - m["sent_at"] < dt.timedelta(days=7)]
    assert len(today) >= 8 and len(week) >= 40
    # A later `now` moves the whole world with it (calendar-anchored mail, like monthly invoices, follows
    # the calendar, so it is not a pure shift).
    later_now = NOW + dt.timedelta(days=30)
    later = [m for m in build(0, later_now)["messages"] if not m["scheduled_at"]]
    assert all(m["sent_at"] < later_now for m in later)
    assert sum(1 for m in later if m["sent_at"].date() == later_now.date()) >= 8
    assert abs(len(later) - len(msgs)) < len(msgs) * 0.05


def test_more_unread_among_recent(world):
    msgs = [m for m in world["messages"] if not m["is_sent"]]
    recent = [m for m in msgs if NOW - m["sent_at"] < dt.timedelta(days=2)]
    old = [m for m in msgs if NOW - m["sent_at"] > dt.timedelta(days=30)]
    rate = lambda ms: sum(not m["is_read"] for m in ms) / len(ms)  # noqa: E731
    assert rate(recent) > 2 * rate(old)


def test_replies_thread_correctly(world):
    by_id = {m["id"]: m for m in world["messages"]}
    threads = {t["id"]: t for t in world["threads"]}
    for m in world["messages"]:
        if m["in_reply_to_id"] is None:
            assert m["subject"] == threads[m["thread_id"]]["subject"]
            continue
        parent = by_id[m["in_reply_to_id"]]
        assert parent["thread_id"] == m["thread_id"] and parent["sent_at"] <= m["sent_at"]
        assert m["subject"].startswith("Re: ")


def test_sent_messages_come_from_me_and_flags_are_consistent(world):
    me = world["account"][0]
    for m in world["messages"]:
        if m["is_sent"]:
            assert m["from_email"] == me["email"] and m["is_read"] and not m["in_inbox"]
        elif m["is_draft"] or m["scheduled_at"]:
            assert m["from_email"] == me["email"] and not m["in_inbox"] and not (m["is_draft"] and m["scheduled_at"])
        else:
            assert me["email"] in m["to"] + m["cc"]
        assert all(isinstance(a, str) and a == a.lower() and "@" in a for a in m["to"] + m["cc"] + m["bcc"])
        if m["is_trashed"]:
            assert m["trashed_at"] is not None and not m["in_inbox"]
        if m["is_spam"]:
            assert not m["in_inbox"]


def test_templates_fill_for_many_seeds():
    for seed in range(2, 5):
        w = build(seed, NOW)
        text = json.dumps(w, default=str)
        assert "{" not in "".join(m["subject"] + m["body"] for m in w["messages"]), seed
        assert len(w["messages"]) >= 2000
        assert len(text) < 3_000_000  # the state JSON stays small enough to read after every episode


def test_images_are_deterministic():
    from seed_data.images import attachment_bytes, avatar_color, avatar_png

    assert avatar_png("Ana Diaz", 64) == avatar_png("Ana Diaz", 64)
    assert avatar_png("Ana Diaz", 64)[:8] == b"\x89PNG\r\n\x1a\n"
    assert avatar_color("Ana Diaz") == avatar_color(" ana diaz ")
    a, mime = attachment_bytes("Invoice.pdf", "application/pdf", "1:1")
    assert mime == "application/pdf" and a.startswith(b"%PDF") and a == attachment_bytes("Invoice.pdf", "application/pdf", "1:1")[0]


def test_photo_avatars_fit_the_name_beside_them():
    """A generated portrait is keyed by the contact, but its hair follows the first name's usual gender
    (Faker's en_US lists, the seed's source): an 'Amy' never gets the short-haired portrait an 'Aaron'
    gets from the same key."""
    from seed_data.images import photo_avatar_png, presented_gender

    assert presented_gender("Ana Smith") == "female" and presented_gender("Aaron Snyder") == "male"
    assert presented_gender("Accounts Payable") is None and presented_gender("") is None
    keys = [f"person{i}@example.com" for i in range(30)]
    differ = sum(photo_avatar_png(k, 48, "Amy Carter") != photo_avatar_png(k, 48, "Aaron Carter") for k in keys)
    assert differ == len(keys)
    assert photo_avatar_png(keys[0], 48, "Amy Carter") == photo_avatar_png(keys[0], 48, "Amy Carter")
