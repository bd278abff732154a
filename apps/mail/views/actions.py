"""JSON endpoints the pages call with fetch: send, drafts, schedule, conversation actions (archive, snooze,
labels, move...), undo, message actions, block, empty Trash/Spam, settings, contacts, RSVP."""

from __future__ import annotations

import datetime as dt
import threading
from typing import Any

from flask import g, jsonify, request
from sqlalchemy import delete, func, select

from apps._shared import db, inputs, now
from apps.mail import formatting as fmt
from apps.mail import queries as Q
from apps.mail.models import (Account, Attachment, BlockedSender, Invite, Label, Message, MessageLabel, Thread)
from apps.mail.views import bp


class ApiError(Exception):
    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


@bp.errorhandler(ApiError)
def _api_error(e: ApiError):
    return jsonify(ok=False, error=str(e)), e.status


def _json() -> dict[str, Any]:
    body = inputs.body()  # malformed JSON, or JSON that is not an object: a 400 saying so
    if not isinstance(body, dict):  # a form post
        raise ApiError("expected a JSON object")
    return body


def _int(v, what: str) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise ApiError(f"'{what}' must be an integer")
    return v


def _ids(body: dict) -> list[int]:
    """The conversations an action applies to: `ids`, or every conversation of the list at `all_path`."""
    if isinstance(body.get("all_path"), str):
        from apps.mail.views.lists import thread_ids_for_path

        ids = thread_ids_for_path(body["all_path"])
        if not ids:
            raise ApiError("no conversations match")
        return ids
    ids = body.get("ids")
    if not isinstance(ids, list) or not ids or not all(isinstance(i, int) and not isinstance(i, bool) for i in ids):
        raise ApiError("'ids' must be a non-empty list of conversation ids")
    return ids


def _plural(n: int, one: str, many: str) -> str:
    return one if n == 1 else many.replace("{n}", f"{n:,}")


def _me(session) -> Account:
    return session.get(Account, 1)


# ------------------------------------------------------------------------------------------- send
# A compose window saves itself while you type; its saves and its final Send can race (two connections).
# Every request of one compose window carries the same `key`: under one lock the server remembers which
# draft that window wrote, so Send converts that draft and a save arriving after Send is refused.
_COMPOSE_LOCK = threading.Lock()
_COMPOSE: dict[tuple[str, str], Any] = {}


def _compose_key(body: dict) -> tuple[str, str] | None:
    key = body.get("key")
    if not isinstance(key, str) or not key or len(key) > 80:
        return None
    return (getattr(g, "uigym_world", ""), key)


def _remember(ck, value) -> None:
    if ck is None:
        return
    _COMPOSE[ck] = value
    if len(_COMPOSE) > 20000:
        for k in list(_COMPOSE)[:5000]:
            _COMPOSE.pop(k, None)


def _draft_for(ck, body: dict):
    """The draft this compose window is writing: the id it knows, else the one the server remembers."""
    did = body.get("draft_id", body.get("id"))
    if isinstance(did, int) and not isinstance(did, bool):
        return did
    state = _COMPOSE.get(ck) if ck else None
    return state if isinstance(state, int) else None


def _addresses(body: dict, strict: bool) -> tuple[list[str], list[str], list[str]]:
    out = []
    for key, field in (("to", "To"), ("cc", "Cc"), ("bcc", "Bcc")):
        raw = body.get(key)
        try:
            out.append(fmt.parse_addresses(raw, field))
        except fmt.AddressError as e:
            if strict:
                raise ApiError(str(e))
            tokens = raw if isinstance(raw, list) else str(raw or "").replace(";", ",").split(",")
            ok = []
            for tok in tokens:
                try:
                    ok += [a for a in fmt.parse_addresses(str(tok), field) if a not in ok]
                except fmt.AddressError:
                    pass
            out.append(ok)
    return out[0], out[1], out[2]


def _draft(session, mid) -> Message | None:
    if not isinstance(mid, int) or isinstance(mid, bool):
        return None
    m = session.get(Message, mid)
    return m if m is not None and m.is_draft and not m.is_trashed else None


def _new_message(session, me: Account, body: dict, *, to, cc, bcc, draft_id=None) -> tuple[Message, Thread]:
    """A new conversation's message (reusing the draft it was written in, when there is one)."""
    subject = str(body.get("subject") or "").strip()
    text = str(body.get("body") or "").replace("\r\n", "\n")
    m = _draft(session, draft_id)
    if m is not None:
        thread = session.get(Thread, m.thread_id)
        thread.subject = subject
    else:
        thread = Thread(subject=subject, category="primary", is_muted=False)
        session.add(thread)
        session.flush()
        m = Message(thread_id=thread.id, from_name=me.name, from_email=me.email, is_read=True, is_starred=False,
                    is_important=False, is_spam=False, is_trashed=False, in_inbox=False, is_sent=False,
                    is_draft=True, sent_at=now())
        session.add(m)
    m.to, m.cc, m.bcc, m.subject, m.body = to, cc, bcc, subject, text
    return m, thread


@bp.post("/api/send")
def send():
    body = _json()
    session = db()
    me = _me(session)
    mode = body.get("mode") or "new"
    if mode not in ("new", "reply", "reply_all", "forward"):
        raise ApiError(f"unknown mode {mode!r}")
    to, cc, bcc = _addresses(body, strict=True)
    if not (to or cc or bcc):
        raise ApiError("Please specify at least one recipient.")
    text = str(body.get("body") or "").replace("\r\n", "\n")
    t = now()
    mine = me.email.lower()
    ck = _compose_key(body)
    if mode == "new":
        with _COMPOSE_LOCK:
            msg, thread = _new_message(session, me, body, to=to, cc=cc, bcc=bcc, draft_id=_draft_for(ck, body))
            msg.in_reply_to_id = None
            _finish_sent(msg, text, mine, to, cc, bcc)
            session.commit()
            _remember(ck, "done")
        return jsonify(ok=True, thread_id=thread.id, message_id=msg.id, toast="Message sent")
    else:
        thread = session.get(Thread, body.get("thread_id")) if isinstance(body.get("thread_id"), int) else None
        if thread is None:
            raise ApiError("that conversation does not exist", 404)
        in_reply_to = None
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
                text = f"{text.rstrip()}\n\n{forward_block(session, src)}" if text.strip() else forward_block(session, src)
        else:
            subject = base if base.lower().startswith("re:") else f"Re: {base}"
        msg = Message(thread_id=thread.id, in_reply_to_id=in_reply_to.id if in_reply_to else None,
                      from_name=me.name, from_email=me.email, subject=subject, body=text,
                      is_starred=False, is_important=False, is_spam=False, is_trashed=False)
        msg.to, msg.cc, msg.bcc = to, cc, bcc
        session.add(msg)
    _finish_sent(msg, text, mine, to, cc, bcc)
    session.commit()
    return jsonify(ok=True, thread_id=thread.id, message_id=msg.id, toast="Message sent")


def _finish_sent(msg: Message, text: str, mine: str, to, cc, bcc) -> None:
    msg.body = text
    msg.sent_at = now()
    msg.is_read = True
    msg.is_sent = True
    msg.is_draft = False
    msg.scheduled_at = None
    msg.in_inbox = mine in to or mine in cc or mine in bcc


def forward_block(session, src: Message) -> str:
    d = Q.Directory(session)
    return (f"---------- Forwarded message ---------\nFrom: {src.from_name} <{src.from_email}>\n"
            f"Date: {fmt.long_date(src.sent_at)}\nSubject: {src.subject}\n"
            f"To: {', '.join(f'{d.name(e)} <{e}>' for e in src.to)}\n\n{src.body}")


# ----------------------------------------------------------------------------------------- drafts
@bp.post("/api/drafts")
def save_draft():
    """Compose saves itself: creates the draft on the first save, updates it after."""
    body = _json()
    session = db()
    me = _me(session)
    to, cc, bcc = _addresses(body, strict=False)
    ck = _compose_key(body)
    with _COMPOSE_LOCK:
        if ck is not None and _COMPOSE.get(ck) == "done":
            raise ApiError("this draft was sent or discarded", 409)
        draft_id = _draft_for(ck, body)
        if draft_id is not None and _draft(session, draft_id) is None:
            raise ApiError("this draft was sent or discarded", 409)
        m, thread = _new_message(session, me, body, to=to, cc=cc, bcc=bcc, draft_id=draft_id)
        m.sent_at = now()
        session.commit()
        _remember(ck, m.id)
    return jsonify(ok=True, id=m.id, thread_id=thread.id)


@bp.get("/api/drafts/<int:mid>")
def get_draft(mid: int):
    m = _draft(db(), mid)
    if m is None:
        raise ApiError("that draft does not exist", 404)
    return jsonify(ok=True, id=m.id, to=m.to, cc=m.cc, bcc=m.bcc, subject=m.subject, body=m.body,
                   names={e: Q.Directory(db()).name(e) for e in [*m.to, *m.cc, *m.bcc]})


def _delete_messages(session, mids: list[int]) -> None:
    if not mids:
        return
    tids = {tid for (tid,) in session.execute(select(Message.thread_id).where(Message.id.in_(mids)))}
    session.execute(delete(MessageLabel).where(MessageLabel.message_id.in_(mids)))
    session.execute(delete(Attachment).where(Attachment.message_id.in_(mids)))
    session.execute(delete(Invite).where(Invite.message_id.in_(mids)))
    session.execute(Message.__table__.update().where(Message.in_reply_to_id.in_(mids)).values(in_reply_to_id=None))
    session.execute(delete(Message).where(Message.id.in_(mids)))
    session.flush()
    for tid in tids:
        if session.scalar(select(Message.id).where(Message.thread_id == tid).limit(1)) is None:
            session.execute(delete(Thread).where(Thread.id == tid))


@bp.post("/api/drafts/<int:mid>/discard")
def discard_draft(mid: int):
    session = db()
    with _COMPOSE_LOCK:
        m = _draft(session, mid)
        if m is None:
            raise ApiError("that draft does not exist", 404)
        _delete_messages(session, [m.id])
        session.commit()
        _remember(_compose_key(request.get_json(silent=True) or {}), "done")
    return jsonify(ok=True, toast="Draft discarded.")


@bp.post("/api/schedule")
def schedule():
    """Schedule send: the message waits in Scheduled (`scheduled_at`) instead of being sent now."""
    body = _json()
    session = db()
    me = _me(session)
    to, cc, bcc = _addresses(body, strict=True)
    if not (to or cc or bcc):
        raise ApiError("Please specify at least one recipient.")
    try:
        when = dt.datetime.fromisoformat(str(body.get("at") or ""))
    except ValueError:
        raise ApiError("'at' must be an ISO date-time")
    when = when.replace(second=0, microsecond=0, tzinfo=None)
    if when <= now():
        raise ApiError("Scheduled time must be in the future.")
    ck = _compose_key(body)
    with _COMPOSE_LOCK:
        m, thread = _new_message(session, me, body, to=to, cc=cc, bcc=bcc, draft_id=_draft_for(ck, body))
        m.is_draft, m.is_sent, m.scheduled_at, m.sent_at, m.in_reply_to_id = False, False, when, when, None
        m.in_inbox = False
        session.commit()
        _remember(ck, "done")
    return jsonify(ok=True, thread_id=thread.id, message_id=m.id,
                   toast=f"Send scheduled for {fmt.DAY_ABBR[when.weekday()]}, {fmt.month_day_time(when)}")


@bp.get("/api/threads/<int:tid>/scheduled")
def thread_scheduled(tid: int):
    m = db().scalar(select(Message).where(Message.thread_id == tid, Message.scheduled_at.is_not(None),
                                          Message.is_draft.is_(False)).limit(1))
    if m is None:
        raise ApiError("nothing scheduled in that conversation", 404)
    return jsonify(ok=True, message_id=m.id)


@bp.post("/api/scheduled/<int:mid>/cancel")
def cancel_scheduled(mid: int):
    """Cancel send: the scheduled message goes back to Drafts (and opens in compose)."""
    session = db()
    m = session.get(Message, mid)
    if m is None or m.scheduled_at is None or m.is_draft:
        raise ApiError("that message is not scheduled", 404)
    m.scheduled_at, m.is_draft, m.sent_at = None, True, now()
    session.commit()
    return jsonify(ok=True, draft_id=m.id, toast="Sending cancelled.")


# ------------------------------------------------------------------------------ conversation actions
def _thread_msgs(session, tid: int, include_trashed: bool = False) -> list[Message]:
    q = select(Message).where(Message.thread_id == tid, Message.is_draft.is_(False), Message.scheduled_at.is_(None))
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


UNDO_FIELDS = ("in_inbox", "is_trashed", "trashed_at", "is_spam", "is_read", "snoozed_until", "is_important",
               "is_starred")
DATE_FIELDS = {"trashed_at", "snoozed_until"}


def _snapshot(m: Message) -> dict[str, Any]:
    out: dict[str, Any] = {"id": m.id}
    for k in UNDO_FIELDS:
        v = getattr(m, k)
        out[k] = v.isoformat() if k in DATE_FIELDS and v else v
    return out


def _label_name(session, lid: int) -> str:
    cache = session.info.setdefault("inkbox_label_paths", {})
    if lid not in cache:
        cache.clear()
        cache.update({lab.id: path for lab, _d, path in Q.labels_tree(session)})
    if lid not in cache:
        raise ApiError(f"label {lid} does not exist", 404)
    return cache[lid]


class Undo:
    def __init__(self):
        self.changes: list[dict] = []
        self.added: list[list[int]] = []
        self.removed: list[list[int]] = []
        self.threads: list[dict] = []
        self._seen: set[int] = set()

    def snap(self, msgs: list[Message]) -> None:
        for m in msgs:
            if m.id not in self._seen:
                self._seen.add(m.id)
                self.changes.append(_snapshot(m))

    def payload(self) -> dict:
        return {"changes": self.changes, "labels_added": self.added, "labels_removed": self.removed,
                "threads": self.threads}


def _add_label(session, msgs: list[Message], lid: int, undo: Undo) -> None:
    have = {mid for (mid,) in session.execute(select(MessageLabel.message_id).where(
        MessageLabel.label_id == lid, MessageLabel.message_id.in_([m.id for m in msgs])))}
    for m in msgs:
        if m.id not in have:
            session.add(MessageLabel(message_id=m.id, label_id=lid))
            undo.added.append([m.id, lid])


def _remove_label(session, msgs: list[Message], lid: int, undo: Undo) -> None:
    rows = list(session.scalars(select(MessageLabel).where(MessageLabel.label_id == lid,
                                                           MessageLabel.message_id.in_([m.id for m in msgs]))))
    for r in rows:
        undo.removed.append([r.message_id, lid])
        session.delete(r)


def _snooze_time(body: dict) -> dt.datetime:
    try:
        t = dt.datetime.fromisoformat(str(body.get("until") or ""))
    except ValueError:
        raise ApiError("'until' must be an ISO date-time")
    t = t.replace(second=0, microsecond=0, tzinfo=None)
    if t <= now():
        raise ApiError("Snooze time must be in the future.")
    return t


def apply_action(session, action: str, ids: list[int], body: dict | None = None) -> tuple[str, dict]:
    body = body or {}
    session.info.pop("inkbox_label_paths", None)
    t = now()
    undo = Undo()
    n = len(ids)
    if action == "delete_forever":
        mids = []
        for tid in ids:
            msgs = _thread_msgs(session, tid, include_trashed=True)
            mids += [m.id for m in msgs if m.is_trashed or m.is_spam] or [m.id for m in msgs]
        _delete_messages(session, mids)
        session.commit()
        return _plural(n, "Conversation deleted forever.", "{n} conversations deleted forever."), {}
    toast = None
    for tid in ids:
        include_trashed = action in ("move_to_inbox", "mark_read", "mark_unread") or (action == "move" and body.get("target") == "inbox")
        msgs = _thread_msgs(session, tid, include_trashed=include_trashed)
        undo.snap(msgs)
        received = [m for m in msgs if not m.is_sent] or msgs
        if action == "archive":
            for m in msgs:
                m.in_inbox = False
        elif action == "trash":
            for m in msgs:
                m.is_trashed, m.trashed_at, m.in_inbox = True, t, False
        elif action == "move_to_inbox" or (action == "move" and body.get("target") == "inbox"):
            for m in msgs:
                if m.is_trashed:
                    m.is_trashed, m.trashed_at = False, None
                m.is_spam = False
            for m in received:
                m.in_inbox = True
        elif action == "spam" or (action == "move" and body.get("target") == "spam"):
            for m in msgs:
                m.is_spam, m.in_inbox = True, False
        elif action == "not_spam":
            for m in msgs:
                m.is_spam = False
            for m in received:
                m.in_inbox = True
        elif action == "mark_read":
            for m in msgs:
                m.is_read = True
        elif action == "mark_unread":
            for m in msgs:
                m.is_read = False
        elif action == "snooze":
            until = _snooze_time(body)
            for m in msgs:
                m.snoozed_until = until
            if not any(m.in_inbox for m in msgs):
                received[-1].in_inbox = True
            toast = _plural(n, "Conversation snoozed until {when}.", "{n} conversations snoozed until {when}.").replace(
                "{when}", f"{fmt.DAY_ABBR[until.weekday()]}, {fmt.month_day_time(until)}")
        elif action == "unsnooze":
            for m in msgs:
                m.snoozed_until = None
        elif action in ("important", "not_important"):
            for m in msgs:
                m.is_important = action == "important"
        elif action == "star":
            if not any(m.is_starred for m in msgs):
                msgs[-1].is_starred = True
        elif action == "unstar":
            for m in msgs:
                m.is_starred = False
        elif action in ("mute", "unmute"):
            th = session.get(Thread, tid)
            undo.threads.append({"id": tid, "is_muted": th.is_muted, "category": th.category})
            th.is_muted = action == "mute"
            if action == "mute":
                for m in msgs:
                    m.in_inbox = False
        elif action == "label":
            add = body.get("add") or []
            remove = body.get("remove") or []
            if not isinstance(add, list) or not isinstance(remove, list) or not (add or remove):
                raise ApiError("'add' / 'remove' must list label ids")
            live = [m for m in msgs if not m.is_trashed] or msgs
            for lid in add:
                _label_name(session, _int(lid, "add"))
                _add_label(session, live, lid, undo)
            for lid in remove:
                _remove_label(session, msgs, _int(lid, "remove"), undo)
            if len(add) == 1 and not remove:
                toast = _plural(n, 'Conversation added to "{lab}".', '{n} conversations added to "{lab}".').replace(
                    "{lab}", _label_name(session, add[0]))
            elif len(remove) == 1 and not add:
                toast = _plural(n, 'Conversation removed from "{lab}".', '{n} conversations removed from "{lab}".').replace(
                    "{lab}", _label_name(session, remove[0]))
            else:
                toast = _plural(n, "Labels changed for 1 conversation.", "Labels changed for {n} conversations.")
        elif action == "move":
            target = str(body.get("target") or "")
            if target == "trash":
                for m in msgs:
                    m.is_trashed, m.trashed_at, m.in_inbox = True, t, False
            elif target.startswith("label:"):
                lid = _int(int(target[6:]) if target[6:].isdecimal() else None, "target")
                live = [m for m in msgs if not m.is_trashed] or msgs
                for m in msgs:
                    if m.is_trashed:
                        m.is_trashed, m.trashed_at = False, None
                    m.is_spam = False
                    m.in_inbox = False
                _add_label(session, live, lid, undo)
                frm = body.get("from_label_id")
                if isinstance(frm, int) and frm != lid:
                    _remove_label(session, msgs, frm, undo)
                toast = _plural(n, 'Conversation moved to "{lab}".', '{n} conversations moved to "{lab}".').replace(
                    "{lab}", _label_name(session, lid))
            elif target.startswith("category:") and target[9:] in {k for k, _, _ in Q.CATEGORIES}:
                th = session.get(Thread, tid)
                undo.threads.append({"id": tid, "is_muted": th.is_muted, "category": th.category})
                th.category = target[9:]
                toast = _plural(n, 'Conversation moved to "{c}".', '{n} conversations moved to "{c}".').replace(
                    "{c}", dict((k, lbl) for k, lbl, _ in Q.CATEGORIES)[target[9:]])
            elif target not in ("inbox", "spam"):
                raise ApiError(f"unknown move target {target!r}")
        else:
            raise ApiError(f"unknown action {action!r}")
    session.commit()
    if toast is None:
        key = body.get("target") if action == "move" else action
        toast = {
            "archive": _plural(n, "Conversation archived.", "{n} conversations archived."),
            "trash": _plural(n, "Conversation moved to Trash.", "{n} conversations moved to Trash."),
            "inbox": _plural(n, "Conversation moved to Inbox.", "{n} conversations moved to Inbox."),
            "move_to_inbox": _plural(n, "Conversation moved to Inbox.", "{n} conversations moved to Inbox."),
            "spam": _plural(n, "Conversation marked as spam.", "{n} conversations marked as spam."),
            "not_spam": _plural(n, "Conversation unmarked as spam.", "{n} conversations unmarked as spam."),
            "mark_read": _plural(n, "Conversation marked as read.", "{n} conversations marked as read."),
            "mark_unread": _plural(n, "Conversation marked as unread.", "{n} conversations marked as unread."),
            "unsnooze": _plural(n, "Conversation unsnoozed.", "{n} conversations unsnoozed."),
            "important": _plural(n, "Conversation marked as important.", "{n} conversations marked as important."),
            "not_important": _plural(n, "Conversation marked as not important.",
                                     "{n} conversations marked as not important."),
            "star": _plural(n, "Conversation starred.", "{n} conversations starred."),
            "unstar": _plural(n, "Star removed.", "Stars removed from {n} conversations."),
            "mute": _plural(n, "Conversation muted.", "{n} conversations muted."),
            "unmute": _plural(n, "Conversation unmuted.", "{n} conversations unmuted."),
        }.get(key, "Done.")
    return toast, undo.payload()


@bp.post("/api/threads/action")
def thread_action():
    body = _json()
    action = body.get("action")
    if not isinstance(action, str):
        raise ApiError("'action' is required")
    toast, undo = apply_action(db(), action, _ids(body), body)
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
    """Restore what an action changed (the toast's Undo): message flags, label links, thread fields."""
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
                if k in DATE_FIELDS:
                    v = dt.datetime.fromisoformat(v) if v else None
                elif not isinstance(v, bool):
                    raise ApiError(f"'{k}' must be true or false")
                setattr(m, k, v)
    for mid, lid in body.get("labels_added") or []:
        session.execute(delete(MessageLabel).where(MessageLabel.message_id == mid, MessageLabel.label_id == lid))
    for mid, lid in body.get("labels_removed") or []:
        if session.get(Message, mid) is not None and session.get(Label, lid) is not None:
            session.add(MessageLabel(message_id=mid, label_id=lid))
    for th in body.get("threads") or []:
        row = session.get(Thread, th.get("id")) if isinstance(th, dict) else None
        if row is not None:
            row.is_muted = bool(th.get("is_muted"))
            if th.get("category") in {k for k, _, _ in Q.CATEGORIES} | {"forums"}:
                row.category = th["category"]
    session.commit()
    return jsonify(ok=True, toast="Action undone.")


# -------------------------------------------------------------------------------- message actions
@bp.post("/api/messages/<int:mid>/trash")
def trash_message(mid: int):
    """'Delete this message' (one message of a conversation)."""
    session = db()
    m = session.get(Message, mid)
    if m is None:
        raise ApiError(f"message {mid} does not exist", 404)
    m.is_trashed, m.trashed_at, m.in_inbox = True, now(), False
    session.commit()
    left = session.scalar(select(func.count(Message.id)).where(Message.thread_id == m.thread_id,
                                                               Message.is_trashed.is_(False),
                                                               Message.is_draft.is_(False)))
    return jsonify(ok=True, toast="Message moved to Trash.", thread_empty=not left)


@bp.post("/api/messages/<int:mid>/unread_from_here")
def unread_from_here(mid: int):
    session = db()
    m = session.get(Message, mid)
    if m is None:
        raise ApiError(f"message {mid} does not exist", 404)
    for x in _thread_msgs(session, m.thread_id):
        if (x.sent_at, x.id) >= (m.sent_at, m.id):
            x.is_read = False
    session.commit()
    return jsonify(ok=True, toast="Marked as unread.")


@bp.post("/api/block")
def block():
    body = _json()
    email = str(body.get("email") or "").strip().lower()
    if not fmt.EMAIL_RE.match(email):
        raise ApiError("a valid 'email' is required")
    session = db()
    if session.scalar(select(BlockedSender.id).where(func.lower(BlockedSender.email) == email)) is None:
        session.add(BlockedSender(email=email, blocked_at=now()))
    session.commit()
    return jsonify(ok=True, toast=f"You have blocked {email}")


@bp.post("/api/unblock")
def unblock():
    body = _json()
    session = db()
    q = delete(BlockedSender)
    if isinstance(body.get("id"), int):
        q = q.where(BlockedSender.id == body["id"])
    else:
        q = q.where(func.lower(BlockedSender.email) == str(body.get("email") or "").strip().lower())
    n = session.execute(q).rowcount
    session.commit()
    if not n:
        raise ApiError("that address is not blocked", 404)
    return jsonify(ok=True, toast="Address unblocked.")


@bp.post("/api/empty")
def empty_folder():
    """'Empty Trash now' / 'Delete all spam messages now'."""
    body = _json()
    folder = body.get("folder")
    session = db()
    if folder == "trash":
        mids = [i for (i,) in session.execute(select(Message.id).where(Message.is_trashed.is_(True)))]
    elif folder == "spam":
        mids = [i for (i,) in session.execute(select(Message.id).where(Message.is_spam.is_(True),
                                                                       Message.is_trashed.is_(False)))]
    else:
        raise ApiError("'folder' must be trash or spam")
    n = len({tid for (tid,) in session.execute(select(Message.thread_id).where(Message.id.in_(mids)))}) if mids else 0
    _delete_messages(session, mids)
    session.commit()
    return jsonify(ok=True, toast=_plural(n, "1 conversation deleted forever.", "{n} conversations deleted forever."))


# ------------------------------------------------------------------------------------- misc helpers
@bp.get("/api/contacts")
def contacts_suggest():
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
