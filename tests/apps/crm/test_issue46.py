"""Issue 46 (crm): picklists sort in their defined order; an account's Change Owner takes its contacts and open
opportunities along; a merge re-parents every child of the merged-away records; an email is logged on who it went
to. In process (the service layer, the tools and the routes); tests/apps/crm/test_issue46_browser.py drives the
same four through the UI."""

from __future__ import annotations

import re

import pytest
from flask import g
from hypothesis import HealthCheck, given, settings, strategies as st
from sqlalchemy import func, select

from apps.crm import models as m
from apps.crm.meta import LIST_OBJECTS, OBJECTS
from apps.crm.services import merge as merge_svc
from apps.crm.services import read
from apps.crm.services import reports as rep_svc
from domain.crm import OPEN_STAGES
from tests.apps.crm.conftest import fresh
from apps._shared.tools import ToolError
from tests.apps.crm.test_tools import call

ONE_WORLD = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

# Every sortable picklist of every list view's object.
PICKLISTS = [(obj, f.name) for obj in LIST_OBJECTS for f in OBJECTS[obj].fields
             if f.type == "picklist" and f.options and f.sortable]


def in_world(app, fn, *a, **kw):
    """Run a service function in the test's world (as a request or a tool call would), committing."""
    from apps._shared.db import db

    with app.test_request_context("/"):
        g.uigym_world = app.config["TEST_WORLD"]
        out = fn(*a, **kw)
        db().commit()
        return out


# ------------------------------------------------------------------------------------------- picklist sort
def test_every_list_object_has_sortable_picklists():
    assert {o for o, _ in PICKLISTS} == set(LIST_OBJECTS)
    assert ("Opportunity", "stage") in PICKLISTS and ("Lead", "status") in PICKLISTS and ("Case", "priority") in PICKLISTS


@given(data=st.data())
def test_rank_orders_any_values_by_the_picklist(data):
    obj, name = data.draw(st.sampled_from(PICKLISTS))
    f = OBJECTS[obj].field(name)
    vals = data.draw(st.lists(st.sampled_from(f.options + ["", None, "Not a value"]), max_size=30))
    ordered = sorted(vals, key=f.rank)
    defined = [v for v in ordered if v in f.options]
    assert defined == sorted(defined, key=f.options.index)  # the picklist's order, not A-Z
    assert all(not v for v in ordered[:sum(1 for v in vals if not v)])  # blanks first
    if "Not a value" in vals:
        assert ordered[-1] == "Not a value"  # an undefined value after the defined ones


def _ranks(dbs, obj: str, fname: str, ids: list[int]) -> list[int]:
    model, f = OBJECTS[obj].model, OBJECTS[obj].field(fname)
    val = dict(dbs.execute(select(model.id, getattr(model, fname)).where(model.id.in_(ids))).all())
    return [f.rank(val[i]) for i in ids]


@ONE_WORLD
@given(pick=st.sampled_from(PICKLISTS), direction=st.sampled_from(["asc", "desc"]))
def test_list_views_sort_every_picklist_in_its_order(app, client, dbs, pick, direction):
    """The list service (what tools read) and the list page (what a person sees) both sort a picklist column by
    the picklist's order, ascending, and the reverse descending."""
    obj, fname = pick
    res = in_world(app, read.list_records, obj, None, "", fname, direction, 100_000)
    ids = [r["id"] for r in res["records"]]
    assert len(ids) == res["total"] > 0
    ranks = _ranks(dbs, obj, fname, ids)
    assert ranks == sorted(ranks, reverse=direction == "desc")
    assert len(set(ranks)) > 1 or obj == "Task"  # the seed has several values of each (some Task ones are uniform)
    page = client.get(f"/lightning/o/{obj}/list?sort={fname}&dir={direction}")
    assert page.status_code == 200
    shown = list(dict.fromkeys(int(x) for x in re.findall(rf'/lightning/r/{obj}/(\d+)/view', page.get_data(as_text=True))))
    assert shown, "the page lists rows"
    page_ranks = _ranks(dbs, obj, fname, shown)
    assert page_ranks == sorted(page_ranks, reverse=direction == "desc")
    tool = call(app, "list_records", object=obj, sort_by=fname, direction=direction, limit=25)
    assert [r["id"] for r in tool["records"]] == ids[:25]


def test_report_sort_and_grouping_follow_the_picklist(app, dbs):
    from apps._shared.db import db

    rep_id = dbs.scalars(select(m.Report.id).where(m.Report.report_type == "Opportunity").order_by(m.Report.id)).first()
    f = OBJECTS["Opportunity"].field("stage")
    run = lambda st_: in_world(app, lambda: rep_svc.run_report(db().get(m.Report, rep_id), st_))  # noqa: E731
    for direction in ("asc", "desc"):
        res = run({"filters": [], "scope": "all", "group": None, "sort": "stage", "dir": direction,
                   "columns": ["name", "stage", "amount"]})
        ranks = [f.rank(r["cells"][1]["text"]) for r in res["rows"]]
        assert ranks == sorted(ranks, reverse=direction == "desc") and len(set(ranks)) == len(f.options)
    res = run({"filters": [], "scope": "all", "group": "stage", "sort": "amount", "dir": "asc", "columns": ["name", "stage", "amount"]})
    assert [gr["label"] for gr in res["groups"]] == f.options


# ------------------------------------------------------------------------------------------- change owner
def _account_with_mixed_children(dbs) -> m.Account:
    """An account with contacts (one owned by someone else), open and closed opportunities and open and closed
    cases owned by its owner, and an open opportunity owned by someone else (seed 0, a few owners set here)."""
    opps_of = lambda a: list(dbs.scalars(select(m.Opportunity).where(m.Opportunity.account_id == a.id).order_by(m.Opportunity.id)))  # noqa: E731
    cases_of = lambda a: list(dbs.scalars(select(m.Case).where(m.Case.account_id == a.id).order_by(m.Case.id)))  # noqa: E731
    cons_of = lambda a: list(dbs.scalars(select(m.Contact).where(m.Contact.account_id == a.id).order_by(m.Contact.id)))  # noqa: E731
    for a in dbs.scalars(select(m.Account).order_by(m.Account.id)):
        opps, cases, cons = opps_of(a), cases_of(a), cons_of(a)
        op = [o for o in opps if o.stage in OPEN_STAGES]
        if len(op) >= 2 and len(opps) > len(op) and len(cases) >= 2 and len(cons) >= 2:
            break
    else:
        raise AssertionError("seed 0 has such an account")
    closed = [o for o in opps if o.stage not in OPEN_STAGES]
    for o in op[:-1] + closed:
        o.owner_id = a.owner_id
    op[-1].owner_id = next(u for u in (3, 4, 5) if u != a.owner_id)  # not 7 or 8, the new owners here
    cases[0].status, cases[1].status = "Working", "Closed"
    for c in cases + cons[:-1]:
        c.owner_id = a.owner_id
    cons[-1].owner_id = op[-1].owner_id
    dbs.commit()
    return a


def _owners(dbs, acc_id: int) -> dict:
    dbs.expire_all()
    return {"acc": dbs.get(m.Account, acc_id).owner_id,
            "contacts": {c.id: c.owner_id for c in dbs.scalars(select(m.Contact).where(m.Contact.account_id == acc_id))},
            "opps": {o.id: (o.owner_id, o.stage) for o in dbs.scalars(select(m.Opportunity).where(m.Opportunity.account_id == acc_id))},
            "cases": {c.id: (c.owner_id, c.status) for c in dbs.scalars(select(m.Case).where(m.Case.account_id == acc_id))}}


def _expected(before: dict, new: int, opts: dict) -> dict:
    old = before["acc"]
    out = {"acc": new, "contacts": {i: (new if o == old else o) for i, o in before["contacts"].items()}, "opps": {}, "cases": {}}
    for i, (o, stage) in before["opps"].items():
        is_open = stage in OPEN_STAGES
        moves = (is_open and (o == old or opts.get("transfer_others_open_opportunities"))) or (
            not is_open and o == old and opts.get("transfer_closed_opportunities"))
        out["opps"][i] = (new if moves else o, stage)
    for i, (o, status) in before["cases"].items():
        key = "transfer_closed_cases" if status == "Closed" else "transfer_open_cases"
        out["cases"][i] = (new if o == old and opts.get(key) else o, status)
    return out


OPTS = ["transfer_others_open_opportunities", "transfer_closed_opportunities", "transfer_open_cases", "transfer_closed_cases"]


@ONE_WORLD
@given(opts=st.fixed_dictionaries({k: st.booleans() for k in OPTS}), via=st.sampled_from(["form", "tool"]))
def test_account_owner_change_moves_its_contacts_and_open_opportunities(app, client, dbs, opts, via):
    acc = _account_with_mixed_children(dbs)
    before = _owners(dbs, acc.id)
    new = 8 if before["acc"] != 8 else 7
    if via == "form":
        r = client.post(f"/lightning/r/Account/{acc.id}/owner", data={"owner_id": str(new), **{k: "on" for k, v in opts.items() if v}})
        assert r.status_code == 303, r.data[:300]
    else:
        out = call(app, "change_owner", object="Account", record_id=acc.id, owner_id=new, **opts)
        assert out["owner"]["id"] == new and set(out["also_moved"]) == {"Contact", "Opportunity", "Case"}
    assert _owners(dbs, acc.id) == _expected(before, new, opts)


def test_mass_owner_change_of_accounts_moves_the_same(app, client, dbs):
    acc = _account_with_mixed_children(dbs)
    before = _owners(dbs, acc.id)
    new = 8 if before["acc"] != 8 else 7
    r = client.post("/lightning/o/Account/mass/owner", data={"ids": str(acc.id), "owner_id": str(new)})
    assert r.status_code == 303, r.data[:300]
    assert _owners(dbs, acc.id) == _expected(before, new, {})


def test_change_owner_dialog_names_what_moves_and_options_are_accounts_only(app, client, dbs):
    acc = _account_with_mixed_children(dbs)
    html = client.get(f"/lightning/r/Account/{acc.id}/owner").get_data(as_text=True)
    for label in ("Transfer open opportunities not owned by the existing account owner", "Transfer closed opportunities",
                  "Transfer open cases owned by the existing account owner", "Transfer closed cases",
                  "Contacts", "Open opportunities"):
        assert label in html
    opp = dbs.scalars(select(m.Opportunity).order_by(m.Opportunity.id)).first()
    assert "Transfer closed opportunities" not in client.get(f"/lightning/r/Opportunity/{opp.id}/owner").get_data(as_text=True)
    with pytest.raises(ToolError, match="account"):
        call(app, "change_owner", object="Opportunity", record_id=opp.id, owner_id=8, transfer_closed_opportunities=True)
    assert fresh(dbs, m.Opportunity, opp.id).owner_id == opp.owner_id


# ------------------------------------------------------------------------------------------------ merge
def test_every_id_column_is_declared_in_references():
    """A table with a column pointing at a record must say what it points at (models.REFERENCES), so that a merge
    (which re-parents by that map) cannot forget a future child table."""
    undeclared = []
    for table in m.Base.metadata.sorted_tables:
        refs = m.REFERENCES.get(table.name)
        for col in table.columns:
            if col.name.endswith("_id") and (refs is None or col.name not in refs):
                undeclared.append(f"{table.name}.{col.name}")
        for col, target in (refs or {}).items():
            assert col in table.columns, f"REFERENCES names {table.name}.{col}, which does not exist"
            assert not target.startswith("@") or target[1:] in table.columns
    assert undeclared == []
    to_accounts = {(mod.__tablename__, col) for mod, col, typ in merge_svc.children("Account")}
    for must in [("contacts", "account_id"), ("opportunities", "account_id"), ("cases", "account_id"),
                 ("accounts", "parent_id"), ("leads", "converted_account_id"), ("notes", "parent_id"),
                 ("tasks", "what_id"), ("events", "what_id"), ("file_links", "parent_id")]:
        assert must in to_accounts


def _point_everything_at(dbs, obj: str, loser: int, master: int) -> dict:
    """One row of every child table that points at the record `loser` (a new row where none does), and a file shared
    to both records. Returns {(table, column): ids pointing at `loser`}."""
    nid = lambda model: (dbs.scalar(select(func.max(model.id))) or 0) + 1  # noqa: E731
    now = dbs.scalar(select(func.max(m.Task.created_at)))
    for model, col, typ in merge_svc.children(obj):
        cond = [getattr(model, col) == loser] + ([getattr(model, typ) == obj] if typ else [])
        if dbs.scalar(select(func.count()).select_from(model).where(*cond)):
            continue
        template_row = dbs.scalars(select(model).order_by(model.id)).first()
        if template_row is None:
            continue
        row = model(**{c.key: getattr(template_row, c.key) for c in model.__table__.columns})
        row.id = nid(model)
        setattr(row, col, loser)
        if typ:
            setattr(row, typ, obj)
        if model is m.Account and col == "parent_id":
            row.name = "Child of the duplicate"
        dbs.add(row)
        dbs.flush()
    f = dbs.scalars(select(m.File).order_by(m.File.id)).first()
    for pid in (loser, master):
        if not dbs.scalar(select(m.FileLink).where(m.FileLink.file_id == f.id, m.FileLink.parent_type == obj, m.FileLink.parent_id == pid)):
            dbs.add(m.FileLink(id=nid(m.FileLink), file_id=f.id, parent_type=obj, parent_id=pid, created_at=now))
            dbs.flush()
    dbs.commit()
    out = {}
    for model, col, typ in merge_svc.children(obj):
        cond = [getattr(model, col) == loser] + ([getattr(model, typ) == obj] if typ else [])
        out[(model.__tablename__, col)] = set(dbs.scalars(select(model.id).where(*cond)))
    return out


@pytest.mark.parametrize("via", ["form", "tool"])
@pytest.mark.parametrize("obj", ["Account", "Contact", "Lead"])
def test_merge_reparents_every_child_of_the_merged_away_record(app, client, dbs, obj, via):
    master, loser = _duplicate_pair(app, dbs, obj)
    pointing = _point_everything_at(dbs, obj, loser, master)
    assert pointing[("file_links", "parent_id")]
    if via == "tool":
        call(app, "merge_records", object=obj, master_id=master, duplicate_ids=[loser])
    else:
        r = client.post(f"/lightning/r/{obj}/{master}/merge", data={"ids": f"{master},{loser}", "master": str(master)})
        assert r.status_code == 303, r.data[:300]
    dbs.expire_all()
    assert dbs.get(OBJECTS[obj].model, loser) is None
    for model, col, typ in merge_svc.children(obj):
        cond = [getattr(model, col) == loser] + ([getattr(model, typ) == obj] if typ else [])
        assert dbs.scalar(select(func.count()).select_from(model).where(*cond)) == 0, f"{model.__tablename__}.{col}"
        moved = pointing[(model.__tablename__, col)]
        if (model.__tablename__, col) in merge_svc.DROPPED or not moved:
            continue
        now_at = {r.id: getattr(r, col) for r in dbs.scalars(select(model).where(model.id.in_(moved)))}
        if model is m.FileLink:  # the master already had the shared file: that share is not doubled
            links = list(dbs.scalars(select(m.FileLink).where(m.FileLink.parent_type == obj, m.FileLink.parent_id == master)))
            assert len({lk.file_id for lk in links}) == len(links)
            assert all(v == master for v in now_at.values())
        else:
            assert now_at == {i: master for i in moved}, f"{model.__tablename__}.{col}"


def _duplicate_pair(app, dbs, obj: str) -> tuple[int, int]:
    from apps.crm import records as R

    model = OBJECTS[obj].model

    def find():
        for rec in db_scalars():
            dups = R.duplicates_of(obj, rec)
            if dups:
                return rec.id, dups[0].id
        raise AssertionError(f"seed 0 has duplicate {obj}s")

    def db_scalars():
        from apps._shared.db import db
        return db().scalars(select(model).order_by(model.id))
    return in_world(app, find)


# ------------------------------------------------------------------------------------------------ email
def _opp_with_two_roles(dbs) -> tuple[m.Opportunity, m.Contact, m.Contact]:
    for o in dbs.scalars(select(m.Opportunity).order_by(m.Opportunity.id)):
        roles = list(dbs.scalars(select(m.OpportunityContactRole).where(m.OpportunityContactRole.opportunity_id == o.id)
                                 .order_by(m.OpportunityContactRole.is_primary.desc(), m.OpportunityContactRole.id)))
        people = [dbs.get(m.Contact, r.contact_id) for r in roles]
        if len(people) >= 2 and roles[0].is_primary and all(p and p.email for p in people) and people[0].email != people[1].email:
            return o, people[0], people[1]
    raise AssertionError("seed 0 has an opportunity with two contact roles")


def _last_email(dbs) -> m.Task:
    dbs.expire_all()
    return dbs.scalars(select(m.Task).where(m.Task.task_subtype == "Email").order_by(m.Task.id.desc())).first()


@ONE_WORLD
@given(pick=st.integers(0, 10_000), via=st.sampled_from(["form", "tool"]), shape=st.sampled_from(["role", "account", "both", "stranger"]))
def test_an_email_is_logged_on_who_it_went_to(app, client, dbs, pick, via, shape):
    """From an opportunity: to a non-primary contact role, to another contact of the account, to both (the first
    is the Name), to an address of no one (no Name; the To line keeps it)."""
    o, primary, other = _opp_with_two_roles(dbs)
    acc_contacts = [c for c in dbs.scalars(select(m.Contact).where(m.Contact.account_id == o.account_id).order_by(m.Contact.id))
                    if c.email and c.id not in (primary.id, other.id)
                    and dbs.scalar(select(func.count()).select_from(m.Contact).where(func.lower(m.Contact.email) == c.email.lower())) == 1]
    third = acc_contacts[pick % len(acc_contacts)] if acc_contacts else other
    to, who = {"role": (other.email, other.id), "account": (third.email, third.id),
               "both": (f"{other.email}, {primary.email}", other.id), "stranger": ("someone@nowhere.example", None)}[shape]
    subject = f"Probe {pick} {shape}"
    if via == "tool":
        call(app, "send_email", object="Opportunity", record_id=o.id, subject=subject, body="Hello", to=to)
    else:
        r = client.post(f"/lightning/r/Opportunity/{o.id}/activity/email", data={"to": to, "subject": subject, "body": "Hello"})
        assert r.status_code == 303, r.data[:300]
    t = _last_email(dbs)
    assert t.subject == f"Email: {subject}" and t.description.startswith(f"To: {to}")
    assert (t.who_type, t.who_id) == (("Contact", who) if who else (None, None))
    assert (t.what_type, t.what_id) == ("Opportunity", o.id)


def test_default_email_still_goes_to_the_records_person(app, client, dbs):
    c = dbs.scalars(select(m.Contact).where(m.Contact.email != "", m.Contact.account_id.is_not(None)).order_by(m.Contact.id)).first()
    call(app, "send_email", object="Contact", record_id=c.id, subject="Default", body="Hi")
    t = _last_email(dbs)
    assert (t.who_type, t.who_id, t.what_type, t.what_id) == ("Contact", c.id, "Account", c.account_id)
    lead = dbs.scalars(select(m.Lead).where(m.Lead.email != "", m.Lead.is_converted.is_(False)).order_by(m.Lead.id)).first()
    call(app, "send_email", object="Lead", record_id=lead.id, subject="Elsewhere", body="Hi", to="someone@nowhere.example")
    t = _last_email(dbs)
    assert (t.who_type, t.who_id, t.what_type) == ("Lead", lead.id, None)  # a lead's page keeps it on its timeline
