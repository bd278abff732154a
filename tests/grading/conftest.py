"""A small mail world, as the control API would return it, for the verifier tests."""

from __future__ import annotations

import copy
from typing import Any

import pytest


def _world() -> dict[str, Any]:
    return {
        "messages": [
            {"id": 10, "thread_id": 1, "from_addr": "ana@example.com", "to": ["me@example.com"],
             "subject": "Lunch on Friday?", "body": "Are you free?", "folder": "inbox", "starred": False,
             "unread": True, "sent_at": "2026-03-10T09:15:00", "headers": {"x-prio": "high", "size": 1200},
             "last_opened_at": None},
            {"id": 11, "thread_id": 2, "from_addr": "bob@example.com", "to": ["me@example.com"],
             "subject": "Invoice #4411", "body": "Total: $1,234.50", "folder": "inbox", "starred": False,
             "unread": False, "sent_at": "2026-03-11T16:40:00", "headers": {"x-prio": "low", "size": 800},
             "last_opened_at": "2026-03-11T17:00:00"},
            {"id": 12, "thread_id": 3, "from_addr": "ana@example.com", "to": ["me@example.com", "cc@example.com"],
             "subject": "Receipt for your order", "body": "Thanks!", "folder": "inbox", "starred": False,
             "unread": True, "sent_at": "2026-03-12T08:00:00", "headers": {"x-prio": "low", "size": 300},
             "last_opened_at": None},
        ],
        "labels": [
            {"id": 1, "name": "Receipts", "color": "green"},
            {"id": 2, "name": "Work", "color": "blue"},
        ],
        "message_labels": [
            {"message_id": 11, "label_id": 2},
        ],
        "settings": [
            {"id": 1, "signature": "Cheers", "theme": "light"},
        ],
        "_meta": {"app": "mail", "seed": 0, "now": "2026-03-12T10:24:00",
                  "volatile": {"messages": ["last_opened_at"]}},
    }


@pytest.fixture
def start() -> dict[str, Any]:
    return _world()


@pytest.fixture
def end(start: dict[str, Any]) -> dict[str, Any]:
    """A copy of the start state for each test to mutate."""
    return copy.deepcopy(start)

