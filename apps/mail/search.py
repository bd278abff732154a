"""Inkbox's search language, as Gmail reads it: words and "quoted phrases" (word-aware, over sender,
recipients, subject and body), `from:` `to:` `cc:` `bcc:` `subject:` (with `(a OR b)`), `is:` (unread, read, muted,
starred, important, sent, snoozed), `in:` (inbox, sent, starred, important, or a scope: trash, spam, drafts,
scheduled, snoozed, anywhere), `label:`, `has:attachment`, `has:userlabels`/`nouserlabels`, `filename:`,
`category:`, `after:` `before:` `newer:` `older:` (dates), `newer_than:` `older_than:` (2d, 3w, 1m, 1y),
`larger:` `smaller:` `size:` (bytes, or with K / M: 500K, 2M; the size rule is domain/mail.py's), and `-`
to negate any term or group; top-level `OR`, `( )` groups and `{a b}` (either) combine terms (`parse_tree`). `parse_search` turns a query into SQL conditions over `Message`; queries.py re-exports it."""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass, field

from sqlalchemy import String, and_, cast, false, func, or_, select, true
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


# The grammar over the terms, as Gmail reads it: terms side by side must all hold; `a OR b` (upper case) either,
# binding tighter than the side-by-side AND;
# `( ... )` groups; `{a b}` is either term (an OR group); `-` before a term or a group negates it ("Doesn't
# have: a b" is `-{a b}`: none of them). `AND` between terms is accepted and changes nothing.
_TERM_RE = re.compile(r'(-?)(?:(\w+):)?("([^"]*)"|\([^()]*\)|\{[^{}]*\}|[^\s(){}]+)')
_OPEN_RE = re.compile(r"(-?)([({])")


def lex(q: str) -> list[tuple]:
    """A query's tokens: ("open", negated, "(" or "{"), ("close",), ("or",), ("term", match of _TERM_RE)."""
    out: list[tuple] = []
    i, q = 0, q or ""
    while i < len(q):
        if q[i].isspace():
            i += 1
            continue
        m = _OPEN_RE.match(q, i)
        if m:
            out.append(("open", bool(m.group(1)), m.group(2)))
            i = m.end()
            continue
        if q[i] in ")}":
            out.append(("close",))
            i += 1
            continue
        m = _TERM_RE.match(q, i)
        if m.group(0) == "OR":
            out.append(("or",))
        elif m.group(0) != "AND":
            out.append(("term", m))
        i = m.end()
    return out


def parse_tree(q: str) -> tuple:
    """The query as a tree: ("and", [(negated, node)...]), ("or", [node...]) or ("term", match). `OR` binds
    tighter than the terms' AND, as in Gmail: `from:amy OR from:dan dinner` is (amy or dan) and dinner.
    Unbalanced brackets and a dangling OR are forgiven (a stray close is skipped, an open group ends with the
    query)."""
    toks = lex(q)
    pos = 0

    def peek():
        return toks[pos][0] if pos < len(toks) else None

    def unary():
        nonlocal pos
        tok = toks[pos]
        pos += 1
        if tok[0] == "term":
            return False, ("term", tok[1])
        _, neg, kind = tok
        if kind == "(":
            inner = conjunction()
        else:  # {a b c}: any of them
            items = []
            while peek() not in (None, "close"):
                if peek() == "or":
                    pos += 1
                    continue
                items.append(("and", [unary()]))
            inner = ("or", items)
        if peek() == "close":
            pos += 1
        return neg, inner

    def disjunction():
        nonlocal pos
        alts = [unary()]
        while peek() == "or":
            pos += 1
            if peek() in ("term", "open"):
                alts.append(unary())
        return alts[0] if len(alts) == 1 else (False, ("or", [("and", [a]) for a in alts]))

    def conjunction():
        nonlocal pos
        items = []
        while peek() in ("term", "open", "or"):
            if peek() == "or":  # a dangling OR: `OR a` is `a`
                pos += 1
                continue
            items.append(disjunction())
        return ("and", items)

    top = [(False, conjunction())]
    while pos < len(toks):  # a stray close: skip it and read on
        pos += 1
        top.append((False, conjunction()))
    return ("and", top)


def parse_search(session: Session, q: str, now: dt.datetime) -> SearchQuery:
    sq = SearchQuery(q)
    names: dict[str, str] | None = None
    sizes: dict[int, int] | None = None

    def text(field: str, term: str):
        nonlocal names
        if not re.search(r"\w", term):
            return None  # punctuation alone ("&", "-") is not searched, as in Gmail
        if names is None:
            names = {e.lower(): n for e, n in session.execute(select(Contact.email, Contact.name))}
            acct = session.get(Account, 1)
            if acct:
                names[acct.email.lower()] = acct.name + " me"
        alts = [t.strip() for t in re.split(r"\s+OR\s+|\s*\|\s*", term) if t.strip()]
        if len(alts) > 1:
            return _AnyText([_Text(field, a, names) for a in alts])
        return _Text(field, term, names)

    def leaf(m):
        """One term: a SQL condition, a text test (evaluated in Python), or None (no constraint)."""
        nonlocal sizes
        op, whole, quoted = (m.group(2) or "").lower(), m.group(3), m.group(4)
        val = quoted if quoted is not None else whole
        if val and val.startswith("(") and val.endswith(")"):
            val = val[1:-1].strip().strip('"')
        elif op and val and val.startswith("{") and val.endswith("}"):  # from:{a b}: either
            val = " OR ".join(val[1:-1].split())
        if not val:
            return None
        cond = None
        if op == "from" and val.lower() == "me":
            acct = session.get(Account, 1)
            cond = func.lower(Message.from_email) == (acct.email.lower() if acct else "")
        elif op in ("from", "to", "cc", "bcc", "subject"):
            return text(op, val)
        elif op == "is":
            cond = is_condition(val.lower(), now)
        elif op == "in":
            v = val.lower()
            if v in SCOPES:
                sq.scope = "drafts" if v == "draft" else v
                return None
            cond = {"inbox": and_(*where(rules.IN_INBOX, now)),
                    "sent": Message.is_sent == true(),
                    "starred": Message.is_starred == true(), "important": Message.is_important == true()}.get(v)
        elif op == "label":
            ids = labels_matching(session, val)
            cond = Message.id.in_(select(MessageLabel.message_id).where(MessageLabel.label_id.in_(ids or [-1])))
        elif op == "has" and val.lower() in ("attachment", "attachments"):
            cond = Message.id.in_(select(Attachment.message_id))
        elif op == "has" and val.lower() == "yellow-star":  # the clone's one star is Gmail's yellow star
            cond = Message.is_starred == true()
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
            return text("", m.group(0).lstrip("-").strip('"') if op else val)
        return cond

    def conds(node) -> list:
        """The SQL conditions, all of which must hold, for a node (an empty list: no constraint)."""
        if node[0] == "or":
            parts = [both(c) for c in node[1]]
            if not parts or any(p is None for p in parts):
                return []  # an alternative without constraint lets everything through
            return [or_(*parts)]
        if node[0] == "term":
            return conds(("and", [(False, node)]))
        out, texts = [], []
        for neg, child in node[1]:
            if child[0] == "term":
                neg = neg or child[1].group(1) == "-"
                got = leaf(child[1])
                if got is None:
                    continue
                if isinstance(got, (_Text, _AnyText)):
                    texts.append((neg, got))
                    continue
                out.append(negate(got) if neg else got)  # NULL-safe: -t finds what t does not
                continue
            c = both(child)
            if c is not None:
                out.append(negate(c) if neg else c)
        if texts:
            out.append(Message.id.in_(_text_hits(session, texts, names or {}) or [-1]))
        return out

    def both(node):
        cs = conds(node)
        return None if not cs else cs[0] if len(cs) == 1 else and_(*cs)

    sq.conds = conds(parse_tree(q))
    sq.conds += scope_conds(sq.scope, now)
    return sq


def is_condition(v: str, now: dt.datetime):
    """`is:` words Gmail has that the clone's data holds; None for any other (then searched as text)."""
    if v == "snoozed":
        return and_(*where(rules.SNOOZED, now))
    if v == "muted":
        return Message.thread_id.in_(select(Thread.id).where(Thread.is_muted == true()))
    return {"unread": Message.is_read == false(), "read": Message.is_read == true(),
            "starred": Message.is_starred == true(), "important": Message.is_important == true(),
            "sent": Message.is_sent == true()}.get(v)


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
