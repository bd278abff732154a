"""What the browser may cache: pages never, static files for a day, world images only after asking.

The env reuses one browser context across episodes, so a cached copy of world A's page or image
must never show in world B (tests/gym_core/test_env_toy.py checks the pixels end to end)."""

from __future__ import annotations

import pytest

from tests.apps.world_fixtures import bind, control
from tests.fixture_apps.toy import create_app

TOKEN = "cache-test-token"


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    app = create_app({"TESTING": True, "GYM_TOKEN": TOKEN, "UIGYM_HOME": str(tmp_path_factory.mktemp("home"))})
    c = app.test_client()
    for wid, seed in (("a", 1), ("b", 2)):
        r = control(app).post(f"/worlds/{wid}/reset", json={"seed": seed}, headers={"X-Gym-Token": TOKEN})
        assert r.status_code == 200, r.json
    c.bind = lambda wid: bind(c, app, wid)
    return c


def test_pages_and_json_are_never_stored(client):
    client.bind("a")
    assert client.get("/").headers["Cache-Control"] == "no-store"
    assert client.post("/notes/1/star").headers["Cache-Control"] == "no-store"


def test_static_files_are_cached(client):
    from apps._shared.factory import SHARED_DIR

    name = next(p for p in (SHARED_DIR / "static").rglob("*") if p.is_file()).relative_to(SHARED_DIR / "static")
    r = client.get(f"/_shared/static/{name.as_posix()}")
    assert r.status_code == 200 and "max-age=86400" in r.headers["Cache-Control"]


def test_world_images_are_revalidated_by_etag(client):
    client.bind("a")
    a = client.get("/badge/1.png")
    assert a.headers["Cache-Control"] == "no-cache" and a.headers["ETag"]
    again = client.get("/badge/1.png", headers={"If-None-Match": a.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    client.bind("b")  # same URL, another world: another picture, a full answer
    b = client.get("/badge/1.png", headers={"If-None-Match": a.headers["ETag"]})
    assert b.status_code == 200 and b.headers["ETag"] != a.headers["ETag"] and b.data != a.data
