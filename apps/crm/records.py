"""Record helpers shared by the views: lookups by name, display formats, form parsing and
validation, saving with Salesforce's side effects (stage -> probability, closed dates...)."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from flask import abort, g
from sqlalchemy import func, or_, select

from apps._shared import db, inputs, now
from apps._shared import locale as L
from apps._shared.display import current_locale
from apps._shared.i18n import gettext, ui  # the page's language (English outside a request)
from apps.crm import models as m
from apps.crm.meta import OBJECTS, STAGE_FORECAST, STAGE_PROBABILITY, Field, ObjectMeta
from domain.crm import normalize_company, quarter_bounds

ME = m.CURRENT_USER_ID
EMAIL_RE = re.compile(r"[^@\s]+@[^@\s]+\.[A-Za-z]{2,}")  # the whole text: use is_email (fullmatch)


def is_email(text: str) -> bool:
    """Whether `text`, all of it, is an email address (fullmatch: `$` would let a trailing newline in)."""
    return EMAIL_RE.fullmatch(text) is not None
MODEL_BY_API = {k: o.model for k, o in OBJECTS.items()}
MODEL_BY_API["User"] = m.User


def meta(obj: str) -> ObjectMeta:
    if obj not in OBJECTS:
        abort(404)
    return OBJECTS[obj]


def get_record(obj: str, rid: int):
    rec = db().get(meta(obj).model, rid)
    if rec is None:
        abort(404)
    return rec


def me() -> m.User:
    if "crm_me" not in g:
        g.crm_me = db().get(m.User, ME)
    return g.crm_me


def users() -> list[m.User]:
    if "crm_users" not in g:
        g.crm_users = list(db().scalars(select(m.User).order_by(m.User.first_name, m.User.last_name)))
    return g.crm_users


def user_by_id(uid: int | None) -> m.User | None:
    if uid is None:
        return None
    return next((u for u in users() if u.id == uid), None)


# ------------------------------------------------------------------------------ names
def record_name(obj: str, rec) -> str:
    if rec is None:
        return ""
    if obj == "User":
        return rec.name
    nf = OBJECTS[obj].name_field
    return str(getattr(rec, nf) or "")


class Names:
    """Bulk display-name resolver for lookups: add (obj, id) pairs, then read names."""

    def __init__(self):
        self.want: dict[str, set[int]] = {}
        self.got: dict[tuple[str, int], str] = {}

    def add(self, obj: str | None, rid: int | None) -> None:
        if obj and rid is not None:
            self.want.setdefault(obj, set()).add(rid)

    def load(self) -> "Names":
        for obj, ids in self.want.items():
            missing = [i for i in ids if (obj, i) not in self.got]
            if not missing:
                continue
            model = MODEL_BY_API[obj]
            for rec in db().scalars(select(model).where(model.id.in_(sorted(missing)))):
                self.got[(obj, rec.id)] = record_name(obj, rec)
        self.want = {}
        return self

    def name(self, obj: str | None, rid: int | None) -> str:
        if not obj or rid is None:
            return ""
        if (obj, rid) not in self.got:
            self.add(obj, rid)
            self.load()
        return self.got.get((obj, rid), "")


def ref_of(f: Field, rec) -> tuple[str | None, int | None]:
    """(object, id) a lookup field of a record points at."""
    if f.type == "user":
        return "User", getattr(rec, f.name)
    if f.name in ("who", "what"):
        return getattr(rec, f"{f.name}_type"), getattr(rec, f"{f.name}_id")
    return f.ref[0], getattr(rec, f.name)


# ---------------------------------------------------------------------------- formats
def fmt_money(v: int | float | None, cents: bool = True) -> str:
    if v is None:
        return ""
    return f"${v:,.2f}" if cents else f"${v:,.0f}"


def fmt_money_short(v: float | int | None) -> str:
    if v is None:
        return ""
    a = abs(v)
    if a >= 1_000_000:
        s = f"{v / 1_000_000:.1f}".rstrip("0").rstrip(".")
        return f"${s}M"
    if a >= 1000:
        s = f"{v / 1000:.1f}".rstrip("0").rstrip(".")
        return f"${s}K"
    return f"${v:,.0f}"


def fmt_date(d: dt.date | dt.datetime | None) -> str:
    if d is None:
        return ""
    if isinstance(d, str):  # an unparseable entry echoed back to the form
        return d
    if isinstance(d, dt.datetime):
        d = d.date()
    return f"{d.month}/{d.day}/{d.year}"


def fmt_time(t: dt.datetime | dt.time) -> str:
    return f"{(t.hour % 12) or 12}:{t.minute:02d} {'AM' if t.hour < 12 else 'PM'}"


def fmt_datetime(d: dt.datetime | None) -> str:
    if d is None:
        return ""
    return f"{fmt_date(d)}, {fmt_time(d)}"


def fmt_value(f: Field, v: Any) -> str:
    if v is None or v == "":
        return ""
    t = f.type
    if t == "currency":
        return fmt_money(v)
    if t == "percent":
        return f"{v}%"
    if t == "number":
        return f"{v:,}"
    if t == "date":
        return fmt_date(v)
    if t == "datetime":
        return fmt_datetime(v)
    if t == "checkbox":
        return "Yes" if v else "No"
    return str(v)


# ------------------------------------------------------- formats as the page shows them (the page's locale)
# The fmt_* above are what the app reads back and writes (a form's value, a tool's result, a world's text); these are
# what a page shows, in its locale (apps/_shared/locale.py, issue 45): the same as fmt_* in en-US.
def shown_money(v: int | float | None, cents: bool = True) -> str:
    loc = current_locale()
    if v is None or loc == L.DEFAULT_LOCALE:
        return fmt_money(v, cents)
    return L.money(v, loc, 2 if cents else 0)


def shown_money_short(v: int | float | None) -> str:
    """$7.2M / US$7.2m / 7,2 Mio. $ (a dashboard's metric)."""
    loc = current_locale()
    if v is None or loc == L.DEFAULT_LOCALE:
        return fmt_money_short(v)
    return L.money_short(v, loc)


def shown_number(n: int | float) -> str:
    loc = current_locale()
    return f"{n:,}" if loc == L.DEFAULT_LOCALE else L.number(n, loc)


def shown_date(d: dt.date | dt.datetime | None) -> str:
    loc = current_locale()
    if d is None or isinstance(d, str) or loc == L.DEFAULT_LOCALE:
        return fmt_date(d)
    return L.date_numeric(d.date() if isinstance(d, dt.datetime) else d, loc)


def shown_time(t: dt.datetime | dt.time) -> str:
    loc = current_locale()
    return fmt_time(t) if loc == L.DEFAULT_LOCALE else L.time(t, loc)


def shown_datetime(d: dt.datetime | None) -> str:
    if d is None:
        return ""
    return f"{shown_date(d)}, {shown_time(d)}"


def shown_value(f: Field, v: Any) -> str:
    """A field's value as a page shows it: a picklist's value and a checkbox's Yes / No in the page's language (as
    Salesforce translates its picklists; the world and the tools keep the English value), numbers and dates in its
    locale."""
    t = f.type
    if t == "checkbox" and v is not None and v != "":
        return gettext("Yes") if v else gettext("No")
    if t == "picklist" and isinstance(v, str):
        return ui(v)
    loc = current_locale()
    if v is None or v == "" or loc == L.DEFAULT_LOCALE:
        return fmt_value(f, v)
    if t == "currency":
        return shown_money(v)
    if t == "number":
        return L.number(v, loc)
    if t == "date":
        return shown_date(v)
    if t == "datetime":
        return shown_datetime(v)
    return fmt_value(f, v)


def shown_month(d: dt.date, year: bool = False) -> str:
    """A month's name as a page shows it (a chart's axis, a report's Close Month, the activity timeline's groups):
    March / March 2025 in en-US, März / März 2025 in de-DE."""
    loc = current_locale()
    if loc == L.DEFAULT_LOCALE:
        return d.strftime("%B %Y" if year else "%B")
    return L.month(d, loc, year)


def address_lines(rec, f: Field) -> list[str]:
    street, city, state, postal, country = (getattr(rec, c) or "" for c in f.cols)
    line2 = ", ".join(x for x in [city, " ".join(x for x in [state, postal] if x)] if x)
    return [x for x in [street, line2, country] if x]


def full_name(rec) -> str:
    return " ".join(x for x in [getattr(rec, "salutation", ""), rec.first_name, rec.last_name] if x)


def relative_day(d: dt.date) -> str:
    today = now().date()
    if d == today:
        return gettext("Today")
    if d == today - dt.timedelta(days=1):
        return gettext("Yesterday")
    if d == today + dt.timedelta(days=1):
        return gettext("Tomorrow")
    return shown_date(d)


def ago(t: dt.datetime | None) -> str:
    if t is None:
        return ""
    s = (now() - t).total_seconds()
    if s < 60:
        return "a few seconds ago"
    if s < 3600:
        n = int(s // 60)
        return f"{n} minute{'s' if n > 1 else ''} ago"
    if s < 86400:
        n = int(s // 3600)
        return f"{n} hour{'s' if n > 1 else ''} ago"
    n = int(s // 86400)
    return f"{n} day{'s' if n > 1 else ''} ago"


# ------------------------------------------------------------------------------ parse
class FormError(Exception):
    def __init__(self, errors: dict[str, str]):
        super().__init__("; ".join(f"{k}: {v}" for k, v in errors.items()))
        self.errors = errors


def parse_date(s: str) -> dt.date:
    s = s.strip()
    for fmt in ("%m/%d/%Y", "%Y-%m-%d", "%m/%d/%y", "%b %d, %Y", "%B %d, %Y"):
        try:
            return dt.datetime.strptime(s, fmt).date()
        except ValueError:
            pass
    raise ValueError("Your entry does not match the allowed format M/d/yyyy.")


def parse_time(s: str) -> dt.time:
    s = s.strip().upper().replace(".", "")
    for fmt in ("%I:%M %p", "%I:%M%p", "%H:%M", "%I %p", "%I%p"):
        try:
            return dt.datetime.strptime(s, fmt).time()
        except ValueError:
            pass
    raise ValueError("Your entry does not match the allowed format h:mm a.")


def parse_number(s: str, label: str) -> int:
    n = inputs.number(s)
    if n is None:
        raise ValueError("Enter a valid number.")
    return int(round(n))


def parse_field(f: Field, form, errors: dict[str, str], out: dict[str, Any]) -> None:
    """Read one field from a submitted form into `out` (column -> value); record errors by field name."""
    t = f.type
    if t == "name":
        for c in ("salutation", "first_name", "last_name"):
            if c in form:
                out[c] = form.get(c, "").strip()
        if "last_name" in form and not out.get("last_name"):
            errors["last_name"] = "Complete this field."
        return
    if t == "address":
        for c in f.cols:
            if c in form:
                out[c] = form.get(c, "").strip()
        return
    if f.name in ("who", "what"):
        key = f.name
        if f"{key}_id" not in form:
            return
        raw = form.get(f"{key}_id", "").strip()
        if not raw:
            out[f"{key}_type"], out[f"{key}_id"] = None, None
            return
        typ, _, rid = raw.partition(":")
        if typ not in f.ref or inputs.id_text(rid) is None or db().get(MODEL_BY_API[typ], int(rid)) is None:
            errors[key] = "Select an option from the picklist or remove the search term."
            return
        out[f"{key}_type"], out[f"{key}_id"] = typ, int(rid)
        return
    if f.name not in form:
        return
    raw = form.get(f.name, "")
    raw = raw.replace("\r\n", "\n").strip() if isinstance(raw, str) else raw
    if t == "checkbox":
        out[f.name] = raw in ("on", "true", "1", "yes", True)
        return
    if raw == "" or raw is None:
        if f.required:
            errors[f.name] = "Complete this field."
            return
        out[f.name] = None if t in ("currency", "number", "percent", "date", "datetime", "lookup", "user") else ""
        return
    try:
        if t in ("text", "phone", "url", "textarea"):
            if len(raw) > f.max_length:
                raise ValueError(f"Data value too large: max length = {f.max_length}")
            out[f.name] = raw
        elif t == "email":
            if not is_email(raw):
                raise ValueError("You have entered an invalid format.")
            out[f.name] = raw
        elif t in ("currency", "number"):
            v = parse_number(raw, f.label)
            if v < 0:
                raise ValueError("Enter a number that is 0 or more.")
            out[f.name] = v
        elif t == "percent":
            v = parse_number(raw, f.label)
            if not 0 <= v <= 100:
                raise ValueError("Enter a value between 0 and 100.")
            out[f.name] = v
        elif t == "date":
            out[f.name] = parse_date(raw)
        elif t == "datetime":
            d = parse_date(raw)
            tm = parse_time(form.get(f.name + "_time", "") or "12:00 AM")
            out[f.name] = dt.datetime.combine(d, tm)
        elif t == "picklist":
            if raw not in (f.options or []):
                raise ValueError("Select a valid value.")
            out[f.name] = raw
        elif t in ("lookup", "user"):
            model = MODEL_BY_API[f.ref[0]]
            if inputs.id_text(str(raw)) is None or db().get(model, int(raw)) is None:
                raise ValueError("Select an option from the picklist or remove the search term.")
            out[f.name] = int(raw)
    except ValueError as e:
        errors[f.name] = str(e)


# ------------------------------------------------------------------ products: the Amount rule every edit runs (the
# Add Products flow and its writes are in services/products.py)
def has_products(opp_id: int) -> bool:
    return db().scalar(select(m.OpportunityLineItem.id).where(m.OpportunityLineItem.opportunity_id == opp_id).limit(1)) is not None


def amount_error(opp: m.Opportunity, values: Mapping[str, Any]) -> str | None:
    """An opportunity with products has a calculated Amount: an edit (dialog, inline, tool) may not change it.
    Called by apply_rules, which every edit path runs."""
    if "amount" in values and values["amount"] != opp.amount and has_products(opp.id):
        return "This opportunity has products: its amount is their total. Edit the products instead."
    return None


def apply_rules(obj: str, rec, values: dict[str, Any], errors: dict[str, str], creating: bool) -> None:
    """Salesforce's side effects and cross-field validation, before values are written."""
    old = {k: getattr(rec, k, None) for k in values} if rec is not None else {}
    if obj == "Opportunity":
        stage = values.get("stage", getattr(rec, "stage", None) if rec is not None else None)
        if "stage" in values and (creating or values["stage"] != old.get("stage")):
            if "probability" not in values or values.get("probability") == old.get("probability"):
                values["probability"] = STAGE_PROBABILITY.get(values["stage"], 10)
            values["forecast_category"] = STAGE_FORECAST.get(values["stage"], "Pipeline")
        if values.get("probability") is None and "probability" in values:
            values["probability"] = STAGE_PROBABILITY.get(stage or "Prospecting", 10)
        if stage != "Closed Lost" and "loss_reason" in values and values.get("loss_reason"):
            values["loss_reason"] = values["loss_reason"]
        if rec is not None and not creating and "amount" not in errors:
            err = amount_error(rec, values)  # the Amount of an opportunity with products
            if err:
                errors["amount"] = err
    if obj == "Case" and "status" in values:
        was = getattr(rec, "status", None) if rec is not None else None
        if values["status"] == "Closed" and was != "Closed":
            values["closed_at"] = now()
        elif values["status"] != "Closed" and was == "Closed":
            values["closed_at"] = None
    if obj == "Task" and "status" in values:
        was = getattr(rec, "status", None) if rec is not None else None
        if values["status"] == "Completed" and was != "Completed":
            values["completed_at"] = now()
        elif values["status"] != "Completed" and was == "Completed":
            values["completed_at"] = None
    if obj == "Event":
        start = values.get("start", getattr(rec, "start", None) if rec is not None else None)
        end = values.get("end", getattr(rec, "end", None) if rec is not None else None)
        if start and end and end < start:
            errors["end"] = "The end time can't be before the start time."
    if obj == "Lead" and "company" in values and not values.get("company") and "company" not in errors:
        errors["company"] = "Complete this field."


def touch(rec) -> None:
    rec.updated_at = now()
    if hasattr(rec, "last_modified_by_id"):
        rec.last_modified_by_id = ME


def next_id(model) -> int:
    return (db().scalar(select(func.max(model.id))) or 0) + 1


def create(obj: str, values: dict[str, Any]):
    model = meta(obj).model
    rec = model()
    t = now()
    rec.id = next_id(model)
    defaults = {"created_at": t, "updated_at": t, "created_by_id": ME, "last_modified_by_id": ME, "owner_id": ME}
    if obj == "Case":
        defaults["case_number"] = f"{1000 + rec.id:08d}"
        last = db().scalar(select(m.Case.case_number).order_by(m.Case.id.desc()).limit(1))
        if last:
            defaults["case_number"] = f"{int(last) + 1:08d}"
    for col in model.__table__.columns:
        if col.name in values:
            setattr(rec, col.name, values[col.name])
        elif col.name in defaults:
            setattr(rec, col.name, defaults[col.name])
        elif col.name != "id" and col.default is not None and not callable(col.default.arg):
            setattr(rec, col.name, col.default.arg)
        elif col.name != "id" and col.nullable is False and isinstance(col.type, type(m.Account.name.type)):
            setattr(rec, col.name, "")
    if obj == "Opportunity":
        rec.probability = values.get("probability") if values.get("probability") is not None else STAGE_PROBABILITY.get(rec.stage, 10)
        rec.forecast_category = values.get("forecast_category") or STAGE_FORECAST.get(rec.stage, "Pipeline")
    if obj == "Task" and rec.status == "Completed":
        rec.completed_at = t
    if obj == "Case" and rec.status == "Closed":
        rec.closed_at = t
    db().add(rec)
    return rec


def update(rec, values: dict[str, Any]) -> list[str]:
    changed = []
    for k, v in values.items():
        if getattr(rec, k) != v:
            setattr(rec, k, v)
            changed.append(k)
    if changed:
        touch(rec)
    return changed


def form_fields(obj: str) -> list[Field]:
    """Fields that appear in the edit form, in layout order."""
    o = meta(obj)
    out = []
    for _, names in o.layout:
        for n in names:
            if n and not o.field(n).readonly and o.field(n).type != "formula":
                out.append(o.field(n))
    return out


def parse_form(obj: str, form, rec=None, creating: bool = False) -> dict[str, Any]:
    errors: dict[str, str] = {}
    values: dict[str, Any] = {}
    for f in form_fields(obj):
        parse_field(f, form, errors, values)
    if creating:
        for f in form_fields(obj):
            if f.required and f.type not in ("name", "address") and f.name not in values and f.name not in errors:
                errors[f.name] = "Complete this field."
    apply_rules(obj, rec, values, errors, creating)
    if errors:
        raise FormError(errors)
    return values


# ------------------------------------------------------------------------ activities
def last_activity_dates(opp_ids: Iterable[int], what_type: str = "Opportunity") -> dict[int, dt.date]:
    """Salesforce's Last Activity: the latest due date of a completed task or the latest past event."""
    ids = sorted(set(opp_ids))
    if not ids:
        return {}
    out: dict[int, dt.date] = {}
    today = now().date()
    rows = db().execute(select(m.Task.what_id, func.max(m.Task.activity_date)).where(
        m.Task.what_type == what_type, m.Task.what_id.in_(ids), m.Task.status == "Completed",
        m.Task.activity_date.is_not(None)).group_by(m.Task.what_id))
    for rid, d in rows:
        out[rid] = d
    for ev in db().scalars(select(m.Event).where(m.Event.what_type == what_type, m.Event.what_id.in_(ids))):
        d = ev.start.date()
        if d <= today and (ev.what_id not in out or d > out[ev.what_id]):
            out[ev.what_id] = d
    return out


# ------------------------------------------------------------------------ duplicates
def duplicates_of(obj: str, rec) -> list:
    """Records Salesforce's standard matching rules would flag as duplicates of `rec`."""
    if obj == "Account":
        key = normalize_company(rec.name)
        first = key.split(" ")[0] if key else ""
        cands = db().scalars(select(m.Account).where(m.Account.id != rec.id, m.Account.name.ilike(f"{first}%")))
        return [a for a in cands if normalize_company(a.name) == key
                or (rec.website and a.website and a.website.lower() == rec.website.lower() and normalize_company(a.name)[:6] == key[:6])]
    if obj == "Contact":
        conds = [(func.lower(m.Contact.first_name) == (rec.first_name or "").lower()) & (func.lower(m.Contact.last_name) == rec.last_name.lower())]
        if rec.email:
            conds.append(func.lower(m.Contact.email) == rec.email.lower())
        return list(db().scalars(select(m.Contact).where(m.Contact.id != rec.id, or_(*conds)).order_by(m.Contact.id)))
    if obj == "Lead":
        if rec.is_converted:
            return []
        conds = [(func.lower(m.Lead.first_name) == (rec.first_name or "").lower()) & (func.lower(m.Lead.last_name) == rec.last_name.lower())
                 & (func.lower(m.Lead.company) == rec.company.lower())]
        if rec.email:
            conds.append(func.lower(m.Lead.email) == rec.email.lower())
        return list(db().scalars(select(m.Lead).where(m.Lead.id != rec.id, m.Lead.is_converted.is_(False), or_(*conds)).order_by(m.Lead.id)))
    return []


def this_quarter() -> tuple[dt.date, dt.date]:
    return quarter_bounds(now().date())


@dataclass
class Crumb:
    label: str
    url: str = ""
    extra: dict = field(default_factory=dict)
