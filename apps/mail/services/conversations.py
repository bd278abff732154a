"""What a user does to conversations and messages: archive, delete, spam, read state, stars, importance,
snooze, labels, move, mute (one `apply_action` for the toolbar's actions, as the UI sends them), and the
message menu's actions, blocking, emptying Trash/Spam and answering invites. Never commits."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import delete, func, select

from apps._shared import now
from apps.mail import formatting as fmt
from apps.mail import queries as Q
from apps.mail.models import Attachment, BlockedSender, Invite, Label, Message, MessageLabel, Thread
from apps.mail.services.errors import ServiceError, plural

ACTIONS = ("archive", "trash", "move_to_inbox", "spam", "not_spam", "mark_read", "mark_unread", "snooze", "unsnooze",
           "important", "not_important", "star", "unstar", "mute", "unmute", "label", "move", "delete_forever")
UNDO_FIELDS = ("in_inbox", "is_trashed", "trashed_at", "is_spam", "is_read", "snoozed_until", "is_important",
               "is_starred")
DATE_FIELDS = {"trashed_at", "snoozed_until"}


def as_int(v, what: str) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise ServiceError(f"'{what}' must be an integer")
    return v


def thread_msgs(session, tid: int, include_trashed: bool = False) -> list[Message]:
    """A conversation's received and sent messages (not drafts, not scheduled), live ones unless only
    trashed/spam ones are left or `include_trashed`."""
    q = select(Message).where(Message.thread_id == tid, Message.is_draft.is_(False), Message.scheduled_at.is_(None))
    if not include_trashed:
        q = q.where(Message.is_trashed.is_(False))
    msgs = list(session.scalars(q.order_by(Message.sent_at, Message.id)))
    if not msgs and not include_trashed:
        return thread_msgs(session, tid, include_trashed=True)
    if not msgs:
        raise ServiceError(f"conversation {tid} does not exist", 404)
    return msgs


def message(session, mid: int) -> Message:
    m = session.get(Message, mid)
    if m is None:
        raise ServiceError(f"message {mid} does not exist", 404)
    return m


def _snapshot(m: Message) -> dict[str, Any]:
    out: dict[str, Any] = {"id": m.id}
    for k in UNDO_FIELDS:
        v = getattr(m, k)
        out[k] = v.isoformat() if k in DATE_FIELDS and v else v
    return out


def label_name(session, lid: int) -> str:
    """A label's path ("Work/Clients"); a ServiceError when there is no such label."""
    cache = session.info.setdefault("inkbox_label_paths", {})
    if lid not in cache:
        cache.clear()
        cache.update({lab.id: path for lab, _d, path in Q.labels_tree(session)})
    if lid not in cache:
        raise ServiceError(f"label {lid} does not exist", 404)
    return cache[lid]


class Undo:
    """What an action changed, so the toast's Undo can put it back."""

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


def future_time(value: Any, what: str, past_error: str) -> dt.datetime:
    """A user-picked time (ISO), to the minute, strictly after the world's now."""
    try:
        t = dt.datetime.fromisoformat(str(value or ""))
    except ValueError:
        raise ServiceError(f"'{what}' must be an ISO date-time") from None
    t = t.replace(second=0, microsecond=0, tzinfo=None)
    if t <= now():
        raise ServiceError(past_error)
    return t


def delete_messages(session, mids: list[int]) -> None:
    """Delete forever: the rows and what hangs on them; a conversation left empty goes too."""
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


def apply_action(session, action: str, ids: list[int], body: dict | None = None) -> tuple[str, dict]:
    """One toolbar action over conversations `ids`; returns (toast, undo payload). `body` carries the
    action's options: `until` (snooze), `add`/`remove` (label ids), `target` (move: inbox, spam, trash,
    label:<id>, category:<key>) and `from_label_id` (move out of the label being viewed)."""
    body = body or {}
    session.info.pop("inkbox_label_paths", None)
    t = now()
    undo = Undo()
    n = len(ids)
    if action == "delete_forever":
        mids = []
        for tid in ids:
            msgs = thread_msgs(session, tid, include_trashed=True)
            mids += [m.id for m in msgs if m.is_trashed or m.is_spam] or [m.id for m in msgs]
        delete_messages(session, mids)
        return plural(n, "Conversation deleted forever.", "{n} conversations deleted forever."), {}
    toast = None
    for tid in ids:
        include_trashed = action in ("move_to_inbox", "mark_read", "mark_unread") or (action == "move" and body.get("target") == "inbox")
        msgs = thread_msgs(session, tid, include_trashed=include_trashed)
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
            until = future_time(body.get("until"), "until", "Snooze time must be in the future.")
            for m in msgs:
                m.snoozed_until = until
            if not any(m.in_inbox for m in msgs):
                received[-1].in_inbox = True
            toast = plural(n, "Conversation snoozed until {when}.", "{n} conversations snoozed until {when}.").replace(
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
                raise ServiceError("'add' / 'remove' must list label ids")
            live = [m for m in msgs if not m.is_trashed] or msgs
            for lid in add:
                label_name(session, as_int(lid, "add"))
                _add_label(session, live, lid, undo)
            for lid in remove:
                _remove_label(session, msgs, as_int(lid, "remove"), undo)
            if len(add) == 1 and not remove:
                toast = plural(n, 'Conversation added to "{lab}".', '{n} conversations added to "{lab}".').replace(
                    "{lab}", label_name(session, add[0]))
            elif len(remove) == 1 and not add:
                toast = plural(n, 'Conversation removed from "{lab}".', '{n} conversations removed from "{lab}".').replace(
                    "{lab}", label_name(session, remove[0]))
            else:
                toast = plural(n, "Labels changed for 1 conversation.", "Labels changed for {n} conversations.")
        elif action == "move":
            target = str(body.get("target") or "")
            if target == "trash":
                for m in msgs:
                    m.is_trashed, m.trashed_at, m.in_inbox = True, t, False
            elif target.startswith("label:"):
                lid = as_int(int(target[6:]) if target[6:].isdecimal() else None, "target")
                label_name(session, lid)  # an unknown label is refused before anything moves
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
                toast = plural(n, 'Conversation moved to "{lab}".', '{n} conversations moved to "{lab}".').replace(
                    "{lab}", label_name(session, lid))
            elif target.startswith("category:") and target[9:] in {k for k, _, _ in Q.CATEGORIES}:
                th = session.get(Thread, tid)
                undo.threads.append({"id": tid, "is_muted": th.is_muted, "category": th.category})
                th.category = target[9:]
                toast = plural(n, 'Conversation moved to "{c}".', '{n} conversations moved to "{c}".').replace(
                    "{c}", dict((k, lbl) for k, lbl, _ in Q.CATEGORIES)[target[9:]])
            elif target not in ("inbox", "spam"):
                raise ServiceError(f"unknown move target {target!r}")
        else:
            raise ServiceError(f"unknown action {action!r}")
    session.flush()
    if toast is None:
        key = body.get("target") if action == "move" else action
        toast = {
            "archive": plural(n, "Conversation archived.", "{n} conversations archived."),
            "trash": plural(n, "Conversation moved to Trash.", "{n} conversations moved to Trash."),
            "inbox": plural(n, "Conversation moved to Inbox.", "{n} conversations moved to Inbox."),
            "move_to_inbox": plural(n, "Conversation moved to Inbox.", "{n} conversations moved to Inbox."),
            "spam": plural(n, "Conversation marked as spam.", "{n} conversations marked as spam."),
            "not_spam": plural(n, "Conversation unmarked as spam.", "{n} conversations unmarked as spam."),
            "mark_read": plural(n, "Conversation marked as read.", "{n} conversations marked as read."),
            "mark_unread": plural(n, "Conversation marked as unread.", "{n} conversations marked as unread."),
            "unsnooze": plural(n, "Conversation unsnoozed.", "{n} conversations unsnoozed."),
            "important": plural(n, "Conversation marked as important.", "{n} conversations marked as important."),
            "not_important": plural(n, "Conversation marked as not important.",
                                    "{n} conversations marked as not important."),
            "star": plural(n, "Conversation starred.", "{n} conversations starred."),
            "unstar": plural(n, "Star removed.", "Stars removed from {n} conversations."),
            "mute": plural(n, "Conversation muted.", "{n} conversations muted."),
            "unmute": plural(n, "Conversation unmuted.", "{n} conversations unmuted."),
        }.get(key, "Done.")
    return toast, undo.payload()


def star_thread(session, tid: int, on: bool) -> bool:
    """Starring a conversation stars its latest message; unstarring clears every star in it (Gmail)."""
    msgs = thread_msgs(session, tid)
    if on:
        if not any(m.is_starred for m in msgs):
            msgs[-1].is_starred = True
    else:
        for m in msgs:
            m.is_starred = False
    return any(m.is_starred for m in msgs)


def star_message(session, mid: int, on: bool) -> bool:
    m = message(session, mid)
    m.is_starred = on
    return m.is_starred


def set_important(session, tid: int, on: bool) -> None:
    for m in thread_msgs(session, tid):
        m.is_important = on


def mark_read_where(session, conds: list) -> int:
    """'Mark all as read': every conversation with an unread message matching `conds`; returns how many."""
    msgs = list(session.scalars(select(Message).where(*conds, Message.is_read.is_(False))))
    tids = {m.thread_id for m in msgs}
    if tids:
        for m in session.scalars(select(Message).where(Message.thread_id.in_(tids), Message.is_read.is_(False))):
            m.is_read = True
    return len(tids)


def trash_message(session, mid: int) -> bool:
    """'Delete this message' (one message of a conversation); True when the conversation has no live message left."""
    m = message(session, mid)
    m.is_trashed, m.trashed_at, m.in_inbox = True, now(), False
    session.flush()
    left = session.scalar(select(func.count(Message.id)).where(Message.thread_id == m.thread_id,
                                                               Message.is_trashed.is_(False),
                                                               Message.is_draft.is_(False)))
    return not left


def unread_from_here(session, mid: int) -> None:
    m = message(session, mid)
    for x in thread_msgs(session, m.thread_id):
        if (x.sent_at, x.id) >= (m.sent_at, m.id):
            x.is_read = False


def block(session, email: str) -> str:
    """Block a sender (their future mail goes to Spam); blocking twice is one row."""
    email = str(email or "").strip().lower()
    if not fmt.is_email(email):
        raise ServiceError("a valid 'email' is required")
    if session.scalar(select(BlockedSender.id).where(func.lower(BlockedSender.email) == email)) is None:
        session.add(BlockedSender(email=email, blocked_at=now()))
    return email


def unblock(session, *, block_id: int | None = None, email: str | None = None) -> None:
    q = delete(BlockedSender)
    if block_id is not None:
        q = q.where(BlockedSender.id == block_id)
    else:
        q = q.where(func.lower(BlockedSender.email) == str(email or "").strip().lower())
    if not session.execute(q).rowcount:
        raise ServiceError("that address is not blocked", 404)


def empty_folder(session, folder: str) -> int:
    """'Empty Trash now' / 'Delete all spam messages now'; returns how many conversations went."""
    if folder == "trash":
        mids = [i for (i,) in session.execute(select(Message.id).where(Message.is_trashed.is_(True)))]
    elif folder == "spam":
        mids = [i for (i,) in session.execute(select(Message.id).where(Message.is_spam.is_(True),
                                                                       Message.is_trashed.is_(False)))]
    else:
        raise ServiceError("'folder' must be trash or spam")
    n = len({tid for (tid,) in session.execute(select(Message.thread_id).where(Message.id.in_(mids)))}) if mids else 0
    delete_messages(session, mids)
    return n


def rsvp(session, iid: int, answer: str) -> str:
    if answer not in ("yes", "no", "maybe"):
        raise ServiceError("'rsvp' must be yes, no or maybe")
    inv = session.get(Invite, iid)
    if inv is None:
        raise ServiceError(f"invite {iid} does not exist", 404)
    inv.rsvp = answer
    return answer


__all__ = ["ACTIONS", "Label", "ServiceError", "Undo", "apply_action", "as_int", "block", "delete_messages",
           "empty_folder", "future_time", "label_name", "mark_read_where", "message", "rsvp", "set_important",
           "star_message", "star_thread", "thread_msgs", "trash_message", "unblock", "unread_from_here"]
