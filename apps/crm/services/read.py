"""Reading the CRM: global search, a list view's rows, one record with its related lists, users.

Results are plain dicts with ids (what the next call needs), bounded: lists are capped and carry a total.
Reading a record stamps its last_viewed_at, as opening its page does (the Recently Viewed list views)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import and_, func, or_, select

from apps._shared import db, now
from apps.crm import models as m
from apps.crm import records as R
from apps.crm.filters import LogicError, condition, logic_condition, parse_logic, scope_condition, search_condition, sort_expr
from apps.crm.meta import LIST_OBJECTS, OBJECTS, SEARCH_OBJECTS
from apps.crm.services import ServiceError, record
from apps.crm.services.listviews import columns_of, visible

RELATED_CAP = 50
DEFAULT_SORT = {"Lead": ("name", "asc"), "Account": ("name", "asc"), "Contact": ("name", "asc"),
                "Opportunity": ("name", "asc"), "Case": ("case_number", "desc"), "Task": ("activity_date", "asc")}


# --------------------------------------------------------------------------- queries
def filter_conditions(lv: m.ListView, own: list):
    """A list view's filters' conditions combined: by its filter logic ("1 AND (2 OR 3)", checked when saved by
    services/listviews.set_filters), else all of them."""
    if lv.filter_logic:
        try:
            return logic_condition(parse_logic(lv.filter_logic, len(own)), own)
        except LogicError:  # not reachable through a save; never a 500 on a hand-edited world
            pass
    return and_(*own)


def base_query(obj: str, lv: m.ListView | None, q: str = "", extra_filters: list | None = None):
    """The SQL conditions of a list view (its scope and filters), plus a search-this-list text."""
    o = OBJECTS[obj]
    conds = []
    if obj == "Lead":
        conds.append(m.Lead.is_converted.is_(False))
    today = now().date()
    if lv is not None:
        if lv.kind == "recent":
            conds.append(o.model.last_viewed_at.is_not(None))
        sc = scope_condition(o, lv.scope)
        if sc is not None:
            conds.append(sc)
        own = [condition(o, flt, today) for flt in lv.filters or []]
        conds += [filter_conditions(lv, own)] if own else []
    for flt in extra_filters or []:
        conds.append(condition(o, flt, today))
    sq = search_condition(o, q)
    if sq is not None:
        conds.append(sq)
    return conds


def run_search(obj: str, q: str, limit: int):
    """Global search in one object: exact name first, then prefix matches, then the rest by name."""
    o = OBJECTS[obj]
    cond = search_condition(o, q)
    stmt = select(o.model).where(cond)
    if obj == "Lead":
        stmt = stmt.where(m.Lead.is_converted.is_(False))
    key = func.lower(o.model.first_name + " " + o.model.last_name) if obj in ("Contact", "Lead") else func.lower(getattr(o.model, o.name_field))
    stmt = stmt.order_by((key == q.lower()).desc(), key.like(f"{q.lower()}%").desc(), key, o.model.id)
    total = db().scalar(select(func.count()).select_from(stmt.order_by(None).subquery()))
    return list(db().scalars(stmt.limit(limit))), total


def activity_scope(obj: str, rec):
    """SQL conditions for the tasks and events on a record's timeline (accounts roll up their
    opportunities' and contacts' activities, like Salesforce)."""
    if obj == "Account":
        opp_ids = select(m.Opportunity.id).where(m.Opportunity.account_id == rec.id)
        con_ids = select(m.Contact.id).where(m.Contact.account_id == rec.id)
        case_ids = select(m.Case.id).where(m.Case.account_id == rec.id)

        def cond(model):
            return or_((model.what_type == "Account") & (model.what_id == rec.id),
                       (model.what_type == "Opportunity") & model.what_id.in_(opp_ids),
                       (model.what_type == "Case") & model.what_id.in_(case_ids),
                       (model.who_type == "Contact") & model.who_id.in_(con_ids))
        return cond
    if obj in ("Contact", "Lead"):
        return lambda model: (model.who_type == obj) & (model.who_id == rec.id)
    return lambda model: (model.what_type == obj) & (model.what_id == rec.id)


# --------------------------------------------------------------------------- shapes
def summary(obj: str, rec, columns: list[str] | None = None, names: R.Names | None = None) -> dict[str, Any]:
    """A record as a list row: id, name and the given columns (lookups as their names)."""
    o = OBJECTS[obj]
    names = names or R.Names()
    out: dict[str, Any] = {"id": rec.id, "name": rec.name if obj in ("Lead", "Contact") else R.record_name(obj, rec)}
    for c in columns or o.list_columns:
        f = o.field(c)
        if f.type == "name" or c == o.name_field:
            continue
        if f.type in ("lookup", "user"):
            ref_obj, ref_id = R.ref_of(f, rec)
            out[f.name] = {"object": ref_obj, "id": ref_id, "name": names.name(ref_obj, ref_id)} if ref_id else None
        else:
            out[c] = getattr(rec, c)
    return out


def _summaries(obj: str, recs: list, columns: list[str] | None = None) -> list[dict]:
    o = OBJECTS[obj]
    names = R.Names()
    for r in recs:
        for c in columns or o.list_columns:
            f = o.field(c)
            if f.type in ("lookup", "user"):
                names.add(*R.ref_of(f, r))
    names.load()
    return [summary(obj, r, columns, names) for r in recs]


# --------------------------------------------------------------------------- search / lists
SEARCH_COLUMNS = {
    "Account": ["industry", "billing_city", "billing_country", "phone", "owner_id"],
    "Contact": ["account_id", "title", "phone", "email", "owner_id"],
    "Lead": ["title", "company", "phone", "email", "status", "owner_id"],
    "Opportunity": ["account_id", "stage", "amount", "close_date", "owner_id"],
    "Case": ["subject", "account_id", "status", "priority", "owner_id"],
}


def search(q: str, obj: str | None = None, limit: int = 10) -> dict:
    """Global search (the header's Search box): matches per object, best first."""
    q = (q or "").strip()
    if not q:
        raise ServiceError("Type something to search for.")
    objs = [obj] if obj else SEARCH_OBJECTS
    out = {}
    for o in objs:
        if o not in SEARCH_OBJECTS:
            raise ServiceError(f"search covers {', '.join(SEARCH_OBJECTS)}; use list_records for {o}")
        rows, total = run_search(o, q, limit)
        out[o] = {"total": total, "records": _summaries(o, rows, SEARCH_COLUMNS[o])}
    return {"query": q, "results": out}


def find_view(obj: str, key: str | None) -> m.ListView:
    views = visible(obj)
    if key:
        for v in views:
            if v.api_name == key or str(v.id) == key or v.api_name.lower() == key.lower() or v.name.lower() == key.lower():
                return v
        raise ServiceError(f"no {obj} list view {key!r}; yours: " + ", ".join(f"{v.name} ({v.api_name})" for v in views))
    default = OBJECTS[obj].default_list
    return next((v for v in views if v.api_name == default), views[0])


def list_records(obj: str, view: str | None = None, q: str = "", sort: str | None = None, direction: str | None = None,
                 limit: int = 25, offset: int = 0) -> dict:
    """A list view's rows (its scope and filters), optionally searched and sorted, as the list page shows them."""
    if obj not in LIST_OBJECTS:
        raise ServiceError(f"list views exist for {', '.join(LIST_OBJECTS)}")
    o = OBJECTS[obj]
    lv = find_view(obj, view)
    dsort, ddir = DEFAULT_SORT[obj]
    if sort and (sort not in o.by_name or not o.field(sort).sortable):
        raise ServiceError(f"can't sort {obj} by {sort!r}; sortable: "
                           + ", ".join(f.name for f in o.fields if f.sortable and f.type != "formula"))
    conds = base_query(obj, lv, q or "")
    total = db().scalar(select(func.count()).select_from(o.model).where(*conds))
    stmt = select(o.model).where(*conds)
    if lv.kind == "recent" and not sort:
        stmt = stmt.order_by(o.model.last_viewed_at.desc(), o.model.id)
    else:
        col = sort or dsort
        direction = direction or (ddir if col == dsort else "asc")
        ex = sort_expr(o, col)
        if ex is not None:
            stmt = stmt.order_by(ex.desc() if direction == "desc" else ex.asc(), o.model.id)
    recs = list(db().scalars(stmt.offset(offset).limit(limit)))
    return {"object": obj, "list_view": {"id": lv.id, "name": lv.name, "api_name": lv.api_name}, "total": total,
            "offset": offset, "records": _summaries(obj, recs, columns_of(lv))}


def list_views_of(obj: str) -> list[dict]:
    if obj not in LIST_OBJECTS:
        raise ServiceError(f"list views exist for {', '.join(LIST_OBJECTS)}")
    return [{"id": v.id, "name": v.name, "api_name": v.api_name, "visibility": v.visibility, "standard": v.is_standard,
             "scope": v.scope, "filters": v.filters or [], "filter_logic": v.filter_logic or "", "columns": columns_of(v)}
            for v in visible(obj)]


def users() -> list[dict]:
    return [{"id": u.id, "name": u.name, "alias": u.alias, "title": u.title, "email": u.email,
             "is_me": u.id == R.ME} for u in R.users()]


# --------------------------------------------------------------------------- one record
def _fields(obj: str, rec, names: R.Names) -> dict[str, Any]:
    o = OBJECTS[obj]
    out: dict[str, Any] = {}
    for f in o.fields:
        if f.type == "formula":
            continue
        if f.type == "name":
            for c in f.cols:
                out[c] = getattr(rec, c)
        elif f.type in ("lookup", "user"):
            ref_obj, ref_id = R.ref_of(f, rec)
            out[f.name] = {"object": ref_obj, "id": ref_id, "name": names.name(ref_obj, ref_id)} if ref_id else None
        else:
            for c in f.cols:
                out[c] = getattr(rec, c)
    return out


def _capped(items: list) -> dict:
    return {"total": len(items), "records": items[:RELATED_CAP]}


def related(obj: str, rec) -> dict[str, Any]:
    """The record page's related lists, in its order, each capped with its total."""
    out: dict[str, Any] = {}
    if obj == "Account":
        out["contacts"] = _capped(_summaries("Contact", list(db().scalars(select(m.Contact).where(
            m.Contact.account_id == rec.id).order_by(m.Contact.last_name, m.Contact.first_name))), ["title", "email", "phone"]))
        out["opportunities"] = _capped(_summaries("Opportunity", list(db().scalars(select(m.Opportunity).where(
            m.Opportunity.account_id == rec.id).order_by(m.Opportunity.close_date.desc(), m.Opportunity.id))),
            ["stage", "amount", "close_date", "owner_id"]))
    if obj == "Contact":
        ids = select(m.OpportunityContactRole.opportunity_id).where(m.OpportunityContactRole.contact_id == rec.id)
        out["opportunities"] = _capped(_summaries("Opportunity", list(db().scalars(select(m.Opportunity).where(
            m.Opportunity.id.in_(ids)).order_by(m.Opportunity.close_date.desc()))), ["stage", "amount", "close_date"]))
    if obj in ("Account", "Contact"):
        col = m.Case.account_id if obj == "Account" else m.Case.contact_id
        out["cases"] = _capped(_summaries("Case", list(db().scalars(select(m.Case).where(col == rec.id).order_by(m.Case.id.desc()))),
                                          ["subject", "status", "priority"]))
    if obj == "Opportunity":
        roles = list(db().scalars(select(m.OpportunityContactRole).where(m.OpportunityContactRole.opportunity_id == rec.id)
                                  .order_by(m.OpportunityContactRole.is_primary.desc(), m.OpportunityContactRole.id)))
        names = R.Names()
        from apps.crm.services.products import line_item_dict, line_items

        out["products"] = _capped([line_item_dict(li, p) for li, p in line_items(rec.id)])
        out["contact_roles"] = _capped([{"id": cr.id, "contact": {"id": cr.contact_id, "name": names.name("Contact", cr.contact_id)},
                                         "role": cr.role, "is_primary": cr.is_primary} for cr in roles])
    if obj in ("Account", "Contact", "Opportunity", "Lead"):
        notes = list(db().scalars(select(m.Note).where(m.Note.parent_type == obj, m.Note.parent_id == rec.id)
                                  .order_by(m.Note.created_at.desc(), m.Note.id.desc())))
        out["notes"] = _capped([{"id": n.id, "title": n.title, "body": n.body, "created_at": n.created_at} for n in notes])
    if obj == "Case":
        from apps.crm.services.cases import comments

        out["case_comments"] = _capped([{"id": c.id, "body": c.body, "public": c.is_published,
                                         "created_at": c.created_at} for c in comments(rec.id)])
    if obj in ("Account", "Contact", "Opportunity", "Lead", "Case"):
        from apps.crm.services import files as fsvc

        out["files"] = _capped([{**fsvc.as_dict(f), "link_id": lk.id} for lk, f in fsvc.files_of(obj, rec.id)])
        cond = activity_scope(obj, rec)
        tasks = list(db().scalars(select(m.Task).where(cond(m.Task))))
        events = list(db().scalars(select(m.Event).where(cond(m.Event))))
        t_now = now()
        acts = [{"type": "Task", "id": t.id, "subtype": t.task_subtype, "subject": t.subject, "due": t.activity_date,
                 "status": t.status, "open": t.status != "Completed", "owner_id": t.owner_id,
                 "sort": (t.activity_date.isoformat() if t.activity_date else t.created_at.date().isoformat())} for t in tasks]
        acts += [{"type": "Event", "id": e.id, "subject": e.subject, "start": e.start, "end": e.end, "open": e.start >= t_now,
                  "owner_id": e.owner_id, "sort": e.start.date().isoformat()} for e in events]
        # As the timeline: upcoming and overdue first (soonest first), then the past (latest first).
        upcoming = sorted((a for a in acts if a["open"]), key=lambda a: (a["sort"], a["id"]))
        past = sorted((a for a in acts if not a["open"]), key=lambda a: (a["sort"], a["id"]), reverse=True)
        acts = upcoming + past
        for a in acts:
            a.pop("sort")
        out["activities"] = _capped(acts)
    return out


def get_record(obj: str, rid: int) -> dict[str, Any]:
    if obj == "User":
        u = db().get(m.User, rid)
        if u is None:
            raise ServiceError(f"there is no user with id {rid} (see list_users)")
        return {"object": "User", "id": u.id, "name": u.name, "alias": u.alias, "title": u.title, "email": u.email,
                "phone": u.phone, "manager_id": u.manager_id}
    rec = record(obj, rid)
    if obj in ("Lead", "Account", "Contact", "Opportunity", "Case", "Task", "Event"):
        rec.last_viewed_at = now()  # the record page's own side effect (Recently Viewed)
    names = R.Names()
    out = {"object": obj, "id": rec.id, "name": rec.name if obj in ("Lead", "Contact") else R.record_name(obj, rec),
           "fields": _fields(obj, rec, names)}
    if obj == "Opportunity":
        out["last_activity"] = R.last_activity_dates([rec.id]).get(rec.id)
    out["following"] = db().scalar(select(m.Follow).where(
        m.Follow.user_id == R.ME, m.Follow.object == obj, m.Follow.record_id == rec.id)) is not None
    if obj in ("Account", "Contact", "Lead"):
        dups = R.duplicates_of(obj, rec)
        out["duplicates"] = [{"id": d.id, "name": d.name} for d in dups]
    out["related"] = related(obj, rec)
    return out
