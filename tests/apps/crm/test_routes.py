"""Every page renders (200) for seeded records; APIs answer; the control API stays locked."""

from __future__ import annotations

import pytest

from apps.crm.meta import OBJECTS
from tests.apps.world_fixtures import control

PAGES = [
    "/", "/lightning/page/home", "/lightning/search?q=health", "/lightning/search?q=Seattle&scope=Account",
    "/lightning/o/Report/home", "/lightning/o/Report/home?view=mine", "/lightning/o/Dashboard/home",
    "/lightning/app-launcher", "/lightning/page/home/goal", "/secur/logout", "/lightning/o/Report/new",
    "/lightning/o/Opportunity/list?display=kanban&filterName=AllOpportunities",
    "/crm/api/favorites", "/crm/api/notifications", "/crm/api/search?q=north", "/crm/api/search?q=",
    "/crm/api/lookup?objects=Account&q=a", "/crm/api/lookup?objects=Contact,Lead&q=", "/crm/api/lookup?objects=User&q=no",
    "/crm/logo/1.png", "/crm/avatar/1.png", "/lightning/r/User/1/view",
]


@pytest.mark.parametrize("path", PAGES)
def test_pages(client, path):
    r = client.get(path, follow_redirects=True)
    assert r.status_code == 200, path


@pytest.mark.parametrize("obj", ["Lead", "Account", "Contact", "Opportunity", "Case", "Task"])
def test_list_views_and_modals(client, dbs, obj):
    from sqlalchemy import select

    from apps.crm import models as m

    views = dbs.scalars(select(m.ListView).where(m.ListView.object == obj)).all()
    assert views
    for v in views:
        assert client.get(f"/lightning/o/{obj}/list?filterName={v.api_name}").status_code == 200
    assert client.get(f"/lightning/o/{obj}/list?q=a&sort=owner_id&dir=desc").status_code == 200
    assert client.get(f"/lightning/o/{obj}/list?offset=50&partial=rows").status_code == 200
    assert client.get(f"/lightning/o/{obj}/new", headers={"X-Requested-With": "fetch"}).status_code == 200
    assert client.get(f"/crm/api/nav/{obj}").status_code == 200


@pytest.mark.parametrize("obj", list(OBJECTS))
def test_record_pages(client, dbs, obj):
    from sqlalchemy import select

    model = OBJECTS[obj].model
    ids = dbs.scalars(select(model.id).order_by(model.id).limit(3)).all()
    for rid in ids:
        for action in ("view", "edit", "delete", "owner"):
            r = client.get(f"/lightning/r/{obj}/{rid}/{action}")
            assert r.status_code == 200, (obj, rid, action)


def test_reports_and_dashboards(client, dbs):
    from sqlalchemy import select

    from apps.crm import models as m

    for rid in dbs.scalars(select(m.Report.id)).all():
        assert client.get(f"/lightning/r/Report/{rid}/view").status_code == 200
    for did in dbs.scalars(select(m.Dashboard.id)).all():
        r = client.get(f"/lightning/r/Dashboard/{did}/view")
        assert r.status_code == 200 and b"<svg" in r.data


def test_control_api_needs_token(app):
    assert control(app).get("/health").status_code == 403
    assert control(app).get("/health", headers={"X-Gym-Token": "t"}).status_code == 200


def test_state_and_volatile(app):
    store = app.extensions["uigym_worlds"]
    st = store.state(app.config["TEST_WORLD"])
    assert "last_viewed_at" in st["_meta"]["volatile"]["accounts"]
    assert len(st["accounts"]) >= 300


def test_every_icon_vendored(app):
    import re
    from pathlib import Path

    from apps.crm.icons import ICON_DIR

    root = Path(__file__).resolve().parents[3] / "apps" / "crm"
    refs = set()
    for p in root.rglob("*"):
        if p.suffix in (".html", ".py", ".js"):
            refs |= set(re.findall(r"[\"'](utility|standard):([A-Za-z0-9_]+)[\"']", p.read_text()))
    missing = [f"{k}:{n}" for k, n in sorted(refs) if not (ICON_DIR / k / f"{n}.svg").is_file()]
    assert not missing, f"run scripts/vendor_assets.py; missing {missing}"


@pytest.mark.parametrize("q", ["Healthcare", "Seattle", "Germany", "Northwind", "Jordan", "Proposal", "00001010"])
def test_plausible_searches_find_records(client, q):
    r = client.get(f"/lightning/search?q={q}")
    assert r.status_code == 200
    assert b"Don't give up yet" not in r.data, q


BAD = [
    "/lightning/r/Account/999999/view", "/lightning/r/Contact/999999/view", "/lightning/r/Lead/999999/view",
    "/lightning/r/Opportunity/999999/view", "/lightning/r/Case/999999/view", "/lightning/r/Task/999999/view",
    "/lightning/r/Event/999999/view", "/lightning/r/Account/999999/edit", "/lightning/r/Opportunity/999999/clone",
    "/lightning/r/Lead/999999/convert", "/lightning/r/Contact/999999/merge", "/lightning/r/Nope/1/view",
    "/lightning/o/Nope/list", "/lightning/o/Nope/new", "/lightning/r/Report/999999/view",
    "/lightning/r/Dashboard/999999/view", "/lightning/r/User/999999/view", "/crm/logo/999999.png",
    "/crm/avatar/999999.png", "/crm/api/nav/Nope", "/lightning/r/Account/1/related/nope/view", "/no/such/page",
]


@pytest.mark.parametrize("path", BAD)
def test_bad_ids_404_with_shared_error_page(client, path):
    r = client.get(path)
    assert r.status_code == 404, path
    if not path.endswith(".png"):
        assert b"That page does not exist." in r.data and b"Back to" in r.data, path
