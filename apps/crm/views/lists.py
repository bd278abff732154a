"""List views: the picker, sorting, search-this-list, filters panel, inline edit, row and mass
actions, list-view create / clone / rename / delete, and the Opportunity Kanban."""

from __future__ import annotations

from flask import abort, redirect, render_template, request
from sqlalchemy import func, select

from apps._shared import db, inputs
from apps._shared.actions import perform
from apps._shared.i18n import gettext, ui
from apps.crm import models as m
from apps.crm import records as R
from apps.crm.filters import OPS, describe, ops_for, sort_expr
from apps.crm.meta import LIST_OBJECTS, OBJECTS, STAGES
from apps.crm.services import listviews as lv_svc
from apps.crm.services import records as rec_svc
from apps.crm.services.read import DEFAULT_SORT, base_query
from apps.crm.views.base import bp, done, fail, json_error, json_ok, lurl, page, rurl
from apps.crm.views.refusals import MESSAGE, modal

PAGE_SIZE = 50
MASS_ACTIONS = {"Lead": ["Change Owner", "Change Status"], "Case": ["Change Owner", "Change Status"],
                "Task": ["Mark Complete", "Change Owner"], "Opportunity": ["Change Owner"],
                "Account": ["Change Owner"], "Contact": ["Change Owner"]}
INLINE_TYPES = {"text", "phone", "email", "url", "picklist", "currency", "number", "percent", "date"}


def list_views(obj: str) -> list[m.ListView]:
    return lv_svc.visible(obj)


def find_view(obj: str, key: str | None) -> m.ListView:
    views = list_views(obj)
    if not views:
        abort(404)
    if key:
        for v in views:
            if v.api_name == key or str(v.id) == key or v.api_name.lower() == key.lower():
                return v
    default = OBJECTS[obj].default_list
    return next((v for v in views if v.api_name == default), views[0])


def run_list(obj: str, lv: m.ListView, q: str, sort: str, direction: str, offset: int = 0, limit: int = PAGE_SIZE):
    o = OBJECTS[obj]
    conds = base_query(obj, lv, q)
    total = db().scalar(select(func.count()).select_from(o.model).where(*conds))
    stmt = select(o.model).where(*conds)
    if lv.kind == "recent" and not request.args.get("sort"):
        stmt = stmt.order_by(o.model.last_viewed_at.desc(), o.model.id)
    else:
        ex = sort_expr(o, sort)
        if ex is not None:
            stmt = stmt.order_by(ex.desc() if direction == "desc" else ex.asc(), o.model.id)
    rows = list(db().scalars(stmt.offset(offset).limit(limit)))
    return rows, total


def cells(obj: str, rows: list, columns: list[str]) -> list[dict]:
    """Each row's display cells: text, link, and what inline edit needs."""
    o = OBJECTS[obj]
    names = R.Names()
    fields = [o.field(c) for c in columns]
    for r in rows:
        for f in fields:
            if f.type in ("lookup", "user"):
                names.add(*R.ref_of(f, r))
    names.load()
    out = []
    for r in rows:
        rname = R.record_name(obj, r) if obj not in ("Lead", "Contact") else r.name
        row = {"id": r.id, "name": rname, "url": rurl(obj, r.id), "cells": [], "rec": r}
        for i, f in enumerate(fields):
            c = {"field": f.name, "label": f.label, "type": f.type, "text": "", "url": "",
                 "editable": f.type in INLINE_TYPES and not f.readonly, "raw": ""}
            if f.type == "name":
                c["text"], c["url"] = r.name, row["url"]
            elif f.type in ("lookup", "user"):
                ref_obj, ref_id = R.ref_of(f, r)
                c["text"] = names.name(ref_obj, ref_id)
                if f.type == "user":
                    u = R.user_by_id(ref_id)
                    c["text"] = u.alias if u and f.name == "owner_id" else c["text"]
                    c["url"] = "" if f.name == "owner_id" else (f"/lightning/r/User/{ref_id}/view" if ref_id else "")
                else:
                    c["url"] = rurl(ref_obj, ref_id) if ref_obj else ""
            else:
                v = getattr(r, f.name)
                c["text"] = R.shown_value(f, v)  # shown in the page's locale; `raw` is what an edit reads back
                c["raw"] = R.fmt_value(f, v) if f.type not in ("currency", "number") else ("" if v is None else str(v))
                if i == 0 or f.name == o.name_field:  # the record's name links wherever its column is
                    c["url"] = row["url"]
            row["cells"].append(c)
        out.append(row)
    return out


def column_heads(obj: str, columns: list[str] | None = None) -> list[dict]:
    o = OBJECTS[obj]
    heads = []
    for c in columns or o.list_columns:
        f = o.field(c)
        label = f.label
        if f.name == "owner_id":
            label = {"Lead": "Owner Alias", "Task": "Assigned Alias"}.get(obj, f"{o.label} Owner Alias")
        heads.append({"field": c, "label": label, "sortable": f.sortable})
    return heads


@bp.get("/lightning/o/<obj>/home")
def object_home(obj: str):
    if obj not in LIST_OBJECTS:
        abort(404)
    return redirect(lurl(obj, filterName=OBJECTS[obj].default_list))


@bp.get("/lightning/o/<obj>/list")
def list_view(obj: str):
    if obj not in LIST_OBJECTS:
        abort(404)
    o = OBJECTS[obj]
    lv = find_view(obj, request.args.get("filterName"))
    q = request.args.get("q", "").strip()
    dsort, ddir = DEFAULT_SORT[obj]
    sort = request.args.get("sort") or dsort
    if sort not in o.by_name or not o.field(sort).sortable:
        sort = dsort
    direction = request.args.get("dir") or (ddir if sort == dsort else "asc")
    display = "kanban" if (obj == "Opportunity" and request.args.get("display") == "kanban") else "table"
    offset = inputs.integer(request.args, "offset", 0, 0)
    if display == "kanban":
        rows, total = run_list(obj, lv, q, sort, direction, 0, 2000)
    else:
        rows, total = run_list(obj, lv, q, sort, direction, offset)
    cols = lv_svc.columns_of(lv)
    heads = column_heads(obj, cols)
    data = cells(obj, rows, cols)
    ctx = dict(obj=obj, o=o, lv=lv, views=list_views(obj), rows=data, heads=heads, total=total, q=q, sort=sort,
               direction=direction, offset=offset, page_size=PAGE_SIZE, display=display,
               filters_text=[describe(o, f) for f in lv.filters or []],
               filter_labels=list(dict.fromkeys(o.field(f["field"]).label for f in lv.filters or [] if f["field"] in o.by_name)), mass_actions=MASS_ACTIONS.get(obj, []),
               sort_label=o.field(sort).label if lv.kind != "recent" or request.args.get("sort") else "Last Viewed Date")
    if request.args.get("partial") == "rows":
        return render_template("crm/_list_rows.html", **ctx)
    if display == "kanban":
        ctx["columns"] = kanban_columns(data)
    if request.args.get("filters") == "open":
        ctx["filters_open"] = True
    ctx["filter_fields"] = [
        {"name": f.name, "label": f.label, "type": f.type, "options": f.options or [], "ops": ops_for(f)}
        for f in o.fields if f.filterable and f.type not in ("name", "address", "formula") and f.name not in ("salutation",)
    ] + ([{"name": "name", "label": o.field("name").label if obj not in ("Lead", "Contact") else "Full Name",
           "type": "text", "options": [], "ops": ["equals", "not_equal", "contains", "not_contains", "starts_with"]}]
         if obj in ("Lead", "Contact") else [])
    ctx["op_labels"] = OPS
    return page("crm/list.html", active=obj, title=f"{lv.name} | {o.plural}", page_icon=o.icon, **ctx)


def kanban_columns(rows: list) -> list[dict]:
    cols = []
    for st in STAGES:
        items = [r for r in rows if r["rec"].stage == st]
        cols.append({"stage": st, "items": items, "count": len(items),
                     "sum": sum(r["rec"].amount or 0 for r in items)})
    return cols


# ------------------------------------------------------------------- kanban / inline
@bp.post("/crm/api/kanban/move")
def kanban_move():
    body = inputs.body()
    rec = db().get(m.Opportunity, inputs.integer(body, "id", 0))
    stage = body.get("stage")
    if rec is None or stage not in STAGES:
        return json_error(message=gettext("That opportunity or stage doesn't exist."), status=400)
    perform(rec_svc.set_path_value, "Opportunity", rec.id, stage)
    return json_ok(toast=gettext("Stage changed to \"%(stage)s\" for %(name)s.", stage=stage, name=rec.name), amount=rec.amount or 0)


@bp.post("/crm/api/inline")
def inline_save():
    """Save inline edits from a list view: {"obj": "Lead", "edits": [{"id", "field", "value"}...]}."""
    body = inputs.body(form_json="payload")
    obj = body.get("obj")
    if obj not in LIST_OBJECTS:
        return fail(message=gettext("Unknown object"), status=400)
    o = OBJECTS[obj]
    by_id: dict[int, dict] = {}
    for e in inputs.objects(body, "edits"):
        f = o.by_name.get(inputs.text(e, "field"))
        if f is None or f.readonly or f.type not in INLINE_TYPES:
            return fail(message=f"{inputs.text(e, 'field')} can't be edited here", status=400)
        rid = inputs.integer(e, "id")
        if rid is None:
            inputs.bad_request("Each edit needs the record's 'id'.")
        by_id.setdefault(rid, {})[f.name] = inputs.text(e, "value")
    errors = {}
    staged = []
    for rid, form in sorted(by_id.items()):
        rec = db().get(o.model, rid)
        if rec is None:
            errors[str(rid)] = {"_": "This record no longer exists."}
            continue
        errs: dict[str, str] = {}
        values: dict = {}
        for name, val in form.items():
            R.parse_field(o.field(name), {name: val}, errs, values)
        R.apply_rules(obj, rec, values, errs, False)
        if errs:
            errors[str(rid)] = errs
        staged.append((rec, values))
    if errors:
        db().rollback()
        first = next(iter(next(iter(errors.values())).values()))
        if request.is_json:
            return {"ok": False, "errors": errors, "message": "We hit a snag."}
        return fail(message=gettext("We hit a snag. %(first)s", first=first))
    if body.get("check"):
        db().rollback()
        return json_ok()
    perform(_update_all, staged)
    n = len(staged)
    return done(None, toast=gettext("%(n)s %(plural)s updated.", n=n, plural=ui(o.plural)) if n != 1 else gettext("%(label)s was saved.", label=ui(o.label)))


def _update_all(staged: list) -> None:
    """Every inline edit, checked above, written in one transaction."""
    for rec, values in staged:
        R.update(rec, values)


# ------------------------------------------------------------------------ mass actions
def _ids() -> list[int]:
    raw = [x for v in request.values.getlist("ids") for x in str(v).split(",")]
    return sorted({int(x) for x in raw if x.strip().isdecimal()})


@bp.route("/lightning/o/<obj>/mass/<action>", methods=["GET", "POST"])
def mass_action(obj: str, action: str):
    if obj not in LIST_OBJECTS or action not in ("owner", "status", "complete"):
        abort(404)
    o = OBJECTS[obj]
    ids = _ids()
    if request.method == "GET":
        status_field = o.by_name.get("status")
        return render_template("crm/modal_mass.html", obj=obj, o=o, action=action, ids=ids, count=len(ids),
                               status_options=status_field.options if status_field else [], errors={})
    if not ids:
        return fail(message=gettext("Select at least one record."))
    # Ids no longer there are skipped, as before: the service wants existing ones.
    ids_found = list(db().scalars(select(o.model.id).where(o.model.id.in_(ids))))
    if action == "owner":
        owner = request.form.get("owner_id", "")

        def change_owner() -> list:
            if not ids_found:
                rec_svc.user(owner)  # the owner is checked even when no record is left
                return []
            return rec_svc.mass_action(obj, ids_found, "owner", owner)

        recs = perform(change_owner, errors=modal(lambda e: render_template(
            "crm/modal_mass.html", obj=obj, o=o, action=action, ids=ids, count=len(ids), status_options=[],
            errors=e.errors or {"owner_id": "Complete this field."})))
        toast = f"Owner changed for {len(recs)} {o.label.lower() if len(recs) == 1 else o.plural.lower()}."
    elif action == "status":
        st = request.form.get("status", "")
        if st not in (o.field("status").options or []):
            html = render_template("crm/modal_mass.html", obj=obj, o=o, action=action, ids=ids, count=len(ids),
                                   status_options=o.field("status").options, errors={"status": "Complete this field."})
            return fail(html)
        recs = perform(rec_svc.mass_action, obj, ids_found, "status", st) if ids_found else []
        toast = f"Status changed for {len(recs)} {o.plural.lower() if len(recs) != 1 else o.label.lower()}."
    else:
        if obj != "Task":
            abort(404)
        recs = perform(rec_svc.mass_action, obj, ids_found, "complete") if ids_found else []
        toast = f"{len(recs)} task{'s' if len(recs) != 1 else ''} marked complete."
    return done(None, toast=toast)


# -------------------------------------------------------------------- list view CRUD
_api_name = lv_svc.api_name


@bp.route("/lightning/o/<obj>/listview/<mode>", methods=["GET", "POST"])
@bp.route("/lightning/o/<obj>/listview/<mode>/<int:lv_id>", methods=["GET", "POST"])
def listview_form(obj: str, mode: str, lv_id: int | None = None):
    if obj not in LIST_OBJECTS or mode not in ("new", "clone", "rename", "delete"):
        abort(404)
    o = OBJECTS[obj]
    lv = db().get(m.ListView, lv_id) if lv_id else None
    if mode != "new" and (lv is None or lv.object != obj):
        abort(404)
    if mode in ("rename", "delete") and lv.is_standard:
        return fail(message=gettext("You can't change a standard list view."), status=403)
    if request.method == "GET":
        name = {"new": "", "clone": f"Copy of {lv.name}" if lv else "", "rename": lv.name if lv else ""}.get(mode, "")
        return render_template("crm/modal_listview.html", obj=obj, o=o, mode=mode, lv=lv, name=name,
                               api_name=_api_name(name) if name else "", visibility=(lv.visibility if lv and mode == "rename" else "me"),
                               errors={})
    if mode == "delete":
        name = perform(lv_svc.delete_view, lv)
        return done(lurl(obj), toast=gettext("List view \"%(name)s\" was deleted.", name=name))
    saved = perform(lv_svc.save, obj, mode, lv, request.form.get("name", ""), request.form.get("api_name", ""),
                    request.form.get("visibility", ""), errors=modal(lambda e: render_template(
                        "crm/modal_listview.html", obj=obj, o=o, mode=mode, lv=lv, errors=e.errors, **e.form)))
    if mode == "rename":
        return done(lurl(obj, filterName=saved.api_name), toast=gettext("List view \"%(name)s\" was saved.", name=saved.name))
    return done(lurl(obj, filterName=saved.api_name, filters="open"),
                toast=gettext("List view \"%(name)s\" was created.", name=saved.name))


@bp.post("/lightning/o/<obj>/listview/<int:lv_id>/filters")
def listview_filters(obj: str, lv_id: int):
    lv = db().get(m.ListView, lv_id)
    if lv is None or lv.object != obj:
        abort(404)
    if lv.is_standard:
        return fail(message=gettext("You can't edit filters on a standard list view. Clone it to make changes."))
    body = inputs.body(form_json="payload")
    logic = body.get("filter_logic")
    perform(lv_svc.set_filters, lv, body.get("scope", "all"), inputs.objects(body, "filters"),
            logic if isinstance(logic, str) or logic is None else str(logic), errors=MESSAGE)
    return done(lurl(obj, filterName=lv.api_name), toast=gettext("List view \"%(name)s\" was saved.", name=lv.name))
