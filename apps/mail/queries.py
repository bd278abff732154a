"""Data access for the views: folder filters, paged thread lists, counts, search, thread detail."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import and_, false, func, or_, select, true
from sqlalchemy.orm import Session

from apps.mail import formatting as fmt
from apps.mail.models import Account, Attachment, Contact, Label, Message, MessageLabel, Thread

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
    Folder("sent", "Sent", "send", "/sent"),
    Folder("important", "Important", "label_important", "/important", more=True),
    Folder("all", "All Mail", "mail", "/all", more=True),
    Folder("spam", "Spam", "report", "/spam", more=True),
    Folder("trash", "Trash", "delete", "/trash", more=True),
]
FOLDER_BY_KEY = {f.key: f for f in FOLDERS}


# ------------------------------------------------------------------------------------- filters
def not_trashed_or_spam():
    return [Message.is_trashed == false(), Message.is_spam == false(), Message.is_draft == false()]


def folder_conds(key: str, now: dt.datetime) -> list:
    if key == "inbox":
        return [Message.in_inbox == true(), *not_trashed_or_spam(),
                or_(Message.snoozed_until.is_(None), Message.snoozed_until <= now)]
    if key == "starred":
        return [Message.is_starred == true(), *not_trashed_or_spam()]
    if key == "sent":
        return [Message.is_sent == true(), Message.is_trashed == false(), Message.is_draft == false()]
    if key == "important":
        return [Message.is_important == true(), *not_trashed_or_spam()]
    if key == "all":
        return not_trashed_or_spam()
    if key == "spam":
        return [Message.is_spam == true(), Message.is_trashed == false()]
    if key == "trash":
        return [Message.is_trashed == true()]
    raise KeyError(key)


def visible_conds(key: str) -> list:
    """Which messages of a listed conversation are shown (and count for its date and senders)."""
    if key == "trash":
        return [Message.is_trashed == true()]
    if key == "spam":
        return [Message.is_spam == true(), Message.is_trashed == false()]
    return not_trashed_or_spam()


def label_conds(label_ids: list[int]) -> list:
    sub = select(MessageLabel.message_id).where(MessageLabel.label_id.in_(label_ids))
    return [Message.id.in_(sub), *not_trashed_or_spam()]


# -------------------------------------------------------------------------------------- search
@dataclass
class SearchQuery:
    raw: str
    conds: list = field(default_factory=list)
    scope: str = "default"  # default | trash | spam | anywhere


_TOKEN_RE = re.compile(r'(-?)(?:(\w+):)?("([^"]*)"|\S+)')


def parse_date(s: str) -> dt.datetime | None:
    for pat in ("%Y/%m/%d", "%Y-%m-%d", "%m/%d/%Y"):
        try:
            return dt.datetime.strptime(s, pat)
        except ValueError:
            pass
    return None


def _word_re(term: str, prefix: bool) -> re.Pattern:
    words = [re.escape(w) for w in term.split()]
    body = r"\W+".join(words)
    tail = r"" if prefix else r"(?:s|es)?\b"
    return re.compile(r"(?<!\w)" + body + tail, re.IGNORECASE)


def _addr_hit(term: str, addr: str) -> bool:
    """Gmail-ish address matching: the whole address, its start, or a word of its local part;
    a domain only from its start ('tidewater' finds @tidewater-analytics.com, 'analytics' does not)."""
    t, a = term.lower(), (addr or "").lower()
    if not t or not a:
        return False
    if "@" in t:
        return t in a
    local, _, domain = a.partition("@")
    if local.startswith(t) or domain.startswith(t):
        return True
    return any(part.startswith(t) for part in re.split(r"[._+-]", local))


class _Text:
    """A text term of a search, evaluated in Python over the messages (word-aware, like Gmail)."""

    def __init__(self, field: str, term: str, names: dict[str, str]):
        self.field, self.term = field, term.strip()
        self.prefix = _word_re(self.term, prefix=True)
        self.whole = _word_re(self.term, prefix=False)
        self.names = names  # email -> name (contacts and me)

    def _addrs_hit(self, addrs) -> bool:
        for a in addrs or []:
            if _addr_hit(self.term, a) or self.prefix.search(self.names.get(a.lower(), "")):
                return True
        return False

    def __call__(self, m) -> bool:
        if self.field == "from":
            return _addr_hit(self.term, m.from_email) or bool(self.prefix.search(m.from_name or ""))
        if self.field in ("to", "cc", "bcc"):
            return self._addrs_hit(getattr(m, self.field))
        if self.field == "subject":
            return bool(self.prefix.search(m.subject or ""))
        return (bool(self.prefix.search(m.from_name or "")) or _addr_hit(self.term, m.from_email)
                or bool(self.whole.search(m.subject or "")) or bool(self.whole.search(m.body or ""))
                or self._addrs_hit(m.to) or self._addrs_hit(m.cc))


def parse_search(session: Session, q: str, now: dt.datetime) -> SearchQuery:
    sq = SearchQuery(q)
    texts: list[tuple[bool, _Text]] = []
    names: dict[str, str] | None = None

    def text(field: str, term: str) -> None:
        nonlocal names
        if names is None:
            names = {e.lower(): n for e, n in session.execute(select(Contact.email, Contact.name))}
            acct = session.get(Account, 1)
            if acct:
                names[acct.email.lower()] = acct.name + " me"
        texts.append((neg, _Text(field, term, names)))

    for m in _TOKEN_RE.finditer(q or ""):
        neg, op, whole, quoted = bool(m.group(1)), (m.group(2) or "").lower(), m.group(3), m.group(4)
        val = quoted if quoted is not None else whole
        if not val:
            continue
        cond = None
        if op == "from" and val.lower() == "me":
            cond = Message.is_sent == true()
        elif op in ("from", "to", "cc", "bcc", "subject"):
            text(op, val)
            continue
        elif op == "is":
            v = val.lower()
            cond = {"unread": Message.is_read == false(), "read": Message.is_read == true(),
                    "starred": Message.is_starred == true(), "important": Message.is_important == true(),
                    "sent": Message.is_sent == true()}.get(v)
        elif op == "in":
            v = val.lower()
            if v in ("trash", "spam", "anywhere"):
                sq.scope = v
                continue
            cond = {"inbox": Message.in_inbox == true(), "sent": Message.is_sent == true(),
                    "starred": Message.is_starred == true(), "important": Message.is_important == true()}.get(v)
        elif op == "label":
            ids = [i for (i,) in session.execute(select(Label.id).where(func.lower(Label.name) == val.lower().split("/")[-1]))]
            cond = Message.id.in_(select(MessageLabel.message_id).where(MessageLabel.label_id.in_(ids or [-1])))
        elif op == "has" and val.lower() in ("attachment", "attachments"):
            cond = Message.id.in_(select(Attachment.message_id))
        elif op == "filename":
            cond = Message.id.in_(select(Attachment.message_id).where(Attachment.filename.ilike(f"%{val}%")))
        elif op == "category":
            cond = Message.thread_id.in_(select(Thread.id).where(Thread.category == val.lower()))
        elif op in ("after", "before", "newer", "older"):
            d = parse_date(val)
            if d is not None:
                cond = Message.sent_at >= d if op in ("after", "newer") else Message.sent_at < d
        elif op in ("newer_than", "older_than"):
            mm = re.fullmatch(r"(\d+)([dmy])", val.lower())
            if mm:
                n, unit = int(mm.group(1)), mm.group(2)
                delta = dt.timedelta(days=n * {"d": 1, "m": 30, "y": 365}[unit])
                cond = Message.sent_at >= now - delta if op == "newer_than" else Message.sent_at < now - delta
        if cond is None:  # a plain word or phrase (an unknown operator is searched as text)
            text("", m.group(0).lstrip("-").strip('"') if op else val)
            continue
        sq.conds.append(~cond if neg else cond)
    if texts:
        cols = (Message.id, Message.from_name, Message.from_email, Message.to, Message.cc, Message.bcc,
                Message.subject, Message.body)
        hits = [r.id for r in session.execute(select(*cols))
                if all(t(r) != negate for negate, t in texts)]
        sq.conds.append(Message.id.in_(hits or [-1]))
    if sq.scope == "trash":
        sq.conds.append(Message.is_trashed == true())
    elif sq.scope == "spam":
        sq.conds += [Message.is_spam == true(), Message.is_trashed == false()]
    elif sq.scope == "default":
        sq.conds += not_trashed_or_spam()
    return sq


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
        return bool(self.me) and email.lower() == self.me.email.lower()

    def name(self, email: str) -> str:
        if self.is_me(email):
            return self.me.name
        return self.names.get(email.lower()) or email.split("@")[0]

    def short(self, email: str) -> str:
        """'me' for me, a first name for others."""
        if self.is_me(email):
            return "me"
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


def _senders(msgs: list[Message], d: Directory, sent_view: bool) -> list[tuple[str, bool]]:
    if sent_view:
        mine = [m for m in msgs if m.is_sent] or msgs
        rec = []
        for e in mine[-1].to or []:
            n = d.short(e) if len(mine[-1].to) > 1 else d.name(e)
            rec.append(n)
        return [("To: " + (", ".join(rec) or "(no recipients)"), False)]
    seen: dict[str, bool] = {}
    order: list[str] = []
    for m in msgs:
        key = "me" if m.is_sent else m.from_email.lower()
        if key in seen:
            order.remove(key)
        order.append(key)
        seen[key] = seen.get(key, False) or not m.is_read
    names = {}
    for m in msgs:
        key = "me" if m.is_sent else m.from_email.lower()
        names[key] = m.from_name or m.from_email
    if len(order) == 1:
        k = order[0]
        return [("me" if k == "me" else names[k], seen[k])]
    # Gmail keeps the first sender, then the most recent ones; first names when several.
    first = next(("me" if m.is_sent else m.from_email.lower()) for m in msgs)
    keys = [first] + [k for k in order if k != first]
    if len(keys) > 3:
        keys = [keys[0], "..", *keys[-2:]]
    out = []
    for k in keys:
        if k == "..":
            out.append(("..", False))
        else:
            out.append(("me" if k == "me" else fmt.first_name(names[k]), seen[k]))
    return out


def list_threads(session: Session, conds: list, visible: list, now: dt.datetime, page: int, page_size: int,
                 category: str | None = None, sent_view: bool = False, hide_label_id: int | None = None
                 ) -> tuple[list[Row], int]:
    matching = select(Message.thread_id).where(*conds)
    if category:
        matching = matching.where(Message.thread_id.in_(select(Thread.id).where(Thread.category == category)))
    total = session.scalar(select(func.count(func.distinct(Message.thread_id))).where(*conds,
                           *( [Message.thread_id.in_(select(Thread.id).where(Thread.category == category))] if category else [])))
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
        r = Row(
            id=tid,
            subject=t.subject or "(no subject)",
            snippet=fmt.snippet(latest.body),
            senders=_senders(ms, d, sent_view),
            count=len(ms),
            unread=any(not m.is_read for m in ms),
            starred=any(m.is_starred for m in ms),
            important=any(m.is_important for m in ms),
            in_inbox=any(m.in_inbox for m in ms),
            last=latest.sent_at,
            date=fmt.list_date(latest.sent_at, now),
            date_title=fmt.long_date(latest.sent_at),
            labels=sorted(labels_by_thread[tid].values(), key=lambda lab: lab.name.lower()),
            attachments=atts[tid],
        )
        sender_text = ", ".join(n for n, _ in r.senders)
        r.aria = f"{'Unread, ' if r.unread else ''}{sender_text}, {r.subject}, {r.date}"
        rows.append(r)
    return rows, total or 0


# -------------------------------------------------------------------------------------- counts
def rail_counts(session: Session, now: dt.datetime) -> dict[str, Any]:
    unread_inbox = session.scalar(
        select(func.count(func.distinct(Message.thread_id)))
        .where(*folder_conds("inbox", now), Message.is_read == false(),
               Message.thread_id.in_(select(Thread.id).where(Thread.category == "primary"))))
    unread_spam = session.scalar(
        select(func.count(func.distinct(Message.thread_id))).where(*folder_conds("spam", now), Message.is_read == false()))
    label_unread = dict(session.execute(
        select(MessageLabel.label_id, func.count(func.distinct(Message.thread_id)))
        .join(Message, Message.id == MessageLabel.message_id)
        .where(Message.is_read == false(), *not_trashed_or_spam()).group_by(MessageLabel.label_id)).all())
    return {"inbox": unread_inbox or 0, "spam": unread_spam or 0, "labels": label_unread}


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


def labels_tree(session: Session) -> list[tuple[Label, int, str]]:
    """Labels in rail order: (label, depth, full path 'Work/Clients')."""
    labs = list(session.scalars(select(Label).order_by(Label.name)))
    by_parent: dict[int | None, list[Label]] = {}
    for lab in labs:
        by_parent.setdefault(lab.parent_id, []).append(lab)
    out: list[tuple[Label, int, str]] = []

    def walk(parent: int | None, depth: int, prefix: str):
        for lab in sorted(by_parent.get(parent, []), key=lambda x: x.name.lower()):
            path = f"{prefix}{lab.name}"
            out.append((lab, depth, path))
            walk(lab.id, depth + 1, path + "/")

    walk(None, 0, "")
    return out


def label_by_path(session: Session, path: str) -> Label | None:
    for lab, _depth, full in labels_tree(session):
        if full.lower() == path.lower():
            return lab
    return None


def label_descendants(session: Session, label: Label) -> list[int]:
    ids = [label.id]
    tree = labels_tree(session)
    changed = True
    while changed:
        changed = False
        for lab, _d, _p in tree:
            if lab.parent_id in ids and lab.id not in ids:
                ids.append(lab.id)
                changed = True
    return ids


def contact_suggestions(session: Session, q: str, limit: int = 6) -> list[dict[str, str]]:
    """Compose autocomplete: contacts whose name words or address start with what was typed."""
    q = (q or "").strip().lower()
    if not q:
        return []
    scored = []
    for name, email, saved in session.execute(select(Contact.name, Contact.email, Contact.is_saved)):
        n, e = name.lower(), email.lower()
        if n.startswith(q):
            rank = 0
        elif any(w.startswith(q) for w in n.split()):
            rank = 1
        elif _addr_hit(q, e):
            rank = 2
        else:
            continue
        scored.append((rank, not saved, n, name, email))
    scored.sort()
    return [{"name": name, "email": email} for *_k, name, email in scored[:limit]]


def thread_messages(session: Session, thread_id: int) -> tuple[list[Message], int]:
    """The messages shown in a thread, and how many trashed ones are hidden."""
    all_msgs = list(session.scalars(select(Message).where(Message.thread_id == thread_id, Message.is_draft == false())
                                    .order_by(Message.sent_at, Message.id)))
    live = [m for m in all_msgs if not m.is_trashed]
    if live:
        return live, len(all_msgs) - len(live)
    return all_msgs, 0


def and_all(conds: list):
    return and_(*conds) if conds else true()
