"""Contacts: the list (saved, favourites, other contacts), a contact's page, create and edit."""

from __future__ import annotations

from flask import abort, request
from sqlalchemy import String, cast, func, or_, select

from apps._shared import db, now
from apps.mail import formatting as fmt
from apps.mail import queries as Q
from apps.mail.models import Contact, Message
from apps.mail.services.account import contacts_matching
from apps.mail.views.blueprint import bp
from apps.mail.views.common import render_page

VIEWS = {"all": "Contacts", "favorites": "Favorites", "other": "Other contacts"}


def _contacts(view: str, q: str) -> list[Contact]:
    return contacts_matching(db(), view, q)


def _counts() -> dict[str, int]:
    s = db()
    return {"all": s.scalar(select(func.count(Contact.id)).where(Contact.is_saved.is_(True))) or 0,
            "favorites": s.scalar(select(func.count(Contact.id)).where(Contact.is_starred.is_(True),
                                                                       Contact.is_saved.is_(True))) or 0,
            "other": s.scalar(select(func.count(Contact.id)).where(Contact.is_saved.is_(False))) or 0}


@bp.get("/contacts", defaults={"view": "all"})
@bp.get("/contacts/<any(favorites, other):view>")
def contacts_list(view: str):
    q = (request.args.get("q") or "").strip()
    rows = _contacts(view, q)
    return render_page("mail/contacts.html", active=f"contacts:{view}", page="list", view=view,
                       view_title="Search results" if q else VIEWS[view],
                       contacts=rows, cq=q, ccounts=_counts())


def _contact(cid: int) -> Contact:
    c = db().get(Contact, cid)
    if c is None:
        abort(404)
    return c


@bp.get("/contacts/<int:cid>")
def contact_page(cid: int):
    c = _contact(cid)
    session = db()
    tids = []
    for (tid,) in session.execute(select(Message.thread_id).where(
            or_(Message.from_email == c.email, cast(Message.to, String).like(f'%"{c.email}"%')), *Q.not_trashed_or_spam())
            .order_by(Message.sent_at.desc())):
        if tid not in tids:
            tids.append(tid)
        if len(tids) >= 5:
            break
    recent = []
    n = now()
    for tid in tids:
        m = session.scalars(select(Message).where(Message.thread_id == tid, *Q.not_trashed_or_spam())
                            .order_by(Message.sent_at.desc())).first()
        recent.append({"tid": tid, "subject": m.subject or "(no subject)", "date": fmt.list_date(m.sent_at, n),
                       "snippet": fmt.snippet(m.body, 90)})
    return render_page("mail/contacts.html", active="contacts:" + ("all" if c.is_saved else "other"), page="view",
                       c=c, recent=recent, ccounts=_counts())


@bp.get("/contacts/new")
def contact_new():
    return render_page("mail/contacts.html", active="contacts:all", page="edit", c=None, ccounts=_counts(),
                       prefill_email=(request.args.get("email") or "").strip().lower())


@bp.get("/contacts/<int:cid>/edit")
def contact_edit(cid: int):
    return render_page("mail/contacts.html", active="contacts:all", page="edit", c=_contact(cid), ccounts=_counts(),
                       prefill_email="")
