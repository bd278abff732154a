"""Writing mail: a new message, reply / reply all / forward, drafts (save, discard), schedule send and its
cancel. Never commits. The compose window's race handling (its saves against its Send) stays in the view:
it is about one browser window, not about mail."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import func, select

from apps._shared import now
from apps.mail import formatting as fmt
from apps.mail import queries as Q
from apps.mail.models import Account, Attachment, Message, Thread
from apps.mail.services.conversations import delete_messages, future_time
from apps.mail.services.correspondence import queue_replies
from apps.mail.services.errors import ServiceError
from apps.mail.services.files import attach, attachments_of, files_by_id
from apps.mail.services.richtext import append_text, letter_body

MODES = ("new", "reply", "reply_all", "forward")


def me(session) -> Account:
    return session.get(Account, 1)


def addresses(to: Any, cc: Any, bcc: Any, strict: bool) -> tuple[list[str], list[str], list[str]]:
    """The recipients as lower-case addresses. `strict` (Send, Schedule) refuses a bad address; a draft keeps
    the good ones."""
    out = []
    for raw, field in ((to, "To"), (cc, "Cc"), (bcc, "Bcc")):
        try:
            out.append(fmt.parse_addresses(raw, field))
        except fmt.AddressError as e:
            if strict:
                raise ServiceError(str(e)) from None
            tokens = raw if isinstance(raw, list) else str(raw or "").replace(";", ",").split(",")
            ok = []
            for tok in tokens:
                try:
                    ok += [a for a in fmt.parse_addresses(str(tok), field) if a not in ok]
                except fmt.AddressError:
                    pass
            out.append(ok)
    return out[0], out[1], out[2]


def draft(session, mid: Any) -> Message | None:
    """The draft `mid`, or None when it is not (any more) a draft."""
    if not isinstance(mid, int) or isinstance(mid, bool):
        return None
    m = session.get(Message, mid)
    return m if m is not None and m.is_draft and not m.is_trashed else None


def write_new(session, *, subject: Any, body: Any, to, cc, bcc, draft_id=None,
              body_html: Any = None) -> tuple[Message, Thread]:
    """A new conversation's message, as a draft (reusing the draft it was written in, when there is one)."""
    acct = me(session)
    subject = str(subject or "").strip()
    text, html = letter_body(body, body_html)
    m = draft(session, draft_id)
    if m is not None:
        thread = session.get(Thread, m.thread_id)
        thread.subject = subject
    else:
        thread = Thread(subject=subject, category="primary", is_muted=False)
        session.add(thread)
        session.flush()
        m = Message(thread_id=thread.id, from_name=acct.name, from_email=acct.email, is_read=True, is_starred=False,
                    is_important=False, is_spam=False, is_trashed=False, in_inbox=False, is_sent=False,
                    is_draft=True, sent_at=now())
        session.add(m)
    m.to, m.cc, m.bcc, m.subject, m.body, m.body_html = to, cc, bcc, subject, text, html
    return m, thread


def _finish_sent(session, msg: Message, text: str, to, cc, bcc) -> None:
    mine = me(session).email.lower()
    msg.body = text
    msg.sent_at = now()
    msg.is_read = True
    msg.is_sent = True
    msg.is_draft = False
    msg.scheduled_at = None
    msg.in_inbox = mine in to or mine in cc or mine in bcc


def forward_block(session, src: Message, shown: bool = False) -> str:
    """The forwarded message's header and text as Send writes it into the world (in English, the same in every page
    language and locale); `shown`: as the page previews it before Send, in the page's language and locale (Gmail's
    German: "Weitergeleitete Nachricht", "Von:"). Send always writes its own block, never the preview."""
    from apps._shared.i18n import gettext

    say = gettext if shown else (lambda s: s)
    when = fmt.long_date(src.sent_at) if shown else fmt.long_date_written(src.sent_at)
    d = Q.Directory(session)
    return (f"{say('---------- Forwarded message ---------')}\n{say('From:')} {src.from_name} <{src.from_email}>\n"
            f"{say('Date:')} {when}\n{say('Subject:')} {src.subject}\n"
            f"{say('To:')} {', '.join(f'{d.name(e)} <{e}>' for e in src.to)}\n\n{src.body}")


def reply_source(session, msgs: list[Message]) -> tuple[Message, list[str], list[str], list[str]]:
    """What Reply answers in a conversation shown as `msgs`: the last message from someone who is not me (in my
    own conversation, my last one), its Reply recipients, and its Reply-all To and Cc (`reply_all_recipients`)."""
    d = Q.Directory(session)
    last = msgs[-1]
    last_other = next((m for m in reversed(msgs) if not d.is_me(m.from_email)), None)
    if last_other is not None:
        reply_to, src = [last_other.from_email], last_other
    else:
        reply_to, src = list(last.to), last
    all_to, all_cc = reply_all_recipients(session, src)
    return src, reply_to, all_to, all_cc


def reply_all_recipients(session, src: Message) -> tuple[list[str], list[str]]:
    """Reply all, as Gmail fills it: To is the sender and the original To, Cc the original Cc (it stays on Cc),
    without me and without repeats. Replying all to my own message goes to its To and Cc again."""
    d = Q.Directory(session)
    mine = d.is_me(src.from_email)
    to_src = list(src.to) if mine else [src.from_email, *src.to]
    to = [e for e in dict.fromkeys(x.lower() for x in to_src) if not d.is_me(e)]
    cc = [e for e in dict.fromkeys(x.lower() for x in src.cc) if not d.is_me(e) and e not in to]
    return to, cc


def send(session, *, mode: str = "new", to=None, cc=None, bcc=None, subject: Any = "", body: Any = "",
         thread_id: Any = None, in_reply_to_id: Any = None, draft_id: Any = None,
         file_ids: Any = None, body_html: Any = None, forward_attachment_ids: Any = None) -> tuple[Message, Thread]:
    """Send now. `new` writes a new conversation (converting the draft `draft_id` when given, with the files
    attached to it); `reply`, `reply_all` and `forward` add a message to `thread_id` (Re:/Fwd: subject; a
    forward quotes `in_reply_to_id`, else the latest message, below the text). `file_ids` (my files) are
    attached to the message sent. `body_html` is the editor's formatted text (`richtext.letter_body`). A forward
    carries the forwarded message's attachments, as Gmail does: all of them, or the ids in
    `forward_attachment_ids` (the chips left in the forward form; [] = none)."""
    if mode not in MODES:
        raise ServiceError(f"unknown mode {mode!r}")
    files = files_by_id(session, file_ids)
    to, cc, bcc = addresses(to, cc, bcc, strict=True)
    if not (to or cc or bcc):
        raise ServiceError("Please specify at least one recipient.")
    text, html = letter_body(body, body_html)
    if mode == "new":
        msg, thread = write_new(session, subject=subject, body=body, to=to, cc=cc, bcc=bcc, draft_id=draft_id,
                                body_html=body_html)
        msg.in_reply_to_id = None
        _finish_sent(session, msg, text, to, cc, bcc)
        session.flush()
        attach(session, msg, files)
        queue_replies(session, msg)  # a workspace correspondent asked something answers (services/correspondence.py)
        return msg, thread
    thread = session.get(Thread, thread_id) if isinstance(thread_id, int) and not isinstance(thread_id, bool) else None
    if thread is None:
        raise ServiceError("that conversation does not exist", 404)
    in_reply_to = None
    if isinstance(in_reply_to_id, int):
        in_reply_to = session.get(Message, in_reply_to_id)
        if in_reply_to is None or in_reply_to.thread_id != thread.id:
            raise ServiceError("in_reply_to_id is not a message of this conversation")
    base = thread.subject or ""
    if mode == "forward":
        subj = base if base.lower().startswith("fwd:") else f"Fwd: {base}"
        src = in_reply_to or session.scalars(select(Message).where(Message.thread_id == thread.id)
                                             .order_by(Message.sent_at.desc(), Message.id.desc())).first()
        if src is not None:
            block = forward_block(session, src)
            html = append_text(html, block)
            text = f"{text.rstrip()}\n\n{block}" if text.strip() else block
        carried = forwarded_attachments(session, src, forward_attachment_ids)
    else:
        subj = base if base.lower().startswith("re:") else f"Re: {base}"
    acct = me(session)
    msg = Message(thread_id=thread.id, in_reply_to_id=in_reply_to.id if in_reply_to else None,
                  from_name=acct.name, from_email=acct.email, subject=subj, body=text, body_html=html,
                  is_starred=False, is_important=False, is_spam=False, is_trashed=False)
    msg.to, msg.cc, msg.bcc = to, cc, bcc
    session.add(msg)
    _finish_sent(session, msg, text, to, cc, bcc)
    session.flush()
    if mode == "forward":
        for a in carried:
            session.add(Attachment(message_id=msg.id, filename=a.filename, mime=a.mime, size=a.size))
        session.flush()
    attach(session, msg, files)
    queue_replies(session, msg)
    return msg, thread


def forwarded_attachments(session, src: Message | None, ids: Any) -> list[Attachment]:
    """The attachments a forward of `src` carries: all of them (`ids` None), or those of `ids` (each must be one
    of `src`'s)."""
    have = attachments_of(session, src.id) if src is not None else []
    if ids is None:
        return have
    if not isinstance(ids, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in ids):
        raise ServiceError("'forward_attachment_ids' must be a list of attachment ids")
    by_id = {a.id: a for a in have}
    bad = [i for i in ids if i not in by_id]
    if bad:
        raise ServiceError(f"attachment {bad[0]} is not on the forwarded message")
    return [by_id[i] for i in dict.fromkeys(ids)]


def save_draft(session, *, to=None, cc=None, bcc=None, subject: Any = "", body: Any = "",
               draft_id: Any = None, file_ids: Any = None, body_html: Any = None) -> tuple[Message, Thread]:
    """Create a draft (no `draft_id`) or update one; a draft keeps only the valid addresses typed. `file_ids`
    (my files) are attached to it (compose's "Insert from Files")."""
    to, cc, bcc = addresses(to, cc, bcc, strict=False)
    files = files_by_id(session, file_ids)
    if draft_id is not None and draft(session, draft_id) is None:
        raise ServiceError("this draft was sent or discarded", 409)
    m, thread = write_new(session, subject=subject, body=body, to=to, cc=cc, bcc=bcc, draft_id=draft_id,
                          body_html=body_html)
    m.sent_at = now()
    session.flush()
    attach(session, m, files)
    return m, thread


def discard_draft(session, mid: Any) -> None:
    m = draft(session, mid)
    if m is None:
        raise ServiceError("that draft does not exist", 404)
    delete_messages(session, [m.id])


def schedule(session, *, at: Any, to=None, cc=None, bcc=None, subject: Any = "", body: Any = "",
             draft_id: Any = None, body_html: Any = None) -> tuple[Message, Thread, dt.datetime]:
    """Schedule send: the message waits in Scheduled (`scheduled_at`, a time after now) instead of going now."""
    to, cc, bcc = addresses(to, cc, bcc, strict=True)
    if not (to or cc or bcc):
        raise ServiceError("Please specify at least one recipient.")
    when = future_time(at, "at", "Scheduled time must be in the future.")
    m, thread = write_new(session, subject=subject, body=body, to=to, cc=cc, bcc=bcc, draft_id=draft_id,
                          body_html=body_html)
    m.is_draft, m.is_sent, m.scheduled_at, m.sent_at, m.in_reply_to_id = False, False, when, when, None
    m.in_inbox = False
    session.flush()
    return m, thread, when


def cancel_scheduled(session, mid: Any) -> Message:
    """Cancel send: the scheduled message goes back to Drafts."""
    m = session.get(Message, mid) if isinstance(mid, int) else None
    if m is None or m.scheduled_at is None or m.is_draft:
        raise ServiceError("that message is not scheduled", 404)
    m.scheduled_at, m.is_draft, m.sent_at = None, True, now()
    return m


def undo_send(session, mid: Any) -> dict:
    """Undo Send: take back the message I just sent (Gmail holds it for the send cancellation period; the page
    offers Undo only that long). Only my latest message sent now can be taken back. A new message becomes its
    draft again (with its attachments) and `draft_id` is returned; a reply or forward is removed and its
    recipients, text and files are returned (`reply`) for the reply form to reopen with."""
    from apps.mail.models import Attachment, File

    m = session.get(Message, mid) if isinstance(mid, int) and not isinstance(mid, bool) else None
    acct = me(session)
    if m is None or m.from_email.lower() != acct.email.lower():
        raise ServiceError("that message does not exist", 404)
    latest = session.scalar(select(func.max(Message.id)).where(
        Message.is_sent.is_(True), Message.is_draft.is_(False), func.lower(Message.from_email) == acct.email.lower(),
        Message.sent_at == now()))
    if not m.is_sent or m.is_draft or m.sent_at != now() or m.id != latest:
        raise ServiceError("This message has already been sent.", 409)
    others = session.scalar(select(func.count()).select_from(Message).where(Message.thread_id == m.thread_id,
                                                                            Message.id != m.id))
    if not others and m.in_reply_to_id is None:
        m.is_sent, m.is_draft, m.in_inbox, m.is_read = False, True, False, True
        m.undone_at = now()
        session.flush()
        return {"draft_id": m.id}
    names = [a.filename for a in session.scalars(select(Attachment).where(Attachment.message_id == m.id)
                                                 .order_by(Attachment.id))]
    files = [session.scalar(select(File.id).where(File.name == n).order_by(File.id).limit(1)) for n in names]
    mode = "forward" if (m.subject or "").lower().startswith("fwd:") else ("reply_all" if len(m.to) + len(m.cc) > 1 else "reply")
    body, body_html = m.body, m.body_html
    if body_html and mode == "forward":
        body_html = body_html.split("<br><br>---------- Forwarded message", 1)[0]
    if mode == "forward" and "\n\n---------- Forwarded message" in body:
        body = body.split("\n\n---------- Forwarded message", 1)[0]
    elif mode == "forward" and body.startswith("---------- Forwarded message"):
        body = ""
    reply = {"thread_id": m.thread_id, "mode": mode, "in_reply_to_id": m.in_reply_to_id, "to": list(m.to),
             "cc": list(m.cc), "bcc": list(m.bcc), "body": body, "body_html": body_html,
             "file_ids": [f for f in files if f is not None]}
    if mode == "forward":
        src = session.get(Message, m.in_reply_to_id) if m.in_reply_to_id else None
        kept = set(names)
        reply["forward_attachment_ids"] = [a.id for a in attachments_of(session, src.id) if a.filename in kept] if src else []
        reply["file_ids"] = [f for f, n in zip(files, names) if f is not None and not (src and n in
                             {a.filename for a in attachments_of(session, src.id)})]
    delete_messages(session, [m.id])
    return {"reply": reply}


def remove_attachment(session, draft_id: Any, attachment_id: Any) -> None:
    """The chip's x in compose: only a draft's attachments can be removed (sent mail keeps its files)."""
    m = draft(session, draft_id)
    if m is None:
        raise ServiceError("that draft does not exist", 404)
    a = session.get(Attachment, attachment_id) if isinstance(attachment_id, int) and not isinstance(attachment_id, bool) else None
    if a is None or a.message_id != m.id:
        raise ServiceError("that attachment is not on this draft", 404)
    session.delete(a)
    session.flush()
