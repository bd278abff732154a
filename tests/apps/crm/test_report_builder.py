"""The report builder: add / remove columns, group rows, Show Me and filters change only the URL's run state
(nothing is written until Save); Save writes columns with the rest; Run shows the changed columns; the tools take
`columns`; bad columns are refused with the choices named, and unknown ones in a URL are dropped."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from apps._shared.tools import ToolError
from apps.crm import models as m
from apps.crm.tools import TOOLS

from .conftest import fresh

REP = 9  # seed 0: "Leads by Status" (Lead), columns name, company, status, lead_source, owner_id, created_at; grouped by status


def _follow(client, url: str):
    r = client.get(url)
    assert r.status_code == 302, r.data[:300]
    return r.headers["Location"]


def test_builder_edits_then_save(client, dbs):
    page = client.get(f"/lightning/r/Report/{REP}/view").data
    assert f'href="/lightning/r/Report/{REP}/edit?'.encode() in page
    r = client.get(f"/lightning/r/Report/{REP}/edit")
    assert r.status_code == 200 and b"Add column" in r.data and b"Remove column Company" in r.data
    loc = _follow(client, f"/lightning/r/Report/{REP}/edit?nc_add=rating")
    loc = _follow(client, loc + "&nc_remove=company")
    loc = _follow(client, loc + "&ng=lead_source")
    q = parse_qs(urlsplit(loc).query)
    assert q["cols"] == ["name,status,lead_source,owner_id,created_at,rating"] and q["group"] == ["lead_source"]
    rep = fresh(dbs, m.Report, REP)
    assert "company" in rep.columns and rep.group_by == "status"  # nothing saved yet
    body = client.get(loc).data
    assert b"Unsaved changes" in body and b"Rating" in body
    run = client.get(loc.replace("/edit?", "/view?")).data
    assert b"Rating" in run
    params = {k: v[0] for k, v in q.items()}
    r = client.post(f"/lightning/r/Report/{REP}/save", data={**params, "next": "edit"})
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/lightning/r/Report/{REP}/edit")
    rep = fresh(dbs, m.Report, REP)
    assert rep.columns == ["name", "status", "lead_source", "owner_id", "created_at", "rating"] and rep.group_by == "lead_source"
    # Removing the grouped column removes the grouping; the last column can't be removed.
    loc = _follow(client, f"/lightning/r/Report/{REP}/edit?nc_remove=lead_source")
    assert parse_qs(urlsplit(loc).query)["group"] == ["none"]


def test_bad_columns(client, app, dbs):
    # Unknown columns in a URL are dropped (an empty list falls back to the type's defaults), never a 500.
    assert client.get(f"/lightning/r/Report/{REP}/view?cols=password,name").status_code == 200
    assert client.get(f"/lightning/r/Report/{REP}/edit?cols=,,,").status_code == 200
    assert client.get(f"/lightning/r/Report/{REP}/edit?nc_add=password").status_code == 302
    assert client.get("/lightning/r/Report/987654/edit").status_code == 404

    def call(tool, **args):
        return TOOLS.call(app, app.config["TEST_WORLD"], tool, args)

    before = fresh(dbs, m.Report, REP).columns
    for cols, phrase in ((["name", "password"], "'password' can't be a column"), (["name", "name"], "once"), ([], "at least one")):
        with pytest.raises(ToolError) as e:
            call("save_report", report_id=REP, columns=cols)
        assert phrase in str(e.value)
    assert fresh(dbs, m.Report, REP).columns == before
    run = call("run_report", report_id=REP, columns=["name", "rating"], limit=1)
    assert run["columns"] == ["name", "rating"] and run["groups"] == [] and set(run["rows"][0]) == {"id", "name", "rating"}
    call("save_report", report_id=REP, columns=["name", "status", "rating"], group_by="rating")
    rep = fresh(dbs, m.Report, REP)
    assert (rep.columns, rep.group_by) == (["name", "status", "rating"], "rating")


def test_new_report_flow_type_builder_save(client, dbs):
    """New Report: Create Report lists the types, Start Report opens the builder of an unsaved report (nothing
    written while building), Save asks for a name and folder and creates it with the builder's state."""
    from sqlalchemy import func, select

    n = dbs.scalar(select(func.count()).select_from(m.Report))
    r = client.get("/lightning/o/Report/new")
    assert b"Create Report" in r.data and b"Search Report Types" in r.data and b"Start Report" in r.data and b">Leads<" in r.data
    r = client.get("/lightning/o/Report/new/edit?type=Lead")
    assert r.status_code == 200 and b"New Leads Report" in r.data and b"Remove column Company" in r.data
    assert b"/lightning/o/Report/new/save?" in r.data
    loc = _follow(client, "/lightning/o/Report/new/edit?type=Lead&nf_field=lead_source&nf_op=equals&nf_value=Web")
    loc = _follow(client, loc + "&ng=status")
    q = parse_qs(urlsplit(loc).query)
    assert urlsplit(loc).path == "/lightning/o/Report/new/edit" and q["type"] == ["Lead"] and q["group"] == ["status"]
    assert dbs.scalar(select(func.count()).select_from(m.Report)) == n  # building writes nothing
    save = client.get(loc.replace("/new/edit?", "/new/save?") + "&next=run")
    assert b"Save Report" in save.data and b'name="next" value="run"' in save.data
    form = {k: v[0] for k, v in q.items()}
    r = client.post("/lightning/o/Report/new/save", data={**form, "name": "", "folder": "Marketing Reports"})
    assert r.status_code == 200 and b"Complete this field" in r.data
    assert dbs.scalar(select(func.count()).select_from(m.Report)) == n
    r = client.post("/lightning/o/Report/new/save", data={**form, "name": "Web Leads", "folder": "Marketing Reports", "next": "run"})
    new = dbs.scalars(select(m.Report).where(m.Report.name == "Web Leads")).one()
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/lightning/r/Report/{new.id}/view")
    assert (new.report_type, new.folder, new.group_by, new.filters) == ("Lead", "Marketing Reports", "status",
                                                                       [{"field": "lead_source", "op": "equals", "value": "Web"}])
    r = client.post("/lightning/o/Report/new/save", data={**form, "name": "Web Leads 2", "folder": "Private Reports"})
    assert r.headers["Location"].split("?")[0].endswith("/edit")  # Save stays in the builder
    for bad in ("/lightning/o/Report/new/edit", "/lightning/o/Report/new/edit?type=Nope", "/lightning/o/Report/new/save?type=x"):
        assert client.get(bad).status_code == 400
    assert client.post("/lightning/o/Report/new/save", data={"name": "x"}).status_code == 400
