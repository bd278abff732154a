"""Inkbox's rules: which folder a message is in (Inbox, Trash, Spam, Drafts, Scheduled, Snoozed...), and how
an address answers a search word. The app's lists, counts and search (apps/mail/queries.py,
apps/mail/search.py, which turn these rules into SQL) and the task templates' `Mailbox`
(tasks/templates/mail/_common.py, which evaluates them over plain rows) read them here.

Also here: a message's size and the size operators' units and comparison (`parse_size`, `message_size`,
`size_matches`), which the search language (apps/mail/search.py) calls.

A rule is a tuple of tests, all of which must hold: `(field, test)` over a message's plain fields, the test
`True` / `False` for a flag, `SET` / `UNSET` for a date that is there or not, `FUTURE` for a date after now,
`NOT_FUTURE` for no date or one at or before now.
"""

from __future__ import annotations

import datetime as dt
import re
from fractions import Fraction
from typing import Any

SET, UNSET, FUTURE, NOT_FUTURE = "set", "unset", "future", "not future"
Rule = tuple[tuple[str, Any], ...]

# Live mail: not in Trash or Spam, not a draft, not waiting to be sent.
LIVE: Rule = (("is_trashed", False), ("is_spam", False), ("is_draft", False), ("scheduled_at", UNSET))
# Snoozed now (whatever else holds), and "in the inbox" (its flag, and not snoozed now).
SNOOZED: Rule = (("snoozed_until", FUTURE),)
IN_INBOX: Rule = (("in_inbox", True), ("snoozed_until", NOT_FUTURE))

# The messages each folder lists.
FOLDERS: dict[str, Rule] = {
    "inbox": (("in_inbox", True), *LIVE, ("snoozed_until", NOT_FUTURE)),
    "starred": (("is_starred", True), *LIVE),
    "snoozed": (*SNOOZED, *LIVE),
    "sent": (("is_sent", True), ("is_trashed", False), ("is_draft", False)),
    "drafts": (("is_draft", True), ("is_trashed", False)),
    "scheduled": (("scheduled_at", SET), ("is_draft", False), ("is_trashed", False)),
    "important": (("is_important", True), *LIVE),
    "all": LIVE,
    "spam": (("is_spam", True), ("is_trashed", False)),
    "trash": (("is_trashed", True),),
}
# The messages of a listed conversation that are shown (and count for its date and senders): the folder's
# own messages in Trash, Spam, Drafts and Scheduled; live mail in every other list.
SHOWN_IN: dict[str, Rule] = {k: FOLDERS[k] for k in ("trash", "spam", "drafts", "scheduled")}
# Where a search looks (`in:trash`, `in:anywhere`...); any other scope is live mail.
SEARCH_SCOPES: dict[str, Rule] = {**{k: FOLDERS[k] for k in ("trash", "spam", "drafts", "scheduled", "snoozed")},
                                  "anywhere": (("is_draft", False),)}


def shown_rule(folder: str) -> Rule:
    return SHOWN_IN.get(folder, LIVE)


def scope_rule(scope: str) -> Rule:
    return SEARCH_SCOPES.get(scope, LIVE)


def _field(m: Any, name: str) -> Any:
    return m[name] if isinstance(m, dict) else getattr(m, name)


def holds(rule: Rule, m: Any, now: dt.datetime) -> bool:
    """Whether a message (a row dict or an ORM object) passes every test of `rule` at `now`."""
    for name, test in rule:
        v = _field(m, name)
        if test == SET:
            ok = v is not None
        elif test == UNSET:
            ok = v is None
        elif test == FUTURE:
            ok = v is not None and v > now
        elif test == NOT_FUTURE:
            ok = v is None or v <= now
        else:
            ok = bool(v) == test
        if not ok:
            return False
    return True


def in_folder(m: Any, folder: str, now: dt.datetime) -> bool:
    return holds(FOLDERS[folder], m, now)


def addr_hit(term: str, addr: str) -> bool:
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


# Message size, as Gmail's `larger:` / `smaller:` / `size:` read it: the message's text (subject, plain body and
# formatted body, UTF-8 bytes) plus its attachments' bytes. Units are binary, as the clone's size labels
# ("2.1 MB" = 2.1 x 1024 x 1024 bytes): K/KB = 1024, M/MB = 1024 x 1024; a bare number is bytes.
SIZE_UNITS = {"": 1, "b": 1, "byte": 1, "bytes": 1, "k": 1024, "kb": 1024, "m": 1024 ** 2, "mb": 1024 ** 2}
SIZE_OPERATORS = ("larger", "smaller", "size")
_SIZE_RE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*", re.IGNORECASE)


def parse_size(text: str) -> int | None:
    """'2M' -> 2097152, '500K' / '500kb' -> 512000, '1000000' -> 1000000 bytes; None if `text` is not a size."""
    m = _SIZE_RE.fullmatch(text or "")
    if not m or m.group(2).lower() not in SIZE_UNITS:
        return None
    return int(Fraction(m.group(1)) * SIZE_UNITS[m.group(2).lower()])  # exact: no float overflow or rounding


def message_size(subject: str | None, body: str | None, body_html: str | None, attachment_sizes) -> int:
    """A message's size in bytes (what the size operators compare)."""
    text = sum(len((s or "").encode("utf-8")) for s in (subject, body, body_html))
    return text + sum(int(a or 0) for a in attachment_sizes)


def size_matches(op: str, size: int, threshold: int) -> bool:
    """`larger:N` and Gmail's `size:N` find messages larger than N bytes, `smaller:N` smaller than N (strict)."""
    if op not in SIZE_OPERATORS:
        raise ValueError(f"not a size operator: {op!r}")
    return size < threshold if op == "smaller" else size > threshold
