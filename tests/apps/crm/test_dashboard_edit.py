"""Editing a dashboard (services/dashboards.py): the builder's + Component / Remove / Save and the tools
(add_dashboard_component, remove_dashboard_component, list_dashboards) share one rule (dashboards.component);
any input is kept or refused with a message, never a 500. The browser test is in test_feed_browser.py."""

from __future__ import annotations

import html
import json
import re

from hypothesis import HealthCheck, given, settings, strategies as st
from sqlalchemy import select

from apps._shared.tools import ToolError
from apps.crm import models as m
from apps.crm.services import ServiceError
from apps.crm.services import dashboards as svc
from tests.apps.crm.test_issue46 import in_world
from tests.apps.crm.test_tools import call

ONE_WORLD = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _draft(resp) -> list[dict]:
    return json.loads(html.unescape(re.search(r'name="draft" value="([^"]*)"', resp.get_data(as_text=True)).group(1)))


@ONE_WORLD
@given(report_id=st.one_of(st.integers(-5, 40), st.text(max_size=6), st.none(), st.booleans()),
       chart=st.one_of(st.sampled_from(list(svc.CHARTS) + list(svc.CHARTS.values()) + ["pie", ""]), st.text(max_size=8)),
       title=st.text(max_size=100))
def test_component_accepts_exactly_valid_input(app, dbs, report_id, chart, title):
    reports = {r.id: r for r in dbs.scalars(select(m.Report))}
    rid = int(report_id) if isinstance(report_id, str) and report_id.strip().isdigit() else report_id
    ok_report = not isinstance(rid, bool) and isinstance(rid, int) and rid in reports
    ok_chart = chart.strip() in svc.CHARTS or chart.strip().casefold() in {v.casefold() for v in svc.CHARTS.values()}
    ok_title = len(" ".join(title.split())) <= svc.MAX_TITLE
    try:
        c = in_world(app, svc.component, report_id, chart, title)
    except ServiceError as e:
        assert not (ok_report and ok_chart and ok_title) and e.errors
    else:
        assert ok_report and ok_chart and ok_title
        assert c["report_id"] == rid and c["chart"] in svc.CHARTS
        assert c["title"] == (" ".join(title.split()) or reports[rid].name[:svc.MAX_TITLE])
        assert c["measure"] == ("amount" if reports[rid].report_type in ("Opportunity", "Account") else "count")


@ONE_WORLD
@given(draft=st.one_of(st.text(max_size=40), st.just('[{"report_id": 1}]'), st.just("[1]"), st.just("{}")),
       op=st.sampled_from(["save", "add", "add_open", "remove:0", "remove:99", "remove:x", "", "bogus"]))
def test_the_builder_answers_any_form_without_a_500(client, draft, op):
    r = client.post("/lightning/r/Dashboard/2/edit", data={"draft": draft, "op": op, "report_id": "1", "chart": "bar"})
    assert r.status_code in (200, 303, 400)


def test_builder_add_remove_save(client, dbs):
    d = dbs.get(m.Dashboard, 2)
    before = list(d.components)
    page = client.get("/lightning/r/Dashboard/2/edit")
    assert _draft(page) == before and "+ Component" in page.get_data(as_text=True)
    r = client.post("/lightning/r/Dashboard/2/edit", data={"draft": json.dumps(before), "op": "add_open"})
    assert 'aria-label="Display As"' in r.get_data(as_text=True)
    r = client.post("/lightning/r/Dashboard/2/edit", data={"draft": json.dumps(before), "op": "add", "report_id": "9",
                                                          "chart": "donut", "title": "Leads by Status (donut)"})
    draft = _draft(r)
    assert draft[-1] == {"title": "Leads by Status (donut)", "report_id": 9, "chart": "donut", "measure": "count"}
    dbs.expire_all()
    assert dbs.get(m.Dashboard, 2).components == before  # nothing saved before Save
    r = client.post("/lightning/r/Dashboard/2/edit", data={"draft": json.dumps(draft), "op": "remove:0"})
    draft = _draft(r)
    r = client.post("/lightning/r/Dashboard/2/edit", data={"draft": json.dumps(draft), "op": "save"})
    assert r.status_code == 303 and r.headers["Location"] == "/lightning/r/Dashboard/2/view"
    dbs.expire_all()
    assert dbs.get(m.Dashboard, 2).components == before[1:] + [draft[-1]]
    view = client.get("/lightning/r/Dashboard/2/view").get_data(as_text=True)
    assert 'aria-label="Leads by Status (donut)"' in view and f'aria-label="{before[0]["title"]}"' not in view
    # a refused Add keeps the dialog open with its message
    r = client.post("/lightning/r/Dashboard/2/edit", data={"draft": json.dumps(draft), "op": "add", "report_id": "",
                                                          "chart": "donut"})
    assert r.status_code == 400 and "Report: Select a report." in r.get_data(as_text=True)


def test_tools_add_and_remove(app, dbs):
    out = call(app, "add_dashboard_component", dashboard_id=3, report_id=9, display_as="metric", title="Lead Count")
    assert out["components"][-1] == {"position": len(out["components"]), "title": "Lead Count", "report_id": 9,
                                     "report": dbs.get(m.Report, 9).name, "display_as": "Metric"}
    out = call(app, "remove_dashboard_component", dashboard_id=3, title="lead count")
    assert "Lead Count" not in [c["title"] for c in out["components"]]
    listed = call(app, "list_dashboards", search=dbs.get(m.Dashboard, 3).name)
    assert [d["dashboard_id"] for d in listed] == [3]
    for args, words in [({"dashboard_id": 3, "title": "No Such Component"}, "no component titled"),
                        ({"dashboard_id": 999, "title": "x"}, "no dashboard")]:
        try:
            call(app, "remove_dashboard_component", **args)
        except ToolError as e:
            assert words in str(e)
        else:
            raise AssertionError(args)
