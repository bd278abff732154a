"""Edit a dashboard (the dashboard builder): + Component (a report as a chart, metric or table), remove a
component, Save or Cancel. What the builder shows before Save is a draft carried in its form (no JavaScript
needed); every step is checked by apps/crm/services/dashboards.py, which the tools call too."""

from __future__ import annotations

import json

from flask import abort, render_template, request
from sqlalchemy import select

from apps._shared import db
from apps._shared.actions import perform
from apps._shared.i18n import gettext
from apps.crm import models as m
from apps.crm.services import ServiceError
from apps.crm.services import dashboards as svc
from apps.crm.views.base import bp, done, page


def _dashboard(did: int) -> m.Dashboard:
    d = db().get(m.Dashboard, did)
    if d is None:
        abort(404)
    return d


def _builder(d: m.Dashboard, draft: list[dict], adding: dict | None = None, errors: dict | None = None,
             message: str = "", status: int = 200):
    reports = list(db().scalars(select(m.Report).order_by(m.Report.name, m.Report.id)))
    names = {r.id: r.name for r in reports}
    ctx = dict(d=d, draft=json.dumps(draft), adding=adding, errors=errors or {}, message=message,
               reports=[str(r.id) for r in reports], report_labels={str(r.id): r.name for r in reports},
               charts=list(svc.CHARTS), chart_labels=svc.CHARTS)
    modal_html = render_template("crm/modal_dashboard_component.html", **ctx) if adding is not None else ""
    title = gettext("Edit %(label)s", label=d.name) + " | Dashboard"
    html = page("crm/dashboard_edit.html", active="Dashboard", title=title, d=d,
                comps=[{**c, "report_name": names.get(c["report_id"], ""), "chart_label": svc.CHARTS.get(c["chart"], c["chart"])}
                       for c in draft],
                max_components=svc.MAX_COMPONENTS, modal_html=modal_html, page_icon="standard:dashboard",
                **{k: v for k, v in ctx.items() if k != "d"})
    return html, status


@bp.get("/lightning/r/Dashboard/<int:did>/edit")
def dashboard_edit(did: int):
    d = _dashboard(did)
    return _builder(d, list(d.components or []))


@bp.post("/lightning/r/Dashboard/<int:did>/edit")
def dashboard_edit_step(did: int):
    d = _dashboard(did)
    try:
        draft = svc.parse_draft(request.form.get("draft", "[]"))
    except ServiceError as e:
        return _builder(d, list(d.components or []), message=str(e), status=400)
    op = request.form.get("op", "")
    if op == "add_open":
        return _builder(d, draft, adding={"report_id": "", "chart": "", "title": ""})
    if op == "add":
        form = {k: request.form.get(k, "") for k in ("report_id", "chart", "title")}
        try:
            draft = svc.add(draft, form["report_id"], form["chart"], form["title"])
        except ServiceError as e:
            return _builder(d, draft, adding=form, errors=e.errors, message=str(e), status=400)
        return _builder(d, draft)
    if op.startswith("remove:"):
        idx = op.partition(":")[2]
        try:
            draft = svc.remove(draft, int(idx) if idx.isdigit() and len(idx) < 6 else -1)
        except ServiceError as e:
            return _builder(d, draft, message=str(e), status=400)
        return _builder(d, draft)
    if op == "save":
        perform(svc.save, d, draft)
        return done(f"/lightning/r/Dashboard/{d.id}/view", toast=gettext("Dashboard \"%(name)s\" was saved.", name=d.name))
    return _builder(d, draft, message=gettext("Choose + Component, Remove, Save or Cancel."), status=400)
