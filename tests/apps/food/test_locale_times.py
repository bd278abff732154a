"""The food pages write times, dates and ratings counts in the page's locale (issue 45's locale axis): a store's status
and hours, the orders' times and dates, the offers' expiry, the ratings counts (apps/food/views/common.py: shown_time,
clock, shown_date, shown_day, shown_count). en-US stays the app's own ("8:05 PM", "Apr 13", "2.6k+"); en-GB and de-DE
write 24-hour times ("20:05"), their dates ("13 Apr" / "13. Apr.") and a grouped count ("2,600+" / "2.600+"). The
words stay the language's (lang=de: "Gültig bis 13. Apr."); the tools and the world keep the app's formats."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from apps._shared.display import DISPLAY_COOKIE, encode_display

US_TIME = re.compile(r"\b(1[0-2]|[1-9]):[0-5]\d (AM|PM)\b")
H24 = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")
US = re.compile(r"^(1[0-2]|[1-9]):[0-5]\d (AM|PM)$")


def _page(client, path: str, **display) -> str:
    client.set_cookie(DISPLAY_COOKIE, encode_display(**display))
    r = client.get(path)
    assert r.status_code == 200, (path, display, r.status_code)
    return r.get_data(as_text=True).replace("\xa0", " ")


def _in(app, locale: str, fn, *args):
    with app.test_request_context("/", headers={"Cookie": f"{DISPLAY_COOKIE}={encode_display(locale=locale)}"}):
        return fn(*args)


@given(st.integers(min_value=0, max_value=24 * 60 - 1))
@settings(max_examples=300, deadline=None)
def test_every_minute_of_the_day_in_each_locale(app, minute):
    from apps.food.views.common import clock, shown_time
    from domain import food as logic

    h, m = divmod(minute, 60)
    when = dt.datetime(2026, 3, 12, h, m)
    us = _in(app, "en-US", shown_time, when)
    assert US.match(us) and us == logic.fmt_time(when) == _in(app, "en-US", shown_time, minute)
    for loc in ("en-GB", "de-DE"):
        t24 = _in(app, loc, shown_time, when)
        assert H24.match(t24), (loc, t24)
        assert t24 == f"{h:02d}:{m:02d}" == _in(app, loc, shown_time, minute)
        # the same time inside a sentence the code builds in English
        assert _in(app, loc, clock, f"Open until {us}") == f"Open until {t24}"
    assert _in(app, "en-US", clock, f"Open until {us}") == f"Open until {us}"


def test_counts_and_dates_in_each_locale(app):
    from apps.food.views.common import shown_count, shown_date, shown_day

    counts = {"en-US": ["87", "2.6k+", "12k+"], "en-GB": ["87", "2,600+", "12,000+"],
              "de-DE": ["87", "2.600+", "12.000+"]}
    for loc, want in counts.items():
        assert [_in(app, loc, shown_count, n) for n in (87, 2650, 12345)] == want, loc
    d = dt.date(2026, 4, 13)
    assert [_in(app, loc, shown_date, d) for loc in ("en-US", "en-GB", "de-DE")] == ["Apr 13", "13 Apr", "13. Apr."]
    assert _in(app, "en-US", shown_date, d, "yMMMMEEEEd") == "Monday, April 13, 2026"
    assert _in(app, "de-DE", shown_date, d, "yMMMMEEEEd") == "Mo., 13. April 2026"
    assert _in(app, "de-DE", shown_day, d, d) == "Today"  # the words are the language's (|phrase)
    assert _in(app, "de-DE", shown_day, d, d - dt.timedelta(1)) == "Tomorrow"
    assert _in(app, "en-GB", shown_day, d, d - dt.timedelta(3)) == _in(app, "en-GB", shown_date, d, "MMMEd")
    with pytest.raises(ValueError):
        _in(app, "de-DE", shown_date, d, "nonsense")


def test_a_store_page_in_each_locale(client, db):
    from apps.food.models import Store

    s = max(db.all(Store), key=lambda x: x.review_count)
    assert s.review_count >= 1000
    us = _page(client, f"/store/{s.id}")
    gb = _page(client, f"/store/{s.id}", locale="en-GB")
    de = _page(client, f"/store/{s.id}", locale="de-DE")
    assert US_TIME.search(us) and re.search(r"\(\d+(\.\d)?k\+", us), "en-US: the app's own formats"
    for loc, page in (("en-GB", gb), ("de-DE", de)):
        assert not US_TIME.findall(page), (loc, US_TIME.findall(page)[:3])
        assert not re.search(r"\d(\.\d)?k\+", page), loc
        assert re.search(r"<td>\d\d:\d\d – \d\d:\d\d</td>", page), loc  # the hours table
    n = s.review_count // (100 if s.review_count < 10000 else 1000) * (100 if s.review_count < 10000 else 1000)
    assert f"({n:,}+)" in gb and f"({n:,}+)".replace(",", ".") in de


def test_orders_and_offers_in_each_locale(client, db):
    from apps.food.models import Order, Promo

    o = db.all(Order)[0]
    stamp = o.placed_at
    us = _page(client, "/orders")
    de = _page(client, "/orders", locale="de-DE")
    gb = _page(client, "/orders", locale="en-GB")
    h12 = f"{stamp.hour % 12 or 12}:{stamp.minute:02d} {'AM' if stamp.hour < 12 else 'PM'}"
    assert f"{stamp:%a, %b} {stamp.day} at {h12}" in us
    assert f"{stamp.day}. " in de and f" at {stamp:%H:%M}" in de and not US_TIME.search(de)
    assert f"{stamp:%a} {stamp.day} {stamp:%b} at {stamp:%H:%M}" in gb
    rec = _page(client, f"/orders/{o.id}/receipt", locale="de-DE")
    assert f"{stamp.day}. " in rec and stamp.strftime("%H:%M") in rec and not US_TIME.search(rec)

    p = next(p for p in db.all(Promo) if p.expires_at)
    e = p.expires_at
    assert f"Expires {e:%b} {e.day}" in _page(client, "/offers")
    assert f"Expires {e.day} {e:%b}" in _page(client, "/offers", locale="en-GB")
    de_offers = _page(client, "/offers", locale="de-DE")
    assert re.search(rf"Expires {e.day}\. \w+", de_offers)
    # the words are the language's (the catalog's "Gültig bis %(date)s"), the date the locale's
    from apps._shared import i18n

    words = i18n.names("food", "de")["Expires %(date)s"].split("%(date)s")[0]
    assert words and words != "Expires "
    assert re.search(rf"{re.escape(words)}{e.day}\. \w+", _page(client, "/offers", lang="de", locale="de-DE"))


def test_the_tools_keep_the_app_formats(client, db):
    from apps.food.models import Store
    from domain import food as logic

    s = db.all(Store)[0]
    _page(client, f"/store/{s.id}", locale="de-DE")
    st_ = logic.store_status(s, dt.datetime(2026, 3, 12, 12, 0))
    assert "label" in st_ and not re.search(r"\b\d\d:\d\d\b(?! [AP]M)", st_["label"])
    assert logic.slot_label(dt.datetime(2026, 3, 12, 18, 0)) == "6:00 PM – 6:30 PM"


def test_ratings_and_distances_follow_the_locale():
    """4.4 / 3.0 mi in English (both), 4,4 / 3,0 mi in de-DE: one filter, `decimal`, read at each render."""
    from apps.food import create_app
    from apps.food.views.common import shown_decimal

    app = create_app({"TESTING": True, "GYM_TOKEN": "t"})
    for loc, rating, miles in (("en-US", "4.4", "3.0"), ("en-GB", "4.4", "3.0"), ("de-DE", "4,4", "3,0")):
        with app.test_request_context("/", headers={"Cookie": f"{DISPLAY_COOKIE}={encode_display(locale=loc)}"}):
            assert (shown_decimal(4.4), shown_decimal(3)) == (rating, miles), loc
