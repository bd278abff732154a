"""Forkful test fixtures: one app per session, a freshly reset world per test."""

from __future__ import annotations

import itertools

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from apps.food import SPEC, create_app
from tests.apps.world_fixtures import bind, control

TOKEN = "food-test-token"
_ids = itertools.count()


@pytest.fixture(scope="session")
def app():
    return create_app({"TESTING": True, "GYM_TOKEN": TOKEN})


@pytest.fixture()
def world(app):
    wid = f"t{next(_ids)}"
    r = control(app).post(f"/worlds/{wid}/reset", json={"seed": 0}, headers={"X-Gym-Token": TOKEN})
    assert r.status_code == 200, r.json
    return wid


@pytest.fixture()
def client(app, world):
    c = app.test_client()
    bind(c, app, world)
    return c


class DB:
    """Direct access to the test world's database."""

    def __init__(self, app, wid):
        self.eng = app.extensions["uigym_worlds"].engine(wid)

    def all(self, model, *where):
        with Session(self.eng) as s:
            return list(s.scalars(select(model).where(*where).order_by(model.id)))

    def one(self, model, *where):
        rows = self.all(model, *where)
        assert len(rows) == 1, rows
        return rows[0]

    def get(self, model, id_):
        with Session(self.eng) as s:
            return s.get(model, id_)


@pytest.fixture()
def db(app, world):
    return DB(app, world)


@pytest.fixture(scope="session")
def now():
    return SPEC.default_now
