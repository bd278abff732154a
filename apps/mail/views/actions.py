"""JSON endpoints the pages call with fetch: send, star, importance, bulk actions, undo, contacts, RSVP."""

from __future__ import annotations

from typing import Any

from flask import jsonify, request
from sqlalchemy import delete, select

from apps._shared import db, now
from apps.mail import formatting as fmt
from apps.mail import queries as Q
from apps.mail.models import Account, Attachment, Invite, Message, MessageLabel, Thread
from apps.mail.views import bp


class ApiError(Exception):
    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


@bp.errorhandler(ApiError)
def _api_error(e: ApiError):
    return jsonify(ok=False, error=str(e)), e.status


def _json() -> dict[str, Any]:
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise ApiError("expected a JSON object")
    return body


def _ids(body: dict) -> list[int]:
    ids = body.get("ids")
    if not isinstance(ids, list) or not ids or not all(isinstance(i, int) and not isinstance(i, bool) for i in ids):
        raise ApiError("'ids' must be a non-empty list of conversation ids")
    return ids


# ------------------------------------------------------------------------------------------- send
@bp.post("/api/send")
def send():
    body = _json()
    session = db()
    me = session.get(Account, 1)
    mode = body.get("mode") or "new"
    if mode not in ("new", "reply", "reply_all", "forward"):
        raise ApiError(f"unknown mode {mode!r}")
    try:
        to = fmt.parse_addresses(body.get("to"), "To")
        cc = fmt.parse_addresses(body.get("cc"), "Cc")
        bcc = fmt.parse_addresses(body.get("bcc"), "Bcc")
    except fmt.AddressError as e:
        raise ApiError(str(e))
    if not (to or cc or bcc):
        raise ApiError("Please specify at least one recipient.")
    text = str(body.get("body") or "").replace("\r\n", "\n")
    t = now()
    in_reply_to = None
    if mode == "new":
        subject = str(body.get("subject") or "").strip()
        thread = Thread(subject=subject, category="primary", is_muted=False)
        session.add(thread)
        session.flush()
    else:
        thread = session.get(Thread, body.get("thread_id")) if isinstance(body.get("thread_id"), int) else None
        if thread is None:
            raise ApiError("that conversation does not exist", 404)
        irt = body.get("in_reply_to_id")
        if isinstance(irt, int):
            in_reply_to = session.get(Message, irt)
            if in_reply_to is None or in_reply_to.thread_id != thread.id:
                raise ApiError("in_reply_to_id is not a message of this conversation")
        base = thread.subject or ""
        if mode == "forward":
            subject = base if base.lower().startswith("fwd:") else f"Fwd: {base}"
            src = in_reply_to or session.scalars(select(Message).where(Message.thread_id == thread.id)
                                                 .order_by(Message.sent_at.desc(), Message.id.desc())).first()
            if src is not None:
                d = Q.Directory(session)
                block = (f"---------- Forwarded message ---------\nFrom: {src.from_name} <{src.from_email}>\n"
                         f"Date: {fmt.long_date(src.sent_at)}\nSubject: {src.subject}\n"
                         f"To: {', '.join(f'{d.name(e)} <{e}>' for e in src.to)}\n\n{src.body}")
                text = f"{text.rstrip()}\n\n{block}" if text.strip() else block
        else:
            subject = base if base.lower().startswith("re:") else f"Re: {base}"
    mine = me.email.lower()
    msg = Message(
        thread_id=thread.id,
        in_reply_to_id=in_reply_to.id if in_reply_to else None,
        from_name=me.name,
        from_email=me.email,
        to=to,
        cc=cc,
        bcc=bcc,
        subject=subject,
        body=text,
        sent_at=t,
        is_read=True,
        is_starred=False,
        is_important=False,
        in_inbox=mine in to or mine in cc or mine in bcc,
        is_sent=True,
        is_draft=False,
        is_spam=False,
        is_trashed=False,
    )
    session.add(msg)
    session.commit()
    return jsonify(ok=True, thread_id=thread.id, message_id=msg.id, toast="Message sent")


# ------------------------------------------------------------------------------------------- star
def _thread_msgs(session, tid: int, include_trashed: bool = False) -> list[Message]:
    q = select(Message).where(Message.thread_id == tid, Message.is_draft.is_(False))
    if not include_trashed:
        q = q.where(Message.is_trashed.is_(False))
    msgs = list(session.scalars(q.order_by(Message.sent_at, Message.id)))
    if not msgs and not include_trashed:
        return _thread_msgs(session, tid, include_trashed=True)
    if not msgs:
        raise ApiError(f"conversation {tid} does not exist", 404)
    return msgs


def _flag(body: dict, key: str) -> bool:
    v = body.get(key)
    if not isinstance(v, bool):
        raise ApiError(f"'{key}' must be true or false")
    return v


@bp.post("/api/threads/<int:tid>/star")
def star_thread(tid: int):
    """Starring a conversation stars its latest message; unstarring clears every star in it (Gmail)."""
    session = db()
    on = _flag(_json(), "starred")
    msgs = _thread_msgs(session, tid)
    if on:
        if not any(m.is_starred for m in msgs):
            msgs[-1].is_starred = True
    else:
        for m in msgs:
            m.is_starred = False
    session.commit()
    return jsonify(ok=True, starred=any(m.is_starred for m in msgs))


@bp.post("/api/messages/<int:mid>/star")
def star_message(mid: int):
    session = db()
    on = _flag(_json(), "starred")
    m = session.get(Message, mid)
    if m is None:
        raise ApiError(f"message {mid} does not exist", 404)
    m.is_starred = on
    session.commit()
    return jsonify(ok=True, starred=m.is_starred)


@bp.post("/api/threads/<int:tid>/important")
def important_thread(tid: int):
    session = db()
    on = _flag(_json(), "important")
    for m in _thread_msgs(session, tid):
        m.is_important = on
    session.commit()
    return jsonify(ok=True, important=on)


# ------------------------------------------------------------------------------------ bulk actions
UNDO_FIELDS = ("in_inbox", "is_trashed", "trashed_at", "is_spam", "is_read")


def _snapshot(m: Message) -> dict[str, Any]:
    return {"id": m.id, **{k: (getattr(m, k).isoformat() if k == "trashed_at" and getattr(m, k) else getattr(m, k))
                           for k in UNDO_FIELDS}}


def _plural(n: int, one: str, many: str) -> str:
    return one if n == 1 else many.format(n=n)


def apply_action(session, action: str, ids: list[int]) -> tuple[str, list[dict]]:
    t = now()
    undo: list[dict] = []
    n = len(ids)
    if action == "delete_forever":
        for tid in ids:
            msgs = _thread_msgs(session, tid, include_trashed=True)
            mids = [m.id for m in msgs if m.is_trashed] or [m.id for m in msgs]
            session.execute(delete(MessageLabel).where(MessageLabel.message_id.in_(mids)))
            session.execute(delete(Attachment).where(Attachment.message_id.in_(mids)))
            session.execute(delete(Invite).where(Invite.message_id.in_(mids)))
            session.execute(delete(Message).where(Message.id.in_(mids)))
            session.flush()
            if session.scalar(select(Message.id).where(Message.thread_id == tid).limit(1)) is None:
                session.execute(delete(Thread).where(Thread.id == tid))
        session.commit()
        return _plural(n, "Conversation deleted forever.", "{n} conversations deleted forever."), []
    for tid in ids:
        include_trashed = action in ("move_to_inbox", "mark_read", "mark_unread")
        msgs = _thread_msgs(session, tid, include_trashed=include_trashed)
        for m in msgs:
            undo.append(_snapshot(m))
        if action == "archive":
            for m in msgs:
                m.in_inbox = False
        elif action == "trash":
            for m in msgs:
                m.is_trashed, m.trashed_at, m.in_inbox = True, t, False
        elif action == "move_to_inbox":
            received = [m for m in msgs if not m.is_sent] or msgs
            for m in msgs:
                if m.is_trashed:
                    m.is_trashed, m.trashed_at = False, None
                m.is_spam = False
            for m in received:
                m.in_inbox = True
        elif action == "spam":
            for m in msgs:
                m.is_spam, m.in_inbox = True, False
        elif action == "not_spam":
            for m in msgs:
                m.is_spam = False
            for m in [m for m in msgs if not m.is_sent] or msgs:
                m.in_inbox = True
        elif action == "mark_read":
            for m in msgs:
                m.is_read = True
        elif action == "mark_unread":
            for m in msgs:
                m.is_read = False
        else:
            raise ApiError(f"unknown action {action!r}")
    session.commit()
    toast = {
        "archive": _plural(n, "Conversation archived.", "{n} conversations archived."),
        "trash": _plural(n, "Conversation moved to Trash.", "{n} conversations moved to Trash."),
        "move_to_inbox": _plural(n, "Conversation moved to Inbox.", "{n} conversations moved to Inbox."),
        "spam": _plural(n, "Conversation marked as spam.", "{n} conversations marked as spam."),
        "not_spam": _plural(n, "Conversation unmarked as spam.", "{n} conversations unmarked as spam."),
        "mark_read": _plural(n, "Conversation marked as read.", "{n} conversations marked as read."),
        "mark_unread": _plural(n, "Conversation marked as unread.", "{n} conversations marked as unread."),
    }[action]
    return toast, undo


@bp.post("/api/threads/action")
def thread_action():
    body = _json()
    action = body.get("action")
    if not isinstance(action, str):
        raise ApiError("'action' is required")
    toast, undo = apply_action(db(), action, _ids(body))
    return jsonify(ok=True, toast=toast, undo=undo)


@bp.post("/api/mark_all_read")
def mark_all_read():
    """'Mark all as read' from the toolbar's More menu: every conversation of the current view."""
    from apps.mail.views.lists import conds_for_path

    body = _json()
    session = db()
    conds = conds_for_path(str(body.get("path") or "/inbox"))
    msgs = list(session.scalars(select(Message).where(*conds, Message.is_read.is_(False))))
    tids = {m.thread_id for m in msgs}
    if tids:
        for m in session.scalars(select(Message).where(Message.thread_id.in_(tids), Message.is_read.is_(False))):
            m.is_read = True
    session.commit()
    return jsonify(ok=True, toast=_plural(len(tids), "Conversation marked as read.", "{n} conversations marked as read."))


@bp.post("/api/undo")
def undo():
    """Restore the flags an action changed (the toast's Undo)."""
    import datetime as dt

    body = _json()
    changes = body.get("changes")
    if not isinstance(changes, list):
        raise ApiError("'changes' must be a list")
    session = db()
    for ch in changes:
        if not isinstance(ch, dict) or not isinstance(ch.get("id"), int):
            raise ApiError("each change needs an integer 'id'")
        m = session.get(Message, ch["id"])
        if m is None:
            continue
        for k in UNDO_FIELDS:
            if k in ch:
                v = ch[k]
                if k == "trashed_at":
                    v = dt.datetime.fromisoformat(v) if v else None
                elif not isinstance(v, bool):
                    raise ApiError(f"'{k}' must be true or false")
                setattr(m, k, v)
    session.commit()
    return jsonify(ok=True, toast="Action undone.")


# ------------------------------------------------------------------------------------- settings
SETTINGS = {"display_density": ("default", "comfortable", "compact")}


@bp.post("/api/settings")
def settings():
    """Quick settings (the gear): currently the list density."""
    body = _json()
    session = db()
    acct = session.get(Account, 1)
    for key, value in body.items():
        allowed = SETTINGS.get(key)
        if allowed is None:
            raise ApiError(f"unknown setting {key!r}")
        if value not in allowed:
            raise ApiError(f"{key} must be one of {', '.join(allowed)}")
        setattr(acct, key, value)
    session.commit()
    return jsonify(ok=True, **{k: getattr(acct, k) for k in SETTINGS})


# ----------------------------------------------------------------------------------- misc helpers
@bp.get("/api/contacts")
def contacts():
    return jsonify(results=Q.contact_suggestions(db(), request.args.get("q", "")))


@bp.post("/api/invites/<int:iid>/rsvp")
def rsvp(iid: int):
    body = _json()
    answer = body.get("rsvp")
    if answer not in ("yes", "no", "maybe"):
        raise ApiError("'rsvp' must be yes, no or maybe")
    session = db()
    inv = session.get(Invite, iid)
    if inv is None:
        raise ApiError(f"invite {iid} does not exist", 404)
    inv.rsvp = answer
    session.commit()
    return jsonify(ok=True, rsvp=answer)
