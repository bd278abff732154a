"""The crm clone's tools: its everyday operations as typed function calls (see apps/_shared/tools.py).

Each tool is a thin wrapper over apps/crm/services/, the functions the UI's views call: a tool does what the
matching dialog or button does, with the same validation and side effects, and nothing a user can't do
(fields are the New/Edit form's, lookups are ids, picklists their values). Forms a dialog prefills (the
activity composers' Name / Related To, the Convert dialog) start from the same defaults here.

Finding ids: search_records (the header's search), list_records (a list view), get_record (a record with its
related lists: contacts, opportunities, cases, contact roles, notes, activities), list_users, list_list_views,
list_reports.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field
from sqlalchemy import or_, select

from apps._shared import db, inputs
from apps._shared.tools import ToolSet
from apps.crm import models as m
from apps.crm import records as R
from apps.crm.meta import CASE_REASONS, CONTACT_ROLES, LOSS_REASONS
from apps.crm.services import ServiceError, activities, cases, convert, listviews, merge, read, record, user
from apps.crm.services import records as recs
from apps.crm.services import reports

TOOLS = ToolSet("crm")

MAX_ID = inputs.SQL_INT_MAX if hasattr(inputs, "SQL_INT_MAX") else 2**63 - 1

def _kind(choices: type, desc: str = "the kind of record"):
    return Annotated[choices, Field(description=desc)]


SearchObject = _kind(Literal["Account", "Contact", "Lead", "Opportunity", "Case"] | None, "search only this kind of record; omitted = all")
ListObject = _kind(Literal["Lead", "Account", "Contact", "Opportunity", "Case", "Task"])
RecordObject = _kind(Literal["Lead", "Account", "Contact", "Opportunity", "Case", "Task", "Event"])
AnyObject = _kind(Literal["Lead", "Account", "Contact", "Opportunity", "Case", "Task", "Event", "User"])
PathObject = _kind(Literal["Opportunity", "Lead", "Case"])
StatusObject = _kind(Literal["Lead", "Case"])
MergeObject = _kind(Literal["Account", "Contact", "Lead"])
ComposerObject = _kind(Literal["Lead", "Account", "Contact", "Opportunity", "Case"], "the kind of record whose page it is done on")
NoteParent = _kind(Literal["Account", "Contact", "Opportunity", "Lead"])
ReportType = _kind(Literal["Opportunity", "Lead", "Account", "Contact", "Case", "Task"], "what the report lists")
Folder = _kind(Literal["Private Reports", "Sales Reports", "Marketing Reports", "Service Reports"], "the report folder")
FolderOpt = _kind(Literal["Private Reports", "Sales Reports", "Marketing Reports", "Service Reports"] | None, "only this folder")
Direction = _kind(Literal["asc", "desc"] | None, "sort direction; omitted = the default")
TaskStatus = _kind(Literal["Not Started", "In Progress", "Completed", "Waiting on someone else", "Deferred"], "the task's status")
TaskPriority = _kind(Literal["High", "Normal", "Low"], "the task's priority")
Value = str | int | float | bool | None


ID_RANGE = Field(ge=1, le=MAX_ID)  # an id SQLite can hold: a bigger one is refused, not an overflow
IdList = Annotated[list[Annotated[int, ID_RANGE]], Field(min_length=1, max_length=200)]


Limit = Annotated[int, Field(ge=1, le=50, description="how many records to return (at most 50)")]
Filters = Annotated[list[dict[str, str]], Field(max_length=20, description=(
    "filters, each {\"field\": <field name, e.g. stage, amount, lead_source, close_date>, \"op\": one of equals, "
    "not_equal, less, greater, less_equal, greater_equal, contains, not_contains, starts_with, \"value\": text; "
    "several picklist values comma-separated, dates M/D/YYYY or TODAY, THIS_QUARTER, ...}"))]
WhoRef = Annotated[str | None, Field(description=(
    "the Name lookup: \"Contact:<id>\" or \"Lead:<id>\", \"\" for none; omitted = the composer's prefill "
    "(the record itself, an opportunity's primary contact, a case's contact)"))]
WhatRef = Annotated[str | None, Field(description=(
    "the Related To lookup: \"Account:<id>\", \"Opportunity:<id>\" or \"Case:<id>\", \"\" for none; omitted = the "
    "composer's prefill (the record itself, a contact's account)"))]
FieldValues = Annotated[dict[str, Value], Field(description=(
    "field name -> value, as typed into the form: text, numbers (amounts in whole dollars), dates M/D/YYYY, picklist "
    "values exactly as listed, lookups as record ids (account_id, contact_id, owner_id, ...); a Contact's or Lead's "
    "name is first_name / last_name; a Task's or Event's Name / Related To are who_id / what_id as \"Contact:<id>\"; "
    "an Event's start / end take start_time / end_time (\"9:00 AM\")"))]


def _done(obj: str, rec) -> dict:
    return {"object": obj, "id": rec.id, "name": recs.display_name(obj, rec)}


# ------------------------------------------------------------------------------ reading
@TOOLS.tool
def search_records(query: Annotated[str, Field(description="text to look for: a name, company, email, phone, case number or subject")],
                   object: SearchObject = None, limit: Limit = 10) -> dict:
    """Global search (the header's Search box) over accounts, contacts, leads, opportunities and cases. Returns
    per object the total and the best matches (exact name first) with their ids and key fields."""
    return read.search(query, object, limit)


@TOOLS.tool
def list_records(object: ListObject,
                 list_view: Annotated[str | None, Field(description="a list view's api name, name or id (see "
                                                                      "list_list_views); omitted = the object's default view")] = None,
                 search: Annotated[str, Field(description="narrow the list like its 'Search this list' box")] = "",
                 sort_by: Annotated[str | None, Field(description="a field name to sort by, e.g. name, amount, close_date")] = None,
                 direction: Direction = None, limit: Limit = 25,
                 offset: Annotated[int, Field(ge=0, le=100000, description="rows to skip (paging)")] = 0) -> dict:
    """The rows of a list view (its scope and filters) as the list page shows them: total, and each record's id,
    name and list columns. Tasks: views MyTasks, TodaysTasks, ...; leads: AllOpenLeads, ..."""
    return read.list_records(object, list_view, search, sort_by, direction, limit, offset)


@TOOLS.tool
def get_record(object: AnyObject,
               record_id: Annotated[int, ID_RANGE, Field(description="the record's id")]) -> dict:
    """One record as its page shows it: every field (lookups as {object, id, name}), whether you follow it, its
    duplicates (accounts, contacts, leads), and its related lists with ids: contacts, opportunities, cases,
    contact roles, notes and activities (tasks and events, open ones first). Marks it recently viewed."""
    return read.get_record(object, record_id)


@TOOLS.tool
def list_users() -> list:
    """Every user (sales reps and managers): id, name, alias, title, email; `is_me` marks you (Jordan Avery).
    Owner and Assigned To fields take these ids."""
    return read.users()


@TOOLS.tool
def list_list_views(object: ListObject) -> list:
    """The list views of an object you can see (public ones and your own): id, name, api name, visibility,
    whether it is standard (standard ones can't be renamed or filtered), scope and filters."""
    return read.list_views_of(object)


@TOOLS.tool
def list_reports(search: Annotated[str, Field(description="narrow by name or description")] = "", folder: FolderOpt = None) -> list:
    """Reports (the Reports tab, All Reports): id, name, description, folder, report type, owner id."""
    stmt = select(m.Report).order_by(m.Report.name, m.Report.id)
    if folder:
        stmt = stmt.where(m.Report.folder == folder)
    if search.strip():
        q = f"%{search.strip()}%"
        stmt = stmt.where(or_(m.Report.name.ilike(q), m.Report.description.ilike(q)))
    return [{"id": r.id, "name": r.name, "description": r.description, "folder": r.folder, "report_type": r.report_type,
             "owner_id": r.owner_id} for r in db().scalars(stmt.limit(100))]


def _state(rep, filters, scope, group_by, sort_by, direction, columns=None) -> dict:
    """The report's saved state with the caller's changes (what the run page's and the builder's controls would set)."""
    st = reports.report_state(rep, {})
    if columns is not None:
        st["columns"] = list(columns)
        if group_by is None and st["group"] not in (*columns, "close_month", "account.industry"):
            st["group"] = None  # as the builder: removing the grouped column removes the grouping
    if filters is not None:
        st["filters"] = [{"field": f.get("field", ""), "op": f.get("op", ""), "value": f.get("value", "")} for f in filters]
    if scope is not None:
        st["scope"] = scope
    if group_by is not None:
        st["group"] = group_by or None
    if sort_by is not None:
        st["sort"] = sort_by
    if direction is not None:
        st["dir"] = direction
    st.pop("modified", None)
    return reports.check_state(rep, st)


ScopeArg = Annotated[Literal["all", "mine"] | None, Field(description="Show Me: all records or only yours; omitted = the report's")]
GroupArg = Annotated[str | None, Field(description="a column to group rows by (e.g. owner_id, stage, status); \"\" = no "
                                                   "grouping; omitted = the report's")]
SortArg = Annotated[str | None, Field(description="a column to sort by; omitted = the report's")]
ColumnsArg = Annotated[list[str] | None, Field(max_length=20, description=(
    "the report builder's columns, in order, as field names (e.g. name, account_id, stage, amount, lead_source); "
    "replaces the report's columns; omitted = keep them"))]
FiltersArg = Annotated[Filters | None, Field(description="replaces the report's filters (omitted = keep them); " + Filters.__metadata__[0].description)]


@TOOLS.tool
def run_report(report_id: Annotated[int, ID_RANGE, Field(description="the report's id (see list_reports)")], filters: FiltersArg = None, scope: ScopeArg = None,
               group_by: GroupArg = None, sort_by: SortArg = None, direction: Direction = None, columns: ColumnsArg = None,
               limit: Annotated[int, Field(ge=0, le=50, description="detail rows to return (0-50)")] = 10) -> dict:
    """Run a report, optionally changed (filters, Show Me scope, grouping, sort, columns) without saving it: the record
    count, the total of its measure (amount, annual revenue), each group's label, count and total, and the first
    rows."""
    rep = reports.report(report_id)
    st = _state(rep, filters, scope, group_by, sort_by, direction, columns)
    res = reports.run_report(rep, st)
    from apps._shared import now

    rep.last_run_at = now()  # the run page's own stamp
    return {"report": {"id": rep.id, "name": rep.name, "type": rep.report_type}, "state": st, "columns": res["cols"],
            "count": res["count"], "measure": res["measure"], "total": res["sum"] if res["measure"] else None,
            "groups": [{"label": g["label"], "count": g["count"], "total": g["sum"] if res["measure"] else None}
                       for g in res["groups"]][:100],
            "rows": [{"id": r["id"], **{c["col"]: c["text"] for c in r["cells"]}} for r in res["rows"][:limit]]}


# ------------------------------------------------------------------------------ records
@TOOLS.tool
def create_record(object: RecordObject, fields: FieldValues,
                  primary_contact_id: Annotated[int | None, Field(ge=1, le=MAX_ID, description=(
                      "opportunities only: a contact to add as the primary Decision Maker (as New Opportunity from a "
                      "contact does)"))] = None) -> dict:
    """Create a record with the New dialog's fields (required ones: an account's name; a contact's or lead's
    last_name (a lead also company); an opportunity's name, close_date, stage; a case's subject, status, priority,
    origin; a task's subject, status, priority, owner_id; an event's subject, start, end, owner_id). Unset fields
    start as the dialog does: you are the owner, an opportunity is Prospecting, a lead Open - Not Contacted, a
    case New / Medium / Phone, a task Not Started / Normal, an event the next hour. Returns the new id."""
    # Every input of the dialog posts (blank unless prefilled or given), so a missing required field is refused.
    form = {**dict.fromkeys(recs.form_keys(object), ""), **recs.new_form(object), **recs.as_form(object, fields)}
    rec = recs.create_record(object, form, "", primary_contact_id)
    return _done(object, rec)


@TOOLS.tool
def update_record(object: RecordObject, record_id: Annotated[int, ID_RANGE, Field(description="the record's id")], fields: FieldValues) -> dict:
    """Edit a record (the Edit dialog, or inline edit in a list): only the given fields change, with their side
    effects (a stage sets probability and forecast category, closing a case stamps its closed date...)."""
    rec = recs.update_record(object, record_id, recs.as_form(object, fields))
    return _done(object, rec)


@TOOLS.tool
def delete_record(object: RecordObject, record_id: Annotated[int, ID_RANGE, Field(description="the record's id")]) -> dict:
    """Delete a record. Like Salesforce, an account takes its contacts, opportunities and cases with it, and a
    record takes its activities and notes."""
    name = recs.delete_record(object, record_id)
    return {"object": object, "id": record_id, "name": name, "deleted": True}


@TOOLS.tool
def change_owner(object: RecordObject, record_id: Annotated[int, ID_RANGE, Field(description="the record's id")],
                 owner_id: Annotated[int, ID_RANGE, Field(description="the new owner's user id (see list_users)")],
                 transfer_others_open_opportunities: Annotated[bool, Field(description="Account only: also its open opportunities owned by others")] = False,
                 transfer_closed_opportunities: Annotated[bool, Field(description="Account only: also its closed opportunities owned by the existing account owner")] = False,
                 transfer_open_cases: Annotated[bool, Field(description="Account only: also its open cases owned by the existing account owner")] = False,
                 transfer_closed_cases: Annotated[bool, Field(description="Account only: also its closed cases owned by the existing account owner")] = False) -> dict:
    """Change Owner: give one record to another user. An account's contacts and open opportunities owned by the
    existing account owner always move with it (as in the Change Account Owner dialog); the transfer_* options
    (that dialog's checkboxes) move more. Returns the records that moved with it."""
    opts = {"transfer_others_open_opportunities": transfer_others_open_opportunities,
            "transfer_closed_opportunities": transfer_closed_opportunities,
            "transfer_open_cases": transfer_open_cases, "transfer_closed_cases": transfer_closed_cases}
    rec, u, moved = recs.change_owner(object, record_id, owner_id, opts if object == "Account" else
                                      {k: v for k, v in opts.items() if v})
    out = {**_done(object, rec), "owner": {"id": u.id, "name": u.name}}
    if object == "Account":
        out["also_moved"] = {kind: [r.id for r in rs] for kind, rs in moved.items()}
    return out


@TOOLS.tool
def follow_record(object: RecordObject, record_id: Annotated[int, ID_RANGE, Field(description="the record's id")],
                  follow: Annotated[bool, Field(description="true to follow, false to stop following")] = True) -> dict:
    """Follow (or unfollow) a record so its updates show in your feed."""
    return {"object": object, "id": record_id, "following": recs.set_follow(object, record_id, follow)}


@TOOLS.tool
def change_stage_or_status(object: PathObject, record_id: Annotated[int, ID_RANGE, Field(description="the record's id")],
                           value: Annotated[str, Field(description="an opportunity's stage (Prospecting, Qualification, Needs Analysis, Proposal, "
                                       "Negotiation, Closed Won, Closed Lost), a lead's status (Open - Not Contacted, "
                                       "Working - Contacted, Closed - Not Converted) or a case's status (New, Working, "
                                       "Escalated, Closed)")],
                           loss_reason: Annotated[Literal[tuple(LOSS_REASONS)] | None, Field(  # type: ignore[valid-type]
                               description="with Closed Lost: why")] = None) -> dict:
    """The Path (or dragging a Kanban card): set an opportunity's stage or a lead's or case's status, with the side
    effects (probability, forecast category, closed date). A lead is converted with convert_lead."""
    rec = recs.set_path_value(object, record_id, value, loss_reason)
    out = {**_done(object, rec), recs.PATH_FIELD[object]: value}
    if object == "Opportunity":
        out.update(probability=rec.probability, forecast_category=rec.forecast_category)
    return out


@TOOLS.tool
def close_case(case_id: Annotated[int, ID_RANGE, Field(description="the case's id (search_records, list_records)")],
               comment: Annotated[str, Field(max_length=cases.COMMENT_MAX, description="Internal Comments: recorded as a private case comment; '' for none")] = "",
               reason: Annotated[Literal[tuple(CASE_REASONS)] | None, Field(  # type: ignore[valid-type]
                   description="the Case Reason to set; omitted = keep the case's")] = None,
               status: Annotated[Literal[tuple(cases.CLOSED_STATUSES)], Field(  # type: ignore[valid-type]
                   description="a closed status")] = "Closed") -> dict:
    """The case page's Close Case action: its form's Status (a closed value), Case Reason and Internal Comments.
    Saving closes the case (Date/Time Closed set) and records the comment on the case (get_record's case_comments)."""
    case = cases.close_case(case_id, status, reason, comment)
    return {**_done("Case", case), "status": case.status, "reason": case.reason, "closed_at": case.closed_at,
            "comments": len(cases.comments(case.id))}


@TOOLS.tool
def mass_change_owner(object: ListObject, record_ids: Annotated[IdList, Field(description="the selected records' ids")],
                      owner_id: Annotated[int, ID_RANGE, Field(description="the new owner's user id (see list_users)")]) -> dict:
    """A list view's Change Owner on several selected records at once."""
    changed = recs.mass_action(object, record_ids, "owner", owner_id)
    return {"object": object, "ids": [r.id for r in changed], "owner_id": owner_id}


@TOOLS.tool
def mass_change_status(object: StatusObject, record_ids: Annotated[IdList, Field(description="the selected records' ids")],
                       status: Annotated[str, Field(description="the new status (as in change_stage_or_status)")]) -> dict:
    """A list view's Change Status on several selected leads or cases at once."""
    changed = recs.mass_action(object, record_ids, "status", status)
    return {"object": object, "ids": [r.id for r in changed], "status": status}


@TOOLS.tool
def set_quarterly_goal(amount: Annotated[int, Field(ge=0, le=10**12, description="the goal in whole dollars")]) -> dict:
    """Home's Edit Goal: your quarterly sales goal (the Quarterly Performance chart's target)."""
    return {"quarterly_goal": recs.set_goal(str(amount))}


# ------------------------------------------------------------------------------ notes, roles
@TOOLS.tool
def add_note(object: NoteParent, record_id: Annotated[int, ID_RANGE, Field(description="the record's id")], title: Annotated[str, Field(description="the note's title")],
             body: Annotated[str, Field(description="the note's text")] = "") -> dict:
    """New Note on an account, contact, opportunity or lead (its Notes related list)."""
    n = recs.add_note(object, record_id, title, body)
    db().flush()
    return {"note_id": n.id, "title": n.title, "parent": {"object": object, "id": record_id}}


@TOOLS.tool
def edit_note(note_id: Annotated[int, ID_RANGE, Field(description="the note's id (a record's notes are in get_record)")], title: Annotated[str, Field(description="the note's title")],
              body: Annotated[str, Field(description="the note's text")] = "") -> dict:
    """Edit a note's title and text."""
    n = recs.edit_note(note_id, title, body)
    return {"note_id": n.id, "title": n.title}


@TOOLS.tool
def delete_note(note_id: Annotated[int, ID_RANGE, Field(description="the note's id")]) -> dict:
    """Delete a note."""
    recs.delete_note(note_id)
    return {"note_id": note_id, "deleted": True}


@TOOLS.tool
def add_contact_role(opportunity_id: Annotated[int, ID_RANGE, Field(description="the opportunity's id")], contact_id: Annotated[int, ID_RANGE, Field(description="the contact's id")],
                     role: Annotated[Literal[tuple(CONTACT_ROLES)] | None, Field(  # type: ignore[valid-type]
                         description="the contact's role on the deal")] = None,
                     is_primary: Annotated[bool, Field(description="make this the primary contact")] = False) -> dict:
    """Add Contact Roles: put a contact on an opportunity with a role."""
    cr = recs.add_contact_role(opportunity_id, contact_id, role or "", is_primary)
    db().flush()
    return {"contact_role_id": cr.id, "opportunity_id": opportunity_id, "contact_id": contact_id, "role": cr.role,
            "is_primary": cr.is_primary}


# ------------------------------------------------------------------------------ activities
def _composer(obj: str, rid: int, kind: str, who: str | None, what: str | None, **values: Any) -> dict:
    form = activities.default_form(obj, rid, kind)
    if values.get("owner_id") is not None:
        user(values["owner_id"])  # an unknown assignee is named, not just "Assigned To: Complete this field"
    if who is not None:
        form["who_id"] = who
    if what is not None:
        form["what_id"] = what
    form.update({k: ("" if v is None else str(v)) for k, v in values.items() if v is not None})
    row, _ = activities.compose(obj, rid, kind, form)
    db().flush()
    out = {"object": "Event" if kind == "event" else "Task", "id": row.id, "subject": row.subject,
           "who": {"object": row.who_type, "id": row.who_id} if row.who_id else None,
           "related_to": {"object": row.what_type, "id": row.what_id} if row.what_id else None, "owner_id": row.owner_id}
    return out


@TOOLS.tool
def new_task(object: ComposerObject, record_id: Annotated[int, ID_RANGE, Field(description="the record whose page the task is created on")],
             subject: Annotated[str, Field(description="the task's subject")],
             due_date: Annotated[str | None, Field(description="due date, M/D/YYYY")] = None,
             assigned_to_id: Annotated[int | None, Field(ge=1, le=MAX_ID, description="the assignee's user id; omitted = you")] = None,
             status: TaskStatus = "Not Started", priority: TaskPriority = "Normal",
             comments: Annotated[str, Field(description="the task's comments")] = "", who: WhoRef = None, related_to: WhatRef = None) -> dict:
    """The New Task composer on a record page: a task linked to the record (Name / Related To prefilled from it)."""
    return _composer(object, record_id, "task", who, related_to, subject=subject, activity_date=due_date,
                     owner_id=assigned_to_id, status=status, priority=priority, description=comments)


@TOOLS.tool
def log_call(object: ComposerObject, record_id: Annotated[int, ID_RANGE, Field(description="the record whose page the call is logged on")],
             comments: Annotated[str, Field(description="what was said")] = "", subject: Annotated[str, Field(description="the call's subject")] = "Call",
             who: WhoRef = None, related_to: WhatRef = None) -> dict:
    """Log a Call on a record page: a completed Call task dated today, linked to the record."""
    return _composer(object, record_id, "call", who, related_to, subject=subject, description=comments)


@TOOLS.tool
def new_event(object: ComposerObject, record_id: Annotated[int, ID_RANGE, Field(description="the record whose page the event is created on")],
              subject: Annotated[str, Field(description="the event's subject")],
              start_date: Annotated[str | None, Field(description="M/D/YYYY; omitted = today")] = None,
              start_time: Annotated[str, Field(description="e.g. 9:00 AM")] = "10:00 AM",
              end_date: Annotated[str | None, Field(description="M/D/YYYY; omitted = today")] = None,
              end_time: Annotated[str, Field(description="e.g. 10:00 AM")] = "11:00 AM",
              location: Annotated[str, Field(description="where")] = "",
              assigned_to_id: Annotated[int | None, Field(ge=1, le=MAX_ID, description="the user's id; omitted = you")] = None,
              who: WhoRef = None, related_to: WhatRef = None) -> dict:
    """The New Event composer on a record page: a meeting linked to the record."""
    return _composer(object, record_id, "event", who, related_to, subject=subject, start=start_date,
                     start_time=start_time, end=end_date, end_time=end_time, location=location, owner_id=assigned_to_id)


@TOOLS.tool
def send_email(object: ComposerObject, record_id: Annotated[int, ID_RANGE, Field(description="the record whose page the email is sent from")],
               subject: Annotated[str, Field(description="the email's subject")], body: Annotated[str, Field(description="the email's text")] = "",
               to: Annotated[str | None, Field(description="address(es), comma-separated; omitted = the record's person's email")] = None) -> dict:
    """The Email composer on a record page: sends the email, logged as a completed task "Email: <subject>"."""
    return _composer(object, record_id, "email", None, None, subject=subject, body=body, to=to)


@TOOLS.tool
def complete_task(task_id: Annotated[int, ID_RANGE, Field(description="the task's id (list_records Task, or a record's activities)")],
                  completed: Annotated[bool, Field(description="false reopens it")] = True) -> dict:
    """Mark a task complete (its checkbox), or reopen it."""
    t = activities.complete_task(task_id, completed)
    return {"id": t.id, "subject": t.subject, "status": t.status}


# ------------------------------------------------------------------------------ leads, merge
@TOOLS.tool
def convert_lead(lead_id: Annotated[int, ID_RANGE, Field(description="the lead's id")],
                 existing_account_id: Annotated[int | None, Field(ge=1, le=MAX_ID, description=(
                     "attach to this existing account (e.g. the matching one get_record shows); omitted = create a new account"))] = None,
                 account_name: Annotated[str | None, Field(description="the new account's name; omitted = the lead's company")] = None,
                 existing_contact_id: Annotated[int | None, Field(ge=1, le=MAX_ID, description="use this existing contact; omitted = create one")] = None,
                 create_opportunity: Annotated[bool, Field(description="false = don't create an opportunity upon conversion")] = True,
                 opportunity_name: Annotated[str | None, Field(description="the new opportunity's name; omitted = \"<Company>-\"")] = None,
                 existing_opportunity_id: Annotated[int | None, Field(ge=1, le=MAX_ID, description="attach to this opportunity instead of a new one")] = None,
                 owner_id: Annotated[int | None, Field(ge=1, le=MAX_ID, description="record owner; omitted = the lead's owner")] = None) -> dict:
    """Convert a lead (the Convert dialog): into a new or existing account and contact, and a new, existing or no
    opportunity (new ones are Prospecting, closing at the quarter's end, with no amount). The lead's activities
    and notes move to the contact. Returns the ids created or used."""
    lead = record("Lead", lead_id)
    form = convert.default_form(lead)
    if existing_account_id is not None:
        form.update(account_mode="existing", existing_account_id=str(existing_account_id))
    if account_name is not None:
        form["account_name"] = account_name
    if existing_contact_id is not None:
        form.update(contact_mode="existing", existing_contact_id=str(existing_contact_id))
    if not create_opportunity:
        form["no_opportunity"] = "on"
    if existing_opportunity_id is not None:
        form.update(opp_mode="existing", existing_opp_id=str(existing_opportunity_id))
    if opportunity_name is not None:
        form["opp_name"] = opportunity_name
    if owner_id is not None:
        form["owner_id"] = str(user(owner_id))
    lead = convert.convert_lead(lead_id, form)
    return {"lead_id": lead.id, "account_id": lead.converted_account_id, "contact_id": lead.converted_contact_id,
            "opportunity_id": lead.converted_opportunity_id}


@TOOLS.tool
def merge_records(object: MergeObject, master_id: Annotated[int, ID_RANGE, Field(description="the record to keep")],
                  duplicate_ids: Annotated[IdList, Field(description="the duplicates to merge into it and delete (get_record lists a record's duplicates)")],
                  take_fields_from: Annotated[dict[str, Annotated[int, Field(ge=1, le=MAX_ID)]], Field(description=(
                      "field name -> the id of the record whose value the master keeps; omitted fields follow the merge "
                      "screen's default: the master's value, or a duplicate's where the master's is blank"))] = {}) -> dict:  # noqa: B006
    """Merge duplicate accounts, contacts or leads into one master: related records move to the master, the
    duplicates are deleted."""
    rec = record(object, master_id)
    cands = merge.candidates(object, rec)
    by_id = {r.id: r for r in cands}
    bad = [i for i in duplicate_ids if i not in by_id or i == master_id]
    if bad:
        raise ServiceError(f"{', '.join(map(str, bad))} is not a duplicate of {object} {master_id}; its duplicates: "
                           + (", ".join(str(r.id) for r in cands[1:]) or "none"))
    unknown = [f for f in take_fields_from if f not in merge.MERGE_FIELDS[object]]
    if unknown:
        raise ServiceError(f"can't merge field(s) {', '.join(unknown)}; fields: {', '.join(merge.MERGE_FIELDS[object])}")
    chosen = [rec] + [r for r in cands[1:] if r.id in duplicate_ids]
    names = R.Names()
    sources = merge.default_picks(object, chosen, lambda r, f: merge.display_value(object, r, f, names))
    ids = [r.id for r in chosen]
    for f, src in take_fields_from.items():
        if src not in ids:
            raise ServiceError(f"take_fields_from[{f!r}]: {src} is not one of the merged records {ids}")
        sources[f] = src
    master, n = merge.merge(object, master_id, ids, master_id, sources)
    return {"object": object, "master_id": master.id, "merged": n, "deleted_ids": [i for i in ids if i != master_id]}


# ------------------------------------------------------------------------------ list views
@TOOLS.tool
def create_list_view(object: ListObject, name: Annotated[str, Field(description="the list name (at most 40 characters)")],
                     visibility: Annotated[Literal["me", "all"], Field(description="me = only you can see it, all = all users")] = "me",
                     api_name: Annotated[str | None, Field(description="omitted = derived from the name")] = None,
                     clone_from_id: Annotated[int | None, Field(ge=1, le=MAX_ID, description=(
                         "clone this list view (copies its scope and filters); omitted = a new empty view"))] = None) -> dict:
    """List View Controls > New (or Clone): a new list view; add its filters with set_list_view_filters."""
    src = listviews.list_view(clone_from_id, object) if clone_from_id is not None else None
    lv = listviews.save(object, "clone" if src else "new", src, name, api_name or "", visibility)
    db().flush()
    return {"id": lv.id, "name": lv.name, "api_name": lv.api_name, "visibility": lv.visibility, "filters": lv.filters}


@TOOLS.tool
def rename_list_view(list_view_id: Annotated[int, ID_RANGE, Field(description="the list view's id (see list_list_views)")], name: Annotated[str, Field(description="the new name")],
                     api_name: Annotated[str | None, Field(description="omitted = keep the current api name")] = None,
                     visibility: Annotated[Literal["me", "all"] | None, Field(description="omitted = keep")] = None) -> dict:
    """List View Controls > Rename (your own list views only)."""
    lv = listviews.list_view(list_view_id)
    lv = listviews.save(lv.object, "rename", lv, name, api_name or lv.api_name, visibility or lv.visibility)
    return {"id": lv.id, "name": lv.name, "api_name": lv.api_name, "visibility": lv.visibility}


@TOOLS.tool
def set_list_view_filters(list_view_id: Annotated[int, ID_RANGE, Field(description="the list view's id")], filters: Filters,
                          scope: Annotated[Literal["all", "mine"] | None, Field(description=(
                              "all records or only yours; omitted = keep"))] = None,
                          filter_logic: Annotated[str | None, Field(max_length=200, description=(
                              "how the filters combine by their numbers (1 = the first), e.g. 1 AND (2 OR 3); "
                              "\"\" = all of them; omitted = keep the current logic"))] = None) -> dict:
    """Edit List Filters (your own list views): replace its filters, e.g. [{"field": "stage", "op": "equals",
    "value": "Proposal"}, {"field": "amount", "op": "greater", "value": "50000"}], and optionally its filter logic."""
    lv = listviews.list_view(list_view_id)
    lv = listviews.set_filters(lv, scope or lv.scope, filters, filter_logic)
    return {"id": lv.id, "name": lv.name, "scope": lv.scope, "filters": lv.filters, "filter_logic": lv.filter_logic}


@TOOLS.tool
def set_list_view_columns(list_view_id: Annotated[int, ID_RANGE, Field(description="the list view's id (see list_list_views)")],
                          columns: Annotated[list[Annotated[str, Field(max_length=40)]], Field(min_length=1, max_length=listviews.MAX_COLUMNS, description=(
                              "the Visible Fields, in order: field names as get_record / list_records name them (e.g. name, "
                              "industry, phone, owner_id); the record's name field must be one of them"))]) -> dict:
    """List View Controls > Select Fields to Display (your own list views): the columns the list shows, in order.
    list_list_views shows each view's columns; list_records returns them."""
    lv = listviews.set_columns(listviews.list_view(list_view_id), columns)
    return {"id": lv.id, "name": lv.name, "columns": lv.columns}


@TOOLS.tool
def delete_list_view(list_view_id: Annotated[int, ID_RANGE, Field(description="the list view's id")]) -> dict:
    """List View Controls > Delete (your own list views only)."""
    name = listviews.delete_view(listviews.list_view(list_view_id))
    return {"id": list_view_id, "name": name, "deleted": True}


# ------------------------------------------------------------------------------ reports
@TOOLS.tool
def create_report(name: Annotated[str, Field(description="the report's name")], report_type: ReportType, folder: Folder = "Private Reports",
                  description: Annotated[str, Field(description="what it shows")] = "") -> dict:
    """New Report: a report of the type's default columns, no filters, all records. Filter, group and save it
    with save_report."""
    rep = reports.create(name, report_type, folder, description)
    db().flush()
    return {"id": rep.id, "name": rep.name, "folder": rep.folder, "report_type": rep.report_type, "columns": rep.columns}


@TOOLS.tool
def save_report(report_id: Annotated[int, ID_RANGE, Field(description="the report's id")], filters: FiltersArg = None, scope: ScopeArg = None, group_by: GroupArg = None,
                sort_by: SortArg = None, direction: Direction = None, columns: ColumnsArg = None) -> dict:
    """Save a report with changes made on its run page or in the report builder (filters, Show Me scope, grouping,
    sort, columns)."""
    rep = reports.report(report_id)
    reports.save(rep, _state(rep, filters, scope, group_by, sort_by, direction, columns))
    return {"id": rep.id, "name": rep.name, "columns": rep.columns, "filters": rep.filters, "scope": rep.scope, "group_by": rep.group_by,
            "sort_by": rep.sort_by, "sort_dir": rep.sort_dir}


@TOOLS.tool
def save_report_as(report_id: Annotated[int, ID_RANGE, Field(description="the report to copy")], name: Annotated[str, Field(description="the new report's name")], folder: Folder = "Private Reports",
                   description: Annotated[str, Field(description="what it shows")] = "", filters: FiltersArg = None, scope: ScopeArg = None,
                   group_by: GroupArg = None, sort_by: SortArg = None, direction: Direction = None, columns: ColumnsArg = None) -> dict:
    """Save As: a new report (yours) from a report and the changes made on its run page or in the builder."""
    rep = reports.report(report_id)
    new = reports.save_as(rep, _state(rep, filters, scope, group_by, sort_by, direction, columns), name, folder, description)
    db().flush()
    return {"id": new.id, "name": new.name, "folder": new.folder, "filters": new.filters, "scope": new.scope,
            "group_by": new.group_by}


@TOOLS.tool
def delete_report(report_id: Annotated[int, ID_RANGE, Field(description="the report's id")]) -> dict:
    """Delete a report (not one a dashboard uses)."""
    name = reports.delete(reports.report(report_id))
    return {"id": report_id, "name": name, "deleted": True}


# ------------------------------------------------------------------------------ products (services/products.py)
from apps.crm.services import products as catalog  # noqa: E402 - this section's service, kept beside its tools

LINE_KEYS = ("price_book_entry_id", "quantity", "sales_price", "service_date", "description")
ProductLines = Annotated[list[dict[str, int | float | str | None]], Field(min_length=1, max_length=50, description=(
    "the products to add, each {\"price_book_entry_id\": <id from list_products>, \"quantity\": <whole number>, "
    "\"sales_price\": <whole dollars per unit; omitted = the list price>, \"service_date\": \"M/D/YYYY\" (optional), "
    "\"description\": <line description> (optional)}"))]


@TOOLS.tool
def list_price_books() -> list:
    """The active price books (Standard Price Book first): an opportunity's products all come from one."""
    return [{"id": p.id, "name": p.name, "description": p.description, "is_standard": p.is_standard} for p in catalog.price_books()]


@TOOLS.tool
def list_products(opportunity_id: Annotated[int, ID_RANGE, Field(description="the opportunity's id")],
                  search: Annotated[str, Field(description="narrow by product name, code or family")] = "") -> dict:
    """Add Products' list for an opportunity: its price book and that book's products with their price book entry
    ids and list prices (or, when it has no price book yet, the books to choose from)."""
    return catalog.catalogue(opportunity_id, search)


@TOOLS.tool
def choose_price_book(opportunity_id: Annotated[int, ID_RANGE, Field(description="the opportunity's id")],
                      price_book_id: Annotated[int, ID_RANGE, Field(description="the price book's id (see list_price_books)")]) -> dict:
    """Choose Price Book for an opportunity (before its first product; refused while it has products)."""
    pb = catalog.choose_price_book(opportunity_id, price_book_id)
    return {"opportunity_id": opportunity_id, "price_book": {"id": pb.id, "name": pb.name}}


@TOOLS.tool
def add_products(opportunity_id: Annotated[int, ID_RANGE, Field(description="the opportunity's id")], products: ProductLines) -> dict:
    """Add Products then Edit Selected Products' Save: line items from the opportunity's price book. The
    opportunity's Amount becomes the total of its products."""
    for k, it in enumerate(products):
        bad = [key for key in it if key not in LINE_KEYS]
        if bad or "price_book_entry_id" not in it or "quantity" not in it:
            raise ServiceError(f"'products' item {k + 1}: " + (f"unknown key {bad[0]!r}; " if bad else "")
                               + f"each item takes {', '.join(LINE_KEYS)} (price_book_entry_id and quantity required)")
    added = catalog.add_products(opportunity_id, products)
    opp = record("Opportunity", opportunity_id)
    return {"opportunity_id": opportunity_id, "amount": opp.amount,
            "added": [catalog.line_item_dict(li, db().get(m.Product, li.product_id)) for li in added]}


@TOOLS.tool
def update_opportunity_product(line_item_id: Annotated[int, ID_RANGE, Field(description="the opportunity product's id (get_record's related products)")],
                               quantity: Annotated[int | None, Field(description="the new quantity; omitted = unchanged")] = None,
                               sales_price: Annotated[int | None, Field(description="the new sales price in whole dollars; omitted = unchanged")] = None,
                               description: Annotated[str | None, Field(description="the new line description; omitted = unchanged")] = None) -> dict:
    """Edit an opportunity product (its own dialog): quantity, sales price, line description. The opportunity's
    Amount follows."""
    li = catalog.update_line_item(line_item_id, quantity, sales_price, description=description)
    return {**catalog.line_item_dict(li, db().get(m.Product, li.product_id)),
            "opportunity_amount": record("Opportunity", li.opportunity_id).amount}


@TOOLS.tool
def delete_opportunity_product(line_item_id: Annotated[int, ID_RANGE, Field(description="the opportunity product's id")]) -> dict:
    """Delete an opportunity product; the opportunity's Amount follows."""
    opp_id = catalog.line_item(line_item_id).opportunity_id
    name = catalog.delete_line_item(line_item_id)
    return {"id": line_item_id, "product": name, "deleted": True, "opportunity_amount": record("Opportunity", opp_id).amount}


# ------------------------------------------------------------------------------ files (services/files.py)
from apps.crm.services import files as filesvc  # noqa: E402 - this section's service, kept beside its tools

FileParent = _kind(Literal["Account", "Contact", "Opportunity", "Lead", "Case"], "the kind of record the file goes on")


@TOOLS.tool
def list_files(search: Annotated[str, Field(description="narrow by file title")] = "",
               owned_by_me: Annotated[bool, Field(description="only your files (Add Files' Owned by Me)")] = False) -> list:
    """The file library Add Files picks from, newest first: id, title, extension, type, size, owner."""
    return [filesvc.as_dict(f) for f in filesvc.library(search, owned_by_me)]


@TOOLS.tool
def attach_files(object: FileParent, record_id: Annotated[int, ID_RANGE, Field(description="the record's id")],
                 file_ids: Annotated[IdList, Field(description="the files to add (ids from list_files)")]) -> dict:
    """Add Files on a record's Files card: share library files to the record (each once)."""
    links = filesvc.attach(object, record_id, list(file_ids))
    return {"object": object, "record_id": record_id, "added": [{"link_id": lk.id, "file_id": lk.file_id} for lk in links]}


@TOOLS.tool
def upload_file(object: FileParent, record_id: Annotated[int, ID_RANGE, Field(description="the record's id")],
                file_name: Annotated[str, Field(description="the file's name with its extension, e.g. notes.txt")],
                text: Annotated[str, Field(description="the file's contents (text)")]) -> dict:
    """Upload Files on a record's Files card: a new file of yours with this name and text, shared to the record."""
    f = filesvc.upload(object, record_id, file_name, text.encode("utf-8"))
    return {**filesvc.as_dict(f), "object": object, "record_id": record_id}


@TOOLS.tool
def remove_file(link_id: Annotated[int, ID_RANGE, Field(description="the file's link to the record (get_record's related files: link_id)")]) -> dict:
    """Remove from Record: the file leaves the record's Files list (it stays in the library)."""
    lk = filesvc.remove(link_id)
    return {"link_id": link_id, "file_id": lk.file_id, "object": lk.parent_type, "record_id": lk.parent_id, "removed": True}


# ------------------------------------------------------------------------------ Chatter (services/feed.py)
from apps.crm.services import feed as feedsvc  # noqa: E402 - this section's service, kept beside its tools

FeedParent = _kind(Literal["Account", "Contact", "Opportunity", "Case"], "the kind of record whose Feed it is")
FeedText = Annotated[str, Field(description="the text; @Full Name (a user's full name, see list_users) mentions that user")]


@TOOLS.tool
def list_feed(object: FeedParent, record_id: Annotated[int, ID_RANGE, Field(description="the record's id")]) -> list:
    """A record's Feed (Chatter), newest post first: each post's id, author, text, mentions, likes and comments."""
    return [feedsvc.as_dict(p) for p in feedsvc.feed(object, record_id)]


@TOOLS.tool
def post_to_feed(object: FeedParent, record_id: Annotated[int, ID_RANGE, Field(description="the record's id")],
                 text: FeedText) -> dict:
    """Share a post on a record's Feed (the publisher's Post); @Full Name in the text mentions a user."""
    item = feedsvc.post(object, record_id, text)
    return {"post_id": item.id, "object": object, "record_id": record_id, "body": item.body,
            "mentions": [R.user_by_id(u).name for u in feedsvc.mentions(item.body)]}


@TOOLS.tool
def comment_on_post(post_id: Annotated[int, ID_RANGE, Field(description="the post's id (list_feed)")], text: FeedText) -> dict:
    """Comment on a post of a record's Feed."""
    c = feedsvc.comment(post_id, text)
    return {"comment_id": c.id, "post_id": post_id, "body": c.body}


@TOOLS.tool
def like_post(post_id: Annotated[int, ID_RANGE, Field(description="the post's id (list_feed)")],
              liked: Annotated[bool, Field(description="true to like, false to unlike")] = True) -> dict:
    """Like (or unlike) a post of a record's Feed."""
    return {"post_id": post_id, "liked": feedsvc.set_like(post_id, liked)}


# ------------------------------------------------------------------------------ dashboards (services/dashboards.py)
from apps.crm.services import dashboards as dashsvc  # noqa: E402 - this section's service, kept beside its tools

DisplayAs = _kind(Literal["bar", "column", "line", "donut", "funnel", "metric", "table"],
                  "Display As: bar (Horizontal Bar Chart), column (Vertical Bar Chart), line, donut, funnel, metric, table (Lightning Table)")


@TOOLS.tool
def list_dashboards(search: Annotated[str, Field(description="narrow by name")] = "") -> list:
    """Dashboards with their components (position, title, source report, Display As)."""
    q = search.strip().casefold()
    return [dashsvc.as_dict(d) for d in db().scalars(select(m.Dashboard).order_by(m.Dashboard.name, m.Dashboard.id))
            if q in d.name.casefold()]


@TOOLS.tool
def add_dashboard_component(dashboard_id: Annotated[int, ID_RANGE, Field(description="the dashboard's id (list_dashboards)")],
                            report_id: Annotated[int, ID_RANGE, Field(description="the source report's id (list_reports)")],
                            display_as: DisplayAs,
                            title: Annotated[str, Field(description="the component's title; blank = the report's name")] = "") -> dict:
    """Edit a dashboard: + Component (a report as a chart, a metric or a table), added last, and Save."""
    d = dashsvc.dashboard(dashboard_id)
    dashsvc.save(d, dashsvc.add(list(d.components or []), report_id, display_as, title))
    return dashsvc.as_dict(d)


@TOOLS.tool
def remove_dashboard_component(dashboard_id: Annotated[int, ID_RANGE, Field(description="the dashboard's id (list_dashboards)")],
                               title: Annotated[str, Field(description="the component's title, as list_dashboards shows it")]) -> dict:
    """Edit a dashboard: remove the component with this title, and Save."""
    d = dashsvc.dashboard(dashboard_id)
    comps = list(d.components or [])
    dashsvc.save(d, dashsvc.remove(comps, dashsvc.position(comps, title)))
    return dashsvc.as_dict(d)
