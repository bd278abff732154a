"""Cases: the Close Case form (Status, Case Reason, Internal Comments) and a case's comments."""

from __future__ import annotations

from sqlalchemy import select

from apps._shared import db, now
from apps.crm import models as m
from apps.crm import records as R
from apps.crm.meta import CASE_REASONS
from apps.crm.services import ServiceError, record
from apps.crm.services.records import set_path_value

# The Status picklist's closed values (the Close Case form offers only these; the others are the Path's).
CLOSED_STATUSES = ["Closed"]
COMMENT_MAX = 4000  # Salesforce's CaseComment body limit


def close_case(case_id: int, status: str = "Closed", reason: str | None = None, comment: str = "") -> m.Case:
    """Close a case as its Close Case form does: a closed Status (closed_at set by the status rule), the
    Case Reason when one is chosen (None keeps the case's), and the Internal Comments as a private case
    comment when any are written."""
    case = record("Case", case_id)
    errors = {}
    if case.status in CLOSED_STATUSES:
        raise ServiceError(f"Case {case.case_number} is already closed.")
    if status not in CLOSED_STATUSES:
        errors["status"] = f"Select a closed status: {', '.join(CLOSED_STATUSES)}."
    if reason and reason not in CASE_REASONS:
        errors["reason"] = f"{reason!r} isn't a Case Reason; one of {', '.join(CASE_REASONS)}."
    comment = (comment or "").strip()
    if len(comment) > COMMENT_MAX:
        errors["comment"] = f"Internal Comments can't be longer than {COMMENT_MAX} characters."
    if errors:
        raise ServiceError("Close Case: " + " ".join(errors.values()), errors)
    if reason and reason != case.reason:
        R.update(case, {"reason": reason})
    set_path_value("Case", case.id, status)
    if comment:
        add_comment(case.id, comment)
    return case


def add_comment(case_id: int, body: str, published: bool = False) -> m.CaseComment:
    c = m.CaseComment(id=R.next_id(m.CaseComment), case_id=case_id, body=body, is_published=published,
                      created_by_id=R.ME, created_at=now())
    db().add(c)
    db().flush()
    return c


def comments(case_id: int) -> list[m.CaseComment]:
    """A case's comments, newest first (its Case Comments related list)."""
    return list(db().scalars(select(m.CaseComment).where(m.CaseComment.case_id == case_id)
                             .order_by(m.CaseComment.created_at.desc(), m.CaseComment.id.desc())))
