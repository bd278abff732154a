"""The food pages write every amount in the page's locale (issue 45's locale axis): the store cards' fee lines and deal
badges, the promotions' summaries (Offers, a store's deals, the checkout's applied code) and the Plus copy, through
the one formatter of each (services/stores.fee_label and deal_badge, domain/food.promo_summary, with the page's money
functions, apps/food/views/common.py). en-US stays the app's own words, and the tools keep them in every locale. A
promotion's title ("$5 off your order") is the world's text, as a store's name is: the same in every variant."""

from __future__ import annotations

import re

import pytest

from apps._shared.display import DISPLAY_COOKIE, encode_display

# An amount written the en-US way: "$0", "$2.99", "$1,234.50".
EN_AMOUNT = re.compile(r"\$\d")
PAGES = ["/", "/offers", "/account/plus"]


def _text(html: str, world_text: list[str]) -> str:
    """The page's text and attributes' values, less the world's own words (the promotions' titles)."""
    out = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S).replace("&#39;", "'").replace("&amp;", "&")
    for t in sorted(world_text, key=len, reverse=True):
        out = out.replace(t, " ")
    return out


@pytest.mark.parametrize("path", PAGES)
def test_no_en_us_amount_on_a_german_formats_page(client, db, path):
    from apps.food.models import Promo

    titles = [p.title for p in db.all(Promo)]
    plain = _text(client.get(path).get_data(as_text=True), titles)
    assert EN_AMOUNT.search(plain), f"{path}: the en-US page shows amounts the app's way"
    client.set_cookie(DISPLAY_COOKIE, encode_display(locale="de-DE"))
    german = _text(client.get(path).get_data(as_text=True), titles)
    assert not EN_AMOUNT.findall(german), (path, sorted(set(re.findall(r".{30}\$\d.{20}", german)))[:5])
    assert re.search(r"\d $", german.replace("\xa0", " ")) or re.search(r"\d\xa0\$", german), path


def test_the_fee_line_and_the_summary_in_each_locale_and_for_the_tools():
    from types import SimpleNamespace

    from apps._shared import locale as L
    from apps.food.services.stores import fee_label
    from domain import food as logic

    promo = SimpleNamespace(kind="percent", value=20, max_discount_cents=1000, min_subtotal_cents=2500)
    assert logic.promo_summary(promo) == "20% off, up to $10.00 on orders $25.00+"
    de = (lambda c: L.money(c / 100, "de-DE"), lambda c: L.money(c // 100, "de-DE", decimals=0))
    assert logic.promo_summary(promo, *de).replace("\xa0", " ") == "20% off, up to 10,00 $ on orders 25,00 $+"
    assert fee_label("member", 0, "delivery") == "$0 delivery fee over $12"
    assert fee_label("fee", 299, "delivery") == "$2.99 delivery fee"
    assert fee_label("closed", 0, "pickup") == "No pickup" and fee_label("pickup", 0, "pickup") == "Pickup"
    assert fee_label("member", 0, "delivery", *de).replace("\xa0", " ") == "0 $ delivery fee over 12 $"
