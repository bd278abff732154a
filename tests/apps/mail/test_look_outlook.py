"""The mail clone's outlook look (issue #37; apps/mail/look_outlook.py, templates/looks/outlook/): its pages render
in Outlook's layout and names (app bar, ribbon, folder pane, message list beside the reading pane), every name
it gives is a control the surface declares, and the default look is unchanged. Flask test client, no browser."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from apps._shared.surface import Surface, SurfaceError
from apps.mail.look_outlook import LOOK
from apps.mail.models import Label, Message
from apps.mail.surface import CONTROLS, SURFACE
from tests.apps.mail.conftest import get_page, inbox_thread_with

ROOT = Path(__file__).resolve().parents[3]


_get = get_page


def _names(html: str, attr: str = "aria-label") -> set[str]:
    return set(re.findall(attr + r'="([^"]*)"', html))


# ------------------------------------------------------------------------------------------------ the names map
def test_every_name_is_a_declared_control_and_every_covered_template_exists():
    keys = {c.key for c in CONTROLS}
    assert set(LOOK.names) <= keys
    # The surface refuses a look naming a control it does not declare (so a stale key fails here, not at play).
    with pytest.raises(SurfaceError, match="does not declare"):
        Surface("mail", CONTROLS, looks=[type(LOOK)(id="bad", names={"button:No such control": {}})])
    assert SURFACE.looks["outlook"] is LOOK
    for template in LOOK.covers:
        assert (ROOT / "tasks" / "mail" / f"{template}.json").exists(), template


def test_a_covered_templates_steps_translate_to_this_looks_names():
    """Every step of a covered template's solution is rewritten into the look's terms; no default-only name
    the look renames survives."""
    renamed = {k: v for k, v in LOOK.names.items() if isinstance(v, dict) and v}
    for template in sorted(LOOK.covers):
        for task in json.loads((ROOT / "tasks" / "mail" / f"{template}.json").read_text()):
            steps = SURFACE.translate(task["solution"], "outlook")
            for s in steps:
                t = next((s[k] for k in ("click", "fill", "hover") if s.get(k)), None)
                while t:
                    hit = SURFACE.match(t)
                    if hit:
                        assert hit[0].key not in renamed or hit[0].name == renamed[hit[0].key]["name"], (template, t)
                    t = t.get("within")


# ------------------------------------------------------------------------------------------------ the pages
def test_the_inbox_is_outlooks_three_panes(oclient):
    html = _get(oclient, "/inbox")
    names = _names(html)
    assert "<title>Inbox" in html and "Quill Mail</title>" in html and "Inkbox" not in html.split("</head>")[0]
    # app bar, ribbon, folder pane, message list, reading pane
    for name in ("App launcher", "Search", "Settings", "Ribbon", "Folders", "Apps", "New mail", "Conversation actions",
                 "Message list", "Reading pane", "Conversations", "Create new category"):
        assert name in names, name
    assert 'role="tab" class="ol-rtab" id="ol-rtab-home" aria-selected="true"' in html
    assert "Select an item to read" in html
    # Outlook's folder names; Gmail's are gone from the folder pane
    for folder in ("Sent Items", "Junk Email", "Deleted Items", "Favorites", "Categories"):
        assert folder in html, folder
    assert not {"Compose", "Search mail", "Mailboxes", "Inkbox apps"} & names
    assert '>Focused<' in html
    # the list's Filter menu: searches in this folder
    assert "Filter" in names and "/search?q=in:inbox+is:unread" in html


def test_a_conversation_opens_in_the_reading_pane_beside_its_list(oclient, dbs):
    tid = inbox_thread_with(dbs)
    html = _get(oclient, f"/thread/{tid}?back=/inbox")
    names = _names(html)
    assert {"Message list", "Reading pane", "Conversations", "Conversation actions", "Archive", "Delete", "Report junk",
            "Categorize", "More options", "Back to Inbox"} <= names
    # the open conversation's row is marked in the list beside it
    assert re.search(rf'class="row [a-z]+ ol-open" role="row" data-id="{tid}"', html)
    assert 'class="thread-subject"' in html


PAGES = ["/inbox", "/inbox/promotions", "/starred", "/snoozed", "/sent", "/drafts", "/scheduled", "/important", "/all",
         "/spam", "/trash", "/category/social", "/search?q=invoice", "/search?q=zzzznothing", "/settings/general",
         "/settings/labels", "/settings/filters", "/contacts", "/contacts/new"]


def test_every_page_renders_in_the_look(oclient):
    for path in PAGES:
        html = _get(oclient, path)
        assert 'class="app ol-app' in html and 'aria-label="App launcher"' in html, path


def test_the_list_pages_ribbon_names_outlooks_actions(oclient):
    trash = _names(_get(oclient, "/trash"))
    assert {"Permanently delete", "Move to Inbox"} <= trash and "Delete forever" not in trash
    spam = _get(oclient, "/spam")
    assert "Not junk" in _names(spam) and ">Empty folder<" in spam
    inbox = _names(_get(oclient, "/inbox"))
    assert {"Report junk", "Categorize", "Flag this message", "Select", "Select options"} <= inbox
    assert not {"Report spam", "Labels", "Star"} & inbox


def test_the_ribbons_greyed_buttons_are_not_named(oclient):
    """With nothing selected the ribbon shows greyed pictures of its actions; they must not take a name a real
    control has (a confirm dialog's "Delete" would lose to the first visible "Delete")."""
    html = _get(oclient, "/inbox")
    placeholders = re.search(r'<span class="ol-rgroup ol-placeholders" aria-hidden="true">(.*?)</span>\s*<span class="tb-sep">',
                             html, re.S)
    assert placeholders and "aria-label" not in placeholders.group(1) and placeholders.group(1).count("disabled") == 4


def test_a_label_is_a_category_in_the_folder_pane(oclient, dbs):
    lab = dbs.scalars(select(Label).where(Label.parent_id.is_(None)).order_by(Label.id)).first()
    html = _get(oclient, "/label/" + quote(lab.name))
    assert f'aria-label="Options for category {lab.name}"' in html
    assert 'aria-current="page"' in html


def test_the_default_look_is_unchanged(client):
    html = _get(client, "/inbox")
    names = _names(html)
    assert {"Compose", "Search mail", "Mailboxes", "Inkbox apps"} <= names
    assert "ol-app" not in html and "looks/outlook" not in html and "Reading pane" not in names


# ------------------------------------------------------------------------------------------------ back, any value
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(back=st.one_of(
    st.sampled_from(["/inbox", "/inbox/social", "/inbox/nope", "/sent?page=2", "/sent?page=x", "/label/", "/label/Nope",
                     "/label/%E2%9C%93", "/category/nope", "/category/social", "/search", "/search?q=", "/search?q=a%20b",
                     "/contacts", "//evil.example/x", "http://x/y", "/thread/1", "/all?page=-3", ""]),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30).map(lambda s: "/" + s),
))
def test_the_reading_view_renders_beside_any_list_it_names(oclient, dbs, back):
    """`back` is the user's (a URL parameter): whatever it names, the reading view is a 200, with the list beside
    it where `back` is a conversation list, and the reading pane alone where it is not."""
    tid = dbs.scalar(select(Message.thread_id).order_by(Message.id))
    r = oclient.get(f"/thread/{tid}", query_string={"back": back})
    assert r.status_code == 200, (back, r.data[:300])
    html = r.get_data(as_text=True)
    assert 'aria-label="Reading pane"' in html


def test_a_refusal_names_the_product_as_the_look_does(client, oclient):
    """A server message naming the product (a vacation date it cannot read) says the look's brand: "Quill Mail" in
    this look, "Inkbox" in the default one (AppSpec.look_words)."""
    for c, brand, other in ((oclient, "Quill Mail", "Inkbox"), (client, "Inkbox", "Quill Mail")):
        r = c.post("/api/settings", json={"vacation_start": "someday"}, headers={"X-Requested-With": "fetch"})
        assert r.status_code == 400
        error = r.get_json()["error"]
        assert f"is not a date {brand} understands" in error and other not in error, error
