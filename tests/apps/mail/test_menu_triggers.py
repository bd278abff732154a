"""Issue 46: ticking a conversation's checkbox opened the "Label as" menu over the rows below, because the menu's
trigger selector (`[data-labels]`) also matched each row's own data attribute (the row's label ids). The toolbar
menus' triggers live in one table, core.js `MENU_TRIGGER`, each an exact `button[...]` selector; rows and the
conversation toolbar carry their label ids as `data-label-ids`. This checks the class on every page kind: only
buttons carry a menu trigger's attribute. The browser side (a ticked row opens no menu; the Labels button still
labels the selection) is in test_browser_selection.py."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from sqlalchemy import select

from apps.mail.models import Label, Message

CORE_JS = Path(__file__).resolve().parents[3] / "apps" / "mail" / "static" / "mail" / "core.js"


def menu_triggers() -> dict[str, str]:
    table = re.search(r"const MENU_TRIGGER = \{([^}]*)\}", CORE_JS.read_text()).group(1)
    return dict(re.findall(r'(\w+): "([^"]+)"', table))


class _Carriers(HTMLParser):
    def __init__(self, attrs: set[str]):
        super().__init__()
        self.attrs, self.found = attrs, []

    def handle_starttag(self, tag, attrs):
        for name, _v in attrs:
            if name in self.attrs:
                self.found.append((tag, name, dict(attrs).get("class", "")))


def test_every_menu_trigger_selector_is_an_exact_button_selector():
    triggers = menu_triggers()
    assert set(triggers) == {"labels", "move", "snooze"}
    assert all(re.fullmatch(r"button\[data-[a-z-]+\]", sel) for sel in triggers.values()), triggers


@pytest.fixture
def pages(client, dbs) -> dict[str, str]:
    lab = dbs.scalars(select(Label).where(Label.parent_id.is_(None)).order_by(Label.id)).first()
    tid = dbs.scalars(select(Message.thread_id).where(Message.in_inbox.is_(True)).order_by(Message.id)).first()
    urls = ["/inbox", "/inbox/promotions", "/starred", "/snoozed", "/sent", "/drafts", "/scheduled", "/important",
            "/all", "/spam", "/trash", f"/label/{lab.name}", "/search?q=invoice", f"/thread/{tid}"]
    out = {}
    for url in urls:
        r = client.get(url)
        assert r.status_code == 200, url
        out[url] = r.get_data(as_text=True)
    return out


def test_only_buttons_carry_a_menu_triggers_attribute(pages):
    attrs = {re.search(r"\[([a-z-]+)\]", sel).group(1) for sel in menu_triggers().values()}
    for url, html in pages.items():
        p = _Carriers(attrs)
        p.feed(html)
        wrong = [f for f in p.found if f[0] != "button"]
        assert not wrong, f"{url}: a menu trigger's attribute on {wrong[:3]}"


def test_rows_carry_their_label_ids_apart_from_the_triggers(pages):
    inbox = pages["/inbox"]
    assert re.search(r'<tr class="row[^>]* data-label-ids="', inbox)
    assert 'data-labels="selection"' in inbox
    assert 'id="thread-toolbar"' in next(h for u, h in pages.items() if u.startswith("/thread/"))
