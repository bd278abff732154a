"""Record operations: create, edit, delete (with Salesforce's cascade), change owner, follow, path values,
notes, contact roles and the list views' mass actions."""

from __future__ import annotations

import datetime as dt
from typing import Any, Mapping

from sqlalchemy import delete, or_, select

from apps._shared import db, now
from apps.crm import models as m
from apps.crm import records as R
from apps.crm.meta import CONTACT_ROLES, OBJECTS, STAGES
from apps.crm.services import ServiceError, form_error, record, user
from domain.crm import OPEN_STAGES

EDITABLE = ("Lead", "Account", "Contact", "Opportunity", "Case", "Task", "Event")
NOTE_PARENTS = ("Account", "Contact", "Opportunity", "Lead")
PATH_VALUES = {"Opportunity": STAGES,
               "Lead": ["Open - Not Contacted", "Working - Contacted", "Closed - Converted", "Closed - Not Converted"],
               "Case": ["New", "Working", "Escalated", "Closed"]}
PATH_FIELD = {"Opportunity": "stage", "Lead": "status", "Case": "status"}


def display_name(obj: str, rec) -> str:
    return rec.name if obj in ("Lead", "Contact") else R.record_name(obj, rec)


# ------------------------------------------------------------------------------ form keys
def form_keys(obj: str) -> list[str]:
    """The keys the New/Edit modal's form posts for `obj` (what a tool may set; nothing else)."""
    keys: list[str] = []
    for f in R.form_fields(obj):
        if f.type in ("name", "address"):
            keys += list(f.cols)
        elif f.name in ("who", "what"):
            keys.append(f"{f.name}_id")
        elif f.type == "datetime":
            keys += [f.name, f"{f.name}_time"]
        else:
            keys.append(f.name)
    return keys


def as_form(obj: str, fields: Mapping[str, Any]) -> dict[str, str]:
    """Typed values (a tool's) as the strings a form posts; unknown keys are refused, not ignored."""
    allowed = form_keys(obj)
    bad = [k for k in fields if k not in allowed]
    if bad:
        raise ServiceError(f"{obj} has no editable field {', '.join(map(repr, bad))}; its fields are: {', '.join(allowed)}")
    out = {}
    for k, v in fields.items():
        if v is None:
            out[k] = ""
        elif isinstance(v, bool):
            out[k] = "on" if v else ""
        else:
            out[k] = str(v)
    return out


# ------------------------------------------------------------------------ create / edit
def new_defaults(obj: str, subtype: str = "") -> dict[str, Any]:
    """What the New dialog starts with: you as owner, the first stage / status, an event in the next hour."""
    t = now()
    d: dict[str, Any] = {"owner_id": R.ME}
    if obj == "Opportunity":
        d.update(stage="Prospecting")
    if obj == "Lead":
        d.update(status="Open - Not Contacted")
    if obj == "Case":
        d.update(status="New", priority="Medium", origin="Phone")
    if obj == "Task":
        d.update(status="Not Started", priority="Normal")
        if subtype == "Call":
            d.update(subject="Call", status="Completed", activity_date=t.date(), task_subtype="Call")
    if obj == "Event":
        start = (t + dt.timedelta(hours=1)).replace(minute=0, second=0)
        d.update(start=start, end=start + dt.timedelta(hours=1))
    return d


def new_form(obj: str) -> dict[str, str]:
    """new_defaults as the strings the dialog's inputs hold."""
    out = {}
    for k, v in new_defaults(obj).items():
        if isinstance(v, dt.datetime):
            out[k], out[f"{k}_time"] = R.fmt_date(v), R.fmt_time(v)
        elif isinstance(v, dt.date):
            out[k] = R.fmt_date(v)
        else:
            out[k] = str(v)
    return out


def create_record(obj: str, form: Mapping[str, str], subtype: str = "", contact_id: int | None = None):
    """The New modal's save: parse and validate the form, create the record (and, for an opportunity
    created from a contact, that contact as its primary Decision Maker)."""
    if obj not in EDITABLE:
        raise ServiceError(f"can't create a {obj}; one of {', '.join(EDITABLE)}")
    try:
        values = R.parse_form(obj, form, None, creating=True)
    except R.FormError as e:
        raise form_error(e.errors, f"New {OBJECTS[obj].label}") from None
    if obj == "Task":
        values["task_subtype"] = subtype if subtype in ("Call", "Email") else "Task"
    if obj == "Case":
        autofill_case_account(values)
    rec = R.create(obj, values)
    db().flush()
    if obj == "Opportunity" and contact_id is not None and db().get(m.Contact, contact_id):
        db().add(m.OpportunityContactRole(id=R.next_id(m.OpportunityContactRole), opportunity_id=rec.id,
                                          contact_id=contact_id, role="Decision Maker", is_primary=True))
    return rec


def update_record(obj: str, rid: int, form: Mapping[str, str]):
    """The Edit modal's save: only the fields in `form` change (with their side effects)."""
    rec = record(obj, rid, EDITABLE)
    if obj == "Lead" and rec.is_converted:
        raise ServiceError("You can't edit a converted lead.")
    try:
        values = R.parse_form(obj, form, rec)
    except R.FormError as e:
        raise form_error(e.errors, f"Edit {display_name(obj, rec)}") from None
    if getattr(rec, "html_body", None) and values.get("description", rec.description) != rec.description:
        # A received email's body is what was received (Salesforce's EmailMessage is not edited; the record page
        # shows its HTML, not the text): a changed text would leave the page showing the old body.
        raise ServiceError("A received email's body can't be edited.")
    if obj == "Case":
        autofill_case_account(values, rec)
    R.update(rec, values)
    return rec


def autofill_case_account(values: dict[str, Any], rec: m.Case | None = None) -> None:
    """Salesforce fills a case's Account Name from its contact: a case saved with a contact and no account
    (none given, or the field left blank) gets the contact's account. An account given stays as it is.
    The one place the rule lives: the New and Edit modals and the create/update tools all save through here."""
    contact_id = values.get("contact_id", rec.contact_id if rec is not None else None)
    account_id = values.get("account_id", rec.account_id if rec is not None else None)
    if contact_id is None or account_id is not None:
        return
    contact = db().get(m.Contact, contact_id)
    if contact is not None and contact.account_id is not None:
        values["account_id"] = contact.account_id


# ------------------------------------------------------------------------------ delete
def delete_record(obj: str, rid: int) -> str:
    """Delete a record and what hangs off it (an account takes its contacts, opportunities, cases and
    their activities and notes). Returns the deleted record's name."""
    rec = record(obj, rid, EDITABLE)
    name = display_name(obj, rec)
    s = db()
    if obj == "Account":
        opp_ids = list(s.scalars(select(m.Opportunity.id).where(m.Opportunity.account_id == rec.id)))
        con_ids = list(s.scalars(select(m.Contact.id).where(m.Contact.account_id == rec.id)))
        case_ids = list(s.scalars(select(m.Case.id).where(m.Case.account_id == rec.id)))
        for model in (m.Task, m.Event):
            s.execute(delete(model).where(or_(
                (model.what_type == "Account") & (model.what_id == rec.id),
                (model.what_type == "Opportunity") & model.what_id.in_(opp_ids),
                (model.what_type == "Case") & model.what_id.in_(case_ids))))
        s.execute(delete(m.OpportunityContactRole).where(or_(m.OpportunityContactRole.opportunity_id.in_(opp_ids),
                                                             m.OpportunityContactRole.contact_id.in_(con_ids))))
        s.execute(delete(m.Note).where(or_((m.Note.parent_type == "Account") & (m.Note.parent_id == rec.id),
                                           (m.Note.parent_type == "Opportunity") & m.Note.parent_id.in_(opp_ids),
                                           (m.Note.parent_type == "Contact") & m.Note.parent_id.in_(con_ids))))
        s.execute(delete(m.OpportunityLineItem).where(m.OpportunityLineItem.opportunity_id.in_(opp_ids)))
        s.execute(delete(m.Opportunity).where(m.Opportunity.id.in_(opp_ids)))
        s.execute(delete(m.Contact).where(m.Contact.id.in_(con_ids)))
        s.execute(delete(m.Case).where(m.Case.id.in_(case_ids)))
    elif obj == "Opportunity":
        s.execute(delete(m.OpportunityContactRole).where(m.OpportunityContactRole.opportunity_id == rec.id))
        s.execute(delete(m.OpportunityLineItem).where(m.OpportunityLineItem.opportunity_id == rec.id))
        for model in (m.Task, m.Event):
            s.execute(delete(model).where((model.what_type == "Opportunity") & (model.what_id == rec.id)))
        s.execute(delete(m.Note).where((m.Note.parent_type == "Opportunity") & (m.Note.parent_id == rec.id)))
    elif obj in ("Contact", "Lead"):
        if obj == "Contact":
            s.execute(delete(m.OpportunityContactRole).where(m.OpportunityContactRole.contact_id == rec.id))
        for model in (m.Task, m.Event):
            s.execute(delete(model).where((model.who_type == obj) & (model.who_id == rec.id)))
        s.execute(delete(m.Note).where((m.Note.parent_type == obj) & (m.Note.parent_id == rec.id)))
    elif obj == "Case":
        for model in (m.Task, m.Event):
            s.execute(delete(model).where((model.what_type == "Case") & (model.what_id == rec.id)))
    s.execute(delete(m.Follow).where(m.Follow.object == obj, m.Follow.record_id == rec.id))
    # Its files stay in the library; what goes is their sharing to it (and to the records deleted with it).
    gone = [(obj, [rec.id])] + ([("Opportunity", opp_ids), ("Contact", con_ids), ("Case", case_ids)] if obj == "Account" else [])
    for kind, ids in gone:
        s.execute(delete(m.FileLink).where(m.FileLink.parent_type == kind, m.FileLink.parent_id.in_(ids)))
    s.delete(rec)
    return name


# ------------------------------------------------------------------------ owner / follow
# Change Account Owner's options, as Salesforce labels them (all off by default). Whatever they say, the account's
# contacts and open opportunities owned by the existing account owner always move with it (the dialog says so).
ACCOUNT_TRANSFER_OPTIONS = {
    "transfer_others_open_opportunities": "Transfer open opportunities not owned by the existing account owner",
    "transfer_closed_opportunities": "Transfer closed opportunities",
    "transfer_open_cases": "Transfer open cases owned by the existing account owner",
    "transfer_closed_cases": "Transfer closed cases",
}
ACCOUNT_TRANSFER_ALWAYS = ("Contacts", "Open opportunities")


def account_transfer(acc: m.Account, uid: int, options: Mapping[str, bool] | None = None) -> dict[str, list]:
    """What moves with an account to its new owner `uid` (the records, by kind), before the account itself does:
    its contacts and open opportunities owned by the existing account owner; with `options`
    (ACCOUNT_TRANSFER_OPTIONS) its open opportunities owned by others, its closed opportunities and its open / closed
    cases owned by the existing account owner. The one rule of Change Owner, the tools and the mass change."""
    opts = {k: bool((options or {}).get(k)) for k in ACCOUNT_TRANSFER_OPTIONS}
    unknown = set(options or {}) - set(ACCOUNT_TRANSFER_OPTIONS)
    if unknown:
        raise ServiceError(f"unknown transfer option(s) {', '.join(sorted(unknown))}; one of {', '.join(ACCOUNT_TRANSFER_OPTIONS)}")
    old = acc.owner_id
    s = db()
    contacts = [c for c in s.scalars(select(m.Contact).where(m.Contact.account_id == acc.id).order_by(m.Contact.id))
                if c.owner_id == old]
    opps = []
    for o in s.scalars(select(m.Opportunity).where(m.Opportunity.account_id == acc.id).order_by(m.Opportunity.id)):
        is_open = o.stage in OPEN_STAGES
        if (is_open and (o.owner_id == old or opts["transfer_others_open_opportunities"])) or (
                not is_open and o.owner_id == old and opts["transfer_closed_opportunities"]):
            opps.append(o)
    cases = [c for c in s.scalars(select(m.Case).where(m.Case.account_id == acc.id).order_by(m.Case.id))
             if c.owner_id == old and opts["transfer_closed_cases" if c.status == "Closed" else "transfer_open_cases"]]
    moved = {"Contact": contacts, "Opportunity": opps, "Case": cases}
    for recs in moved.values():
        for r in recs:
            R.update(r, {"owner_id": uid})
    return moved


def change_owner(obj: str, rid: int, owner_id, transfer: Mapping[str, bool] | None = None) -> tuple[Any, m.User, dict]:
    """Change Owner of one record; an account takes its related records along (account_transfer, `transfer` its
    options). Returns (record, new owner, {kind: [records moved with it]})."""
    rec = record(obj, rid, EDITABLE)
    uid = user(owner_id)
    moved: dict[str, list] = {}
    if obj == "Account":
        moved = account_transfer(rec, uid, transfer)
    elif transfer and any(transfer.values()):
        raise ServiceError("only an account's Change Owner has transfer options")
    R.update(rec, {"owner_id": uid})
    return rec, R.user_by_id(uid), moved


def set_follow(obj: str, rid: int, follow: bool | None = None) -> bool:
    """Follow or unfollow a record (None toggles, as the Follow button does). Returns whether you follow it."""
    record(obj, rid, EDITABLE)
    f = db().scalar(select(m.Follow).where(m.Follow.user_id == R.ME, m.Follow.object == obj, m.Follow.record_id == rid))
    want = (f is None) if follow is None else follow
    if want and f is None:
        db().add(m.Follow(id=R.next_id(m.Follow), user_id=R.ME, object=obj, record_id=rid, created_at=now()))
    elif not want and f is not None:
        db().delete(f)
    return want


# ------------------------------------------------------------------------------ path
def set_path_value(obj: str, rid: int, value: str, loss_reason: str | None = None):
    """Move an opportunity's stage, a lead's or a case's status (the Path, the Kanban board), with the
    side effects (probability and forecast category, closed dates). Converting a lead is convert_lead."""
    if obj not in PATH_VALUES:
        raise ServiceError(f"{obj} has no path; one of {', '.join(PATH_VALUES)}", status=404)
    rec = record(obj, rid)
    if value not in PATH_VALUES[obj]:
        raise ServiceError(f"{value!r} is not a {OBJECTS[obj].field(PATH_FIELD[obj]).label} of {obj}; one of "
                           f"{', '.join(PATH_VALUES[obj])}", {"value": "Complete this field."})
    if obj == "Lead" and value == "Closed - Converted":
        raise ServiceError("A lead becomes Closed - Converted by converting it (convert_lead).")
    values: dict[str, Any] = {PATH_FIELD[obj]: value}
    if obj == "Opportunity" and value == "Closed Lost" and loss_reason:
        if loss_reason in OBJECTS["Opportunity"].field("loss_reason").options:
            values["loss_reason"] = loss_reason
    R.apply_rules(obj, rec, values, {}, False)
    R.update(rec, values)
    return rec


# ------------------------------------------------------------------------------ notes
def _note_fields(title: str, body: str) -> tuple[str, str]:
    title, body = (title or "").strip(), (body or "").strip()
    if not title:
        raise ServiceError("A note needs a title.", {"title": "Complete this field."})
    return title, body


def add_note(obj: str, rid: int, title: str, body: str) -> m.Note:
    record(obj, rid, NOTE_PARENTS)
    title, body = _note_fields(title, body)
    t = now()
    note = m.Note(id=R.next_id(m.Note), title=title, body=body, parent_type=obj, parent_id=rid, owner_id=R.ME,
                  created_at=t, updated_at=t)
    db().add(note)
    return note


def note(nid: int) -> m.Note:
    n = db().get(m.Note, nid)
    if n is None:
        raise ServiceError(f"there is no note with id {nid} (a record's notes are in get_record)", status=404)
    return n


def edit_note(nid: int, title: str, body: str) -> m.Note:
    n = note(nid)
    title, body = _note_fields(title, body)
    if (n.title, n.body) != (title, body):
        n.title, n.body, n.updated_at = title, body, now()
    return n


def delete_note(nid: int) -> None:
    db().delete(note(nid))


# ------------------------------------------------------------------------- contact roles
def add_contact_role(opp_id: int, contact_id, role: str = "", is_primary: bool = False) -> m.OpportunityContactRole:
    record("Opportunity", opp_id)
    errors = {}
    if not isinstance(contact_id, int) or db().get(m.Contact, contact_id) is None:
        errors["contact_id"] = "Complete this field."
    if role and role not in CONTACT_ROLES:
        errors["role"] = "Select a valid value."
    if errors:
        raise ServiceError(f"Add Contact Role: no contact with id {contact_id}" if "contact_id" in errors
                           else f"Add Contact Role: {role!r} is not a role; one of {', '.join(CONTACT_ROLES)}", errors)
    if is_primary:
        for cr in db().scalars(select(m.OpportunityContactRole).where(m.OpportunityContactRole.opportunity_id == opp_id,
                                                                      m.OpportunityContactRole.is_primary.is_(True))):
            cr.is_primary = False
    cr = m.OpportunityContactRole(id=R.next_id(m.OpportunityContactRole), opportunity_id=opp_id, contact_id=contact_id,
                                  role=role, is_primary=is_primary)
    db().add(cr)
    return cr


# -------------------------------------------------------------------------- mass actions
MASS = {"owner": ("Lead", "Account", "Contact", "Opportunity", "Case", "Task"), "status": ("Lead", "Case"),
        "complete": ("Task",)}


def mass_action(obj: str, ids: list[int], action: str, value: Any = None) -> list:
    """A list view's mass action on the selected records: change owner (value = user id), change status
    (value = a status), or mark tasks complete. Every id must exist."""
    if action not in MASS or obj not in MASS[action]:
        raise ServiceError(f"{obj} has no mass action {action!r}", status=404)
    o = OBJECTS[obj]
    ids = sorted(set(ids))
    if not ids:
        raise ServiceError("Select at least one record.")
    recs = list(db().scalars(select(o.model).where(o.model.id.in_(ids)).order_by(o.model.id)))
    missing = sorted(set(ids) - {r.id for r in recs})
    if missing:
        raise ServiceError(f"there is no {obj} with id {', '.join(map(str, missing))}", status=404)
    if action == "owner":
        uid = user(value)
        for r in recs:
            if obj == "Account":
                account_transfer(r, uid)  # as one account's Change Owner with its default options
            R.update(r, {"owner_id": uid})
        return recs
    new = value if action == "status" else "Completed"
    if action == "status" and value not in (o.field("status").options or []):
        raise ServiceError(f"{value!r} is not a status of {obj}; one of {', '.join(o.field('status').options)}",
                           {"status": "Complete this field."})
    for r in recs:
        values = {"status": new}
        R.apply_rules(obj, r, values, {}, False)
        R.update(r, values)
    return recs


# ------------------------------------------------------------------------------ home
def set_goal(raw: str) -> int:
    """Home's Edit Goal: your quarterly goal in whole dollars ("$250,000" as typed)."""
    try:
        v = R.parse_number(raw, "Goal")
        if v < 0:
            raise ValueError("Enter a number that is 0 or more.")
    except ValueError as e:
        raise ServiceError(f"Goal: {e}", {"goal": str(e)}) from None
    db().get(m.User, R.ME).quarterly_goal = v
    return v
