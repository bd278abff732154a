"""How a locale shows dates, times, money and numbers (issue 45's locale axis), from CLDR through Babel.

The clones write en-US their own way (their formats are the products' own: Gmail's "Mar 3", "10:24 AM"); a
page shown in another locale (apps/_shared/display.py, `current_locale`) formats through these instead:
en-GB writes "3 Mar", "15:21", "US$1,234.50", "05/03/2026"; de-DE "3. März", "15:21", "1.234,50 $", "05.03.26".
The money stays the world's (US dollars): a locale changes how it is written, never what it is. What a page
reads back (a date typed in a form, a time field) keeps the app's own format in every locale for now.
"""

from __future__ import annotations

import datetime as dt
from functools import lru_cache

LOCALES: tuple[str, ...] = ("en-US", "en-GB", "de-DE")
DEFAULT_LOCALE = "en-US"
CURRENCY = "USD"  # every clone's world is priced in US dollars


@lru_cache(maxsize=8)
def _babel(locale: str):
    from babel import Locale

    return Locale.parse(locale.replace("-", "_"))


def money(amount: float | int, locale: str, decimals: int = 2) -> str:
    """$1,234.50 / US$1,234.50 / 1.234,50 $ (decimals 0: whole dollars)."""
    from babel.numbers import format_currency

    fmt = None
    if decimals == 0:
        pattern = _babel(locale).currency_formats["standard"].pattern
        fmt = pattern.replace(".00", "").replace(",00", "")
    return format_currency(amount, CURRENCY, format=fmt, locale=_babel(locale), currency_digits=decimals != 0)


def money_short(amount: float | int, locale: str) -> str:
    """A chart's amount, short: $310K / US$310k / 310.000 $; millions 2,2 Mio. $ (German CLDR has no short form for
    thousands, so it writes them whole)."""
    from babel.numbers import format_compact_currency

    if abs(amount) < 1_000_000 and not locale.startswith("en"):
        return money(amount, locale, 0)
    return format_compact_currency(amount, CURRENCY, locale=_babel(locale), fraction_digits=1)


def month(d: dt.date, locale: str, year: bool = False) -> str:
    """March / März (the standalone name); with the year: March 2025 / März 2025."""
    from babel.dates import format_date, format_skeleton

    return format_skeleton("yMMMM", d, locale=_babel(locale)) if year else format_date(d, "LLLL", locale=_babel(locale))


def number(n: float | int, locale: str, decimals: int | None = None) -> str:
    """12,345 / 12.345 (decimals: that many places)."""
    from babel.numbers import format_decimal

    if decimals is None:
        return format_decimal(n, locale=_babel(locale))
    return format_decimal(n, format="#,##0" + ("." + "0" * decimals if decimals else ""), locale=_babel(locale))


def time(t: dt.datetime | dt.time, locale: str) -> str:
    """3:21 PM / 15:21 / 15:21"""
    from babel.dates import format_time

    return format_time(t, "short", locale=_babel(locale)).replace("\u202f", " ")


def date_short(d: dt.date, locale: str) -> str:
    """3/5/26 / 05/03/2026 / 05.03.26"""
    from babel.dates import format_date

    return format_date(d, "short", locale=_babel(locale))


def date_numeric(d: dt.date, locale: str) -> str:
    """3/5/2026 / 05/03/2026 / 5.3.2026"""
    from babel.dates import format_skeleton

    return format_skeleton("yMd", d, locale=_babel(locale))


def skeleton(d: dt.date, fields: str, locale: str) -> str:
    """A date by CLDR skeleton: 'MMMd' -> Mar 5 / 5 Mar / 5. März; 'yMMMEd' -> Thu, Mar 5, 2026 / ...; 'MMMEd'."""
    from babel.dates import format_skeleton

    return format_skeleton(fields, d, locale=_babel(locale))


__all__ = ["LOCALES", "DEFAULT_LOCALE", "CURRENCY", "money", "money_short", "month", "number", "time", "date_short",
           "date_numeric", "skeleton"]
