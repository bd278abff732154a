"""Home's quarterly goal: its Edit dialog (a modal over the home page)."""

from __future__ import annotations

from flask import render_template, request

from apps._shared.actions import perform
from apps._shared.i18n import gettext
from apps.crm import records as R
from apps.crm.services import records as svc
from apps.crm.views.base import bp, done
from apps.crm.views.records import modal_response
from apps.crm.views.refusals import modal


@bp.route("/lightning/page/home/goal", methods=["GET", "POST"])
def edit_goal():
    if request.method == "GET":
        return modal_response(render_template("crm/modal_goal.html", goal=R.me().quarterly_goal, errors={}))
    raw = request.form.get("goal", "")
    perform(svc.set_goal, raw, errors=modal(lambda e: render_template("crm/modal_goal.html", goal=raw, errors=e.errors)))
    return done(None, toast=gettext("Goal updated."))
