"""Fixtures for the CRM clone: a fresh world per test (own copy of the cached seed-0 snapshot)."""

from __future__ import annotations

import pytest
from sqlalchemy.orm import Session

from apps.crm import SPEC, create_app

NOW = SPEC.default_now


@pytest.fixture(scope="session")
def snapshot_home(tmp_path_factory):
    """One home for the whole session, so the seed-0 snapshot is built once."""
    return tmp_path_factory.mktemp("uigym-crm")


@pytest.fixture
def app(snapshot_home, tmp_path):
    application = create_app({"UIGYM_HOME": str(snapshot_home), "GYM_TOKEN": "t", "TESTING": True})
    store = application.extensions["uigym_worlds"]
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
    eng = app.extensions["uigym_worlds"].engine(app.config["TEST_WORLD"])
    with Session(eng) as s:
        yield s


def fresh(dbs: Session, model, ident):
    dbs.expire_all()
    return dbs.get(model, ident)
