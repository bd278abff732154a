"""Issue 46, second part, in a real Chromium, asserted on the world's database: Gmail's selection and keyboard
model (Shift + click ranges, `x` / `j` / `k`, `*` then a / n / r / u, `m` mute, `z` undo, `]` archive and open the
older conversation, the conversation's Newer / Older), and the reply box's Bcc and Pop out reply."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from apps.mail.models import Message, Thread
from tests.apps.mail.test_browser import browser_page  # noqa: F401 (the fixture)
from tests.apps.mail.test_browser_selection import shortcuts_on, thread_msgs

pytestmark = pytest.mark.slow


def row_ids(page, n: int) -> list[int]:
    rows = page.get_by_role("row")
    return [int(rows.nth(i).get_attribute("data-id")) for i in range(n)]


def ticked(page) -> list[int]:
    return [int(r.get_attribute("data-id")) for r in page.locator("tr.row.selected").all()]


def test_shift_click_ticks_a_range_and_a_key_acts_on_it(browser_page, dbs):
    shortcuts_on(dbs)
    page = browser_page
    page.goto(page.base + "/inbox")
    ids = row_ids(page, 6)
    rows = page.get_by_role("row")
    rows.nth(1).get_by_role("checkbox", name="Select").click()
    rows.nth(4).get_by_role("checkbox", name="Select").click(modifiers=["Shift"])
    assert ticked(page) == ids[1:5]
    # Shift + un-ticking row 3 un-ticks from the anchor (row 4, the last ticked) to it.
    rows.nth(3).get_by_role("checkbox", name="Select").click(modifiers=["Shift"])
    assert ticked(page) == ids[1:3]
    page.keyboard.press("*")
    page.keyboard.press("n")
    assert ticked(page) == []
    page.keyboard.press("*")
    page.keyboard.press("a")
    assert len(ticked(page)) == page.locator("tr.row").count()
    page.keyboard.press("*")
    page.keyboard.press("u")
    unread = [int(r.get_attribute("data-id")) for r in page.locator("tr.row.unread").all()]
    assert ticked(page) == unread
    page.keyboard.press("*")
    page.keyboard.press("n")
    rows.nth(1).get_by_role("checkbox", name="Select").click()
    rows.nth(3).get_by_role("checkbox", name="Select").click(modifiers=["Shift"])
    page.keyboard.press("e")
    page.get_by_role("status").get_by_text("3 conversations archived.").wait_for()
    assert not any(m.in_inbox for m in thread_msgs(dbs, ids[1:4]))
    assert any(m.in_inbox for m in thread_msgs(dbs, ids[4:5]))


def test_x_j_m_mute_and_z_undoes_it(browser_page, dbs):
    shortcuts_on(dbs)
    page = browser_page
    page.goto(page.base + "/inbox")
    ids = row_ids(page, 3)
    page.keyboard.press("j")
    page.keyboard.press("j")
    page.keyboard.press("x")
    assert ticked(page) == [ids[1]]
    page.keyboard.press("m")
    page.get_by_role("status").get_by_text("Conversation muted.").wait_for()
    dbs.expire_all()
    assert dbs.get(Thread, ids[1]).is_muted and not any(m.in_inbox for m in thread_msgs(dbs, [ids[1]]))
    page.keyboard.press("z")
    page.get_by_role("status").get_by_text(re.compile("undone", re.I)).wait_for()
    dbs.expire_all()
    assert not dbs.get(Thread, ids[1]).is_muted and any(m.in_inbox for m in thread_msgs(dbs, [ids[1]]))
    # Back from a conversation, the cursor is on its row (Gmail's focus rules).
    page.goto(page.base + "/inbox")
    page.get_by_role("row").nth(2).click()
    page.get_by_role("link", name="Back to Inbox").click()
    assert int(page.locator("tr.row.kb-cursor").get_attribute("data-id")) == row_ids(page, 3)[2]


def test_bracket_archives_and_opens_the_older_conversation(browser_page, dbs):
    shortcuts_on(dbs)
    page = browser_page
    page.goto(page.base + "/inbox")
    ids = row_ids(page, 3)
    page.get_by_role("row").nth(1).click()
    bar = page.get_by_role("toolbar", name="Conversation actions")
    assert bar.get_by_role("link", name="Older").get_attribute("href").startswith(f"/thread/{ids[2]}")
    assert bar.get_by_role("link", name="Newer").get_attribute("href").startswith(f"/thread/{ids[0]}")
    page.keyboard.press("]")
    page.wait_for_url(re.compile(rf"/thread/{ids[2]}\b"))
    assert not any(m.in_inbox for m in thread_msgs(dbs, [ids[1]]))


def test_reply_with_bcc_and_a_popped_out_reply_keep_their_recipients(browser_page, dbs):
    page = browser_page
    tid = dbs.scalars(select(Message.thread_id).where(Message.in_inbox.is_(True), Message.is_trashed.is_(False),
                                                      Message.is_spam.is_(False), Message.is_draft.is_(False))
                      .order_by(Message.sent_at.desc())).first()
    before = {m.id for m in thread_msgs(dbs, [tid])}
    page.goto(page.base + f"/thread/{tid}")
    page.locator("#reply-btn").click()
    page.get_by_role("button", name="Add Bcc recipients").click()
    page.get_by_role("textbox", name="Bcc").fill("quiet.watcher@example.com")
    page.get_by_role("textbox", name="Message Body").first.type("Bcc line. ")
    page.locator("#reply-send").click()
    page.get_by_role("status").get_by_text("Message sent").wait_for()
    sent = [m for m in thread_msgs(dbs, [tid]) if m.id not in before]
    assert len(sent) == 1 and sent[0].bcc == ["quiet.watcher@example.com"] and "Bcc line." in sent[0].body
    before |= {sent[0].id}
    # Pop out reply: what was typed and the Cc go to the compose window; Send there replies in the conversation.
    page.goto(page.base + f"/thread/{tid}")
    page.locator("#reply-btn").click()
    page.get_by_role("button", name="Add Cc recipients").click()
    page.get_by_role("textbox", name="Cc").fill("second.reader@example.com")
    page.locator("#reply-body").type("Popped out text. ")
    page.get_by_role("button", name="Pop out reply").click()
    dialog = page.locator("#compose")
    assert dialog.is_visible() and "Popped out text." in dialog.locator("#compose-body").inner_text()
    assert page.locator("#inline-reply").is_hidden()
    dialog.get_by_role("button", name="Send", exact=True).click()
    page.get_by_role("status").get_by_text("Message sent").wait_for()
    sent = [m for m in thread_msgs(dbs, [tid]) if m.id not in before]
    assert len(sent) == 1 and sent[0].cc == ["second.reader@example.com"] and "Popped out text." in sent[0].body
    assert not sent[0].is_draft and sent[0].subject.lower().startswith("re:")
    assert dbs.scalar(select(Message.id).where(Message.is_draft.is_(True), Message.body.contains("Popped out"))) is None
