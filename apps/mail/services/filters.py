"""Filters: their search, their actions' wording, create / edit / delete, and applying one to the mail that
already matches ("Also apply filter to N matching conversations"). Never commits."""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, func, select

from apps._shared import now
from apps.mail import formatting as fmt
from apps.mail import queries as Q
from apps.mail.models import Filter, Label, Message
from apps.mail.services.conversations import apply_action
from apps.mail.services.errors import ServiceError

CRITERIA = ("from_contains", "to_contains", "subject_contains", "has_words", "doesnt_have")
FLAGS = ("skip_inbox", "mark_read", "star", "delete", "never_spam")


def filter_query(f) -> str:
    """The search a filter's criteria make (Gmail's filter list shows it): from:(x) subject:(y) ..."""
    get = (lambda k: f.get(k)) if isinstance(f, dict) else (lambda k: getattr(f, k))
    parts = []
    for key, op in (("from_contains", "from"), ("to_contains", "to"), ("subject_contains", "subject")):
        if get(key):
            parts.append(f"{op}:({get(key)})")
    if get("has_words"):
        parts.append(str(get("has_words")))
    if get("doesnt_have"):
        parts.append(f"-{{{get('doesnt_have')}}}" if " " in str(get("doesnt_have")) else f"-{get('doesnt_have')}")
    if get("has_attachment"):
        parts.append("has:attachment")
    return " ".join(parts)


def filter_actions(session, f: Filter) -> list[tuple[str, dict]]:
    """What a filter does, as messages with their arguments (("Apply label \"%(name)s\"", {"name": ...})): the
    settings page says them in the page's language (i18n.gettext), the tools in English (`filter_actions_text`)."""
    out: list[tuple[str, dict]] = []
    if f.skip_inbox:
        out.append(("Skip Inbox", {}))
    if f.mark_read:
        out.append(("Mark as read", {}))
    if f.star:
        out.append(("Star it", {}))
    if f.apply_label_id:
        name = next((p for lab, _d, p in Q.labels_tree(session) if lab.id == f.apply_label_id), "?")
        out.append(('Apply label "%(name)s"', {"name": name}))
    if f.forward_to:
        out.append(("Forward to %(address)s", {"address": f.forward_to}))
    if f.delete:
        out.append(("Delete it", {}))
    if f.never_spam:
        out.append(("Never send it to Spam", {}))
    if f.mark_important is True:
        out.append(("Always mark it as important", {}))
    if f.mark_important is False:
        out.append(("Never mark it as important", {}))
    if f.category:
        out.append(("Categorize as %(category)s", {"category": f.category.capitalize()}))
    return out


def filter_actions_text(session, f: Filter) -> list[str]:
    """What a filter does, in English (the tools' words)."""
    return [msg % kw if kw else msg for msg, kw in filter_actions(session, f)]


def filter_values(session, body: dict) -> dict:
    """A filter's columns from the form's values, or a ServiceError: at least one criterion and one action."""
    vals: dict[str, Any] = {}
    for k in CRITERIA:
        vals[k] = str(body.get(k) or "").strip()[:200]
    vals["has_attachment"] = bool(body.get("has_attachment"))
    if not any(vals[k] for k in CRITERIA) and not vals["has_attachment"]:
        raise ServiceError("Please specify at least one search criterion for the filter.")
    for k in FLAGS:
        vals[k] = bool(body.get(k))
    lid = body.get("apply_label_id")
    if lid in (None, "", 0):
        vals["apply_label_id"] = None
    elif isinstance(lid, int) and not isinstance(lid, bool) and session.get(Label, lid) is not None:
        vals["apply_label_id"] = lid
    else:
        raise ServiceError("the label to apply does not exist")
    fwd = str(body.get("forward_to") or "").strip().lower()
    if fwd and not fmt.is_email(fwd):
        raise ServiceError(f'"{fwd}" is not a valid forwarding address.')
    vals["forward_to"] = fwd
    imp = body.get("mark_important")
    if imp not in (None, True, False):
        raise ServiceError("'mark_important' must be true, false or null")
    vals["mark_important"] = imp
    cat = str(body.get("category") or "")
    if cat and cat not in {k for k, _, _ in Q.CATEGORIES}:
        raise ServiceError(f"unknown category {cat!r}")
    vals["category"] = cat
    if not any([vals["skip_inbox"], vals["mark_read"], vals["star"], vals["apply_label_id"], vals["forward_to"],
                vals["delete"], vals["never_spam"], vals["mark_important"] is not None, vals["category"]]):
        raise ServiceError("Please choose at least one action for the filter.")
    return vals


def matching_threads(session, query: str) -> list[int]:
    sq = Q.parse_search(session, query, now())
    return sorted({tid for (tid,) in session.execute(select(Message.thread_id).where(*sq.conds).distinct())})


def count_matching(session, criteria: dict) -> tuple[int, str]:
    """How many conversations a filter's criteria match now (the 'Also apply to N' checkbox), and the query."""
    q = filter_query(criteria)
    if not q:
        return 0, q
    sq = Q.parse_search(session, q, now())
    return session.scalar(select(func.count(func.distinct(Message.thread_id))).where(*sq.conds)) or 0, q


def apply_filter(session, f: Filter) -> int:
    """Apply a filter's actions to the conversations that already match it ('Also apply filter to ...')."""
    session.flush()
    tids = matching_threads(session, filter_query(f))
    if not tids:
        return 0
    if f.apply_label_id:
        apply_action(session, "label", tids, {"add": [f.apply_label_id]})
    if f.skip_inbox:
        apply_action(session, "archive", tids)
    if f.mark_read:
        apply_action(session, "mark_read", tids)
    if f.star:
        apply_action(session, "star", tids)
    if f.mark_important is not None:
        apply_action(session, "important" if f.mark_important else "not_important", tids)
    if f.category:
        apply_action(session, "move", tids, {"target": f"category:{f.category}"})
    if f.never_spam:
        spam = [t for t in tids if session.scalar(select(Message.id).where(Message.thread_id == t,
                                                                           Message.is_spam.is_(True)).limit(1))]
        if spam:
            apply_action(session, "not_spam", spam)
    if f.delete:
        apply_action(session, "trash", tids)
    return len(tids)


def create(session, body: dict, apply_existing: bool = False) -> tuple[Filter, int]:
    f = Filter(**filter_values(session, body))
    session.add(f)
    session.flush()
    return f, apply_filter(session, f) if apply_existing else 0


def get(session, fid: Any) -> Filter:
    f = session.get(Filter, fid) if isinstance(fid, int) and not isinstance(fid, bool) else None
    if f is None:
        raise ServiceError("that filter does not exist", 404)
    return f


def update(session, fid: Any, body: dict, apply_existing: bool = False) -> tuple[Filter, int]:
    f = get(session, fid)
    for k, v in filter_values(session, body).items():
        setattr(f, k, v)
    session.flush()
    return f, apply_filter(session, f) if apply_existing else 0


def remove(session, fid: Any) -> None:
    if session.execute(delete(Filter).where(Filter.id == fid)).rowcount == 0:
        raise ServiceError("that filter does not exist", 404)
