"""Merging duplicate accounts, contacts or leads: the candidates, the compare screen's default picks, and
the merge itself (the master takes the picked values, whatever pointed at a duplicate points at the master,
the duplicates are deleted)."""

from __future__ import annotations

from typing import Any, Mapping

from sqlalchemy import delete, select, update

from apps._shared import db
from apps.crm import models as m
from apps.crm import records as R
from apps.crm.meta import OBJECTS
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
    reparent(obj, master.id, [r.id for r in others])
    for r in others:
        db().delete(r)
    return master, len(ids)


# References that go with the merged-away record instead of moving to the master: following is a user's
# subscription to that record (Salesforce drops it with the record).
DROPPED = {("follows", "record_id")}
# A file is shared to a record once (FileLink); a share the master already has is dropped, not doubled.
UNIQUE_PER_PARENT = {"file_links": "file_id"}


def children(obj: str) -> list[tuple[Any, str, str | None]]:
    """Every reference to a record of `obj` in the world, from models.REFERENCES: (model, id column, the column
    naming the object for a polymorphic reference, else None)."""
    out = []
    for mapper in m.Base.registry.mappers:
        model = mapper.class_
        for col, target in m.REFERENCES.get(model.__tablename__, {}).items():
            if target == obj:
                out.append((model, col, None))
            elif target.startswith("@"):
                out.append((model, col, target[1:]))
    return sorted(out, key=lambda t: (t[0].__tablename__, t[1]))


def reparent(obj: str, master_id: int, loser_ids: list[int]) -> None:
    """Point everything that points at the merged-away records `loser_ids` at the master (children); the
    master's own reference to a merged-away record (its parent account, the contact it reports to) is cleared."""
    s = db()
    for model, col, type_col in children(obj):
        id_col = getattr(model, col)
        cond = [id_col.in_(loser_ids)] + ([getattr(model, type_col) == obj] if type_col else [])
        if (model.__tablename__, col) in DROPPED:
            s.execute(delete(model).where(*cond))
            continue
        if model.__tablename__ == OBJECTS[obj].table:  # a self-reference: never the master to itself
            s.execute(update(model).where(model.id == master_id, id_col.in_([*loser_ids, master_id])).values({col: None}))
        uniq = UNIQUE_PER_PARENT.get(model.__tablename__)
        if uniq:
            keep = select(getattr(model, uniq)).where(id_col == master_id,
                                                       *([getattr(model, type_col) == obj] if type_col else []))
            s.execute(delete(model).where(*cond, getattr(model, uniq).in_(keep)))
            # two merged-away records may share the same file: keep the first share of each
            seen: set = set()
            for row in s.scalars(select(model).where(*cond).order_by(model.id)):
                if getattr(row, uniq) in seen:
                    s.delete(row)
                else:
                    seen.add(getattr(row, uniq))
            s.flush()
        s.execute(update(model).where(*cond).values({col: master_id}))


def display_value(obj: str, rec, fname: str, names: R.Names) -> str:
    """A field's value as the compare screen shows it (lookups by name)."""
    from apps.crm.meta import OBJECTS

    f = OBJECTS[obj].field(fname)
    v = getattr(rec, fname)
    if f.type in ("lookup", "user"):
        return names.name("User" if f.type == "user" else f.ref[0], v) if v else ""
    return R.fmt_value(f, v)
