"""Settings (General, Inbox, quick settings) and Contacts. Never commits."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import func, select

from apps._shared import now
from apps.mail import formatting as fmt
from apps.mail.models import Account, Contact
from apps.mail.services.errors import ServiceError

SETTING_CHOICES = {"display_density": ("default", "comfortable", "compact"), "page_size": (10, 15, 20, 25, 50, 100),
                   "undo_send_seconds": (5, 10, 20, 30),  # Gmail's "Send cancellation period"
                   "default_reply": ("reply", "reply_all")}  # Gmail's "Default reply behavior"
SETTING_BOOLS = ("show_snippets", "signature_on_replies", "vacation_enabled", "vacation_contacts_only",
                 "tab_promotions", "tab_social", "tab_updates", "keyboard_shortcuts")
SETTING_TEXTS = ("signature", "vacation_body", "vacation_subject")
SETTING_DAYS = ("vacation_start", "vacation_end")
SETTINGS = (*SETTING_CHOICES, *SETTING_BOOLS, *SETTING_TEXTS, *SETTING_DAYS)


def day(v: Any, key: str) -> dt.date | None:
    if v in (None, ""):
        return None
    d = fmt.parse_user_date(str(v), now())
    if d is None:
        raise ServiceError(f'"{v}" is not a date Inkbox understands (try "March 20, 2026").')
    return d


def update_settings(session, values: dict) -> Account:
    """Save settings (only the keys given), then the vacation responder's rules: it starts today when no first
    day is given, its last day is not before its first, and it needs a subject or a message."""
    acct = session.get(Account, 1)
    for key, value in values.items():
        if key in SETTING_CHOICES:
            if value not in SETTING_CHOICES[key] or isinstance(value, bool):
                raise ServiceError(f"{key} must be one of {', '.join(map(str, SETTING_CHOICES[key]))}")
            setattr(acct, key, value)
        elif key in SETTING_BOOLS:
            if not isinstance(value, bool):
                raise ServiceError(f"'{key}' must be true or false")
            setattr(acct, key, value)
        elif key in ("signature", "vacation_body"):
            setattr(acct, key, str(value or "").replace("\r\n", "\n")[:4000])
        elif key == "vacation_subject":
            acct.vacation_subject = str(value or "").strip()[:300]
        elif key in SETTING_DAYS:
            setattr(acct, key, day(value, key))
        else:
            raise ServiceError(f"unknown setting {key!r}")
    if acct.vacation_enabled:
        if acct.vacation_start is None:
            acct.vacation_start = now().date()
        if acct.vacation_end is not None and acct.vacation_end < acct.vacation_start:
            raise ServiceError("The last day of the vacation responder must be after the first day.")
        if not (acct.vacation_subject or acct.vacation_body):
            raise ServiceError("Please enter a subject or message for the vacation responder.")
    session.flush()
    return acct


def contact_values(body: dict) -> dict:
    """A contact's columns from the form (first/last name, email, company, title, phone, address, birthday,
    notes): a name or an email is required, the email must be valid."""
    first = str(body.get("first_name") or "").strip()
    last = str(body.get("last_name") or "").strip()
    name = " ".join(x for x in (first, last) if x)
    email = str(body.get("email") or "").strip().lower()
    if email and not fmt.is_email(email):
        raise ServiceError(f'"{email}" is not a valid email address.')
    if not name and not email:
        raise ServiceError("Please enter a name or an email address.")
    vals = {"name": name or email, "email": email, "company": str(body.get("company") or "").strip()[:120],
            "title": str(body.get("title") or "").strip()[:120], "phone": str(body.get("phone") or "").strip()[:40],
            "address": str(body.get("address") or "").strip()[:300], "notes": str(body.get("notes") or "").strip()[:2000]}
    vals["birthday"] = day(body.get("birthday"), "birthday") if body.get("birthday") else None
    return vals


def contact(session, cid: Any) -> Contact:
    c = session.get(Contact, cid) if isinstance(cid, int) and not isinstance(cid, bool) else None
    if c is None:
        raise ServiceError("that contact does not exist", 404)
    return c


def create_contact(session, body: dict) -> Contact:
    vals = contact_values(body)
    if vals["email"] and session.scalar(select(Contact.id).where(Contact.email == vals["email"],
                                                                 Contact.is_saved.is_(True))):
        raise ServiceError(f"A contact with the email {vals['email']} already exists.")
    c = Contact(**vals, relation="", is_starred=False, is_saved=True, has_photo=False, created_at=now())
    session.add(c)
    session.flush()
    return c


def update_contact(session, cid: Any, body: dict) -> Contact:
    """Save the edit form: every field is replaced by the form's value (an "Other contact" becomes saved)."""
    c = contact(session, cid)
    for k, v in contact_values(body).items():
        setattr(c, k, v)
    c.is_saved = True
    session.flush()
    return c


def star_contact(session, cid: Any, starred: bool) -> Contact:
    c = contact(session, cid)
    c.is_starred = starred
    return c


def delete_contact(session, cid: Any) -> None:
    session.delete(contact(session, cid))
    session.flush()


CONTACT_VIEWS = ("all", "favorites", "other")


def contacts_matching(session, view: str, q: str) -> list[Contact]:
    """A view's contacts; a search (as in Google Contacts) looks through everyone, "Other contacts" included."""
    if view not in CONTACT_VIEWS:
        raise ServiceError(f"unknown contacts view {view!r}; the views are: {', '.join(CONTACT_VIEWS)}")
    stmt = select(Contact)
    if q:
        pass  # everyone
    elif view == "favorites":
        stmt = stmt.where(Contact.is_starred.is_(True), Contact.is_saved.is_(True))
    elif view == "other":
        stmt = stmt.where(Contact.is_saved.is_(False))
    else:
        stmt = stmt.where(Contact.is_saved.is_(True))
    rows = list(session.scalars(stmt.order_by(func.lower(Contact.name), Contact.id)))
    if q:
        ql = q.lower().strip()
        rows = [c for c in rows if any(ql in (v or "").lower() for v in (c.name, c.email, c.company, c.phone, c.title))
                or any(w.startswith(ql) for w in c.name.lower().split())]
    return rows
