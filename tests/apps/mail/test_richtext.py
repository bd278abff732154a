"""The compose editor's formatted text (services/richtext.py) and forwards that carry attachments."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from apps.mail.models import Attachment, Message
from apps.mail.services.richtext import letter_body, text_of
from tests.apps.mail.conftest import inbox_thread_with


@pytest.mark.parametrize("html, text", [
    ("", ""),
    ("<br>", ""),
    ("a<div><br></div>", "a\n"),                      # the textarea's "a\n"
    ("a<div>b</div>", "a\nb"),                        # a, Enter, b
    ("a<div><br></div><div>b</div>", "a\n\nb"),       # a, Enter, Enter, b
    ("<div><br></div><div>b</div>", "\nb"),
    ("a<br><br>", "a\n"),
    ("a<br>b", "a\nb"),
    ("x&nbsp; y &amp; z", "x  y & z"),
    ("<ol><li>one</li><li>two</li></ol><ul><li>dot</li></ul>", "1. one\n2. two\n- dot"),
])
def test_plain_text_is_what_the_browser_shows(html, text):
    assert text_of(html) == text


def test_letter_body_sanitizes_and_keeps_html_only_when_formatted():
    assert letter_body("Hi\r\nthere") == ("Hi\nthere", "")
    assert letter_body("ignored", "Hi<div>there</div>") == ("Hi\nthere", "")  # nothing but lines: plain
    text, html = letter_body("", 'Hi <b onclick="x()">you</b><script>alert(1)</script>'
                                 '<span style="color: red; position: fixed">r</span><a href="javascript:x">l</a>')
    assert text == "Hi yourl"
    assert html == 'Hi <b>you</b><span style="color:red">r</span><a rel="noopener noreferrer">l</a>'


def test_body_html_must_be_text(client):
    r = client.post("/api/send", json={"to": "pat@example.com", "subject": "s", "body": "x", "body_html": 5})
    assert r.status_code == 400 or r.status_code == 422


def test_send_formatted_then_thread_renders_it_sanitized(client, dbs):
    r = client.post("/api/send", json={"to": "pat@example.com", "subject": "Formatted", "body": "",
                                       "body_html": "Hi <b>there</b><div><i>x</i></div><img src=x onerror=alert(1)>"})
    assert r.status_code == 200, r.json
    dbs.expire_all()
    m = dbs.get(Message, r.json["message_id"])
    assert m.body == "Hi there\nx" and m.body_html == "Hi <b>there</b><div><i>x</i></div>"
    page = client.get(f"/thread/{m.thread_id}").get_data(as_text=True)
    assert '<div class="msg-body rich">Hi <b>there</b><div><i>x</i></div></div>' in page and "onerror" not in page


def test_draft_keeps_body_html(client, dbs):
    r = client.post("/api/drafts", json={"to": "pat@example.com", "subject": "D", "body_html": "<u>under</u>"})
    d = client.get(f"/api/drafts/{r.json['id']}").json
    assert d["body"] == "under" and d["body_html"] == "<u>under</u>"


def _thread_with_attachment(dbs) -> tuple[int, Message, list[Attachment]]:
    for a in dbs.scalars(select(Attachment).order_by(Attachment.id)):
        m = dbs.get(Message, a.message_id)
        if not m.is_draft and not m.is_trashed and not m.is_spam:
            atts = list(dbs.scalars(select(Attachment).where(Attachment.message_id == m.id).order_by(Attachment.id)))
            return m.thread_id, m, atts
    raise AssertionError("no attachment in the seed")


def test_forward_carries_the_attachments_or_the_ones_kept(client, dbs):
    tid, src, atts = _thread_with_attachment(dbs)
    r = client.post("/api/send", json={"mode": "forward", "thread_id": tid, "in_reply_to_id": src.id,
                                       "to": "pat@example.com", "body": "FYI"})
    names = lambda mid: [a.filename for a in dbs.scalars(select(Attachment).where(Attachment.message_id == mid)
                                                         .order_by(Attachment.id))]
    dbs.expire_all()
    assert names(r.json["message_id"]) == [a.filename for a in atts]
    r = client.post("/api/send", json={"mode": "forward", "thread_id": tid, "in_reply_to_id": src.id,
                                       "to": "pat@example.com", "body": "none", "forward_attachment_ids": []})
    dbs.expire_all()
    assert names(r.json["message_id"]) == []
    bad = client.post("/api/send", json={"mode": "forward", "thread_id": tid, "in_reply_to_id": src.id,
                                         "to": "pat@example.com", "forward_attachment_ids": [999999]})
    assert 400 <= bad.status_code < 500
    bad = client.post("/api/send", json={"mode": "forward", "thread_id": tid, "in_reply_to_id": src.id,
                                         "to": "pat@example.com", "forward_attachment_ids": "all"})
    assert 400 <= bad.status_code < 500


def test_forward_page_offers_the_attachments_as_chips(client, dbs):
    tid, src, atts = _thread_with_attachment(dbs)
    page = client.get(f"/thread/{tid}").get_data(as_text=True)
    assert f'"attachment_id": {atts[0].id}' in page.replace("&#34;", '"') or f'"attachment_id":{atts[0].id}' in page


def test_reply_formatted_with_a_plain_thread_is_unchanged(client, dbs):
    tid = inbox_thread_with(dbs, is_sent=False)
    r = client.post("/api/send", json={"mode": "reply", "thread_id": tid, "to": "pat@example.com",
                                       "body": "plain", "body_html": "plain<div>line</div>"})
    dbs.expire_all()
    m = dbs.get(Message, r.json["message_id"])
    assert m.body == "plain\nline" and m.body_html == ""
