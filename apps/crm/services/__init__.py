"""The CRM's operations, as functions over the world's session (`apps._shared.db.db()`).

The UI's views and the tools (apps/crm/tools.py) call the same functions, so each rule (a validation, a
side effect such as stage -> probability, the cascade of a delete) lives once. A service validates before
it writes, raises ServiceError (a ToolError: the tool wrapper rolls back and shows the message; a view
renders `errors` on its form) and never commits: its caller does, once.

    read.py        search, list views' rows, one record with its related lists, users
    records.py     create / edit / delete, owner, follow, path values, notes, contact roles, mass actions
    activities.py  the activity composers (task, call, event, email) and completing tasks
    convert.py     lead conversion
    merge.py       merging duplicate accounts, contacts or leads
    listviews.py   list view create / rename / delete / filters
    reports.py     running, saving, creating and deleting reports
"""

from __future__ import annotations

from apps._shared import db
from apps._shared.tools import ToolError
from apps.crm.meta import OBJECTS


class ServiceError(ToolError):
    """A refused operation: `errors` maps form fields to messages (for a view's form), the message says
    it all in one line (for a model); nothing was written."""

    def __init__(self, message: str, errors: dict[str, str] | None = None, status: int = 400):
        super().__init__(message)
        self.errors = dict(errors or {})
        self.status = status


def form_error(errors: dict[str, str], what: str = "") -> ServiceError:
    head = f"{what}: " if what else ""
    return ServiceError(head + "We hit a snag. " + "; ".join(f"{k}: {v}" for k, v in errors.items()), errors)


def record(obj: str, rid: int, allowed: tuple[str, ...] | None = None):
    """The record `obj` #`rid`, or a ServiceError naming what is wrong."""
    choices = allowed or tuple(OBJECTS)
    if obj not in choices:
        raise ServiceError(f"unknown object {obj!r}; one of {', '.join(choices)}", status=404)
    rec = db().get(OBJECTS[obj].model, rid)
    if rec is None:
        raise ServiceError(f"there is no {obj} with id {rid} (find ids with search_records or list_records)", status=404)
    return rec


def user(uid) -> int:
    """A user's id, checked (owner fields), or a ServiceError."""
    from apps.crm import records as R

    if isinstance(uid, str):
        from apps._shared import inputs

        uid = int(uid) if inputs.id_text(uid) is not None else None
    if not isinstance(uid, int) or R.user_by_id(uid) is None:
        raise ServiceError(f"there is no user with id {uid} (see list_users)", {"owner_id": "Complete this field."})
    return uid
