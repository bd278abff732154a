"""What a user reads: search results, a folder or label's list, one conversation, labels, filters, blocked
addresses, settings, contacts; as plain dicts with the ids the write operations take. Lists are paged
(`limit` at most MAX_LIMIT) and carry their total. Reading a conversation marks it read, as opening it does."""

from __future__ import annotations

from typing import Any

from sqlalchemy import false, func, select

from apps._shared import now
from apps.mail import formatting as fmt
from apps.mail import queries as Q
from apps.mail.models import Account, Attachment, BlockedSender, Contact, Filter, Invite, Label, Message, MessageLabel, Thread
from apps.mail.services import filters as F
from apps.mail.services.account import contacts_matching
from apps.mail.services.labels import LABEL_COLORS
from apps.mail.services.errors import ServiceError

MAX_LIMIT = 50
FOLDER_KEYS = tuple(f.key for f in Q.FOLDERS)


def search_conds(session, q: str) -> tuple[list, list]:
    """The search box's query (Gmail operators): the matching messages' conditions and the messages a row shows."""
    sq = Q.parse_search(session, q, now())
    if sq.scope in ("trash", "spam", "drafts", "scheduled"):
        return sq.conds, Q.visible_conds(sq.scope)
    if sq.scope == "anywhere":
        return sq.conds, [Message.is_draft == false(), Message.scheduled_at.is_(None)]
    return sq.conds, Q.visible_conds("all")


def _row(r: Q.Row, view: str) -> dict[str, Any]:
    out = {"thread_id": r.id, "subject": r.subject, "from": ", ".join(n for n, _b in r.senders), "messages": r.count,
           "last_date": r.last.isoformat(), "snippet": r.snippet, "unread": r.unread, "starred": r.starred,
           "important": r.important, "in_inbox": r.in_inbox, "labels": [lab.path for lab in r.labels],
           "attachments": [a.filename for a in r.attachments], "latest_sender_email": r.from_email}
    if r.snoozed_until:
        out["snoozed_until"] = r.snoozed_until.isoformat()
    if view == "drafts":
        out["draft_id"] = r.draft_id
    if view == "scheduled":
        out["scheduled_at"] = r.scheduled_at.isoformat() if r.scheduled_at else None
    if r.muted:
        out["muted"] = True
    return out


def _page(session, conds, visible, view: str, limit: int, offset: int, category_cond=None,
          hide_label_id: int | None = None) -> dict[str, Any]:
    if not 1 <= limit <= MAX_LIMIT:
        raise ServiceError(f"'limit' must be between 1 and {MAX_LIMIT}")
    if offset < 0:
        raise ServiceError("'offset' must be 0 or more")
    # list_threads pages by page number: fetch the pages that cover [offset, offset + limit).
    rows, total = Q.list_threads(session, conds, visible, now(), 1, offset + limit, category_cond=category_cond,
                                 view=view, hide_label_id=hide_label_id)
    shown = rows[offset:offset + limit]
    return {"total": total, "offset": offset, "conversations": [_row(r, view) for r in shown]}


def search(session, query: str, limit: int = 20, offset: int = 0) -> dict[str, Any]:
    query = (query or "").strip()
    if not query:
        raise ServiceError("the search query is empty")
    conds, visible = search_conds(session, query)
    return {"query": query, **_page(session, conds, visible, "search", limit, offset)}


def list_folder(session, folder: str, category: str | None = None, limit: int = 20, offset: int = 0) -> dict[str, Any]:
    """A folder's conversations, newest first; the inbox can be narrowed to one tab (`category`)."""
    if folder not in FOLDER_KEYS:
        raise ServiceError(f"unknown folder {folder!r}; the folders are: {', '.join(FOLDER_KEYS)}")
    cat_cond = None
    if category:
        keys = [k for k, _l, _i in Q.CATEGORIES]
        if category not in keys:
            raise ServiceError(f"unknown category {category!r}; the categories are: {', '.join(keys)}")
        if folder == "inbox":
            cat_cond = Q.inbox_category_cond(category, session.get(Account, 1))
        else:
            cat_cond = Message.thread_id.in_(select(Thread.id).where(Thread.category == category))
    out = _page(session, Q.folder_conds(folder, now()), Q.visible_conds(folder), folder, limit, offset,
                category_cond=cat_cond)
    return {"folder": folder, **({"category": category} if category else {}), **out}


def list_label(session, label_id: int, limit: int = 20, offset: int = 0) -> dict[str, Any]:
    """A label's conversations (its sublabels' too), as the label's page lists them."""
    lab = session.get(Label, label_id)
    if lab is None:
        raise ServiceError(f"label {label_id} does not exist; list_labels gives the ids")
    ids = Q.label_descendants(session, lab)
    out = _page(session, Q.label_conds(ids), Q.visible_conds("label"), "label", limit, offset)
    return {"label_id": label_id, "label": next(p for lb, _d, p in Q.labels_tree(session) if lb.id == lab.id), **out}


def read_conversation(session, thread_id: int) -> dict[str, Any]:
    """One conversation with every message shown (as opening it shows them), which marks them read."""
    t = session.get(Thread, thread_id)
    if t is None:
        raise ServiceError(f"conversation {thread_id} does not exist")
    msgs, hidden = Q.thread_messages(session, thread_id)
    scheduled = False
    if not msgs:
        msgs = list(session.scalars(select(Message).where(Message.thread_id == thread_id, Message.scheduled_at.is_not(None),
                                                          Message.is_draft.is_(False)).order_by(Message.sent_at, Message.id)))
        scheduled = bool(msgs)
    if not msgs:
        d = session.scalar(select(Message.id).where(Message.thread_id == thread_id, Message.is_draft.is_(True)))
        if d is None:
            raise ServiceError(f"conversation {thread_id} does not exist")
        return {"thread_id": thread_id, "draft_id": d, "note": "this conversation is a draft: get_draft reads it"}
    for m in msgs:
        m.is_read = True
    ids = [m.id for m in msgs]
    d = Q.Directory(session)
    atts: dict[int, list[dict]] = {}
    for a in session.scalars(select(Attachment).where(Attachment.message_id.in_(ids)).order_by(Attachment.id)):
        atts.setdefault(a.message_id, []).append({"filename": a.filename, "size": a.size})
    invites = {i.message_id: i for i in session.scalars(select(Invite).where(Invite.message_id.in_(ids)))}
    paths = {lab.id: p for lab, _d, p in Q.labels_tree(session)}
    label_ids = {lid for (lid,) in session.execute(select(MessageLabel.label_id).where(MessageLabel.message_id.in_(ids)))}
    out_msgs = []
    for m in msgs:
        item: dict[str, Any] = {
            "message_id": m.id, "from_name": d.me.name if d.is_me(m.from_email) else m.from_name,
            "from_email": m.from_email, "to": list(m.to), "cc": list(m.cc), "date": m.sent_at.isoformat(),
            "date_text": fmt.long_date(m.sent_at), "body": m.body, "starred": m.is_starred}
        if d.is_me(m.from_email) and m.bcc:
            item["bcc"] = list(m.bcc)
        if m.scheduled_at:
            item["scheduled_at"] = m.scheduled_at.isoformat()
        if atts.get(m.id):
            item["attachments"] = atts[m.id]
        inv = invites.get(m.id)
        if inv is not None:
            item["invite"] = {"invite_id": inv.id, "title": inv.title, "starts_at": inv.starts_at.isoformat(),
                              "ends_at": inv.ends_at.isoformat(), "location": inv.location, "rsvp": inv.rsvp}
        out_msgs.append(item)
    n = now()
    snoozed = max((m.snoozed_until for m in msgs if m.snoozed_until and m.snoozed_until > n), default=None)
    return {"thread_id": thread_id, "subject": t.subject or "(no subject)", "category": t.category,
            "muted": t.is_muted, "in_inbox": any(m.in_inbox for m in msgs), "in_spam": all(m.is_spam for m in msgs),
            "in_trash": all(m.is_trashed for m in msgs), "important": any(m.is_important for m in msgs),
            "snoozed_until": snoozed.isoformat() if snoozed else None, "scheduled": scheduled,
            "labels": sorted((paths.get(lid, "?") for lid in label_ids), key=str.lower),
            "hidden_trashed_messages": hidden, "messages": out_msgs}


def get_draft(session, draft_id: int) -> dict[str, Any]:
    m = session.get(Message, draft_id)
    if m is None or not m.is_draft or m.is_trashed:
        raise ServiceError(f"draft {draft_id} does not exist; list_mail(folder='drafts') gives the ids")
    return {"draft_id": m.id, "thread_id": m.thread_id, "to": list(m.to), "cc": list(m.cc), "bcc": list(m.bcc),
            "subject": m.subject, "body": m.body, "saved_at": m.sent_at.isoformat()}


def list_labels(session) -> list[dict[str, Any]]:
    counts = dict(session.execute(
        select(MessageLabel.label_id, func.count(func.distinct(Message.thread_id)))
        .join(Message, Message.id == MessageLabel.message_id)
        .where(*Q.not_trashed_or_spam()).group_by(MessageLabel.label_id)).all())
    colors = {bg.lower(): n for n, bg, _fg in LABEL_COLORS}
    return [{"label_id": lab.id, "path": path, "name": lab.name, "parent_id": lab.parent_id,
             "color": colors.get((lab.color or "").lower(), "none" if not lab.color else lab.color),
             "show_in_label_list": lab.show_in_list, "show_in_message_list": lab.show_in_message_list,
             "conversations": counts.get(lab.id, 0)} for lab, _d, path in Q.labels_tree(session)]


def list_filters(session) -> list[dict[str, Any]]:
    out = []
    for f in session.scalars(select(Filter).order_by(Filter.id)):
        out.append({"filter_id": f.id, "query": F.filter_query(f), "actions": F.filter_actions_text(session, f),
                    **{k: getattr(f, k) for k in (*F.CRITERIA, "has_attachment", *F.FLAGS, "apply_label_id",
                                                  "forward_to", "mark_important", "category")}})
    return out


def list_blocked(session) -> list[dict[str, Any]]:
    return [{"block_id": b.id, "email": b.email, "blocked_at": b.blocked_at.isoformat()}
            for b in session.scalars(select(BlockedSender).order_by(BlockedSender.email))]


SETTINGS_SHOWN = ("name", "email", "display_density", "page_size", "show_snippets", "signature", "signature_on_replies",
                  "tab_promotions", "tab_social", "tab_updates", "vacation_enabled", "vacation_start", "vacation_end",
                  "vacation_subject", "vacation_body", "vacation_contacts_only", "undo_send_seconds", "keyboard_shortcuts",
                  "default_reply")


def get_settings(session) -> dict[str, Any]:
    acct = session.get(Account, 1)
    out = {k: getattr(acct, k) for k in SETTINGS_SHOWN}
    for k in ("vacation_start", "vacation_end"):
        out[k] = out[k].isoformat() if out[k] else None
    n = now()
    out["now"] = n.isoformat()
    out["snooze_presets"] = {o["key"]: o["at"].isoformat() for o in fmt.snooze_options(n)}
    out["schedule_presets"] = {o["key"]: o["at"].isoformat() for o in fmt.schedule_options(n)}
    return out


def _contact(c: Contact, full: bool = False) -> dict[str, Any]:
    out = {"contact_id": c.id, "name": c.name, "email": c.email, "company": c.company, "title": c.title,
           "phone": c.phone, "favorite": c.is_starred, "saved": c.is_saved}
    if full:
        out.update(address=c.address, birthday=c.birthday.isoformat() if c.birthday else None, notes=c.notes)
    return out


def find_contacts(session, query: str = "", view: str = "all", limit: int = 20, offset: int = 0) -> dict[str, Any]:
    """Contacts as the Contacts page lists them: a view (all saved, favorites, other), or a search over everyone
    (name, email, company, phone, title)."""
    if not 1 <= limit <= MAX_LIMIT:
        raise ServiceError(f"'limit' must be between 1 and {MAX_LIMIT}")
    rows = contacts_matching(session, view, (query or "").strip())
    return {"total": len(rows), "offset": offset, "contacts": [_contact(c) for c in rows[offset:offset + limit]]}


def get_contact(session, contact_id: int) -> dict[str, Any]:
    c = session.get(Contact, contact_id)
    if c is None:
        raise ServiceError(f"contact {contact_id} does not exist; find_contacts gives the ids")
    return _contact(c, full=True)
