"""What mail templates share: reading the world's mailbox, and the UI steps every solution uses."""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from typing import Any

from domain import mail as mail_rules
from tasks.templates import World

TOOLBAR = {"role": "toolbar", "name": "Conversation actions"}
COMPOSE = {"role": "dialog", "name": "New Message"}
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


class Mailbox:
    """Convenience queries over a mail World (rows exactly as the database holds them)."""

    def __init__(self, w: World):
        self.w = w
        self.now: dt.datetime = w.now
        self.me = w.table("account")[0]
        self.contacts = w.table("contacts")
        self.by_email = {c["email"]: c for c in self.contacts}
        self.threads = {t["id"]: t for t in w.table("threads")}
        self.msgs = w.table("messages")
        self.msg = {m["id"]: m for m in self.msgs}
        self.in_thread: dict[int, list[dict]] = defaultdict(list)
        for m in self.msgs:
            self.in_thread[m["thread_id"]].append(m)
        for ms in self.in_thread.values():
            ms.sort(key=lambda m: (m["sent_at"], m["id"]))
        self.labels = {lab["id"]: lab for lab in w.table("labels")}
        self.label_paths = {lid: self._path(lid) for lid in self.labels}
        self.msg_labels: dict[int, set[int]] = defaultdict(set)
        for ml in w.table("message_labels"):
            self.msg_labels[ml["message_id"]].add(ml["label_id"])
        self.attachments: dict[int, list[dict]] = defaultdict(list)
        for a in w.table("attachments"):
            self.attachments[a["message_id"]].append(a)
        subj_count: dict[str, int] = defaultdict(int)
        for t in self.threads.values():
            subj_count[t["subject"].lower()] += 1
        self._subj_count = subj_count
        self._subjects = [t["subject"].lower() for t in self.threads.values()]

    def _path(self, lid: int) -> str:
        lab = self.labels[lid]
        return (self._path(lab["parent_id"]) + "/" if lab["parent_id"] else "") + lab["name"]

    def label_id(self, path: str) -> int:
        return next(lid for lid, p in self.label_paths.items() if p == path)

    def visible(self, m: dict) -> bool:
        """Live mail (domain/mail.py's rule, as the app lists it)."""
        return mail_rules.holds(mail_rules.LIVE, m, self.now)

    def live(self, tid: int) -> list[dict]:
        return [m for m in self.in_thread[tid] if self.visible(m)]

    def unique_subject(self, tid: int) -> bool:
        """No other conversation's subject contains this one (so a row name picks it alone)."""
        s = self.threads[tid]["subject"].lower()
        if not s or self._subj_count[s] != 1:
            return False
        return sum(1 for x in self._subjects if s in x) == 1

    def unique_among(self, tid: int, tids) -> bool:
        """This conversation's subject picks its row alone in a list of these conversations."""
        s = self.threads[tid]["subject"].lower()
        return bool(s) and sum(1 for t in tids if s in self.threads[t]["subject"].lower()) == 1

    def in_inbox(self, tid: int) -> bool:
        return any(m["in_inbox"] for m in self.live(tid)) and not self.snoozed(tid)

    def snoozed(self, tid: int) -> bool:
        return any(mail_rules.holds(mail_rules.SNOOZED, m, self.now) for m in self.in_thread[tid])

    def is_mine(self, m: dict) -> bool:
        return m["from_email"].lower() == self.me["email"].lower()

    def from_contact(self, email: str) -> list[dict]:
        """Visible messages a contact sent me, newest first."""
        return sorted((m for m in self.msgs if m["from_email"] == email and self.visible(m)),
                      key=lambda m: (m["sent_at"], m["id"]), reverse=True)

    def last(self, tid: int) -> dict:
        return self.live(tid)[-1] if self.live(tid) else self.in_thread[tid][-1]

    def first(self, tid: int) -> dict:
        return self.in_thread[tid][0]

    def plain(self, tid: int) -> bool:
        """A calm conversation for simple tasks: live, unique subject, not snoozed, no drafts."""
        ms = self.in_thread[tid]
        return (bool(ms) and all(self.visible(m) for m in ms) and self.unique_subject(tid)
                and not self.snoozed(tid) and '"' not in self.threads[tid]["subject"])


# ------------------------------------------------------------------------------------ UI steps
def search(query: str) -> list[dict[str, Any]]:
    """Type a query into the search box and run it."""
    return [{"fill": {"role": "searchbox", "name": "Search mail"}, "text": query}, {"press": ["Enter"]}]


def open_row(subject: str) -> dict[str, Any]:
    return {"click": {"role": "row", "name": subject}}


def click(role: str, name: str, exact: bool = False, within: dict | None = None, nth: int = 0) -> dict[str, Any]:
    t: dict[str, Any] = {"role": role, "name": name}
    if exact:
        t["exact"] = True
    if within:
        t["within"] = within
    if nth:
        t["nth"] = nth
    return {"click": t}


def fill(name: str, text: str, role: str = "textbox", exact: bool = False, within: dict | None = None) -> dict:
    t: dict[str, Any] = {"role": role, "name": name}
    if exact:
        t["exact"] = True
    if within:
        t["within"] = within
    return {"fill": t, "text": text}


def toolbar_button(name: str) -> dict[str, Any]:
    return {"click": {"role": "button", "name": name, "exact": True, "within": TOOLBAR}}


def in_row(role: str, name: str, row: str, exact: bool = True) -> dict[str, Any]:
    return {"click": {"role": role, "name": name, "exact": exact, "within": {"role": "row", "name": row}}}


def rail(name: str) -> dict[str, Any]:
    return {"click": {"role": "link", "name": name, "within": {"role": "navigation", "name": "Mailboxes"}}}


def more_then(name: str) -> list[dict[str, Any]]:
    """Open the rail's More section and click one of its links (Spam, Trash, Scheduled...)."""
    return [{"click": {"role": "button", "name": "More", "exact": True, "within": {"role": "navigation", "name": "Mailboxes"}}},
            rail(name)]


def all_settings() -> list[dict[str, Any]]:
    return [{"click": {"role": "button", "name": "Settings", "exact": True}},
            {"click": {"role": "link", "name": "See all settings"}}]


def done(answer: str | None = None) -> dict[str, Any]:
    return {"done": True, "answer": answer} if answer is not None else {"done": True}


def phrase(subject: str) -> str:
    """A search phrase for a subject (quotes inside removed)."""
    return '"' + subject.replace('"', "") + '"'


def iso(d: dt.datetime) -> str:
    return d.isoformat()


def long_date(d: dt.date) -> str:
    """Friday, March 20"""
    return f"{DAYS[d.weekday()]}, {MONTHS[d.month - 1]} {d.day}"


def picker_day(d: dt.date) -> str:
    """The accessible name of a day in the date picker: 'Friday, March 20, 2026'."""
    return f"{DAYS[d.weekday()]}, {MONTHS[d.month - 1]} {d.day}, {d.year}"


def date_regex(d: dt.date) -> str:
    """Matches the ways a person writes a date: 'March 24', 'Mar 24', '3/24', '24 March', '2026-03-24'."""
    mon = MONTHS[d.month - 1]
    return (rf"(?i)(\b{mon}\.?\s+{d.day}(st|nd|rd|th)?\b|\b{mon[:3]}\.?\s+{d.day}(st|nd|rd|th)?\b|\b{d.month}/{d.day}\b|"
            rf"\b{d.day}(st|nd|rd|th)?\s+(of\s+)?{mon[:3]}|{d.isoformat()})")


def digits_regex(phone: str) -> str:
    ds = re.sub(r"\D", "", phone)
    return r"\D*".join(ds)


def clock(t: dt.datetime) -> str:
    return f"{(t.hour % 12) or 12}:{t.minute:02d} {'AM' if t.hour < 12 else 'PM'}"


# ------------------------------------------------------------------------- reward integrity
# Read state is not volatile (apps/mail/__init__.py): opening a conversation marks it read, which is
# looking, but "Mark all as read" over a hundred conversations is a change. Every mail task allows a
# bounded amount of reading instead: at most READ_BUDGET messages may go from unread to read.
# The seed world has one unread message per unread conversation (152 of 1,446), so the budget is about
# as many unread conversations opened: an honest solution opens one to three (the question and the
# email that answers it), and the longest tasks (max_steps <= 26, two steps to open and leave a
# conversation) leave room for a few wrong ones while searching. Ten covers that; it does not cover
# marking a tab, a label or the inbox read. Marking mail unread is never looking: only tasks about it
# allow it, on their own rows.
READ_BUDGET = 10


def reading(n: int = READ_BUDGET) -> dict[str, Any]:
    """The allowance for reading: at most `n` messages may change, and only their `is_read`."""
    return {"table": "messages", "where": {"is_read": True}, "fields": ["is_read"], "max": n}


def no_unread(tids: list[int] | tuple = ()) -> dict[str, Any]:
    """A check: no message went from read to unread (except in the conversations `tids`)."""
    where: dict[str, Any] = {"_before.is_read": True, "is_read": False}
    if tids:
        where["thread_id"] = {"$nin": list(tids)}
    return {"table": "messages", "in": "changed", "where": where, "count": 0,
            "name": "no other mail marked unread" if tids else "no mail marked unread"}


def graded(checks: list[dict], allow: list[dict] | tuple = (), *, read: int = READ_BUDGET,
           unread_ok: list[int] | tuple = ()) -> dict[str, Any]:
    """A mail verify spec: the task's checks and allowances, plus the reading rule shared by every task
    (a bounded reading allowance, no mail marked unread outside `unread_ok`). `read=0` gives no reading
    allowance (tasks about read state allow exactly their own rows)."""
    allowances = list(allow) + ([reading(read)] if read else [])
    return {"checks": list(checks) + [no_unread(unread_ok)], "unchanged_except": allowances}


def on_messages(where: dict[str, Any], fields: list[str], max: int | None = None) -> dict[str, Any]:
    """An update allowance on the task's own messages; `is_read` always rides along, since the
    solution opens them (a change of [in_inbox, is_read] must fit one allowance)."""
    a: dict[str, Any] = {"table": "messages", "where": where, "fields": list(dict.fromkeys([*fields, "is_read"]))}
    if max is not None:
        a["max"] = max
    return a


def competing(values, gold_text: str) -> list[str]:
    """The world's competing facts for an `$excludes`: distinct, non-empty, and none that the gold
    text itself mentions (a forward quotes its original; another instance's fact may be in it)."""
    from grading.matchers import match

    out: list[str] = []
    for v in values:
        v = str(v).strip()
        if v and v not in out and match(gold_text, {"$excludes": [v]}):
            out.append(v)
    return out


def date_forms(d: dt.date) -> list[str]:
    """The ways a date is written that an `$excludes` should catch: 'March 24', 'Mar 24', '3/24', ISO."""
    mon = MONTHS[d.month - 1]
    return list(dict.fromkeys([f"{mon} {d.day}", f"{mon[:3]} {d.day}", f"{d.month}/{d.day}", d.isoformat()]))


def other_dates(now: dt.datetime, keep: list[dt.date], before: int = 31, after: int = 150) -> list[str]:
    """Every other date around `now` (a month back, five months ahead), in its written forms: what a reply
    dumping the calendar would contain, and must not."""
    start = now.date() - dt.timedelta(days=before)
    out: list[str] = []
    for k in range(before + after + 1):
        d = start + dt.timedelta(days=k)
        if d not in keep:
            out += date_forms(d)
    return out


def text_bound(gold: str, slack: int = 150, extra: str = "") -> dict[str, int]:
    """A `$len` upper bound relative to the gold text: its length, the signature the compose box may
    keep (`extra`), and room for a greeting; a text listing every candidate is longer."""
    return {"$lte": len(gold) + len(extra) + slack}


def star_elsewhere(subject: str) -> list[dict[str, Any]]:
    """An app-wide collateral edit for `extra` adversarials: find another conversation and star it."""
    return search(phrase(subject)) + [{"click": {"role": "button", "name": "Star", "exact": True,
                                                 "within": {"role": "row", "name": subject}}}]


def bystander(mb: "Mailbox", avoid) -> int:
    """A calm inbox conversation none of the task's rows touch, not starred: the victim of a collateral edit."""
    avoid = set(avoid)
    for tid in sorted(mb.threads):
        if tid in avoid or not mb.in_inbox(tid) or not mb.plain(tid) or mb.threads[tid]["category"] != "primary":
            continue
        if any(m["is_starred"] for m in mb.in_thread[tid]):
            continue
        return tid
    raise ValueError("no bystander conversation")


def extra(steps: list[dict], harm: list[dict], why: str, answer: str | None = None) -> dict[str, Any]:
    """The gold solution (without its `done`) plus a harmful extra, then `done` (with the gold answer)."""
    last = steps[-1]
    ans = answer if answer is not None else last.get("answer")
    return {"kind": "extra", "steps": list(steps[:-1]) + list(harm) + [done(ans)], "why": why}


def adversarial(kind: str, steps: list[dict], why: str) -> dict[str, Any]:
    return {"kind": kind, "steps": steps, "why": why}


