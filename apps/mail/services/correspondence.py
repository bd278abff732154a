"""Correspondents who answer (a workspace world's people, `correspondents`): a sent message that asks one of them
something gets their answer (domain/correspondence.py's rules over their facts) after their delay on the world's
frozen clock. Sending (services/compose.py `send`, the page's Send and the send tools alike) queues the answer;
the clock's advance (the control API's clock route, AppSpec.on_clock) delivers what has come due. Never commits."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import select

from apps._shared import now
from apps.mail.models import Account, Correspondent, Message, PendingReply
from domain.correspondence import reply_text


def queue_replies(session, msg: Message) -> int:
    """The answers of the correspondents `msg` (just sent) asks something, each due after its writer's delay."""
    recipients = list(dict.fromkeys(e.lower() for e in [*msg.to, *msg.cc]))
    if not recipients:
        return 0
    people = {c.email: c for c in session.scalars(select(Correspondent).where(Correspondent.email.in_(recipients)))}
    me = session.get(Account, 1)
    n = 0
    for email in recipients:
        c = people.get(email)
        text = reply_text(c.facts or {}, f"{msg.subject}\n{msg.body}", to_first=me.name.split()[0],
                          from_first=c.name.split()[0]) if c is not None else None
        if text is None:
            continue
        subject = msg.subject if (msg.subject or "").lower().startswith("re:") else f"Re: {msg.subject}"
        session.add(PendingReply(question_id=msg.id, thread_id=msg.thread_id, from_email=c.email, from_name=c.name,
                                 subject=subject, body=text, state="pending",
                                 due_at=msg.sent_at + dt.timedelta(minutes=c.delay_minutes)))
        n += 1
    if n:
        session.flush()
    return n


def deliver_due(session) -> int:
    """Deliver every answer whose time has come into its conversation (unread, in the inbox); an answer to a message
    that is no longer sent (undone, deleted) is dropped. Returns how many were delivered."""
    me = session.get(Account, 1)
    due = session.scalars(select(PendingReply).where(PendingReply.state == "pending", PendingReply.due_at <= now())
                          .order_by(PendingReply.due_at, PendingReply.id)).all()
    n = 0
    for p in due:
        q = session.get(Message, p.question_id)
        if q is None or not q.is_sent or q.is_draft:
            p.state = "dropped"
            continue
        m = Message(thread_id=p.thread_id, in_reply_to_id=q.id, from_name=p.from_name, from_email=p.from_email,
                    subject=p.subject, body=p.body, body_html="", sent_at=p.due_at, is_read=False, is_starred=False,
                    is_important=False, in_inbox=True, is_sent=False, is_draft=False, is_spam=False, is_trashed=False)
        m.to, m.cc, m.bcc = [me.email.lower()], [], []
        session.add(m)
        session.flush()
        p.state, p.delivered_id = "delivered", m.id
        n += 1
    return n


__all__ = ["deliver_due", "queue_replies"]
