"""What mail templates share: reading the world's mailbox, and the UI steps every solution uses."""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from typing import Any

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
        return not m["is_trashed"] and not m["is_spam"] and not m["is_draft"] and m["scheduled_at"] is None

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
        return any(m["snoozed_until"] and m["snoozed_until"] > self.now for m in self.in_thread[tid])

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
