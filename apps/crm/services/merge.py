"""Merging duplicate accounts, contacts or leads: the candidates, the compare screen's default picks, and
the merge itself (the master takes the picked values, whatever pointed at a duplicate points at the master,
the duplicates are deleted)."""

from __future__ import annotations

from typing import Mapping

from sqlalchemy import select, update

from apps._shared import db
from apps.crm import models as m
from apps.crm import records as R
from apps.crm.services import ServiceError, record

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


def mergeable(obj: str) -> None:
    if obj not in MERGE_FIELDS:
        raise ServiceError(f"only {', '.join(MERGE_FIELDS)} can be merged", status=404)


def candidates(obj: str, rec) -> list:
    """The record and its duplicates (Salesforce's matching rules), the record first."""
    return [rec] + R.duplicates_of(obj, rec)


def default_picks(obj: str, chosen: list, display) -> dict[str, int]:
    """The compare screen's preselected source of each field: the master (first) record, unless its value is
    blank and another record's is not (the description always stays the master's)."""
    master = chosen[0]
    picks = {}
    for fname in MERGE_FIELDS[obj]:
        vals = [(r.id, display(r, fname)) for r in chosen]
        pick = master.id
        if len({v for _, v in vals}) > 1 and not getattr(master, fname) and fname != "description":
            pick = next((rid_ for rid_, v in vals if v), master.id)
        picks[fname] = pick
    return picks


def merge(obj: str, rid: int, ids: list[int], master_id: int, sources: Mapping[str, int]):
    """Merge `ids` (candidates of record `rid`) into `master_id`, taking each field in `sources` from the
    record it names. Returns (master, number merged)."""
    mergeable(obj)
    rec = record(obj, rid)
    allowed = {r.id: r for r in candidates(obj, rec)}
    ids = [i for i in ids if i in allowed]
    if len(ids) < 2 or master_id not in ids:
        raise ServiceError("Choose a master record.")
    master = allowed[master_id]
    others = [allowed[i] for i in ids if i != master.id]
    values = {}
    for fname in MERGE_FIELDS[obj]:
        src = sources.get(fname)
        if src in ids and src != master.id:
            values[fname] = getattr(allowed[src], fname)
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
    return master, len(ids)


def display_value(obj: str, rec, fname: str, names: R.Names) -> str:
    """A field's value as the compare screen shows it (lookups by name)."""
    from apps.crm.meta import OBJECTS

    f = OBJECTS[obj].field(fname)
    v = getattr(rec, fname)
    if f.type in ("lookup", "user"):
        return names.name("User" if f.type == "user" else f.ref[0], v) if v else ""
    return R.fmt_value(f, v)
