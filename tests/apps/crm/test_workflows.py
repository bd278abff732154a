"""Each workflow end to end through the Flask app, asserting on the database."""

from __future__ import annotations

import json

from sqlalchemy import func, select

from apps.crm import models as m
from domain.crm import normalize_company

from .conftest import NOW, fresh

FETCH = {"X-Requested-With": "fetch"}


def _contact(dbs):
    return dbs.scalars(select(m.Contact).where(m.Contact.account_id.is_not(None)).order_by(m.Contact.id)).first()


def test_edit_with_validation(client, dbs):
    c = _contact(dbs)
    url = f"/lightning/r/Contact/{c.id}/edit"
    base = {"first_name": c.first_name, "last_name": "", "email": "not-an-email", "_back": f"/lightning/r/Contact/{c.id}/view"}
    r = client.post(url, data=base)
    assert r.status_code == 200 and b"We hit a snag." in r.data and b"Complete this field." in r.data
    assert b"You have entered an invalid format." in r.data
    assert fresh(dbs, m.Contact, c.id).last_name == c.last_name
    r = client.post(url, data={"last_name": "Zed", "email": "zed@example.com", "phone": "(415) 555-0000"})
    assert r.status_code == 303
    c2 = fresh(dbs, m.Contact, c.id)
    assert (c2.last_name, c2.email, c2.phone) == ("Zed", "zed@example.com", "(415) 555-0000")
    assert c2.updated_at == NOW and c2.first_name == c.first_name  # fields not posted are untouched
    r = client.post(url, data={"last_name": "Zed", "email": "zed@example.com"}, headers=FETCH)
    assert r.json["ok"] is True


def test_create_opportunity_with_lookup_and_picklist(client, dbs):
    acc = dbs.scalars(select(m.Account).order_by(m.Account.id)).first()
    r = client.post("/lightning/o/Opportunity/new", data={
        "name": "Test Deal", "account_id": str(acc.id), "close_date": "4/30/2026", "stage": "Proposal", "amount": "$12,500",
        "owner_id": "1"})
    assert r.status_code == 303
    o = dbs.scalars(select(m.Opportunity).where(m.Opportunity.name == "Test Deal")).one()
    assert (o.account_id, o.amount, o.stage, o.probability, o.forecast_category) == (acc.id, 12500, "Proposal", 60, "Best Case")
    assert o.close_date.isoformat() == "2026-04-30"
    bad = client.post("/lightning/o/Opportunity/new", data={"name": "", "close_date": "31/31/2026", "stage": "Nope"})
    assert bad.status_code == 200 and b"We hit a snag." in bad.data
    assert dbs.scalar(select(func.count()).select_from(m.Opportunity).where(m.Opportunity.name == "")) == 0


def test_path_stage_and_close(client, dbs):
    o = dbs.scalars(select(m.Opportunity).where(m.Opportunity.stage == "Qualification").order_by(m.Opportunity.id)).first()
    assert client.post(f"/lightning/r/Opportunity/{o.id}/path", data={"value": "Negotiation"}).status_code == 303
    o2 = fresh(dbs, m.Opportunity, o.id)
    assert (o2.stage, o2.probability) == ("Negotiation", 80)
    client.post(f"/lightning/r/Opportunity/{o.id}/path", data={"value": "Closed Lost", "loss_reason": "Price", "from_modal": "1"})
    o3 = fresh(dbs, m.Opportunity, o.id)
    assert (o3.stage, o3.probability, o3.loss_reason, o3.forecast_category) == ("Closed Lost", 0, "Price", "Omitted")


def test_kanban_move_endpoint(client, dbs):
    o = dbs.scalars(select(m.Opportunity).where(m.Opportunity.stage == "Prospecting").order_by(m.Opportunity.id)).first()
    r = client.post("/crm/api/kanban/move", json={"id": o.id, "stage": "Proposal"})
    assert r.json["ok"]
    assert fresh(dbs, m.Opportunity, o.id).stage == "Proposal"
    assert client.post("/crm/api/kanban/move", json={"id": o.id, "stage": "Bogus"}).status_code == 400


def test_lead_conversion_to_existing_account(client, dbs):
    accounts = {normalize_company(a.name): a for a in dbs.scalars(select(m.Account))}
    lead = next(x for x in dbs.scalars(select(m.Lead).where(m.Lead.is_converted.is_(False)).order_by(m.Lead.id))
                if normalize_company(x.company) in accounts)
    acc = accounts[normalize_company(lead.company)]
    page = client.get(f"/lightning/r/Lead/{lead.id}/convert", headers=FETCH)
    assert f'value="{acc.id}"'.encode() in page.data  # offered as a match
    n_acc = dbs.scalar(select(func.count()).select_from(m.Account))
    r = client.post(f"/lightning/r/Lead/{lead.id}/convert", data={
        "account_mode": "existing", "existing_account_id": str(acc.id), "contact_mode": "new", "first_name": lead.first_name,
        "last_name": lead.last_name, "opp_mode": "new", "opp_name": "Converted Opp", "owner_id": "1"})
    assert r.status_code == 303
    lead2 = fresh(dbs, m.Lead, lead.id)
    assert lead2.is_converted and lead2.status == "Closed - Converted" and lead2.converted_account_id == acc.id
    opp = dbs.get(m.Opportunity, lead2.converted_opportunity_id)
    con = dbs.get(m.Contact, lead2.converted_contact_id)
    assert opp.name == "Converted Opp" and opp.account_id == acc.id and con.account_id == acc.id
    assert dbs.scalar(select(func.count()).select_from(m.Account)) == n_acc
    role = dbs.scalars(select(m.OpportunityContactRole).where(m.OpportunityContactRole.opportunity_id == opp.id)).one()
    assert role.contact_id == con.id and role.is_primary
    assert dbs.scalar(select(func.count()).select_from(m.Task).where(m.Task.who_type == "Lead", m.Task.who_id == lead.id)) == 0


def test_lead_conversion_without_opportunity_and_errors(client, dbs):
    lead = dbs.scalars(select(m.Lead).where(m.Lead.is_converted.is_(False)).order_by(m.Lead.id.desc())).first()
    bad = client.post(f"/lightning/r/Lead/{lead.id}/convert", data={"account_mode": "new", "account_name": "", "contact_mode": "new",
                                                                    "last_name": lead.last_name, "owner_id": "1", "no_opportunity": "on"})
    assert bad.status_code == 200 and b"We hit a snag." in bad.data
    assert not fresh(dbs, m.Lead, lead.id).is_converted
    ok = client.post(f"/lightning/r/Lead/{lead.id}/convert", data={"account_mode": "new", "account_name": "Brand New Co", "contact_mode": "new",
                                                                   "last_name": lead.last_name, "owner_id": "1", "no_opportunity": "on"})
    assert ok.status_code == 303
    lead2 = fresh(dbs, m.Lead, lead.id)
    assert lead2.is_converted and lead2.converted_opportunity_id is None
    assert dbs.get(m.Account, lead2.converted_account_id).name == "Brand New Co"


def test_list_view_create_rename_filters_delete(client, dbs):
    r = client.post("/lightning/o/Opportunity/listview/new", data={"name": "Big Proposals", "api_name": "", "visibility": "me"})
    assert r.status_code == 303 and "filters=open" in r.headers["Location"]
    lv = dbs.scalars(select(m.ListView).where(m.ListView.name == "Big Proposals")).one()
    assert (lv.api_name, lv.visibility, lv.is_standard, lv.filters) == ("Big_Proposals", "me", False, [])
    payload = {"scope": "mine", "filters": [{"field": "stage", "op": "equals", "value": "Proposal"},
                                            {"field": "amount", "op": "greater", "value": "$100,000"}]}
    assert client.post(f"/lightning/o/Opportunity/listview/{lv.id}/filters", data={"payload": json.dumps(payload)}).status_code == 303
    lv = fresh(dbs, m.ListView, lv.id)
    assert lv.scope == "mine" and lv.filters[1] == {"field": "amount", "op": "greater", "value": "100000"}
    page = client.get("/lightning/o/Opportunity/list?filterName=Big_Proposals")
    n = dbs.scalar(select(func.count()).select_from(m.Opportunity).where(
        m.Opportunity.owner_id == 1, m.Opportunity.stage == "Proposal", m.Opportunity.amount > 100000))
    assert f"{n} item".encode() in page.data
    assert client.post(f"/lightning/o/Opportunity/listview/rename/{lv.id}", data={"name": "Huge Proposals", "api_name": "Big_Proposals"}).status_code == 303
    assert fresh(dbs, m.ListView, lv.id).name == "Huge Proposals"
    std = dbs.scalars(select(m.ListView).where(m.ListView.is_standard.is_(True))).first()
    assert client.post(f"/lightning/o/{std.object}/listview/rename/{std.id}", data={"name": "X"}, headers=FETCH).status_code == 403
    assert client.post(f"/lightning/o/Opportunity/listview/delete/{lv.id}").status_code == 303
    assert fresh(dbs, m.ListView, lv.id) is None


def test_sort_and_search_this_list(client, dbs):
    r = client.get("/lightning/o/Account/list?filterName=AllAccounts&sort=name&dir=desc")
    last = dbs.scalars(select(m.Account.name).order_by(func.lower(m.Account.name).desc())).first()
    assert last.encode() in r.data.split(b"crm-list-rows")[1][:6000].replace(b"&amp;", b"&")
    r = client.get("/lightning/o/Account/list?filterName=AllAccounts&q=Seattle")
    assert b"Seattle" in r.data


def test_inline_edit_and_mass_owner(client, dbs):
    leads = dbs.scalars(select(m.Lead).where(m.Lead.is_converted.is_(False)).order_by(m.Lead.id).limit(2)).all()
    payload = {"obj": "Lead", "edits": [{"id": leads[0].id, "field": "email", "value": "new@x.com"},
                                        {"id": leads[1].id, "field": "status", "value": "Working - Contacted"}]}
    assert client.post("/crm/api/inline", data={"payload": json.dumps(payload)}).status_code == 303
    assert fresh(dbs, m.Lead, leads[0].id).email == "new@x.com"
    assert fresh(dbs, m.Lead, leads[1].id).status == "Working - Contacted"
    bad = {"obj": "Lead", "edits": [{"id": leads[0].id, "field": "email", "value": "nope"}]}
    client.post("/crm/api/inline", data={"payload": json.dumps(bad)})
    assert fresh(dbs, m.Lead, leads[0].id).email == "new@x.com"
    ids = ",".join(str(x.id) for x in leads)
    assert client.post("/lightning/o/Lead/mass/owner", data={"ids": ids, "owner_id": "7"}).status_code == 303
    assert {fresh(dbs, m.Lead, x.id).owner_id for x in leads} == {7}


def test_row_delete_and_change_owner(client, dbs):
    case = dbs.scalars(select(m.Case).order_by(m.Case.id)).first()
    assert client.post(f"/lightning/r/Case/{case.id}/owner", data={"owner_id": "13"}).status_code == 303
    assert fresh(dbs, m.Case, case.id).owner_id == 13
    assert client.post(f"/lightning/r/Case/{case.id}/delete").status_code == 303
    assert fresh(dbs, m.Case, case.id) is None


def test_follow_favorite_notifications(client, dbs):
    o = dbs.scalars(select(m.Opportunity).order_by(m.Opportunity.id.desc())).first()
    assert client.post(f"/lightning/r/Opportunity/{o.id}/follow").json["following"] is True
    assert client.post(f"/lightning/r/Opportunity/{o.id}/follow").json["following"] is False
    r = client.post("/crm/api/favorites/toggle", json={"url": "/lightning/o/Case/list", "label": "Cases | Stratus CRM"})
    assert r.json["favorite"] is True
    assert dbs.scalars(select(m.Favorite).where(m.Favorite.url == "/lightning/o/Case/list")).one().label == "Cases"
    unread = dbs.scalars(select(m.Notification).where(m.Notification.is_read.is_(False))).first()
    assert client.post(f"/crm/api/notifications/{unread.id}/read").status_code == 303
    assert fresh(dbs, m.Notification, unread.id).is_read


def test_composers_and_complete(client, dbs):
    o = dbs.scalars(select(m.Opportunity).where(m.Opportunity.owner_id == 1).order_by(m.Opportunity.id)).first()
    base = f"/lightning/r/Opportunity/{o.id}/activity/"
    assert client.post(base + "call", data={"subject": "Call", "description": "Talked", "what_id": f"Opportunity:{o.id}"}).status_code == 303
    assert client.post(base + "task", data={"subject": "Follow up", "activity_date": "3/16/2026", "owner_id": "7", "status": "Not Started",
                                            "priority": "High", "what_id": f"Opportunity:{o.id}"}).status_code == 303
    assert client.post(base + "event", data={"subject": "Demo", "start": "3/17/2026", "start_time": "2:00 PM", "end": "3/17/2026",
                                             "end_time": "3:00 PM", "owner_id": "1", "what_id": f"Opportunity:{o.id}"}).status_code == 303
    assert client.post(base + "email", data={"to": "a@b.com", "subject": "Hi", "body": "Hello"}).status_code == 303
    bad = client.post(base + "event", data={"subject": "Demo", "start": "3/17/2026", "start_time": "2:00 PM", "end": "3/16/2026",
                                            "end_time": "3:00 PM", "owner_id": "1"})
    assert bad.status_code == 200
    tasks = dbs.scalars(select(m.Task).where(m.Task.what_id == o.id, m.Task.created_at == NOW)).all()
    kinds = sorted((t.task_subtype, t.status) for t in tasks)
    assert kinds == [("Call", "Completed"), ("Email", "Completed"), ("Task", "Not Started")]
    follow = next(t for t in tasks if t.task_subtype == "Task")
    assert follow.owner_id == 7 and follow.activity_date.isoformat() == "2026-03-16"
    ev = dbs.scalars(select(m.Event).where(m.Event.what_id == o.id, m.Event.subject == "Demo")).one()
    assert ev.start.isoformat() == "2026-03-17T14:00:00" and ev.end.hour == 15
    client.post(f"/lightning/r/Task/{follow.id}/complete", data={"done": "1"})
    t2 = fresh(dbs, m.Task, follow.id)
    assert t2.status == "Completed" and t2.completed_at == NOW


def test_merge_duplicate_contacts(client, dbs):
    from apps.crm import records as R  # noqa: F401

    dup = dbs.execute(select(m.Contact.id, func.min(m.Contact.id)).group_by(m.Contact.email).having(func.count() > 1)).first()
    keep = dbs.get(m.Contact, dup[1])
    other = dbs.scalars(select(m.Contact).where(m.Contact.email == keep.email, m.Contact.id != keep.id)).one()
    page = client.get(f"/lightning/r/Contact/{keep.id}/view")
    assert b"potential duplicate" in page.data
    r = client.get(f"/lightning/r/Contact/{keep.id}/merge?step=compare&ids={keep.id},{other.id}", headers=FETCH)
    assert b"Use Record 2 as master" in r.data
    assert client.post(f"/lightning/r/Contact/{keep.id}/merge", data={"ids": f"{keep.id},{other.id}", "master": str(keep.id)}).status_code == 303
    assert fresh(dbs, m.Contact, other.id) is None and fresh(dbs, m.Contact, keep.id) is not None


def test_report_filters_group_sort_save(client, dbs):
    rep = dbs.get(m.Report, 1)  # Opportunities by Stage
    r = client.get("/lightning/r/Report/1/view?flt=stage~equals~Proposal%7Camount~greater~100000&scope=all&group=owner_id&sort=amount&dir=desc")
    n = dbs.scalar(select(func.count()).select_from(m.Opportunity).where(m.Opportunity.stage == "Proposal", m.Opportunity.amount > 100000))
    assert f'id="crm-report-count">{n:,}<'.encode() in r.data
    assert b"Unsaved changes" in r.data
    r = client.post("/lightning/r/Report/1/save", data={"flt": "stage~equals~Proposal", "scope": "mine", "group": "none", "sort": "amount", "dir": "desc"})
    assert r.status_code == 303
    rep = fresh(dbs, m.Report, 1)
    assert rep.filters == [{"field": "stage", "op": "equals", "value": "Proposal"}] and rep.scope == "mine" and rep.group_by is None
    r = client.post("/lightning/r/Report/1/saveas", data={"name": "Copy", "folder": "Private Reports", "flt": "", "scope": "all", "group": "stage"})
    assert r.status_code == 303
    new = dbs.scalars(select(m.Report).where(m.Report.name == "Copy")).one()
    assert new.filters == [] and new.group_by == "stage" and new.owner_id == 1
    r = client.post("/lightning/o/Report/new/save", data={"name": "Mine", "type": "Lead", "folder": "Marketing Reports"})
    assert r.status_code == 303
    assert dbs.scalars(select(m.Report).where(m.Report.name == "Mine")).one().report_type == "Lead"


def test_home_goal_and_density(client, dbs):
    assert client.post("/lightning/page/home/goal", data={"goal": "$900,000"}).status_code == 303
    assert fresh(dbs, m.User, 1).quarterly_goal == 900000
    assert client.post("/crm/api/density", data={"value": "compact"}).status_code == 303
    assert fresh(dbs, m.User, 1).display_density == "compact"
    assert b"crm-compact" in client.get("/lightning/page/home").data


def test_recently_viewed_is_volatile(client, dbs, app):
    acc = dbs.scalars(select(m.Account).where(m.Account.last_viewed_at.is_(None)).order_by(m.Account.id)).first()
    client.get(f"/lightning/r/Account/{acc.id}/view")
    assert fresh(dbs, m.Account, acc.id).last_viewed_at == NOW
    assert b"Recently Viewed" in client.get("/lightning/o/Account/list").data


def test_create_case_lead_account_and_errors(client, dbs):
    acc = dbs.scalars(select(m.Account).order_by(m.Account.id)).first()
    n_cases = dbs.scalar(select(func.count()).select_from(m.Case))
    r = client.post("/lightning/o/Case/new", data={"subject": "Printer on fire", "account_id": str(acc.id), "status": "New",
                                                    "priority": "High", "origin": "Phone", "owner_id": "1"})
    assert r.status_code == 303
    case = dbs.scalars(select(m.Case).where(m.Case.subject == "Printer on fire")).one()
    assert (case.account_id, case.priority, case.origin, case.created_at) == (acc.id, "High", "Phone", NOW)
    assert case.case_number and dbs.scalar(select(func.count()).select_from(m.Case)) == n_cases + 1
    r = client.post("/lightning/o/Lead/new", data={"first_name": "Ada", "last_name": "Quill", "company": "Quill Works",
                                                    "status": "Open - Not Contacted", "lead_source": "Web", "owner_id": "1"})
    assert r.status_code == 303
    lead = dbs.scalars(select(m.Lead).where(m.Lead.last_name == "Quill")).one()
    assert (lead.company, lead.status, lead.is_converted) == ("Quill Works", "Open - Not Contacted", False)
    r = client.post("/lightning/o/Account/new", data={"name": "Zeta Test Holdings", "industry": "Banking", "owner_id": "1"})
    assert r.status_code == 303 and dbs.scalars(select(m.Account).where(m.Account.name == "Zeta Test Holdings")).one().industry == "Banking"
    # Required fields and picklist values are enforced; nothing is written.
    bad = client.post("/lightning/o/Case/new", data={"subject": "", "status": "Bogus", "priority": "High", "origin": "Phone", "owner_id": "1"})
    assert bad.status_code == 200 and b"We hit a snag." in bad.data
    bad = client.post("/lightning/o/Lead/new", data={"last_name": "NoCompany", "status": "Open - Not Contacted", "owner_id": "1"})
    assert bad.status_code == 200 and b"Complete this field." in bad.data
    assert dbs.scalar(select(func.count()).select_from(m.Lead).where(m.Lead.last_name == "NoCompany")) == 0


def test_clone_prefills_and_saves_a_copy(client, dbs):
    o = dbs.scalars(select(m.Opportunity).order_by(m.Opportunity.id)).first()
    r = client.get(f"/lightning/r/Opportunity/{o.id}/clone", headers=FETCH)
    assert r.status_code == 200 and o.name.replace("&", "&amp;").encode() in r.data
    n = dbs.scalar(select(func.count()).select_from(m.Opportunity))
    r = client.post("/lightning/o/Opportunity/new", data={"name": o.name + " (Clone)", "account_id": str(o.account_id),
                                                           "close_date": o.close_date.strftime("%-m/%-d/%Y"), "stage": o.stage,
                                                           "amount": str(o.amount), "owner_id": str(o.owner_id)})
    assert r.status_code == 303 and dbs.scalar(select(func.count()).select_from(m.Opportunity)) == n + 1
    copy = dbs.scalars(select(m.Opportunity).where(m.Opportunity.name == o.name + " (Clone)")).one()
    assert (copy.amount, copy.stage, copy.account_id) == (o.amount, o.stage, o.account_id) and copy.id != o.id


def test_notes_create_edit_delete(client, dbs):
    acc = dbs.scalars(select(m.Account).order_by(m.Account.id.desc())).first()
    assert client.post(f"/lightning/r/Account/{acc.id}/note/new", data={"title": "", "body": "x"}).status_code == 200
    assert client.post(f"/lightning/r/Account/{acc.id}/note/new", data={"title": "Renewal", "body": "Call in May"}).status_code == 303
    note = dbs.scalars(select(m.Note).where(m.Note.parent_type == "Account", m.Note.parent_id == acc.id, m.Note.title == "Renewal")).one()
    assert (note.body, note.owner_id, note.created_at) == ("Call in May", 1, NOW)
    assert b"Renewal" in client.get(f"/lightning/r/Account/{acc.id}/view").data
    assert client.post(f"/lightning/r/Note/{note.id}/edit", data={"title": "Renewal 2027", "body": "Call in May"}).status_code == 303
    assert fresh(dbs, m.Note, note.id).title == "Renewal 2027"
    assert client.post(f"/lightning/r/Note/{note.id}/delete").status_code == 303
    assert fresh(dbs, m.Note, note.id) is None


def test_global_search_grouped_and_typeahead(client, dbs):
    acc = dbs.scalars(select(m.Account).order_by(m.Account.id)).first()
    word = acc.name.split()[0]
    page = client.get(f"/lightning/search?q={word}").data.decode()
    assert "Accounts" in page and acc.name.replace("&", "&amp;") in page
    j = client.get(f"/crm/api/search?q={acc.name}").json
    assert any(x["url"] == f"/lightning/r/Account/{acc.id}/view" for x in j["results"])
    assert client.get("/crm/api/search?q=").json["heading"] == "Recent Items"
    scoped = client.get(f"/lightning/search?q={word}&scope=Account").data.decode()
    assert acc.name.replace("&", "&amp;") in scoped


def test_task_list_views_today_and_overdue(client, dbs):
    today = NOW.date()
    mine_open = select(func.count()).select_from(m.Task).where(m.Task.owner_id == 1, m.Task.status != "Completed")
    overdue = dbs.scalar(mine_open.where(m.Task.activity_date < today))
    due_today = dbs.scalar(mine_open.where(m.Task.activity_date == today))
    assert overdue > 0 and due_today > 0  # the seeded world has both, relative to its frozen now
    views = {v.api_name: v for v in dbs.scalars(select(m.ListView).where(m.ListView.object == "Task"))}
    assert views
    for api in views:
        assert client.get(f"/lightning/o/Task/list?filterName={api}").status_code == 200
    t = dbs.scalars(select(m.Task).where(m.Task.owner_id == 1, m.Task.status != "Completed", m.Task.activity_date == today)
                    .order_by(m.Task.id)).first()
    assert client.post(f"/lightning/r/Task/{t.id}/complete", data={"done": "1"}).status_code in (200, 303)
    assert fresh(dbs, m.Task, t.id).status == "Completed"
    assert dbs.scalar(mine_open.where(m.Task.activity_date == today)) == due_today - 1
