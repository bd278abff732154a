"""JSON endpoints the pages call with fetch: send, drafts, schedule, conversation actions (archive, snooze,
labels, move...), undo, message actions, block, empty Trash/Spam, settings, contacts, RSVP.

The rules live in apps/mail/services/ (shared with the tools); these views read the request, call a service in
one transaction (apps/_shared/actions.py `perform`: committed when it returns, rolled back when it refuses, the
refusal answered by `_api_error`), and answer with the toast the page shows."""

from __future__ import annotations

import datetime as dt
import threading
import time
from typing import Any

from apps._shared.i18n import gettext
from flask import g, jsonify, request
from sqlalchemy import delete, select

from apps._shared import db, inputs
from apps._shared.actions import perform
from apps.mail import formatting as fmt
from apps.mail import queries as Q
from apps.mail.models import Label, Message, MessageLabel, Thread
from apps.mail.services import compose as C
from apps.mail.services import conversations as S
from apps.mail.services import files as FS

from apps.mail.services.conversations import DATE_FIELDS, UNDO_FIELDS, apply_action  # noqa: F401
from apps._shared.looks import say
from apps.mail.services.errors import ServiceError, plural as _plural
from apps.mail.views.blueprint import bp

ApiError = ServiceError  # a refused operation: the JSON error with its status


@bp.errorhandler(ServiceError)
def _api_error(e: ServiceError):
    return jsonify(ok=False, error=say(str(e))), e.status  # in the look's words (AppSpec.look_words)


def _json() -> dict[str, Any]:
    body = inputs.body()  # malformed JSON, or JSON that is not an object: a 400 saying so
    if not isinstance(body, dict):  # a form post
        raise ApiError("expected a JSON object")
    return body


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


def _letter(body: dict) -> dict:
    return {k: body.get(k) for k in ("to", "cc", "bcc", "subject", "body", "body_html")}


@bp.post("/api/send")
def send():
    body = _json()
    session = db()
    mode = body.get("mode") or "new"
    if mode == "new":
        ck = _compose_key(body)
        with _COMPOSE_LOCK:  # committed before the lock is let go: a save racing this Send finds "done"
            msg, thread = perform(C.send, session, mode="new", **_letter(body), draft_id=_draft_for(ck, body),
                                  file_ids=body.get("file_ids"))
            _remember(ck, "done")
    else:
        msg, thread = perform(C.send, session, mode=mode, **_letter(body), thread_id=body.get("thread_id"),
                              in_reply_to_id=body.get("in_reply_to_id"), file_ids=body.get("file_ids"),
                              forward_attachment_ids=body.get("forward_attachment_ids"))
    _SENT_AT[(getattr(g, "uigym_world", ""), msg.id)] = time.monotonic()
    if len(_SENT_AT) > 5000:
        for k in list(_SENT_AT)[:1000]:
            _SENT_AT.pop(k, None)
    acct = C.me(session)
    return jsonify(ok=True, thread_id=thread.id, message_id=msg.id, toast=gettext("Message sent"),
                   undo_seconds=acct.undo_send_seconds)


# Undo Send: the page shows Undo for the account's send cancellation period; the server holds it that long too
# (plus a little for the click's round trip). Wall-clock time of one browser window, so it lives here, not in
# the service (which only lets my latest message sent now be taken back).
_SENT_AT: dict[tuple[str, int], float] = {}
UNDO_GRACE_S = 3.0


@bp.post("/api/messages/<int:mid>/undo_send")
def undo_send(mid: int):
    session = db()
    sent = _SENT_AT.get((getattr(g, "uigym_world", ""), mid))
    if sent is None or time.monotonic() - sent > C.me(session).undo_send_seconds + UNDO_GRACE_S:
        raise ApiError("This message has already been sent.", 409)
    out = perform(C.undo_send, session, mid)
    _SENT_AT.pop((getattr(g, "uigym_world", ""), mid), None)
    return jsonify(ok=True, toast=gettext("Sending undone."), **out)


# ----------------------------------------------------------------------------------------- drafts
@bp.post("/api/drafts")
def save_draft():
    """Compose saves itself: creates the draft on the first save, updates it after."""
    body = _json()
    session = db()
    ck = _compose_key(body)
    with _COMPOSE_LOCK:
        if ck is not None and _COMPOSE.get(ck) == "done":
            raise ApiError("this draft was sent or discarded", 409)
        m, thread = perform(C.save_draft, session, **_letter(body), draft_id=_draft_for(ck, body),
                            file_ids=body.get("file_ids"))  # committed under the lock, as Send
        _remember(ck, m.id)
    return jsonify(ok=True, id=m.id, thread_id=thread.id, attachments=_chips(FS.attachments_of(session, m.id)))


def _chips(atts) -> list[dict]:
    return [{**FS.attachment_dict(a), "size_label": FS.size_label(a.size)} for a in atts]


@bp.get("/api/drafts/<int:mid>")
def get_draft(mid: int):
    m = C.draft(db(), mid)
    if m is None:
        raise ApiError("that draft does not exist", 404)
    return jsonify(ok=True, id=m.id, to=m.to, cc=m.cc, bcc=m.bcc, subject=m.subject, body=m.body,
                   body_html=m.body_html, names={e: Q.Directory(db()).name(e) for e in [*m.to, *m.cc, *m.bcc]},
                   attachments=_chips(FS.attachments_of(db(), m.id)))


@bp.post("/api/drafts/<int:mid>/attachments/<int:aid>/remove")
def remove_draft_attachment(mid: int, aid: int):
    """The x on an attachment chip in compose."""
    session = db()
    perform(C.remove_attachment, session, mid, aid)
    return jsonify(ok=True, attachments=_chips(FS.attachments_of(session, mid)))


# ------------------------------------------------------------------------------------------ files
@bp.get("/api/files")
def list_files():
    """My files for the "Insert from Files" picker (`q` filters by name)."""
    q = request.args.get("q", "")[:200]
    return jsonify(ok=True, files=[{**FS.file_dict(f), "size_label": FS.size_label(f.size)}
                                   for f in FS.list_files(db(), q)])


@bp.post("/api/files")
def upload_file():
    """A file picked on the computer (the paperclip): its name, size and type join my files (the bytes stay
    on the computer; downloads are generated, as for every attachment here)."""
    body = _json()
    session = db()
    f = perform(FS.upload, session, body.get("name"), body.get("size"), body.get("mime"))
    return jsonify(ok=True, file={**FS.file_dict(f), "size_label": FS.size_label(f.size)})


@bp.post("/api/drafts/<int:mid>/discard")
def discard_draft(mid: int):
    session = db()
    with _COMPOSE_LOCK:  # committed under the lock, as Send
        perform(C.discard_draft, session, mid)
        _remember(_compose_key(request.get_json(silent=True) or {}), "done")
    return jsonify(ok=True, toast=gettext("Draft discarded."))


@bp.post("/api/schedule")
def schedule():
    """Schedule send: the message waits in Scheduled (`scheduled_at`) instead of being sent now."""
    body = _json()
    session = db()
    ck = _compose_key(body)
    with _COMPOSE_LOCK:
        m, thread, when = perform(C.schedule, session, at=body.get("at"), **_letter(body),
                                  draft_id=_draft_for(ck, body))  # committed under the lock, as Send
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
    m = perform(C.cancel_scheduled, session, mid)
    return jsonify(ok=True, draft_id=m.id, toast=gettext("Sending cancelled."))


# ------------------------------------------------------------------------------ conversation actions
def _flag(body: dict, key: str) -> bool:
    v = body.get(key)
    if not isinstance(v, bool):
        raise ApiError(f"'{key}' must be true or false")
    return v


@bp.post("/api/threads/<int:tid>/star")
def star_thread(tid: int):
    """Starring a conversation stars its latest message; unstarring clears every star in it (Gmail)."""
    session = db()
    starred = perform(S.star_thread, session, tid, _flag(_json(), "starred"))
    return jsonify(ok=True, starred=starred)


@bp.post("/api/messages/<int:mid>/star")
def star_message(mid: int):
    session = db()
    on = _flag(_json(), "starred")
    starred = perform(S.star_message, session, mid, on)
    return jsonify(ok=True, starred=starred)


@bp.post("/api/threads/<int:tid>/important")
def important_thread(tid: int):
    session = db()
    on = _flag(_json(), "important")
    perform(S.set_important, session, tid, on)
    return jsonify(ok=True, important=on)


@bp.post("/api/threads/action")
def thread_action():
    body = _json()
    action = body.get("action")
    if not isinstance(action, str):
        raise ApiError("'action' is required")
    session = db()
    toast, undo = perform(apply_action, session, action, _ids(body), body)
    return jsonify(ok=True, toast=toast, undo=undo)


@bp.post("/api/mark_all_read")
def mark_all_read():
    """'Mark all as read' from the toolbar's More menu: every conversation of the current view."""
    from apps.mail.views.lists import conds_for_path

    body = _json()
    session = db()
    n = perform(S.mark_read_where, session, conds_for_path(str(body.get("path") or "/inbox")))
    return jsonify(ok=True, toast=_plural(n, "Conversation marked as read.", "{n} conversations marked as read."))


@bp.post("/api/undo")
def undo():
    """Restore what an action changed (the toast's Undo): message flags, label links, thread fields."""
    body = _json()
    changes = body.get("changes")
    if not isinstance(changes, list):
        raise ApiError("'changes' must be a list")
    perform(_restore, db(), changes, body)
    return jsonify(ok=True, toast=gettext("Action undone."))


def _restore(session, changes: list, body: dict) -> None:
    """Undo's writes: a change refused half-way (ApiError) leaves nothing written."""
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


# -------------------------------------------------------------------------------- message actions
@bp.post("/api/messages/<int:mid>/trash")
def trash_message(mid: int):
    """'Delete this message' (one message of a conversation)."""
    session = db()
    empty = perform(S.trash_message, session, mid)
    return jsonify(ok=True, toast=gettext("Message moved to Trash."), thread_empty=empty)


@bp.post("/api/messages/<int:mid>/unread_from_here")
def unread_from_here(mid: int):
    session = db()
    perform(S.unread_from_here, session, mid)
    return jsonify(ok=True, toast=gettext("Marked as unread."))


@bp.post("/api/block")
def block():
    body = _json()
    session = db()
    email = perform(S.block, session, body.get("email"))
    return jsonify(ok=True, toast=f"You have blocked {email}")


@bp.post("/api/unblock")
def unblock():
    body = _json()
    session = db()
    if isinstance(body.get("id"), int):
        perform(S.unblock, session, block_id=body["id"])
    else:
        perform(S.unblock, session, email=body.get("email"))
    return jsonify(ok=True, toast=gettext("Address unblocked."))


@bp.post("/api/empty")
def empty_folder():
    """'Empty Trash now' / 'Delete all spam messages now'."""
    body = _json()
    session = db()
    n = perform(S.empty_folder, session, body.get("folder"))
    return jsonify(ok=True, toast=_plural(n, "1 conversation deleted forever.", "{n} conversations deleted forever."))


# ------------------------------------------------------------------------------------- misc helpers
@bp.get("/api/contacts")
def contacts_suggest():
    return jsonify(results=Q.contact_suggestions(db(), request.args.get("q", "")))


@bp.post("/api/invites/<int:iid>/rsvp")
def rsvp(iid: int):
    body = _json()
    session = db()
    answer = perform(S.rsvp, session, iid, body.get("rsvp"))
    return jsonify(ok=True, rsvp=answer)
