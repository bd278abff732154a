"""What mail templates share: reading the world's mailbox, and the UI steps every solution uses."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from typing import Any

from tasks.templates import World

TOOLBAR = {"role": "toolbar", "name": "Conversation actions"}


class Mailbox:
    """Convenience queries over a mail World (rows exactly as the database holds them)."""

    def __init__(self, w: World):
        self.w = w
        self.me = w.table("account")[0]
        self.contacts = w.table("contacts")
        self.by_email = {c["email"]: c for c in self.contacts}
        self.threads = {t["id"]: t for t in w.table("threads")}
        self.msgs = w.table("messages")
        self.in_thread: dict[int, list[dict]] = defaultdict(list)
        for m in self.msgs:
            self.in_thread[m["thread_id"]].append(m)
        for ms in self.in_thread.values():
            ms.sort(key=lambda m: (m["sent_at"], m["id"]))
        subj_count: dict[str, int] = defaultdict(int)
        for t in self.threads.values():
            subj_count[t["subject"].lower()] += 1
        self._subj_count = subj_count

    def visible(self, m: dict) -> bool:
        return not m["is_trashed"] and not m["is_spam"] and not m["is_draft"]

    def unique_subject(self, tid: int) -> bool:
        """No other conversation's subject contains this one (so a row name picks it alone)."""
        s = self.threads[tid]["subject"].lower()
        return self._subj_count[s] == 1 and not any(
            s in t["subject"].lower() for t in self.threads.values() if t["id"] != tid)

    def in_inbox(self, tid: int) -> bool:
        return any(m["in_inbox"] for m in self.in_thread[tid])

    def from_contact(self, email: str) -> list[dict]:
        """Visible messages a contact sent me, newest first."""
        return sorted((m for m in self.msgs if m["from_email"] == email and self.visible(m)),
                      key=lambda m: (m["sent_at"], m["id"]), reverse=True)

    def last(self, tid: int) -> dict:
        return self.in_thread[tid][-1]

    def first(self, tid: int) -> dict:
        return self.in_thread[tid][0]


def search(query: str) -> list[dict[str, Any]]:
    """Type a query into the search box and run it."""
    return [{"fill": {"role": "searchbox", "name": "Search mail"}, "text": query}, {"press": ["Enter"]}]


def open_row(subject: str) -> dict[str, Any]:
    return {"click": {"role": "row", "name": subject}}


def toolbar_button(name: str) -> dict[str, Any]:
    return {"click": {"role": "button", "name": name, "exact": True, "within": TOOLBAR}}


def phrase(subject: str) -> str:
    """A search phrase for a subject (quotes inside removed)."""
    return '"' + subject.replace('"', "") + '"'


def iso(d: dt.datetime) -> str:
    return d.isoformat()
