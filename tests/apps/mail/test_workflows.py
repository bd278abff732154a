"""Each workflow through the JSON endpoints the pages use, asserted on the database."""

from __future__ import annotations

from sqlalchemy import func, select

from apps.mail.models import Contact, Invite, Message, Thread
from tests.apps.mail.conftest import NOW, inbox_thread_with, me
from tests.apps.world_fixtures import control


def post(client, url, body):
    return client.post(url, json=body)


def thread_msgs(dbs, tid):
    dbs.expire_all()
    return list(dbs.scalars(select(Message).where(Message.thread_id == tid).order_by(Message.sent_at, Message.id)))


def test_star_and_unstar_a_conversation(client, dbs):
    tid = inbox_thread_with(dbs, is_starred=False)
    r = post(client, f"/api/threads/{tid}/star", {"starred": True})
    assert r.json == {"ok": True, "starred": True}
    msgs = thread_msgs(dbs, tid)
    assert msgs[-1].is_starred and sum(m.is_starred for m in msgs) == 1
    assert 'aria-label="Unstar"' in client.get("/starred").get_data(as_text=True)
    assert post(client, f"/api/threads/{tid}/star", {"starred": False}).json["starred"] is False
    assert not any(m.is_starred for m in thread_msgs(dbs, tid))


def test_star_one_message(client, dbs):
    mid = dbs.scalars(select(Message.id).where(Message.is_starred.is_(False))).first()
    assert post(client, f"/api/messages/{mid}/star", {"starred": True}).json["starred"] is True
    dbs.expire_all()
    assert dbs.get(Message, mid).is_starred
    assert post(client, f"/api/messages/{mid}/star", {"starred": "yes"}).status_code == 400


def test_compose_and_send(client, dbs):
    ana = dbs.scalars(select(Contact).order_by(Contact.id)).first()
    before = dbs.scalar(select(func.count(Message.id)))
    r = post(client, "/api/send", {"mode": "new", "to": f"{ana.name} <{ana.email.upper()}>", "cc": "", "bcc": "",
                                   "subject": "Lunch on Friday?", "body": "Are you free?\n\nThanks"})
    assert r.status_code == 200 and r.json["ok"] and r.json["toast"] == "Message sent"
    dbs.expire_all()
    m = dbs.get(Message, r.json["message_id"])
    assert dbs.scalar(select(func.count(Message.id))) == before + 1
    assert (m.to, m.cc, m.bcc, m.subject, m.body) == ([ana.email], [], [], "Lunch on Friday?", "Are you free?\n\nThanks")
    assert m.is_sent and m.is_read and not m.in_inbox and not m.is_draft and m.sent_at == NOW
    assert m.from_email == me(dbs).email and m.thread_id == r.json["thread_id"] and m.in_reply_to_id is None
    assert dbs.get(Thread, m.thread_id).subject == "Lunch on Friday?"
    sent = client.get("/sent").get_data(as_text=True)
    assert "Lunch on Friday?" in sent.split('role="row"')[1]  # newest first


def test_send_validates_recipients(client):
    r = post(client, "/api/send", {"mode": "new", "to": "", "subject": "x", "body": "y"})
    assert r.status_code == 400 and r.json["error"] == "Please specify at least one recipient."
    r = post(client, "/api/send", {"mode": "new", "to": "not an address", "subject": "x", "body": "y"})
    assert r.status_code == 400 and 'in the "To" field was not recognized' in r.json["error"]


def test_send_to_myself_lands_in_inbox(client, dbs):
    r = post(client, "/api/send", {"mode": "new", "to": me(dbs).email, "subject": "Note to self", "body": "milk"})
    dbs.expire_all()
    assert dbs.get(Message, r.json["message_id"]).in_inbox


def test_reply_threads_correctly(client, dbs):
    tid = inbox_thread_with(dbs, is_sent=False)
    last_other = [m for m in thread_msgs(dbs, tid) if not m.is_sent][-1]
    html = client.get(f"/thread/{tid}").get_data(as_text=True)
    assert f'data-to="{last_other.from_email}"' in html  # the Reply button's recipient
    r = post(client, "/api/send", {"mode": "reply", "thread_id": tid, "in_reply_to_id": last_other.id,
                                   "to": last_other.from_email, "body": "Sounds good, thanks!"})
    assert r.json["ok"] and r.json["thread_id"] == tid
    dbs.expire_all()
    m = dbs.get(Message, r.json["message_id"])
    subject = dbs.get(Thread, tid).subject
    assert m.thread_id == tid and m.in_reply_to_id == last_other.id and m.to == [last_other.from_email.lower()]
    assert m.subject == (subject if subject.startswith("Re:") else f"Re: {subject}") and m.is_sent
    assert "Sounds good, thanks!" in client.get(f"/thread/{tid}").get_data(as_text=True)


def test_reply_rejects_a_message_of_another_thread(client, dbs):
    a = dbs.scalars(select(Message).order_by(Message.id)).first()
    b = dbs.scalars(select(Message).where(Message.thread_id != a.thread_id)).first()
    r = post(client, "/api/send", {"mode": "reply", "thread_id": a.thread_id, "in_reply_to_id": b.id, "to": "x@y.io",
                                   "body": "hi"})
    assert r.status_code == 400
    assert post(client, "/api/send", {"mode": "reply", "thread_id": 999999, "to": "x@y.io", "body": "hi"}).status_code == 404


def test_forward_includes_the_original(client, dbs):
    tid = inbox_thread_with(dbs, is_sent=False)
    src = thread_msgs(dbs, tid)[-1]
    r = post(client, "/api/send", {"mode": "forward", "thread_id": tid, "in_reply_to_id": src.id,
                                   "to": "pat@example.com", "body": "FYI"})
    dbs.expire_all()
    m = dbs.get(Message, r.json["message_id"])
    assert m.subject.startswith("Fwd: ") and m.to == ["pat@example.com"]
    assert m.body.startswith("FYI\n\n---------- Forwarded message ---------") and src.body in m.body


def test_archive_leaves_inbox_but_stays_in_all_mail_and_search(client, dbs):
    tid = inbox_thread_with(dbs)
    subject = dbs.get(Thread, tid).subject
    r = post(client, "/api/threads/action", {"action": "archive", "ids": [tid]})
    assert r.json["toast"] == "Conversation archived." and r.json["undo"]
    msgs = thread_msgs(dbs, tid)
    assert not any(m.in_inbox for m in msgs) and not any(m.is_trashed for m in msgs)
    assert f'data-id="{tid}"' not in client.get("/inbox").get_data(as_text=True)
    assert f'data-id="{tid}"' in client.get("/all").get_data(as_text=True) or client.get("/all?page=2").status_code == 200
    found = client.get("/search?q=" + f'subject:"{subject}"').get_data(as_text=True)
    assert f'data-id="{tid}"' in found
    # Undo puts every flag back.
    assert post(client, "/api/undo", r.json["undo"]).json["ok"]
    assert any(m.in_inbox for m in thread_msgs(dbs, tid))


def test_delete_moves_to_trash_then_restore_and_delete_forever(client, dbs):
    tid = inbox_thread_with(dbs)
    r = post(client, "/api/threads/action", {"action": "trash", "ids": [tid]})
    assert r.json["toast"] == "Conversation moved to Trash."
    msgs = thread_msgs(dbs, tid)
    assert all(m.is_trashed and m.trashed_at == NOW and not m.in_inbox for m in msgs)
    assert f'data-id="{tid}"' in client.get("/trash").get_data(as_text=True)
    assert client.get(f"/thread/{tid}").status_code == 200
    post(client, "/api/threads/action", {"action": "move_to_inbox", "ids": [tid]})
    msgs = thread_msgs(dbs, tid)
    assert not any(m.is_trashed for m in msgs) and any(m.in_inbox for m in msgs)
    post(client, "/api/threads/action", {"action": "trash", "ids": [tid]})
    post(client, "/api/threads/action", {"action": "delete_forever", "ids": [tid]})
    assert thread_msgs(dbs, tid) == [] and dbs.get(Thread, tid) is None


def test_spam_and_not_spam(client, dbs):
    tid = inbox_thread_with(dbs)
    post(client, "/api/threads/action", {"action": "spam", "ids": [tid]})
    assert all(m.is_spam and not m.in_inbox for m in thread_msgs(dbs, tid))
    assert f'data-id="{tid}"' in client.get("/spam").get_data(as_text=True)
    post(client, "/api/threads/action", {"action": "not_spam", "ids": [tid]})
    assert not any(m.is_spam for m in thread_msgs(dbs, tid))


def test_mark_read_unread_and_bulk(client, dbs):
    a = inbox_thread_with(dbs, is_read=True)
    b = inbox_thread_with(dbs, is_read=False)
    post(client, "/api/threads/action", {"action": "mark_unread", "ids": [a]})
    assert not any(m.is_read for m in thread_msgs(dbs, a))
    r = post(client, "/api/threads/action", {"action": "mark_read", "ids": [a, b]})
    assert r.json["toast"] == "2 conversations marked as read."
    assert all(m.is_read for m in thread_msgs(dbs, a) + thread_msgs(dbs, b))
    assert post(client, "/api/threads/action", {"action": "explode", "ids": [a]}).status_code == 400
    assert post(client, "/api/threads/action", {"action": "archive", "ids": []}).status_code == 400


def test_mark_all_read_in_a_tab(client, dbs):
    r = post(client, "/api/mark_all_read", {"path": "/inbox/promotions"})
    assert r.json["ok"]
    dbs.expire_all()
    unread = dbs.scalar(select(func.count(Message.id)).join(Thread, Thread.id == Message.thread_id)
                        .where(Thread.category == "promotions", Message.in_inbox.is_(True), Message.is_read.is_(False)))
    assert unread == 0
    # Primary still has unread mail.
    assert dbs.scalar(select(func.count(Message.id)).join(Thread, Thread.id == Message.thread_id)
                      .where(Thread.category == "primary", Message.in_inbox.is_(True), Message.is_read.is_(False))) > 0


def test_importance_toggle(client, dbs):
    tid = inbox_thread_with(dbs, is_important=False)
    post(client, f"/api/threads/{tid}/important", {"important": True})
    assert all(m.is_important for m in thread_msgs(dbs, tid) if not m.is_trashed)


def test_search_finds_a_known_contacts_mail(client, dbs):
    m = dbs.scalars(select(Message).where(Message.is_sent.is_(False), Message.is_spam.is_(False),
                                          Message.is_trashed.is_(False), Message.from_email.in_(select(Contact.email)))
                    .order_by(Message.sent_at)).first()
    for q in [m.from_name, m.from_email, f"from:{m.from_name.split()[-1]}", m.from_name.split()[0].lower()]:
        html = client.get("/search", query_string={"q": q}).get_data(as_text=True)
        assert f'data-id="{m.thread_id}"' in html or "Older" in html, q
    html = client.get("/search", query_string={"q": f'"{m.from_name}" subject:"{m.subject.removeprefix("Re: ")}"'}).get_data(as_text=True)
    assert f'data-id="{m.thread_id}"' in html


def test_search_is_word_aware_and_excludes_trash(client, dbs):
    from apps.mail.queries import parse_search

    def hits(q):
        sq = parse_search(dbs, q, NOW)
        return set(dbs.scalars(select(Message.id).where(*sq.conds)))

    assert hits("zzqx") == set()
    trashed = set(dbs.scalars(select(Message.id).where(Message.is_trashed.is_(True))))
    assert not (hits("the") & trashed)
    assert hits("in:trash") == trashed
    assert hits("has:attachment") and hits("is:starred") and hits("-is:starred")


def test_rsvp(client, dbs):
    inv = dbs.scalars(select(Invite).where(Invite.rsvp.is_(None))).first()
    assert post(client, f"/api/invites/{inv.id}/rsvp", {"rsvp": "yes"}).json["rsvp"] == "yes"
    dbs.expire_all()
    assert dbs.get(Invite, inv.id).rsvp == "yes"
    assert post(client, f"/api/invites/{inv.id}/rsvp", {"rsvp": "perhaps"}).status_code == 400


def test_contact_suggestions_rank_names_first(client, dbs):
    c = dbs.scalars(select(Contact).order_by(Contact.id)).first()
    res = client.get("/api/contacts", query_string={"q": c.name.split()[0][:3]}).json["results"]
    assert res and res[0]["name"].lower().startswith(c.name.split()[0][:3].lower()) or any(
        r["email"] == c.email for r in res)


def test_state_json_reflects_actions(client, dbs, app):
    """What graders see: GET /worlds/<id>/state on the control API, with the token."""
    tid = inbox_thread_with(dbs, is_starred=False)
    post(client, f"/api/threads/{tid}/star", {"starred": True})
    wid = app.config["TEST_WORLD"]
    assert control(app).get(f"/worlds/{wid}/state").status_code == 403
    state = control(app).get(f"/worlds/{wid}/state", headers={"X-Gym-Token": "t"}).json
    starred = [m for m in state["messages"] if m["thread_id"] == tid and m["is_starred"]]
    assert len(starred) == 1 and isinstance(starred[0]["to"], list)
    assert set(state) >= {"account", "contacts", "threads", "messages", "labels", "message_labels", "attachments"}


def test_quick_settings_density(client, dbs):
    from apps.mail.models import Account

    r = post(client, "/api/settings", {"display_density": "compact"})
    assert r.json["ok"] and r.json["display_density"] == "compact"
    dbs.expire_all()
    assert dbs.get(Account, 1).display_density == "compact"
    assert "density-compact" in client.get("/inbox").get_data(as_text=True)
    assert post(client, "/api/settings", {"display_density": "huge"}).status_code == 400
    assert post(client, "/api/settings", {"theme": "dark"}).status_code == 400
