"""Inkbox's folders in SQL: the rules of domain/mail.py (which messages a folder, a list or a search scope
holds) as SQLAlchemy conditions over `Message`, and the label tree (labels in rail order, with their
paths). queries.py (lists and counts) and search.py (the search language) both build on these."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import false, func, or_, select, true
from sqlalchemy.orm import Session

from apps.mail.models import Label, Message
from domain import mail as rules


def where(rule: rules.Rule, now: dt.datetime | None = None) -> list:
    """The SQL conditions of a rule: one per test, in the rule's order (`now` for a rule that tests the time)."""
    out = []
    for name, test in rule:
        col = getattr(Message, name)
        if test == rules.SET:
            out.append(col.is_not(None))
        elif test == rules.UNSET:
            out.append(col.is_(None))
        elif test in (rules.FUTURE, rules.NOT_FUTURE) and now is None:
            raise ValueError(f"the rule tests {name} against the time: give `now`")
        elif test == rules.FUTURE:
            out.append(col > now)
        elif test == rules.NOT_FUTURE:
            out.append(or_(col.is_(None), col <= now))
        else:
            out.append(col == (true() if test else false()))
    return out


def negate(cond):
    """The messages `cond` does not hold for. SQL's NOT leaves a test over an empty column unknown (NOT
    (snoozed_until > now) is NULL, not true, for mail never snoozed), so a negated search term found none of
    them: here a test that is unknown counts as false, and `-term` finds exactly what `term` does not."""
    return ~func.coalesce(cond, false())


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
