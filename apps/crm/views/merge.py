"""Merge duplicate accounts, contacts or leads: choose the records, the master and each field's value."""

from __future__ import annotations

from flask import abort, render_template, request
from sqlalchemy import select, update

from apps._shared import db
from apps.crm import models as m
from apps.crm import records as R
from apps.crm.meta import OBJECTS
from apps.crm.views import bp, done, fail, json_ok, rurl
from apps.crm.views.records import modal_response

MERGE_FIELDS = {
    "Account": ["name", "account_number", "type", "industry", "rating", "phone", "website", "annual_revenue", "employees",
                "ownership", "parent_id", "billing_street", "billing_city", "billing_state", "billing_postal_code",
                "billing_country", "description", "owner_id"],
    "Contact": ["salutation", "first_name", "last_name", "account_id", "title", "department", "email", "phone", "mobile",
                "reports_to_id", "lead_source", "birthdate", "mailing_street", "mailing_city", "mailing_state",
                "mailing_postal_code", "mailing_country", "description", "owner_id"],
    "Lead": ["salutation", "first_name", "last_name", "company", "title", "email", "phone", "mobile", "website", "status",
             "lead_source", "industry", "rating", "annual_revenue", "employees", "street", "city", "state", "postal_code",
             "country", "description", "owner_id"],
}


def _display(obj: str, rec, fname: str, names: R.Names) -> str:
    f = OBJECTS[obj].field(fname)
    v = getattr(rec, fname)
    if f.type in ("lookup", "user"):
        return names.name("User" if f.type == "user" else f.ref[0], v) if v else ""
    return R.fmt_value(f, v)


def candidates(obj: str, rec) -> list:
    return [rec] + R.duplicates_of(obj, rec)


@bp.get("/lightning/r/<obj>/<int:rid>/merge")
def merge_start(obj: str, rid: int):
    if obj not in MERGE_FIELDS:
        abort(404)
    rec = R.get_record(obj, rid)
    o = OBJECTS[obj]
    recs = candidates(obj, rec)
    names = R.Names()
    for r in recs:
        names.add("User", r.owner_id)
        if obj == "Contact":
            names.add("Account", r.account_id)
    names.load()
    step = request.args.get("step", "select")
    if step == "compare":
        ids = [int(x) for x in request.args.get("ids", "").split(",") if x.isdecimal()]
        chosen = [r for r in recs if r.id in ids]
        if len(chosen) < 2:
            return fail(message=f"Select at least two {o.plural.lower()} to merge.")
        for r in chosen:
            for fname in MERGE_FIELDS[obj]:
                f = o.field(fname)
                if f.type in ("lookup", "user"):
                    names.add("User" if f.type == "user" else f.ref[0], getattr(r, fname))
        names.load()
        rows = []
        master = chosen[0]
        for fname in MERGE_FIELDS[obj]:
            vals = [(r.id, _display(obj, r, fname, names)) for r in chosen]
            differ = len({v for _, v in vals}) > 1
            pick = master.id
            if differ and not getattr(master, fname) and fname != "description":
                pick = next((rid_ for rid_, v in vals if v), master.id)
            rows.append({"name": fname, "label": o.field(fname).label, "vals": vals, "differ": differ, "pick": pick})
        return modal_response(render_template("crm/merge.html", step="compare", obj=obj, o=o, rec=rec, recs=chosen, rows=rows,
                                              master=master.id, names=names), obj, rid)
    return modal_response(render_template("crm/merge.html", step="select", obj=obj, o=o, rec=rec, recs=recs, names=names), obj, rid)


@bp.post("/lightning/r/<obj>/<int:rid>/merge")
def merge_do(obj: str, rid: int):
    if obj not in MERGE_FIELDS:
        abort(404)
    rec = R.get_record(obj, rid)
    o = OBJECTS[obj]
    allowed = {r.id: r for r in candidates(obj, rec)}
    ids = [int(x) for x in request.form.get("ids", "").split(",") if x.isdecimal() and int(x) in allowed]
    master_id = request.form.get("master", "")
    if len(ids) < 2 or not master_id.isdecimal() or int(master_id) not in ids:
        return fail(message="Choose a master record.")
    master = allowed[int(master_id)]
    others = [allowed[i] for i in ids if i != master.id]
    values = {}
    for fname in MERGE_FIELDS[obj]:
        src = request.form.get(f"f_{fname}", "")
        if src.isdecimal() and int(src) in ids and int(src) != master.id:
            values[fname] = getattr(allowed[int(src)], fname)
    R.update(master, values)
    s = db()
    loser_ids = [r.id for r in others]
    if obj == "Account":
        s.execute(update(m.Contact).where(m.Contact.account_id.in_(loser_ids)).values(account_id=master.id))
        s.execute(update(m.Opportunity).where(m.Opportunity.account_id.in_(loser_ids)).values(account_id=master.id))
        s.execute(update(m.Case).where(m.Case.account_id.in_(loser_ids)).values(account_id=master.id))
        s.execute(update(m.Account).where(m.Account.parent_id.in_(loser_ids)).values(parent_id=master.id))
        for model in (m.Task, m.Event):
            s.execute(update(model).where(model.what_type == "Account", model.what_id.in_(loser_ids)).values(what_id=master.id))
    elif obj == "Contact":
        for cr in s.scalars(select(m.OpportunityContactRole).where(m.OpportunityContactRole.contact_id.in_(loser_ids))):
            cr.contact_id = master.id
        s.execute(update(m.Case).where(m.Case.contact_id.in_(loser_ids)).values(contact_id=master.id))
        s.execute(update(m.Contact).where(m.Contact.reports_to_id.in_(loser_ids)).values(reports_to_id=master.id))
        for model in (m.Task, m.Event):
            s.execute(update(model).where(model.who_type == "Contact", model.who_id.in_(loser_ids)).values(who_id=master.id))
    else:
        for model in (m.Task, m.Event):
            s.execute(update(model).where(model.who_type == "Lead", model.who_id.in_(loser_ids)).values(who_id=master.id))
    s.execute(update(m.Note).where(m.Note.parent_type == obj, m.Note.parent_id.in_(loser_ids)).values(parent_id=master.id))
    for r in others:
        s.execute(m.Follow.__table__.delete().where(m.Follow.object == obj, m.Follow.record_id == r.id))
        s.delete(r)
    s.commit()
    name = master.name if obj in ("Contact", "Lead") else master.name
    return done(rurl(obj, master.id), toast=f'{len(ids)} {o.plural.lower()} were merged into "{name}".')
