"""The German UI language (issue 45's lang axis) on the CRM's default look (Salesforce Lightning's German words): the
chrome in German through one catalog, the world's data in English, the English pages unchanged, and the steps' names
taken into German by the same catalog."""

from __future__ import annotations

import re

import pytest

from apps._shared.display import DISPLAY_COOKIE, encode_display
from apps._shared.i18n import names, page_strings, untranslated
from apps.crm.surface import SURFACE
from gym_core.variant import VariantError, draw_variant
from tests.apps.world_fixtures import world_words

# The pages the tasks reach: home, the object lists (table and kanban), records, the New / Edit forms, the Lead
# conversion, the contact merge, reports (home, run, builder), dashboards (view, edit), a related list, search.
PAGES = ["/lightning/page/home", "/lightning/o/Account/list", "/lightning/o/Contact/list", "/lightning/o/Lead/list",
         "/lightning/o/Opportunity/list", "/lightning/o/Case/list", "/lightning/o/Task/list",
         "/lightning/o/Opportunity/list?display=kanban&filterName=AllOpportunities",
         "/lightning/r/Account/1/view", "/lightning/r/Contact/1/view", "/lightning/r/Lead/1/view",
         "/lightning/r/Opportunity/1/view", "/lightning/r/Case/1/view", "/lightning/o/Contact/new", "/lightning/o/Case/new",
         "/lightning/r/Opportunity/1/edit", "/lightning/r/Lead/1/convert", "/lightning/r/Contact/1/merge",
         "/lightning/o/Report/home", "/lightning/r/Report/1/view", "/lightning/r/Report/1/edit", "/lightning/o/Report/new",
         "/lightning/o/Dashboard/home", "/lightning/r/Dashboard/1/view", "/lightning/r/Dashboard/1/edit",
         "/lightning/r/Account/1/related/Contacts/view", "/lightning/app-launcher", "/lightning/r/Account/1/owner"]

# What Salesforce's German keeps as it is (App Launcher, Feed, Kanban, Website) its catalog gives unchanged, which
# i18n.untranslated reads as kept; the world's list view names ("Today's Tasks") are the world's words.
WORLD_NAMES = {"Today's Tasks"}


def get_page(c, path: str) -> str:
    r = c.get(path)
    assert r.status_code == 200, (path, r.status_code)
    return r.get_data(as_text=True)


def _german(client):
    client.set_cookie(DISPLAY_COOKIE, encode_display(lang="de", locale="de-DE"))  # the german preset
    return client


def test_the_german_home_page_shows_no_english_chrome(client, app):
    english = get_page(client, "/lightning/page/home")
    german = get_page(_german(client), "/lightning/page/home")
    left = untranslated(english, german, "de", world_words(app), "crm")
    assert left == [], left
    for word in ("Startseite", "Kontakte", "Kundenvorgänge", "Berichte", "Suchen...", "Heutige Aufgaben",
                 "Quartalsleistung", "Globale Aktionen"):
        assert word in german, word
    assert '<html lang="de"' in german


@pytest.mark.parametrize("path", PAGES)
def test_every_crm_page_is_german_but_for_the_worlds_words(client, app, path):
    english = get_page(client, path)
    german = get_page(_german(client), path)
    left = [s for s in untranslated(english, german, "de", world_words(app), "crm")
            if s not in WORLD_NAMES]
    assert left == [], left


def test_a_record_page_keeps_the_worlds_data_in_english(client):
    english = get_page(client, "/lightning/r/Opportunity/1/view")
    german = get_page(_german(client), "/lightning/r/Opportunity/1/view")
    title = re.search(r'slds-page-header__title slds-truncate" title="([^"]+)"', english).group(1)
    assert title in german  # the opportunity's name
    assert "Bearbeiten" in german and "Löschen" in german and ">Edit<" not in german
    stage = re.search(r'slds-path__stage-name">[^:]+: ([^<]+)<', english).group(1)
    assert f"Phase: {stage}<" in german  # the field's label in German, its value (the world's stage) as it is


def test_english_is_the_default_and_unchanged(client):
    """No cookie, or lang=en: the same page, with no catalog handed to the scripts (`_` returns the template's
    text as written, so the English pages are what they were)."""
    plain = get_page(client, "/lightning/o/Opportunity/list")
    client.set_cookie(DISPLAY_COOKIE, encode_display(lang="en"))
    again = get_page(client, "/lightning/o/Opportunity/list")
    nonce = re.compile(r'nonce="[^"]*"')
    assert nonce.sub("", again) == nonce.sub("", plain)
    assert "i18n" not in plain and "Kontakte" not in plain and '<html lang="en"' in plain
    german = get_page(_german(client), "/lightning/o/Opportunity/list")
    assert "i18n: {" in german  # the page scripts' catalog (window.CRM.i18n)


def test_the_surface_takes_the_steps_names_into_german_through_the_same_catalog():
    within = {"role": "dialog", "name": None}
    steps = [{"click": {"role": "link", "name": "New"}},
             {"fill": {"role": "textbox", "name": "Last Name", "within": within}, "text": "Schmidt"},
             {"click": {"role": "button", "name": "Save", "within": within}},
             {"click": {"role": "button", "name": "Select a List View: Opportunities"}},
             {"click": {"role": "checkbox", "name": "Select Security Suite"}},
             {"fill": {"role": "textbox", "name": "Quantity for Security Suite"}, "text": "3"},
             {"click": {"role": "button", "name": "Mark Stage as Complete"}},
             {"click": {"role": "option", "name": "Closed Won"}},
             {"click": {"role": "link", "name": "Lin Home Goods"}}]
    out = SURFACE.translate(steps, "salesforce", "de")
    assert out[0]["click"]["name"] == "Neu"
    assert out[1]["fill"]["name"] == "Nachname" and out[1]["text"] == "Schmidt"  # what is typed stays the task's
    assert out[2]["click"]["name"] == "Speichern"
    assert out[3]["click"]["name"] == "Listenansicht auswählen: Opportunities"
    assert out[4]["click"]["name"] == "Security Suite auswählen"
    assert out[5]["fill"]["name"] == "Menge für Security Suite"
    assert out[6]["click"]["name"] == "Phase als abgeschlossen markieren"
    assert out[7]["click"]["name"] == "Closed Won"  # a stage is the world's picklist value
    assert out[8]["click"]["name"] == "Lin Home Goods"  # the world's data
    assert SURFACE.translate(steps, "salesforce", "en") == steps == SURFACE.translate(steps, None)


def test_every_fixed_control_the_catalog_renames_is_named_so_on_the_german_pages(client):
    """A control's German name is on some page (or in the page scripts' catalog, for what they draw): the steps'
    names and the pages come from the one catalog."""
    german = " ".join(s for p in PAGES for s in page_strings(get_page(_german(client), p)))
    words = names("crm", "de")
    missing = [c.key for c in SURFACE.controls if c.pattern is None and c.name in words and words[c.name] not in german]
    # Not on the pages above as they stand in the seed-0 world: drawn by the page scripts (the list filters' editor,
    # the Path's buttons once a stage is picked), on a modal or page a step opens later (the list view's field
    # chooser and its save dialog, a report's Save As, the products' editor, the conversion's result, the merge's
    # second step, a case's close form), or in a state the seeded records are not in (a followed record, a
    # post with comments, an open opportunity on /1, duplicates of a record, a report with no grouping).
    elsewhere = {"button:Add Filter", "button:Add Filter Logic", "button:Done", "combobox:Field", "combobox:Operator",
                 "textbox:Value", "textbox:Filter Logic", "option:greater than", "button:Mark as Current Stage",
                 "button:Mark as Current Status", "button:Select Closed Stage", "button:Select Closed Status",
                 "button:Mark Status as Complete", "button:Mark Stage as Complete", "button:Comment", "button:Following",
                 "button:Like", "textbox:Write a comment...", "button:Group", "combobox:Add group",
                 "button:Move selection to Available Fields", "button:Move selection to Visible Fields",
                 "listbox:Available Fields", "listbox:Visible Fields", "radio:All users can see this list view",
                 "textbox:List Name", "textbox:Report Name", "combobox:Price Book", "textbox:Quantity", "textbox:Sales Price",
                 "link:Go to Leads", "link:Go to Opportunity", "link:View Duplicates", "radio:Use Record 2 as master",
                 "menuitem:Close Case", "textbox:Internal Comments"}
    assert [k for k in missing if k not in elsewhere] == []
    assert len(missing) < len(elsewhere) + 1 and len([c for c in SURFACE.controls if c.name in words]) > 100


def test_lang_is_a_variant_axis_for_the_default_look_only():
    v = draw_variant("lang=de", "crm", "salesforce", "k")
    assert v.lang == "de" and v.display == {"lang": "de"}
    assert draw_variant("lang=de", "crm", None, "k").lang == "de"  # the default look
    with pytest.raises(VariantError, match="crm's salesforce look"):
        draw_variant("lang=de", "crm", "hubspot", "k")
    assert draw_variant("lang=random", "crm", "hubspot", "k").lang == "en"


def test_the_servers_toasts_and_refusals_speak_the_pages_language(client):
    """The views' messages go through the catalog (gettext): German on a German page, the English as it was."""
    body = {"url": "/lightning/o/Account/list", "label": "Accounts | Stratus CRM", "icon": "standard:account"}
    english = client.post("/crm/api/favorites/toggle", json=body).get_json()
    assert english["toast"] == '"Accounts" added to favorites.'
    assert client.post("/crm/api/favorites/toggle", json={"url": "nope"}).get_json()["message"] == "That page can't be a favorite."
    _german(client)
    german = client.post("/crm/api/favorites/toggle", json=body).get_json()
    assert german["toast"] == "Aus den Favoriten entfernt."  # the second toggle removes it
    german = client.post("/crm/api/favorites/toggle", json=body).get_json()
    assert german["toast"] == "„Accounts“ wurde zu den Favoriten hinzugefügt."
    r = client.post("/crm/api/favorites/toggle", json={"url": "nope"})
    assert r.status_code == 400 and r.get_json()["message"] == "Diese Seite kann kein Favorit sein."


def test_sentences_of_data_words_and_numbers_are_german_too(client):
    """What the word check cannot see, because each English word is also a word of the world ("You logged a call"),
    or has no word at all ("$7.2M"): the timeline's lines whole in German, the owner scope, the dashboard metric and
    the timeline's dates in de-DE."""
    paths = ["/lightning/r/Opportunity/12/view", "/lightning/r/Dashboard/1/view",
             "/lightning/o/Case/list?filterName=AllOpenCases"]
    english = [get_page(client, p) for p in paths]
    german = [get_page(_german(client), p) for p in paths]
    assert "You logged a call" in english[0] and not [s for s in page_strings(german[0]) if "logged a call" in s]
    assert "Sie haben einen Anruf protokolliert" in german[0]
    assert re.search(r">\d{1,2}/\d{1,2}/\d{4}<", english[0]) and re.search(r">\d{1,2}\.\d{1,2}\.\d{4}<", german[0])
    metric = [re.search(r'crm-metric">([^<]+)<', page).group(1) for page in (english[1], german[1])]
    assert re.fullmatch(r"\$[\d.]+[KM]", metric[0]) and re.fullmatch(r"[\d.,]+(\xa0Mio\.)?\xa0\$", metric[1]), metric
    assert "Filtered by All cases" in english[2] and "Gefiltert nach Alle Kundenvorgänge" in german[2]
