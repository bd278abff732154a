"""Fixtures for the mail clone: a fresh app per test (own UIGYM_HOME), its client and its database."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from apps.mail import SPEC, create_app
from apps.mail.models import Account, Message

NOW = SPEC.default_now


@pytest.fixture(scope="session")
def snapshot_home(tmp_path_factory):
    """One home for the whole session, so the seed-0 snapshot is built once."""
    return tmp_path_factory.mktemp("uigym-mail")


@pytest.fixture
def app(snapshot_home, tmp_path):
    application = create_app({"UIGYM_HOME": str(snapshot_home), "GYM_TOKEN": "t", "TESTING": True})
    store = application.extensions["uigym_worlds"]
    # A fresh world per test (worlds are cheap copies of the cached snapshot).
    wid = "w" + tmp_path.name.replace(".", "_")[-40:]
    store.reset(wid, 0, None, [])
    application.config["TEST_WORLD"] = wid
    yield application
    store.drop(wid)


@pytest.fixture
def client(app):
    c = app.test_client()
    c.set_cookie("uigym_world", app.config["TEST_WORLD"])
    return c


@pytest.fixture
def dbs(app):
    """A SQLAlchemy session on the test's world (expire_on_commit off; call .expire_all() to re-read)."""
    eng = app.extensions["uigym_worlds"].engine(app.config["TEST_WORLD"])
    with Session(eng) as s:
        yield s


def fresh(dbs: Session, model, ident):
    dbs.expire_all()
    return dbs.get(model, ident)


def me(dbs: Session) -> Account:
    return dbs.get(Account, 1)


def inbox_thread_with(dbs: Session, **flags) -> int:
    q = select(Message.thread_id).where(Message.in_inbox.is_(True), Message.is_trashed.is_(False),
                                        Message.is_spam.is_(False))
    for k, v in flags.items():
        q = q.where(getattr(Message, k).is_(v))
    return dbs.scalars(q.order_by(Message.sent_at.desc())).first()


__all__ = ["NOW", "fresh", "me", "inbox_thread_with", "dt"]
