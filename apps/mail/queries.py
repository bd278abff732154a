"""Data access for the views: folder filters, paged thread lists, counts, thread detail. Which messages a folder
holds is domain/mail.py's rule (as SQL in folders.py); the search language is search.py (its names re-exported here)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, false, func, select, true
from sqlalchemy.orm import Session

from apps._shared.i18n import gettext as _  # the page's UI language (English for a tool's answer)
from apps._shared.i18n import pgettext
from apps.mail import formatting as fmt
from apps.mail.folders import label_by_path, label_descendants, labels_tree, where  # noqa: F401 - the views' names
from apps.mail.models import Account, Attachment, Contact, Label, Message, MessageLabel, Thread
from apps.mail.search import (  # noqa: F401 - the search language lives in search.py; the views read it here
    SCOPES, SearchQuery, labels_matching, parse_date, parse_search, scope_conds,
)
from domain import mail as rules
from domain.mail import addr_hit

CATEGORIES = [
    # key, tab label, icon
    ("primary", "Primary", "inbox"),
    ("promotions", "Promotions", "sell"),
    ("social", "Social", "group"),
    ("updates", "Updates", "info"),
]


@dataclass(frozen=True)
class Folder:
    key: str
    title: str
    icon: str
    path: str
    more: bool = False  # under "More" in the rail


FOLDERS = [
    Folder("inbox", "Inbox", "inbox", "/inbox"),
    Folder("starred", "Starred", "star", "/starred"),
    Folder("snoozed", "Snoozed", "schedule", "/snoozed"),
    Folder("sent", "Sent", "send", "/sent"),
    Folder("drafts", "Drafts", "draft", "/drafts"),
    Folder("important", "Important", "label_important", "/important", more=True),
    Folder("scheduled", "Scheduled", "schedule_send", "/scheduled", more=True),
    Folder("all", "All Mail", "mail", "/all", more=True),
    Folder("spam", "Spam", "report", "/spam", more=True),
    Folder("trash", "Trash", "delete", "/trash", more=True),
]
FOLDER_BY_KEY = {f.key: f for f in FOLDERS}
# Rail "Categories" (all mail of a category, not only the inbox's).
RAIL_CATEGORIES = [("social", "Social", "group"), ("updates", "Updates", "info"), ("promotions", "Promotions", "sell")]


# ------------------------------------------------------------------------------------- filters
def not_trashed_or_spam():
    """Live mail: not in Trash or Spam, not a draft, not waiting to be sent."""
    return where(rules.LIVE)


def disabled_tabs(account) -> list[str]:
    """Inbox categories switched off in Settings > Inbox (their mail shows in Primary)."""
    if account is None:
        return []
    return [k for k in ("promotions", "social", "updates") if not getattr(account, f"tab_{k}", True)]


def inbox_category_cond(category: str, account=None):
    cats = [category]
    if category == "primary":
        cats += disabled_tabs(account) + ["forums"]
    return Message.thread_id.in_(select(Thread.id).where(Thread.category.in_(cats)))


def folder_conds(key: str, now: dt.datetime) -> list:
    """The messages of a folder (domain/mail.py's FOLDERS), or of a rail category (`category:social`)."""
    if key in rules.FOLDERS:
        return where(rules.FOLDERS[key], now)
    if key.startswith("category:"):
        return [*not_trashed_or_spam(), Message.thread_id.in_(select(Thread.id).where(Thread.category == key[9:]))]
    raise KeyError(key)


def visible_conds(key: str) -> list:
    """Which messages of a listed conversation are shown (and count for its date and senders)."""
    return where(rules.shown_rule(key))


def label_conds(label_ids: list[int]) -> list:
    sub = select(MessageLabel.message_id).where(MessageLabel.label_id.in_(label_ids))
    return [Message.id.in_(sub), *not_trashed_or_spam()]


# ------------------------------------------------------------------------------------ directory
class Directory:
    """Names for addresses: me, contacts, then anyone who wrote to me."""

    def __init__(self, session: Session):
        self.session = session
        self.me = session.get(Account, 1)
        self._names: dict[str, str] | None = None

    @property
    def names(self) -> dict[str, str]:
        if self._names is None:
            self._names = {e.lower(): n for e, n in self.session.execute(select(Contact.email, Contact.name))}
        return self._names

    def is_me(self, email: str) -> bool:
        return bool(self.me) and (email or "").lower() == self.me.email.lower()

    def name(self, email: str) -> str:
        if self.is_me(email):
            return self.me.name
        return self.names.get(email.lower()) or email.split("@")[0]

    def short(self, email: str, recipient: bool = False) -> str:
        """'me' for me, a first name for others. `recipient`: as a recipient ("to me": German "an mich")."""
        if self.is_me(email):
            return pgettext("recipient", "me") if recipient else _("me")
        n = self.names.get(email.lower())
        return fmt.first_name(n) if n else email.split("@")[0]


# ----------------------------------------------------------------------------------- thread list
@dataclass
class Row:
    id: int
    subject: str
    snippet: str
    senders: list[tuple[str, bool]]  # (name, bold)
    count: int
    unread: bool
    starred: bool
    important: bool
    in_inbox: bool
    last: dt.datetime
    date: str
    date_title: str
    labels: list[Label]
    attachments: list[Attachment]
    aria: str = ""
    draft_id: int | None = None  # Drafts: the draft message opened by the row
    snoozed_until: dt.datetime | None = None
    scheduled_at: dt.datetime | None = None
    muted: bool = False
    from_email: str = ""  # the latest sender who is not me ("Filter messages like these")


def _senders(msgs: list[Message], d: Directory, sent_view: bool) -> list[tuple[str, bool]]:
    if sent_view:
        mine = [m for m in msgs if d.is_me(m.from_email)] or msgs
        rec = []
        for e in mine[-1].to or []:
            n = d.short(e, recipient=True) if len(mine[-1].to) > 1 else d.name(e)
            rec.append(n)
        return [(_("To: ") + (", ".join(rec) or _("(no recipients)")), False)]
    seen: dict[str, bool] = {}
    order: list[str] = []
    names = {}
    for m in msgs:
        key = "me" if d.is_me(m.from_email) else m.from_email.lower()
        if key in seen:
            order.remove(key)
        order.append(key)
        seen[key] = seen.get(key, False) or not m.is_read
        names[key] = m.from_name or m.from_email
    if len(order) == 1:
        k = order[0]
        return [(_("me") if k == "me" else names[k], seen[k])]
    # Gmail keeps the first sender, then the most recent ones; first names when several.
    first = next(("me" if d.is_me(m.from_email) else m.from_email.lower()) for m in msgs)
    keys = [first] + [k for k in order if k != first]
    if len(keys) > 3:
        keys = [keys[0], "..", *keys[-2:]]
    out = []
    for k in keys:
        if k == "..":
            out.append(("..", False))
        else:
            out.append((_("me") if k == "me" else fmt.first_name(names[k]), seen[k]))
    return out


def list_threads(session: Session, conds: list, visible: list, now: dt.datetime, page: int, page_size: int,
                 category_cond=None, view: str = "", hide_label_id: int | None = None
                 ) -> tuple[list[Row], int]:
    extra = [category_cond] if category_cond is not None else []
    matching = select(Message.thread_id).where(*conds, *extra)
    total = session.scalar(select(func.count(func.distinct(Message.thread_id))).where(*conds, *extra))
    last = func.max(Message.sent_at).label("last")
    q = (select(Message.thread_id, last).where(Message.thread_id.in_(matching), *visible)
         .group_by(Message.thread_id).order_by(last.desc(), Message.thread_id.desc())
         .limit(page_size).offset((page - 1) * page_size))
    ids = [tid for tid, _ in session.execute(q)]
    if not ids:
        return [], total or 0
    threads = {t.id: t for t in session.scalars(select(Thread).where(Thread.id.in_(ids)))}
    msgs: dict[int, list[Message]] = {i: [] for i in ids}
    for m in session.scalars(select(Message).where(Message.thread_id.in_(ids), *visible)
                             .order_by(Message.sent_at, Message.id)):
        msgs[m.thread_id].append(m)
    mids = [m.id for ms in msgs.values() for m in ms]
    labels_by_thread: dict[int, dict[int, Label]] = {i: {} for i in ids}
    paths = {lab.id: path for lab, _d, path in labels_tree(session)}
    for tid, lab in session.execute(select(Message.thread_id, Label).join(MessageLabel, MessageLabel.label_id == Label.id)
                                    .join(Message, Message.id == MessageLabel.message_id)
                                    .where(MessageLabel.message_id.in_(mids)).order_by(Label.name)):
        if lab.show_in_message_list and lab.id != hide_label_id:
            labels_by_thread[tid][lab.id] = lab
    atts: dict[int, list[Attachment]] = {i: [] for i in ids}
    for tid, a in session.execute(select(Message.thread_id, Attachment).join(Message, Message.id == Attachment.message_id)
                                  .where(Attachment.message_id.in_(mids)).order_by(Attachment.id)):
        atts[tid].append(a)
    d = Directory(session)
    rows = []
    for tid in ids:
        ms = msgs[tid]
        if not ms:
            continue
        t = threads[tid]
        latest = ms[-1]
        shown = latest.sent_at
        r = Row(
            id=tid,
            subject=(latest.subject if view in ("drafts", "scheduled") else t.subject) or _("(no subject)"),
            snippet=fmt.snippet(latest.body),
            senders=_senders(ms, d, view in ("sent", "scheduled")),
            count=len(ms),
            unread=any(not m.is_read for m in ms),
            starred=any(m.is_starred for m in ms),
            important=any(m.is_important for m in ms),
            in_inbox=any(m.in_inbox for m in ms),
            last=shown,
            date=fmt.list_date(shown, now),
            date_title=fmt.long_date(shown),
            labels=sorted(labels_by_thread[tid].values(), key=lambda lab: paths.get(lab.id, lab.name).lower()),
            attachments=atts[tid],
            muted=t.is_muted,
            from_email=next((m.from_email for m in reversed(ms) if not d.is_me(m.from_email)), ""),
        )
        for lab in r.labels:
            lab.path = paths.get(lab.id, lab.name)
        if view == "drafts":
            r.draft_id = latest.id
            to = ", ".join(d.short(e, recipient=True) if len(latest.to) > 1 else d.name(e) for e in latest.to)
            r.senders = [(to, False)] if to else [(_("(no recipients)"), False)]
            r.unread = False
        snz = [m.snoozed_until for m in ms if m.snoozed_until and m.snoozed_until > now]
        if snz:
            r.snoozed_until = max(snz)
            if view == "snoozed":
                r.date = fmt.snooze_label(r.snoozed_until, now)
                r.date_title = _("Snoozed until ") + fmt.long_date(r.snoozed_until)
        if view == "scheduled":
            r.scheduled_at = latest.scheduled_at
            r.date = fmt.list_date(latest.scheduled_at, now) if latest.scheduled_at else r.date
        sender_text = ", ".join(n for n, _ in r.senders)
        prefix = _("Draft, ") if view == "drafts" else (_("Unread, ") if r.unread else "")
        r.aria = f"{prefix}{sender_text}, {r.subject}, {r.date}"
        rows.append(r)
    return rows, total or 0


# -------------------------------------------------------------------------------------- counts
def rail_counts(session: Session, now: dt.datetime) -> dict[str, Any]:
    account = session.get(Account, 1)
    unread_inbox = session.scalar(
        select(func.count(func.distinct(Message.thread_id)))
        .where(*folder_conds("inbox", now), Message.is_read == false(), inbox_category_cond("primary", account)))
    unread_spam = session.scalar(
        select(func.count(func.distinct(Message.thread_id))).where(*folder_conds("spam", now), Message.is_read == false()))
    drafts = session.scalar(select(func.count(Message.id)).where(*folder_conds("drafts", now)))
    scheduled = session.scalar(select(func.count(Message.id)).where(*folder_conds("scheduled", now)))
    label_unread = dict(session.execute(
        select(MessageLabel.label_id, func.count(func.distinct(Message.thread_id)))
        .join(Message, Message.id == MessageLabel.message_id)
        .where(Message.is_read == false(), *not_trashed_or_spam()).group_by(MessageLabel.label_id)).all())
    cat_unread = dict(session.execute(
        select(Thread.category, func.count(func.distinct(Message.thread_id)))
        .join(Thread, Thread.id == Message.thread_id)
        .where(Message.is_read == false(), *not_trashed_or_spam()).group_by(Thread.category)).all())
    return {"inbox": unread_inbox or 0, "spam": unread_spam or 0, "drafts": drafts or 0, "scheduled": scheduled or 0,
            "labels": label_unread, "categories": cat_unread}


def tab_info(session: Session, now: dt.datetime) -> dict[str, dict]:
    """Per inbox category: unread conversations and the latest unread senders (for the tab chips)."""
    out: dict[str, dict] = {k: {"unread": 0, "senders": []} for k, _, _ in CATEGORIES}
    q = (select(Thread.category, Message.thread_id, Message.from_name, Message.sent_at)
         .join(Thread, Thread.id == Message.thread_id)
         .where(*folder_conds("inbox", now), Message.is_read == false())
         .order_by(Message.sent_at.desc()))
    seen_threads: dict[str, set] = {k: set() for k in out}
    for cat, tid, name, _ in session.execute(q):
        if cat not in out:
            continue
        seen_threads[cat].add(tid)
        if name not in out[cat]["senders"] and len(out[cat]["senders"]) < 3:
            out[cat]["senders"].append(name)
    for cat in out:
        out[cat]["unread"] = len(seen_threads[cat])
    return out


def contact_suggestions(session: Session, q: str, limit: int = 6) -> list[dict[str, str]]:
    """Compose autocomplete: contacts whose name words or address start with what was typed."""
    q = (q or "").strip().lower()
    if not q:
        return []
    scored = []
    for name, email, saved in session.execute(select(Contact.name, Contact.email, Contact.is_saved)):
        n, e = name.lower(), email.lower()
        if e == q:
            rank = -1
        elif n.startswith(q):
            rank = 0
        elif any(w.startswith(q) for w in n.split()):
            rank = 1
        elif addr_hit(q, e):
            rank = 2
        else:
            continue
        scored.append((rank, not saved, n, name, email))
    scored.sort()
    return [{"name": name, "email": email} for *_k, name, email in scored[:limit]]


def thread_messages(session: Session, thread_id: int) -> tuple[list[Message], int]:
    """The messages shown in a thread, and how many trashed ones are hidden."""
    all_msgs = list(session.scalars(select(Message).where(Message.thread_id == thread_id, Message.is_draft == false(),
                                                          Message.scheduled_at.is_(None))
                                    .order_by(Message.sent_at, Message.id)))
    live = [m for m in all_msgs if not m.is_trashed]
    if live:
        return live, len(all_msgs) - len(live)
    return all_msgs, 0


def and_all(conds: list):
    return and_(*conds) if conds else true()
