"""Fixtures for the mail clone: a fresh world per test, its client and its database."""

from __future__ import annotations

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from apps._shared.session import WORLD_COOKIE, sign_world
from apps.mail import SPEC, create_app
from apps.mail.models import Account, Message
from tests.apps.world_fixtures import fresh, world_fixtures  # noqa: F401 (fresh is imported from here by tests)

NOW = SPEC.default_now

snapshot_home, app, client, dbs = world_fixtures(create_app, "mail")


def me(dbs: Session) -> Account:
    return dbs.get(Account, 1)


def inbox_thread_with(dbs: Session, **flags) -> int:
    q = select(Message.thread_id).where(Message.in_inbox.is_(True), Message.is_trashed.is_(False),
                                        Message.is_spam.is_(False))
    for k, v in flags.items():
        q = q.where(getattr(Message, k).is_(v))
    return dbs.scalars(q.order_by(Message.sent_at.desc())).first()


__all__ = ["NOW", "fresh", "me", "inbox_thread_with", "dt"]


@pytest.fixture
def oclient(app):
    """A browser bound to the test's world in the outlook look (the look is signed into the binding)."""
    c = app.test_client()
    c.set_cookie(WORLD_COOKIE, sign_world(app, app.config["TEST_WORLD"], "outlook"))
    return c


def get_page(c, path: str) -> str:
    """The page at `path`, which must answer 200."""
    r = c.get(path)
    assert r.status_code == 200, (path, r.status_code, r.data[:300])
    return r.get_data(as_text=True)
