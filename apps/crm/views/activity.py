"""The activity composers (New Task, Log a Call, New Event, Email), completing tasks and
follow-up tasks."""

from __future__ import annotations

import datetime as dt

from flask import abort, request

from apps._shared import db, inputs, now
from apps.crm import records as R
from apps.crm.meta import OBJECTS
from apps.crm.views import bp, done, fail, json_ok
from apps.crm.views.records import Prefill, modal_response, render_form

COMPOSER_OBJECTS = ("Lead", "Account", "Contact", "Opportunity", "Case")


def _ref(raw: str, allowed: tuple[str, ...], errors: dict, key: str):
    raw = (raw or "").strip()
    if not raw:
        return None, None
    typ, _, rid = raw.partition(":")
    if typ not in allowed or inputs.id_text(rid) is None or db().get(R.MODEL_BY_API[typ], int(rid)) is None:
        errors[key] = "Select an option from the picklist or remove the search term."
        return None, None
    return typ, int(rid)


def _error_response(errors: dict) -> tuple:
    labels = {"subject": "Subject", "activity_date": "Due Date", "owner_id": "Assigned To", "who_id": "Name",
              "what_id": "Related To", "status": "Status", "priority": "Priority", "start": "Start", "end": "End",
              "to": "To"}
    msg = "We hit a snag. Review the following fields: " + ", ".join(labels.get(k, k) for k in errors)
    return fail(message=msg)


@bp.post("/lightning/r/<obj>/<int:rid>/activity/<kind>")
def compose(obj: str, rid: int, kind: str):
    if obj not in COMPOSER_OBJECTS or kind not in ("task", "call", "event", "email"):
        abort(404)
    R.get_record(obj, rid)
    f = request.form
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
        if f.get("activity_date", "").strip():
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
            return _error_response(errors)
        values = dict(subject=subject, activity_date=due, status=status, priority=priority, owner_id=owner,
                      description=(f.get("description") or "").strip(), task_subtype="Task",
                      who_type=who[0], who_id=who[1], what_type=what[0], what_id=what[1])
        rec = R.create("Task", values)
        toast = f'Task "{subject}" was created.'
    elif kind == "call":
        if errors:
            return _error_response(errors)
        values = dict(subject=subject, activity_date=t.date(), status="Completed", priority="Normal", owner_id=R.ME,
                      description=(f.get("description") or "").strip(), task_subtype="Call",
                      who_type=who[0], who_id=who[1], what_type=what[0], what_id=what[1])
        rec = R.create("Task", values)
        toast = f'Task "{subject}" was created.'
    elif kind == "event":
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
            return _error_response(errors)
        values = dict(subject=subject, start=start, end=end, all_day=False, location=(f.get("location") or "").strip(),
                      description="", owner_id=owner, who_type=who[0], who_id=who[1], what_type=what[0], what_id=what[1])
        rec = R.create("Event", values)
        toast = f'Event "{subject}" was created.'
    else:
        to = (f.get("to") or "").strip()
        if not to:
            errors["to"] = "Complete this field."
        elif not all(R.EMAIL_RE.match(x.strip()) for x in to.split(",") if x.strip()):
            errors["to"] = "You have entered an invalid format."
        if errors:
            return _error_response(errors)
        from apps.crm.views.records import composer_defaults

        defaults = composer_defaults(obj, R.get_record(obj, rid))
        wt = defaults["who"] or (None, None)
        wh = defaults["what"] or (None, None)
        body = (f.get("body") or "").strip()
        values = dict(subject=f"Email: {subject}", activity_date=t.date(), status="Completed", priority="Normal",
                      owner_id=R.ME, description=f"To: {to}\n\n{body}".strip(), task_subtype="Email",
                      who_type=wt[0], who_id=wt[1], what_type=wh[0], what_id=wh[1])
        rec = R.create("Task", values)
        toast = "Email was sent."
    db().commit()
    return done(None, toast=toast)


@bp.post("/lightning/r/Task/<int:rid>/complete")
def task_complete(rid: int):
    rec = R.get_record("Task", rid)
    want = request.form.get("done", "1") != "0"
    values = {"status": "Completed" if want else "Not Started"}
    R.apply_rules("Task", rec, values, {}, False)
    R.update(rec, values)
    db().commit()
    return done(None, toast=f'Task "{rec.subject}" was {"marked complete" if want else "reopened"}.')


@bp.get("/lightning/r/Task/<int:rid>/followup")
def task_followup(rid: int):
    rec = R.get_record("Task", rid)
    values = Prefill({"subject": rec.subject, "status": "Not Started", "priority": rec.priority, "owner_id": rec.owner_id,
                      "who_type": rec.who_type, "who_id": rec.who_id, "what_type": rec.what_type, "what_id": rec.what_id,
                      "activity_date": None, "description": ""})
    return modal_response(render_form("Task", "new", values, {}), "Task", rid)
