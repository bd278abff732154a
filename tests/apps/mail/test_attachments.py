"""Issue 17 over HTTP (what the page's JS calls): My Files and uploads, attaching in compose (the draft keeps the
files, Send carries them), the chip's x, Reply all's Cc in the thread page, Undo Send and its period, the General
settings that came with it. Bad input is a 4xx that says why."""

from __future__ import annotations

import json
import re

from sqlalchemy import select

from apps.mail.models import Account, Attachment, File, Message
from apps.mail.views import actions


def post(client, url, body):
    return client.post(url, json=body)


def names(dbs, mid) -> list[str]:
    dbs.expire_all()
    return [a.filename for a in dbs.scalars(select(Attachment).where(Attachment.message_id == mid).order_by(Attachment.id))]


def test_my_files_list_and_search(client):
    r = client.get("/api/files").get_json()
    assert len(r["files"]) == 14 and all(f["size_label"].endswith(("KB", "MB")) for f in r["files"])
    assert [f["name"] for f in client.get("/api/files?q=DECK").get_json()["files"]] == ["Quarterly Review Deck.pptx"]
    assert client.get("/api/files?q=zzz-none").get_json()["files"] == []


def test_compose_attach_remove_send(client, dbs):
    fid = dbs.scalar(select(File.id).where(File.name == "Signed NDA.pdf"))
    fid2 = dbs.scalar(select(File.id).where(File.name == "Team Photo.jpg"))
    d = post(client, "/api/drafts", {"key": "k1", "to": "ana@example.com", "subject": "NDA", "body": "Here",
                                     "file_ids": [fid, fid2]}).get_json()
    assert [a["filename"] for a in d["attachments"]] == ["Signed NDA.pdf", "Team Photo.jpg"]
    assert client.get(f"/api/drafts/{d['id']}").get_json()["attachments"][0]["filename"] == "Signed NDA.pdf"
    photo = d["attachments"][1]["attachment_id"]
    left = post(client, f"/api/drafts/{d['id']}/attachments/{photo}/remove", {}).get_json()["attachments"]
    assert [a["filename"] for a in left] == ["Signed NDA.pdf"]
    sent = post(client, "/api/send", {"mode": "new", "key": "k1", "to": "ana@example.com", "subject": "NDA",
                                      "body": "Here", "draft_id": d["id"]}).get_json()
    assert sent["message_id"] == d["id"] and names(dbs, d["id"]) == ["Signed NDA.pdf"]
    # The sent conversation shows its file; a sent message's attachments are not removable.
    page = client.get(f"/thread/{sent['thread_id']}").get_data(as_text=True)
    assert "Preview attachment Signed NDA.pdf" in page
    aid = dbs.scalar(select(Attachment.id).where(Attachment.message_id == d["id"]))
    assert post(client, f"/api/drafts/{d['id']}/attachments/{aid}/remove", {}).status_code == 404


def test_upload_joins_my_files(client, dbs):
    r = post(client, "/api/files", {"name": "C:\\fakepath\\Scan 001.png", "size": 52_000, "mime": "image/png"})
    f = r.get_json()["file"]
    assert (f["name"], f["mime"], f["size"], f["uploaded"]) == ("Scan 001.png", "image/png", 52_000, True)
    assert f["name"] in [x["name"] for x in client.get("/api/files").get_json()["files"]]
    guessed = post(client, "/api/files", {"name": "notes.txt", "size": 10}).get_json()["file"]
    assert guessed["mime"] == "text/plain"


def test_bad_input_is_a_clear_4xx(client, dbs):
    before = client.get("/api/files").get_json()["files"]
    for body, why in [({"name": "", "size": 1}, "no name"), ({"name": "a.pdf", "size": "big"}, "number of bytes"),
                      ({"name": "a.pdf", "size": 30 * 1024 * 1024}, "25 MB"), ({"name": "x" * 300, "size": 1}, "at most")]:
        r = post(client, "/api/files", body)
        assert r.status_code == 400 and why in r.get_json()["error"], body
    assert client.get("/api/files").get_json()["files"] == before
    r = post(client, "/api/send", {"mode": "new", "to": "a@example.com", "subject": "s", "body": "b", "file_ids": [987654]})
    assert r.status_code == 404 and "does not exist" in r.get_json()["error"]
    r = post(client, "/api/send", {"mode": "new", "to": "a@example.com", "subject": "s", "body": "b", "file_ids": "1"})
    assert r.status_code == 400
    assert post(client, "/api/drafts/987654/attachments/1/remove", {}).status_code == 404
    assert post(client, "/api/messages/987654/undo_send", {}).status_code == 409


def test_reply_all_keeps_cc_on_cc_in_the_page(client, dbs):
    mine = dbs.get(Account, 1).email.lower()
    for m in dbs.scalars(select(Message).where(Message.is_sent.is_(False), Message.cc != "[]", Message.in_inbox.is_(True),
                                               Message.is_draft.is_(False)).order_by(Message.sent_at.desc())):
        last = dbs.scalars(select(Message).where(Message.thread_id == m.thread_id)
                           .order_by(Message.sent_at.desc(), Message.id.desc())).first()
        if last.id == m.id:
            break
    html = client.get(f"/thread/{m.thread_id}").get_data(as_text=True)
    btn = re.search(r'id="reply-all-btn" data-mode="reply_all" data-to="([^"]*)" data-cc="([^"]*)"', html)
    to = [e for e in dict.fromkeys([m.from_email.lower(), *m.to]) if e != mine]
    cc = [e for e in dict.fromkeys(m.cc) if e != mine and e not in to]
    assert btn and btn.group(1) == ", ".join(to) and btn.group(2) == ", ".join(cc)
    assert 'aria-label="Cc"' in html and "Add Cc recipients" in html
    # Default reply behavior: Reply all turns each message's reply arrow into Reply all.
    assert "Reply all to this message" not in html
    assert post(client, "/api/settings", {"default_reply": "reply_all"}).status_code == 200
    html = client.get(f"/thread/{m.thread_id}").get_data(as_text=True)
    assert 'data-reply-all="1" aria-label="Reply all to this message"' in html
    assert post(client, "/api/settings", {"default_reply": "everyone"}).status_code == 400


def test_undo_send_within_the_period_only(client, dbs, monkeypatch):
    sent = post(client, "/api/send", {"mode": "new", "to": "ana@example.com", "subject": "Oops", "body": "b"}).get_json()
    assert sent["undo_seconds"] == 5
    r = post(client, f"/api/messages/{sent['message_id']}/undo_send", {}).get_json()
    assert r == {"ok": True, "toast": "Sending undone.", "draft_id": sent["message_id"]}
    dbs.expire_all()
    assert dbs.get(Message, sent["message_id"]).is_draft
    # Past the period (the server's clock for this window moved on): already sent.
    again = post(client, "/api/send", {"mode": "new", "to": "ana@example.com", "subject": "Late", "body": "b"}).get_json()
    key = next(k for k in actions._SENT_AT if k[1] == again["message_id"])
    actions._SENT_AT[key] -= 5 + actions.UNDO_GRACE_S + 1
    late = post(client, f"/api/messages/{again['message_id']}/undo_send", {})
    assert late.status_code == 409 and "already been sent" in late.get_json()["error"]


def test_general_settings_undo_period_and_shortcuts(client, dbs):
    r = post(client, "/api/settings", {"undo_send_seconds": 30, "keyboard_shortcuts": True})
    assert r.status_code == 200
    dbs.expire_all()
    acct = dbs.get(Account, 1)
    assert (acct.undo_send_seconds, acct.keyboard_shortcuts) == (30, True)
    assert post(client, "/api/settings", {"undo_send_seconds": 7}).status_code == 400
    page = client.get("/settings/general").get_data(as_text=True)
    assert 'aria-label="Send cancellation period: 30"' in page and 'data-shortcuts="1"' in page
    assert 'aria-labelledby="shortcuts-title"' in page
    sent = post(client, "/api/send", {"mode": "new", "to": "a@example.com", "subject": "s", "body": "b"}).get_json()
    assert sent["undo_seconds"] == 30
    assert json.dumps(sent)
