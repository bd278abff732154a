"""List View Controls > Select Fields to Display: the Available / Visible Fields dual listbox (Lightning's
dueling picklist); saving stores the list view's columns (services/listviews.py), which the list then shows."""

from __future__ import annotations

from flask import abort, render_template, request

from apps._shared import db
from apps._shared.actions import perform
from apps._shared.i18n import gettext
from apps.crm import models as m
from apps.crm.meta import LIST_OBJECTS, OBJECTS
from apps.crm.services import listviews as lv_svc
from apps.crm.views.base import done, fail, lurl
from apps.crm.views.base import bp
from apps.crm.views.refusals import modal


def _form(lv: m.ListView, visible: list[str], error: str = "") -> str:
    o = OBJECTS[lv.object]
    fields = lv_svc.selectable_fields(lv.object)
    by = {f.name: f for f in fields}
    shown = [by[c] for c in visible if c in by]
    avail = sorted((f for f in fields if f.name not in visible), key=lambda f: f.label.lower())
    return render_template("crm/modal_listfields.html", lv=lv, o=o, visible=shown, available=avail, error=error,
                           name_field=o.name_field, max_columns=lv_svc.MAX_COLUMNS,
                           action=f"/lightning/o/{lv.object}/listview/{lv.id}/fields")


@bp.route("/lightning/o/<obj>/listview/<int:lv_id>/fields", methods=["GET", "POST"])
def listview_fields(obj: str, lv_id: int):
    lv = db().get(m.ListView, lv_id)
    if obj not in LIST_OBJECTS or lv is None or lv.object != obj or (lv.visibility != "all" and lv.owner_id != m.CURRENT_USER_ID):
        abort(404)
    if lv.is_standard:
        return fail(message=gettext("You can't change the fields of a standard list view. Clone it to make changes."), status=403)
    if request.method == "GET":
        from apps.crm.views.records import modal_response

        return modal_response(_form(lv, lv_svc.columns_of(lv)), obj)
    cols = [c for c in request.form.getlist("columns") if c]
    perform(lv_svc.set_columns, lv, cols,
            errors=modal(lambda e: _form(lv, cols, next(iter(e.errors.values()), str(e))), with_message=True))
    return done(lurl(obj, filterName=lv.api_name), toast=gettext("List view \"%(name)s\" was saved.", name=lv.name))
