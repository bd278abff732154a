"""Reports: running one (filters, Show Me scope, grouping, sorting over its columns), saving its state,
Save As, creating and deleting. A report's unsaved state (the run page's URL) is a dict:
{"filters": [{field, op, value}], "scope": "all" | "mine", "group": column | None, "sort": column, "dir": "asc" | "desc"}."""

from __future__ import annotations

from sqlalchemy import select

from apps._shared import db, now
from apps.crm import models as m
from apps.crm import records as R
from apps.crm.filters import OPS, condition, parse_filter_param, scope_condition
from apps.crm.meta import OBJECTS, REPORT_TYPES
from apps.crm.services import ServiceError

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
# How Create Report lists the report types (Lightning names them by the plural).
REPORT_TYPE_LABELS = {"Opportunity": "Opportunities", "Lead": "Leads", "Account": "Accounts", "Contact": "Contacts",
                      "Case": "Cases", "Task": "Tasks and Events"}
MEASURE = {"Opportunity": "amount", "Account": "annual_revenue"}


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
    saved_cols = list(rep.columns or DEFAULT_COLUMNS[rep.report_type])
    cols = parse_columns(rep.report_type, args.get("cols", "")) if "cols" in args else saved_cols
    st["columns"], st["saved_columns"] = cols, saved_cols
    if st["group"] and st["group"] not in cols and st["group"] not in ("close_month", "account.industry"):
        st["group"] = None
    st["modified"] = (st["filters"] != (rep.filters or []) or st["scope"] != rep.scope or st["group"] != rep.group_by
                      or st["sort"] != rep.sort_by or st["dir"] != rep.sort_dir or cols != saved_cols)
    return st


# ---------------------------------------------------------------------------- columns (the report builder)
MAX_COLUMNS = 20


def column_choices(rtype: str) -> list[str]:
    """The fields a report of this type can show as columns (the builder's Add Column list), in layout order."""
    o = OBJECTS[rtype]
    out = [f.name for f in o.fields if f.type not in ("address", "formula") and f.name not in ("salutation",)
           and (f.filterable or f.type == "name" or f.name in ("who", "what"))]
    for c in DEFAULT_COLUMNS[rtype] + (["account.industry"] if rtype == "Opportunity" else []):
        if c not in out:
            out.append(c)
    return out


def parse_columns(rtype: str, raw: str) -> list[str]:
    """The URL's `cols` (comma-separated field names): unknown names and repeats dropped, never empty (an
    unsaved run state; check_columns is the strict check for a caller's list)."""
    ok = column_choices(rtype)
    out: list[str] = []
    for c in str(raw).split(","):
        c = c.strip()
        if c in ok and c not in out:
            out.append(c)
    return out[:MAX_COLUMNS] or list(DEFAULT_COLUMNS[rtype])


def check_columns(rtype: str, cols) -> list[str]:
    ok = column_choices(rtype)
    if not isinstance(cols, list) or not cols or not all(isinstance(c, str) for c in cols):
        raise ServiceError("columns: a list of at least one field name")
    bad = [c for c in cols if c not in ok]
    if bad:
        raise ServiceError(f"columns: {', '.join(map(repr, bad))} can't be a column of a {rtype} report; the choices are: "
                           f"{', '.join(ok)}")
    if len(set(cols)) != len(cols):
        raise ServiceError("columns: each column can be shown once")
    if len(cols) > MAX_COLUMNS:
        raise ServiceError(f"columns: at most {MAX_COLUMNS}")
    return list(cols)


def cell_value(rtype: str, rec, c: str, names: R.Names, accounts: dict) -> tuple[str, object, str]:
    """(display text, sort/group key, link) of one report cell."""
    o = OBJECTS[rtype]
    if c == "account.industry":
        acc = accounts.get(rec.account_id)
        v = acc.industry if acc else ""
        return R.shown_value(OBJECTS["Account"].field("industry"), v), v.lower(), ""
    if c == "close_month":
        d = rec.close_date
        return R.shown_month(d, year=True), (d.year, d.month), ""  # the page's locale; a tool's: March 2025
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
    # A picklist's value and a checkbox in the page's language (a tool reads them in English); the rest as the app
    # writes them.
    text = R.shown_value(f, v) if f.type in ("picklist", "checkbox") else R.fmt_value(f, v)
    if c == o.name_field:
        return text, text.lower(), f"/lightning/r/{rtype}/{rec.id}/view"
    if v is None:
        key = (0, "")
    elif f.type == "picklist" and f.options:
        key = (1, f.rank(v))  # the picklist's order (Field.rank), as list views sort
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
    cols = list(st.get("columns") or rep.columns or DEFAULT_COLUMNS[rtype])
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
            # Groups in the cells' order (a picklist's own order, Field.rank), blanks ("-") last.
            gk = (2, "") if not gt else (1, gk)
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


def report(rid: int) -> m.Report:
    rep = db().get(m.Report, rid)
    if rep is None:
        raise ServiceError(f"there is no report with id {rid} (see list_reports)", status=404)
    return rep


def check_state(rep: m.Report, st: dict) -> dict:
    """A state built by a caller (a tool), checked as the run page's controls would allow."""
    o = OBJECTS[rep.report_type]
    given = st.get("columns")
    cols = st["columns"] = check_columns(rep.report_type, given if given is not None else list(rep.columns or DEFAULT_COLUMNS[rep.report_type]))
    for i, f in enumerate(st["filters"]):
        if f.get("field") not in o.by_name or f.get("op") not in OPS:
            raise ServiceError(f"filter {i + 1}: {f.get('field')!r} is not a field of {rep.report_type} or {f.get('op')!r} "
                               f"is not an operator (one of {', '.join(OPS)})")
    if st["scope"] not in ("all", "mine"):
        raise ServiceError("scope is 'all' or 'mine'")
    groupable = list(cols) + (["close_month", "account.industry"] if rep.report_type == "Opportunity" else [])
    if st["group"] and st["group"] not in groupable:
        raise ServiceError(f"can't group by {st['group']!r}; the report's columns are {', '.join(groupable)}")
    if st["sort"] and st["sort"] not in cols and st["sort"] != rep.sort_by:  # a saved sort off the columns is ignored
        raise ServiceError(f"can't sort by {st['sort']!r}; the report's columns are {', '.join(cols)}")
    if st["dir"] not in ("asc", "desc"):
        raise ServiceError("dir is 'asc' or 'desc'")
    return st


def save(rep: m.Report, st: dict) -> m.Report:
    """Save: the run's filters, scope, grouping and sort become the report's."""
    rep.filters, rep.scope, rep.group_by, rep.sort_by, rep.sort_dir = st["filters"], st["scope"], st["group"], st["sort"], st["dir"]
    rep.columns = _columns_to_store(rep, st)
    rep.updated_at = now()
    return rep


def _columns_to_store(rep: m.Report, st: dict) -> list[str]:
    """The columns a save writes: the run's when they were changed, else the report's own (a report saved with
    none keeps showing its type's defaults)."""
    cols = st.get("columns")
    return list(cols) if cols and cols != list(rep.columns or DEFAULT_COLUMNS[rep.report_type]) else list(rep.columns or [])


def _name_folder(name: str, folder: str) -> tuple[str, str, dict]:
    name = (name or "").strip()
    folder = folder or "Private Reports"
    errors = {}
    if not name:
        errors["name"] = "Complete this field."
    if folder not in FOLDERS:
        errors["folder"] = "Select a valid value."
    return name, folder, errors


def _refuse(errors: dict) -> ServiceError:
    return ServiceError("Report: " + "; ".join(f"{k}: {v}" + (f" (one of {', '.join(FOLDERS)})" if k == "folder" else "")
                                               for k, v in errors.items()), errors)


def save_as(rep: m.Report, st: dict, name: str, folder: str, description: str = "") -> m.Report:
    """Save As: a new report (yours) with the run's state, in the chosen folder."""
    name, folder, errors = _name_folder(name, folder)
    if errors:
        raise _refuse(errors)
    new = m.Report(id=R.next_id(m.Report), name=name, description=(description or "").strip(), folder=folder,
                   report_type=rep.report_type, columns=_columns_to_store(rep, st), filters=st["filters"], scope=st["scope"],
                   group_by=st["group"], sort_by=st["sort"], sort_dir=st["dir"], chart=rep.chart, owner_id=R.ME,
                   created_at=now(), updated_at=now(), last_run_at=None)
    db().add(new)
    return new


def blank(rtype: str) -> m.Report:
    """A new report of this type before it is saved (the builder's New Report): the type's default columns, no
    filters, all records, sorted by the first column. Not added to the world."""
    return m.Report(id=None, name=f"New {REPORT_TYPE_LABELS.get(rtype, rtype)} Report", description="", folder="Private Reports",
                    report_type=rtype, columns=list(DEFAULT_COLUMNS[rtype]), filters=[], scope="all", group_by=None,
                    sort_by=DEFAULT_COLUMNS[rtype][0], sort_dir="asc", chart="none", owner_id=R.ME)


def create(name: str, rtype: str, folder: str, description: str = "", st: dict | None = None) -> m.Report:
    """New Report: a blank report of the type named and filed; with `st` (the builder's unsaved state: filters,
    Show Me, grouping, sort, columns) saved as the report's."""
    name, folder, errors = _name_folder(name, folder)
    if rtype not in REPORT_TYPES:
        errors["report_type"] = "Complete this field."
    if errors:
        err = _refuse(errors)
        if "report_type" in errors:
            err.args = (str(err) + f" (report types: {', '.join(REPORT_TYPES)})",)
        raise err
    new = blank(rtype)
    new.id, new.name, new.description, new.folder = R.next_id(m.Report), name, (description or "").strip(), folder
    new.created_at, new.updated_at, new.last_run_at = now(), now(), None
    db().add(new)
    if st is not None:
        save(new, st)
    return new


def delete(rep: m.Report) -> str:
    for d in db().scalars(select(m.Dashboard)):
        if any(c.get("report_id") == rep.id for c in d.components or []):
            raise ServiceError("This report is used by a dashboard and can't be deleted.")
    name = rep.name
    db().delete(rep)
    return name
