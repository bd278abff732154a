"""Every app's UI catalog in every language it has (apps/<app>/translations/<lang>, issue 45's lang axis): whole,
and each translation keeps what the code fills in or reads, so a German page never raises nor loses a value."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from apps._shared.i18n import APPS_DIR, catalog

CATALOGS = sorted((p.parts[-5], p.parts[-3]) for p in Path(APPS_DIR).glob("*/translations/*/LC_MESSAGES/messages.po"))
FILLED = re.compile(r"%\(\w+\)s")


def test_the_three_apps_have_their_german_catalog():
    assert {("mail", "de"), ("food", "de"), ("crm", "de")} <= set(CATALOGS)


@pytest.mark.parametrize("app,lang", CATALOGS)
def test_a_catalog_is_whole_and_keeps_its_placeholders(app, lang):
    cat = catalog(app, lang)
    assert len(cat) > 400, len(cat)  # the app's chrome, not a sample of it
    for msgid, msgstr in cat.items():
        assert sorted(FILLED.findall(msgid)) == sorted(FILLED.findall(msgstr)), msgid  # gettext's %(name)s
        assert sorted(re.findall(r"\{\w+\}", msgid)) == sorted(re.findall(r"\{\w+\}", msgstr)), msgid  # t()'s {name}
        assert msgid.count("%%") == msgstr.count("%%"), msgid
        if FILLED.search(msgid):  # filled with %: no other % in the translation (it would raise)
            assert "%" not in FILLED.sub("", msgstr.replace("%%", "")), msgid
        assert msgid.startswith("&bull;") == msgstr.startswith("&bull;"), msgid  # a separator the layout draws


@pytest.mark.parametrize("app", sorted({a for a, _ in CATALOGS}))
def test_english_has_no_catalog(app):
    assert catalog(app, "en") == {}
