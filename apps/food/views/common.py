"""Helpers every Forkful view uses: the user, the cart, store-card data, header context."""

from __future__ import annotations

import datetime as dt
import re
from functools import lru_cache
from typing import Any

from flask import jsonify, request

from apps._shared import now
from apps._shared.actions import not_found
from apps._shared import i18n
from apps._shared import locale as L
from apps._shared.display import current_locale
from apps._shared.looks import say
from apps._shared.request_filters import per_request
from apps.food.services import Conflict, Invalid, NotFound

# The user and the cart live in the service layer (apps/food/services/state.py); re-exported for the views.
from apps.food.services.state import (  # noqa: F401
    addresses,
    cart,
    cart_count,
    cart_items,
    cart_subtotal,
    current_address,
    forget_cart,
    user,
)
# The store cards, filters and option groups are the service layer's (apps/food/services/stores.py).
from apps.food.services.stores import (  # noqa: F401
    SORTS,
    StoreCard,
    all_cards,
    apply_filters,
    cuisine_map,
    cuisines,
    deal_badge,
    fee_label,
    item_groups,
    listed_cards,
    saved_ids,
    sort_cards,
    store_card,
    store_deals,
)
from domain import food as logic


# The replies of a refused service call (apps/_shared/actions.py `perform`), as the page's scripts read them.
def json_error(e: Invalid):
    """A refusal the page shows: 200, {ok: false, error}, in the look's words."""
    return jsonify(ok=False, error=phrase(say(str(e))))


def json_form_errors(e):
    """A form with wrong fields: 200, {ok: false, errors: {field: message}}."""
    return jsonify(ok=False, errors={k: phrase(v) for k, v in e.errors.items()})


def json_404(e: NotFound):
    return jsonify(error=str(e)), 404


def json_conflict(e: Conflict):
    """The cart holds another store's items: the page asks "Start a new cart?"."""
    return jsonify(ok=False, conflict=True, current_store=e.current_store, new_store=e.new_store)


JSON_ERRORS = {NotFound: not_found, Invalid: json_error}  # an unknown id is the 404 page


FILTER_KEYS = ("r45", "fast", "price", "plus", "deals", "pickup", "sort")
def read_filters() -> dict[str, Any]:
    a = request.args
    price = sorted({int(p) for p in a.get("price", "").split(",") if p.isdecimal() and 1 <= int(p) <= 4})
    sort = a.get("sort", "recommended")
    return {
        "r45": a.get("r45") == "1", "fast": a.get("fast") == "1", "price": price,
        "plus": a.get("plus") == "1", "deals": a.get("deals") == "1", "pickup": a.get("pickup") == "1",
        "sort": sort if sort in SORTS else "recommended",
    }


def any_filter(f: dict) -> bool:
    return any([f["r45"], f["fast"], f["price"], f["plus"], f["deals"], f["pickup"], f["sort"] != "recommended"])


def filter_url(f: dict, base: str, **change: Any) -> str:
    """URL of `base` with the filters `f` changed by `change` (None removes)."""
    from urllib.parse import urlencode

    cur = dict(f)
    cur.update(change)
    params = {}
    if request.args.get("q"):
        params["q"] = request.args["q"]
    for k in ("r45", "fast", "plus", "deals", "pickup"):
        if cur.get(k):
            params[k] = "1"
    if cur.get("price"):
        params["price"] = ",".join(str(p) for p in cur["price"])
    if cur.get("sort") and cur["sort"] != "recommended":
        params["sort"] = cur["sort"]
    qs = urlencode(params)
    return base + ("?" + qs if qs else "")


def shown_money(cents: int | None) -> str:
    """Money as the page shows it: the app's own $1,234.50 in en-US, else the page's locale (apps/_shared/locale.py).
    What a service returns to a tool, or writes into the world, stays `logic.money`."""
    loc = current_locale()
    return logic.money(cents) if loc == L.DEFAULT_LOCALE else L.money(int(cents or 0) / 100, loc)


def shown_whole(cents: int | None) -> str:
    """Whole dollars as the page shows them: the app's own "$12" in en-US, else the page's locale ("12 $")."""
    loc = current_locale()
    return logic.money_whole(cents) if loc == L.DEFAULT_LOCALE else L.money(int(cents or 0) // 100, loc, decimals=0)


def shown_fee(card: Any) -> str:
    """A store card's fee line in the page's locale and language (services/stores.fee_label)."""
    return phrase(fee_label(card.fee_kind, card.fee_cents, card.mode, shown_money, shown_whole))


def shown_promo(promo: Any) -> str:
    """A promotion's summary in the page's locale and language (domain/food.promo_summary)."""
    return phrase(logic.promo_summary(promo, shown_money, shown_whole))


def shown_time(when: Any) -> str:
    """A time of day as the page shows it: the app's own "8:05 PM" in en-US, else the page's locale ("20:05");
    `when` a datetime or minutes after midnight (as logic.fmt_time takes it)."""
    loc = current_locale()
    if loc == L.DEFAULT_LOCALE:
        return logic.fmt_time(when)
    if not isinstance(when, dt.datetime):
        when = dt.time(*divmod(int(when) % 1440, 60))
    return L.time(when, loc)


_US_TIME_RX = re.compile(r"(?<![\d:])(1[0-2]|[1-9]):([0-5]\d) (AM|PM)\b")


def clock(text: Any) -> Any:
    """Every time of day the app writes its English way ("Open until 9:00 PM", "6:00 PM – 6:30 PM") in the page's
    locale ("Open until 21:00"); en-US, or a text with no time: as it is."""
    loc = current_locale()
    if loc == L.DEFAULT_LOCALE or not isinstance(text, str) or ("AM" not in text and "PM" not in text):
        return text

    def _one(m: re.Match) -> str:
        h = int(m[1]) % 12 + (12 if m[3] == "PM" else 0)
        return L.time(dt.time(h, int(m[2])), loc)

    return _US_TIME_RX.sub(_one, text)


# the app's English dates by the CLDR skeleton each stands for (en-US: byte for byte what the templates wrote)
_EN_DATES = {
    "MMMd": lambda d: f"{d:%b} {d.day}",
    "MMMEd": lambda d: f"{d:%a, %b} {d.day}",
    "yMMMd": lambda d: f"{d:%b} {d.day}, {d.year}",
    "yMMMMEEEEd": lambda d: f"{d:%A, %B} {d.day}, {d.year}",
}


def shown_date(d: Any, fields: str = "MMMd") -> str:
    """A date as the page shows it, by CLDR skeleton: en-US the app's own ("Apr 13", "Mon, Apr 13", "Apr 13, 2026",
    "Monday, April 13, 2026"), else the page's locale ("13 Apr" / "13. Apr."). Unknown skeleton: ValueError."""
    if fields not in _EN_DATES:
        raise ValueError(f"unknown date skeleton {fields!r}")
    loc = current_locale()
    return _EN_DATES[fields](d) if loc == L.DEFAULT_LOCALE else L.skeleton(d, fields, loc)


def shown_day(d: dt.date, today: dt.date) -> str:
    """logic.day_label ("Today", "Tomorrow", "Thu, Dec 18") with its date in the page's locale."""
    label = logic.day_label(d, today)
    return label if label in ("Today", "Tomorrow") else shown_date(d, "MMMEd")


def shown_decimal(x: Any, places: int = 1) -> str:
    """A rating or a distance as the page shows it: 4.4 / 3.0 in English, 4,4 / 3,0 in de-DE."""
    loc = current_locale()
    if loc.startswith("en"):
        return f"{float(x):.{places}f}"
    return L.number(float(x), loc, places)


def shown_count(n: int) -> str:
    """A ratings count as the page shows it: the app's own DoorDash "87", "2.6k+", "12k+" in en-US; else rounded down
    the same way and grouped in the page's locale ("2,600+" / "2.600+")."""
    loc = current_locale()
    if loc == L.DEFAULT_LOCALE:
        return logic.count_label(n)
    n = int(n)
    if n < 1000:
        return L.number(n, loc)
    step = 100 if n < 10000 else 1000
    return L.number(n // step * step, loc) + "+"


_SLOT_RX = re.compile(r"%\((\w+)\)s")


@lru_cache(maxsize=4)
def _phrase_patterns(lang: str) -> list[tuple[re.Pattern, str]]:
    """The catalog's messages with placeholders as patterns over the English the code builds ("Open until 9:00 PM",
    "$2.99 delivery fee"), the most specific (longest literal text) first."""
    out = []
    for msgid, msgstr in i18n.names("food", lang).items():
        if "%(" not in msgid or "<" in msgid:
            continue
        parts = _SLOT_RX.split(msgid)
        rx = "".join(re.escape(p.replace("%%", "%")) if i % 2 == 0 else f"(?P<{p}>.+?)" for i, p in enumerate(parts))
        out.append((len("".join(parts[::2])), re.compile(rx), msgstr))
    return [(rx, msgstr) for _, rx, msgstr in sorted(out, key=lambda t: -t[0])]


_MONTHS = dict(zip("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split(),
                   "Jan. Feb. März Apr. Mai Juni Juli Aug. Sept. Okt. Nov. Dez.".split()))
_MONTHS.update(zip("January February March April May June July August September October November December".split(),
                   "Januar Februar März April Mai Juni Juli August September Oktober November Dezember".split()))
_DAYS = dict(zip("Mon Tue Wed Thu Fri Sat Sun".split(), "Mo. Di. Mi. Do. Fr. Sa. So.".split()))
_DAYS.update(zip("Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split(),
                 "Montag Dienstag Mittwoch Donnerstag Freitag Samstag Sonntag".split()))
_DATE_RX = re.compile(r"(?:(?P<wd>[A-Z][a-z]+), )?(?P<mon>[A-Z][a-z]+) (?P<day>\d{1,2})(?:, (?P<year>\d{4}))?")


def _german_date(text: str) -> str | None:
    """A date the templates write the app's English way ("Thu, Dec 18", "Jan 28, 2026", "Thursday, December 18, 2025")
    as German writes it ("Do., 18. Dez.", "28. Jan. 2026"); None for anything else."""
    m = _DATE_RX.fullmatch(text)
    if not m or m["mon"] not in _MONTHS or (m["wd"] and m["wd"] not in _DAYS):
        return None
    out = f"{int(m['day'])}. {_MONTHS[m['mon']]}" + (f" {m['year']}" if m["year"] else "")
    return f"{_DAYS[m['wd']]}, {out}" if m["wd"] else out


def phrase(text: Any) -> Any:
    """A sentence the code builds in English (a store's status, a fee line, a promotion, a server message) in the page's
    language: the catalog's message, else the pattern of one of its messages with placeholders, the values in it
    translated where the catalog has them ("Monday"); a list ("Friendly, Fast delivery") item by item. English, or no
    message: the text as it is."""
    text = clock(text)  # its times in the page's locale first: the catalog's patterns take any time
    lang = i18n.current_lang()
    if lang == i18n.DEFAULT_LANG or not isinstance(text, str):
        return text
    words = i18n.names("food", lang)
    if text in words:
        return words[text]
    for rx, msgstr in _phrase_patterns(lang):
        m = rx.fullmatch(text)
        if m:
            return msgstr % {k: words.get(v, v) for k, v in m.groupdict().items()}
    if lang == "de" and (day := _german_date(text)) is not None:
        return day
    if ", " in text and all(p in words for p in text.split(", ")):
        return ", ".join(words[p] for p in text.split(", "))
    return text


def init_app(app) -> None:
    # in the page's locale: evaluated at each render (apps/_shared/request_filters.py)
    for name, fn in (("money", shown_money), ("money_whole", shown_whole), ("fee_label", shown_fee),
                     ("promo_summary", shown_promo)):
        app.jinja_env.filters[name] = per_request(fn)
    app.jinja_env.filters["count_label"] = per_request(shown_count)
    app.jinja_env.filters["decimal"] = per_request(shown_decimal)
    app.jinja_env.filters["clock"] = per_request(clock)
    app.jinja_env.globals["shown_time"] = shown_time
    app.jinja_env.globals["shown_date"] = shown_date
    app.jinja_env.globals["shown_day"] = shown_day
    app.jinja_env.filters["price_sign"] = logic.price_sign
    app.jinja_env.globals["logic"] = logic
    app.jinja_env.globals["filter_url"] = filter_url
    app.jinja_env.globals["SORTS"] = SORTS
    app.jinja_env.filters["phrase"] = per_request(phrase)  # the request's language: never folded at compile time
    app.jinja_env.globals["deal_badge"] = lambda p: phrase(deal_badge(p, shown_money, shown_whole))
    app.jinja_env.globals["brand_short"] = lambda b: {"Mastercard": "MC", "Discover": "DISC"}.get(b, b.upper() if b == "Visa" else b)
    app.jinja_env.globals["dt_delta"] = lambda m: dt.timedelta(minutes=m)

    @app.context_processor
    def _food_context():
        if request.endpoint is None or not request.endpoint.startswith("food.") or request.path.startswith("/img/"):
            return {}
        try:
            u = user()
        except Exception:  # noqa: BLE001 - no world (e.g. an error page before selection)
            return {}
        return {
            "me": u, "cur_addr": current_address(), "all_addrs": addresses(), "cart_n": cart_count(),
            "now_dt": now(),
        }


def parse_when(v: str | None) -> dt.datetime | None:
    if not v or not isinstance(v, str):
        return None
    try:
        return dt.datetime.fromisoformat(v)
    except ValueError:
        return None
