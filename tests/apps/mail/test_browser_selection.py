"""Issue 46 in a real Chromium (mouse and keyboard, as a daily user drives Gmail), asserted on the world's database:
a ticked row opens no menu (the trigger selectors are exact); with rows ticked by the mouse, Gmail's shortcuts act
on the selection (the focused checkbox does not swallow them); Advanced search's Size row writes larger: /
smaller: into the query, whose results are the messages of that size."""

from __future__ import annotations

import re
from urllib.parse import unquote_plus

import pytest
from sqlalchemy import select

from apps.mail import queries as Q
from apps.mail.models import Account, Label, Message, MessageLabel
from apps.mail.search import message_sizes
from tests.apps.mail.conftest import NOW
from tests.apps.mail.test_browser import browser_page  # noqa: F401 (the fixture)

pytestmark = pytest.mark.slow

MENUS = ("#labels-menu", "#move-menu", "#snooze-menu")


def open_menus(page) -> list[str]:
    return [m for m in MENUS if page.locator(m).count() and page.locator(m).is_visible()]


def thread_msgs(dbs, tids):
    dbs.expire_all()
    return list(dbs.scalars(select(Message).where(Message.thread_id.in_(tids))))


def shortcuts_on(dbs):
    dbs.get(Account, 1).keyboard_shortcuts = True
    dbs.commit()


def test_ticking_rows_opens_no_menu_and_the_labels_button_labels_them(browser_page, dbs):
    page = browser_page
    page.goto(page.base + "/inbox")
    rows = page.get_by_role("row")
    ids = [int(rows.nth(i).get_attribute("data-id")) for i in (1, 2)]
    for i in (1, 2):
        rows.nth(i).get_by_role("checkbox", name="Select").click()  # the mouse, as a user ticks
        assert open_menus(page) == [], "ticking a row opened a menu"
    assert rows.nth(1).get_by_role("checkbox", name="Select").is_checked()
    rows.nth(1).locator(".c-check").click(position={"x": 2, "y": 2})  # the cell around the box toggles it too
    assert open_menus(page) == [] and not rows.nth(1).get_by_role("checkbox", name="Select").is_checked()
    rows.nth(1).get_by_role("checkbox", name="Select").click()
    bar = page.get_by_role("toolbar", name="Conversation actions")
    bar.get_by_role("button", name="Labels", exact=True).click()
    assert open_menus(page) == ["#labels-menu"]
    page.get_by_role("menuitemcheckbox", name="Travel", exact=True).click()
    page.get_by_role("menuitem", name="Apply", exact=True).click()
    page.get_by_role("status").get_by_text('added to "Travel"').wait_for()
    travel = dbs.scalars(select(Label.id).where(Label.name == "Travel")).one()
    labelled = {m.thread_id for m in thread_msgs(dbs, ids)
                if dbs.scalar(select(MessageLabel.id).where(MessageLabel.message_id == m.id,
                                                             MessageLabel.label_id == travel))}
    assert labelled == set(ids)
    # In a conversation, a click on the toolbar's empty space opens nothing either.
    page.goto(page.base + f"/thread/{ids[0]}")
    page.get_by_role("toolbar", name="Conversation actions").click(position={"x": 600, "y": 10})
    assert open_menus(page) == []


def test_shortcuts_act_on_rows_ticked_with_the_mouse(browser_page, dbs):
    shortcuts_on(dbs)
    page = browser_page
    page.goto(page.base + "/inbox")
    rows = page.get_by_role("row")
    picked = [int(rows.nth(i).get_attribute("data-id")) for i in (0, 1)]
    for i in (0, 1):
        rows.nth(i).get_by_role("checkbox", name="Select").click()
    page.keyboard.press("e")  # focus is on the second checkbox
    page.get_by_role("status").get_by_text("2 conversations archived.").wait_for()
    assert not any(m.in_inbox for m in thread_msgs(dbs, picked))

    page.goto(page.base + "/inbox")
    rows = page.get_by_role("row")
    picked = [int(rows.nth(i).get_attribute("data-id")) for i in (0, 1)]
    for i in (0, 1):
        rows.nth(i).get_by_role("checkbox", name="Select").click()
    page.keyboard.press("#")
    page.get_by_role("status").get_by_text("2 conversations moved to Trash.").wait_for()
    assert all(m.is_trashed for m in thread_msgs(dbs, picked))

    page.goto(page.base + "/inbox")
    row = page.get_by_role("row").first
    tid = int(row.get_attribute("data-id"))
    row.get_by_role("checkbox", name="Select").click()
    page.keyboard.press("l")  # Label as: the selection's menu
    assert open_menus(page) == ["#labels-menu"]
    page.get_by_role("menuitemcheckbox", name="Travel", exact=True).click()
    page.get_by_role("menuitem", name="Apply", exact=True).click()
    page.get_by_role("status").get_by_text('added to "Travel"').wait_for()
    dbs.expire_all()
    assert "Travel" in {lab for lab in dbs.scalars(
        select(Label.name).join(MessageLabel, MessageLabel.label_id == Label.id)
        .join(Message, Message.id == MessageLabel.message_id).where(Message.thread_id == tid))}


def test_shortcuts_still_type_in_text_fields(browser_page, dbs):
    shortcuts_on(dbs)
    page = browser_page
    page.goto(page.base + "/inbox")
    before = {m.id: m.in_inbox for m in thread_msgs(dbs, [int(page.get_by_role("row").first.get_attribute("data-id"))])}
    page.get_by_role("row").first.get_by_role("checkbox", name="Select").click()
    box = page.get_by_role("searchbox", name="Search mail")
    box.click()
    box.press_sequentially("e#")
    assert box.input_value() == "e#"
    dbs.expire_all()
    assert {i: dbs.get(Message, i).in_inbox for i in before} == before


def test_advanced_search_size_writes_the_operator_and_finds_the_big_messages(browser_page, dbs):
    page = browser_page
    page.goto(page.base + "/inbox")
    page.get_by_role("button", name="Advanced search options").click()
    panel = page.get_by_role("dialog", name="Advanced search")
    assert panel.get_by_role("button", name=re.compile(r"^Size: greater than")).is_visible()
    panel.get_by_role("textbox", name="Size value").fill("2")
    panel.get_by_role("button", name="Search", exact=True).click()
    page.wait_for_url("**/search?q=*")
    assert unquote_plus(page.url.split("q=", 1)[1]) == "larger:2M"
    sizes = message_sizes(dbs)
    big = {t for i, t in dbs.execute(select(Message.id, Message.thread_id).where(*Q.scope_conds("default", NOW)))
           if sizes[i] > 2 * 1024 * 1024}
    shown = {int(r.get_attribute("data-id")) for r in page.get_by_role("row").all()}
    assert len(big) >= 5 and shown == big

    page.get_by_role("button", name="Advanced search options").click()
    panel.get_by_role("button", name=re.compile(r"^Size: ")).click()
    panel.get_by_role("option", name="less than").click()
    panel.get_by_role("button", name=re.compile(r"^Size unit: ")).click()
    panel.get_by_role("option", name="KB").click()
    panel.get_by_role("textbox", name="Size value").fill("1.5")
    panel.get_by_role("textbox", name="Size value").press("Enter")
    page.wait_for_url(re.compile(r".*smaller%3A1\.5K.*"))
    small = {t for i, t in dbs.execute(select(Message.id, Message.thread_id).where(*Q.scope_conds("default", NOW)))
             if sizes[i] < 1536}
    shown = {int(r.get_attribute("data-id")) for r in page.get_by_role("row").all()}
    assert small and shown <= small

    page.get_by_role("button", name="Advanced search options").click()
    panel.get_by_role("textbox", name="Size value").fill("big")
    panel.get_by_role("button", name="Search", exact=True).click()
    page.get_by_role("alertdialog").get_by_text('"big" is not a size').wait_for()
