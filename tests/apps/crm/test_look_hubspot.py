"""The crm clone's hubspot look (Beacon CRM, issue #37): its pages render in its own chrome and words, without
the Lightning Design System; the default look's pages are unchanged; its names map addresses only declared
controls, and every name it maps to is a name its pages really show."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from apps._shared.session import WORLD_COOKIE, sign_world
from apps._shared.surface import Surface
from apps.crm import models as m
from apps.crm.look_hubspot import LOOK
from apps.crm.surface import CONTROLS, SURFACE
from tasks.looks import steps_in_look

SLDS = "salesforce-lightning-design-system"
TASKS = Path(__file__).resolve().parents[3] / "tasks" / "crm"


@pytest.fixture
def hs(app):
    """A client bound to the test's world in the hubspot look (the signed binding, as the gym binds it)."""
    c = app.test_client()
    c.set_cookie(WORLD_COOKIE, sign_world(app, app.config["TEST_WORLD"], "hubspot"))
    return c


def _get(client, path: str) -> str:
    r = client.get(path, follow_redirects=True)
    assert r.status_code == 200, (path, r.status_code)
    return r.get_data(as_text=True)


def _first(dbs, model, *where):
    return dbs.scalars(select(model).where(*where).order_by(model.id).limit(1)).first()


PAGES = ["/lightning/page/home", "/lightning/o/Opportunity/list", "/lightning/o/Contact/list", "/lightning/o/Lead/list",
         "/lightning/o/Account/list", "/lightning/o/Case/list", "/lightning/o/Opportunity/list?display=kanban",
         "/lightning/o/Report/home", "/lightning/o/Dashboard/home", "/lightning/search?q=health", "/lightning/o/Task/home"]


@pytest.mark.parametrize("path", PAGES)
def test_pages_render_in_the_look_without_slds(hs, path):
    html = _get(hs, path)
    assert SLDS not in html  # its own stylesheet, not the Lightning Design System
    assert "looks/hubspot/hubspot.css" in html and 'class="hs-rail"' in html
    assert 'aria-label="Search Beacon CRM"' in html and "<title>" in html and "Beacon CRM</title>" in html
    # the rail's sections, each a flyout group of links
    for section in ("CRM", "Sales", "Reporting"):
        assert f'role="group" aria-label="{section}"' in html


def test_every_link_of_the_rail_opens_a_page(hs):
    html = _get(hs, "/lightning/page/home")
    links = re.findall(r'class="hs-flyout__link[^"]*" href="([^"]+)"', html)
    assert len(links) >= 8
    for href in set(links):
        assert hs.get(href, follow_redirects=True).status_code == 200, href


def test_the_default_look_is_unchanged(client):
    html = _get(client, "/lightning/o/Opportunity/list")
    assert SLDS in html and "hs-rail" not in html and "Beacon CRM" not in html
    assert 'aria-label="Select a List View: Opportunities"' in html and 'aria-label="List View Controls"' in html


def test_index_page_has_view_tabs_filter_pills_and_create(hs):
    html = _get(hs, "/lightning/o/Opportunity/list")
    assert re.search(r'<h1 class="hs-index__title">Deals <span class="hs-count"', html)
    assert ">Create deal</a>" in html
    for name in ("All views", "Add view", "Advanced filters", "View options"):
        assert f'aria-label="{name}"' in html
    assert 'class="hs-view-tab' in html and 'class="hs-pill' in html and "Deal owner" in html
    assert "Select a List View" not in html and "List View Controls" not in html
    assert ">Create company</a>" in _get(hs, "/lightning/o/Account/list")
    assert ">Create ticket</a>" in _get(hs, "/lightning/o/Case/list")


def test_record_page_has_three_columns_quick_actions_and_associations(hs, dbs):
    opp = _first(dbs, m.Opportunity)
    html = _get(hs, f"/lightning/r/Opportunity/{opp.id}/view")
    assert 'class="hs-record__left"' in html and 'class="hs-record__middle"' in html and 'aria-label="Associations"' in html
    assert "About this deal" in html and 'aria-label="Actions"' in html and "Show more actions" not in html
    for quick in ("Note", "Email", "Call", "Task", "Meeting"):
        assert f'aria-label="{quick}"' in html
    assert 'aria-label="Line items"' in html and 'aria-label="Add line items"' in html
    assert 'role="tab"' in html and ">Overview</a>" in html and ">Activities</a>" in html
    # crm.js skips tab clicks inside [data-composer]: the quick actions' composer wraps the card only
    left = html.index('class="hs-record__left"')
    card = html[left:html.index("</aside>", left)]
    assert "data-composer" in html[left:html.index(">", left)] and "data-tabs" not in card and 'id="composer-call"' in card
    assert html.count("data-composer ") + html.count("data-composer>") == 1
    acc = _first(dbs, m.Account)
    html = _get(hs, f"/lightning/r/Account/{acc.id}/view")
    assert "About this company" in html and ">Create deal<" in html and ">Create ticket<" in html


@pytest.mark.parametrize("model", [m.Account, m.Contact, m.Lead, m.Opportunity, m.Case, m.Task, m.Event])
def test_a_record_pages_back_link_opens_a_page(hs, dbs, model):
    """The card's back link (`< Contacts`) leads to a page for every kind of record; a meeting (Event), which has no
    index of its own, goes back to the record it is about (QA found `Meetings` -> /lightning/o/Event/list, a 404)."""
    rec = _first(dbs, model)
    html = _get(hs, f"/lightning/r/{model.__name__}/{rec.id}/view")
    crumbs = re.search(r'<div class="hs-crumbs">\s*<a href="([^"]+)"', html)
    assert crumbs, model.__name__
    _get(hs, unescape(crumbs.group(1)))


def _pages_for_names(hs, dbs) -> str:
    """Every page a renamed control lives on (a record of each kind, its list, a contact with duplicates, lead
    conversion and its result)."""
    case = _first(dbs, m.Case, m.Case.status != "Closed")
    opp = _first(dbs, m.Opportunity)
    acc = _first(dbs, m.Account)
    contact = json.loads((TASKS / "merge-duplicate-contacts.json").read_text())[0]["start_path"]
    lead = _first(dbs, m.Lead, m.Lead.is_converted.is_(False))
    converted = _first(dbs, m.Lead, m.Lead.is_converted.is_(True), m.Lead.converted_opportunity_id.is_not(None))
    paths = ["/lightning/o/Opportunity/list", f"/lightning/r/Opportunity/{opp.id}/view", f"/lightning/r/Account/{acc.id}/view",
             f"/lightning/r/Case/{case.id}/view", contact, f"/lightning/r/Lead/{lead.id}/convert",
             f"/lightning/r/Lead/{converted.id}/convert"]
    return "\n".join(_get(hs, p) for p in paths)


def _shown(html: str, role: str, name: str, exact: bool = True) -> bool:
    """Whether `html` has an element that could carry this accessible name (label attribute or text)."""
    html, n = unescape(html), re.escape(name)
    if not exact:
        return re.search(rf">\s*{n}", html, re.I) is not None
    return re.search(rf'aria-label="{n}"|>\s*{n}\s*<|>\s*{n}\s*</span>', html) is not None


def test_every_name_the_look_maps_to_is_on_its_pages(hs, dbs):
    html = _pages_for_names(hs, dbs)
    missing = []
    for key, target in LOOK.names.items():
        steps = target if isinstance(target, list) else [{"click": target}] if target else []
        for step in steps:
            t = next(iter(v for k, v in step.items() if isinstance(v, dict)))
            if "{" in t.get("name", ""):
                continue
            if not _shown(html, t["role"], t["name"], t.get("exact", True)):
                missing.append((key, t["name"]))
    assert not missing


def test_every_key_of_the_names_map_is_a_declared_control():
    keys = {c.key for c in CONTROLS}
    # a key is a declared control, or a declared control inside a declared container ("button:Delete in dialog":
    # the record's Delete, not the confirmation dialog's; apps/_shared/surface.py)
    assert all(all(part in keys for part in k.split(" in ", 1)) for k in LOOK.names)
    Surface("crm", CONTROLS, looks=[LOOK])  # raises SurfaceError on an undeclared key
    with pytest.raises(ValueError):
        Surface("crm", CONTROLS, looks=[type(LOOK)(id="x", names={"button:No Such Control": {"role": "button", "name": "x"}})])


def _covered_tasks() -> list[dict]:
    out = []
    for f in sorted(TASKS.glob("*.json")):
        for t in json.loads(f.read_text()):
            if LOOK.carries(t["template"]):
                out.append(t)
    return out


COVERED = _covered_tasks()


def _targets(step: dict):
    for k in ("click", "double_click", "hover", "fill", "scroll"):
        t = step.get(k)
        while isinstance(t, dict):
            yield t
            t = t.get("within")


@pytest.mark.skipif(not COVERED, reason="the look carries no template yet")
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_a_covered_task_in_the_look_addresses_no_renamed_default_name(data):
    """Whatever covered task and trajectory (solution, near-miss, adversarial, harmless) is drawn, its steps in
    the look never address a control by the default look's name where the look renamed it."""
    task = data.draw(st.sampled_from(COVERED))
    runs = [task["solution"], *task.get("near_misses", []), *[a["steps"] for a in task.get("adversarial", [])],
            *[h["steps"] for h in task.get("harmless", [])]]
    steps = data.draw(st.sampled_from(runs))
    renamed = {k for k, v in LOOK.names.items() if v != {}}
    for s in steps_in_look("crm", steps, "hubspot"):
        for t in _targets(s.model_dump(exclude_none=True)):
            hit = SURFACE.match(t)
            if hit is None:
                continue
            mapped = LOOK.names.get(hit[0].key)
            if hit[0].key in renamed and isinstance(mapped, dict):
                assert (t["role"], t.get("name")) == (mapped["role"], mapped["name"]), (task["id"], t)
