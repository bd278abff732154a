"""The reading view of one conversation. Opening it marks its messages read (as Gmail does)."""

from __future__ import annotations

from flask import abort, request
from sqlalchemy import select

from apps._shared import db, now
from apps.mail import formatting as fmt
from apps.mail import queries as Q
from apps.mail.models import Attachment, Invite, Label, MessageLabel, Thread
from apps.mail.views import bp
from apps.mail.views.common import render_page, safe_back

BACK_TITLES = {"/inbox": "Inbox", "/starred": "Starred", "/sent": "Sent", "/important": "Important",
               "/all": "All Mail", "/spam": "Spam", "/trash": "Trash", "/search": "Search results"}


def back_title(back: str) -> str:
    path = back.split("?")[0]
    if path.startswith("/inbox"):
        return "Inbox"
    if path.startswith("/label/"):
        return path[len("/label/"):]
    return BACK_TITLES.get(path, "Inbox")


def _active_for(back: str) -> str | None:
    path = back.split("?")[0]
    for f in Q.FOLDERS:
        if path == f.path or path.startswith(f.path + "/"):
            return f.key
    return None


@bp.get("/thread/<int:thread_id>")
def thread(thread_id: int):
    session = db()
    t = session.get(Thread, thread_id)
    if t is None:
        abort(404)
    msgs, hidden_trashed = Q.thread_messages(session, thread_id)
    if not msgs:
        abort(404)
    unread_ids = {m.id for m in msgs if not m.is_read}
    if unread_ids:
        for m in msgs:
            m.is_read = True
        session.commit()

    d = Q.Directory(session)
    n = now()
    ids = [m.id for m in msgs]
    atts: dict[int, list[Attachment]] = {}
    for a in session.scalars(select(Attachment).where(Attachment.message_id.in_(ids)).order_by(Attachment.id)):
        atts.setdefault(a.message_id, []).append(a)
    invites = {i.message_id: i for i in session.scalars(select(Invite).where(Invite.message_id.in_(ids)))}
    labels = list(session.scalars(select(Label).join(MessageLabel, MessageLabel.label_id == Label.id)
                                  .where(MessageLabel.message_id.in_(ids)).distinct().order_by(Label.name)))

    views = []
    last_index = len(msgs) - 1
    for i, m in enumerate(msgs):
        recipients = [*m.to, *m.cc]
        to_short = ", ".join(d.short(e) for e in recipients) or "undisclosed-recipients"
        views.append({
            "m": m,
            "name": d.me.name if m.is_sent and d.me else (m.from_name or m.from_email),
            "to_line": f"to {to_short}",
            "to_full": [f"{d.name(e)} <{e}>" for e in m.to],
            "cc_full": [f"{d.name(e)} <{e}>" for e in m.cc],
            "bcc_full": [f"{d.name(e)} <{e}>" for e in m.bcc] if m.is_sent else [],
            "date": fmt.thread_date(m.sent_at, n),
            "date_title": fmt.long_date(m.sent_at),
            "short_date": fmt.list_date(m.sent_at, n),
            "snippet": fmt.snippet(m.body, 120),
            "paragraphs": [p for p in (m.body or "").split("\n\n")],
            "attachments": atts.get(m.id, []),
            "invite": invites.get(m.id),
            # Gmail expands the latest message and unread ones; the rest are collapsed one-liners.
            "expanded": i == last_index or m.id in unread_ids,
        })
    # Gmail folds the middle of long conversations into "N older messages".
    folded = []
    if len(views) > 4:
        collapsed_middle = [v for v in views[1:-2] if not v["expanded"]]
        if len(collapsed_middle) >= 2:
            folded = [v["m"].id for v in collapsed_middle]

    me = d.me
    last = msgs[-1]
    last_other = next((m for m in reversed(msgs) if not m.is_sent), None)
    # Reply goes to the last sender who is not me (or, in my own thread, to my last recipients).
    if last_other is not None:
        reply_to = [last_other.from_email]
        reply_src = last_other
    else:
        reply_to = list(last.to)
        reply_src = last
    everyone = [reply_src.from_email, *reply_src.to, *reply_src.cc]
    reply_all_to = [e for e in dict.fromkeys(x.lower() for x in everyone) if not (me and e == me.email.lower())]
    reply_all = len(reply_all_to) > 1
    in_inbox = any(m.in_inbox for m in msgs)
    is_spam = all(m.is_spam for m in msgs)
    is_trashed = all(m.is_trashed for m in msgs)
    back = safe_back(request.args.get("back"))
    fwd = reply_src
    fwd_block = (f"---------- Forwarded message ---------\nFrom: {fwd.from_name} <{fwd.from_email}>\n"
                 f"Date: {fmt.long_date(fwd.sent_at)}\nSubject: {fwd.subject}\n"
                 f"To: {', '.join(f'{d.name(e)} <{e}>' for e in fwd.to)}")
    names = {e: d.name(e) for m in msgs for e in [m.from_email.lower(), *m.to, *m.cc]}
    return render_page(
        "mail/thread.html",
        addr_names=names,
        active=_active_for(back),
        thread=t,
        subject=t.subject or "(no subject)",
        messages=views,
        folded=folded,
        hidden_trashed=hidden_trashed,
        labels=labels,
        in_inbox=in_inbox,
        is_spam=is_spam,
        is_trashed=is_trashed,
        back=back,
        back_title=back_title(back),
        reply={
            "in_reply_to_id": reply_src.id,
            "to": ", ".join(reply_to),
            "to_names": ", ".join(d.name(e) for e in reply_to),
            "all_to": ", ".join(reply_all_to),
            "all_names": ", ".join(d.name(e) for e in reply_all_to),
            "reply_all": reply_all,
            "fwd_block": fwd_block,
            "fwd_body": fwd.body,
        },
    )

