"""The crm tools (apps/crm/tools.py), in process: each one's happy path on the database; every tool refuses bad
input (mistyped, missing, unknown or extra arguments, unknown ids, oversized strings) with a clear ToolError and
leaves the world exactly as it was; a failure inside a multi-row write leaves nothing half-done; the schemas
are valid JSON schema with descriptions; the README names every tool; the bundled tasks' tool plans grade
(gold 1, do-nothing 0, near-misses 0) on their first instances."""

from __future__ import annotations

import copy
import datetime as dt
from pathlib import Path

import jsonschema
import pytest
from sqlalchemy import func, select

from apps._shared.tools import MAX_STRING, ToolError
from apps.crm import models as m
from apps.crm import records as R
from apps.crm.tools import TOOLS
from tests.apps.crm.conftest import fresh

# Seed 0: account 1 Long Sports, contact 1 (at account 1), opportunity 1 (Closed Lost, account 199, contacts 793
# primary, 795), lead 3 (Working - Contacted, unconverted), case 192 (New), task 750 (yours, open), list views 35
# ("My Big Deals", yours) and 36 ("Hot Web Leads"), report 5 (yours, on a dashboard), 6 (on none), duplicate
# contacts 82 / 1192, note 1 (on account 53), users 7 (Noah Patel) and 8 (Daniel Kim).
VALID: dict[str, dict] = {
    "search_records": {"query": "Long Sports"},
    "list_records": {"object": "Lead", "list_view": "AllOpenLeads", "limit": 5},
    "get_record": {"object": "Account", "record_id": 1},
    "list_users": {},
    "list_list_views": {"object": "Opportunity"},
    "list_reports": {"search": "Pipeline"},
    "run_report": {"report_id": 2, "filters": [{"field": "stage", "op": "equals", "value": "Proposal"}], "limit": 3},
    "create_record": {"object": "Contact", "fields": {"first_name": "Maya", "last_name": "Okafor", "account_id": 1,
                                                      "email": "maya.okafor@longsports.com"}},
    "update_record": {"object": "Contact", "record_id": 1, "fields": {"phone": "(415) 555-0198"}},
    "delete_record": {"object": "Case", "record_id": 192},
    "change_owner": {"object": "Account", "record_id": 1, "owner_id": 7},
    "follow_record": {"object": "Account", "record_id": 1},
    "change_stage_or_status": {"object": "Case", "record_id": 192, "value": "Closed"},
    "mass_change_owner": {"object": "Lead", "record_ids": [3, 4], "owner_id": 8},
    "mass_change_status": {"object": "Case", "record_ids": [191, 192], "status": "Escalated"},
    "set_quarterly_goal": {"amount": 250000},
    "add_note": {"object": "Account", "record_id": 1, "title": "Expansion", "body": "Two new sites in the fall."},
    "edit_note": {"note_id": 1, "title": "Budget", "body": "Approved."},
    "delete_note": {"note_id": 1},
    "add_contact_role": {"opportunity_id": 1, "contact_id": 1, "role": "Evaluator"},
    "new_task": {"object": "Opportunity", "record_id": 1, "subject": "Send pricing", "due_date": "3/20/2026", "assigned_to_id": 7},
    "log_call": {"object": "Contact", "record_id": 1, "comments": "Left a voicemail."},
    "new_event": {"object": "Contact", "record_id": 1, "subject": "QBR", "start_date": "3/16/2026", "start_time": "9:00 AM",
                  "end_date": "3/16/2026", "end_time": "10:00 AM"},
    "send_email": {"object": "Contact", "record_id": 1, "subject": "Next steps", "body": "Proposal by Friday."},
    "complete_task": {"task_id": 750},
    "convert_lead": {"lead_id": 3, "create_opportunity": False},
    "merge_records": {"object": "Contact", "master_id": 82, "duplicate_ids": [1192]},
    "create_list_view": {"object": "Opportunity", "name": "Late Stage Deals"},
    "rename_list_view": {"list_view_id": 35, "name": "Top Deals"},
    "set_list_view_filters": {"list_view_id": 35, "filters": [{"field": "stage", "op": "equals", "value": "Proposal"}]},
    "delete_list_view": {"list_view_id": 35},
    "close_case": {"case_id": 192, "comment": "Patched in 2.4; customer confirmed.", "reason": "Performance"},
    "set_list_view_columns": {"list_view_id": 35, "columns": ["name", "account_id", "amount", "stage"]},
    "create_report": {"name": "Web Leads by Status", "report_type": "Lead", "folder": "Marketing Reports"},
    "save_report": {"report_id": 6, "scope": "mine"},
    "save_report_as": {"report_id": 2, "name": "My Pipeline by Owner", "scope": "mine"},
    "delete_report": {"report_id": 6},
    # Products (tests/apps/crm/test_products.py plays them through): opportunity 2 has no price book yet.
    "list_price_books": {},
    "list_products": {"opportunity_id": 2},
    "choose_price_book": {"opportunity_id": 2, "price_book_id": 1},
    "add_products": {"opportunity_id": 2, "products": [{"price_book_entry_id": 1, "quantity": 2}]},
    "update_opportunity_product": {"line_item_id": 1, "quantity": 3},
    "delete_opportunity_product": {"line_item_id": 1},
    # Files (tests/apps/crm/test_files.py): file 2 is in the library, link 1 shares file 1 to an opportunity.
    "list_files": {"search": "Pricing"},
    "attach_files": {"object": "Account", "record_id": 1, "file_ids": [2]},
    "upload_file": {"object": "Account", "record_id": 1, "file_name": "visit.txt", "text": "Met the CFO."},
    "remove_file": {"link_id": 1},
    # Chatter and dashboards (tests/apps/crm/test_feed.py, test_dashboard_edit.py): post 1 is seeded.
    "list_feed": {"object": "Account", "record_id": 1},
    "post_to_feed": {"object": "Account", "record_id": 1, "text": "Renewal call booked."},
    "comment_on_post": {"post_id": 1, "text": "Thanks"},
    "like_post": {"post_id": 1},
    "list_dashboards": {},
    "add_dashboard_component": {"dashboard_id": 1, "report_id": 3, "display_as": "metric"},
    "remove_dashboard_component": {"dashboard_id": 1, "title": "Pipeline by Owner"},
}


def call(app, tool: str, **args):
    return TOOLS.call(app, app.config["TEST_WORLD"], tool, args)


def state(app) -> dict:
    return app.extensions["uigym_worlds"].state(app.config["TEST_WORLD"])


def count(dbs, model, *where) -> int:
    dbs.expire_all()
    return dbs.scalar(select(func.count()).select_from(model).where(*where))


def test_every_tool_has_valid_args_here():
    assert sorted(VALID) == sorted(TOOLS.tools)


# ------------------------------------------------------------------------------ happy paths
def test_reads_return_ids(app):
    r = call(app, "search_records", **VALID["search_records"])
    assert (r["results"]["Account"]["records"][0]["id"], r["results"]["Account"]["total"]) == (1, 1)
    rows = call(app, "list_records", **VALID["list_records"])
    assert rows["list_view"]["api_name"] == "AllOpenLeads" and len(rows["records"]) == 5 and rows["total"] > 5
    rec = call(app, "get_record", **VALID["get_record"])
    assert rec["fields"]["name"] == "Long Sports" and rec["related"]["contacts"]["records"]
    assert {u["id"] for u in call(app, "list_users")} >= {1, 7, 8}
    assert any(v["id"] == 35 for v in call(app, "list_list_views", object="Opportunity"))
    assert any(x["id"] == 2 for x in call(app, "list_reports", search="Pipeline"))
    run = call(app, "run_report", **VALID["run_report"])
    assert run["count"] == sum(g["count"] for g in run["groups"]) and len(run["rows"]) == 3


def test_create_update_delete(app, dbs):
    r = call(app, "create_record", **VALID["create_record"])
    c = fresh(dbs, m.Contact, r["id"])
    assert (c.last_name, c.account_id, c.owner_id) == ("Okafor", 1, R.ME)
    call(app, "update_record", **VALID["update_record"])
    assert fresh(dbs, m.Contact, 1).phone == "(415) 555-0198"
    call(app, "delete_record", **VALID["delete_record"])
    assert fresh(dbs, m.Case, 192) is None
    opp = call(app, "create_record", object="Opportunity", fields={"name": "Long Sports - Pilot", "account_id": 1,
                                                                  "close_date": "6/30/2026", "amount": 40000},
               primary_contact_id=1)
    o = fresh(dbs, m.Opportunity, opp["id"])
    assert (o.stage, o.probability, o.amount) == ("Prospecting", 10, 40000)
    assert count(dbs, m.OpportunityContactRole, m.OpportunityContactRole.opportunity_id == o.id) == 1


def test_owner_follow_path_mass(app, dbs):
    call(app, "change_owner", **VALID["change_owner"])
    assert fresh(dbs, m.Account, 1).owner_id == 7
    assert call(app, "follow_record", **VALID["follow_record"])["following"] is True
    assert count(dbs, m.Follow, m.Follow.object == "Account", m.Follow.record_id == 1) == 1
    call(app, "follow_record", object="Account", record_id=1, follow=False)
    assert count(dbs, m.Follow, m.Follow.object == "Account", m.Follow.record_id == 1) == 0
    call(app, "change_stage_or_status", **VALID["change_stage_or_status"])
    assert fresh(dbs, m.Case, 192).closed_at is not None
    r = call(app, "change_stage_or_status", object="Opportunity", record_id=2, value="Negotiation")
    assert (r["probability"], r["forecast_category"]) == (80, "Commit")
    call(app, "mass_change_owner", **VALID["mass_change_owner"])
    assert fresh(dbs, m.Lead, 3).owner_id == 8 and fresh(dbs, m.Lead, 4).owner_id == 8
    call(app, "mass_change_status", **VALID["mass_change_status"])
    assert fresh(dbs, m.Case, 191).status == "Escalated"
    call(app, "set_quarterly_goal", **VALID["set_quarterly_goal"])
    assert fresh(dbs, m.User, R.ME).quarterly_goal == 250000


def test_notes_and_roles(app, dbs):
    n = call(app, "add_note", **VALID["add_note"])
    assert fresh(dbs, m.Note, n["note_id"]).parent_id == 1
    call(app, "edit_note", **VALID["edit_note"])
    assert fresh(dbs, m.Note, 1).title == "Budget"
    call(app, "delete_note", **VALID["delete_note"])
    assert fresh(dbs, m.Note, 1) is None
    cr = call(app, "add_contact_role", **VALID["add_contact_role"])
    assert fresh(dbs, m.OpportunityContactRole, cr["contact_role_id"]).role == "Evaluator"


def test_composers_use_the_records_prefills(app, dbs):
    t = call(app, "new_task", **VALID["new_task"])
    task = fresh(dbs, m.Task, t["id"])
    # An opportunity's composer names its primary contact and relates the opportunity.
    assert (task.what_type, task.what_id, task.who_id, task.owner_id, task.activity_date) == (
        "Opportunity", 1, 793, 7, dt.date(2026, 3, 20))
    c = fresh(dbs, m.Task, call(app, "log_call", **VALID["log_call"])["id"])
    assert (c.task_subtype, c.status, c.subject, c.who_id, c.what_type) == ("Call", "Completed", "Call", 1, "Account")
    e = fresh(dbs, m.Event, call(app, "new_event", **VALID["new_event"])["id"])
    assert (e.start, e.end) == (dt.datetime(2026, 3, 16, 9), dt.datetime(2026, 3, 16, 10))
    mail = fresh(dbs, m.Task, call(app, "send_email", **VALID["send_email"])["id"])
    assert mail.subject == "Email: Next steps" and mail.description.startswith(f"To: {fresh(dbs, m.Contact, 1).email}")
    call(app, "complete_task", **VALID["complete_task"])
    assert fresh(dbs, m.Task, 750).completed_at is not None


def test_convert_and_merge(app, dbs):
    r = call(app, "convert_lead", **VALID["convert_lead"])
    lead = fresh(dbs, m.Lead, 3)
    assert lead.is_converted and r["opportunity_id"] is None and fresh(dbs, m.Account, r["account_id"]).name == lead.company
    call(app, "merge_records", **VALID["merge_records"])
    assert fresh(dbs, m.Contact, 1192) is None and fresh(dbs, m.Contact, 82) is not None


def test_list_views_and_reports(app, dbs):
    lv = call(app, "create_list_view", **VALID["create_list_view"])
    assert fresh(dbs, m.ListView, lv["id"]).visibility == "me"
    call(app, "rename_list_view", **VALID["rename_list_view"])
    assert fresh(dbs, m.ListView, 35).name == "Top Deals"
    call(app, "set_list_view_filters", list_view_id=35, filters=[{"field": "amount", "op": "greater", "value": "$50,000"}])
    assert fresh(dbs, m.ListView, 35).filters == [{"field": "amount", "op": "greater", "value": "50000"}]
    call(app, "delete_list_view", **VALID["delete_list_view"])
    assert fresh(dbs, m.ListView, 35) is None
    rep = call(app, "create_report", **VALID["create_report"])
    call(app, "save_report", report_id=rep["id"], filters=[{"field": "lead_source", "op": "equals", "value": "Web"}],
         group_by="status")
    saved = fresh(dbs, m.Report, rep["id"])
    assert (saved.folder, saved.group_by, saved.filters[0]["value"]) == ("Marketing Reports", "status", "Web")
    copy_ = call(app, "save_report_as", **VALID["save_report_as"])
    assert (fresh(dbs, m.Report, copy_["id"]).scope, fresh(dbs, m.Report, copy_["id"]).owner_id) == ("mine", R.ME)
    call(app, "save_report", **VALID["save_report"])
    assert fresh(dbs, m.Report, 6).scope == "mine"
    call(app, "delete_report", **VALID["delete_report"])
    assert fresh(dbs, m.Report, 6) is None


def test_close_case_form_and_list_view_columns(app, dbs):
    """Close Case: closed, the reason set, the comment recorded privately; closing again is refused. Select
    Fields to Display: the view's columns saved in order, and list_records / list_list_views use them."""
    out = call(app, "close_case", **VALID["close_case"])
    case = fresh(dbs, m.Case, 192)
    assert (case.status, case.reason, case.closed_at is not None, out["comments"]) == ("Closed", "Performance", True, 1)
    dbs.expire_all()
    [c] = dbs.scalars(select(m.CaseComment).where(m.CaseComment.case_id == 192)).all()
    assert (c.body, c.is_published, c.created_by_id) == ("Patched in 2.4; customer confirmed.", False, R.ME)
    assert call(app, "get_record", object="Case", record_id=192)["related"]["case_comments"]["records"][0]["body"] == c.body
    before = state(app)
    with pytest.raises(ToolError, match="already closed"):
        call(app, "close_case", case_id=192)
    assert state(app) == before
    call(app, "close_case", case_id=191)  # no comment, no reason: none recorded, the reason kept
    assert count(dbs, m.CaseComment, m.CaseComment.case_id == 191) == 0 and fresh(dbs, m.Case, 191).status == "Closed"

    cols = ["name", "stage", "amount", "owner_id", "next_step"]
    assert call(app, "set_list_view_columns", list_view_id=35, columns=cols)["columns"] == cols
    assert fresh(dbs, m.ListView, 35).columns == cols
    rows = call(app, "list_records", object="Opportunity", list_view="My_Big_Deals", limit=2)["records"]
    assert rows and set(rows[0]) == {"id", "name", "stage", "amount", "owner_id", "next_step"}
    assert next(v for v in call(app, "list_list_views", object="Opportunity") if v["id"] == 35)["columns"] == cols


# ------------------------------------------------------------------------------ bad input
def _bad_calls(name: str) -> list[tuple[str, dict, str]]:
    """(what, args, a phrase the error must contain) for one tool."""
    tool = TOOLS.tools[name]
    schema = tool.schema()
    good = VALID[name]
    out = [("extra argument", {**good, "bogus": 1}, "'bogus' is not an argument")]
    out.append(("oversized string", {**good, next(iter(schema["properties"]), "x"): "x" * (MAX_STRING + 1)}, "longer than"))
    for req in schema.get("required", []):
        out.append((f"missing {req}", {k: v for k, v in good.items() if k != req}, f"'{req}' is required"))
        out.append((f"mistyped {req}", {**good, req: [{"not": 1}]}, f"'{req}"))
    for prop, spec in schema["properties"].items():
        if prop in good and spec.get("type") == "integer" and prop.endswith("id"):
            out.append((f"unknown {prop}", {**good, prop: 987654}, "987654"))
            out.append((f"{prop} beyond SQLite", {**good, prop: 2**70}, f"'{prop}'"))
    if "record_ids" in schema["properties"]:
        out.append(("one unknown id of several", {**good, "record_ids": [*good["record_ids"], 987654]}, "987654"))
    return out


@pytest.mark.parametrize("name", sorted(VALID))
def test_bad_input_is_a_clear_error_and_changes_nothing(app, name):
    before = state(app)
    for what, args, phrase in _bad_calls(name):
        with pytest.raises(ToolError) as e:
            call(app, name, **args)
        assert phrase in str(e.value), f"{name}, {what}: {e.value}"
    assert state(app) == before


@pytest.mark.parametrize("name, args, phrase", [
    ("create_record", {"object": "Contact", "fields": {"first_name": "Only"}}, "last_name: Complete this field"),
    ("create_record", {"object": "Contact", "fields": {"last_name": "X", "is_admin": True}}, "no editable field 'is_admin'"),
    ("update_record", {"object": "Account", "record_id": 1, "fields": {"industry": "Nope"}}, "Select a valid value"),
    ("update_record", {"object": "Opportunity", "record_id": 2, "fields": {"probability": 180}}, "between 0 and 100"),
    ("update_record", {"object": "Task", "record_id": 750, "fields": {"task_subtype": "Call"}}, "no editable field"),
    ("change_stage_or_status", {"object": "Lead", "record_id": 3, "value": "Closed - Converted"}, "convert_lead"),
    ("change_stage_or_status", {"object": "Opportunity", "record_id": 2, "value": "Won"}, "not a Stage"),
    ("new_event", {"object": "Contact", "record_id": 1, "subject": "x", "start_date": "3/16/2026", "start_time": "10:00 AM",
                   "end_date": "3/16/2026", "end_time": "9:00 AM"}, "can't be before"),
    ("new_task", {"object": "Contact", "record_id": 1, "subject": "x", "who": "Lead:3"}, "Related To"),
    ("send_email", {"object": "Contact", "record_id": 1, "subject": "x", "to": "not an address"}, "invalid format"),
    ("convert_lead", {"lead_id": 3, "existing_account_id": 987654}, "existing account"),
    ("merge_records", {"object": "Contact", "master_id": 82, "duplicate_ids": [1]}, "not a duplicate"),
    ("rename_list_view", {"list_view_id": 16, "name": "Mine now"}, "standard list view"),
    ("create_list_view", {"object": "Opportunity", "name": "x" * 41}, "40 characters"),
    ("set_list_view_filters", {"list_view_id": 35, "filters": [{"field": "amount", "op": "greater", "value": "lots"}]},
     "needs a number"),
    ("save_report", {"report_id": 2, "group_by": "password"}, "can't group by"),
    ("delete_report", {"report_id": 5}, "used by a dashboard"),
    ("add_note", {"object": "Account", "record_id": 1, "title": "  "}, "needs a title"),
    ("close_case", {"case_id": 192, "status": "Working"}, "'status'"),
    ("close_case", {"case_id": 192, "reason": "Bored"}, "'reason'"),
    ("set_list_view_columns", {"list_view_id": 35, "columns": ["account_id", "amount"]}, "must stay visible"),
    ("set_list_view_columns", {"list_view_id": 35, "columns": ["name", "password"]}, "'password'"),
    ("set_list_view_columns", {"list_view_id": 35, "columns": ["name", "amount", "amount"]}, "each field once"),
    ("set_list_view_columns", {"list_view_id": 35, "columns": ["name", "description"]}, "'description'"),
    ("set_list_view_columns", {"list_view_id": 16, "columns": ["name"]}, "standard list view"),
    ("set_list_view_columns", {"list_view_id": 36, "columns": ["name", "amount"]}, "'amount'"),  # a Lead view
])
def test_refused_operations_say_why_and_change_nothing(app, name, args, phrase):
    before = state(app)
    with pytest.raises(ToolError) as e:
        call(app, name, **args)
    assert phrase in str(e.value)
    assert state(app) == before


def test_a_failure_midway_through_a_multi_row_write_leaves_nothing(app, monkeypatch):
    """Two leads change owner in one call; the second write fails: the first is rolled back with it."""
    before = state(app)
    real, calls = R.update, []

    def flaky(rec, values):
        calls.append(rec.id)
        if len(calls) == 2:
            raise RuntimeError("disk full")
        return real(rec, values)

    monkeypatch.setattr(R, "update", flaky)
    with pytest.raises(RuntimeError):
        call(app, "mass_change_owner", **VALID["mass_change_owner"])
    assert calls == [3, 4] and state(app) == before
    monkeypatch.setattr(R, "update", real)
    with pytest.raises(RuntimeError):  # a conversion that fails after creating its account and contact
        monkeypatch.setattr("apps.crm.services.convert.R.this_quarter", lambda: (_ for _ in ()).throw(RuntimeError("boom")))
        call(app, "convert_lead", lead_id=3)
    assert state(app) == before


# ------------------------------------------------------------------------------ schemas, docs
@pytest.mark.parametrize("name", sorted(VALID))
def test_schema_is_valid_and_described(name):
    tool = TOOLS.tools[name]
    schema = tool.schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(VALID[name], schema)
    assert "$defs" not in schema and schema.get("additionalProperties") is False
    assert len(tool.description) > 12
    for prop, spec in schema["properties"].items():
        assert spec.get("description"), f"{name}.{prop} has no description"
    assert tool.openai()["function"]["parameters"] == schema


def test_readme_names_every_tool():
    readme = (Path(__file__).resolve().parents[3] / "apps" / "crm" / "README.md").read_text()
    missing = [n for n in TOOLS.tools if f"`{n}`" not in readme]
    assert not missing, f"apps/crm/README.md does not document {missing}"


def test_results_are_plain_json(app):
    import json

    for name in ("search_records", "get_record", "run_report", "list_records"):
        json.dumps(call(app, name, **copy.deepcopy(VALID[name])))


# ------------------------------------------------------------------------------ task plans
def _first_instances():
    from tests.apps.crm.tool_oracle import crm_tasks

    return [t for t in crm_tasks() if t.id.endswith("-00")]


# In process; the default suite proves every task's plan through the tools env (tests/tasks/test_tool_validity.py).
@pytest.mark.slow
@pytest.mark.parametrize("task", _first_instances(), ids=lambda t: t.id)
def test_tool_plan_grades(app, task):
    """Gold calls 1, nothing 0, every near-miss 0 (all instances: python -m tests.apps.crm.tool_oracle)."""
    from tests.apps.crm.tool_oracle import check_task

    played = check_task(app, task)
    assert played, f"{task.id} has no tool plan"
    bad = [f"{p.kind}: expected {p.expected}, got {p.score} {p.error or ''}\n" + "\n".join(p.report) for p in played if not p.ok]
    assert not bad, "\n".join(bad)


def test_served_by_the_control_api(app, dbs):
    from tests.apps.world_fixtures import control

    ctl, wid, h = control(app), app.config["TEST_WORLD"], {"X-Gym-Token": "t"}
    listed = ctl.get("/tools", headers=h).get_json()
    assert listed["app"] == "crm" and [t["name"] for t in listed["tools"]] == list(TOOLS.tools)
    ok = ctl.post(f"/worlds/{wid}/tools/change_owner", json=VALID["change_owner"], headers=h)
    assert ok.status_code == 200 and ok.get_json()["result"]["owner"]["id"] == 7
    assert fresh(dbs, m.Account, 1).owner_id == 7
    before = state(app)
    bad = ctl.post(f"/worlds/{wid}/tools/change_owner", json={**VALID["change_owner"], "owner_id": 987654}, headers=h)
    assert bad.status_code == 422 and "987654" in bad.get_json()["error"]
    assert state(app) == before
