"""JSON endpoints for what Settings manages: labels, filters, settings values, contacts."""

from __future__ import annotations

import datetime as dt

from flask import jsonify
from sqlalchemy import delete, func, select

from apps._shared import db, now
from apps.mail import formatting as fmt
from apps.mail import queries as Q
from apps.mail.models import Account, Contact, Filter, Label, Message, MessageLabel, Thread
from apps.mail.views import bp
from apps.mail.views.actions import ApiError, _json, apply_action
from apps.mail.views.common import COLOR_BY_NAME


# ------------------------------------------------------------------------------------------ labels
def _check_label_name(session, name, parent_id, label_id=None) -> str:
    name = str(name or "").strip()
    if not name:
        raise ApiError("Please enter a label name.")
    if "/" in name or len(name) > 80:
        raise ApiError("Label names can't contain \"/\" or be longer than 80 characters.")
    if name.lower() in {"inbox", "starred", "snoozed", "sent", "drafts", "spam", "trash", "important", "scheduled",
                        "all mail", "chats"}:
        raise ApiError(f'The label name "{name}" is reserved. Please try another name.')
    clash = session.scalar(select(Label.id).where(func.lower(Label.name) == name.lower(),
                                                  Label.parent_id.is_(parent_id) if parent_id is None
                                                  else Label.parent_id == parent_id))
    if clash is not None and clash != label_id:
        raise ApiError(f'The label name "{name}" already exists. Please try another name.')
    return name


def _parent(session, body, label_id=None):
    pid = body.get("parent_id")
    if pid in (None, "", 0):
        return None
    if not isinstance(pid, int) or session.get(Label, pid) is None:
        raise ApiError("the parent label does not exist")
    if label_id is not None:
        lab = session.get(Label, label_id)
        if pid in Q.label_descendants(session, lab):
            raise ApiError("A label can't be nested under itself or one of its sublabels.")
    return pid


@bp.post("/api/labels")
def create_label():
    body = _json()
    session = db()
    pid = _parent(session, body)
    name = _check_label_name(session, body.get("name"), pid)
    lab = Label(name=name, parent_id=pid, color="", text_color="", show_in_list=True, show_in_message_list=True)
    session.add(lab)
    session.flush()
    out = {"ok": True, "id": lab.id, "toast": f'Label "{name}" created.'}
    apply_to = body.get("apply_to")  # label the selected conversations too ("Create new" from the Labels menu)
    if isinstance(apply_to, list) and apply_to:
        session.commit()
        apply_action(session, "move" if body.get("move") else "label", apply_to,
                     {"add": [lab.id], "target": f"label:{lab.id}", "from_label_id": body.get("from_label_id")})
    session.commit()
    out["path"] = next(p for lb, _d, p in Q.labels_tree(session) if lb.id == lab.id)
    return jsonify(out)


@bp.post("/api/labels/<int:lid>")
def update_label(lid: int):
    body = _json()
    session = db()
    lab = session.get(Label, lid)
    if lab is None:
        raise ApiError("that label does not exist", 404)
    if "parent_id" in body:
        lab.parent_id = _parent(session, body, lid)
    if "name" in body:
        lab.name = _check_label_name(session, body["name"], lab.parent_id, lid)
    if "color" in body:
        c = body["color"]
        if c in (None, "", "none"):
            lab.color, lab.text_color = "", ""
        elif str(c).lower() in COLOR_BY_NAME:
            lab.color, lab.text_color = COLOR_BY_NAME[str(c).lower()]
        else:
            raise ApiError(f"unknown colour {c!r}")
    for key in ("show_in_list", "show_in_message_list"):
        if key in body:
            if not isinstance(body[key], bool):
                raise ApiError(f"'{key}' must be true or false")
            setattr(lab, key, body[key])
    session.commit()
    return jsonify(ok=True, toast="Label updated.")


@bp.post("/api/labels/<int:lid>/delete")
def delete_label(lid: int):
    """Remove a label: its messages lose it (they are not deleted); sublabels move up a level."""
    session = db()
    lab = session.get(Label, lid)
    if lab is None:
        raise ApiError("that label does not exist", 404)
    name = lab.name
    for child in session.scalars(select(Label).where(Label.parent_id == lid)):
        child.parent_id = lab.parent_id
    session.execute(delete(MessageLabel).where(MessageLabel.label_id == lid))
    for f in session.scalars(select(Filter).where(Filter.apply_label_id == lid)):
        f.apply_label_id = None
    session.delete(lab)
    session.commit()
    return jsonify(ok=True, toast=f'The label "{name}" has been removed.')


# ----------------------------------------------------------------------------------------- filters
CRITERIA = ("from_contains", "to_contains", "subject_contains", "has_words", "doesnt_have")


def filter_query(f) -> str:
    """The search a filter's criteria make (Gmail's filter list shows it): from:(x) subject:(y) ..."""
    get = (lambda k: f.get(k)) if isinstance(f, dict) else (lambda k: getattr(f, k))
    parts = []
    for key, op in (("from_contains", "from"), ("to_contains", "to"), ("subject_contains", "subject")):
        if get(key):
            parts.append(f"{op}:({get(key)})")
    if get("has_words"):
        parts.append(str(get("has_words")))
    if get("doesnt_have"):
        parts.append(f"-{{{get('doesnt_have')}}}" if " " in str(get("doesnt_have")) else f"-{get('doesnt_have')}")
    if get("has_attachment"):
        parts.append("has:attachment")
    return " ".join(parts)


def filter_actions_text(session, f: Filter) -> list[str]:
    out = []
    if f.skip_inbox:
        out.append("Skip Inbox")
    if f.mark_read:
        out.append("Mark as read")
    if f.star:
        out.append("Star it")
    if f.apply_label_id:
        name = next((p for lab, _d, p in Q.labels_tree(session) if lab.id == f.apply_label_id), "?")
        out.append(f'Apply label "{name}"')
    if f.forward_to:
        out.append(f"Forward to {f.forward_to}")
    if f.delete:
        out.append("Delete it")
    if f.never_spam:
        out.append("Never send it to Spam")
    if f.mark_important is True:
        out.append("Always mark it as important")
    if f.mark_important is False:
        out.append("Never mark it as important")
    if f.category:
        out.append(f"Categorize as {f.category.capitalize()}")
    return out


def _filter_values(session, body: dict) -> dict:
    vals = {}
    for k in CRITERIA:
        vals[k] = str(body.get(k) or "").strip()[:200]
    vals["has_attachment"] = bool(body.get("has_attachment"))
    if not any(vals[k] for k in CRITERIA) and not vals["has_attachment"]:
        raise ApiError("Please specify at least one search criterion for the filter.")
    for k in ("skip_inbox", "mark_read", "star", "delete", "never_spam"):
        vals[k] = bool(body.get(k))
    lid = body.get("apply_label_id")
    if lid in (None, "", 0):
        vals["apply_label_id"] = None
    elif isinstance(lid, int) and session.get(Label, lid) is not None:
        vals["apply_label_id"] = lid
    else:
        raise ApiError("the label to apply does not exist")
    fwd = str(body.get("forward_to") or "").strip().lower()
    if fwd and not fmt.EMAIL_RE.match(fwd):
        raise ApiError(f'"{fwd}" is not a valid forwarding address.')
    vals["forward_to"] = fwd
    imp = body.get("mark_important")
    if imp not in (None, True, False):
        raise ApiError("'mark_important' must be true, false or null")
    vals["mark_important"] = imp
    cat = str(body.get("category") or "")
    if cat and cat not in {k for k, _, _ in Q.CATEGORIES}:
        raise ApiError(f"unknown category {cat!r}")
    vals["category"] = cat
    if not any([vals["skip_inbox"], vals["mark_read"], vals["star"], vals["apply_label_id"], vals["forward_to"],
                vals["delete"], vals["never_spam"], vals["mark_important"] is not None, vals["category"]]):
        raise ApiError("Please choose at least one action for the filter.")
    return vals


def apply_filter(session, f: Filter) -> int:
    """Apply a filter's actions to the conversations that already match it ('Also apply filter to ...')."""
    q = filter_query(f)
    sq = Q.parse_search(session, q, now())
    tids = sorted({tid for (tid,) in session.execute(select(Message.thread_id).where(*sq.conds).distinct())})
    if not tids:
        return 0
    if f.apply_label_id:
        apply_action(session, "label", tids, {"add": [f.apply_label_id]})
    if f.skip_inbox:
        apply_action(session, "archive", tids)
    if f.mark_read:
        apply_action(session, "mark_read", tids)
    if f.star:
        apply_action(session, "star", tids)
    if f.mark_important is not None:
        apply_action(session, "important" if f.mark_important else "not_important", tids)
    if f.category:
        apply_action(session, "move", tids, {"target": f"category:{f.category}"})
    if f.never_spam:
        spam = [t for t in tids if session.scalar(select(Message.id).where(Message.thread_id == t,
                                                                           Message.is_spam.is_(True)).limit(1))]
        if spam:
            apply_action(session, "not_spam", spam)
    if f.delete:
        apply_action(session, "trash", tids)
    return len(tids)


@bp.post("/api/filters")
def create_filter():
    body = _json()
    session = db()
    f = Filter(**_filter_values(session, body))
    session.add(f)
    session.commit()
    n = apply_filter(session, f) if body.get("apply_existing") else 0
    session.commit()
    toast = "Your filter was created." + (f" {n} conversation{'s' if n != 1 else ''} updated." if n else "")
    return jsonify(ok=True, id=f.id, toast=toast, applied=n)


@bp.post("/api/filters/<int:fid>")
def update_filter(fid: int):
    body = _json()
    session = db()
    f = session.get(Filter, fid)
    if f is None:
        raise ApiError("that filter does not exist", 404)
    for k, v in _filter_values(session, body).items():
        setattr(f, k, v)
    session.commit()
    n = apply_filter(session, f) if body.get("apply_existing") else 0
    session.commit()
    return jsonify(ok=True, toast="Your filter was updated.", applied=n)


@bp.post("/api/filters/<int:fid>/delete")
def delete_filter(fid: int):
    session = db()
    if session.execute(delete(Filter).where(Filter.id == fid)).rowcount == 0:
        raise ApiError("that filter does not exist", 404)
    session.commit()
    return jsonify(ok=True, toast="Filter deleted.")


@bp.get("/api/filters/count")
def filter_count():
    """How many conversations a filter's criteria match now (the 'Also apply to N' checkbox)."""
    from flask import request

    session = db()
    vals = {k: request.args.get(k, "") for k in CRITERIA}
    vals["has_attachment"] = request.args.get("has_attachment") == "1"
    q = filter_query(vals)
    if not q:
        return jsonify(ok=True, count=0)
    sq = Q.parse_search(session, q, now())
    n = session.scalar(select(func.count(func.distinct(Message.thread_id))).where(*sq.conds)) or 0
    return jsonify(ok=True, count=n, query=q)


# ---------------------------------------------------------------------------------------- settings
def _bool(v, key):
    if not isinstance(v, bool):
        raise ApiError(f"'{key}' must be true or false")
    return v


def _day(v, key) -> dt.date | None:
    if v in (None, ""):
        return None
    d = fmt.parse_user_date(str(v), now())
    if d is None:
        raise ApiError(f'"{v}" is not a date Inkbox understands (try "March 20, 2026").')
    return d


SETTING_CHOICES = {"display_density": ("default", "comfortable", "compact"), "page_size": (10, 15, 20, 25, 50, 100)}
SETTING_BOOLS = ("show_snippets", "signature_on_replies", "vacation_enabled", "vacation_contacts_only",
                 "tab_promotions", "tab_social", "tab_updates")


@bp.post("/api/settings")
def settings():
    """Quick settings (density) and Settings > General / Inbox (Save Changes)."""
    body = _json()
    session = db()
    acct = session.get(Account, 1)
    for key, value in body.items():
        if key in SETTING_CHOICES:
            if value not in SETTING_CHOICES[key]:
                raise ApiError(f"{key} must be one of {', '.join(map(str, SETTING_CHOICES[key]))}")
            setattr(acct, key, value)
        elif key in SETTING_BOOLS:
            setattr(acct, key, _bool(value, key))
        elif key in ("signature", "vacation_body"):
            setattr(acct, key, str(value or "").replace("\r\n", "\n")[:4000])
        elif key == "vacation_subject":
            acct.vacation_subject = str(value or "").strip()[:300]
        elif key in ("vacation_start", "vacation_end"):
            setattr(acct, key, _day(value, key))
        else:
            raise ApiError(f"unknown setting {key!r}")
    if acct.vacation_enabled:
        if acct.vacation_start is None:
            acct.vacation_start = now().date()
        if acct.vacation_end is not None and acct.vacation_end < acct.vacation_start:
            raise ApiError("The last day of the vacation responder must be after the first day.")
        if not (acct.vacation_subject or acct.vacation_body):
            raise ApiError("Please enter a subject or message for the vacation responder.")
    session.commit()
    return jsonify(ok=True, toast="Your preferences have been saved.",
                   **{k: getattr(acct, k) for k in SETTING_CHOICES if k in body})


# ---------------------------------------------------------------------------------------- contacts
def _contact_values(body: dict) -> dict:
    first = str(body.get("first_name") or "").strip()
    last = str(body.get("last_name") or "").strip()
    name = " ".join(x for x in (first, last) if x)
    email = str(body.get("email") or "").strip().lower()
    if email and not fmt.EMAIL_RE.match(email):
        raise ApiError(f'"{email}" is not a valid email address.')
    if not name and not email:
        raise ApiError("Please enter a name or an email address.")
    vals = {"name": name or email, "email": email, "company": str(body.get("company") or "").strip()[:120],
            "title": str(body.get("title") or "").strip()[:120], "phone": str(body.get("phone") or "").strip()[:40],
            "address": str(body.get("address") or "").strip()[:300], "notes": str(body.get("notes") or "").strip()[:2000]}
    vals["birthday"] = _day(body.get("birthday"), "birthday") if body.get("birthday") else None
    return vals


def _contact(session, cid: int) -> Contact:
    c = session.get(Contact, cid)
    if c is None:
        raise ApiError("that contact does not exist", 404)
    return c


@bp.post("/api/contacts/new")
def create_contact():
    body = _json()
    session = db()
    vals = _contact_values(body)
    if vals["email"] and session.scalar(select(Contact.id).where(Contact.email == vals["email"], Contact.is_saved.is_(True))):
        raise ApiError(f"A contact with the email {vals['email']} already exists.")
    c = Contact(**vals, relation="", is_starred=False, is_saved=True, has_photo=False, created_at=now())
    session.add(c)
    session.commit()
    return jsonify(ok=True, id=c.id, toast="Contact saved.")


@bp.post("/api/contacts/<int:cid>")
def update_contact(cid: int):
    body = _json()
    session = db()
    c = _contact(session, cid)
    for k, v in _contact_values(body).items():
        setattr(c, k, v)
    c.is_saved = True
    session.commit()
    return jsonify(ok=True, id=c.id, toast="Contact saved.")


@bp.post("/api/contacts/<int:cid>/star")
def star_contact(cid: int):
    body = _json()
    session = db()
    c = _contact(session, cid)
    if not isinstance(body.get("starred"), bool):
        raise ApiError("'starred' must be true or false")
    c.is_starred = body["starred"]
    session.commit()
    return jsonify(ok=True, starred=c.is_starred)


@bp.post("/api/contacts/<int:cid>/delete")
def delete_contact(cid: int):
    session = db()
    c = _contact(session, cid)
    session.delete(c)
    session.commit()
    return jsonify(ok=True, toast="Contact deleted.")


__all__ = ["filter_query", "filter_actions_text", "Thread"]
