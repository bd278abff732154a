"""Close Case: the action opens the Close Case form (Status, Case Reason, Internal Comments), as Lightning's
Close Case layout does; saving closes the case and records the comment (services/cases.py)."""

from __future__ import annotations

from flask import render_template, request

from apps._shared.actions import perform
from apps._shared.i18n import gettext
from apps.crm import records as R
from apps.crm.meta import CASE_REASONS
from apps.crm.services import cases as svc
from apps.crm.views.base import bp, done
from apps.crm.views.records import modal_response
from apps.crm.views.refusals import modal


def _form(rec, values: dict, errors: dict) -> str:
    return render_template("crm/modal_close_case.html", rec=rec, values=values, errors=errors,
                           statuses=svc.CLOSED_STATUSES, reasons=CASE_REASONS,
                           action=f"/lightning/r/Case/{rec.id}/close")


@bp.route("/lightning/r/Case/<int:rid>/close", methods=["GET", "POST"])
def case_close(rid: int):
    rec = R.get_record("Case", rid)
    if request.method == "GET":
        if rec.status in svc.CLOSED_STATUSES:
            # A Close Case link followed after the case was closed (a stale page, another tab): the record
            # page says so, as Lightning's toast does, rather than a dead link.
            return done(f"/lightning/r/Case/{rid}/view", toast=gettext("Case %(case_number)s is already closed.", case_number=rec.case_number))
        return modal_response(_form(rec, {"status": svc.CLOSED_STATUSES[0], "reason": rec.reason, "comment": ""}, {}),
                              "Case", rid)
    values = {"status": request.form.get("status", ""), "reason": request.form.get("reason", ""),
              "comment": request.form.get("comment", "")}
    perform(svc.close_case, rid, values["status"], values["reason"] or None, values["comment"],
            errors=modal(lambda e: _form(rec, values, e.errors or {"status": str(e)}), with_message=True))
    return done(None, toast=f"Case \u201c{rec.case_number}\u201d was saved.")
