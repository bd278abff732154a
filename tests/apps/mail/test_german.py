"""The German UI language (issue 45's lang axis) on mail's default look: the chrome in German through one catalog,
the world's data in English, the English pages unchanged, and the steps' names taken into German by the same catalog."""

from __future__ import annotations

import re

import pytest

from apps._shared.display import DISPLAY_COOKIE, encode_display
from apps._shared.i18n import names, page_strings, untranslated
from apps.mail.surface import SURFACE
from gym_core.variant import VariantError, draw_variant, parse_variant
from tests.apps.mail.conftest import get_page
from tests.apps.world_fixtures import world_words

PAGES = ["/inbox", "/starred", "/sent", "/drafts", "/spam", "/trash", "/scheduled", "/snoozed", "/search?q=invoice",
         "/settings/general", "/settings/labels", "/settings/inbox", "/settings/filters", "/contacts", "/thread/1",
         "/contacts/new"]


def _german(client):
    client.set_cookie(DISPLAY_COOKIE, encode_display(lang="de"))
    return client


def test_the_german_inbox_shows_no_english_chrome(client, app):
    english = get_page(client, "/inbox")
    german = get_page(_german(client), "/inbox")
    assert untranslated(english, german, "de", world_words(app), "mail") == []
    for word in ("Schreiben", "Posteingang", "Markiert", "Gesendet", "Entwürfe", "In E-Mails suchen", "Archivieren",
                 "Als gelesen markieren", "Papierkorb"):
        assert word in german, word
    assert '<html lang="de"' in german
    # the world stays English: the subjects and senders of the English page are on the German one
    subjects = re.findall(r'class="subject[^"]*">([^<]+)<', english)[:5]
    assert subjects and all(s in german for s in subjects)


@pytest.mark.parametrize("path", PAGES)
def test_every_mail_page_is_german_but_for_the_worlds_words(client, app, path):
    english = get_page(client, path)
    german = get_page(_german(client), path)
    left = untranslated(english, german, "de", world_words(app), "mail")
    # what may stay: a message's own text (a spam snippet, the quoted message a reply or forward will send: it is
    # the mail's content), and a filter's label clause
    left = [s for s in left if not re.match(r"(- |Hi |Apply label |-+ Forwarded message)", s)]
    assert left == [], left


def test_english_is_the_default_and_unchanged(client):
    """No cookie, or lang=en: the same page, with no catalog handed to the scripts (the English pages are the
    templates' text byte for byte: `_` returns it as written)."""
    plain = get_page(client, "/inbox")
    client.set_cookie(DISPLAY_COOKIE, encode_display(lang="en"))
    assert get_page(client, "/inbox") == plain
    assert "data-i18n" not in plain and "Posteingang" not in plain and '<html lang="en"' in plain


def test_the_surface_takes_the_steps_names_into_german_through_the_same_catalog():
    steps = [{"click": {"role": "button", "name": "Compose"}},
             {"fill": {"role": "textbox", "name": "Subject", "within": {"role": "dialog", "name": "New Message"}},
              "text": "Hello"},
             {"click": {"role": "link", "name": "Back to Inbox"}},
             {"click": {"role": "row", "name": "Thanks for your help"}},
             {"click": {"role": "button", "name": "Options for label Work/Clients"}},
             {"click": {"role": "button", "name": "Thursday, March 12, 2026"}}]
    out = SURFACE.translate(steps, "gmail", "de")
    assert out[0]["click"]["name"] == "Schreiben"
    assert out[1]["fill"] == {"role": "textbox", "name": "Betreff", "within": {"role": "dialog", "name": "Neue Nachricht"}}
    assert out[1]["text"] == "Hello"  # what is typed is the task's, never translated
    assert out[2]["click"]["name"] == "Zurück zu „Posteingang“"
    assert out[3]["click"]["name"] == "Thanks for your help"  # the world's data
    assert out[4]["click"]["name"] == "Optionen für das Label Work/Clients"
    assert out[5]["click"]["name"] == "Donnerstag, 12. März 2026"
    assert SURFACE.translate(steps, "gmail", "en") == steps == SURFACE.translate(steps, None)
    assert names("mail", "de")["Save & close"] == "Speichern & schließen"


def test_every_fixed_control_the_catalog_renames_is_named_so_on_the_german_pages(client):
    """A control's German name is on some page (or in the page scripts' catalog): the steps' names and the pages
    come from the one catalog."""
    german = " ".join(s for p in PAGES for s in page_strings(get_page(_german(client), p)))
    words = names("mail", "de")
    missing = [c.key for c in SURFACE.controls if c.pattern is None and c.name in words and words[c.name] not in german]
    elsewhere = {"group:Going?", "menuitem:Unmute"}  # an invitation's RSVP, a muted conversation's menu: other threads
    assert [k for k in missing if k not in elsewhere] == []


def test_lang_is_a_variant_axis_that_refuses_what_is_not_done():
    assert parse_variant("lang=de").lang == "de" and parse_variant("language=de").lang == "de"
    v = draw_variant("lang=de", "mail", "gmail", "k")
    assert v.lang == "de" and v.display == {"lang": "de"} and v.label("gmail") == "lang=de"
    assert draw_variant("", "mail", "gmail", "k").display == {}
    for app, look in (("mail", "outlook"), ("food", "ubereats"), ("crm", "hubspot")):
        with pytest.raises(VariantError, match="done for mail's gmail look"):
            draw_variant("lang=de", app, look, "k")
        assert draw_variant("lang=random", app, look, "k").lang == "en"  # drawn among what the look speaks
    assert encode_display(density="compact", lang="de") == "density=compact&lang=de"


def test_the_user_is_ich_among_senders_and_mich_as_a_recipient(client):
    """Gmail's German names the user "ich" in a thread's senders ("ich, Katherine") and "mich" as its recipient ("an
    mich"): one English word, two German ones (msgctxt "recipient", i18n.pgettext)."""
    senders = re.compile(r'<span class="from">(.*?)</span><span class="count">', re.S)
    english = " ".join(senders.findall(get_page(client, "/inbox")))
    assert re.search(r">me<", english)
    thread_en = get_page(client, "/thread/1")
    assert re.search(r">to (?:[^<]*, )?me(?:,|<)", thread_en)
    _german(client)
    german = " ".join(senders.findall(get_page(client, "/inbox")))
    assert re.search(r">ich<", german) and not re.search(r">me<", german)
    thread_de = get_page(client, "/thread/1")
    assert re.search(r">an (?:[^<]*, )?mich(?:,|<)", thread_de) and not re.search(r">to [^<]*\bme\b", thread_de)


def test_a_filters_actions_are_german_with_their_values(client, dbs):
    """What a filter does, in the settings list: the catalog's sentence with the filter's own label and address
    ('Label "Receipts" anwenden'), the category in the inbox tabs' German; the tools keep the English."""
    from apps.mail.models import Filter, Label
    from apps.mail.services.filters import filter_actions_text

    label = dbs.query(Label).first()
    f = Filter(from_contains="billing@example.com", apply_label_id=label.id, forward_to="ap@example.com",
               category="promotions")
    dbs.add(f)
    dbs.commit()
    german = get_page(_german(client), "/settings/filters")
    assert f'Label &#34;{label.name}&#34; anwenden' in german or f'Label "{label.name}" anwenden' in german
    assert "Weiterleiten an ap@example.com" in german and "Kategorisieren als Werbung" in german
    assert f"Apply label &#34;{label.name}" not in german and f'Apply label "{label.name}' not in german
    assert filter_actions_text(dbs, f) == [f'Apply label "{label.name}"', "Forward to ap@example.com",
                                           "Categorize as Promotions"]


def test_the_forward_preview_is_german_and_send_writes_the_worlds_english(client, app):
    """The block a Forward previews under the reply box (Gmail's German: "Weitergeleitete Nachricht", "Von:") is in
    the page language and locale; what Send writes into the world is the app's English, whatever the page showed."""
    from apps.mail.services.compose import forward_block
    from apps.mail.models import Message
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    english = get_page(client, "/thread/1")
    german = get_page(_german(client), "/thread/1")
    assert "---------- Forwarded message ---------" in english and "Weitergeleitete Nachricht" not in english
    assert "---------- Weitergeleitete Nachricht ---------" in german
    assert not [x for x in page_strings(german) if "Forwarded message" in x]
    assert "Von: " in german and "Datum: " in german
    with app.test_request_context("/"), Session(app.extensions["uigym_worlds"].engine(app.config["TEST_WORLD"])) as s:
        src = s.scalars(select(Message).where(Message.thread_id == 1)).first()
        assert forward_block(s, src).startswith("---------- Forwarded message ---------\nFrom: ")
