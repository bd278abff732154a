"""List views: the ones you can see, finding one by name, create / clone / rename / delete, and filters."""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import select

from apps._shared import db, inputs, now
from apps.crm import models as m
from apps.crm import records as R
from apps.crm.filters import OPS, LogicError, logic_text, parse_logic
from apps.crm.meta import LIST_OBJECTS, OBJECTS
from apps.crm.services import ServiceError

API_RE = re.compile(r"[^A-Za-z0-9_]")


def visible(obj: str) -> list[m.ListView]:
    """The list views of `obj` you can see: public ones and your own."""
    return list(db().scalars(select(m.ListView).where(
        m.ListView.object == obj, (m.ListView.visibility == "all") | (m.ListView.owner_id == R.ME)).order_by(m.ListView.id)))


def api_name(name: str) -> str:
    s = API_RE.sub("_", name.strip()).strip("_")
    s = re.sub(r"_+", "_", s)
    if not s or not s[0].isalpha():
        s = "X" + s
    return s[:80]


def list_view(lv_id: int, obj: str | None = None) -> m.ListView:
    lv = db().get(m.ListView, lv_id)
    if lv is None or (obj is not None and lv.object != obj) or (lv.visibility != "all" and lv.owner_id != R.ME):
        raise ServiceError(f"there is no {obj or ''} list view with id {lv_id} (see list_list_views)".replace("  ", " "),
                           status=404)
    return lv


def save(obj: str, mode: str, lv: m.ListView | None, name: str, api: str, visibility: str) -> m.ListView:
    """The New / Clone / Rename dialog's save. A clone copies the source's scope and filters."""
    if obj not in LIST_OBJECTS:
        raise ServiceError(f"unknown object {obj!r}; one of {', '.join(LIST_OBJECTS)}", status=404)
    if mode in ("rename", "clone") and lv is None:
        raise ServiceError("Choose the list view to " + mode + ".", status=404)
    if mode == "rename" and lv.is_standard:
        raise ServiceError("You can't change a standard list view.", status=403)
    name = (name or "").strip()
    api = (api or "").strip() or api_name(name)
    visibility = "all" if visibility == "all" else "me"
    errors = {}
    if not name:
        errors["name"] = "Complete this field."
    elif len(name) > 40:
        errors["name"] = "List name can't be longer than 40 characters."
    if api and not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", api):
        errors["api_name"] = "The list API name can only contain underscores and alphanumeric characters. It must begin with a letter."
    clash = db().scalar(select(m.ListView).where(m.ListView.object == obj, m.ListView.api_name == api,
                                                 m.ListView.id != (lv.id if lv and mode == "rename" else 0)))
    if clash is not None and "api_name" not in errors and name:
        errors["api_name"] = "This list API name is already in use."
    if errors:
        err = ServiceError("List view: " + "; ".join(f"{k}: {v}" for k, v in errors.items()), errors)
        err.form = {"name": name, "api_name": api, "visibility": visibility}
        raise err
    if mode == "rename":
        lv.name, lv.api_name, lv.visibility = name, api, visibility
        lv.updated_at = now()
        return lv
    new = m.ListView(
        id=R.next_id(m.ListView), object=obj, name=name, api_name=api, kind="filter",
        scope=(lv.scope if lv and mode == "clone" and lv.scope in ("all", "mine") else "all"),
        filters=[dict(f) for f in (lv.filters or [])] if mode == "clone" and lv else [],
        filter_logic=(lv.filter_logic or "") if mode == "clone" and lv else "", visibility=visibility, is_standard=False, owner_id=R.ME, created_at=now(), updated_at=now())
    db().add(new)
    return new


def delete_view(lv: m.ListView) -> str:
    if lv.is_standard:
        raise ServiceError("You can't change a standard list view.", status=403)
    name = lv.name
    db().delete(lv)
    return name


def set_filters(lv: m.ListView, scope: str, filters: list[dict[str, Any]], logic: str | None = None) -> m.ListView:
    """Replace a list view's filters ({field, op, value}; picklist values comma-separated) and scope, and its
    filter logic: `logic` "" removes it, None keeps the current one (checked against the new filters)."""
    if lv.is_standard:
        raise ServiceError("You can't edit filters on a standard list view. Clone it to make changes.")
    o = OBJECTS[lv.object]
    flts = []
    errors = []
    for i, f in enumerate(filters):
        fld = o.by_name.get(inputs.text(f, "field"))
        op = f.get("op", "")
        val = inputs.text(f, "value").strip()
        if fld is None or op not in OPS:
            errors.append(f"Filter {i + 1}: choose a field and an operator.")
            continue
        if fld.type in ("currency", "number", "percent") and val:
            num = inputs.number(val)
            if num is None:
                errors.append(f"Filter {i + 1}: {fld.label} needs a number.")
                continue
            val = str(int(num)) if num == int(num) else str(num)
        if fld.type == "picklist" and val:
            bad = [v for v in val.split(",") if v.strip() not in (fld.options or [])]
            if bad:
                errors.append(f"Filter {i + 1}: {', '.join(bad)} isn't a value of {fld.label}.")
                continue
        flts.append({"field": fld.name, "op": op, "value": val})
    if errors:
        raise ServiceError(" ".join(errors))
    # kept logic goes when fewer than two filters are left (nothing to combine); given logic is checked as given
    keep = lv.filter_logic if len(flts) >= 2 else ""
    lv.filter_logic = check_logic(keep if logic is None else logic, len(flts))
    lv.scope = scope if scope in ("all", "mine") else "all"
    lv.filters = flts
    lv.updated_at = now()
    return lv


def check_logic(logic, n: int) -> str:
    """Filter logic as stored: blank (every filter applies) or Salesforce's normalized text ("1 AND (2 OR 3)") over
    filters 1..n, or a ServiceError with the reason (filters.parse_logic). Logic needs at least two filters."""
    if logic is None or (isinstance(logic, str) and not logic.strip()):
        return ""
    if not isinstance(logic, str):
        raise ServiceError("Filter logic is a text such as 1 AND (2 OR 3).", {"filter_logic": "Enter valid filter logic."})
    if n < 2:
        raise ServiceError("Filter logic needs at least two filters; add a filter or remove the filter logic.",
                           {"filter_logic": "Add a filter or remove the filter logic."})
    try:
        return logic_text(parse_logic(logic, n))
    except LogicError as e:
        raise ServiceError(f"Filter logic: {e}", {"filter_logic": str(e)}) from None


# ------------------------------------------------------------------ Select Fields to Display
MAX_COLUMNS = 15  # Lightning shows at most 15 fields in a list view
# Fields a list cell can't show: virtual addresses (several columns), computed formulas, long text.
_NOT_COLUMNS = ("address", "formula", "textarea")


def selectable_fields(obj: str) -> list:
    """The fields "Select Fields to Display" offers for `obj`, in the object's field order."""
    return [f for f in OBJECTS[obj].fields if f.type not in _NOT_COLUMNS and f.name != "salutation"]


def columns_of(lv: m.ListView) -> list[str]:
    """The list view's columns: the ones chosen for it, else the object's default columns."""
    o = OBJECTS[lv.object]
    chosen = [c for c in (lv.columns or []) if c in o.by_name]
    return chosen or list(o.list_columns)


def set_columns(lv: m.ListView, columns: Any) -> m.ListView:
    """Select Fields to Display's Save: the Visible Fields, in order. The record's name field stays visible
    (each row's link to its record)."""
    if lv.is_standard:
        raise ServiceError("You can't change the fields of a standard list view. Clone it to make changes.")
    o = OBJECTS[lv.object]
    if not isinstance(columns, list) or not all(isinstance(c, str) for c in columns):
        raise ServiceError("Visible Fields: a list of field names.", {"columns": "Select at least one field."})
    allowed = {f.name: f for f in selectable_fields(lv.object)}
    unknown = [c for c in columns if c not in allowed]
    if unknown:
        raise ServiceError(f"{', '.join(map(repr, unknown))}: not a field a {o.label} list view can show; one of "
                           + ", ".join(allowed), {"columns": "Select valid fields."})
    if len(set(columns)) != len(columns):
        raise ServiceError("Visible Fields: each field once.", {"columns": "Each field can be visible once."})
    if len(columns) > MAX_COLUMNS:
        raise ServiceError(f"Visible Fields: at most {MAX_COLUMNS} fields.",
                           {"columns": f"You can display up to {MAX_COLUMNS} fields."})
    if o.name_field not in columns:
        label = o.field(o.name_field).label
        raise ServiceError(f"Visible Fields: {label} must stay visible.", {"columns": f"{label} must stay visible."})
    lv.columns = list(columns)
    lv.updated_at = now()
    return lv
