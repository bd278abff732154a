"""The outlook look's pieces for the mail task templates it carries beyond the basics (issue #37): Outlook's
response bar on an invitation, Reply / Reply all / Forward in the ribbon of an open conversation, and the
"Create a rule" editor behind the search options. Each keeps the default look's ids and data attributes (the
shared scripts and the same /api routes do the work) and uses the names apps/mail/look_outlook.py maps the
surface's controls to. Flask test client, no browser."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from apps.mail.look_outlook import LOOK
from apps.mail.models import Invite, Message
from tests.apps.mail.conftest import get_page, inbox_thread_with


_get = get_page


def _target(key: str) -> str:
    return LOOK.names[key]["name"]


def _rsvp_buttons(html: str) -> list[tuple[str, str]]:
    """(data-rsvp, visible words) of each response button, in order."""
    out = []
    for m in re.finditer(r'<button type="button" class="rsvp-btn[^"]*" data-rsvp="(\w+)"[^>]*>(.*?)</button>', html, re.S):
        shown = re.sub(r'<span[^>]*aria-hidden="true"[^>]*>[^<]*</span>', "", m.group(2))  # not in the name
        out.append((m.group(1), re.sub(r"<[^>]+>", "", shown).strip()))
    return out


def test_an_invitation_answers_with_accept_tentative_decline(oclient, dbs):
    inv = dbs.scalars(select(Invite).order_by(Invite.id)).first()
    tid = dbs.get(Message, inv.message_id).thread_id
    html = _get(oclient, f"/thread/{tid}?back=/inbox")
    group = _target("group:Going?")
    assert f'role="group" aria-label="{group}"' in html and 'aria-label="Going?"' not in html
    # the same answers the default look posts (yes / maybe / no), in Outlook's words, as the look maps them
    assert _rsvp_buttons(html) == [("yes", _target("button:Yes")), ("maybe", _target("button:Maybe")),
                                   ("no", _target("button:No"))] == [("yes", "Accept"), ("maybe", "Tentative"),
                                                                     ("no", "Decline")]


def test_an_open_conversations_ribbon_replies_through_the_quick_reply(oclient, dbs):
    tid = inbox_thread_with(dbs)
    html = _get(oclient, f"/thread/{tid}?back=/inbox")
    ribbon = html[html.index('id="thread-toolbar"'):html.index('id="thread-pager"')]
    for name, target in (("Reply", "reply-btn"), ("Forward", "forward-btn")):
        assert f'data-ol-click="{target}" aria-label="{name}"' in ribbon
        assert f'id="{target}"' in html  # the quick reply's own button, which the ribbon's clicks
    if 'id="reply-all-btn"' in html:
        assert 'data-ol-click="reply-all-btn" aria-label="Reply all"' in ribbon
    else:
        assert "reply-all-btn" not in ribbon


def test_junk_and_deleted_conversations_offer_no_reply_in_the_ribbon(oclient, dbs):
    for flag in ("is_spam", "is_trashed"):
        tid = dbs.scalar(select(Message.thread_id).where(getattr(Message, flag).is_(True)).order_by(Message.id))
        if tid is None:
            continue
        html = _get(oclient, f"/thread/{tid}?back=/inbox")
        assert "data-ol-click" not in html and 'id="reply-btn"' not in html, flag


def test_the_search_options_create_a_rule_with_the_default_looks_ids(oclient):
    html = _get(oclient, "/inbox")
    panel = html[html.index('id="adv-panel"'):html.index('id="filter-create"') + 200]
    # the ids shell.js reads and writes: criteria, actions, the rule's save
    for id_ in ("adv-from", "adv-to", "adv-subject", "adv-has", "adv-not", "adv-att", "adv-create-filter",
                "adv-filter-step", "filter-summary", "f-skip", "f-read", "f-star", "f-label", "f-label-choice",
                "f-forward", "f-forward-to", "f-delete", "f-never-spam", "f-important", "f-not-important",
                "f-category", "f-category-choice", "f-apply", "f-apply-text", "filter-create", "filter-back"):
        assert f'id="{id_}"' in panel, id_
    assert "Create a rule" in panel and "Create filter" not in panel and "Skip the Inbox" not in panel
    # every control a filter template addresses is there under the name the look gives it
    assert f'id="adv-create-filter" title="Create a rule from these conditions">{_target("button:Create filter")}<' in panel
    assert f'id="filter-create">{_target("button:Create filter")}<' in panel
    for key in ("checkbox:Skip the Inbox (Archive it)", "checkbox:Star it", "checkbox:Delete it"):
        assert re.search(r'<input type="checkbox" id="f-\w+"> ' + re.escape(_target(key)) + "<", panel), key
    assert re.search(r'id="f-apply"> ' + re.escape(_target("checkbox:Also apply filter to")) + "<span", panel)
    assert f'aria-label="{_target("textbox:Forward it to address")}"' in panel
    assert 'data-label="Choose category"' in panel and _target("button:Choose label") == "Choose category"


def test_the_default_look_keeps_its_own_words(client):
    html = _get(client, "/inbox")
    assert 'id="adv-create-filter">Create filter<' in html and "Skip the Inbox (Archive it)" in html
    assert "Create a rule" not in html and "data-ol-click" not in html
