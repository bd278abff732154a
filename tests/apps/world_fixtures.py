"""The fixtures a clone's tests share: a fresh world per test (a copy of the session's cached seed-0
snapshot), a test client on it and a SQLAlchemy session on its database.

    snapshot_home, app, client, dbs = world_fixtures(create_app, "crm")   # in tests/apps/<app>/conftest.py
"""

from __future__ import annotations

import pytest
from sqlalchemy.orm import Session

from apps._shared.session import WORLD_COOKIE, sign_world


def bind(client, app, world_id: str) -> None:
    """Bind a test client to a world as the gym binds its browser: the app's signed world cookie."""
    client.set_cookie(WORLD_COOKIE, sign_world(app, world_id))


def control(app):
    """A test client of the app's control API (its own WSGI app, served on its own port by apps.serve)."""
    return app.extensions["uigym_control"].test_client()


def world_fixtures(create_app, name: str):
    @pytest.fixture(scope="session")
    def snapshot_home(tmp_path_factory):
        """One home for the whole session, so the seed-0 snapshot is built once."""
        return tmp_path_factory.mktemp(f"uigym-{name}")

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
        bind(c, app, app.config["TEST_WORLD"])
        return c

    @pytest.fixture
    def dbs(app):
        """A SQLAlchemy session on the test's world (call .expire_all() to re-read)."""
        eng = app.extensions["uigym_worlds"].engine(app.config["TEST_WORLD"])
        with Session(eng) as s:
            yield s

    return snapshot_home, app, client, dbs


def world_words(app, world: str | None = None) -> set[str]:
    """Every word of a test world's data, lower case (its names, subjects, stores, stages...): what a page in
    another language still shows as the world wrote it (apps._shared.i18n.untranslated's data_words)."""
    import re
    import sqlite3

    path = app.extensions["uigym_worlds"].world_path(world or app.config["TEST_WORLD"])
    words: set[str] = set()
    with sqlite3.connect(path) as c:
        for (t,) in c.execute("select name from sqlite_master where type='table'"):
            for row in c.execute(f'select * from "{t}"'):
                words.update(w.lower() for v in row if isinstance(v, str) for w in re.findall(r"[A-Za-z]+", v))
    return words


def fresh(dbs: Session, model, ident):
    dbs.expire_all()
    return dbs.get(model, ident)
