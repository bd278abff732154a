"""The German UI language (issue 45's lang axis) on food's default look (DoorDash's German words): the chrome in German
through one catalog, the world's data (stores, dishes, names, addresses) in English, the English pages unchanged, and
the steps' names taken into German by the same catalog."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from apps._shared.display import DISPLAY_COOKIE, encode_display
from apps._shared.i18n import names, page_strings, untranslated
from apps.food.models import CartItem, Cuisine, MenuItem, OptionGroup, Order, Store
from apps.food.surface import SURFACE
from gym_core.variant import VariantError, draw_variant, parse_variant
from tests.apps.world_fixtures import world_words


def _get(c, path: str) -> str:
    r = c.get(path)
    assert r.status_code == 200, (path, r.status_code, r.data[:300])
    return r.get_data(as_text=True)


def _ids(app, world) -> dict:
    with Session(app.extensions["uigym_worlds"].engine(world)) as s:
        store = s.scalars(select(Store).order_by(Store.id)).first()
        required = {g.id for g in s.scalars(select(OptionGroup)) if g.min_select}
        items = list(s.scalars(select(MenuItem).where(MenuItem.store_id == store.id).order_by(MenuItem.id)))
        orders = list(s.scalars(select(Order).order_by(Order.id)))
        return {"store": store.id, "plain": next(i.id for i in items if not set(i.group_ids or []) & required),
                "options": next(i.id for i in items if set(i.group_ids or []) & required),
                "cuisine": s.scalars(select(Cuisine).order_by(Cuisine.id)).first().slug,
                "done": next(o.id for o in orders if o.status == "delivered"),
                # the latest delivery: unrated, its tip and its Dasher still open to change
                "recent": max((o for o in orders if o.status == "delivered"), key=lambda o: o.completed_at).id,
                "line": next(iter(s.scalars(select(CartItem.id))), None),
                "active": [o.id for o in orders if o.status not in ("delivered", "picked_up", "cancelled")][:2]}


def _pages(ids) -> list[str]:
    """Every page a food task reaches: browsing, a store and its dialogs, the cart, checkout, orders, the account."""
    return (["/", "/?fast=1&r45=1&deals=1&sort=rating", f"/cuisine/{ids['cuisine']}", "/search?q=ramen",
             "/search?q=zzzzqq", "/offers", f"/store/{ids['store']}", f"/store/{ids['store']}/item/{ids['plain']}",
             f"/store/{ids['store']}?item={ids['options']}", "/orders", f"/orders/{ids['done']}",
             f"/orders/{ids['done']}/receipt", f"/orders/{ids['done']}/help", f"/orders/{ids['recent']}"]
            + [f"/orders/{i}" for i in ids["active"]]
            + [f"/account/{k}" for k in ("profile", "addresses", "payment", "saved", "plus", "credits", "notifications")]
            + ["/checkout", "/cart/drawer"] + ([f"/cart/item/{ids['line']}/edit"] if ids.get("line") else []))


@pytest.fixture()
def filled(client, app, world):
    """The client with two of a dish in its cart (checkout and the drawer show it)."""
    ids = _ids(app, world)
    r = client.post("/api/cart/add", json={"item_id": ids["plain"], "quantity": 2, "replace": True}).get_json()
    assert r["ok"], r
    return client, _ids(app, world)


def _german(client):
    client.set_cookie(DISPLAY_COOKIE, encode_display(lang="de"))
    return client


def _english(client):
    client.set_cookie(DISPLAY_COOKIE, encode_display(lang="en"))
    return client


def test_the_german_home_shows_no_english_chrome(filled, app, world):
    client, _ = filled
    english = _get(client, "/")
    german = _get(_german(client), "/")
    assert untranslated(english, german, "de", world_words(app, world), "food") == []
    for word in ("Lieferung", "Abholung", "Forkful durchsuchen", "Alle Geschäfte", "Kontomenü", "Warenkorb, 2 Artikel",
                 "Bestellungen", "Gespeicherte Geschäfte", "Liefergebühr", "Unter 30 Min."):
        assert word in german, word
    assert '<html lang="de"' in german and 'id="page-i18n"' in german
    # the world stays English: the stores' names of the English page are on the German one
    stores = re.findall(r'class="store-name">([^<]+)<', english)[:5]
    assert stores and all(s in german for s in stores)


def test_every_food_page_is_german_but_for_the_worlds_words(filled, app, world):
    client, ids = filled
    words = world_words(app, world)
    checked, left = 0, {}
    for path in _pages(ids):
        english = _get(_english(client), path)
        german = _get(_german(client), path)
        bad = untranslated(english, german, "de", words, "food")
        if bad:
            left[path] = bad
        checked += 1
    assert checked >= 20 and left == {}, left


def test_english_is_the_default_and_unchanged(client):
    """No cookie, or lang=en: the same page, with no catalog handed to the scripts (the English pages are the
    templates' text byte for byte: `_` returns it as written)."""
    plain = _get(client, "/")
    client.set_cookie(DISPLAY_COOKIE, encode_display(lang="en"))
    assert _get(client, "/") == plain
    assert "page-i18n" not in plain and "Lieferung" not in plain and '<html lang="en"' in plain


def test_the_code_s_sentences_follow_the_language(filled, app, world):
    """What the code builds in English (a store's status, a fee line, a promotion, the order status) is German on a
    German page (food's |phrase filter: the catalog's messages with placeholders as patterns)."""
    client, ids = filled
    german = _get(_german(client), f"/store/{ids['store']}")
    assert re.search(r"(Geöffnet bis|Schließt bald um|Geschlossen)", german)
    assert not re.search(r">(Open until|Closes soon at|Closed)", german)
    assert "Öffnungszeiten anzeigen" in german and "Montag" in german
    offers = page_strings(_get(client, "/offers"))  # a promotion's title is the world's ("$5 off your order")
    assert any("Rabatt" in s for s in offers) and not [s for s in offers if re.search(r" off(,| on orders|$)", s)]
    assert any(re.fullmatch(r"Gültig bis \d+\. \w+\.?", s) for s in offers)  # "Expires Mar 31": a German date
    order = _get(client, f"/orders/{ids['done']}")
    assert "Geliefert" in order and "Bestellung erneut" not in order


def test_the_surface_takes_the_steps_names_into_german_through_the_same_catalog():
    steps = [{"click": {"role": "button", "name": "Cart,", "exact": False}},
             {"click": {"role": "button", "name": "Add to cart", "exact": False}},
             {"fill": {"role": "textbox", "name": "Street address", "exact": True,
                       "within": {"role": "dialog", "name": "Addresses"}}, "text": "250 King St"},
             {"click": {"role": "button", "name": "Deliver to Home,", "exact": False}},
             {"click": {"role": "button", "name": "Remove promo SPRING15", "exact": True}},
             {"click": {"role": "link", "name": "Order #40101 from Bamboo House", "exact": True}},
             {"click": {"role": "radio", "name": "Tip 20%", "exact": True}},
             {"click": {"role": "radio", "name": "3 stars", "exact": True}},
             {"click": {"role": "radio", "name": "Medium", "exact": True}},
             {"click": {"role": "button", "name": "Margherita Pizza", "exact": True}}]
    out = SURFACE.translate(steps, "doordash", "de")
    assert out[0]["click"]["name"] == "Warenkorb,"
    assert out[1]["click"]["name"] == "Zum Warenkorb hinzufügen"
    assert out[2]["fill"]["name"] == "Straße und Hausnummer" and out[2]["fill"]["within"]["name"] == "Adressen"
    assert out[2]["text"] == "250 King St"  # what is typed is the task's, never translated
    assert out[3]["click"]["name"] == "Liefern an Home,"  # the address's label is the world's
    assert out[4]["click"]["name"] == "Aktionscode SPRING15 entfernen"
    assert out[5]["click"]["name"] == "Bestellung #40101 bei Bamboo House"
    assert out[6]["click"]["name"] == "Trinkgeld 20%" and out[7]["click"]["name"] == "3 Sterne"
    assert out[8]["click"]["name"] == "Medium" and out[9]["click"]["name"] == "Margherita Pizza"  # the menu's words
    assert SURFACE.translate(steps, "doordash", "en") == steps == SURFACE.translate(steps, None)
    assert names("food", "de")["Gift cards & credits"] == "Geschenkkarten & Guthaben"


def test_every_fixed_control_the_catalog_renames_is_named_so_on_the_german_pages(filled, app, world):
    """A control's German name is on some page (or in the page scripts' catalog): the steps' names and the pages
    come from the one catalog."""
    client, ids = filled
    _german(client)
    german = " ".join(s for p in _pages(ids) for s in page_strings(_get(client, p)))
    words = names("food", "de")
    missing = [c.key for c in SURFACE.controls if c.pattern is None and c.name in words and words[c.name] not in german]
    # a member's page (the seed's user is not one): its Cancel dialog
    elsewhere = {"button:Keep membership", "button:Cancel membership"}
    assert missing and [k for k in missing if k not in elsewhere] == []


def test_lang_is_a_variant_axis_that_food_s_default_look_speaks():
    assert parse_variant("lang=de").lang == "de"
    v = draw_variant("lang=de", "food", "doordash", "k")
    assert v.lang == "de" and v.display == {"lang": "de"} and v.label("doordash") == "lang=de"
    assert draw_variant("lang=de", "food", None, "k").lang == "de"  # the default look
    with pytest.raises(VariantError, match="food's doordash look"):
        draw_variant("lang=de", "food", "ubereats", "k")  # the second look stays English
    assert draw_variant("lang=random", "food", "ubereats", "k").lang == "en"


def test_a_refusal_the_page_shows_is_german_too(filled, app, world):
    """A server message the page shows (the item dialog's refusal, a form's field messages) is in its language."""
    client, ids = filled
    _german(client)
    r = client.post("/api/cart/add", json={"item_id": ids["options"], "quantity": 1, "replace": True}).get_json()
    assert r["ok"] is False and r["error"].startswith("Wähle eine Option für "), r
    page = client.post("/account/profile", data={"first_name": "", "last_name": "Chang", "email": "m@example.com",
                                                 "phone": "4155550100"})
    assert page.status_code == 200 and "Gib deinen Vornamen ein." in page.get_data(as_text=True)
    r = client.post("/api/address", json={"street": "Main", "zip": "1"}).get_json()
    assert r["ok"] is False and "PLZ" in r["errors"]["zip"], r  # a form's field messages too
    _english(client)
    r = client.post("/api/cart/add", json={"item_id": ids["options"], "quantity": 1, "replace": True}).get_json()
    assert r["error"].startswith("Choose an option for "), r
    assert "Enter your first name." in client.post("/account/profile", data={"first_name": ""}).get_data(as_text=True)
