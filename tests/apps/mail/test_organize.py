"""The second slice's workflows through the JSON endpoints the pages use, asserted on the database:
drafts, schedule send, snooze, labels (menu, move, create/rename/colour/remove), filters, settings,
blocked senders, message actions, empty Trash/Spam, contacts, search operators, select-all-matching."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import func, select

from apps.mail.models import (Account, BlockedSender, Contact, Filter, Label, Message, MessageLabel, Thread)
from tests.apps.mail.conftest import NOW, inbox_thread_with, me


def post(client, url, body=None):
    return client.post(url, json=body or {})


def msgs(dbs, tid):
    dbs.expire_all()
    return list(dbs.scalars(select(Message).where(Message.thread_id == tid).order_by(Message.sent_at, Message.id)))


def label_ids(dbs, mid):
    dbs.expire_all()
    return set(dbs.scalars(select(MessageLabel.label_id).where(MessageLabel.message_id == mid)))


def label(dbs, name):
    return dbs.scalars(select(Label).where(Label.name == name)).one()


# ------------------------------------------------------------------------------------------ drafts
def test_draft_is_saved_updated_listed_and_sent_in_place(client, dbs):
    r = post(client, "/api/drafts", {"key": "k1", "to": "ana@example.com", "subject": "Plan", "body": "First"})
    did = r.json["id"]
    dbs.expire_all()
    d = dbs.get(Message, did)
    assert d.is_draft and not d.is_sent and d.to == ["ana@example.com"] and d.from_email == me(dbs).email
    # The same compose window saves again (no id known yet: the server remembers the key).
    assert post(client, "/api/drafts", {"key": "k1", "to": "ana@example.com, bob@example.com", "subject": "Plan",
                                        "body": "Second"}).json["id"] == did
    html = client.get("/drafts").get_data(as_text=True)
    assert f'data-draft="{did}"' in html and "Draft, " in html
    assert client.get(f"/api/drafts/{did}").json["body"] == "Second"
    before = dbs.scalar(select(func.count(Message.id)))
    r = post(client, "/api/send", {"mode": "new", "key": "k1", "to": "ana@example.com", "subject": "Plan", "body": "Final"})
    assert r.json["message_id"] == did
    dbs.expire_all()
    sent = dbs.get(Message, did)
    assert sent.is_sent and not sent.is_draft and sent.body == "Final" and sent.sent_at == NOW
    assert dbs.scalar(select(func.count(Message.id))) == before  # converted, not copied
    # A save that arrives after Send (a race between two connections) is refused.
    assert post(client, "/api/drafts", {"key": "k1", "to": "x@example.com", "subject": "Plan", "body": "late"}).status_code == 409
    dbs.expire_all()
    assert dbs.get(Message, did).body == "Final"


def test_discard_draft_deletes_it_and_its_thread(client, dbs):
    r = post(client, "/api/drafts", {"key": "k2", "to": "", "subject": "Scratch", "body": "x"})
    did, tid = r.json["id"], r.json["thread_id"]
    assert post(client, f"/api/drafts/{did}/discard", {"key": "k2"}).json["toast"] == "Draft discarded."
    dbs.expire_all()
    assert dbs.get(Message, did) is None and dbs.get(Thread, tid) is None
    assert post(client, "/api/drafts", {"key": "k2", "subject": "again"}).status_code == 409


def test_draft_thread_page_redirects_to_compose(client, dbs):
    d = dbs.scalars(select(Message).where(Message.is_draft.is_(True))).first()
    r = client.get(f"/thread/{d.thread_id}")
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/drafts?draft={d.id}")


# -------------------------------------------------------------------------------------- scheduled
def test_schedule_send_waits_in_scheduled_then_cancel_makes_a_draft(client, dbs):
    at = (NOW + dt.timedelta(days=1)).replace(hour=8, minute=0)
    r = post(client, "/api/schedule", {"key": "k3", "to": "ana@example.com", "subject": "Later", "body": "Hi",
                                       "at": at.isoformat()})
    assert r.json["toast"].startswith("Send scheduled for ")
    mid, tid = r.json["message_id"], r.json["thread_id"]
    dbs.expire_all()
    m = dbs.get(Message, mid)
    assert m.scheduled_at == at and not m.is_sent and not m.is_draft and not m.in_inbox
    assert f'data-id="{tid}"' in client.get("/scheduled").get_data(as_text=True)
    assert f'data-id="{tid}"' not in client.get("/sent").get_data(as_text=True)
    assert "Cancel send" in client.get(f"/thread/{tid}").get_data(as_text=True)
    assert post(client, "/api/schedule", {"to": "a@b.io", "subject": "x", "body": "y", "at": NOW.isoformat()}).status_code == 400
    assert post(client, f"/api/scheduled/{mid}/cancel").json["draft_id"] == mid
    dbs.expire_all()
    m = dbs.get(Message, mid)
    assert m.is_draft and m.scheduled_at is None


# ----------------------------------------------------------------------------------------- snooze
def test_snooze_leaves_the_inbox_until_then_and_unsnooze_brings_it_back(client, dbs):
    tid = inbox_thread_with(dbs, is_sent=False)
    until = (NOW + dt.timedelta(days=2)).replace(hour=8, minute=0)
    r = post(client, "/api/threads/action", {"action": "snooze", "ids": [tid], "until": until.isoformat()})
    assert "snoozed until" in r.json["toast"]
    assert all(m.snoozed_until == until for m in msgs(dbs, tid) if not m.is_trashed)
    assert f'data-id="{tid}"' not in client.get("/inbox").get_data(as_text=True)
    assert f'data-id="{tid}"' in client.get("/snoozed").get_data(as_text=True)
    assert f'data-id="{tid}"' in client.get("/search?q=is%3Asnoozed").get_data(as_text=True)
    post(client, "/api/threads/action", {"action": "unsnooze", "ids": [tid]})
    assert all(m.snoozed_until is None for m in msgs(dbs, tid))
    bad = post(client, "/api/threads/action", {"action": "snooze", "ids": [tid], "until": NOW.isoformat()})
    assert bad.status_code == 400


# ----------------------------------------------------------------------------------------- labels
def test_label_menu_adds_and_removes_and_move_to_archives(client, dbs):
    tid = inbox_thread_with(dbs, is_sent=False)
    travel = label(dbs, "Travel")
    r = post(client, "/api/threads/action", {"action": "label", "ids": [tid], "add": [travel.id]})
    assert r.json["toast"] == 'Conversation added to "Travel".'
    live = [m for m in msgs(dbs, tid) if not m.is_trashed]
    assert all(travel.id in label_ids(dbs, m.id) for m in live) and any(m.in_inbox for m in live)
    post(client, "/api/threads/action", {"action": "label", "ids": [tid], "remove": [travel.id]})
    assert not any(travel.id in label_ids(dbs, m.id) for m in live)
    r = post(client, "/api/threads/action", {"action": "move", "ids": [tid], "target": f"label:{travel.id}"})
    assert r.json["toast"] == 'Conversation moved to "Travel".'
    assert not any(m.in_inbox for m in msgs(dbs, tid)) and all(travel.id in label_ids(dbs, m.id) for m in live)
    # Undo puts both the flags and the labels back.
    post(client, "/api/undo", r.json["undo"])
    assert any(m.in_inbox for m in msgs(dbs, tid)) and not any(travel.id in label_ids(dbs, m.id) for m in live)


def test_move_to_category_and_select_all_matching(client, dbs):
    tid = inbox_thread_with(dbs, is_sent=False)
    post(client, "/api/threads/action", {"action": "move", "ids": [tid], "target": "category:social"})
    dbs.expire_all()
    assert dbs.get(Thread, tid).category == "social"
    # "Select all N conversations in ...": the action applies to the whole list, not just the page.
    r = post(client, "/api/threads/action", {"action": "mark_read", "all_path": "/inbox/promotions"})
    assert r.json["ok"]
    dbs.expire_all()
    left = dbs.scalar(select(func.count(Message.id)).join(Thread, Thread.id == Message.thread_id).where(
        Thread.category == "promotions", Message.in_inbox.is_(True), Message.is_read.is_(False)))
    assert left == 0


def test_create_rename_colour_and_remove_labels(client, dbs):
    work = label(dbs, "Work")
    r = post(client, "/api/labels", {"name": "Hiring", "parent_id": work.id})
    lid = r.json["id"]
    assert r.json["path"] == "Work/Hiring"
    assert post(client, "/api/labels", {"name": "Hiring", "parent_id": work.id}).status_code == 400  # exists
    assert post(client, "/api/labels", {"name": "Inbox"}).status_code == 400  # reserved
    assert client.get("/label/Work/Hiring").status_code == 200
    post(client, f"/api/labels/{lid}", {"name": "Recruiting", "color": "Red"})
    dbs.expire_all()
    lab = dbs.get(Label, lid)
    assert (lab.name, lab.parent_id, lab.color, lab.text_color) == ("Recruiting", work.id, "#fb4c2f", "#ffffff")
    assert post(client, f"/api/labels/{work.id}", {"parent_id": lid}).status_code == 400  # no cycles
    # Removing a parent keeps its messages and lifts its sublabels a level.
    wid, cid = work.id, label(dbs, "Clients").id
    tagged = set(dbs.scalars(select(MessageLabel.message_id).where(MessageLabel.label_id == wid)))
    n_msgs = dbs.scalar(select(func.count(Message.id)))
    assert post(client, f"/api/labels/{wid}/delete").json["ok"]
    dbs.expire_all()
    assert dbs.get(Label, wid) is None and dbs.get(Label, cid).parent_id is None
    assert dbs.scalar(select(func.count(Message.id))) == n_msgs and tagged
    assert dbs.scalar(select(func.count(MessageLabel.id)).where(MessageLabel.label_id == wid)) == 0


def test_create_label_and_apply_it_to_a_selection(client, dbs):
    tid = inbox_thread_with(dbs, is_sent=False)
    r = post(client, "/api/labels", {"name": "Vendors", "apply_to": [tid], "move": True})
    live = [m for m in msgs(dbs, tid) if not m.is_trashed]
    assert all(r.json["id"] in label_ids(dbs, m.id) for m in live) and not any(m.in_inbox for m in live)


# ---------------------------------------------------------------------------------------- filters
def test_filter_created_from_search_criteria_applies_to_existing_mail(client, dbs):
    rideway_like = dbs.scalars(select(Message.from_email).where(Message.from_email.like("%@parcelandpine.com"))).first()
    receipts = label(dbs, "Receipts")
    count = client.get("/api/filters/count", query_string={"from_contains": rideway_like}).json["count"]
    assert count > 0
    r = post(client, "/api/filters", {"from_contains": rideway_like, "skip_inbox": True, "apply_label_id": receipts.id,
                                      "apply_existing": True})
    assert r.json["applied"] == count
    dbs.expire_all()
    f = dbs.get(Filter, r.json["id"])
    assert f.skip_inbox and f.apply_label_id == receipts.id and f.from_contains == rideway_like
    hit = list(dbs.scalars(select(Message).where(Message.from_email == rideway_like, Message.is_trashed.is_(False),
                                                 Message.is_spam.is_(False))))
    assert hit and all(not m.in_inbox and receipts.id in label_ids(dbs, m.id) for m in hit)
    html = client.get("/settings/filters").get_data(as_text=True)
    assert f"from:({rideway_like})" in html and "Skip Inbox" in html
    assert post(client, "/api/filters", {"from_contains": "x@y.io"}).status_code == 400  # no action
    assert post(client, "/api/filters", {"skip_inbox": True}).status_code == 400  # no criteria
    assert post(client, f"/api/filters/{f.id}/delete").json["ok"]


def test_filter_query_supports_or(client, dbs):
    from apps.mail.queries import parse_search

    a, b = dbs.scalars(select(Message.from_email).where(Message.is_sent.is_(False)).distinct().limit(2)).all()
    sq = parse_search(dbs, f"from:({a} OR {b})", NOW)
    senders = set(dbs.scalars(select(Message.from_email).where(*sq.conds)))
    assert senders == {a, b}


# --------------------------------------------------------------------------------------- settings
def test_settings_signature_vacation_page_size_and_tabs(client, dbs):
    r = post(client, "/api/settings", {"signature": "Best,\nM", "page_size": 25, "show_snippets": False})
    assert r.json["ok"]
    r = post(client, "/api/settings", {"vacation_enabled": True, "vacation_start": "March 20, 2026",
                                       "vacation_end": "3/27/2026", "vacation_subject": "Away", "vacation_body": "Back soon"})
    assert r.json["ok"]
    dbs.expire_all()
    a = dbs.get(Account, 1)
    assert (a.signature, a.page_size, a.show_snippets) == ("Best,\nM", 25, False)
    assert (a.vacation_enabled, a.vacation_start, a.vacation_end) == (True, dt.date(2026, 3, 20), dt.date(2026, 3, 27))
    html = client.get("/inbox").get_data(as_text=True)
    assert html.count('role="row"') <= 25 and "no-snippets" in html
    assert post(client, "/api/settings", {"vacation_end": "March 1, 2026"}).status_code == 400  # before the start
    assert post(client, "/api/settings", {"page_size": 7}).status_code == 400
    assert post(client, "/api/settings", {"vacation_start": "someday"}).status_code == 400
    # Turning a tab off folds its mail into Primary.
    post(client, "/api/settings", {"tab_social": False})
    assert client.get("/inbox/social").status_code == 302
    assert ">Social<" not in client.get("/inbox").get_data(as_text=True).split('role="tablist"')[1].split("</div>")[0]


# ------------------------------------------------------------------------- message actions, blocking
def test_block_unblock_and_message_actions(client, dbs):
    tid = inbox_thread_with(dbs, is_sent=False)
    ms = [m for m in msgs(dbs, tid) if not m.is_trashed]
    sender = next(m.from_email for m in ms if not m.is_sent)
    post(client, "/api/block", {"email": sender})
    assert dbs.scalar(select(func.count(BlockedSender.id)).where(BlockedSender.email == sender)) == 1
    assert "You have blocked" in client.get(f"/thread/{tid}").get_data(as_text=True)
    assert sender in client.get("/settings/filters").get_data(as_text=True)
    post(client, "/api/unblock", {"email": sender})
    assert dbs.scalar(select(func.count(BlockedSender.id)).where(BlockedSender.email == sender)) == 0
    assert post(client, "/api/unblock", {"email": sender}).status_code == 404
    post(client, f"/api/messages/{ms[-1].id}/unread_from_here")
    dbs.expire_all()
    assert not dbs.get(Message, ms[-1].id).is_read
    r = post(client, f"/api/messages/{ms[-1].id}/trash")
    dbs.expire_all()
    assert dbs.get(Message, ms[-1].id).is_trashed and r.json["thread_empty"] == (len(ms) == 1)


def test_empty_trash_and_spam(client, dbs):
    trashed = dbs.scalar(select(func.count(Message.id)).where(Message.is_trashed.is_(True)))
    total = dbs.scalar(select(func.count(Message.id)))
    r = post(client, "/api/empty", {"folder": "trash"})
    assert r.json["ok"] and trashed > 0
    dbs.expire_all()
    assert dbs.scalar(select(func.count(Message.id))) == total - trashed
    post(client, "/api/empty", {"folder": "spam"})
    dbs.expire_all()
    assert dbs.scalar(select(func.count(Message.id)).where(Message.is_spam.is_(True))) == 0
    assert "Hooray, no spam here!" in client.get("/spam").get_data(as_text=True)


# --------------------------------------------------------------------------------------- contacts
def test_contacts_create_edit_star_delete(client, dbs):
    r = post(client, "/api/contacts/new", {"first_name": "Priya", "last_name": "Raman", "email": "Priya@Northwind.com",
                                           "company": "Northwind", "phone": "(555) 201-4410", "birthday": "March 4, 1990"})
    cid = r.json["id"]
    dbs.expire_all()
    c = dbs.get(Contact, cid)
    assert (c.name, c.email, c.company, c.birthday, c.is_saved) == ("Priya Raman", "priya@northwind.com", "Northwind",
                                                                    dt.date(1990, 3, 4), True)
    assert post(client, "/api/contacts/new", {"first_name": "X", "email": "priya@northwind.com"}).status_code == 400
    assert "Priya Raman" in client.get("/contacts?q=northwind").get_data(as_text=True)
    post(client, f"/api/contacts/{cid}", {"first_name": "Priya", "last_name": "Raman", "email": "priya@northwind.com",
                                          "company": "Northwind", "title": "CFO", "phone": "(555) 000-1111"})
    post(client, f"/api/contacts/{cid}/star", {"starred": True})
    dbs.expire_all()
    c = dbs.get(Contact, cid)
    assert (c.title, c.phone, c.is_starred) == ("CFO", "(555) 000-1111", True)
    assert "Priya Raman" in client.get("/contacts/favorites").get_data(as_text=True)
    post(client, f"/api/contacts/{cid}/delete")
    dbs.expire_all()
    assert dbs.get(Contact, cid) is None


def test_editing_a_seeded_contact_changes_only_what_was_edited(client, dbs):
    """The edit form round-trips every field (tasks check nothing else changed)."""
    from apps.mail.formatting import long_day

    for c in dbs.scalars(select(Contact).where(Contact.is_saved.is_(True)).limit(60)):
        first, _, last = c.name.rpartition(" ")
        if not first:
            first, last = last, ""
        body = {"first_name": first, "last_name": last, "email": c.email, "company": c.company, "title": c.title,
                "phone": "(555) 999-0000", "address": c.address, "notes": c.notes,
                "birthday": long_day(c.birthday) if c.birthday else ""}
        before = {k: getattr(c, k) for k in ("name", "email", "company", "title", "address", "notes", "birthday")}
        assert post(client, f"/api/contacts/{c.id}", body).json["ok"]
        dbs.expire_all()
        after = dbs.get(Contact, c.id)
        assert {k: getattr(after, k) for k in before} == before and after.phone == "(555) 999-0000"


# ----------------------------------------------------------------------------------------- search
def test_search_operators(client, dbs):
    from apps.mail.queries import parse_search

    def hits(q):
        sq = parse_search(dbs, q, NOW)
        return set(dbs.scalars(select(Message.thread_id).where(*sq.conds)))

    clients = label(dbs, "Clients")
    labelled = set(dbs.scalars(select(Message.thread_id).join(MessageLabel, MessageLabel.message_id == Message.id)
                               .where(MessageLabel.label_id == clients.id, Message.is_trashed.is_(False),
                                      Message.is_spam.is_(False))))
    assert hits("label:work/clients") == hits("label:work-clients") == hits("label:clients") == labelled
    assert hits("label:work") >= labelled  # a parent label includes its sublabels
    drafts = set(dbs.scalars(select(Message.thread_id).where(Message.is_draft.is_(True))))
    assert hits("in:drafts") == drafts and not (hits("the") & drafts)
    assert hits("in:scheduled") and not (hits("in:scheduled") & hits("in:inbox"))
    assert hits('"total due"') and hits('"total due"') <= hits("invoice")
    assert hits("from:me") and hits("newer_than:2d") and not (hits("older_than:1y") & hits("newer_than:1m"))
    assert hits("is:snoozed") == set(dbs.scalars(select(Message.thread_id).where(Message.snoozed_until > NOW)))


def test_search_chips_and_pages_render(client):
    html = client.get("/search", query_string={"q": "invoice has:attachment"}).get_data(as_text=True)
    assert 'aria-label="Search chips"' in html and 'aria-pressed="true"' in html and "Advanced search" in html
    for path in ["/snoozed", "/drafts", "/scheduled", "/category/social", "/category/updates", "/settings",
                 "/settings/general", "/settings/labels", "/settings/inbox", "/settings/filters", "/contacts",
                 "/contacts/other", "/contacts/favorites", "/contacts/new", "/contacts/1", "/contacts/1/edit",
                 "/label/Finance/Invoices", "/search?q=in%3Aanywhere+contract"]:
        r = client.get(path, follow_redirects=True)
        assert r.status_code == 200, path
    assert client.get("/settings/nope").status_code == 404 and client.get("/category/forums").status_code == 404
