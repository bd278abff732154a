"""JSON endpoints for what Settings manages: labels, filters, settings values, contacts.

The rules live in apps/mail/services/ (shared with the tools); these views call them in one transaction each
(apps/_shared/actions.py `perform`; a refusal is answered by actions.py's `_api_error`)."""

from __future__ import annotations

from flask import jsonify

from apps._shared import db
from apps._shared.i18n import gettext
from apps._shared.actions import perform
from apps._shared.display import drop_variant_density
from apps.mail.models import Thread
from apps.mail.services import account as A
from apps.mail.services import filters as F
from apps.mail.services import labels as L
from apps.mail.services.conversations import apply_action
from apps.mail.services.errors import ServiceError
from apps.mail.services.filters import CRITERIA, filter_actions_text, filter_query  # noqa: F401 (settings page)
from apps.mail.views.blueprint import bp
from apps.mail.views.actions import _json


# ------------------------------------------------------------------------------------------ labels
@bp.post("/api/labels")
def create_label():
    body = _json()
    session = db()
    lab = perform(_create_label, session, body)
    out = {"ok": True, "id": lab.id, "toast": f'Label "{lab.name}" created.'}
    out["path"] = L.path_of(session, lab.id)
    return jsonify(out)


def _create_label(session, body: dict):
    """The label and, from the Labels menu's "Create new", the selected conversations labelled: one transaction."""
    lab = L.create(session, body.get("name"), body.get("parent_id"))
    apply_to = body.get("apply_to")
    if isinstance(apply_to, list) and apply_to:
        apply_action(session, "move" if body.get("move") else "label", apply_to,
                     {"add": [lab.id], "target": f"label:{lab.id}", "from_label_id": body.get("from_label_id")})
    return lab


@bp.post("/api/labels/<int:lid>")
def update_label(lid: int):
    body = _json()
    session = db()
    perform(L.update, session, lid, body)
    return jsonify(ok=True, toast=gettext("Label updated."))


@bp.post("/api/labels/<int:lid>/delete")
def delete_label(lid: int):
    """Remove a label: its messages lose it (they are not deleted); sublabels move up a level."""
    session = db()
    name = perform(L.remove, session, lid)
    return jsonify(ok=True, toast=f'The label "{name}" has been removed.')


# ----------------------------------------------------------------------------------------- filters
@bp.post("/api/filters")
def create_filter():
    body = _json()
    session = db()
    f, n = perform(F.create, session, body, apply_existing=bool(body.get("apply_existing")))
    toast = "Your filter was created." + (f" {n} conversation{'s' if n != 1 else ''} updated." if n else "")
    return jsonify(ok=True, id=f.id, toast=toast, applied=n)


@bp.post("/api/filters/<int:fid>")
def update_filter(fid: int):
    body = _json()
    session = db()
    _f, n = perform(F.update, session, fid, body, apply_existing=bool(body.get("apply_existing")))
    return jsonify(ok=True, toast=gettext("Your filter was updated."), applied=n)


@bp.post("/api/filters/<int:fid>/delete")
def delete_filter(fid: int):
    session = db()
    perform(F.remove, session, fid)
    return jsonify(ok=True, toast=gettext("Filter deleted."))


@bp.get("/api/filters/count")
def filter_count():
    """How many conversations a filter's criteria match now (the 'Also apply to N' checkbox)."""
    from flask import request

    vals = {k: request.args.get(k, "") for k in CRITERIA}
    vals["has_attachment"] = request.args.get("has_attachment") == "1"
    n, q = F.count_matching(db(), vals)
    if not q:
        return jsonify(ok=True, count=0)
    return jsonify(ok=True, count=n, query=q)


# ---------------------------------------------------------------------------------------- settings
@bp.post("/api/settings")
def settings():
    """Quick settings (density) and Settings > General / Inbox (Save Changes)."""
    body = _json()
    session = db()
    acct = perform(A.update_settings, session, body)
    resp = jsonify(ok=True, toast=gettext("Your preferences have been saved."),
                   **{k: getattr(acct, k) for k in A.SETTING_CHOICES if k in body})
    # A density picked here is the account's from now on, over the episode's variant (apps/_shared/display.py).
    return drop_variant_density(resp) if "display_density" in body else resp


# ---------------------------------------------------------------------------------------- contacts
@bp.post("/api/contacts/new")
def create_contact():
    body = _json()
    session = db()
    c = perform(A.create_contact, session, body)
    return jsonify(ok=True, id=c.id, toast=gettext("Contact saved."))


@bp.post("/api/contacts/<int:cid>")
def update_contact(cid: int):
    body = _json()
    session = db()
    c = perform(A.update_contact, session, cid, body)
    return jsonify(ok=True, id=c.id, toast=gettext("Contact saved."))


@bp.post("/api/contacts/<int:cid>/star")
def star_contact(cid: int):
    body = _json()
    session = db()
    if not isinstance(body.get("starred"), bool):
        A.contact(session, cid)  # an unknown contact is a 404 first, as before
        raise ServiceError("'starred' must be true or false")
    c = perform(A.star_contact, session, cid, body["starred"])
    return jsonify(ok=True, starred=c.is_starred)


@bp.post("/api/contacts/<int:cid>/delete")
def delete_contact(cid: int):
    session = db()
    perform(A.delete_contact, session, cid)
    return jsonify(ok=True, toast=gettext("Contact deleted."))


__all__ = ["filter_query", "filter_actions_text", "Thread"]
