"""Mail's tools (apps/mail/tools.py), in-process: each tool's happy path asserted on the database; for every
tool, bad input (mistyped, missing, unknown extra, oversized, unknown ids) is a ToolError that leaves the
world's whole state unchanged; a failure half-way through a multi-row write leaves nothing done; every schema
is valid JSON schema with descriptions; the README names every tool."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from sqlalchemy import select

from apps._shared.tools import MAX_STRING, ToolError
from apps.mail.models import (Account, Attachment, BlockedSender, Contact, File, Filter, Invite, Label, Message,
                              MessageLabel, Thread)
from apps.mail.tools import TOOLS
from tests.apps.mail.conftest import NOW, inbox_thread_with

BAD_ID = 987_654


def call(app, tool, /, **args):
    return TOOLS.call(app, app.config["TEST_WORLD"], tool, args)


def state(app):
    return app.extensions["uigym_worlds"].state(app.config["TEST_WORLD"])


def msgs(dbs, tid):
    dbs.expire_all()
    return list(dbs.scalars(select(Message).where(Message.thread_id == tid).order_by(Message.sent_at, Message.id)))


def first(dbs, model, *where):
    dbs.expire_all()
    return dbs.scalars(select(model).where(*where).order_by(model.id)).first()


def folder_thread(dbs, **flags) -> int:
    q = select(Message.thread_id).where(Message.is_draft.is_(False), Message.scheduled_at.is_(None))
    for k, v in flags.items():
        q = q.where(getattr(Message, k).is_(v))
    return dbs.scalars(q.order_by(Message.sent_at.desc())).first()


def labels_of(dbs, tid) -> set[int]:
    dbs.expire_all()
    return set(dbs.scalars(select(MessageLabel.label_id).join(Message, Message.id == MessageLabel.message_id)
                           .where(Message.thread_id == tid)))


def a_draft(dbs) -> Message:
    return first(dbs, Message, Message.is_draft.is_(True), Message.subject != "")


def a_scheduled(dbs) -> Message:
    return first(dbs, Message, Message.scheduled_at.is_not(None), Message.is_draft.is_(False))


# --------------------------------------------------------------------------------- happy paths
# name -> a function (app, dbs) that calls the tool and asserts on the database (or on what it read).
HAPPY = {}


def happy(fn):
    HAPPY[fn.__name__] = fn
    return fn


@happy
def search_mail(app, dbs):
    r = call(app, "search_mail", query="invoice has:attachment", limit=5)
    assert r["total"] > 5 and len(r["conversations"]) == 5
    assert all(c["attachments"] for c in r["conversations"])
    page2 = call(app, "search_mail", query="invoice has:attachment", limit=5, offset=5)
    assert not {c["thread_id"] for c in r["conversations"]} & {c["thread_id"] for c in page2["conversations"]}


@happy
def list_mail(app, dbs):
    r = call(app, "list_mail", folder="drafts")
    assert r["total"] == 5 and all(c["draft_id"] for c in r["conversations"])
    promos = call(app, "list_mail", folder="inbox", category="promotions", limit=50)
    cats = {dbs.get(Thread, c["thread_id"]).category for c in promos["conversations"]}
    assert cats == {"promotions"}


@happy
def list_label_mail(app, dbs):
    lab = first(dbs, Label, Label.name == "Invoices")
    r = call(app, "list_label_mail", label_id=lab.id, limit=50)
    assert r["total"] > 0 and all("Finance/Invoices" in c["labels"] for c in r["conversations"])


@happy
def read_conversation(app, dbs):
    tid = inbox_thread_with(dbs, is_read=False)
    r = call(app, "read_conversation", thread_id=tid)
    assert r["thread_id"] == tid and r["messages"] and all(m["message_id"] for m in r["messages"])
    assert all(m.is_read for m in msgs(dbs, tid) if not m.is_trashed)  # opening marks read, as in the app


@happy
def get_draft(app, dbs):
    d = a_draft(dbs)
    assert call(app, "get_draft", draft_id=d.id)["subject"] == d.subject


@happy
def list_labels(app, dbs):
    paths = {lab["path"] for lab in call(app, "list_labels")}
    assert {"Finance/Invoices", "Work/Clients"} <= paths


@happy
def list_filters(app, dbs):
    assert [f["filter_id"] for f in call(app, "list_filters")] == [f.id for f in dbs.scalars(select(Filter))]


@happy
def list_blocked_senders(app, dbs):
    assert [b["email"] for b in call(app, "list_blocked_senders")] == ["winner@prize-claims-now.biz"]


@happy
def get_settings(app, dbs):
    r = call(app, "get_settings")
    assert r["email"] == dbs.get(Account, 1).email and r["now"] == NOW.isoformat() and r["snooze_presets"]


@happy
def find_contacts(app, dbs):
    r = call(app, "find_contacts", query="finance")
    assert r["total"] >= 1 and any("Finance" in c["title"] for c in r["contacts"])
    assert call(app, "find_contacts", view="favorites")["total"] == len(
        list(dbs.scalars(select(Contact).where(Contact.is_starred.is_(True), Contact.is_saved.is_(True)))))


@happy
def get_contact(app, dbs):
    c = first(dbs, Contact, Contact.phone != "")
    assert call(app, "get_contact", contact_id=c.id)["phone"] == c.phone


@happy
def send_email(app, dbs):
    r = call(app, "send_email", to=["Ana@Example.com"], cc=["bo@example.com"], subject="Hi", body="Hello")
    m = dbs.get(Message, r["message_id"])
    assert (m.is_sent, m.is_draft, m.to, m.cc, m.subject, m.body, m.sent_at) == \
        (True, False, ["ana@example.com"], ["bo@example.com"], "Hi", "Hello", NOW)


@happy
def reply(app, dbs):
    tid = inbox_thread_with(dbs)
    last = [m for m in msgs(dbs, tid) if not m.is_sent][-1]
    r = call(app, "reply", thread_id=tid, body="Thanks!")
    m = dbs.get(Message, r["message_id"])
    assert m.thread_id == tid and m.to == [last.from_email.lower()] and m.in_reply_to_id == last.id
    assert m.subject.startswith("Re:") and m.is_sent


@happy
def forward(app, dbs):
    tid = inbox_thread_with(dbs)
    r = call(app, "forward", thread_id=tid, to=["x@example.com"], body="FYI")
    m = dbs.get(Message, r["message_id"])
    assert m.subject.startswith("Fwd:") and m.body.startswith("FYI\n\n---------- Forwarded message")


def attached(dbs, mid) -> list[str]:
    dbs.expire_all()
    return [a.filename for a in dbs.scalars(select(Attachment).where(Attachment.message_id == mid).order_by(Attachment.id))]


def a_file(dbs, name: str) -> File:
    return first(dbs, File, File.name == name)


def cc_thread(dbs) -> tuple[int, Message]:
    """A conversation whose latest message from someone else has people on To and Cc besides me."""
    for m in dbs.scalars(select(Message).where(Message.is_sent.is_(False), Message.cc != "[]", Message.in_inbox.is_(True),
                                               Message.is_draft.is_(False)).order_by(Message.sent_at.desc())):
        later = [x for x in msgs(dbs, m.thread_id) if not x.is_sent and not x.is_draft]
        if later and later[-1].id == m.id:
            return m.thread_id, m
    raise AssertionError("the seed has no conversation with Cc")


@happy
def list_files(app, dbs):
    r = call(app, "list_files")
    assert r["total"] == len(r["files"]) >= 10
    assert [f["modified_at"] for f in r["files"]] == sorted((f["modified_at"] for f in r["files"]), reverse=True)
    hit = call(app, "list_files", query="budget")
    assert [f["name"] for f in hit["files"]] == ["Q2 Budget Forecast.xlsx"]


@happy
def remove_attachment(app, dbs):
    f = a_file(dbs, "Signed NDA.pdf")
    r = call(app, "save_draft", to=["a@example.com"], subject="NDA", body="Attached", file_ids=[f.id])
    (att,) = r["attachments"]
    assert att["filename"] == "Signed NDA.pdf"
    call(app, "remove_attachment", draft_id=r["draft_id"], attachment_id=att["attachment_id"])
    assert attached(dbs, r["draft_id"]) == []
    # A sent message keeps its files: its attachments cannot be removed.
    sent = call(app, "send_email", to=["a@example.com"], subject="s", body="b", file_ids=[f.id])
    att_id = first(dbs, Attachment, Attachment.message_id == sent["message_id"]).id
    assert "does not exist" in refused(app, "remove_attachment", {"draft_id": sent["message_id"], "attachment_id": att_id})


@happy
def undo_send(app, dbs):
    f = a_file(dbs, "Project Timeline.pdf")
    r = call(app, "send_email", to=["ana@example.com"], subject="Timeline", body="Here", file_ids=[f.id])
    assert call(app, "undo_send", message_id=r["message_id"]) == {"ok": True, "draft_id": r["message_id"]}
    dbs.expire_all()
    m = dbs.get(Message, r["message_id"])
    assert (m.is_draft, m.is_sent, m.subject) == (True, False, "Timeline")
    assert attached(dbs, m.id) == ["Project Timeline.pdf"]  # the draft keeps its files
    # The undo leaves its trace for the grader, and keeps it when the draft is sent again; a plain send has none.
    assert m.undone_at is not None
    call(app, "send_draft", draft_id=m.id, to=["bo@example.com"])
    dbs.expire_all()
    assert (dbs.get(Message, m.id).is_sent, dbs.get(Message, m.id).undone_at) == (True, m.undone_at)
    plain = call(app, "send_email", to=["bo@example.com"], subject="Plain", body="b")
    assert dbs.get(Message, plain["message_id"]).undone_at is None
    # A reply is taken back whole; what it held comes back for the form.
    tid = inbox_thread_with(dbs)
    n = len(msgs(dbs, tid))
    rep = call(app, "reply", thread_id=tid, body="Oops", file_ids=[f.id])
    back = call(app, "undo_send", message_id=rep["message_id"])["reply"]
    assert (back["body"], back["file_ids"], back["thread_id"]) == ("Oops", [f.id], tid)
    assert len(msgs(dbs, tid)) == n
    # Only the latest message sent now: an older send, or mail sent before today, is already sent.
    one = call(app, "send_email", to=["a@example.com"], subject="1", body="b")
    call(app, "send_email", to=["a@example.com"], subject="2", body="b")
    assert "already been sent" in refused(app, "undo_send", {"message_id": one["message_id"]})
    old = first(dbs, Message, Message.is_sent.is_(True), Message.sent_at < NOW)
    assert "already been sent" in refused(app, "undo_send", {"message_id": old.id})


def test_send_with_attachments_and_limits(app, dbs):
    a, b = a_file(dbs, "Q2 Budget Forecast.xlsx"), a_file(dbs, "Team Photo.jpg")
    r = call(app, "send_email", to=["ana@example.com"], subject="Files", body="Two files", file_ids=[a.id, b.id, a.id])
    assert r["attachments"] == ["Q2 Budget Forecast.xlsx", "Team Photo.jpg"]
    assert attached(dbs, r["message_id"]) == r["attachments"]
    att = first(dbs, Attachment, Attachment.message_id == r["message_id"])
    assert (att.mime, att.size) == (a.mime, a.size)
    # Sent mail with files is found by has:attachment, as Gmail's search does.
    found = call(app, "search_mail", query="in:sent has:attachment subject:Files")
    assert r["thread_id"] in [c["thread_id"] for c in found["conversations"]]
    # Gmail's 25 MB limit, refused with nothing written.
    big = File(name="Huge.pptx", mime="application/pdf", size=26 * 1024 * 1024, modified_at=NOW, uploaded=True)
    dbs.add(big)
    dbs.commit()
    before = state(app)
    assert "25 MB" in refused(app, "send_email", {"to": ["a@example.com"], "subject": "s", "body": "b", "file_ids": [big.id]})
    assert "does not exist" in refused(app, "forward", {"thread_id": inbox_thread_with(dbs), "to": ["a@example.com"],
                                                        "file_ids": [BAD_ID]})
    assert state(app) == before


def test_reply_all_keeps_cc_on_cc(app, dbs):
    tid, src = cc_thread(dbs)
    mine = dbs.get(Account, 1).email.lower()
    f = a_file(dbs, "Offsite Agenda.pdf")
    r = call(app, "reply", thread_id=tid, body="Agenda attached", reply_all=True, file_ids=[f.id])
    m = dbs.get(Message, r["message_id"])
    want_to = [e for e in dict.fromkeys([src.from_email.lower(), *src.to]) if e != mine]
    want_cc = [e for e in dict.fromkeys(src.cc) if e != mine and e not in want_to]
    assert (m.to, m.cc) == (want_to, want_cc) and want_cc
    assert attached(dbs, m.id) == ["Offsite Agenda.pdf"]
    plain = call(app, "reply", thread_id=tid, body="Just you")
    assert (plain["to"], plain["cc"]) == ([src.from_email.lower()], [])


def test_reply_bcc_as_the_reply_box_bcc_field(app, dbs):
    """The reply box's Bcc (issue 46) reaches the tool too: the Bcc is kept on the message, not on To / Cc."""
    tid, src = cc_thread(dbs)
    r = call(app, "reply", thread_id=tid, body="Quietly copied", bcc=["boss@example.com"])
    m = dbs.get(Message, r["message_id"])
    assert m.bcc == ["boss@example.com"] and "boss@example.com" not in m.to + m.cc and r["bcc"] == ["boss@example.com"]


@happy
def save_draft(app, dbs):
    r = call(app, "save_draft", to=["a@example.com"], subject="Later", body="Not yet")
    d = dbs.get(Message, r["draft_id"])
    assert d.is_draft and not d.is_sent and d.subject == "Later"
    call(app, "save_draft", draft_id=d.id, to=["a@example.com"], subject="Later", body="Edited")
    dbs.expire_all()
    assert dbs.get(Message, d.id).body == "Edited"


@happy
def send_draft(app, dbs):
    d = first(dbs, Message, Message.is_draft.is_(True), Message.to != "[]")
    body = d.body
    call(app, "send_draft", draft_id=d.id, cc=["cc@example.com"])
    dbs.expire_all()
    m = dbs.get(Message, d.id)
    assert m.is_sent and not m.is_draft and m.cc == ["cc@example.com"] and m.body == body


@happy
def discard_draft(app, dbs):
    d = a_draft(dbs)
    call(app, "discard_draft", draft_id=d.id)
    dbs.expunge_all()
    assert dbs.get(Message, d.id) is None


@happy
def schedule_send(app, dbs):
    r = call(app, "schedule_send", to=["a@example.com"], subject="Soon", body="x", preset="tomorrow_morning")
    m = dbs.get(Message, r["message_id"])
    assert m.scheduled_at == dt.datetime(2026, 3, 13, 8, 0) and not m.is_sent and not m.is_draft
    r = call(app, "schedule_send", to=["a@example.com"], subject="Later", body="y", at="2026-04-01T09:30")
    assert dbs.get(Message, r["message_id"]).scheduled_at == dt.datetime(2026, 4, 1, 9, 30)


@happy
def cancel_scheduled_send(app, dbs):
    m = a_scheduled(dbs)
    call(app, "cancel_scheduled_send", message_id=m.id)
    dbs.expire_all()
    m = dbs.get(Message, m.id)
    assert m.is_draft and m.scheduled_at is None


def _flags(app, dbs, tool, tid, check, **extra):
    call(app, tool, thread_ids=[tid], **extra)
    ms = msgs(dbs, tid)
    assert check(ms), [(m.id, m.in_inbox, m.is_trashed, m.is_spam) for m in ms]


@happy
def archive(app, dbs):
    _flags(app, dbs, "archive", inbox_thread_with(dbs), lambda ms: not any(m.in_inbox for m in ms))


@happy
def delete_conversations(app, dbs):
    _flags(app, dbs, "delete_conversations", inbox_thread_with(dbs),
           lambda ms: all(m.is_trashed and m.trashed_at == NOW for m in ms))


@happy
def move_to_inbox(app, dbs):
    _flags(app, dbs, "move_to_inbox", folder_thread(dbs, is_trashed=True),
           lambda ms: not any(m.is_trashed for m in ms) and any(m.in_inbox for m in ms))


@happy
def report_spam(app, dbs):
    _flags(app, dbs, "report_spam", inbox_thread_with(dbs), lambda ms: all(m.is_spam and not m.in_inbox for m in ms))


@happy
def not_spam(app, dbs):
    tid = folder_thread(dbs, is_spam=True, is_trashed=False)
    _flags(app, dbs, "not_spam", tid, lambda ms: not any(m.is_spam for m in ms) and any(m.in_inbox for m in ms))


@happy
def delete_forever(app, dbs):
    tid = folder_thread(dbs, is_trashed=True)
    call(app, "delete_forever", thread_ids=[tid])
    assert msgs(dbs, tid) == [] and dbs.get(Thread, tid) is None


@happy
def mark_read(app, dbs):
    tid = inbox_thread_with(dbs, is_read=False)
    _flags(app, dbs, "mark_read", tid, lambda ms: all(m.is_read for m in ms))
    _flags(app, dbs, "mark_read", tid, lambda ms: not any(m.is_read for m in ms), read=False)


@happy
def star(app, dbs):
    tid = inbox_thread_with(dbs, is_starred=False)
    _flags(app, dbs, "star", tid, lambda ms: ms[-1].is_starred)
    _flags(app, dbs, "star", tid, lambda ms: not any(m.is_starred for m in ms), starred=False)


@happy
def mark_important(app, dbs):
    _flags(app, dbs, "mark_important", inbox_thread_with(dbs, is_important=False), lambda ms: all(m.is_important for m in ms))


@happy
def snooze(app, dbs):
    tid = inbox_thread_with(dbs)
    _flags(app, dbs, "snooze", tid, lambda ms: all(m.snoozed_until == dt.datetime(2026, 3, 13, 8) for m in ms),
           preset="tomorrow")
    _flags(app, dbs, "snooze", tid, lambda ms: all(m.snoozed_until == dt.datetime(2026, 3, 20, 14) for m in ms),
           until="2026-03-20T14:00")


@happy
def unsnooze(app, dbs):
    tid = first(dbs, Message, Message.snoozed_until > NOW).thread_id
    _flags(app, dbs, "unsnooze", tid, lambda ms: all(m.snoozed_until is None for m in ms))


@happy
def mute(app, dbs):
    tid = inbox_thread_with(dbs)
    call(app, "mute", thread_ids=[tid])
    dbs.expire_all()
    assert dbs.get(Thread, tid).is_muted and not any(m.in_inbox for m in msgs(dbs, tid))


@happy
def change_labels(app, dbs):
    tid = inbox_thread_with(dbs)
    lab = first(dbs, Label, Label.name == "Travel")
    call(app, "change_labels", thread_ids=[tid], add=[lab.id])
    assert lab.id in labels_of(dbs, tid) and any(m.in_inbox for m in msgs(dbs, tid))
    call(app, "change_labels", thread_ids=[tid], remove=[lab.id])
    assert lab.id not in labels_of(dbs, tid)


@happy
def move_to_label(app, dbs):
    tid = inbox_thread_with(dbs)
    lab = first(dbs, Label, Label.name == "Travel")
    call(app, "move_to_label", thread_ids=[tid], label_id=lab.id)
    assert lab.id in labels_of(dbs, tid) and not any(m.in_inbox for m in msgs(dbs, tid))


@happy
def move_to_category(app, dbs):
    tid = inbox_thread_with(dbs)
    call(app, "move_to_category", thread_ids=[tid], category="social")
    dbs.expire_all()
    assert dbs.get(Thread, tid).category == "social"


@happy
def empty_folder(app, dbs):
    assert call(app, "empty_folder", folder="trash")["deleted_conversations"] == 14
    assert first(dbs, Message, Message.is_trashed.is_(True)) is None


@happy
def star_message(app, dbs):
    m = first(dbs, Message, Message.is_starred.is_(False), Message.is_draft.is_(False))
    call(app, "star_message", message_id=m.id)
    dbs.expire_all()
    assert dbs.get(Message, m.id).is_starred


@happy
def delete_message(app, dbs):
    m = first(dbs, Message, Message.in_inbox.is_(True), Message.is_trashed.is_(False))
    call(app, "delete_message", message_id=m.id)
    dbs.expire_all()
    assert dbs.get(Message, m.id).is_trashed


@happy
def mark_unread_from(app, dbs):
    tid = next(t for t in dbs.scalars(select(Thread.id)) if len(msgs(dbs, t)) >= 3 and all(m.is_read for m in msgs(dbs, t)))
    ms = msgs(dbs, tid)
    call(app, "mark_unread_from", message_id=ms[1].id)
    ms = msgs(dbs, tid)
    assert ms[0].is_read and not any(m.is_read for m in ms[1:])


@happy
def rsvp(app, dbs):
    inv = first(dbs, Invite, Invite.rsvp.is_(None))
    call(app, "rsvp", invite_id=inv.id, response="maybe")
    dbs.expire_all()
    assert dbs.get(Invite, inv.id).rsvp == "maybe"


@happy
def block_sender(app, dbs):
    sender = first(dbs, Message, Message.is_sent.is_(False), Message.from_email != "winner@prize-claims-now.biz").from_email
    call(app, "block_sender", email=sender.upper())
    assert first(dbs, BlockedSender, BlockedSender.email == sender.lower()).blocked_at == NOW
    assert "no message from" in refused(app, "block_sender", {"email": "nobody@example.com"})


@happy
def unblock_sender(app, dbs):
    call(app, "unblock_sender", email="winner@prize-claims-now.biz")
    assert first(dbs, BlockedSender) is None


@happy
def create_label(app, dbs):
    parent = first(dbs, Label, Label.name == "Work")
    tid = inbox_thread_with(dbs)
    r = call(app, "create_label", name="Launch", parent_id=parent.id, thread_ids=[tid], move=True)
    assert r["path"] == "Work/Launch" and dbs.get(Label, r["label_id"]).parent_id == parent.id
    assert r["label_id"] in labels_of(dbs, tid) and not any(m.in_inbox for m in msgs(dbs, tid))


@happy
def rename_label(app, dbs):
    lab = first(dbs, Label, Label.name == "Travel")
    call(app, "rename_label", label_id=lab.id, name="Trips")
    dbs.expire_all()
    assert dbs.get(Label, lab.id).name == "Trips"


@happy
def nest_label(app, dbs):
    lab, parent = first(dbs, Label, Label.name == "Travel"), first(dbs, Label, Label.name == "Personal")
    assert call(app, "nest_label", label_id=lab.id, parent_id=parent.id)["path"] == "Personal/Travel"
    assert call(app, "nest_label", label_id=lab.id, parent_id=None)["path"] == "Travel"


@happy
def set_label_color(app, dbs):
    lab = first(dbs, Label, Label.name == "Travel")
    call(app, "set_label_color", label_id=lab.id, color="blue")
    dbs.expire_all()
    assert (dbs.get(Label, lab.id).color, dbs.get(Label, lab.id).text_color) == ("#4a86e8", "#ffffff")


@happy
def set_label_visibility(app, dbs):
    lab = first(dbs, Label, Label.name == "Travel")
    call(app, "set_label_visibility", label_id=lab.id, show_in_label_list=False)
    dbs.expire_all()
    assert not dbs.get(Label, lab.id).show_in_list and dbs.get(Label, lab.id).show_in_message_list


@happy
def delete_label(app, dbs):
    lab = first(dbs, Label, Label.name == "Travel")
    call(app, "delete_label", label_id=lab.id)
    dbs.expunge_all()
    assert dbs.get(Label, lab.id) is None and first(dbs, MessageLabel, MessageLabel.label_id == lab.id) is None


@happy
def create_filter(app, dbs):
    lab = first(dbs, Label, Label.name == "Travel")
    r = call(app, "create_filter", from_contains="deals@example.com", skip_inbox=True, apply_label_id=lab.id)
    f = dbs.get(Filter, r["filter_id"])
    assert (f.from_contains, f.skip_inbox, f.apply_label_id, f.delete) == ("deals@example.com", True, lab.id, False)


@happy
def update_filter(app, dbs):
    f = first(dbs, Filter)
    call(app, "update_filter", filter_id=f.id, from_contains=f.from_contains, star_it=True)
    dbs.expire_all()
    f = dbs.get(Filter, f.id)
    assert f.star and f.apply_label_id is None and not f.skip_inbox


@happy
def delete_filter(app, dbs):
    f = first(dbs, Filter)
    call(app, "delete_filter", filter_id=f.id)
    dbs.expunge_all()
    assert dbs.get(Filter, f.id) is None


@happy
def update_settings(app, dbs):
    call(app, "update_settings", signature="Best,\nM", page_size=25, tab_social=False)
    dbs.expire_all()
    acct = dbs.get(Account, 1)
    assert (acct.signature, acct.page_size, acct.tab_social, acct.tab_updates) == ("Best,\nM", 25, False, True)


@happy
def set_vacation_responder(app, dbs):
    call(app, "set_vacation_responder", enabled=True, first_day="2026-03-20", last_day="March 27, 2026",
         subject="Away", message="Back soon")
    dbs.expire_all()
    acct = dbs.get(Account, 1)
    assert (acct.vacation_enabled, acct.vacation_start, acct.vacation_end, acct.vacation_body) == \
        (True, dt.date(2026, 3, 20), dt.date(2026, 3, 27), "Back soon")


@happy
def create_contact(app, dbs):
    r = call(app, "create_contact", first_name="Priya", last_name="Raman", email="P@Example.com", company="Acme")
    c = dbs.get(Contact, r["contact_id"])
    assert (c.name, c.email, c.company, c.is_saved) == ("Priya Raman", "p@example.com", "Acme", True)


@happy
def update_contact(app, dbs):
    c = first(dbs, Contact, Contact.phone != "", Contact.is_saved.is_(True))
    name, email = c.name, c.email
    call(app, "update_contact", contact_id=c.id, phone="(555) 000-1111")
    dbs.expire_all()
    c = dbs.get(Contact, c.id)
    assert (c.phone, c.name, c.email) == ("(555) 000-1111", name, email)


@happy
def favorite_contact(app, dbs):
    c = first(dbs, Contact, Contact.is_starred.is_(False))
    call(app, "favorite_contact", contact_id=c.id)
    dbs.expire_all()
    assert dbs.get(Contact, c.id).is_starred


@happy
def delete_contact(app, dbs):
    c = first(dbs, Contact)
    call(app, "delete_contact", contact_id=c.id)
    dbs.expunge_all()
    assert dbs.get(Contact, c.id) is None


def test_every_tool_has_a_happy_path():
    assert set(HAPPY) == set(TOOLS.tools)


@pytest.mark.parametrize("name", sorted(HAPPY))
def test_happy_path(name, app, dbs):
    HAPPY[name](app, dbs)


# --------------------------------------------------------------------------------- bad input
ID_PARAMS = {"thread_id", "thread_ids", "message_id", "label_id", "draft_id", "invite_id", "contact_id", "filter_id",
             "parent_id", "apply_label_id", "file_ids", "attachment_id"}


def valid_args(name: str, dbs) -> dict:
    """Arguments that pass validation for each tool (their targets exist), to spoil one at a time."""
    tid = inbox_thread_with(dbs)
    lab = first(dbs, Label, Label.name == "Travel").id
    return {
        "search_mail": {"query": "invoice"}, "list_mail": {"folder": "inbox"}, "list_label_mail": {"label_id": lab},
        "read_conversation": {"thread_id": tid}, "get_draft": {"draft_id": a_draft(dbs).id},
        "list_labels": {}, "list_filters": {}, "list_blocked_senders": {}, "get_settings": {}, "find_contacts": {},
        "get_contact": {"contact_id": 1},
        "send_email": {"to": ["a@example.com"], "subject": "s", "body": "b"},
        "reply": {"thread_id": tid, "body": "b"}, "forward": {"thread_id": tid, "to": ["a@example.com"]},
        "save_draft": {"subject": "s"}, "send_draft": {"draft_id": a_draft(dbs).id},
        "discard_draft": {"draft_id": a_draft(dbs).id},
        "schedule_send": {"to": ["a@example.com"], "subject": "s", "body": "b", "preset": "tomorrow_morning"},
        "cancel_scheduled_send": {"message_id": a_scheduled(dbs).id},
        "create_label": {"name": "Fresh"}, "rename_label": {"label_id": lab, "name": "Trips"},
        "nest_label": {"label_id": lab, "parent_id": None}, "set_label_color": {"label_id": lab, "color": "red"},
        "set_label_visibility": {"label_id": lab, "show_in_label_list": False}, "delete_label": {"label_id": lab},
        "create_filter": {"from_contains": "x@example.com", "star_it": True},
        "update_filter": {"filter_id": 1, "from_contains": "x@example.com", "star_it": True},
        "delete_filter": {"filter_id": 1}, "update_settings": {"page_size": 25},
        "set_vacation_responder": {"enabled": False}, "create_contact": {"first_name": "Ann"},
        "update_contact": {"contact_id": 1, "phone": "1"}, "favorite_contact": {"contact_id": 1},
        "delete_contact": {"contact_id": 1},
        "block_sender": {"email": first(dbs, Message, Message.is_sent.is_(False)).from_email},
        "unblock_sender": {"email": "winner@prize-claims-now.biz"},
        "star_message": {"message_id": msgs(dbs, tid)[-1].id}, "delete_message": {"message_id": msgs(dbs, tid)[-1].id},
        "mark_unread_from": {"message_id": msgs(dbs, tid)[-1].id},
        "rsvp": {"invite_id": first(dbs, Invite).id, "response": "yes"}, "empty_folder": {"folder": "spam"},
        "move_to_label": {"thread_ids": [tid], "label_id": lab}, "move_to_category": {"thread_ids": [tid], "category": "social"},
        "change_labels": {"thread_ids": [tid], "add": [lab]}, "snooze": {"thread_ids": [tid], "preset": "tomorrow"},
        "delete_forever": {"thread_ids": [folder_thread(dbs, is_trashed=True)]},
        "list_files": {"query": "budget"},
        "undo_send": just_sent(dbs) if name == "undo_send" else {},
        "remove_attachment": draft_attachment(dbs) if name == "remove_attachment" else {},
    }.get(name) or {"thread_ids": [tid]}


def just_sent(dbs) -> dict:
    """A message I sent now (made before the test's snapshot of the world)."""
    acct = dbs.get(Account, 1)
    th = Thread(subject="Just now", category="primary", is_muted=False)
    dbs.add(th)
    dbs.flush()
    m = Message(thread_id=th.id, from_name=acct.name, from_email=acct.email, to=["a@example.com"], cc=[], bcc=[],
                subject="Just now", body="b", sent_at=NOW, is_read=True, is_starred=False, is_important=False,
                in_inbox=False, is_sent=True, is_draft=False, is_spam=False, is_trashed=False)
    dbs.add(m)
    dbs.commit()
    return {"message_id": m.id}


def draft_attachment(dbs) -> dict:
    """A draft with a file attached (made before the test's snapshot of the world)."""
    d = a_draft(dbs)
    a = Attachment(message_id=d.id, filename="Signed NDA.pdf", mime="application/pdf", size=1000)
    dbs.add(a)
    dbs.commit()
    return {"draft_id": d.id, "attachment_id": a.id}


def refused(app, name, args) -> str:
    with pytest.raises(ToolError) as e:
        call(app, name, **args)
    msg = str(e.value)
    assert msg and "Traceback" not in msg
    return msg


@pytest.mark.parametrize("name", sorted(TOOLS.tools))
def test_bad_input_is_refused_and_changes_nothing(name, app, dbs):
    tool = TOOLS.tools[name]
    props = tool.schema().get("properties", {})
    required = tool.schema().get("required", [])
    args = valid_args(name, dbs)
    before = state(app)
    assert "is not an argument" in refused(app, name, {**args, "bogus_argument": 1})
    for p in required:
        assert "is required" in refused(app, name, {k: v for k, v in args.items() if k != p})
    for p in props:
        refused(app, name, {**args, p: {"a": "dict where no tool takes one"}})
    huge = "x" * (MAX_STRING + 1)
    for p in props:
        assert "longer than" in refused(app, name, {**args, p: huge})
    for p in set(props) & ID_PARAMS:
        if p == "parent_id" and name == "nest_label":
            refused(app, name, {**args, p: BAD_ID})
        else:
            refused(app, name, {**args, p: [BAD_ID] if p in ("thread_ids", "file_ids") else BAD_ID})
    assert state(app) == before


def test_unknown_tool_is_refused(app):
    with pytest.raises(ToolError, match="unknown tool"):
        call(app, "drop_all_tables")


# ------------------------------------------------------------------------ all or nothing
def test_a_failure_half_way_through_a_multi_row_write_leaves_nothing_done(app, dbs):
    tid = inbox_thread_with(dbs)
    lab = first(dbs, Label, Label.name == "Travel").id
    before = state(app)
    # The first conversation is archived / labelled / moved before the unknown one is reached.
    refused(app, "archive", {"thread_ids": [tid, BAD_ID]})
    refused(app, "change_labels", {"thread_ids": [tid], "add": [lab, BAD_ID]})
    refused(app, "create_label", {"name": "Half", "thread_ids": [tid, BAD_ID], "move": True})
    refused(app, "snooze", {"thread_ids": [tid], "until": "2020-01-01T08:00"})  # in the past
    refused(app, "delete_forever", {"thread_ids": [folder_thread(dbs, is_trashed=True), tid]})  # tid is not in Trash
    refused(app, "set_vacation_responder", {"enabled": True, "first_day": "2026-03-20", "last_day": "2026-03-10",
                                            "subject": "x"})
    assert state(app) == before


def test_only_what_the_ui_offers(app, dbs):
    """No shortcut past the app's rules: delete forever only from Trash/Spam, presets only when offered,
    schedule and snooze only in the future, filters need a criterion and an action."""
    tid = inbox_thread_with(dbs)
    assert "not in Trash or Spam" in refused(app, "delete_forever", {"thread_ids": [tid]})
    assert "must be in the future" in refused(app, "schedule_send", {"to": ["a@example.com"], "subject": "s", "body": "b",
                                                                      "at": "2026-03-12T09:00"})
    assert "either" in refused(app, "snooze", {"thread_ids": [tid]})
    assert "criterion" in refused(app, "create_filter", {"star_it": True})
    assert "action" in refused(app, "create_filter", {"from_contains": "x@example.com"})


# ------------------------------------------------------------------------------ schemas, docs
@pytest.mark.parametrize("name", sorted(TOOLS.tools))
def test_schema_is_valid_json_schema_with_descriptions(name):
    tool = TOOLS.tools[name]
    schema = tool.schema()
    Draft202012Validator.check_schema(schema)
    assert schema["type"] == "object" and schema.get("additionalProperties") is False
    assert "$defs" not in schema and "$ref" not in str(schema)
    assert len(tool.description) > 20
    for prop, spec in schema.get("properties", {}).items():
        assert spec.get("description"), f"{name}.{prop} has no description"


def test_readme_names_every_tool():
    text = (Path(__file__).parents[3] / "apps" / "mail" / "README.md").read_text()
    missing = [n for n in TOOLS.tools if f"`{n}`" not in text]
    assert not missing, missing
