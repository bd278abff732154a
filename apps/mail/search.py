"""Inkbox's search language, as Gmail reads it: words and "quoted phrases" (word-aware, over sender,
recipients, subject and body), `from:` `to:` `cc:` `bcc:` `subject:` (with `(a OR b)`), `is:` (unread, read,
starred, important, sent, snoozed), `in:` (inbox, sent, starred, important, or a scope: trash, spam, drafts,
scheduled, snoozed, anywhere), `label:`, `has:attachment`, `has:userlabels`/`nouserlabels`, `filename:`,
`category:`, `after:` `before:` `newer:` `older:` (dates), `newer_than:` `older_than:` (2d, 3w, 1m, 1y),
`larger:` `smaller:` `size:` (bytes, or with K / M: 500K, 2M; the size rule is domain/mail.py's), and `-`
to negate any term. `parse_search` turns a query into SQL conditions over `Message`; queries.py re-exports it."""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass, field

from sqlalchemy import String, and_, cast, false, func, select, true
from sqlalchemy.orm import Session

from apps.mail.folders import label_descendants, labels_tree, negate, where
from apps.mail.models import Account, Attachment, Contact, Message, MessageLabel, Thread
from domain import mail as rules
from domain.mail import addr_hit

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


class _Text:
    """A text term of a search, evaluated in Python over the messages (word-aware, like Gmail)."""

    def __init__(self, field: str, term: str, names: dict[str, str]):
        self.field, self.term = field, term.strip()
        self.prefix = _word_re(self.term, prefix=True)
        self.whole = _word_re(self.term, prefix=False)
        self.names = names  # email -> name (contacts and me)

    def _addrs_hit(self, addrs) -> bool:
        for a in addrs or []:
            if addr_hit(self.term, a) or self.prefix.search(self.names.get(a.lower(), "")):
                return True
        return False

    def __call__(self, m) -> bool:
        if self.field == "from":
            return addr_hit(self.term, m.from_email) or bool(self.prefix.search(m.from_name or ""))
        if self.field in ("to", "cc", "bcc"):
            return self._addrs_hit(getattr(m, self.field))
        if self.field == "subject":
            return bool(self.prefix.search(m.subject or ""))
        return (bool(self.prefix.search(m.from_name or "")) or addr_hit(self.term, m.from_email)
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
    sizes: dict[int, int] | None = None

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
                cond = and_(*where(rules.SNOOZED, now))
            else:
                cond = {"unread": Message.is_read == false(), "read": Message.is_read == true(),
                        "starred": Message.is_starred == true(), "important": Message.is_important == true(),
                        "sent": Message.is_sent == true()}.get(v)
        elif op == "in":
            v = val.lower()
            if v in SCOPES:
                sq.scope = "drafts" if v == "draft" else v
                continue
            cond = {"inbox": and_(*where(rules.IN_INBOX, now)),
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
                cond = negate(cond)
        elif op == "filename":
            cond = Message.id.in_(select(Attachment.message_id).where(Attachment.filename.ilike(f"%{val}%")))
        elif op == "category":
            cond = Message.thread_id.in_(select(Thread.id).where(Thread.category == val.lower()))
        elif op in ("after", "before", "newer", "older"):
            d = parse_date(val)
            if d is not None:
                cond = Message.sent_at >= d if op in ("after", "newer") else Message.sent_at < d
        elif op in rules.SIZE_OPERATORS:
            threshold = rules.parse_size(val)
            if threshold is not None:
                if sizes is None:
                    sizes = message_sizes(session)
                cond = Message.id.in_([i for i, n in sizes.items() if rules.size_matches(op, n, threshold)] or [-1])
        elif op in ("newer_than", "older_than"):
            mm = re.fullmatch(r"(\d+)([dwmy])", val.lower())
            if mm:
                n, unit = int(mm.group(1)), mm.group(2)
                delta = dt.timedelta(days=n * {"d": 1, "w": 7, "m": 30, "y": 365}[unit])
                cond = Message.sent_at >= now - delta if op == "newer_than" else Message.sent_at < now - delta
        if cond is None:  # a plain word or phrase (an unknown operator is searched as text)
            text("", m.group(0).lstrip("-").strip('"') if op else val)
            continue
        sq.conds.append(negate(cond) if neg else cond)  # NULL-safe: -t finds what t does not
    if texts:
        sq.conds.append(Message.id.in_(_text_hits(session, texts, names or {}) or [-1]))
    sq.conds += scope_conds(sq.scope, now)
    return sq


def message_sizes(session: Session) -> dict[int, int]:
    """Every message's size in bytes (domain/mail.py `message_size`: its text and its attachments)."""
    att: dict[int, list[int]] = {}
    for mid, size in session.execute(select(Attachment.message_id, Attachment.size)):
        att.setdefault(mid, []).append(size)
    return {mid: rules.message_size(subj, body, html, att.get(mid, ()))
            for mid, subj, body, html in session.execute(select(Message.id, Message.subject, Message.body,
                                                                Message.body_html))}


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
    """Where a search looks (`in:trash`, `in:anywhere`...; live mail by default)."""
    return where(rules.scope_rule(scope), now)
