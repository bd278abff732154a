"""Screenshots of Inkbox at 1280x720: `python -m agent_harness.screenshots.mail [--out docs/screenshots/mail]`.

Serves the app on a free port with a throwaway UIGYM_HOME (seed 0, the default now), opens it in
Chromium with Playwright, checks that the fonts and the icon font really loaded, and saves PNGs of
the inbox, a thread, compose (suggestions, schedule send, date picker), search results with chips, the
advanced search and filter panel, menus (snooze, labels), Drafts, Snoozed, a label, Settings (General, Labels,
Filters) and Contacts (list, a contact, the edit form).
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
import threading
from pathlib import Path

from werkzeug.serving import make_server

from gym_core.browser import chromium_executable

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]




def pick_threads(app) -> dict[str, int]:
    """Threads worth showing: a long conversation, one with attachments, one invite."""
    from sqlalchemy import func, select

    from apps.mail.models import Attachment, Contact, Invite, Message

    store = app.extensions["uigym_worlds"]
    eng = store.engine("default")
    with eng.connect() as conn:
        long_tid = conn.execute(
            select(Message.thread_id).where(Message.is_trashed.is_(False), Message.is_spam.is_(False))
            .group_by(Message.thread_id).having(func.count() >= 4)
            .order_by(func.max(Message.sent_at).desc()).limit(1)).scalar()
        att_tid = conn.execute(select(Message.thread_id).join(Attachment, Attachment.message_id == Message.id)
                               .where(Message.is_trashed.is_(False), Message.is_spam.is_(False),
                                      Message.in_reply_to_id.is_(None), Attachment.mime == "application/pdf",
                                      Message.thread_id.in_(select(Message.thread_id).group_by(Message.thread_id)
                                                            .having(func.count() == 1)))
                               .order_by(Message.sent_at.desc()).limit(1)).scalar()
        single = select(Message.thread_id).group_by(Message.thread_id).having(func.count() == 1)
        inv_q = select(Message.thread_id).join(Invite, Invite.message_id == Message.id).where(
            Message.is_trashed.is_(False), Message.is_spam.is_(False)).order_by(Message.sent_at.desc()).limit(1)
        # An invitation on its own, so the invite card (Going? Yes / Maybe / No) is open in the shot.
        inv_tid = conn.execute(inv_q.where(Message.thread_id.in_(single))).scalar() or conn.execute(inv_q).scalar()
        contact = conn.execute(select(Message.from_name).where(Message.is_sent.is_(False), Message.is_spam.is_(False),
                                                               Message.from_email.in_(select(Contact.email)))
                               .order_by(Message.sent_at.desc()).limit(1)).scalar()
        contact_id = conn.execute(select(Contact.id).where(Contact.has_photo.is_(True), Contact.relation == "client",
                                                           Contact.notes != "").order_by(Contact.id).limit(1)).scalar() or 1
        # Reply all with people on Cc: the newest received message with a Cc that is its conversation's last.
        cc_tid = None
        for tid, mid in conn.execute(select(Message.thread_id, Message.id).where(
                Message.is_sent.is_(False), Message.cc != "[]", Message.in_inbox.is_(True), Message.is_draft.is_(False))
                .order_by(Message.sent_at.desc())):
            last = conn.execute(select(Message.id).where(Message.thread_id == tid).order_by(Message.sent_at.desc())
                                .limit(1)).scalar()
            if last == mid:
                cc_tid = tid
                break
    return {"long": long_tid, "attachment": att_tid, "invite": inv_tid, "contact": contact, "contact_id": contact_id,
            "cc": cc_tid}


def feature_shots(page, base: str, picks: dict, shot, settle) -> None:
    """Round two (issue 17): attachments from My Files, Undo Send, Reply all with Cc, keyboard shortcuts."""
    page.goto(base + "/inbox")
    settle()
    page.get_by_role("button", name="Compose").click()
    page.get_by_role("textbox", name="To").fill("ana@example.com,")
    page.get_by_role("textbox", name="Subject").fill("Budget for Q2")
    page.get_by_role("textbox", name="Message Body").fill("Hi Ana,\n\nThe forecast and the timeline are attached.\n\nThanks!")
    page.get_by_role("button", name="Insert files from My Files").click()
    page.wait_for_selector("#files-list li")
    page.get_by_role("checkbox", name="Q2 Budget Forecast.xlsx").check()
    page.get_by_role("checkbox", name="Project Timeline.pdf").check()
    shot("insert-files")
    page.get_by_role("button", name="Insert", exact=True).click()
    page.wait_for_selector("#compose-atts .c-att >> nth=1")
    shot("compose-attachments")
    with page.expect_navigation():
        page.get_by_role("button", name="Send", exact=True).click()
    settle()
    page.wait_for_selector("#toast-actions button")
    shot("undo-send")
    with page.expect_navigation():
        page.locator("#toast-actions button", has_text="Undo").click()
    settle()
    page.wait_for_selector("#compose-atts .c-att")
    shot("undo-send-draft")
    with page.expect_navigation():
        page.get_by_role("button", name="Discard draft", exact=True).click()
    settle()
    if picks.get("cc"):
        page.goto(base + f"/thread/{picks['cc']}?back=/inbox")
        settle()
        page.get_by_role("button", name="Reply all", exact=True).click()
        page.get_by_role("textbox", name="Message Body").fill("Thanks all, the agenda is attached.")
        page.locator("#reply-insert-files").click()
        page.wait_for_selector("#files-list li")
        page.get_by_role("checkbox", name="Offsite Agenda.pdf").check()
        page.get_by_role("button", name="Insert", exact=True).click()
        page.wait_for_selector("#reply-atts .c-att")
        shot("reply-all-cc")
    page.goto(base + "/settings/general")
    settle()
    page.get_by_role("radio", name="Keyboard shortcuts on").check()
    with page.expect_navigation():
        page.get_by_role("button", name="Save Changes").click()
    settle()
    page.goto(base + "/inbox")
    settle()
    page.keyboard.press("j")
    page.keyboard.press("j")
    shot("shortcuts-cursor")
    page.keyboard.press("?")
    shot("shortcuts-help")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m agent_harness.screenshots.mail")
    ap.add_argument("--out", default=str(ROOT / "docs" / "screenshots" / "mail"))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--features-only", action="store_true", help="only the round-two feature shots")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import sync_playwright

    from apps.mail import create_app

    home = tempfile.mkdtemp(prefix="inkbox-shots-")
    app = create_app({"UIGYM_HOME": home, "GYM_TOKEN": "shots", "OPEN_DEFAULT_WORLD": True, "DEFAULT_SEED": args.seed})
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    with app.test_request_context():
        app.extensions["uigym_worlds"].engine("default")  # build the world before the browser asks
    picks = pick_threads(app)
    problems: list[str] = []

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable(p.chromium.executable_path), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.set_default_timeout(120_000)  # a busy machine (parallel browsers) can take well over 30 s per page
        page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None)
        page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
        page.on("requestfailed", lambda r: problems.append(f"request failed: {r.url}"))
        page.on("response", lambda r: problems.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None)

        def settle():
            try:
                page.wait_for_load_state("networkidle", timeout=60_000)
            except PlaywrightError:  # a busy machine: settle for "load" and a moment for the images
                page.wait_for_load_state("load")
                page.wait_for_timeout(2000)
            page.evaluate("document.fonts.ready.then(() => true)")

        def shot(name: str):
            settle()
            page.screenshot(path=str(out / f"{name}.png"))
            print(f"saved {out / name}.png")

        if args.features_only:
            feature_shots(page, base, picks, shot, settle)
            browser.close()
            server.shutdown()
            for msg in problems:
                print("PROBLEM:", msg, file=sys.stderr)
            return 1 if problems else 0
        page.goto(base + f"/thread/{picks['long']}?back=/inbox")
        settle()
        fonts = page.evaluate("""() => ({
            googleSans: document.fonts.check('500 14px "Google Sans"'),
            roboto: document.fonts.check('14px Roboto'),
            symbols: document.fonts.check('20px "Material Symbols Outlined"'),
            loaded: Array.from(document.fonts).filter(f => f.status === 'loaded').map(f => f.family + ' ' + f.weight),
            iconWidth: document.querySelector('.nav-item .ms').getBoundingClientRect().width,
        })""")
        print("fonts:", fonts)
        if not (fonts["googleSans"] and fonts["roboto"] and fonts["symbols"]):
            problems.append(f"fonts not loaded: {fonts}")
        if fonts["iconWidth"] > 24:
            problems.append(f"icons render as text (width {fonts['iconWidth']})")
        shot("thread")
        page.get_by_role("button", name="Reply", exact=True).click()
        page.get_by_role("textbox", name="Message Body").fill("Sounds great, see you then!")
        shot("thread-reply")
        page.goto(base + "/inbox")
        shot("inbox")
        page.locator(".row").nth(1).hover()
        page.locator(".row").nth(1).get_by_role("button", name="Snooze", exact=True).click()
        shot("snooze-menu")
        page.goto(base + "/inbox")
        settle()
        page.locator(".row .row-cb").nth(1).check()
        page.locator(".row .row-cb").nth(2).check()
        page.get_by_role("toolbar", name="Conversation actions").get_by_role("button", name="Labels", exact=True).click()
        shot("labels-menu")
        page.goto(base + f"/thread/{picks['attachment']}?back=/inbox")
        shot("thread-attachment")
        page.get_by_role("link", name="Preview attachment").first.click()
        shot("attachment-preview")
        page.goto(base + f"/thread/{picks['attachment']}?back=/inbox")
        page.get_by_role("button", name="Forward", exact=True).click()
        page.wait_for_selector("#reply-atts .c-att")
        shot("forward-attachments")
        page.goto(base + f"/thread/{picks['invite']}?back=/inbox")
        shot("thread-invite")

        page.goto(base + "/inbox")
        settle()
        page.get_by_role("button", name="Compose").click()
        page.get_by_role("textbox", name="To").fill("")
        page.get_by_role("textbox", name="To").type((picks["contact"] or "a").split(" ")[0][:3])
        page.wait_for_selector("#compose-to-list li")
        shot("compose-suggest")
        page.keyboard.press("Enter")
        page.get_by_role("textbox", name="Subject").fill("Lunch on Friday?")
        page.get_by_role("textbox", name="Message Body").fill("Hi,\n\nAre you free for lunch on Friday? There's a new place near the office I'd like to try.\n\nThanks!")
        shot("compose")
        page.get_by_role("button", name="Formatting options").click()
        page.get_by_role("textbox", name="Message Body").press("Control+End")
        page.keyboard.type("\nSee the ")
        page.keyboard.press("Control+b")
        page.keyboard.type("new menu")
        page.keyboard.press("Control+b")
        page.keyboard.type(" first.")
        shot("compose-formatting")
        page.get_by_role("button", name="Formatting options").click()
        page.get_by_role("button", name="More send options").click()
        page.get_by_role("menuitem", name="Schedule send").click()
        shot("schedule-send")
        page.get_by_role("button", name="Pick date & time").click()
        shot("date-picker")
        page.get_by_role("button", name="Cancel", exact=True).click()
        try:  # discarding a saved draft reloads the page: let that finish before leaving
            with page.expect_navigation(timeout=60_000):
                page.get_by_role("button", name="Discard draft", exact=True).click()
        except PlaywrightError:
            pass  # nothing was saved yet: no reload
        settle()
        page.goto(base + "/inbox")
        settle()
        # The "Draft discarded." toast is kept for the next page load; keep it out of the later shots.
        page.evaluate("sessionStorage.removeItem('inkbox.toast')")
        dismiss = page.get_by_role("button", name="Dismiss", exact=True)
        if dismiss.count() and dismiss.first.is_visible():
            dismiss.first.click()
            page.wait_for_timeout(300)

        page.get_by_role("button", name="Settings").click()
        shot("quick-settings")

        page.goto(base + "/search?q=invoice has:attachment")
        shot("search")
        page.get_by_role("button", name="Advanced search options").click()
        page.get_by_role("textbox", name="From", exact=True).fill("cloudpeak.io")
        shot("advanced-search")
        page.get_by_role("button", name="Create filter", exact=True).click()
        page.wait_for_timeout(300)
        shot("create-filter")
        for path, name in [("/sent", "sent"), ("/starred", "starred"), ("/inbox/promotions", "promotions"), ("/drafts", "drafts"),
                           ("/snoozed", "snoozed"), ("/label/Finance/Invoices", "label"), ("/settings/general", "settings"),
                           ("/settings/labels", "settings-labels"), ("/settings/filters", "settings-filters"),
                           ("/contacts", "contacts")]:
            page.goto(base + path)
            shot(name)
        page.goto(base + f"/contacts/{picks['contact_id']}")
        shot("contact")
        page.goto(base + f"/contacts/{picks['contact_id']}/edit")
        shot("contact-edit")
        feature_shots(page, base, picks, shot, settle)
        browser.close()

    server.shutdown()
    for msg in problems:
        print("PROBLEM:", msg, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
