"""The reading view of one conversation. Opening it marks its messages read (as Gmail does)."""

from __future__ import annotations

from flask import abort, redirect, request
from markupsafe import Markup
from sqlalchemy import func, select

from apps._shared import db, now
from apps._shared.i18n import gettext
from apps._shared.actions import perform
from apps.mail import formatting as fmt
from apps.mail import queries as Q
from apps.mail.models import Attachment, BlockedSender, Invite, Label, Message, MessageLabel, Thread
from apps.mail.services import files, richtext
from apps.mail.views.blueprint import bp
from apps.mail.services.compose import forward_block, reply_all_recipients, reply_source
from apps.mail.views.common import render_page, safe_back
from apps.mail.views.lists import list_for_path

BACK_TITLES = {"/inbox": "Inbox", "/starred": "Starred", "/snoozed": "Snoozed", "/sent": "Sent", "/drafts": "Drafts",
               "/scheduled": "Scheduled", "/important": "Important", "/all": "All Mail", "/spam": "Spam",
               "/trash": "Trash", "/search": "Search results", "/contacts": "Contacts"}


def back_title(back: str) -> str:
    path = back.split("?")[0]
    if path.startswith("/inbox"):
        return "Inbox"
    if path.startswith("/label/"):
        return path[len("/label/"):]
    if path.startswith("/category/"):
        return path[len("/category/"):].capitalize()
    if path.startswith("/contacts"):
        return "Contacts"
    return BACK_TITLES.get(path, "Inbox")


def _active_for(back: str) -> str | None:
    path = back.split("?")[0]
    for f in Q.FOLDERS:
        if path == f.path or path.startswith(f.path + "/"):
            return f.key
    if path.startswith("/category/"):
        return "category:" + path[len("/category/"):]
    if path.startswith("/label/"):
        lab = Q.label_by_path(db(), path[len("/label/"):])
        return f"label:{lab.id}" if lab else None
    return None


def _mark_read(msgs: list[Message]) -> None:
    """Opening a conversation reads every message it shows."""
    for m in msgs:
        m.is_read = True


@bp.get("/thread/<int:thread_id>")
def thread(thread_id: int):
    session = db()
    t = session.get(Thread, thread_id)
    if t is None:
        abort(404)
    n = now()
    sched = list(session.scalars(select(Message).where(Message.thread_id == thread_id, Message.scheduled_at.is_not(None),
                                                       Message.is_draft.is_(False))
                                 .order_by(Message.sent_at, Message.id)))
    msgs, hidden_trashed = Q.thread_messages(session, thread_id)
    if not msgs and not sched:
        draft = session.scalar(select(Message.id).where(Message.thread_id == thread_id, Message.is_draft.is_(True)))
        if draft is not None:  # a draft opens in compose, over the Drafts list
            return redirect(f"/drafts?draft={draft}")
        abort(404)
    scheduled_view = not msgs
    if scheduled_view:
        msgs = sched
    unread_ids = {m.id for m in msgs if not m.is_read}
    if unread_ids:
        perform(_mark_read, msgs)

    d = Q.Directory(session)
    ids = [m.id for m in msgs]
    atts: dict[int, list[Attachment]] = {}
    for a in session.scalars(select(Attachment).where(Attachment.message_id.in_(ids)).order_by(Attachment.id)):
        atts.setdefault(a.message_id, []).append(a)
    invites = {i.message_id: i for i in session.scalars(select(Invite).where(Invite.message_id.in_(ids)))}
    paths = {lab.id: path for lab, _dd, path in Q.labels_tree(session)}
    labels = list(session.scalars(select(Label).join(MessageLabel, MessageLabel.label_id == Label.id)
                                  .where(MessageLabel.message_id.in_(ids)).distinct()))
    for lab in labels:
        lab.path = paths.get(lab.id, lab.name)
    labels.sort(key=lambda lab: lab.path.lower())
    blocked = {e.lower() for (e,) in session.execute(select(BlockedSender.email))}

    views = []
    last_index = len(msgs) - 1
    for i, m in enumerate(msgs):
        recipients = [*m.to, *m.cc]
        to_short = ", ".join(d.short(e, recipient=True) for e in recipients) or "undisclosed-recipients"
        mine = d.is_me(m.from_email)
        all_to, all_cc = reply_all_recipients(session, m)
        views.append({
            "m": m,
            "name": d.me.name if mine and d.me else (m.from_name or m.from_email),
            "mine": mine,
            "to_line": gettext("to %(who)s", who=to_short),
            "to_full": [f"{d.name(e)} <{e}>" for e in m.to],
            "cc_full": [f"{d.name(e)} <{e}>" for e in m.cc],
            "bcc_full": [f"{d.name(e)} <{e}>" for e in m.bcc] if mine else [],
            "date": fmt.thread_date(m.sent_at, n) if not m.scheduled_at else fmt.long_date(m.sent_at),
            "date_title": fmt.long_date(m.sent_at),
            "short_date": fmt.list_date(m.sent_at, n),
            "snippet": fmt.snippet(m.body, 120),
            "paragraphs": [p for p in (m.body or "").split("\n\n")],
            "rich": Markup(richtext.clean(m.body_html)) if m.body_html else "",
            "attachments": atts.get(m.id, []),
            "att_chips": [{**files.attachment_dict(a), "size_label": files.size_label(a.size)} for a in atts.get(m.id, [])],
            "invite": invites.get(m.id),
            "reply_to": ", ".join(m.to) if mine else m.from_email,
            "reply_all_to": ", ".join(all_to),
            "reply_all_cc": ", ".join(all_cc),
            "can_reply_all": len(all_to) + len(all_cc) > 1,
            "fwd_block": forward_block(session, m, shown=True),
            "blocked": m.from_email.lower() in blocked and not mine,
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
    reply_src, reply_to, reply_all_to, reply_all_cc = reply_source(session, msgs)
    reply_all = len(reply_all_to) + len(reply_all_cc) > 1
    in_inbox = any(m.in_inbox for m in msgs)
    is_spam = all(m.is_spam for m in msgs)
    is_trashed = all(m.is_trashed for m in msgs)
    back = safe_back(request.args.get("back"))
    names = {e: d.name(e) for m in msgs for e in [m.from_email.lower(), *m.to, *m.cc]}
    snoozed_until = max((m.snoozed_until for m in msgs if m.snoozed_until and m.snoozed_until > n), default=None)
    blocked_senders = sorted({v["m"].from_email.lower() for v in views if v["blocked"]})
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
        thread_label_ids=[lab.id for lab in labels],
        in_inbox=in_inbox,
        is_spam=is_spam,
        is_trashed=is_trashed,
        is_starred=any(m.is_starred for m in msgs),
        is_important=any(m.is_important for m in msgs),
        snoozed_until=snoozed_until,
        scheduled=scheduled_view,
        blocked_senders=blocked_senders,
        back=back,
        back_title=back_title(back),
        reply={
            "in_reply_to_id": reply_src.id,
            "to": ", ".join(reply_to),
            "all_to": ", ".join(reply_all_to),
            "all_cc": ", ".join(reply_all_cc),
            "reply_all": reply_all,
            "fwd_block": forward_block(session, reply_src, shown=True),
        },
        signature=(me.signature if me and me.signature_on_replies else ""),
        category=t.category,
        # The list it was opened from, computed only where a page shows it beside the conversation.
        list_pane=lambda: list_for_path(back),
    )


__all__ = ["thread", "func"]
