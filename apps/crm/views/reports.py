"""Reports (run, filter, group, sort, save / save as / new / delete) and dashboards (charts from data)."""

from __future__ import annotations

import datetime as dt
from urllib.parse import urlencode

from flask import abort, redirect, render_template, request
from sqlalchemy import or_, select

from apps._shared import db, now
from apps.crm import charts
from apps.crm import models as m
from apps.crm import records as R
from apps.crm.filters import OPS, condition, describe, filter_param, ops_for, parse_filter_param, scope_condition
from apps.crm.meta import CASE_PRIORITIES, OBJECTS, REPORT_TYPES, STAGES
from apps.crm.views import bp, done, fail, json_ok, page
from apps.crm.views.records import modal_response

FOLDERS = ["Private Reports", "Sales Reports", "Marketing Reports", "Service Reports"]
DASH_FOLDERS = ["Private Dashboards", "Sales Dashboards", "Marketing Dashboards", "Service Dashboards"]
DEFAULT_COLUMNS = {
    "Opportunity": ["name", "account_id", "owner_id", "stage", "amount", "close_date", "probability"],
    "Lead": ["name", "company", "status", "lead_source", "owner_id", "created_at"],
    "Account": ["name", "type", "industry", "billing_city", "billing_country", "annual_revenue", "owner_id"],
    "Contact": ["name", "account_id", "title", "email", "phone", "owner_id"],
    "Case": ["case_number", "subject", "account_id", "status", "priority", "origin", "created_at"],
    "Task": ["subject", "who", "what", "activity_date", "status", "priority", "owner_id"],
}
MEASURE = {"Opportunity": "amount", "Account": "annual_revenue"}
ORDERS = {"stage": STAGES, "priority": CASE_PRIORITIES + ["Normal"],
          "status": ["Open - Not Contacted", "Working - Contacted", "Closed - Converted", "Closed - Not Converted",
                     "New", "Working", "Escalated", "Closed", "Not Started", "In Progress", "Waiting on someone else",
                     "Deferred", "Completed"]}


def col_label(rtype: str, c: str) -> str:
    o = OBJECTS[rtype]
    if c in o.by_name:
        f = o.field(c)
        if c == "owner_id":
            return f"{o.label} Owner" if rtype != "Task" else "Assigned To"
        return f.label
    return c


# ---------------------------------------------------------------------------- running
def report_state(rep: m.Report, args) -> dict:
    st = {
        "filters": parse_filter_param(args.get("flt", "")) if "flt" in args else [dict(f) for f in rep.filters or []],
        "scope": args.get("scope") if args.get("scope") in ("all", "mine") else rep.scope,
        "group": (None if args.get("group") == "none" else args.get("group")) if "group" in args else rep.group_by,
        "sort": args.get("sort") or rep.sort_by,
        "dir": args.get("dir") if args.get("dir") in ("asc", "desc") else rep.sort_dir,
    }
    cols = rep.columns or DEFAULT_COLUMNS[rep.report_type]
    if st["group"] and st["group"] not in cols and st["group"] not in ("close_month", "account.industry"):
        st["group"] = None
    st["modified"] = (st["filters"] != (rep.filters or []) or st["scope"] != rep.scope or st["group"] != rep.group_by
                      or st["sort"] != rep.sort_by or st["dir"] != rep.sort_dir)
    return st


def state_params(st: dict, **over) -> dict:
    s = dict(st)
    s.update(over)
    return {"flt": filter_param(s["filters"]), "scope": s["scope"], "group": s["group"] or "none",
            "sort": s["sort"] or "", "dir": s["dir"]}


def state_url(rep_id: int, st: dict, **over) -> str:
    return f"/lightning/r/Report/{rep_id}/view?" + urlencode(state_params(st, **over))


def cell_value(rtype: str, rec, c: str, names: R.Names, accounts: dict) -> tuple[str, object, str]:
    """(display text, sort/group key, link) of one report cell."""
    o = OBJECTS[rtype]
    if c == "account.industry":
        acc = accounts.get(rec.account_id)
        v = acc.industry if acc else ""
        return v, v.lower(), ""
    if c == "close_month":
        d = rec.close_date
        return d.strftime("%B %Y"), (d.year, d.month), ""
    f = o.field(c)
    if f.type == "name":
        return rec.name, rec.name.lower(), f"/lightning/r/{rtype}/{rec.id}/view"
    if f.name in ("who", "what"):
        t, i = getattr(rec, f"{c}_type"), getattr(rec, f"{c}_id")
        n = names.name(t, i)
        return n, n.lower(), f"/lightning/r/{t}/{i}/view" if i else ""
    v = getattr(rec, c)
    if f.type in ("lookup", "user"):
        t = "User" if f.type == "user" else f.ref[0]
        n = names.name(t, v) if v else ""
        return n, n.lower(), (f"/lightning/r/{t}/{v}/view" if v else "")
    text = R.fmt_value(f, v)
    if c == o.name_field:
        return text, text.lower(), f"/lightning/r/{rtype}/{rec.id}/view"
    if v is None:
        key = (0, "")
    elif isinstance(v, str):
        key = (1, v.lower())
    else:
        key = (1, v)
    return text, key, ""


def run_report(rep: m.Report, st: dict, limit: int = 2000) -> dict:
    rtype = rep.report_type
    o = OBJECTS[rtype]
    today = now().date()
    conds = [condition(o, f, today) for f in st["filters"]]
    sc = scope_condition(o, st["scope"])
    if sc is not None:
        conds.append(sc)
    recs = list(db().scalars(select(o.model).where(*conds).order_by(o.model.id).limit(limit)))
    cols = list(rep.columns or DEFAULT_COLUMNS[rtype])
    names = R.Names()
    accounts = {}
    need_acc = "account.industry" in cols or st["group"] == "account.industry"
    for r in recs:
        for c in cols + ([st["group"]] if st["group"] else []):
            if c in o.by_name:
                f = o.field(c)
                if f.type in ("lookup", "user") and f.name not in ("who", "what"):
                    names.add("User" if f.type == "user" else f.ref[0], getattr(r, c))
                elif f.name in ("who", "what"):
                    names.add(getattr(r, f"{c}_type"), getattr(r, f"{c}_id"))
    names.load()
    if need_acc:
        ids = sorted({r.account_id for r in recs if r.account_id})
        accounts = {a.id: a for a in db().scalars(select(m.Account).where(m.Account.id.in_(ids)))} if ids else {}
    measure = MEASURE.get(rtype)
    rows = []
    for r in recs:
        cells = []
        for c in cols:
            text, key, link = cell_value(rtype, r, c, names, accounts)
            cells.append({"col": c, "text": text, "key": key, "url": link})
        row = {"id": r.id, "cells": cells, "measure": (getattr(r, measure) or 0) if measure else 0}
        if st["group"]:
            gt, gk, _ = cell_value(rtype, r, st["group"], names, accounts)
            order = ORDERS.get(st["group"])
            if order and gt in order:
                gk = (0, order.index(gt))
            elif not gt:
                gk = (2, "")
            else:
                gk = (1, gk)
            row["group"], row["group_key"] = gt or "-", gk
        rows.append(row)
    sort = st["sort"] if st["sort"] in cols else None
    if sort:
        idx = cols.index(sort)
        rows.sort(key=lambda x: (x["cells"][idx]["key"] is None, x["cells"][idx]["key"], x["id"]), reverse=st["dir"] == "desc")
    groups = []
    if st["group"]:
        by: dict = {}
        for row in rows:
            by.setdefault((row["group_key"], row["group"]), []).append(row)
        for (gk, gt), items in sorted(by.items(), key=lambda kv: kv[0][0]):
            groups.append({"label": gt, "rows": items, "count": len(items), "sum": sum(x["measure"] for x in items)})
    return {"cols": cols, "heads": [col_label(rtype, c) for c in cols], "rows": rows, "groups": groups,
            "count": len(rows), "sum": sum(x["measure"] for x in rows), "measure": measure,
            "measure_label": col_label(rtype, measure) if measure else ""}


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


@bp.get("/lightning/r/Report/<int:rid>/view")
def report_view(rid: int):
    rep = db().get(m.Report, rid)
    if rep is None:
        abort(404)
    args = request.args
    if "nf_field" in args or "nf_remove" in args or "nf_scope" in args:
        st = report_state(rep, args)
        if "nf_scope" in args and args["nf_scope"] in ("all", "mine"):
            st["scope"] = args["nf_scope"]
        if "nf_remove" in args and args["nf_remove"].isdecimal():
            i = int(args["nf_remove"])
            if 0 <= i < len(st["filters"]):
                st["filters"].pop(i)
        if args.get("nf_field"):
            o = OBJECTS[rep.report_type]
            fld, op, val = args["nf_field"], args.get("nf_op", "equals"), args.get("nf_value", "").strip()
            if fld in o.by_name and op in OPS:
                nf = {"field": fld, "op": op, "value": val}
                i = args.get("nf_index", "")
                if i.isdecimal() and int(i) < len(st["filters"]):
                    st["filters"][int(i)] = nf
                else:
                    st["filters"].append(nf)
        return redirect(state_url(rid, st))
    st = report_state(rep, args)
    res = run_report(rep, st)
    rep.last_run_at = now()
    db().commit()
    money = bool(res["measure"])
    chart = chart_for(rep.chart, res["groups"], money, w=760, label=f"{rep.name} chart") if rep.chart != "none" and res["groups"] else None
    o = OBJECTS[rep.report_type]
    return page("crm/report.html", active="Report", title=f"{rep.name} | Report", rep=rep, st=st, res=res, o=o,
                chart=chart, filters_text=[(describe(o, f) if f["field"] in o.by_name else "") for f in st["filters"]],
                fields=report_fields(rep.report_type), ops=OPS,
                field_labels={f["name"]: f["label"] for f in report_fields(rep.report_type)}, state_url=lambda **kw: state_url(rid, st, **kw),
                params=state_params(st), page_icon="standard:report",
                filters_open=request.args.get("filters", "1") != "0", owner=R.user_by_id(rep.owner_id))


@bp.post("/lightning/r/Report/<int:rid>/save")
def report_save(rid: int):
    rep = db().get(m.Report, rid)
    if rep is None:
        abort(404)
    st = report_state(rep, request.form)
    rep.filters, rep.scope, rep.group_by, rep.sort_by, rep.sort_dir = st["filters"], st["scope"], st["group"], st["sort"], st["dir"]
    rep.updated_at = now()
    db().commit()
    return done(f"/lightning/r/Report/{rid}/view", toast=f'Report "{rep.name}" was saved.')


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
    errors = {}
    if not name:
        errors["name"] = "Complete this field."
    if folder not in FOLDERS:
        errors["folder"] = "Select a valid value."
    if errors:
        return fail(render_template("crm/modal_report.html", mode="saveas", rep=rep, params=state_params(st), name=name,
                                               description=request.form.get("description", ""), folder=folder, folders=FOLDERS,
                                               types=REPORT_TYPES, errors=errors))
    new = m.Report(id=R.next_id(m.Report), name=name, description=request.form.get("description", "").strip(), folder=folder,
                   report_type=rep.report_type, columns=list(rep.columns), filters=st["filters"], scope=st["scope"],
                   group_by=st["group"], sort_by=st["sort"], sort_dir=st["dir"], chart=rep.chart, owner_id=R.ME,
                   created_at=now(), updated_at=now(), last_run_at=None)
    db().add(new)
    db().commit()
    return done(f"/lightning/r/Report/{new.id}/view", toast=f'Report "{name}" was saved.')


@bp.route("/lightning/o/Report/new", methods=["GET", "POST"])
def report_new():
    if request.method == "GET":
        return modal_response(render_template("crm/modal_report.html", mode="new", rep=None, params={}, name="", description="",
                                              folder="Private Reports", folders=FOLDERS, types=REPORT_TYPES, errors={},
                                              rtype=""))
    name = request.form.get("name", "").strip()
    rtype = request.form.get("report_type", "")
    folder = request.form.get("folder") or "Private Reports"
    errors = {}
    if not name:
        errors["name"] = "Complete this field."
    if rtype not in REPORT_TYPES:
        errors["report_type"] = "Complete this field."
    if folder not in FOLDERS:
        errors["folder"] = "Select a valid value."
    if errors:
        return fail(render_template("crm/modal_report.html", mode="new", rep=None, params={}, name=name,
                                               description=request.form.get("description", ""), folder=folder, folders=FOLDERS,
                                               types=REPORT_TYPES, errors=errors, rtype=rtype))
    new = m.Report(id=R.next_id(m.Report), name=name, description=request.form.get("description", "").strip(), folder=folder,
                   report_type=rtype, columns=list(DEFAULT_COLUMNS[rtype]), filters=[], scope="all", group_by=None,
                   sort_by=DEFAULT_COLUMNS[rtype][0], sort_dir="asc", chart="none", owner_id=R.ME, created_at=now(),
                   updated_at=now(), last_run_at=None)
    db().add(new)
    db().commit()
    return done(f"/lightning/r/Report/{new.id}/view", toast=f'Report "{name}" was created.')


@bp.route("/lightning/r/Report/<int:rid>/delete", methods=["GET", "POST"])
def report_delete(rid: int):
    rep = db().get(m.Report, rid)
    if rep is None:
        abort(404)
    if request.method == "GET":
        return modal_response(render_template("crm/modal_confirm.html", title="Delete Report",
                                              message=f'Are you sure you want to delete "{rep.name}"?',
                                              action=f"/lightning/r/Report/{rid}/delete", button="Delete"))
    for d in db().scalars(select(m.Dashboard)):
        if any(c.get("report_id") == rid for c in d.components or []):
            return fail(message="This report is used by a dashboard and can't be deleted.")
    name = rep.name
    db().delete(rep)
    db().commit()
    return done("/lightning/o/Report/home", toast=f'Report "{name}" was deleted.')


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
            item["value"] = R.fmt_money_short(res["sum"]) if money else f"{res['count']:,}"
        elif c["chart"] == "table":
            item["table"] = {"heads": res["heads"][:3], "rows": [r["cells"][:3] for r in res["rows"][:8]]}
        else:
            groups = res["groups"] or [{"label": "Total", "sum": res["sum"], "count": res["count"]}]
            item["svg"] = chart_for(c["chart"], groups, money, w=380, label=c["title"])
        comps.append(item)
    d.last_viewed_at = now()
    db().commit()
    return page("crm/dashboard.html", active="Dashboard", title=f"{d.name} | Dashboard", d=d, comps=comps,
                owner=R.user_by_id(d.owner_id), page_icon="standard:dashboard")
