"""The mail clone's tools: its everyday operations as typed function calls (see apps/_shared/tools.py).

Every tool calls apps/mail/services (the functions the UI's views call), so a tool can do exactly what a user
can, with the same checks and side effects. Read tools return ids: `search_mail` / `list_mail` give
conversations (`thread_id`), `read_conversation` gives messages (`message_id`) and invites (`invite_id`),
`list_labels` / `list_filters` / `list_blocked_senders` / `find_contacts` give theirs.
"""

from __future__ import annotations

from typing import Annotated, Literal, Optional

from pydantic import Field
from sqlalchemy import func, select

from apps._shared import db, now
from apps._shared.tools import ToolError, ToolSet
from apps.mail import formatting as fmt
from apps.mail.models import Message
from apps.mail.services import account as A
from apps.mail.services import compose as C
from apps.mail.services import conversations as S
from apps.mail.services import files as FS
from apps.mail.services import filters as F
from apps.mail.services import labels as L
from apps.mail.services import reading as R
from apps.mail.services.labels import LABEL_COLORS

TOOLS = ToolSet("mail")

ThreadIds = Annotated[list[int], Field(min_length=1, max_length=100,
                                       description="conversation ids (thread_id from search_mail / list_mail)")]
ThreadId = Annotated[int, Field(description="the conversation's thread_id (from search_mail / list_mail)")]
MessageId = Annotated[int, Field(description="a message_id (from read_conversation)")]
LabelId = Annotated[int, Field(description="a label_id (from list_labels)")]
Limit = Annotated[int, Field(ge=1, le=R.MAX_LIMIT, description=f"how many to return (1-{R.MAX_LIMIT})")]
Offset = Annotated[int, Field(ge=0, description="how many to skip (paging)")]
Addresses = Annotated[list[str], Field(max_length=50, description="e-mail addresses")]
Folder = Literal["inbox", "starred", "snoozed", "sent", "drafts", "important", "scheduled", "all", "spam", "trash"]
Category = Literal["primary", "promotions", "social", "updates"]
SnoozePreset = Literal["later_today", "tomorrow", "later_this_week", "this_weekend", "next_week"]
SchedulePreset = Literal["tomorrow_morning", "tomorrow_afternoon", "monday_morning"]
Color = Literal[("none", *(n.lower() for n, _b, _t in LABEL_COLORS))]  # type: ignore[valid-type]


def _s():
    return db()


def _act(action: str, ids: list[int], **opts) -> dict:
    toast, _undo = S.apply_action(_s(), action, ids, opts)
    return {"ok": True, "thread_ids": ids, "message": toast}


def _preset_time(options: list[dict], key: str, kind: str) -> str:
    hit = next((o for o in options if o["key"] == key), None)
    if hit is None:
        raise ToolError(f"the {kind} preset {key!r} is not offered now; the presets now are: "
                        + ", ".join(o["key"] for o in options))
    return hit["at"].isoformat()


# --------------------------------------------------------------------------------------------- reading
@TOOLS.tool
def search_mail(query: Annotated[str, Field(max_length=500, description=(
        "Gmail search: words, \"phrases\", from: to: subject: label: has:attachment is:unread is:starred "
        "in:inbox|trash|spam|anywhere|drafts|sent before:/after:YYYY/MM/DD newer_than:7d, -word"))],
                limit: Limit = 20, offset: Offset = 0) -> dict:
    """Search mail as the search box does (Trash, Spam and drafts only when the query asks with in:).
    Returns {total, conversations: [{thread_id, subject, from, last_date, snippet, unread, starred, important,
    in_inbox, labels, attachments, ...}]}, newest first."""
    return R.search(_s(), query, limit, offset)


@TOOLS.tool
def list_mail(folder: Annotated[Folder, Field(description="the folder to list")] = "inbox",
              category: Annotated[Optional[Category], Field(description="inbox tab (or category of another folder)")] = None,
              limit: Limit = 20, offset: Offset = 0) -> dict:
    """List a folder's conversations, newest first (the inbox: every tab unless `category` picks one).
    Drafts rows carry `draft_id`, Scheduled rows `scheduled_at`. Returns {total, conversations: [...]}."""
    return R.list_folder(_s(), folder, category, limit, offset)


@TOOLS.tool
def list_label_mail(label_id: LabelId, limit: Limit = 20, offset: Offset = 0) -> dict:
    """List the conversations with a label (and its sublabels), newest first. Returns {total, conversations}."""
    return R.list_label(_s(), label_id, limit, offset)


@TOOLS.tool
def read_conversation(thread_id: ThreadId) -> dict:
    """Open a conversation: its subject, labels, state and every message (message_id, from, to, cc, date, body,
    attachments, calendar invite with invite_id and rsvp). Opening marks its messages read, as in the app."""
    return R.read_conversation(_s(), thread_id)


@TOOLS.tool
def get_draft(draft_id: Annotated[int, Field(description="a draft_id (list_mail folder='drafts')")]) -> dict:
    """A draft's recipients, subject and body."""
    return R.get_draft(_s(), draft_id)


@TOOLS.tool
def list_labels() -> list:
    """Every label: label_id, path ("Work/Clients"), name, parent_id, color, visibility, conversation count."""
    return R.list_labels(_s())


@TOOLS.tool
def list_filters() -> list:
    """Every filter: filter_id, its search query, criteria and actions."""
    return R.list_filters(_s())


@TOOLS.tool
def list_blocked_senders() -> list:
    """Blocked addresses: block_id, email."""
    return R.list_blocked(_s())


@TOOLS.tool
def get_settings() -> dict:
    """My account and settings (signature, page size, inbox tabs, vacation responder), the current date-time
    (`now`) and the snooze and schedule-send presets with their times."""
    return R.get_settings(_s())


@TOOLS.tool
def find_contacts(query: Annotated[str, Field(max_length=200, description="words of a name, email, company, phone or title; empty lists the view")] = "",
                  view: Annotated[Literal["all", "favorites", "other"], Field(description="all saved contacts, favorites, or other contacts (ignored when searching)")] = "all",
                  limit: Limit = 20, offset: Offset = 0) -> dict:
    """Find contacts (a search looks through saved and other contacts). Returns {total, contacts: [{contact_id,
    name, email, company, title, phone, favorite, saved}]}."""
    return R.find_contacts(_s(), query, view, limit, offset)


@TOOLS.tool
def get_contact(contact_id: Annotated[int, Field(description="a contact_id (find_contacts)")]) -> dict:
    """A contact's details: name, email, company, title, phone, address, birthday, notes."""
    return R.get_contact(_s(), contact_id)


# --------------------------------------------------------------------------------------------- writing
def _sent(msg, thread) -> dict:
    return {"ok": True, "message_id": msg.id, "thread_id": thread.id, "subject": msg.subject, "to": msg.to,
            "cc": msg.cc, "bcc": msg.bcc, "attachments": [a.filename for a in FS.attachments_of(_s(), msg.id)]}


Body = Annotated[str, Field(description="the message text (plain text)")]
FileIds = Annotated[list[int], Field(max_length=20, description="files to attach: file_id from list_files (My Files)")]
Subject = Annotated[str, Field(max_length=500, description="the subject line")]
BodyHtml = Annotated[Optional[str], Field(max_length=200_000, description=(
    "optional formatted text (the formatting bar's HTML: <b>, <i>, <u>, <font color>, lists, quotes...); when "
    "given it is the message: it is sanitized and the plain text is derived from it, `body` is then ignored"))]


@TOOLS.tool
def send_email(to: Addresses, subject: Subject, body: Body, cc: Addresses = [], bcc: Addresses = [],
               file_ids: FileIds = [], body_html: BodyHtml = None) -> dict:
    """Compose and send a new email now (a new conversation), with `file_ids` attached (list_files). Returns its
    message_id and thread_id."""
    return _sent(*C.send(_s(), mode="new", to=to, cc=cc, bcc=bcc, subject=subject, body=body, file_ids=file_ids,
                         body_html=body_html))


@TOOLS.tool
def reply(thread_id: ThreadId, body: Body,
          reply_all: Annotated[bool, Field(description="reply to everyone on the message, not only its sender")] = False,
          to: Annotated[Optional[list[str]], Field(max_length=50, description="override the recipients (default: as Reply / Reply all fill them)")] = None,
          cc: Addresses = [], file_ids: FileIds = [], body_html: BodyHtml = None, bcc: Addresses = []) -> dict:
    """Reply in a conversation, as its Reply / Reply all buttons do: to the latest message from someone else
    (its sender; with reply_all, the sender and its To on To, its Cc on Cc, without me), subject "Re: ...".
    `cc` / `bcc` add recipients as the reply box's Cc / Bcc fields do. `file_ids` attach files from list_files.
    Sent now."""
    session = _s()
    msgs = S.thread_msgs(session, thread_id)
    src, reply_to, all_to, all_cc = C.reply_source(session, msgs)
    everyone = len(all_to) + len(all_cc) > 1
    recipients = to if to is not None else (all_to if reply_all and everyone else reply_to)
    # Reply all keeps the original Cc on Cc; a Cc given is added to it (as typing into the Cc field would).
    copy = [*(all_cc if reply_all and everyone and to is None else []), *cc]
    return _sent(*C.send(session, mode="reply_all" if reply_all else "reply", to=recipients, cc=copy, bcc=bcc, body=body,
                         thread_id=thread_id, in_reply_to_id=src.id, file_ids=file_ids, body_html=body_html))


@TOOLS.tool
def forward(thread_id: ThreadId, to: Addresses, body: Body = "", cc: Addresses = [], bcc: Addresses = [],
            message_id: Annotated[Optional[int], Field(description="the message to forward (default: the one Reply would answer)")] = None,
            file_ids: FileIds = [], body_html: BodyHtml = None,
            keep_attachments: Annotated[bool, Field(description="carry the forwarded message's attachments (as Gmail does)")] = True) -> dict:
    """Forward a conversation's message: "Fwd: ..." with your text above the quoted original, the original's
    attachments carried (unless keep_attachments is false) and `file_ids` (from list_files) attached. Sent now."""
    session = _s()
    msgs = S.thread_msgs(session, thread_id)
    src = C.reply_source(session, msgs)[0] if message_id is None else None
    return _sent(*C.send(session, mode="forward", to=to, cc=cc, bcc=bcc, body=body, thread_id=thread_id,
                         in_reply_to_id=message_id if message_id is not None else src.id, file_ids=file_ids,
                         body_html=body_html, forward_attachment_ids=None if keep_attachments else []))


@TOOLS.tool
def save_draft(to: Addresses = [], subject: Subject = "", body: Body = "", cc: Addresses = [], bcc: Addresses = [],
               draft_id: Annotated[Optional[int], Field(description="update this draft instead of starting one")] = None,
               file_ids: FileIds = []) -> dict:
    """Save an email as a draft without sending it (or replace an existing draft's fields; `file_ids` from
    list_files are attached to it). Returns draft_id and the draft's attachments."""
    session = _s()
    m, thread = C.save_draft(session, to=to, cc=cc, bcc=bcc, subject=subject, body=body, draft_id=draft_id,
                             file_ids=file_ids)
    return {"ok": True, "draft_id": m.id, "thread_id": thread.id,
            "attachments": [FS.attachment_dict(a) for a in FS.attachments_of(session, m.id)]}


@TOOLS.tool
def undo_send(message_id: Annotated[int, Field(description="the message_id a send returned")]) -> dict:
    """Undo Send, right after sending (the toast's Undo): only my latest message sent now can be taken back. A new
    email goes back to Drafts (draft_id); a reply or forward is removed and what it held is returned (reply)."""
    return {"ok": True, **C.undo_send(_s(), message_id)}


@TOOLS.tool
def list_files(query: Annotated[str, Field(max_length=200, description="part of a file name (empty: all)")] = "") -> dict:
    """My Files: what compose can attach ("Insert files using My Files"). Returns {files: [{file_id, name, mime,
    size, modified_at}]}, newest first; pass file_ids to send_email / reply / forward / save_draft."""
    files = FS.list_files(_s(), query)
    return {"total": len(files), "files": [FS.file_dict(f) for f in files]}


@TOOLS.tool
def remove_attachment(draft_id: Annotated[int, Field(description="the draft's id")],
                      attachment_id: Annotated[int, Field(description="an attachment_id of that draft")]) -> dict:
    """Remove an attachment from a draft (the x on its chip in compose)."""
    C.remove_attachment(_s(), draft_id, attachment_id)
    return {"ok": True}


def _draft_fields(draft_id: int, **given) -> dict:
    m = C.draft(_s(), draft_id)
    if m is None:
        raise ToolError(f"draft {draft_id} does not exist; list_mail(folder='drafts') gives the ids")
    cur = {"to": list(m.to), "cc": list(m.cc), "bcc": list(m.bcc), "subject": m.subject, "body": m.body}
    return {k: (given[k] if given.get(k) is not None else v) for k, v in cur.items()}


@TOOLS.tool
def send_draft(draft_id: Annotated[int, Field(description="a draft_id (list_mail folder='drafts')")],
               to: Annotated[Optional[list[str]], Field(max_length=50, description="replace the To addresses")] = None,
               cc: Annotated[Optional[list[str]], Field(max_length=50, description="replace the Cc addresses")] = None,
               bcc: Annotated[Optional[list[str]], Field(max_length=50, description="replace the Bcc addresses")] = None,
               subject: Annotated[Optional[str], Field(max_length=500, description="replace the subject")] = None,
               body: Annotated[Optional[str], Field(description="replace the text")] = None) -> dict:
    """Send a saved draft now. A field given replaces the draft's (a list replaces the whole list); the rest
    are sent as saved."""
    fields = _draft_fields(draft_id, to=to, cc=cc, bcc=bcc, subject=subject, body=body)
    return _sent(*C.send(_s(), mode="new", **fields, draft_id=draft_id))


@TOOLS.tool
def discard_draft(draft_id: Annotated[int, Field(description="a draft_id (list_mail folder='drafts')")]) -> dict:
    """Discard a draft (deleted for good)."""
    C.discard_draft(_s(), draft_id)
    return {"ok": True}


@TOOLS.tool
def schedule_send(to: Addresses, subject: Subject, body: Body,
                  preset: Annotated[Optional[SchedulePreset], Field(description="a Schedule send preset (get_settings shows their times)")] = None,
                  at: Annotated[Optional[str], Field(max_length=40, description="or a date-time, ISO 'YYYY-MM-DDTHH:MM', after now")] = None,
                  cc: Addresses = [], bcc: Addresses = [],
                  draft_id: Annotated[Optional[int], Field(description="schedule this draft (its fields are replaced by these)")] = None) -> dict:
    """Schedule an email to be sent later (it waits in Scheduled). Give a `preset` or `at`."""
    if (preset is None) == (at is None):
        raise ToolError("schedule_send: give either 'preset' or 'at'")
    if draft_id is not None and C.draft(_s(), draft_id) is None:
        raise ToolError(f"draft {draft_id} does not exist; list_mail(folder='drafts') gives the ids")
    when = _preset_time(fmt.schedule_options(now()), preset, "schedule") if preset else at
    m, thread, t = C.schedule(_s(), at=when, to=to, cc=cc, bcc=bcc, subject=subject, body=body, draft_id=draft_id)
    return {"ok": True, "message_id": m.id, "thread_id": thread.id, "scheduled_at": t.isoformat()}


@TOOLS.tool
def cancel_scheduled_send(message_id: Annotated[int, Field(description="the scheduled message's id (read_conversation of a Scheduled row)")]) -> dict:
    """Cancel a scheduled email: it is not sent and goes back to Drafts (same id, now a draft_id)."""
    m = C.cancel_scheduled(_s(), message_id)
    return {"ok": True, "draft_id": m.id}


# ------------------------------------------------------------------------------ conversations, in bulk
@TOOLS.tool
def archive(thread_ids: ThreadIds) -> dict:
    """Archive conversations: they leave the inbox (still in All Mail and their labels)."""
    return _act("archive", thread_ids)


@TOOLS.tool
def delete_conversations(thread_ids: ThreadIds) -> dict:
    """Delete conversations: they move to Trash (restore with move_to_inbox)."""
    return _act("trash", thread_ids)


@TOOLS.tool
def move_to_inbox(thread_ids: ThreadIds) -> dict:
    """Move conversations back to the inbox (out of Trash, Spam or the archive)."""
    return _act("move_to_inbox", thread_ids)


@TOOLS.tool
def report_spam(thread_ids: ThreadIds) -> dict:
    """Report conversations as spam: they move to Spam."""
    return _act("spam", thread_ids)


@TOOLS.tool
def not_spam(thread_ids: ThreadIds) -> dict:
    """Mark conversations in Spam as not spam: they return to the inbox."""
    return _act("not_spam", thread_ids)


@TOOLS.tool
def delete_forever(thread_ids: ThreadIds) -> dict:
    """Delete conversations in Trash or Spam for good (only there, as in the app)."""
    session = _s()
    for tid in thread_ids:
        if not all(m.is_trashed or m.is_spam for m in S.thread_msgs(session, tid)):
            raise ToolError(f"conversation {tid} is not in Trash or Spam; delete it first (delete_conversations)")
    return _act("delete_forever", thread_ids)


@TOOLS.tool
def mark_read(thread_ids: ThreadIds,
              read: Annotated[bool, Field(description="true: mark as read; false: mark as unread")] = True) -> dict:
    """Mark conversations as read (or unread)."""
    return _act("mark_read" if read else "mark_unread", thread_ids)


@TOOLS.tool
def star(thread_ids: ThreadIds, starred: Annotated[bool, Field(description="true: star; false: remove stars")] = True) -> dict:
    """Star conversations (their latest message) or remove every star in them."""
    return _act("star" if starred else "unstar", thread_ids)


@TOOLS.tool
def mark_important(thread_ids: ThreadIds,
                   important: Annotated[bool, Field(description="true: important; false: not important")] = True) -> dict:
    """Mark conversations as important (or not important)."""
    return _act("important" if important else "not_important", thread_ids)


@TOOLS.tool
def snooze(thread_ids: ThreadIds,
           preset: Annotated[Optional[SnoozePreset], Field(description="a snooze preset (get_settings shows their times)")] = None,
           until: Annotated[Optional[str], Field(max_length=40, description="or a date-time, ISO 'YYYY-MM-DDTHH:MM', after now")] = None) -> dict:
    """Snooze conversations until a time: they leave the inbox and come back then. Give a `preset` or `until`."""
    if (preset is None) == (until is None):
        raise ToolError("snooze: give either 'preset' or 'until'")
    when = _preset_time(fmt.snooze_options(now()), preset, "snooze") if preset else until
    return _act("snooze", thread_ids, until=when)


@TOOLS.tool
def unsnooze(thread_ids: ThreadIds) -> dict:
    """Unsnooze conversations: back in the inbox now."""
    return _act("unsnooze", thread_ids)


@TOOLS.tool
def mute(thread_ids: ThreadIds, muted: Annotated[bool, Field(description="true: mute (also archives); false: unmute")] = True) -> dict:
    """Mute conversations (archived, and later replies stay out of the inbox) or unmute them."""
    return _act("mute" if muted else "unmute", thread_ids)


@TOOLS.tool
def change_labels(thread_ids: ThreadIds,
                  add: Annotated[list[int], Field(max_length=50, description="label_ids to apply")] = [],
                  remove: Annotated[list[int], Field(max_length=50, description="label_ids to remove")] = []) -> dict:
    """Apply and/or remove labels on conversations (the Labels menu); they stay where they are."""
    if not add and not remove:
        raise ToolError("change_labels: give label ids to 'add' or 'remove'")
    return _act("label", thread_ids, add=add, remove=remove)


@TOOLS.tool
def move_to_label(thread_ids: ThreadIds, label_id: LabelId,
                  from_label_id: Annotated[Optional[int], Field(description="remove this label too (moving out of a label's list)")] = None) -> dict:
    """Move conversations to a label (the Move to menu): the label is applied and they leave the inbox."""
    return _act("move", thread_ids, target=f"label:{label_id}", from_label_id=from_label_id)


@TOOLS.tool
def move_to_category(thread_ids: ThreadIds, category: Annotated[Category, Field(description="the tab to move them to")]) -> dict:
    """Move conversations to an inbox tab (Primary, Promotions, Social, Updates)."""
    return _act("move", thread_ids, target=f"category:{category}")


@TOOLS.tool
def empty_folder(folder: Annotated[Literal["trash", "spam"], Field(description="the folder to empty")]) -> dict:
    """Empty Trash now / Delete all spam messages now: every conversation there is deleted for good."""
    n = S.empty_folder(_s(), folder)
    return {"ok": True, "deleted_conversations": n}


# ------------------------------------------------------------------------------------ single messages
@TOOLS.tool
def star_message(message_id: MessageId,
                 starred: Annotated[bool, Field(description="true: star; false: unstar")] = True) -> dict:
    """Star (or unstar) one message of a conversation."""
    return {"ok": True, "starred": S.star_message(_s(), message_id, starred)}


@TOOLS.tool
def delete_message(message_id: MessageId) -> dict:
    """Delete one message of a conversation (it moves to Trash)."""
    return {"ok": True, "conversation_empty": S.trash_message(_s(), message_id)}


@TOOLS.tool
def mark_unread_from(message_id: MessageId) -> dict:
    """Mark a message and the later ones of its conversation unread."""
    S.unread_from_here(_s(), message_id)
    return {"ok": True}


@TOOLS.tool
def rsvp(invite_id: Annotated[int, Field(description="the invite_id (read_conversation)")],
         response: Annotated[Literal["yes", "maybe", "no"], Field(description="going? yes, maybe or no")]) -> dict:
    """Answer a calendar invitation: Yes, Maybe or No."""
    return {"ok": True, "rsvp": S.rsvp(_s(), invite_id, response)}


@TOOLS.tool
def block_sender(email: Annotated[str, Field(max_length=200, description="the sender's address (read_conversation)")]) -> dict:
    """Block a sender of a message you received (the message menu's Block): their future mail goes to Spam."""
    session = _s()
    # The app offers Block on a received message's menu only: an address that never wrote is not blockable.
    sender = session.scalar(select(Message.id).where(func.lower(Message.from_email) == email.strip().lower(),
                                                     Message.is_sent.is_(False)).limit(1))
    if sender is None:
        raise ToolError(f"no message from {email!r}: Block is offered on a received message (read_conversation "
                        "gives senders' addresses)")
    return {"ok": True, "blocked": S.block(session, email)}


@TOOLS.tool
def unblock_sender(email: Annotated[str, Field(max_length=200, description="a blocked address (list_blocked_senders)")]) -> dict:
    """Unblock an address: its future mail reaches the inbox again."""
    S.unblock(_s(), email=email)
    return {"ok": True}


# ---------------------------------------------------------------------------------------------- labels
@TOOLS.tool
def create_label(name: Annotated[str, Field(max_length=200, description="the label's name (no '/')")],
                 parent_id: Annotated[Optional[int], Field(description="nest under this label_id")] = None,
                 thread_ids: Annotated[list[int], Field(max_length=100, description="conversations to put the new label on (the Labels / Move to menu's 'Create new')")] = [],
                 move: Annotated[bool, Field(description="with thread_ids: move them into the label (out of the inbox) instead of only labelling them")] = False) -> dict:
    """Create a label, optionally nested under another, optionally applied to (or moving) conversations at once.
    Returns its label_id and path."""
    session = _s()
    lab = L.create(session, name, parent_id)
    if thread_ids:
        S.apply_action(session, "move" if move else "label", thread_ids, {"add": [lab.id], "target": f"label:{lab.id}"})
    elif move:
        raise ToolError("create_label: 'move' needs the conversations to move ('thread_ids')")
    return {"ok": True, "label_id": lab.id, "path": L.path_of(session, lab.id)}


@TOOLS.tool
def rename_label(label_id: LabelId, name: Annotated[str, Field(max_length=200, description="the new name")]) -> dict:
    """Rename a label (its conversations keep it)."""
    session = _s()
    L.update(session, label_id, {"name": name})
    return {"ok": True, "path": L.path_of(session, label_id)}


@TOOLS.tool
def nest_label(label_id: LabelId,
               parent_id: Annotated[Optional[int], Field(description="the new parent label_id; null: top level")]) -> dict:
    """Move a label under another label (or to the top level)."""
    session = _s()
    L.update(session, label_id, {"parent_id": parent_id})
    return {"ok": True, "path": L.path_of(session, label_id)}


@TOOLS.tool
def set_label_color(label_id: LabelId, color: Annotated[Color, Field(description="a palette colour, or none")]) -> dict:
    """Set a label's colour."""
    L.update(_s(), label_id, {"color": color})
    return {"ok": True}


@TOOLS.tool
def set_label_visibility(label_id: LabelId,
                         show_in_label_list: Annotated[Optional[bool], Field(description="show it in the left rail's label list")] = None,
                         show_in_message_list: Annotated[Optional[bool], Field(description="show its chip on message rows")] = None) -> dict:
    """Show or hide a label in the label list (left rail) and on message rows."""
    changes = {k: v for k, v in (("show_in_list", show_in_label_list), ("show_in_message_list", show_in_message_list))
               if v is not None}
    if not changes:
        raise ToolError("set_label_visibility: give show_in_label_list and/or show_in_message_list")
    L.update(_s(), label_id, changes)
    return {"ok": True}


@TOOLS.tool
def delete_label(label_id: LabelId) -> dict:
    """Remove a label: its conversations lose it but are not deleted; sublabels move up a level."""
    return {"ok": True, "removed": L.remove(_s(), label_id)}


# --------------------------------------------------------------------------------------------- filters
def _crit(what: str):
    return Annotated[str, Field(max_length=200, description=what)]


def _flag(what: str):
    return Annotated[bool, Field(description=what)]


FromC, ToC, SubjC = _crit("criterion: the sender contains"), _crit("criterion: a recipient contains"), _crit("criterion: the subject contains")
HasC, NotC = _crit("criterion: has these words"), _crit("criterion: doesn't have these words")
HasAtt = _flag("criterion: has an attachment")
Skip, Read, StarIt = _flag("action: skip the inbox (archive it)"), _flag("action: mark as read"), _flag("action: star it")
Fwd, DelIt, NoSpam = _crit("action: forward to this address"), _flag("action: delete it"), _flag("action: never send it to Spam")
ApplyLabel = Annotated[Optional[int], Field(description="action: apply this label_id")]
Imp = Annotated[Optional[bool], Field(description="action: true always / false never mark important; null leaves it")]
Cat = Annotated[Optional[Category], Field(description="action: categorize as this tab")]
Existing = Annotated[bool, Field(description="also apply it to the conversations that match now")]


def _filter_body(from_contains, to_contains, subject_contains, has_words, doesnt_have, has_attachment, skip_inbox,
                 mark_as_read, star_it, apply_label_id, forward_to, delete_it, never_spam, mark_important,
                 category) -> dict:
    return {"from_contains": from_contains, "to_contains": to_contains, "subject_contains": subject_contains,
            "has_words": has_words, "doesnt_have": doesnt_have, "has_attachment": has_attachment,
            "skip_inbox": skip_inbox, "mark_read": mark_as_read, "star": star_it, "apply_label_id": apply_label_id,
            "forward_to": forward_to, "delete": delete_it, "never_spam": never_spam,
            "mark_important": mark_important, "category": category or ""}


@TOOLS.tool
def create_filter(from_contains: FromC = "", to_contains: ToC = "", subject_contains: SubjC = "",
                  has_words: HasC = "", doesnt_have: NotC = "", has_attachment: HasAtt = False,
                  skip_inbox: Skip = False, mark_as_read: Read = False, star_it: StarIt = False,
                  apply_label_id: ApplyLabel = None, forward_to: Fwd = "", delete_it: DelIt = False,
                  never_spam: NoSpam = False, mark_important: Imp = None, category: Cat = None,
                  apply_to_existing: Existing = False) -> dict:
    """Create a filter: criteria (at least one) and actions (at least one) for incoming mail."""
    f, n = F.create(_s(), _filter_body(from_contains, to_contains, subject_contains, has_words, doesnt_have,
                                       has_attachment, skip_inbox, mark_as_read, star_it, apply_label_id, forward_to,
                                       delete_it, never_spam, mark_important, category), apply_to_existing)
    return {"ok": True, "filter_id": f.id, "query": F.filter_query(f), "applied_to_conversations": n}


@TOOLS.tool
def update_filter(filter_id: Annotated[int, Field(description="a filter_id (list_filters)")],
                  from_contains: FromC = "", to_contains: ToC = "", subject_contains: SubjC = "",
                  has_words: HasC = "", doesnt_have: NotC = "", has_attachment: HasAtt = False,
                  skip_inbox: Skip = False, mark_as_read: Read = False, star_it: StarIt = False,
                  apply_label_id: ApplyLabel = None, forward_to: Fwd = "", delete_it: DelIt = False,
                  never_spam: NoSpam = False, mark_important: Imp = None, category: Cat = None,
                  apply_to_existing: Existing = False) -> dict:
    """Replace a filter's criteria and actions (as saving its edit form does: unset ones are cleared)."""
    f, n = F.update(_s(), filter_id, _filter_body(from_contains, to_contains, subject_contains, has_words, doesnt_have,
                                                  has_attachment, skip_inbox, mark_as_read, star_it, apply_label_id,
                                                  forward_to, delete_it, never_spam, mark_important, category),
                    apply_to_existing)
    return {"ok": True, "filter_id": f.id, "query": F.filter_query(f), "applied_to_conversations": n}


@TOOLS.tool
def delete_filter(filter_id: Annotated[int, Field(description="a filter_id (list_filters)")]) -> dict:
    """Delete a filter (mail it already acted on stays as it is)."""
    F.remove(_s(), filter_id)
    return {"ok": True}


# -------------------------------------------------------------------------------------------- settings
@TOOLS.tool
def update_settings(page_size: Annotated[Optional[Literal[10, 15, 20, 25, 50, 100]], Field(description="conversations per page")] = None,
                    show_snippets: Annotated[Optional[bool], Field(description="show a snippet of the text on rows")] = None,
                    signature: Annotated[Optional[str], Field(max_length=4000, description="the signature text ('' for none)")] = None,
                    signature_on_replies: Annotated[Optional[bool], Field(description="use the signature on replies and forwards")] = None,
                    display_density: Annotated[Optional[Literal["default", "comfortable", "compact"]], Field(description="row density")] = None,
                    tab_promotions: Annotated[Optional[bool], Field(description="show the Promotions inbox tab")] = None,
                    tab_social: Annotated[Optional[bool], Field(description="show the Social inbox tab")] = None,
                    tab_updates: Annotated[Optional[bool], Field(description="show the Updates inbox tab")] = None,
                    undo_send_seconds: Annotated[Optional[Literal[5, 10, 20, 30]], Field(description="Undo Send: the send cancellation period, seconds")] = None,
                    keyboard_shortcuts: Annotated[Optional[bool], Field(description="keyboard shortcuts on (true) or off")] = None,
                    default_reply: Annotated[Optional[Literal["reply", "reply_all"]], Field(description="Default reply behavior: what a message's reply arrow does")] = None) -> dict:
    """Change settings (General, Inbox tabs, density, Undo Send period, keyboard shortcuts); only the ones given
    change."""
    vals = {k: v for k, v in locals().items() if v is not None}
    if not vals:
        raise ToolError("update_settings: give at least one setting to change")
    A.update_settings(_s(), vals)
    return {"ok": True, "changed": sorted(vals)}


@TOOLS.tool
def set_vacation_responder(enabled: Annotated[bool, Field(description="true: on; false: off")],
                           first_day: Annotated[Optional[str], Field(max_length=40, description="YYYY-MM-DD (default today)")] = None,
                           last_day: Annotated[Optional[str], Field(max_length=40, description="YYYY-MM-DD, or none for no end")] = None,
                           subject: Annotated[Optional[str], Field(max_length=300, description="the auto-reply's subject")] = None,
                           message: Annotated[Optional[str], Field(max_length=4000, description="the auto-reply's text")] = None,
                           contacts_only: Annotated[Optional[bool], Field(description="only reply to people in my Contacts")] = None) -> dict:
    """Turn the vacation responder on (with its days, subject and message) or off. Fields not given keep their
    saved values."""
    vals: dict = {"vacation_enabled": enabled}
    for key, v in (("vacation_start", first_day), ("vacation_end", last_day), ("vacation_subject", subject),
                   ("vacation_body", message), ("vacation_contacts_only", contacts_only)):
        if v is not None:
            vals[key] = v
    acct = A.update_settings(_s(), vals)
    return {"ok": True, "enabled": acct.vacation_enabled,
            "first_day": acct.vacation_start.isoformat() if acct.vacation_start else None,
            "last_day": acct.vacation_end.isoformat() if acct.vacation_end else None}


# -------------------------------------------------------------------------------------------- contacts
def _cfield(what: str):
    return Annotated[Optional[str], Field(max_length=2000, description=what)]


First, Last, Email, Company = _cfield("first name"), _cfield("last name"), _cfield("e-mail address"), _cfield("company")
Phone, Address, Notes = _cfield("phone number"), _cfield("postal address"), _cfield("notes")


@TOOLS.tool
def create_contact(first_name: First = None, last_name: Last = None, email: Email = None, company: Company = None,
                   title: Annotated[Optional[str], Field(max_length=200, description="job title")] = None,
                   phone: Phone = None, address: Address = None,
                   birthday: Annotated[Optional[str], Field(max_length=40, description="YYYY-MM-DD")] = None,
                   notes: Notes = None) -> dict:
    """Create a contact (a name or an email is required). Returns its contact_id."""
    c = A.create_contact(_s(), {k: v for k, v in locals().items() if v is not None})
    return {"ok": True, "contact_id": c.id}


@TOOLS.tool
def update_contact(contact_id: Annotated[int, Field(description="a contact_id (find_contacts)")],
                   first_name: First = None, last_name: Last = None, email: Email = None, company: Company = None,
                   title: Annotated[Optional[str], Field(max_length=200, description="job title")] = None,
                   phone: Phone = None, address: Address = None,
                   birthday: Annotated[Optional[str], Field(max_length=40, description="YYYY-MM-DD, '' to clear")] = None,
                   notes: Notes = None) -> dict:
    """Edit a contact: the fields given change ('' clears one), the others keep their values. Giving first_name
    or last_name replaces the whole name."""
    session = _s()
    c = A.contact(session, contact_id)
    body = {"first_name": c.name, "last_name": "", "email": c.email, "company": c.company, "title": c.title,
            "phone": c.phone, "address": c.address, "notes": c.notes,
            "birthday": c.birthday.isoformat() if c.birthday else ""}
    if first_name is not None or last_name is not None:
        body["first_name"], body["last_name"] = first_name or "", last_name or ""
    for k, v in (("email", email), ("company", company), ("title", title), ("phone", phone), ("address", address),
                 ("notes", notes), ("birthday", birthday)):
        if v is not None:
            body[k] = v
    A.update_contact(session, contact_id, body)
    return {"ok": True, "contact_id": contact_id}


@TOOLS.tool
def favorite_contact(contact_id: Annotated[int, Field(description="a contact_id (find_contacts)")],
                     favorite: Annotated[bool, Field(description="true: add to Favorites; false: remove")] = True) -> dict:
    """Add a contact to Favorites (or remove it)."""
    A.star_contact(_s(), contact_id, favorite)
    return {"ok": True}


@TOOLS.tool
def delete_contact(contact_id: Annotated[int, Field(description="a contact_id (find_contacts)")]) -> dict:
    """Delete a contact (their mail stays)."""
    A.delete_contact(_s(), contact_id)
    return {"ok": True}
