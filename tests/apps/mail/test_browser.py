"""The clone in a real Chromium at 1280x720, driven by the accessible names the README documents."""

from __future__ import annotations

import logging
import re
import threading

import pytest
from sqlalchemy import select

from agent_harness.screenshots.mail import CHROMIUM_ARGS
from apps._shared.session import WORLD_COOKIE, sign_world
from apps.mail.models import Contact, Message, Thread
from gym_core.browser import chromium_executable

pytestmark = pytest.mark.slow


@pytest.fixture
def browser_page(app):
    sync_api = pytest.importorskip("playwright.sync_api")
    from werkzeug.serving import make_server

    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    errors: list[str] = []
    with sync_api.sync_playwright() as p:
        try:
            browser = p.chromium.launch(executable_path=chromium_executable(p.chromium.executable_path), args=CHROMIUM_ARGS)
        except Exception as e:  # no browser on this machine
            server.shutdown()
            pytest.fail(f"no Chromium: {e}")
        ctx = browser.new_context(viewport={"width": 1280, "height": 720})
        ctx.add_cookies([{"name": WORLD_COOKIE, "value": sign_world(app, app.config["TEST_WORLD"]), "url": base,
                          "httpOnly": True}])
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.base = base
        yield page
        browser.close()
    server.shutdown()
    assert errors == []


def test_fonts_and_icons_load(browser_page):
    page = browser_page
    page.goto(page.base + "/inbox")
    page.evaluate("document.fonts.ready.then(() => true)")
    assert page.evaluate("document.fonts.check('500 14px \"Google Sans\"')")
    assert page.evaluate("document.fonts.check('20px \"Material Symbols Outlined\"')")
    # A ligature icon is one 20px glyph, not the word "inbox" in text.
    width = page.evaluate("document.querySelector('.nav-item .ms').getBoundingClientRect().width")
    assert 18 <= width <= 22


def test_star_in_list_updates_in_place_without_reload(browser_page, dbs):
    page = browser_page
    page.goto(page.base + "/inbox")
    page.evaluate("window.__noReload = 1")
    row = page.get_by_role("row").first
    tid = int(row.get_attribute("data-id"))
    star = row.get_by_role("button", name="Star", exact=True)
    if star.count() == 0:  # already starred: unstar first
        row.get_by_role("button", name="Unstar", exact=True).click()
        page.wait_for_function("document.querySelector('.row .star-btn').getAttribute('aria-pressed') === 'false'")
    row.get_by_role("button", name="Star", exact=True).click()
    row.get_by_role("button", name="Unstar", exact=True).wait_for()
    page.wait_for_load_state("networkidle")
    assert page.evaluate("window.__noReload") == 1
    dbs.expire_all()
    assert any(m.is_starred for m in dbs.scalars(select(Message).where(Message.thread_id == tid)))


def test_compose_and_send_through_the_ui(browser_page, dbs):
    page = browser_page
    contact = dbs.scalars(select(Contact).order_by(Contact.id)).first()
    page.goto(page.base + "/inbox")
    page.get_by_role("button", name="Compose").click()
    dialog = page.get_by_role("dialog", name="New Message")
    dialog.get_by_role("textbox", name="To").fill(contact.email)
    dialog.get_by_role("textbox", name="Subject").fill("Quarterly numbers")
    dialog.get_by_role("textbox", name="Message Body").fill("Hi,\n\nAttached are the numbers.")
    dialog.get_by_role("button", name="Send", exact=True).click()
    page.get_by_role("status").get_by_text("Message sent").wait_for()
    dbs.expire_all()
    m = dbs.scalars(select(Message).where(Message.subject == "Quarterly numbers")).one()
    assert m.to == [contact.email.lower()] and m.body == "Hi,\n\nAttached are the numbers." and m.is_sent
    page.get_by_role("link", name="View message").click()
    page.get_by_role("heading", name="Quarterly numbers").wait_for()


def test_compose_suggestions_pick_a_contact(browser_page, dbs):
    page = browser_page
    contact = dbs.scalars(select(Contact).order_by(Contact.id)).first()
    page.goto(page.base + "/inbox")
    page.get_by_role("button", name="Compose").click()
    to = page.get_by_role("textbox", name="To")
    to.press_sequentially(contact.name.split()[0][:4])
    page.get_by_role("option", name=re.compile(re.escape(contact.email))).click()
    page.get_by_role("dialog", name="New Message").get_by_role("button", name=f"Remove {contact.email.lower()}").wait_for()
    assert to.input_value() == ""


def test_open_thread_reply_and_archive(browser_page, dbs):
    page = browser_page
    page.goto(page.base + "/inbox")
    row = page.get_by_role("row").nth(1)
    tid = int(row.get_attribute("data-id"))
    row.click()
    subject = dbs.get(Thread, tid).subject
    page.get_by_role("heading", name=subject).wait_for()
    page.get_by_role("button", name="Reply", exact=True).click()
    page.get_by_role("textbox", name="Message Body").fill("Thanks, will do.")
    page.get_by_role("button", name="Send", exact=True).click()
    page.get_by_role("status").get_by_text("Message sent").wait_for()
    dbs.expire_all()
    reply = dbs.scalars(select(Message).where(Message.thread_id == tid).order_by(Message.id.desc())).first()
    assert reply.body == "Thanks, will do." and reply.is_sent and reply.subject.startswith("Re:")
    assert page.get_by_role("paragraph").filter(has_text="Thanks, will do.").is_visible()
    page.get_by_role("button", name="Archive").click()
    page.get_by_role("status").get_by_text("Conversation archived.").wait_for()
    assert page.url.endswith("/inbox")
    dbs.expire_all()
    assert not any(m.in_inbox for m in dbs.scalars(select(Message).where(Message.thread_id == tid)))
    page.get_by_role("button", name="Undo").click()
    page.get_by_role("status").get_by_text("Action undone.").wait_for()
    dbs.expire_all()
    assert any(m.in_inbox for m in dbs.scalars(select(Message).where(Message.thread_id == tid)))


def test_select_rows_and_delete(browser_page, dbs):
    page = browser_page
    page.goto(page.base + "/inbox")
    rows = page.get_by_role("row")
    ids = [int(rows.nth(i).get_attribute("data-id")) for i in (2, 3)]
    for i in (2, 3):
        rows.nth(i).get_by_role("checkbox", name="Select").check()
    page.get_by_role("toolbar", name="Conversation actions").get_by_role("button", name="Delete", exact=True).click()
    page.get_by_role("status").get_by_text("2 conversations moved to Trash.").wait_for()
    dbs.expire_all()
    assert all(m.is_trashed for m in dbs.scalars(select(Message).where(Message.thread_id.in_(ids))))


def test_search_box(browser_page):
    page = browser_page
    page.goto(page.base + "/inbox")
    box = page.get_by_role("searchbox", name="Search mail")
    box.fill("invoice")
    box.press("Enter")
    page.wait_for_url("**/search?q=invoice")
    assert page.get_by_role("row").count() > 0


def test_rail_more_toggle_and_hamburger(browser_page):
    page = browser_page
    page.goto(page.base + "/inbox")
    page.get_by_role("button", name="More", exact=True).click()
    page.get_by_role("link", name="Trash").click()
    page.wait_for_url("**/trash")
    page.get_by_role("button", name="Main menu").click()
    assert page.evaluate("document.getElementById('app').classList.contains('rail-collapsed')")


def test_compose_saves_a_draft_on_close_and_reopens_it(browser_page, dbs):
    page = browser_page
    page.goto(page.base + "/inbox")
    page.get_by_role("button", name="Compose").click()
    dialog = page.get_by_role("dialog", name="New Message")
    dialog.get_by_role("textbox", name="To", exact=True).fill("ana@example.com")
    dialog.get_by_role("textbox", name="Subject").fill("Half-written")
    dialog.get_by_role("textbox", name="Message Body").fill("To be continued")
    dialog.get_by_role("button", name="Save & close", exact=True).click()
    page.wait_for_function("document.getElementById('compose').hidden")
    dbs.expire_all()
    d = dbs.scalars(select(Message).where(Message.subject == "Half-written")).one()
    assert d.is_draft and d.to == ["ana@example.com"] and d.body == "To be continued"
    page.get_by_role("link", name="Drafts").click()
    page.get_by_role("row", name="Half-written").click()
    dialog.get_by_role("textbox", name="Subject").wait_for()
    assert dialog.get_by_role("textbox", name="Subject").input_value() == "Half-written"
    dialog.get_by_role("button", name="Send", exact=True).click()
    page.get_by_role("status").get_by_text("Message sent").wait_for()
    dbs.expire_all()
    sent = dbs.get(Message, d.id)
    assert sent.is_sent and not sent.is_draft


def test_snooze_menu_and_labels_menu_in_a_thread(browser_page, dbs):
    page = browser_page
    page.goto(page.base + "/inbox")
    row = page.get_by_role("row").nth(3)
    tid = int(row.get_attribute("data-id"))
    row.click()
    bar = page.get_by_role("toolbar", name="Conversation actions")
    bar.get_by_role("button", name="Labels", exact=True).click()
    page.get_by_role("menuitemcheckbox", name="Travel", exact=True).click()
    page.get_by_role("menuitem", name="Apply", exact=True).click()
    page.get_by_role("status").get_by_text('Conversation added to "Travel".').wait_for()
    bar.get_by_role("button", name="Snooze", exact=True).click()
    page.get_by_role("menuitem", name="Pick date & time").click()
    picker = page.get_by_role("dialog", name="Pick date & time")
    picker.get_by_role("button", name="Friday, March 20, 2026", exact=True).click()
    picker.get_by_role("textbox", name="Time", exact=True).fill("2:30 PM")
    picker.get_by_role("button", name="Save", exact=True).click()
    page.wait_for_url(re.compile(r"^[^?]*/inbox$"))  # the list (the glob "**/inbox" matched the thread's "?back=/inbox" at once)
    dbs.expire_all()
    ms = [m for m in dbs.scalars(select(Message).where(Message.thread_id == tid)) if not m.is_trashed]
    assert all(str(m.snoozed_until) == "2026-03-20 14:30:00" for m in ms)


def test_schedule_send_from_compose(browser_page, dbs):
    page = browser_page
    page.goto(page.base + "/inbox")
    page.get_by_role("button", name="Compose").click()
    dialog = page.get_by_role("dialog", name="New Message")
    dialog.get_by_role("textbox", name="To", exact=True).fill("ana@example.com")
    dialog.get_by_role("textbox", name="To", exact=True).press("Enter")
    dialog.get_by_role("textbox", name="Subject").fill("Next week")
    page.get_by_role("button", name="More send options").click()
    page.get_by_role("menuitem", name="Schedule send").click()
    page.get_by_role("dialog", name="Schedule send").get_by_role("button", name="Tomorrow morning").click()
    page.get_by_role("status").get_by_text("Send scheduled for").wait_for()
    dbs.expire_all()
    m = dbs.scalars(select(Message).where(Message.subject == "Next week")).one()
    assert str(m.scheduled_at) == "2026-03-13 08:00:00" and not m.is_sent and not m.is_draft


def test_settings_signature_and_label_dialog(browser_page, dbs):
    from apps.mail.models import Account, Label

    page = browser_page
    page.goto(page.base + "/inbox")
    page.get_by_role("button", name="Settings", exact=True).click()
    page.get_by_role("link", name="See all settings").click()
    page.get_by_role("textbox", name="Signature", exact=True).fill("Cheers,\nM")
    page.get_by_role("button", name="Save Changes").click()
    page.get_by_role("status").get_by_text("Your preferences have been saved.").wait_for()
    dbs.expire_all()
    acct = dbs.get(Account, 1)
    assert acct.signature == "Cheers,\nM" and acct.vacation_start is None and acct.page_size == 50
    page.get_by_role("button", name="Create new label", exact=True).click()
    page.get_by_role("textbox", name="Label name").fill("Conferences")
    page.get_by_role("checkbox", name="Nest label under:").check()
    page.get_by_role("button", name="Parent label").click()
    page.get_by_role("option", name="Work", exact=True).click()
    page.get_by_role("button", name="Create", exact=True).click()
    page.get_by_role("status").get_by_text('Label "Conferences" created.').wait_for()
    dbs.expire_all()
    lab = dbs.scalars(select(Label).where(Label.name == "Conferences")).one()
    assert dbs.get(Label, lab.parent_id).name == "Work"


def test_compose_formatting_bar_and_ctrl_b(browser_page, dbs):
    """The body is a rich editor: typing gives the textarea's text; Ctrl+B and the bar's buttons format it."""
    page = browser_page
    page.goto(page.base + "/inbox")
    page.get_by_role("button", name="Compose").click()
    dialog = page.get_by_role("dialog", name="New Message")
    bar = dialog.get_by_role("toolbar", name="Formatting options")
    assert bar.is_hidden()
    dialog.get_by_role("button", name="Formatting options").click()
    assert bar.is_visible()
    for name in ["Undo", "Redo", "Font", "Size", "Bold", "Italic", "Underline", "Text colour", "Align", "Numbered list",
                 "Bulleted list", "Indent less", "Indent more", "Quote", "Strikethrough", "Remove formatting"]:
        assert bar.get_by_role("button", name=name, exact=True).count() == 1, name
    dialog.get_by_role("textbox", name="To").fill("pat@example.com")
    dialog.get_by_role("textbox", name="Subject").fill("Formatted")
    body = dialog.get_by_role("textbox", name="Message Body")
    body.click()
    page.keyboard.press("Control+a")
    page.keyboard.type("Hi,\n\nThe total is ")
    page.keyboard.press("Control+b")
    page.keyboard.type("$40")
    page.keyboard.press("Control+b")
    page.keyboard.type(" and ")
    bar.get_by_role("button", name="Italic", exact=True).click()
    page.keyboard.type("due")
    bar.get_by_role("button", name="Italic", exact=True).click()
    page.keyboard.type(".\nThanks")
    dialog.get_by_role("button", name="Send", exact=True).click()
    page.get_by_role("status").get_by_text("Message sent").wait_for()
    dbs.expire_all()
    m = dbs.scalars(select(Message).where(Message.subject == "Formatted")).one()
    assert m.body == "Hi,\n\nThe total is $40 and due.\nThanks"
    assert "<b>$40</b>" in m.body_html and "<i>due</i>" in m.body_html
    page.get_by_role("link", name="View message").click()
    page.locator(".msg-body.rich b", has_text="$40").wait_for()


def test_forward_shows_the_attachments_as_removable_chips(browser_page, dbs):
    from apps.mail.models import Attachment

    page = browser_page
    a = next(a for a in dbs.scalars(select(Attachment).order_by(Attachment.id))
             if not dbs.get(Message, a.message_id).is_draft and not dbs.get(Message, a.message_id).is_trashed
             and not dbs.get(Message, a.message_id).is_spam)
    src = dbs.get(Message, a.message_id)
    names = [x.filename for x in dbs.scalars(select(Attachment).where(Attachment.message_id == src.id).order_by(Attachment.id))]
    page.goto(page.base + f"/thread/{src.thread_id}")
    page.locator(f'.msg[data-mid="{src.id}"] .msg-more').click()
    page.get_by_role("menuitem", name="Forward").click()
    form = page.get_by_role("form", name="Forward")
    for n in names:
        form.get_by_role("listitem", name=f"Attachment {n}").wait_for()
    if len(names) > 1:
        form.get_by_role("button", name=f"Remove attachment {names[0]}").click()
    form.get_by_role("textbox", name="To", exact=True).fill("pat@example.com")
    page.keyboard.press("Enter")
    form.get_by_role("textbox", name="Message Body").fill("FYI")
    form.get_by_role("button", name="Send", exact=True).click()
    page.get_by_role("status").get_by_text("Message sent").wait_for()
    dbs.expire_all()
    fwd = dbs.scalars(select(Message).where(Message.thread_id == src.thread_id).order_by(Message.id.desc())).first()
    got = [x.filename for x in dbs.scalars(select(Attachment).where(Attachment.message_id == fwd.id).order_by(Attachment.id))]
    assert got == (names[1:] if len(names) > 1 else names)
