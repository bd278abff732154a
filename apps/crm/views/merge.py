"""Merge duplicate accounts, contacts or leads: choose the records, the master and each field's value."""

from __future__ import annotations

from flask import abort, render_template, request

from apps._shared.actions import perform
from apps._shared.i18n import gettext
from apps.crm import records as R
from apps.crm.meta import OBJECTS
from apps.crm.services import merge as svc
from apps.crm.services.merge import MERGE_FIELDS, candidates  # noqa: F401 - tasks' templates read MERGE_FIELDS here
from apps.crm.views.base import bp, done, fail, rurl
from apps.crm.views.records import modal_response
from apps.crm.views.refusals import MESSAGE

def _display(obj: str, rec, fname: str, names: R.Names) -> str:
    return svc.display_value(obj, rec, fname, names)


@bp.get("/lightning/r/<obj>/<int:rid>/merge")
def merge_start(obj: str, rid: int):
    if obj not in MERGE_FIELDS:
        abort(404)
    rec = R.get_record(obj, rid)
    o = OBJECTS[obj]
    recs = candidates(obj, rec)
    names = R.Names()
    for r in recs:
        names.add("User", r.owner_id)
        if obj == "Contact":
            names.add("Account", r.account_id)
    names.load()
    step = request.args.get("step", "select")
    if step == "compare":
        ids = [int(x) for x in request.args.get("ids", "").split(",") if x.isdecimal()]
        chosen = [r for r in recs if r.id in ids]
        if len(chosen) < 2:
            return fail(message=gettext("Select at least two %(lower)s to merge.", lower=o.plural.lower()))
        for r in chosen:
            for fname in MERGE_FIELDS[obj]:
                f = o.field(fname)
                if f.type in ("lookup", "user"):
                    names.add("User" if f.type == "user" else f.ref[0], getattr(r, fname))
        names.load()
        rows = []
        master = chosen[0]
        picks = svc.default_picks(obj, chosen, lambda r, fname: _display(obj, r, fname, names))
        for fname in MERGE_FIELDS[obj]:
            vals = [(r.id, _display(obj, r, fname, names)) for r in chosen]
            differ = len({v for _, v in vals}) > 1
            rows.append({"name": fname, "label": o.field(fname).label, "vals": vals, "differ": differ, "pick": picks[fname]})
        return modal_response(render_template("crm/merge.html", step="compare", obj=obj, o=o, rec=rec, recs=chosen, rows=rows,
                                              master=master.id, names=names), obj, rid)
    return modal_response(render_template("crm/merge.html", step="select", obj=obj, o=o, rec=rec, recs=recs, names=names), obj, rid)


@bp.post("/lightning/r/<obj>/<int:rid>/merge")
def merge_do(obj: str, rid: int):
    if obj not in MERGE_FIELDS:
        abort(404)
    R.get_record(obj, rid)
    o = OBJECTS[obj]
    ids = [int(x) for x in request.form.get("ids", "").split(",") if x.isdecimal()]
    master_id = request.form.get("master", "")
    sources = {f: int(v) for f in MERGE_FIELDS[obj] if (v := request.form.get(f"f_{f}", "")).isdecimal()}
    master, n = perform(svc.merge, obj, rid, ids, int(master_id) if master_id.isdecimal() else -1, sources,
                        errors=MESSAGE)
    return done(rurl(obj, master.id), toast=gettext("%(n)s %(lower)s were merged into \"%(name)s\".", n=n, lower=o.plural.lower(), name=master.name))
