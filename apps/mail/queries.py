"""Data access for the views: folder filters, paged thread lists, counts, search, thread detail."""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import String, and_, cast, false, func, or_, select, true
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
    return [Message.is_trashed == false(), Message.is_spam == false(), Message.is_draft == false(),
            Message.scheduled_at.is_(None)]


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
    if key == "inbox":
        return [Message.in_inbox == true(), *not_trashed_or_spam(),
                or_(Message.snoozed_until.is_(None), Message.snoozed_until <= now)]
    if key == "starred":
        return [Message.is_starred == true(), *not_trashed_or_spam()]
    if key == "snoozed":
        return [Message.snoozed_until > now, *not_trashed_or_spam()]
    if key == "sent":
        return [Message.is_sent == true(), Message.is_trashed == false(), Message.is_draft == false()]
    if key == "drafts":
        return [Message.is_draft == true(), Message.is_trashed == false()]
    if key == "scheduled":
        return [Message.scheduled_at.is_not(None), Message.is_draft == false(), Message.is_trashed == false()]
    if key == "important":
        return [Message.is_important == true(), *not_trashed_or_spam()]
    if key == "all":
        return not_trashed_or_spam()
    if key == "spam":
        return [Message.is_spam == true(), Message.is_trashed == false()]
    if key == "trash":
        return [Message.is_trashed == true()]
    if key.startswith("category:"):
        return [*not_trashed_or_spam(), Message.thread_id.in_(select(Thread.id).where(Thread.category == key[9:]))]
    raise KeyError(key)


def visible_conds(key: str) -> list:
    """Which messages of a listed conversation are shown (and count for its date and senders)."""
    if key == "trash":
        return [Message.is_trashed == true()]
    if key == "spam":
        return [Message.is_spam == true(), Message.is_trashed == false()]
    if key == "drafts":
        return [Message.is_draft == true(), Message.is_trashed == false()]
    if key == "scheduled":
        return [Message.scheduled_at.is_not(None), Message.is_draft == false(), Message.is_trashed == false()]
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


_TOKEN_RE = re.compile(r'(-?)(?:(\w+):)?("([^"]*)"|\([^()]*\)|\S+)')


def parse_date(s: str) -> dt.datetime | None:
    for pat in ("%Y/%m/%d", "%Y-%m-%d", "%m/%d/%Y"):
        try:
            return dt.datetime.strptime(s, pat)
        except ValueError:
            pass
    return None


def _word_re(term: str, prefix: bool) -> re.Pattern:
    """Words in order, whatever punctuation sits between or around them (Gmail ignores it)."""
    words = [re.escape(w) for w in re.findall(r"\w+", term)]
    if not words:
        return re.compile(r"(?!x)x")
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


class _AnyText:
    """`from:(a OR b)`: any of the alternatives."""

    def __init__(self, parts: list[_Text]):
        self.parts = parts

    def __call__(self, m) -> bool:
        return any(p(m) for p in self.parts)


def _norm_label(s: str) -> str:
    return re.sub(r"[\s_-]+", "-", s.strip().lower())


def labels_matching(session: Session, val: str) -> list[int]:
    """label:work, label:work/clients, label:work-clients, label:"2024 Archive" -> label ids (with sublabels)."""
    want = _norm_label(val)
    ids = []
    for lab, _depth, path in labels_tree(session):
        if _norm_label(path) == want or _norm_label(path.replace("/", "-")) == want or _norm_label(lab.name) == want:
            ids += label_descendants(session, lab)
    return list(dict.fromkeys(ids))


SCOPES = {"trash", "spam", "anywhere", "drafts", "draft", "scheduled", "snoozed", "all"}


def parse_search(session: Session, q: str, now: dt.datetime) -> SearchQuery:
    sq = SearchQuery(q)
    texts: list[tuple[bool, _Text]] = []
    names: dict[str, str] | None = None

    def text(field: str, term: str) -> None:
        nonlocal names
        if not re.search(r"\w", term):
            return  # punctuation alone ("&", "-") is not searched, as in Gmail
        if names is None:
            names = {e.lower(): n for e, n in session.execute(select(Contact.email, Contact.name))}
            acct = session.get(Account, 1)
            if acct:
                names[acct.email.lower()] = acct.name + " me"
        alts = [t.strip() for t in re.split(r"\s+OR\s+|\s*\|\s*", term) if t.strip()]
        if len(alts) > 1:
            texts.append((neg, _AnyText([_Text(field, a, names) for a in alts])))
        else:
            texts.append((neg, _Text(field, term, names)))

    for m in _TOKEN_RE.finditer(q or ""):
        neg, op, whole, quoted = bool(m.group(1)), (m.group(2) or "").lower(), m.group(3), m.group(4)
        val = quoted if quoted is not None else whole
        if val and val.startswith("(") and val.endswith(")"):
            val = val[1:-1].strip().strip('"')
        if not val:
            continue
        cond = None
        if op == "from" and val.lower() == "me":
            acct = session.get(Account, 1)
            cond = func.lower(Message.from_email) == (acct.email.lower() if acct else "")
        elif op in ("from", "to", "cc", "bcc", "subject"):
            text(op, val)
            continue
        elif op == "is":
            v = val.lower()
            if v == "snoozed":
                cond = Message.snoozed_until > now
            else:
                cond = {"unread": Message.is_read == false(), "read": Message.is_read == true(),
                        "starred": Message.is_starred == true(), "important": Message.is_important == true(),
                        "sent": Message.is_sent == true()}.get(v)
        elif op == "in":
            v = val.lower()
            if v in SCOPES:
                sq.scope = "drafts" if v == "draft" else v
                continue
            cond = {"inbox": and_(Message.in_inbox == true(), or_(Message.snoozed_until.is_(None), Message.snoozed_until <= now)),
                    "sent": Message.is_sent == true(),
                    "starred": Message.is_starred == true(), "important": Message.is_important == true()}.get(v)
        elif op == "label":
            ids = labels_matching(session, val)
            cond = Message.id.in_(select(MessageLabel.message_id).where(MessageLabel.label_id.in_(ids or [-1])))
        elif op == "has" and val.lower() in ("attachment", "attachments"):
            cond = Message.id.in_(select(Attachment.message_id))
        elif op == "has" and val.lower() in ("userlabels", "nouserlabels"):
            cond = Message.id.in_(select(MessageLabel.message_id))
            if val.lower() == "nouserlabels":
                cond = ~cond
        elif op == "filename":
            cond = Message.id.in_(select(Attachment.message_id).where(Attachment.filename.ilike(f"%{val}%")))
        elif op == "category":
            cond = Message.thread_id.in_(select(Thread.id).where(Thread.category == val.lower()))
        elif op in ("after", "before", "newer", "older"):
            d = parse_date(val)
            if d is not None:
                cond = Message.sent_at >= d if op in ("after", "newer") else Message.sent_at < d
        elif op in ("newer_than", "older_than"):
            mm = re.fullmatch(r"(\d+)([dwmy])", val.lower())
            if mm:
                n, unit = int(mm.group(1)), mm.group(2)
                delta = dt.timedelta(days=n * {"d": 1, "w": 7, "m": 30, "y": 365}[unit])
                cond = Message.sent_at >= now - delta if op == "newer_than" else Message.sent_at < now - delta
        if cond is None:  # a plain word or phrase (an unknown operator is searched as text)
            text("", m.group(0).lstrip("-").strip('"') if op else val)
            continue
        sq.conds.append(~cond if neg else cond)
    if texts:
        sq.conds.append(Message.id.in_(_text_hits(session, texts, names or {}) or [-1]))
    sq.conds += scope_conds(sq.scope, now)
    return sq


class _Row:
    __slots__ = ("id", "from_name", "from_email", "subject", "body", "to", "cc", "bcc")

    def __init__(self, r):
        self.id, self.from_name, self.from_email, self.subject, self.body = r[0], r[1], r[2], r[3], r[4]
        self.to, self.cc, self.bcc = (json.loads(x) if x else [] for x in r[5:8])


def _text_hits(session: Session, texts: list, names: dict[str, str]) -> list[int]:
    """Ids of the messages every text term accepts. Raw rows first, and a cheap substring prefilter for the
    positive plain-text terms, so only candidate rows pay for JSON decoding and the word-aware regexes."""
    raw = session.execute(select(Message.id, Message.from_name, Message.from_email, Message.subject, Message.body,
                                 cast(Message.to, String), cast(Message.cc, String), cast(Message.bcc, String))).all()
    quick = [t for negate, t in texts if not negate and isinstance(t, _Text) and t.field == ""]
    if quick:
        checks = []
        for t in quick:
            words = [w.lower() for w in re.findall(r"\w+", t.term)]
            by_name = [a for a, n in names.items() if all(w in n.lower() for w in words)]
            checks.append((words, by_name))

        def maybe(r) -> bool:
            hay = f"{r[1] or ''} {r[2] or ''} {r[3] or ''} {r[4] or ''} {r[5] or ''} {r[6] or ''}".lower()
            for words, by_name in checks:
                if not all(w in hay for w in words) and not any(a in hay for a in by_name):
                    return False
            return True

        raw = [r for r in raw if maybe(r)]
    rows = [_Row(r) for r in raw]
    return [r.id for r in rows if all(t(r) != negate for negate, t in texts)]


def scope_conds(scope: str, now: dt.datetime) -> list:
    if scope == "trash":
        return [Message.is_trashed == true()]
    if scope == "spam":
        return [Message.is_spam == true(), Message.is_trashed == false()]
    if scope == "drafts":
        return folder_conds("drafts", now)
    if scope == "scheduled":
        return folder_conds("scheduled", now)
    if scope == "snoozed":
        return folder_conds("snoozed", now)
    if scope == "anywhere":
        return [Message.is_draft == false()]
    return not_trashed_or_spam()


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
            n = d.short(e) if len(mine[-1].to) > 1 else d.name(e)
            rec.append(n)
        return [("To: " + (", ".join(rec) or "(no recipients)"), False)]
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
        return [("me" if k == "me" else names[k], seen[k])]
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
            out.append(("me" if k == "me" else fmt.first_name(names[k]), seen[k]))
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
            subject=(latest.subject if view in ("drafts", "scheduled") else t.subject) or "(no subject)",
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
            to = ", ".join(d.short(e) if len(latest.to) > 1 else d.name(e) for e in latest.to)
            r.senders = [(to, False)] if to else [("(no recipients)", False)]
            r.unread = False
        snz = [m.snoozed_until for m in ms if m.snoozed_until and m.snoozed_until > now]
        if snz:
            r.snoozed_until = max(snz)
            if view == "snoozed":
                r.date = fmt.snooze_label(r.snoozed_until, now)
                r.date_title = "Snoozed until " + fmt.long_date(r.snoozed_until)
        if view == "scheduled":
            r.scheduled_at = latest.scheduled_at
            r.date = fmt.list_date(latest.scheduled_at, now) if latest.scheduled_at else r.date
        sender_text = ", ".join(n for n, _ in r.senders)
        prefix = "Draft, " if view == "drafts" else ("Unread, " if r.unread else "")
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
        if e == q:
            rank = -1
        elif n.startswith(q):
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
    all_msgs = list(session.scalars(select(Message).where(Message.thread_id == thread_id, Message.is_draft == false(),
                                                          Message.scheduled_at.is_(None))
                                    .order_by(Message.sent_at, Message.id)))
    live = [m for m in all_msgs if not m.is_trashed]
    if live:
        return live, len(all_msgs) - len(live)
    return all_msgs, 0


def and_all(conds: list):
    return and_(*conds) if conds else true()
