"""The activity composers on a record page (New Task, Log a Call, New Event, Email) and completing tasks.

A composer posts a form whose Name / Related To lookups start filled from the record (composer_defaults);
tools pass the same form, so an activity logged by a tool lands on the same records as one logged by hand.
"""

from __future__ import annotations

import datetime as dt
from typing import Mapping

from sqlalchemy import func, select

from apps._shared import db, inputs, now
from apps.crm import models as m
from apps.crm import records as R
from apps.crm.meta import OBJECTS
from apps.crm.services import ServiceError, record

COMPOSER_OBJECTS = ("Lead", "Account", "Contact", "Opportunity", "Case")
KINDS = ("task", "call", "event", "email")
LABELS = {"subject": "Subject", "activity_date": "Due Date", "owner_id": "Assigned To", "who_id": "Name",
          "what_id": "Related To", "status": "Status", "priority": "Priority", "start": "Start", "end": "End", "to": "To"}


def composer_defaults(obj: str, rec) -> dict:
    """What the composers prefill: Name (who), Related To (what) and the Email's To address."""
    who = what = None
    if obj in ("Contact", "Lead"):
        who = (obj, rec.id, rec.name)
    if obj == "Contact" and rec.account_id:
        acc = db().get(m.Account, rec.account_id)
        what = ("Account", acc.id, acc.name) if acc else None
    if obj in ("Account", "Opportunity", "Case"):
        what = (obj, rec.id, R.record_name(obj, rec))
    if obj == "Opportunity":
        cr = db().scalar(select(m.OpportunityContactRole).where(
            m.OpportunityContactRole.opportunity_id == rec.id).order_by(m.OpportunityContactRole.is_primary.desc(), m.OpportunityContactRole.id))
        if cr:
            c = db().get(m.Contact, cr.contact_id)
            who = ("Contact", c.id, c.name) if c else None
    if obj == "Case" and rec.contact_id:
        c = db().get(m.Contact, rec.contact_id)
        who = ("Contact", c.id, c.name) if c else None
    email_to = ""
    if who:
        target = db().get(m.Contact if who[0] == "Contact" else m.Lead, who[1])
        email_to = target.email if target else ""
    return {"who": who, "what": what, "email_to": email_to}


def _addresses(to: str) -> list[str]:
    return [x.strip() for x in (to or "").split(",") if x.strip()]


def email_recipients(obj: str, rec, to: str) -> list[tuple[str, int]]:
    """The people an email from record `rec` went to, one per To address that names one, in the To line's
    order: the record's own person (a contact or lead page), else the record's people (an opportunity's contact
    roles, an account's contacts, a case's contact), else any contact with that email (the oldest), else, where
    the email is not related to another record (a lead's page), a lead. An address of no one is left out. The one
    rule of every send-email path (the composer on any record page, the send_email tool)."""
    s = db()
    own = [(obj, rec)] if obj in ("Contact", "Lead") else []
    related: list = []
    if obj == "Opportunity":
        roles = s.scalars(select(m.OpportunityContactRole).where(m.OpportunityContactRole.opportunity_id == rec.id)
                          .order_by(m.OpportunityContactRole.is_primary.desc(), m.OpportunityContactRole.id))
        related = [c for c in (s.get(m.Contact, r.contact_id) for r in roles) if c is not None]
        if rec.account_id:
            related += list(s.scalars(select(m.Contact).where(m.Contact.account_id == rec.account_id).order_by(m.Contact.id)))
    elif obj == "Account":
        related = list(s.scalars(select(m.Contact).where(m.Contact.account_id == rec.id).order_by(m.Contact.id)))
    elif obj == "Case" and rec.contact_id:
        c = s.get(m.Contact, rec.contact_id)
        related = [c] if c else []
        if rec.account_id:
            related += list(s.scalars(select(m.Contact).where(m.Contact.account_id == rec.account_id).order_by(m.Contact.id)))
    out: list[tuple[str, int]] = []
    for addr in _addresses(to):
        key = addr.lower()
        hit = next(((t, p.id) for t, p in own if (p.email or "").lower() == key), None)
        hit = hit or next((("Contact", c.id) for c in related if (c.email or "").lower() == key), None)
        if hit is None:
            c = s.scalar(select(m.Contact).where(func.lower(m.Contact.email) == key).order_by(m.Contact.id))
            hit = ("Contact", c.id) if c else None
        if hit is None and obj == "Lead":
            ld = s.scalar(select(m.Lead).where(func.lower(m.Lead.email) == key).order_by(m.Lead.id))
            hit = ("Lead", ld.id) if ld else None
        if hit and hit not in out:
            out.append(hit)
    return out


def default_form(obj: str, rid: int, kind: str) -> dict[str, str]:
    """The composer's form as it opens on the record (before the user types)."""
    rec = record(obj, rid, COMPOSER_OBJECTS)
    d = composer_defaults(obj, rec)
    form = {"who_id": f"{d['who'][0]}:{d['who'][1]}" if d["who"] else "",
            "what_id": f"{d['what'][0]}:{d['what'][1]}" if d["what"] else ""}
    if kind in ("task", "event"):
        form["owner_id"] = str(R.ME)
    if kind == "task":
        form.update(status="Not Started", priority="Normal")
    if kind == "call":
        form["subject"] = "Call"
    if kind == "event":
        day = R.fmt_date(now())
        form.update(start=day, start_time="10:00 AM", end=day, end_time="11:00 AM")
    if kind == "email":
        form["to"] = d["email_to"]
    return form


def _ref(raw: str, allowed: tuple[str, ...], errors: dict, key: str):
    raw = (raw or "").strip()
    if not raw:
        return None, None
    typ, _, rid = raw.partition(":")
    if typ not in allowed or inputs.id_text(rid) is None or db().get(R.MODEL_BY_API[typ], int(rid)) is None:
        errors[key] = "Select an option from the picklist or remove the search term."
        return None, None
    return typ, int(rid)


def _refused(errors: dict) -> ServiceError:
    """The composer's toast (`ui_message`) for the page; the same with each field's reason for a model."""
    msg = "We hit a snag. Review the following fields: " + ", ".join(LABELS.get(k, k) for k in errors)
    err = ServiceError(msg + " (" + "; ".join(f"{LABELS.get(k, k)}: {v}" for k, v in errors.items()) + ")", errors)
    err.ui_message = msg
    return err


def compose(obj: str, rid: int, kind: str, f: Mapping[str, str]):
    """Save one composer's form: a task, a logged call (a completed Call task, due today), an event, or an
    email (logged as a completed task "Email: <subject>" with "To: ..." above the body). Returns (row, toast)."""
    rec = record(obj, rid, COMPOSER_OBJECTS)
    if kind not in KINDS:
        raise ServiceError(f"unknown composer {kind!r}; one of {', '.join(KINDS)}", status=404)
    errors: dict[str, str] = {}
    subject = (f.get("subject") or "").strip()
    if not subject:
        errors["subject"] = "Complete this field."
    who = _ref(f.get("who_id", ""), ("Contact", "Lead"), errors, "who_id")
    what = _ref(f.get("what_id", ""), ("Account", "Opportunity", "Case"), errors, "what_id")
    if who[0] == "Lead" and what[0]:
        errors["what_id"] = "You can't relate a lead to another record."
    owner = R.ME
    if kind in ("task", "event"):
        raw = f.get("owner_id", "")
        if inputs.id_text(raw) is None or R.user_by_id(int(raw)) is None:
            errors["owner_id"] = "Complete this field."
        else:
            owner = int(raw)
    t = now()
    if kind == "task":
        due = None
        if (f.get("activity_date") or "").strip():
            try:
                due = R.parse_date(f["activity_date"])
            except ValueError as e:
                errors["activity_date"] = str(e)
        status = f.get("status") or "Not Started"
        priority = f.get("priority") or "Normal"
        if status not in OBJECTS["Task"].field("status").options:
            errors["status"] = "Select a valid value."
        if priority not in OBJECTS["Task"].field("priority").options:
            errors["priority"] = "Select a valid value."
        if errors:
            raise _refused(errors)
        values = dict(subject=subject, activity_date=due, status=status, priority=priority, owner_id=owner,
                      description=(f.get("description") or "").strip(), task_subtype="Task",
                      who_type=who[0], who_id=who[1], what_type=what[0], what_id=what[1])
        return R.create("Task", values), f'Task "{subject}" was created.'
    if kind == "call":
        if errors:
            raise _refused(errors)
        values = dict(subject=subject, activity_date=t.date(), status="Completed", priority="Normal", owner_id=R.ME,
                      description=(f.get("description") or "").strip(), task_subtype="Call",
                      who_type=who[0], who_id=who[1], what_type=what[0], what_id=what[1])
        return R.create("Task", values), f'Task "{subject}" was created.'
    if kind == "event":
        start = end = None
        try:
            start = dt.datetime.combine(R.parse_date(f.get("start", "")), R.parse_time(f.get("start_time") or "12:00 AM"))
        except ValueError as e:
            errors["start"] = str(e) if f.get("start") else "Complete this field."
        try:
            end = dt.datetime.combine(R.parse_date(f.get("end", "")), R.parse_time(f.get("end_time") or "12:00 AM"))
        except ValueError as e:
            errors["end"] = str(e) if f.get("end") else "Complete this field."
        if start and end and end < start:
            errors["end"] = "The end time can't be before the start time."
        if errors:
            raise _refused(errors)
        values = dict(subject=subject, start=start, end=end, all_day=False, location=(f.get("location") or "").strip(),
                      description="", owner_id=owner, who_type=who[0], who_id=who[1], what_type=what[0], what_id=what[1])
        return R.create("Event", values), f'Event "{subject}" was created.'
    to = (f.get("to") or "").strip()
    if not to:
        errors["to"] = "Complete this field."
    elif not all(R.is_email(x) for x in _addresses(to)):
        errors["to"] = "You have entered an invalid format."
    if errors:
        raise _refused(errors)
    # The email is logged on who it went to (the first To address that is a person) and the record's Related To.
    defaults = composer_defaults(obj, rec)
    people = email_recipients(obj, rec, to)
    wh = defaults["what"] or (None, None)
    # To no one on file: a person's page keeps the email on its own timeline only when nothing else would (a lead).
    wt = people[0] if people else (defaults["who"][:2] if defaults["who"] and wh[0] is None else (None, None))
    body = (f.get("body") or "").strip()
    values = dict(subject=f"Email: {subject}", activity_date=t.date(), status="Completed", priority="Normal",
                  owner_id=R.ME, description=f"To: {to}\n\n{body}".strip(), task_subtype="Email",
                  who_type=wt[0], who_id=wt[1], what_type=wh[0], what_id=wh[1])
    return R.create("Task", values), "Email was sent."


def complete_task(rid: int, completed: bool = True) -> m.Task:
    """Tick (or untick) a task: Completed with a completed date, or back to Not Started."""
    rec = record("Task", rid)
    values = {"status": "Completed" if completed else "Not Started"}
    R.apply_rules("Task", rec, values, {}, False)
    R.update(rec, values)
    return rec
