"""The activity composers (New Task, Log a Call, New Event, Email), completing tasks and
follow-up tasks."""

from __future__ import annotations

from flask import abort, request

from apps._shared.actions import perform
from apps.crm import records as R
from apps.crm.services import ServiceError
from apps.crm.services import activities as svc
from apps.crm.views.base import bp, done, fail
from apps.crm.views.records import Prefill, modal_response, render_form

COMPOSER_OBJECTS = svc.COMPOSER_OBJECTS


@bp.post("/lightning/r/<obj>/<int:rid>/activity/<kind>")
def compose(obj: str, rid: int, kind: str):
    if obj not in COMPOSER_OBJECTS or kind not in svc.KINDS:
        abort(404)
    R.get_record(obj, rid)
    _, toast = perform(svc.compose, obj, rid, kind, request.form,
                       errors={ServiceError: lambda e: fail(message=getattr(e, "ui_message", str(e)))})
    return done(None, toast=toast)


@bp.post("/lightning/r/Task/<int:rid>/complete")
def task_complete(rid: int):
    rec = R.get_record("Task", rid)
    want = request.form.get("done", "1") != "0"
    perform(svc.complete_task, rid, want)
    return done(None, toast=f'Task "{rec.subject}" was {"marked complete" if want else "reopened"}.')


@bp.get("/lightning/r/Task/<int:rid>/followup")
def task_followup(rid: int):
    rec = R.get_record("Task", rid)
    values = Prefill({"subject": rec.subject, "status": "Not Started", "priority": rec.priority, "owner_id": rec.owner_id,
                      "who_type": rec.who_type, "who_id": rec.who_id, "what_type": rec.what_type, "what_id": rec.what_id,
                      "activity_date": None, "description": ""})
    return modal_response(render_form("Task", "new", values, {}), "Task", rid)
