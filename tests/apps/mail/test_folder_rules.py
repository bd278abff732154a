"""domain/mail.py's folder rules are read twice: as SQL by the app (apps/mail/folders.py `where`) and over
plain rows by the task templates (`holds`). Over every combination of the fields they test, both answer alike."""

from __future__ import annotations

import datetime as dt

from hypothesis import given, settings, strategies as st
from sqlalchemy import create_engine, delete, select
from sqlalchemy.orm import Session

from apps.mail import queries as Q
from apps.mail.folders import where
from apps.mail.models import Base, Message, Thread
from domain import mail as rules
from tasks.templates.mail._common import Mailbox

NOW = dt.datetime(2026, 3, 20, 9, 30)
FLAGS = ("is_read", "is_starred", "is_important", "in_inbox", "is_sent", "is_draft", "is_spam", "is_trashed")
# Around now: none, the past, exactly now, the future.
WHEN = st.sampled_from([None, NOW - dt.timedelta(days=2), NOW, NOW + dt.timedelta(hours=3)])
MESSAGE = st.fixed_dictionaries({**{f: st.booleans() for f in FLAGS}, "snoozed_until": WHEN, "scheduled_at": WHEN})

_engine = create_engine("sqlite://")
Base.metadata.create_all(_engine)
with Session(_engine) as _s:
    _s.add(Thread(id=1, subject="s"))
    _s.commit()

ALL_RULES = {**{f"folder {k}": r for k, r in rules.FOLDERS.items()},
             **{f"shown in {k}": rules.shown_rule(k) for k in (*rules.FOLDERS, "category:social")},
             **{f"scope {k}": rules.scope_rule(k) for k in (*rules.SEARCH_SCOPES, "default")},
             "snoozed": rules.SNOOZED, "in the inbox": rules.IN_INBOX}


@settings(max_examples=60, deadline=None)
@given(st.lists(MESSAGE, min_size=1, max_size=12))
def test_sql_and_plain_rows_agree_on_every_rule(msgs):
    with Session(_engine) as s:
        s.execute(delete(Message))
        for i, m in enumerate(msgs, 1):
            s.add(Message(id=i, thread_id=1, from_name="a", from_email="a@x.com", subject="s", sent_at=NOW, **m))
        s.flush()
        rows = [dict(m, id=i) for i, m in enumerate(msgs, 1)]
        for what, rule in ALL_RULES.items():
            in_sql = set(s.scalars(select(Message.id).where(*where(rule, NOW))))
            in_rows = {r["id"] for r in rows if rules.holds(rule, r, NOW)}
            assert in_sql == in_rows, what
        # The app's lists read the same rules.
        for key in rules.FOLDERS:
            assert set(s.scalars(select(Message.id).where(*Q.folder_conds(key, NOW)))) == \
                {r["id"] for r in rows if rules.in_folder(r, key, NOW)}, key
        s.rollback()


def test_the_folders_table_says_what_gmail_does():
    live = {"is_trashed": False, "is_spam": False, "is_draft": False, "scheduled_at": None, "snoozed_until": None,
            "in_inbox": True, "is_starred": False, "is_sent": False, "is_important": False}
    assert rules.in_folder(live, "inbox", NOW) and rules.in_folder(live, "all", NOW)
    assert not rules.in_folder({**live, "snoozed_until": NOW + dt.timedelta(hours=1)}, "inbox", NOW)
    assert rules.in_folder({**live, "snoozed_until": NOW + dt.timedelta(hours=1)}, "snoozed", NOW)
    assert rules.in_folder({**live, "snoozed_until": NOW}, "inbox", NOW)  # the snooze is over
    trashed_spam = {**live, "is_trashed": True, "is_spam": True}
    assert [k for k in rules.FOLDERS if rules.in_folder(trashed_spam, k, NOW)] == ["trash"]
    assert [k for k in rules.FOLDERS if rules.in_folder({**live, "is_draft": True}, k, NOW)] == ["drafts"]
    scheduled = {**live, "scheduled_at": NOW + dt.timedelta(days=1)}
    assert [k for k in rules.FOLDERS if rules.in_folder(scheduled, k, NOW)] == ["scheduled"]


def test_a_rule_on_the_time_needs_now():
    import pytest

    with pytest.raises(ValueError, match="snoozed_until"):
        where(rules.SNOOZED)


def test_the_templates_mailbox_reads_the_same_rules():
    class W:
        now = NOW

        def table(self, name):
            base = {"thread_id": 1, "sent_at": NOW, "from_email": "a@x.com", "is_spam": False, "is_draft": False,
                    "scheduled_at": None, "snoozed_until": None, "in_inbox": True}
            return {"account": [{"email": "me@x.com"}], "threads": [{"id": 1, "subject": "s"}],
                    "messages": [{**base, "id": 1, "is_trashed": True},
                                 {**base, "id": 2, "is_trashed": False, "snoozed_until": NOW + dt.timedelta(hours=2)}],
                    }.get(name, [])

    mb = Mailbox(W())
    assert [m["id"] for m in mb.live(1)] == [2]
    assert mb.snoozed(1) and not mb.in_inbox(1)
