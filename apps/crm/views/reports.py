"""Reports (run, filter, group, sort, save / save as / new / delete) and dashboards (charts from data)."""

from __future__ import annotations

from urllib.parse import urlencode

from flask import abort, redirect, render_template, request
from sqlalchemy import or_, select

from apps._shared import db, now
from apps._shared.actions import perform
from apps._shared.i18n import gettext
from apps.crm import charts
from apps.crm import models as m
from apps.crm import records as R
from apps.crm.filters import OPS, describe, filter_param, ops_for
from apps.crm.meta import OBJECTS, REPORT_TYPES
from apps.crm.views.base import bp, done, json_ok, page
from apps.crm.services.reports import (  # noqa: F401 - re-exported: templates and tests read them from here
    DASH_FOLDERS, DEFAULT_COLUMNS, FOLDERS, MEASURE, cell_value, col_label, report_state, run_report)
from apps.crm.services import reports as svc
from apps.crm.views.records import modal_response
from apps.crm.views.refusals import MESSAGE, modal


def state_params(st: dict, **over) -> dict:
    s = dict(st)
    s.update(over)
    out = {"flt": filter_param(s["filters"]), "scope": s["scope"], "group": s["group"] or "none",
           "sort": s["sort"] or "", "dir": s["dir"]}
    if s.get("columns") and s["columns"] != s.get("saved_columns"):
        out["cols"] = ",".join(s["columns"])  # only an unsaved column change rides in the URL
    return out


def state_url(rep_id: int, st: dict, **over) -> str:
    return f"/lightning/r/Report/{rep_id}/view?" + urlencode(state_params(st, **over))


def chart_for(kind: str, groups: list[dict], money: bool, w: int = 380, label: str = ""):
    labels = [g["label"] for g in groups]
    vals = [g["sum"] if money else g["count"] for g in groups]
    if kind == "donut":
        return charts.donut(labels, vals, money=money, w=w, label=label)
    if kind == "funnel":
        return charts.funnel(labels, vals, money=money, w=w, label=label)
    if kind == "line":
        return charts.line_chart(labels, vals, money=money, w=w, label=label)
    if kind == "column":
        return charts.bar_chart(labels, vals, money=money, horizontal=False, w=w, label=label)
    return charts.bar_chart(labels, vals, money=money, horizontal=True, w=w, label=label)


# ------------------------------------------------------------------------------- pages
def report_fields(rtype: str) -> list[dict]:
    o = OBJECTS[rtype]
    return [{"name": f.name, "label": f.label, "type": f.type, "options": f.options or [], "ops": ops_for(f)}
            for f in o.fields if f.filterable and f.type not in ("address", "formula") and f.name != "salutation"]


@bp.get("/lightning/o/Report/home")
def reports_home():
    view = request.args.get("view", "recent")
    q = request.args.get("q", "").strip()
    stmt = select(m.Report)
    title = {"recent": "Recent", "mine": "Created by Me", "all": "All Reports"}.get(view, view)
    if view == "mine":
        stmt = stmt.where(m.Report.owner_id == R.ME)
    elif view in FOLDERS:
        stmt = stmt.where(m.Report.folder == view)
        title = view
    if q:
        stmt = stmt.where(or_(m.Report.name.ilike(f"%{q}%"), m.Report.description.ilike(f"%{q}%")))
    if view == "recent" and not q:
        stmt = stmt.order_by(m.Report.last_run_at.desc().nulls_last(), m.Report.updated_at.desc(), m.Report.id)
    else:
        stmt = stmt.order_by(m.Report.name, m.Report.id)
    reps = list(db().scalars(stmt))
    return page("crm/analytics_home.html", active="Report", title="Reports", kind="Report", items=reps, view=view,
                view_title=title, q=q, folders=FOLDERS, page_icon="standard:report")


EDIT_KEYS = ("nf_field", "nf_remove", "nf_scope", "nc_add", "nc_remove", "ng")


def apply_edits(rep: m.Report, args) -> dict | None:
    """A control's change to the run state (the run page's filters; the builder's columns, groups, filters):
    the new state, or None when `args` hold no change. Unknown fields and operators are ignored, as a
    picklist could not have sent them."""
    if not any(k in args for k in EDIT_KEYS):
        return None
    st = report_state(rep, args)
    o = OBJECTS[rep.report_type]
    if "nf_scope" in args and args["nf_scope"] in ("all", "mine"):
        st["scope"] = args["nf_scope"]
    if "nf_remove" in args and args["nf_remove"].isdecimal():
        i = int(args["nf_remove"])
        if 0 <= i < len(st["filters"]):
            st["filters"].pop(i)
    if args.get("nf_field"):
        fld, op, val = args["nf_field"], args.get("nf_op", "equals"), args.get("nf_value", "").strip()
        if fld in o.by_name and op in OPS:
            nf = {"field": fld, "op": op, "value": val}
            i = args.get("nf_index", "")
            if i.isdecimal() and int(i) < len(st["filters"]):
                st["filters"][int(i)] = nf
            else:
                st["filters"].append(nf)
    cols = list(st["columns"])
    add, remove = args.get("nc_add", ""), args.get("nc_remove", "")
    if add in svc.column_choices(rep.report_type) and add not in cols and len(cols) < svc.MAX_COLUMNS:
        cols.append(add)
    if remove in cols and len(cols) > 1:
        cols.remove(remove)
        if st["group"] == remove:
            st["group"] = None
    st["columns"] = cols
    if "ng" in args:
        g = args["ng"]
        if g == "none":
            st["group"] = None
        elif g in groupable(rep, cols):
            st["group"] = g
    return st


def groupable(rep: m.Report, cols: list[str]) -> list[str]:
    return list(cols) + (["close_month", "account.industry"] if rep.report_type == "Opportunity" else [])


@bp.get("/lightning/r/Report/<int:rid>/edit")
def report_builder(rid: int):
    """The report builder: columns (add, remove), row grouping, Show Me and filters over a live preview; Save,
    Save & Run, Run. Its unsaved state rides in the URL, as the run page's does."""
    rep = db().get(m.Report, rid)
    if rep is None:
        abort(404)
    return _builder(rep, f"/lightning/r/Report/{rid}/edit", {})


@bp.get("/lightning/o/Report/new/edit")
def report_new_builder():
    """New Report's builder: the report type chosen in Create Report, not saved until Save names it."""
    rtype = request.args.get("type", "")
    if rtype not in REPORT_TYPES:
        abort(400, description="Choose a report type.")
    return _builder(svc.blank(rtype), "/lightning/o/Report/new/edit", {"type": rtype})


def _builder(rep: m.Report, base: str, extra: dict):
    edited = apply_edits(rep, request.args)
    if edited is not None:
        return redirect(base + "?" + urlencode({**extra, **state_params(edited)}))
    st = report_state(rep, request.args)
    res = run_report(rep, st)
    o = OBJECTS[rep.report_type]
    rtype = rep.report_type
    labels = {c: col_label(rtype, c) for c in svc.column_choices(rtype)}
    labels.update({"close_month": "Close Month", "account.industry": "Account: Industry"})
    if st["group"]:
        rows = [(g["label"], r) for g in res["groups"] for r in g["rows"]][:25]
    else:
        rows = [("", r) for r in res["rows"][:25]]
    params = {**extra, **state_params(st)}
    new = rep.id is None
    heading = gettext("New %(title)s" if new else "Edit %(label)s", title=rep.name, label=rep.name)
    return page("crm/report_builder.html", active="Report", title=f"{heading} | Report", rep=rep,
                st=st, res=res, o=o, rows=rows, params=params, labels=labels, label=lambda c: labels.get(c, c), new=new, base=base,
                addable=[c for c in svc.column_choices(rtype) if c not in st["columns"]], groupable=groupable(rep, st["columns"]),
                fields=report_fields(rtype), ops=OPS, field_labels={f["name"]: f["label"] for f in report_fields(rtype)},
                filters_text=[(describe(o, f) if f["field"] in o.by_name else "") for f in st["filters"]],
                edit_url=lambda **kw: f"{base}?" + urlencode({**params, **kw}),
                save_url="/lightning/o/Report/new/save?" + urlencode(params),
                run_url=None if new else state_url(rep.id, st), page_icon="standard:report")


@bp.get("/lightning/r/Report/<int:rid>/view")
def report_view(rid: int):
    rep = db().get(m.Report, rid)
    if rep is None:
        abort(404)
    args = request.args
    edited = apply_edits(rep, args)
    if edited is not None:
        return redirect(state_url(rid, edited))
    st = report_state(rep, args)
    res = run_report(rep, st)
    perform(_stamp, rep, "last_run_at")
    money = bool(res["measure"])
    chart = chart_for(rep.chart, res["groups"], money, w=760, label=f"{rep.name} chart") if rep.chart != "none" and res["groups"] else None
    o = OBJECTS[rep.report_type]
    return page("crm/report.html", active="Report", title=f"{rep.name} | Report", rep=rep, st=st, res=res, o=o,
                chart=chart, filters_text=[(describe(o, f) if f["field"] in o.by_name else "") for f in st["filters"]],
                fields=report_fields(rep.report_type), ops=OPS,
                field_labels={f["name"]: f["label"] for f in report_fields(rep.report_type)}, state_url=lambda **kw: state_url(rid, st, **kw),
                params=state_params(st), page_icon="standard:report",
                filters_open=request.args.get("filters", "1") != "0", owner=R.user_by_id(rep.owner_id))


def _stamp(row, field: str) -> None:
    """A report run or a dashboard opened: its time is stamped (Recently run / viewed)."""
    setattr(row, field, now())


@bp.post("/lightning/r/Report/<int:rid>/save")
def report_save(rid: int):
    rep = db().get(m.Report, rid)
    if rep is None:
        abort(404)
    perform(svc.save, rep, report_state(rep, request.form))
    where = "edit" if request.form.get("next") == "edit" else "view"  # the builder's Save stays in the builder
    return done(f"/lightning/r/Report/{rid}/{where}", toast=gettext("Report \"%(name)s\" was saved.", name=rep.name))


@bp.route("/lightning/r/Report/<int:rid>/saveas", methods=["GET", "POST"])
def report_save_as(rid: int):
    rep = db().get(m.Report, rid)
    if rep is None:
        abort(404)
    src = request.args if request.method == "GET" else request.form
    st = report_state(rep, src)
    if request.method == "GET":
        return modal_response(render_template("crm/modal_report.html", mode="saveas", rep=rep, params=state_params(st),
                                              name=f"Copy of {rep.name}", description=rep.description, folder="Private Reports",
                                              folders=FOLDERS, types=REPORT_TYPES, errors={}))
    name = request.form.get("name", "").strip()
    folder = request.form.get("folder") or "Private Reports"
    new = perform(svc.save_as, rep, st, name, folder, request.form.get("description", ""), errors=modal(
        lambda e: render_template("crm/modal_report.html", mode="saveas", rep=rep, params=state_params(st), name=name,
                                  description=request.form.get("description", ""), folder=folder, folders=FOLDERS,
                                  types=REPORT_TYPES, errors=e.errors)))
    return done(f"/lightning/r/Report/{new.id}/view", toast=gettext("Report \"%(name)s\" was saved.", name=name))


@bp.get("/lightning/o/Report/new")
def report_new():
    """Create Report: choose a report type (searchable), then Start Report opens the builder."""
    return modal_response(render_template("crm/modal_report_type.html", types=REPORT_TYPES, labels=svc.REPORT_TYPE_LABELS,
                                          descriptions=REPORT_TYPE_HELP))


REPORT_TYPE_HELP = {"Opportunity": "Opportunities with their accounts, stages, amounts and close dates",
                    "Lead": "Leads with their status, source and owner", "Account": "Accounts with industry, location and revenue",
                    "Contact": "Contacts with their accounts, titles and phone numbers",
                    "Case": "Cases with status, priority and origin", "Task": "Tasks and events with their status and due dates"}


def _new_state() -> tuple[str, m.Report, dict]:
    """The builder's unsaved New Report (its type and run state from the URL or the Save form)."""
    src = request.args if request.method == "GET" else request.form
    rtype = src.get("type", "")
    if rtype not in REPORT_TYPES:
        abort(400, description="Choose a report type.")
    rep = svc.blank(rtype)
    return rtype, rep, report_state(rep, src)


def _save_modal(rtype: str, st: dict, name: str, description: str, folder: str, nxt: str, errors: dict) -> str:
    return render_template("crm/modal_report.html", mode="new", rep=None, params={"type": rtype, **state_params(st), "next": nxt},
                           name=name, description=description, folder=folder, folders=FOLDERS, types=REPORT_TYPES, errors=errors)


@bp.route("/lightning/o/Report/new/save", methods=["GET", "POST"])
def report_new_save():
    """Save (or Save & Run) a new report from the builder: name it and choose its folder, then it is created with the
    builder's filters, Show Me, grouping, sort and columns. Save goes back to the builder, Save & Run to the run page."""
    rtype, _rep, st = _new_state()
    nxt = "run" if (request.args if request.method == "GET" else request.form).get("next") == "run" else "edit"
    if request.method == "GET":
        return modal_response(_save_modal(rtype, st, "", "", "Private Reports", nxt, {}))
    name, desc = request.form.get("name", "").strip(), request.form.get("description", "")
    folder = request.form.get("folder") or "Private Reports"
    new = perform(svc.create, name, rtype, folder, desc, st,
                  errors=modal(lambda e: _save_modal(rtype, st, name, desc, folder, nxt, e.errors)))
    return done(f"/lightning/r/Report/{new.id}/{'view' if nxt == 'run' else 'edit'}", toast=gettext("Report \"%(name)s\" was saved.", name=name))


@bp.route("/lightning/r/Report/<int:rid>/delete", methods=["GET", "POST"])
def report_delete(rid: int):
    rep = db().get(m.Report, rid)
    if rep is None:
        abort(404)
    if request.method == "GET":
        return modal_response(render_template("crm/modal_confirm.html", title="Delete Report",
                                              message=gettext("Are you sure you want to delete \"%(name)s\"?", name=rep.name),
                                              action=f"/lightning/r/Report/{rid}/delete", button="Delete"))
    name = perform(svc.delete, rep, errors=MESSAGE)
    return done("/lightning/o/Report/home", toast=gettext("Report \"%(name)s\" was deleted.", name=name))


# -------------------------------------------------------------------------- dashboards
@bp.get("/lightning/o/Dashboard/home")
def dashboards_home():
    view = request.args.get("view", "all")
    q = request.args.get("q", "").strip()
    stmt = select(m.Dashboard)
    if view == "mine":
        stmt = stmt.where(m.Dashboard.owner_id == R.ME)
    elif view in DASH_FOLDERS:
        stmt = stmt.where(m.Dashboard.folder == view)
    if q:
        stmt = stmt.where(m.Dashboard.name.ilike(f"%{q}%"))
    ds = list(db().scalars(stmt.order_by(m.Dashboard.name, m.Dashboard.id)))
    title = {"all": "All Dashboards", "mine": "Created by Me"}.get(view, view)
    return page("crm/analytics_home.html", active="Dashboard", title="Dashboards", kind="Dashboard", items=ds, view=view,
                view_title=title, q=q, folders=DASH_FOLDERS, page_icon="standard:dashboard")


@bp.get("/lightning/r/Dashboard/<int:did>/view")
def dashboard_view(did: int):
    d = db().get(m.Dashboard, did)
    if d is None:
        abort(404)
    comps = []
    for c in d.components or []:
        rep = db().get(m.Report, c.get("report_id"))
        if rep is None:
            continue
        st = report_state(rep, {})
        res = run_report(rep, st)
        money = c.get("measure") == "amount" and bool(res["measure"])
        item = {"title": c["title"], "report": rep, "chart": c["chart"], "money": money}
        if c["chart"] == "metric":
            item["value"] = R.shown_money_short(res["sum"]) if money else R.shown_number(res["count"])
        elif c["chart"] == "table":
            item["table"] = {"heads": res["heads"][:3], "rows": [r["cells"][:3] for r in res["rows"][:8]]}
        else:
            groups = res["groups"] or [{"label": "Total", "sum": res["sum"], "count": res["count"]}]
            item["svg"] = chart_for(c["chart"], groups, money, w=380, label=c["title"])
        comps.append(item)
    perform(_stamp, d, "last_viewed_at")
    return page("crm/dashboard.html", active="Dashboard", title=f"{d.name} | Dashboard", d=d, comps=comps,
                owner=R.user_by_id(d.owner_id), page_icon="standard:dashboard")
