"""Record pages (highlights, path, details, related lists, activity timeline) and the record
modals: new / edit / clone / delete / change owner, follow, path stage changes, notes, contact roles."""

from __future__ import annotations

import datetime as dt

from flask import abort, redirect, render_template, request
from markupsafe import Markup
from sqlalchemy import select

from apps._shared import db, inputs, now, richtext
from apps._shared.actions import perform
from apps._shared.i18n import gettext, ui
from apps.crm import models as m
from apps.crm import records as R
from apps.crm.meta import GUIDANCE, KEY_FIELDS, OBJECTS, PATHS
from apps.crm.services import records as svc
from apps.crm.services.read import activity_scope
from apps.crm.services.activities import composer_defaults  # noqa: F401 - the record page and composers read it
from apps.crm.views.base import bp, done, fail, json_ok, lurl, page, rurl
from apps.crm.views.refusals import modal
from apps.crm.services import feed as feedsvc

VIEWABLE = ("Lead", "Account", "Contact", "Opportunity", "Case", "Task", "Event")
TRACKED = ("Lead", "Account", "Contact", "Opportunity", "Case", "Task", "Event")


def is_fetch() -> bool:
    return request.headers.get("X-Requested-With") == "fetch" or request.args.get("modal") == "1"


def modal_response(html: str, obj: str | None = None, rid: int | None = None):
    """A modal as a fragment (fetch) or over its page (a direct visit)."""
    if is_fetch():
        return html
    if rid is not None and obj in VIEWABLE:
        return record_page(obj, rid, modal_html=html)
    if obj in ("Lead", "Account", "Contact", "Opportunity", "Case", "Task"):
        from apps.crm.views.lists import list_view

        return list_view_with_modal(obj, html, list_view)
    from apps.crm.views.home import home_page

    return home_page(modal_html=html)


def list_view_with_modal(obj, html, list_view):
    from flask import g

    g.crm_modal_html = html
    return list_view(obj)


# ------------------------------------------------------------------------------- page
def record_context(obj: str, rec) -> dict:
    o = OBJECTS[obj]
    names = R.Names()
    for f in o.fields:
        if f.type in ("lookup", "user"):
            names.add(*R.ref_of(f, rec))
    names.load()
    ctx: dict = {"obj": obj, "o": o, "rec": rec, "names": names, "name": rec_display_name(obj, rec)}
    ctx["following"] = db().scalar(select(m.Follow).where(
        m.Follow.user_id == R.ME, m.Follow.object == obj, m.Follow.record_id == rec.id)) is not None
    if obj == "Opportunity":
        ctx["last_activity"] = R.last_activity_dates([rec.id]).get(rec.id)
    return ctx


def rec_display_name(obj: str, rec) -> str:
    if obj in ("Lead", "Contact"):
        return rec.name
    return R.record_name(obj, rec)


def field_display(obj: str, rec, names: R.Names, fname: str, last_activity=None) -> dict:
    """What the Details tab shows for one field: text lines and an optional link."""
    o = OBJECTS[obj]
    f = o.field(fname)
    out = {"name": f.name, "label": f.label, "type": f.type, "lines": [], "url": "", "editable": not f.readonly and f.type != "formula",
           "help": f.help}
    if f.type == "name":
        out["lines"] = [R.full_name(rec)]
    elif f.type == "address":
        out["lines"] = R.address_lines(rec, f)
    elif f.type in ("lookup", "user"):
        ref_obj, ref_id = R.ref_of(f, rec)
        out["lines"] = [names.name(ref_obj, ref_id)] if ref_id else []
        out["url"] = (f"/lightning/r/User/{ref_id}/view" if ref_obj == "User" else rurl(ref_obj, ref_id)) if ref_id else ""
        out["ref_obj"] = ref_obj
        out["ref_id"] = ref_id
    elif f.name == "last_activity":
        out["lines"] = [R.fmt_date(last_activity)] if last_activity else []
    elif f.type == "formula":
        out["lines"] = []
    elif f.name == "description" and getattr(rec, "html_body", None):  # a received email: its HTML, sanitized
        out["html"] = Markup(richtext.clean(rec.html_body))
        out["editable"] = False  # a received email is not edited (as Salesforce's EmailMessage)
    else:
        v = R.shown_value(f, getattr(rec, f.name))
        out["lines"] = [v] if v else []
    return out


def _shown(obj: str, rec, name: str) -> str:
    """A related list's field as the record page shows it (records.shown_value: a picklist in the page's language)."""
    return R.shown_value(OBJECTS[obj].field(name), getattr(rec, name))


def _dated_by(when: str, user_id) -> str:
    """A note's or comment's line: "3/5/2026 by Jo Ames" (in the page's language and locale)."""
    u = R.user_by_id(user_id)
    return gettext("%(when)s by %(name)s", when=when, name=u.name if u else "")


def related_lists(obj: str, rec) -> list[dict]:
    o = OBJECTS[obj]
    out = []
    for rel in o.related:
        if rel == "Contact":
            rows = list(db().scalars(select(m.Contact).where(m.Contact.account_id == rec.id).order_by(m.Contact.last_name, m.Contact.first_name)))
            out.append({"key": "Contacts", "title": "Contacts", "icon": "standard:contact", "count": len(rows),
                        "new": f"/lightning/o/Contact/new?account_id={rec.id}",
                        "items": [{"name": c.name, "url": rurl("Contact", c.id),
                                   "fields": [("Title", c.title), ("Email", c.email), ("Phone", c.phone)]} for c in rows]})
        elif rel == "Opportunity":
            rows = list(db().scalars(select(m.Opportunity).where(m.Opportunity.account_id == rec.id).order_by(m.Opportunity.close_date.desc(), m.Opportunity.id)))
            out.append({"key": "Opportunities", "title": "Opportunities", "icon": "standard:opportunity", "count": len(rows),
                        "new": f"/lightning/o/Opportunity/new?account_id={rec.id}",
                        "items": [{"name": x.name, "url": rurl("Opportunity", x.id),
                                   "fields": [("Stage", _shown("Opportunity", x, "stage")), ("Amount", R.shown_money(x.amount)), ("Close Date", R.shown_date(x.close_date))]} for x in rows]})
        elif rel == "Opportunity:role":
            ids = list(db().scalars(select(m.OpportunityContactRole.opportunity_id).where(m.OpportunityContactRole.contact_id == rec.id)))
            rows = list(db().scalars(select(m.Opportunity).where(m.Opportunity.id.in_(ids)).order_by(m.Opportunity.close_date.desc()))) if ids else []
            out.append({"key": "Opportunities", "title": "Opportunities", "icon": "standard:opportunity", "count": len(rows),
                        "new": f"/lightning/o/Opportunity/new?account_id={rec.account_id or ''}&contact_id={rec.id}",
                        "items": [{"name": x.name, "url": rurl("Opportunity", x.id),
                                   "fields": [("Stage", _shown("Opportunity", x, "stage")), ("Amount", R.shown_money(x.amount)), ("Close Date", R.shown_date(x.close_date))]} for x in rows]})
        elif rel == "Case":
            col = m.Case.account_id if obj == "Account" else m.Case.contact_id
            rows = list(db().scalars(select(m.Case).where(col == rec.id).order_by(m.Case.id.desc())))
            extra = f"account_id={rec.id}" if obj == "Account" else f"contact_id={rec.id}&account_id={rec.account_id or ''}"
            out.append({"key": "Cases", "title": "Cases", "icon": "standard:case", "count": len(rows),
                        "new": f"/lightning/o/Case/new?{extra}",
                        "items": [{"name": x.case_number, "url": rurl("Case", x.id),
                                   "fields": [("Subject", x.subject), ("Status", _shown("Case", x, "status")), ("Priority", _shown("Case", x, "priority"))]} for x in rows]})
        elif rel == "OpportunityContactRole":
            roles = list(db().scalars(select(m.OpportunityContactRole).where(m.OpportunityContactRole.opportunity_id == rec.id).order_by(m.OpportunityContactRole.is_primary.desc(), m.OpportunityContactRole.id)))
            names = R.Names()
            for cr in roles:
                names.add("Contact", cr.contact_id)
            names.load()
            out.append({"key": "ContactRoles", "title": "Contact Roles", "icon": "standard:opportunity_contact_role", "count": len(roles),
                        "new": f"/lightning/r/Opportunity/{rec.id}/contact-role/new", "new_label": "Add Contact Roles",
                        "items": [{"name": names.name("Contact", cr.contact_id), "url": rurl("Contact", cr.contact_id),
                                   "fields": [("Role", ui(cr.role)), ("Primary", gettext("Yes") if cr.is_primary else "")]} for cr in roles]})
        elif rel == "OpportunityLineItem":
            from apps.crm.services.products import line_items

            rows = line_items(rec.id)
            out.append({"key": "Products", "title": "Products", "icon": "standard:product", "count": len(rows),
                        "new": f"/lightning/r/Opportunity/{rec.id}/products/add", "new_label": "Add Products",
                        "items": [{"name": p.name, "url": f"/lightning/r/OpportunityLineItem/{li.id}/edit", "modal": True,
                                   "fields": [("Quantity", f"{li.quantity:,}"), ("Sales Price", R.shown_money(li.unit_price)),
                                              ("Total Price", R.shown_money(li.total_price))]} for li, p in rows]})
        elif rel == "CaseComment":
            from apps.crm.services.cases import comments

            rows = comments(rec.id)
            out.append({"key": "CaseComments", "title": "Case Comments", "icon": "standard:case", "count": len(rows),
                        "new": None,
                        "items": [{"name": _dated_by(R.shown_datetime(c.created_at), c.created_by_id),
                                   "url": "", "fields": [("", ("" if c.is_published else gettext("Private") + " · ") + c.body[:160])]}
                                  for c in rows]})
        elif rel == "Note":
            rows = list(db().scalars(select(m.Note).where(m.Note.parent_type == obj, m.Note.parent_id == rec.id).order_by(m.Note.created_at.desc(), m.Note.id.desc())))
            out.append({"key": "Notes", "title": "Notes", "icon": "standard:note", "count": len(rows),
                        "new": f"/lightning/r/{obj}/{rec.id}/note/new",
                        "items": [{"name": n.title, "url": f"/lightning/r/Note/{n.id}/edit", "modal": True,
                                   "fields": [("", _dated_by(R.shown_date(n.created_at), n.owner_id)), ("", n.body[:90])]} for n in rows]})
        elif rel == "File":
            from apps.crm.services import files as fsvc

            rows = fsvc.files_of(obj, rec.id)
            out.append({"key": "Files", "title": "Files", "icon": "standard:file", "count": len(rows),
                        "new": f"/lightning/r/{obj}/{rec.id}/files/add", "new_label": "Add Files",
                        "upload": f"/lightning/r/{obj}/{rec.id}/files/upload",
                        "items": [{"name": f.title, "url": f"/lightning/r/File/{f.id}/preview?link={lk.id}", "modal": True,
                                   "fields": [("", f"{R.shown_date(lk.created_at)} \u2022 {fsvc.size_text(f.size)} \u2022 {f.extension}")]}
                                  for lk, f in rows]})
    if obj in ("Account", "Contact", "Opportunity", "Lead", "Case"):
        items = [a for a in activities(obj, rec) if a["open"]]
        out.insert(min(len(out), 3 if obj == "Account" else 1), {
            "key": "OpenActivities", "title": "Open Activities", "icon": "standard:task", "count": len(items),
            "new": None, "items": [{"name": a["subject"], "url": a["url"],
                                    "fields": [("Due", a["date_text"]), ("Assigned", a["owner"])]} for a in items]})
    return out


def _who_did(owner_id, owner, verb: str) -> str:
    """A timeline line's start, whole in the page's language: "You logged a call", "Dana Lee has an upcoming task"."""
    if owner_id == R.ME:
        return gettext(f"You {verb}")
    return gettext(f"%(name)s {verb}", name=owner.name if owner else "")


def activities(obj: str, rec) -> list[dict]:
    cond = activity_scope(obj, rec)
    tasks = list(db().scalars(select(m.Task).where(cond(m.Task))))
    events = list(db().scalars(select(m.Event).where(cond(m.Event))))
    names = R.Names()
    for t in tasks + events:
        names.add(t.who_type, t.who_id)
        names.add(t.what_type, t.what_id)
    names.load()
    t_now = now()
    out = []
    for t in tasks:
        is_open = t.status != "Completed"
        when = t.activity_date
        kind = {"Call": "call", "Email": "email"}.get(t.task_subtype, "task")
        who = names.name(t.who_type, t.who_id)
        owner = R.user_by_id(t.owner_id)
        verb = {"call": "logged a call", "email": "sent an email", "task": "had a task" if not is_open else "have an upcoming task"}[kind]
        if is_open and t.owner_id != R.ME:
            verb = "has an upcoming task"
        lead = _who_did(t.owner_id, owner, verb)
        out.append({
            "type": "Task", "id": t.id, "kind": kind, "subject": t.subject, "url": rurl("Task", t.id), "open": is_open,
            "date": when, "sort": dt.datetime.combine(when, dt.time(23, 59)) if when else t.created_at,
            "date_text": R.relative_day(when) if when else gettext("No due date"),
            "overdue": bool(is_open and when and when < t_now.date()),
            "lead": lead, "who": who,
            "what": names.name(t.what_type, t.what_id), "who_url": rurl(t.who_type, t.who_id) if t.who_id else "",
            "what_url": rurl(t.what_type, t.what_id) if t.what_id else "", "description": t.description,
            "owner": owner.name if owner else "", "status": t.status, "priority": t.priority,
        })
    for e in events:
        is_future = e.start >= t_now
        who = names.name(e.who_type, e.who_id)
        owner = R.user_by_id(e.owner_id)
        mine = e.owner_id == R.ME
        lead = _who_did(e.owner_id, owner, ("have" if mine else "has") + (" an upcoming event" if is_future else " an event"))
        out.append({
            "type": "Event", "id": e.id, "kind": "event", "subject": e.subject, "url": rurl("Event", e.id), "open": is_future,
            "date": e.start.date(), "sort": e.start,
            "date_text": f"{R.shown_time(e.start)} | {R.relative_day(e.start.date())}", "overdue": False,
            "lead": lead,
            "who": who, "what": names.name(e.what_type, e.what_id), "who_url": rurl(e.who_type, e.who_id) if e.who_id else "",
            "what_url": rurl(e.what_type, e.what_id) if e.what_id else "", "description": e.description,
            "owner": owner.name if owner else "", "location": e.location,
            "end_text": R.shown_datetime(e.end), "start_text": R.shown_datetime(e.start),
        })
    out.sort(key=lambda a: (a["sort"], a["type"], a["id"]))
    return out


def timeline_groups(items: list[dict]) -> list[dict]:
    upcoming = [a for a in items if a["open"]]
    past = [a for a in items if not a["open"]]
    past.sort(key=lambda a: (a["sort"], a["id"]), reverse=True)
    groups = [{"title": "Upcoming & Overdue", "items": upcoming, "upcoming": True}]
    by_month: dict[str, list] = {}
    for a in past:
        d = a["date"] or a["sort"].date()
        key = gettext("This Month") if (d.year, d.month) == (now().year, now().month) \
            else f"{R.shown_month(d)} \u2022 {d.year}"
        by_month.setdefault(key, []).append(a)
    for k, v in by_month.items():
        groups.append({"title": k, "items": v, "upcoming": False})
    return groups


def duplicate_alert(obj: str, rec) -> list:
    if obj not in ("Account", "Contact", "Lead"):
        return []
    return R.duplicates_of(obj, rec)


@bp.get("/lightning/r/<obj>/<int:rid>/view")
def record_view(obj: str, rid: int):
    return record_page(obj, rid)


def record_page(obj: str, rid: int, modal_html: str = ""):
    if obj == "User":
        return user_page(rid)
    if obj not in VIEWABLE:
        abort(404)
    rec = R.get_record(obj, rid)
    if obj in TRACKED and request.method == "GET":
        perform(_viewed, rec)
    ctx = record_context(obj, rec)
    o = ctx["o"]
    names = ctx["names"]
    la = ctx.get("last_activity")
    ctx["sections"] = [
        {"title": title, "fields": [field_display(obj, rec, names, n, la) if n else None for n in fields]}
        for title, fields in o.layout
    ]
    system = [n for n in ("created_by_id", "last_modified_by_id") if n in o.by_name]
    ctx["system"] = [field_display(obj, rec, names, n) for n in system]
    ctx["system_dates"] = {"created_by_id": R.fmt_datetime(rec.created_at), "last_modified_by_id": R.fmt_datetime(rec.updated_at)}
    ctx["highlights"] = [field_display(obj, rec, names, n, la) for n in o.highlights]
    ctx["related"] = related_lists(obj, rec) if obj not in ("Task", "Event") else []
    if obj not in ("Task", "Event"):
        ctx["timeline"] = timeline_groups(activities(obj, rec))
    ctx["duplicates"] = duplicate_alert(obj, rec)
    if obj in PATHS:
        ctx["path"] = build_path(obj, rec)
        ctx["key_fields"] = [field_display(obj, rec, names, n, la) for n in KEY_FIELDS[obj]]
    if obj == "Account":
        ctx["logo"] = f"/crm/logo/{rec.id}.png"
    ctx["form_fields"] = R.form_fields(obj)
    ctx["refnames"] = names.got
    ctx["errors"] = {}
    ctx["modal_html"] = modal_html
    ctx["composer_defaults"] = composer_defaults(obj, rec)
    if obj in feedsvc.FEED_OBJECTS:
        ctx["feed"] = feedsvc.feed(obj, rid)
        ctx["feed_segments"] = feedsvc.segments
        ctx["feed_users"] = [u.name for u in R.users() if u.is_active]
        ctx["feed_names"] = {u.id: u.name for u in R.users()}
    title = ctx["name"]
    return page("crm/record.html", active=obj, title=f"{title} | {o.label}", page_icon=o.icon, **ctx)


def _viewed(rec) -> None:
    """Opening a record's page puts it in Recently Viewed."""
    rec.last_viewed_at = now()


def build_path(obj: str, rec) -> dict:
    steps = PATHS[obj]
    value = {"Opportunity": lambda r: r.stage, "Lead": lambda r: r.status, "Case": lambda r: r.status}[obj](rec)
    if obj == "Opportunity" and value in ("Closed Won", "Closed Lost"):
        current = "Closed"
    elif obj == "Lead" and value.startswith("Closed"):
        current = "Closed"
    else:
        current = value
    idx = steps.index(current) if current in steps else 0
    closed_label = value if current == "Closed" else "Closed"
    items = []
    for i, s in enumerate(steps):
        state = "complete" if i < idx else "current" if i == idx else "incomplete"
        label = closed_label if s == "Closed" else s
        if s == "Closed" and obj == "Case":
            label = "Closed"
        lost = current == "Closed" and value in ("Closed Lost", "Closed - Not Converted") and s == "Closed"
        won = current == "Closed" and s == "Closed" and not lost
        items.append({"value": s, "label": label, "state": state, "lost": lost, "won": won})
    guidance = GUIDANCE.get(obj, {})
    return {"items": items, "current": current, "value": value, "is_closed": current == "Closed",
            "guidance": {s: guidance.get(s, "") for s in steps}, "field_label": {"Opportunity": "Stage", "Lead": "Status", "Case": "Status"}[obj]}


# -------------------------------------------------------------------------- new/edit
def prefill_from_args(obj: str) -> dict:
    o = OBJECTS[obj]
    vals = {}
    for k, v in request.args.items():
        if k in o.by_name and v != "":
            f = o.field(k)
            if f.type in ("lookup", "user") and v.isdecimal():
                vals[k] = int(v)
            elif f.type == "picklist" and v in (f.options or []):
                vals[k] = v
            elif f.type in ("text", "textarea"):
                vals[k] = v
        if k in ("who", "what") and ":" in v:
            t, _, i = v.partition(":")
            if i.isdecimal():
                vals[f"{k}_type"], vals[f"{k}_id"] = t, int(i)
        if k == "contact_id" and obj == "Opportunity":
            vals["_contact_id"] = int(v) if v.isdecimal() else None
    return vals


def default_values(obj: str) -> dict:
    return svc.new_defaults(obj, request.args.get("subtype", ""))


class Prefill(dict):
    """Form values for a new record (a dict Jinja reads like a record)."""

    def __getattr__(self, k):
        return self.get(k)


def refnames_for(obj: str, values) -> dict:
    o = OBJECTS[obj]
    names = R.Names()
    get = (lambda k: values.get(k)) if isinstance(values, dict) else (lambda k: getattr(values, k, None))
    for f in o.fields:
        if f.type in ("lookup", "user"):
            if f.name in ("who", "what"):
                names.add(get(f"{f.name}_type"), get(f"{f.name}_id"))
            else:
                names.add("User" if f.type == "user" else f.ref[0], get(f.name))
    names.load()
    return names.got


def render_form(obj: str, mode: str, rec_or_values, errors: dict, rid: int | None = None, extra: dict | None = None):
    o = OBJECTS[obj]
    sections = []
    for title, names in o.layout:
        fields = [o.field(n) if n and not o.field(n).readonly and o.field(n).type != "formula" else None for n in names]
        if any(fields):
            sections.append({"title": title, "fields": fields})
    labels = {f.name: f.label for f in o.fields}
    labels.update({"first_name": "First Name", "last_name": "Last Name", "who_id": "Name", "what_id": "Related To"})
    title = {"new": f"New {o.label}", "edit": f"Edit {R.record_name(obj, rec_or_values) if obj not in ('Lead', 'Contact') else rec_or_values.name}" if mode == "edit" else "",
             "clone": f"Clone {o.label}"}[mode]
    if obj == "Task" and mode == "new" and request.args.get("subtype") == "Call":
        title = "Log a Call"
    action = f"/lightning/r/{obj}/{rid}/edit" if mode == "edit" else f"/lightning/o/{obj}/new"
    return render_template("crm/modal_form.html", obj=obj, o=o, mode=mode, rec=rec_or_values, errors=errors,
                           sections=sections, labels=labels, title=title, action=action,
                           refnames=refnames_for(obj, rec_or_values), extra=extra or {},
                           subtype=request.values.get("subtype", ""))


@bp.route("/lightning/o/<obj>/new", methods=["GET", "POST"])
def record_new(obj: str):
    if obj not in ("Lead", "Account", "Contact", "Opportunity", "Case", "Task", "Event"):
        abort(404)
    o = OBJECTS[obj]
    if request.method == "GET":
        values = Prefill(default_values(obj))
        values.update(prefill_from_args(obj))
        extra = {"contact_id": values.pop("_contact_id", None)}
        return modal_response(render_form(obj, "new", values, {}, extra=extra), obj)
    cid = inputs.id_text(request.form.get("contact_id", "")) if obj == "Opportunity" else None
    rec = perform(svc.create_record, obj, request.form, request.form.get("subtype", ""), cid,
                  errors=modal(lambda e: _new_form_again(obj, e.errors)))
    name = rec.name if obj in ("Lead", "Contact") else R.record_name(obj, rec)
    toast = f'{o.label} "{name}" was created.'
    if request.form.get("save_new"):
        return done(f"/lightning/o/{obj}/new", toast=toast)
    if request.form.get("stay") == "1":
        return done(None, toast=toast)
    return done(rurl(obj, rec.id), toast=toast)


def _new_form_again(obj: str, errors: dict) -> str:
    """The New form refused: what was typed (lookups, dates and times read back), with the errors."""
    o = OBJECTS[obj]
    vals = Prefill({k: v for k, v in request.form.items()})
    for f in o.fields:
        if f.type in ("lookup", "user") and f.name not in ("who", "what"):
            vals[f.name] = int(vals[f.name]) if str(vals.get(f.name, "")).isdecimal() else None
    for k in ("who", "what"):
        raw = request.form.get(f"{k}_id", "")
        if ":" in raw:
            t, _, i = raw.partition(":")
            vals[f"{k}_type"], vals[f"{k}_id"] = t, int(i) if i.isdecimal() else None
        else:
            vals[f"{k}_type"], vals[f"{k}_id"] = None, None
    for f in o.fields:
        if f.type == "date" and vals.get(f.name):
            try:
                vals[f.name] = R.parse_date(vals[f.name])
            except ValueError:
                pass
        if f.type == "datetime" and vals.get(f.name):
            try:
                vals[f.name] = dt.datetime.combine(R.parse_date(vals[f.name]), R.parse_time(request.form.get(f.name + "_time") or "12:00 AM"))
            except ValueError:
                vals[f.name] = None
    return render_form(obj, "new", vals, errors, extra={"contact_id": request.form.get("contact_id")})


@bp.route("/lightning/r/<obj>/<int:rid>/edit", methods=["GET", "POST"])
def record_edit(obj: str, rid: int):
    if obj == "Note":
        return note_edit(rid)
    if obj not in VIEWABLE:
        abort(404)
    o = OBJECTS[obj]
    rec = R.get_record(obj, rid)
    if obj == "Lead" and rec.is_converted:
        return fail(message=gettext("You can't edit a converted lead."), status=400)
    if request.method == "GET":
        return modal_response(render_form(obj, "edit", rec, {}, rid), obj, rid)
    perform(svc.update_record, obj, rid, request.form, errors=modal(lambda e: _edit_form_again(obj, rec, rid, e.errors)))
    name = rec.name if obj in ("Lead", "Contact") else R.record_name(obj, rec)
    return done(None, toast=gettext("%(label)s \"%(name)s\" was saved.", label=ui(o.label), name=name))


def _edit_form_again(obj: str, rec, rid: int, errors: dict) -> str:
    """The Edit form refused: the record as stored (the refusal was rolled back) with the text typed over it."""
    shadow = Prefill({c.name: getattr(rec, c.name) for c in OBJECTS[obj].model.__table__.columns})
    for k, v in request.form.items():
        if k in shadow and isinstance(shadow[k], str):
            shadow[k] = v
    shadow["name"] = rec.name if hasattr(rec, "first_name") else getattr(rec, "name", "")
    return render_form(obj, "edit", shadow, errors, rid)


@bp.get("/lightning/r/<obj>/<int:rid>/clone")
def record_clone(obj: str, rid: int):
    if obj not in ("Lead", "Account", "Contact", "Opportunity", "Case", "Task", "Event"):
        abort(404)
    rec = R.get_record(obj, rid)
    o = OBJECTS[obj]
    vals = Prefill({c.name: getattr(rec, c.name) for c in o.model.__table__.columns if c.name not in (
        "id", "created_at", "updated_at", "last_viewed_at", "case_number", "is_converted", "converted_account_id",
        "converted_contact_id", "converted_opportunity_id", "converted_date", "closed_at", "completed_at")})
    if obj in ("Lead", "Contact"):
        vals["name"] = rec.name
    return modal_response(render_form(obj, "clone", vals, {}), obj, rid)


# --------------------------------------------------------------------------- delete
@bp.route("/lightning/r/<obj>/<int:rid>/delete", methods=["GET", "POST"])
def record_delete(obj: str, rid: int):
    if obj == "Note":
        return note_delete(rid)
    if obj not in VIEWABLE:
        abort(404)
    o = OBJECTS[obj]
    rec = R.get_record(obj, rid)
    name = rec.name if obj in ("Lead", "Contact") else R.record_name(obj, rec)
    if request.method == "GET":
        return modal_response(render_template("crm/modal_confirm.html", title=f"Delete {o.label}",
                                              message=gettext("Are you sure you want to delete this %(lower)s?", lower=o.label.lower()),
                                              action=f"/lightning/r/{obj}/{rid}/delete", button="Delete"), obj, rid)
    perform(svc.delete_record, obj, rid)
    back = request.form.get("back") or ""
    target = lurl(obj) if obj != "Event" else "/lightning/page/home"
    if obj == "Task":
        target = "/lightning/o/Task/home"
    ref = request.referrer or ""
    if back == "stay" or ("/list" in ref and f"/lightning/o/{obj}/" in ref) or ("/related/" in ref):
        return done(None, toast=gettext("%(label)s \"%(name)s\" was deleted.", label=ui(o.label), name=name))
    return done(target, toast=gettext("%(label)s \"%(name)s\" was deleted.", label=ui(o.label), name=name))


# ----------------------------------------------------------------------- change owner
@bp.route("/lightning/r/<obj>/<int:rid>/owner", methods=["GET", "POST"])
def record_owner(obj: str, rid: int):
    if obj not in VIEWABLE:
        abort(404)
    o = OBJECTS[obj]
    rec = R.get_record(obj, rid)
    name = rec.name if obj in ("Lead", "Contact") else R.record_name(obj, rec)
    ctx = dict(obj=obj, o=o, rec=rec, name=name, action=f"/lightning/r/{obj}/{rid}/owner",
               transfer_options=svc.ACCOUNT_TRANSFER_OPTIONS if obj == "Account" else {},
               transfer_always=svc.ACCOUNT_TRANSFER_ALWAYS, current_owner=R.user_by_id(rec.owner_id))
    if request.method == "GET":
        return modal_response(render_template("crm/modal_owner.html", errors={}, **ctx), obj, rid)
    transfer = {k: k in request.form for k in ctx["transfer_options"]} or None
    _, u, _moved = perform(svc.change_owner, obj, rid, request.form.get("owner_id", ""), transfer,
                   errors=modal(lambda e: render_template("crm/modal_owner.html", errors=e.errors, **ctx)))
    return done(None, toast=gettext("%(name)s now owns the record for %(name1)s.", name=u.name, name1=name))


@bp.post("/lightning/r/<obj>/<int:rid>/follow")
def record_follow(obj: str, rid: int):
    if obj not in VIEWABLE:
        abort(404)
    R.get_record(obj, rid)
    following = perform(svc.set_follow, obj, rid)
    return json_ok(following=following)


# ------------------------------------------------------------------------------ path
@bp.route("/lightning/r/<obj>/<int:rid>/path", methods=["GET", "POST"])
def record_path(obj: str, rid: int):
    if obj not in PATHS:
        abort(404)
    rec = R.get_record(obj, rid)
    field = {"Opportunity": "stage", "Lead": "status", "Case": "status"}[obj]
    if request.method == "GET":
        # The "Closed" step asks which closed value.
        if obj == "Opportunity":
            opts = ["Closed Won", "Closed Lost"]
        elif obj == "Lead":
            opts = ["Closed - Converted", "Closed - Not Converted"]
        else:
            abort(404)
        return modal_response(render_template("crm/modal_close.html", obj=obj, rec=rec, options=opts, errors={},
                                              action=f"/lightning/r/{obj}/{rid}/path"), obj, rid)
    value = request.form.get("value", "")
    if value not in svc.PATH_VALUES[obj]:
        if request.form.get("from_modal"):
            return fail(render_template("crm/modal_close.html", obj=obj, rec=rec,
                                                   options=["Closed Won", "Closed Lost"] if obj == "Opportunity" else ["Closed - Converted", "Closed - Not Converted"],
                                                   errors={"value": "Complete this field."}, action=f"/lightning/r/{obj}/{rid}/path"))
        return fail(message=gettext("Choose a valid value."), status=400)
    if obj == "Lead" and value == "Closed - Converted":
        return done(f"/lightning/r/Lead/{rid}/convert")
    perform(svc.set_path_value, obj, rid, value, request.form.get("loss_reason"))
    label = OBJECTS[obj].field(field).label
    return done(None, toast=gettext("%(label)s changed successfully.", label=label))


# ------------------------------------------------------------------------------ notes
@bp.route("/lightning/r/<obj>/<int:rid>/note/new", methods=["GET", "POST"])
def note_new(obj: str, rid: int):
    if obj not in ("Account", "Contact", "Opportunity", "Lead"):
        abort(404)
    R.get_record(obj, rid)
    action = f"/lightning/r/{obj}/{rid}/note/new"
    if request.method == "GET":
        return modal_response(render_template("crm/modal_note.html", note=None, errors={}, action=action, title="New Note"), obj, rid)
    title = request.form.get("title", "").strip()
    body = request.form.get("body", "").strip()
    perform(svc.add_note, obj, rid, title, body, errors=modal(lambda e: render_template(
        "crm/modal_note.html", note={"title": title, "body": body}, errors=e.errors, action=action, title="New Note")))
    return done(None, toast=gettext("Note \"%(title)s\" was created.", title=title))


def note_edit(nid: int):
    note = db().get(m.Note, nid)
    if note is None:
        abort(404)
    action = f"/lightning/r/Note/{nid}/edit"
    if request.method == "GET":
        return modal_response(render_template("crm/modal_note.html", note=note, errors={}, action=action, title=note.title,
                                              delete_url=f"/lightning/r/Note/{nid}/delete"), note.parent_type, note.parent_id)
    title = request.form.get("title", "").strip()
    body = request.form.get("body", "").strip()
    perform(svc.edit_note, nid, title, body, errors=modal(lambda e: render_template(
        "crm/modal_note.html", note={"title": title, "body": body}, errors=e.errors, action=action, title=note.title)))
    return done(None, toast=gettext("Note \"%(title)s\" was saved.", title=title))


def note_delete(nid: int):
    note = db().get(m.Note, nid)
    if note is None:
        abort(404)
    if request.method == "GET":
        return modal_response(render_template("crm/modal_confirm.html", title="Delete Note",
                                              message=gettext("Are you sure you want to delete this note?"),
                                              action=f"/lightning/r/Note/{nid}/delete", button="Delete"), note.parent_type, note.parent_id)
    perform(svc.delete_note, nid)
    return done(None, toast=gettext("Note was deleted."))


# ---------------------------------------------------------------------- contact roles
@bp.route("/lightning/r/Opportunity/<int:rid>/contact-role/new", methods=["GET", "POST"])
def contact_role_new(rid: int):
    opp = R.get_record("Opportunity", rid)
    action = f"/lightning/r/Opportunity/{rid}/contact-role/new"
    from apps.crm.meta import CONTACT_ROLES

    if request.method == "GET":
        return modal_response(render_template("crm/modal_role.html", opp=opp, errors={}, action=action, roles=CONTACT_ROLES), "Opportunity", rid)
    cid = request.form.get("contact_id", "")
    perform(svc.add_contact_role, rid, int(cid) if inputs.id_text(cid) is not None else None, request.form.get("role", ""),
            request.form.get("is_primary") in ("on", "true", "1"), errors=modal(lambda e: render_template(
                "crm/modal_role.html", opp=opp, errors=e.errors, action=action, roles=CONTACT_ROLES)))
    return done(None, toast=gettext("Contact role was added."))


# ------------------------------------------------------------------- related "View All"
@bp.get("/lightning/r/<obj>/<int:rid>/related/<key>/view")
def related_view(obj: str, rid: int, key: str):
    if obj not in VIEWABLE:
        abort(404)
    rec = R.get_record(obj, rid)
    lists = [r for r in related_lists(obj, rec) if r["key"] == key]
    if not lists:
        abort(404)
    o = OBJECTS[obj]
    name = rec_display_name(obj, rec)
    return page("crm/related.html", active=obj, title=f"{lists[0]['title']} | {name}", obj=obj, o=o, rec=rec,
                name=name, rel=lists[0])


# ------------------------------------------------------------------------------ users
def user_page(uid: int):
    u = db().get(m.User, uid)
    if u is None:
        abort(404)
    role = db().get(m.Role, u.role_id) if u.role_id else None
    manager = db().get(m.User, u.manager_id) if u.manager_id else None
    reports = list(db().scalars(select(m.User).where(m.User.manager_id == u.id).order_by(m.User.first_name)))
    opps = list(db().scalars(select(m.Opportunity).where(m.Opportunity.owner_id == u.id, m.Opportunity.stage.not_in(["Closed Won", "Closed Lost"])).order_by(m.Opportunity.close_date).limit(10)))
    return page("crm/user.html", active="", title=u.name, u=u, role=role, manager=manager, reports=reports, opps=opps)


@bp.get("/lightning/r/User/<int:uid>/view")
def user_view(uid: int):
    return user_page(uid)
