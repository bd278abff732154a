"""The Close Case form and Select Fields to Display through the UI's routes (issue 17): what a user posts,
what lands in the database, what the pages then show, and the refusals (a form error, never a 5xx)."""

from __future__ import annotations

from sqlalchemy import select

from apps.crm import models as m
from tests.apps.crm.conftest import fresh

FETCH = {"X-Requested-With": "fetch"}


def test_close_case_form(client, dbs):
    case = fresh(dbs, m.Case, 192)
    assert case.status == "New"
    page = client.get(f"/lightning/r/Case/{case.id}/view").get_data(as_text=True)
    assert f'data-modal="/lightning/r/Case/{case.id}/close"' in page and "Case Comments" in page
    form = client.get(f"/lightning/r/Case/{case.id}/close", headers=FETCH).get_data(as_text=True)
    assert "Close Case" in form and 'aria-label="Internal Comments"' not in form  # a <label for>, not aria
    assert "Internal Comments" in form and "Case Reason" in form
    # a status that is not closed, an unknown reason: the form again with the error, nothing written
    bad = client.post(f"/lightning/r/Case/{case.id}/close", data={"status": "Working", "comment": "x"})
    assert bad.status_code == 200 and "closed status" in bad.get_data(as_text=True)
    bad = client.post(f"/lightning/r/Case/{case.id}/close", data={"status": "Closed", "reason": "Bored"})
    assert bad.status_code == 200 and fresh(dbs, m.Case, 192).status == "New"
    assert not dbs.scalars(select(m.CaseComment)).all()
    r = client.post(f"/lightning/r/Case/{case.id}/close",
                    data={"status": "Closed", "reason": "Breakdown", "comment": "  Replaced the unit.  "})
    assert r.status_code == 303
    case = fresh(dbs, m.Case, 192)
    assert (case.status, case.reason, case.closed_at is not None) == ("Closed", "Breakdown", True)
    dbs.expire_all()
    [c] = dbs.scalars(select(m.CaseComment)).all()
    assert (c.case_id, c.body, c.is_published) == (192, "Replaced the unit.", False)
    page = client.get(f"/lightning/r/Case/{case.id}/view").get_data(as_text=True)
    assert "Replaced the unit." in page and "Case Comments (1)" in page
    assert f'/lightning/r/Case/{case.id}/close' not in page  # no Close Case on a closed case
    # a stale Close Case link (another tab closed it): the record page with a toast, never a dead link
    stale = client.get(f"/lightning/r/Case/{case.id}/close")
    assert stale.status_code == 303 and stale.headers["Location"].endswith(f"/lightning/r/Case/{case.id}/view")
    assert "already%20closed" in stale.headers["Set-Cookie"]
    stale = client.get(f"/lightning/r/Case/{case.id}/close", headers=FETCH).get_json()
    assert "already closed" in stale["toast"] and stale["redirect"].endswith("/view")
    assert client.post(f"/lightning/r/Case/{case.id}/close", data={"status": "Closed"}).status_code == 200
    assert len(dbs.scalars(select(m.CaseComment)).all()) == 1
    assert client.get("/lightning/r/Case/987654/close").status_code == 404


def test_select_fields_to_display(client, dbs):
    lv = fresh(dbs, m.ListView, 36)  # "Hot Web Leads", yours
    url = f"/lightning/o/Lead/listview/{lv.id}/fields"
    page = client.get("/lightning/o/Lead/list?filterName=Hot_Web_Leads").get_data(as_text=True)
    assert f'data-modal="{url}"' in page
    form = client.get(url, headers=FETCH).get_data(as_text=True)
    assert 'aria-labelledby="dl-available-label"' in form and 'data-dl-option="lead_source"' in form
    assert 'data-dl-option="description"' not in form  # long text is not a list column
    r = client.post(url, data={"columns": ["name", "lead_source", "company", "rating"]})
    assert r.status_code == 303
    assert fresh(dbs, m.ListView, lv.id).columns == ["name", "lead_source", "company", "rating"]
    page = client.get("/lightning/o/Lead/list?filterName=Hot_Web_Leads").get_data(as_text=True)
    heads = [h for h in ("Lead Source", "Company", "Rating", "Title", "Phone") if f"Sort by {h}" in page]
    assert heads == ["Lead Source", "Company", "Rating"]
    assert page.index("Sort by Lead Source") < page.index("Sort by Company") < page.index("Sort by Rating")
    # refused: no name field, an unknown field; a standard view; the form comes back, the columns stay
    for cols in (["company"], ["name", "password"], []):
        bad = client.post(url, data={"columns": cols})
        assert bad.status_code == 200 and "We hit a snag." in bad.get_data(as_text=True)
    assert fresh(dbs, m.ListView, lv.id).columns == ["name", "lead_source", "company", "rating"]
    std = fresh(dbs, m.ListView, 16)
    assert client.post(f"/lightning/o/{std.object}/listview/16/fields", data={"columns": ["name"]}, headers=FETCH).status_code == 403
    assert fresh(dbs, m.ListView, 16).columns is None
    assert client.get("/lightning/o/Lead/listview/987654/fields").status_code == 404
    assert client.get(f"/lightning/o/Account/listview/{lv.id}/fields").status_code == 404
