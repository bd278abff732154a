"""The display preferences an episode's variant gives the pages (issue 45): density, locale and language.

The world never holds them. The env sets them on the tab as one cookie, `uigym_display` (HttpOnly, beside
the world binding, gym_core/tab.py), e.g. `density=compact&locale=de-DE&lang=de`; each request reads it here. What
the cookie names and the app does not offer is ignored (the app's default shows): a page never fails on it.

- Density: the densities a product offers, per look (`AppSpec.densities`: look -> the values, in the
  variant's words compact / default / comfortable). Gmail and Outlook store the density in the account, and
  Lightning and HubSpot in the user: the world's setting. The variant's density is the user's preference
  where the world's setting is the product's default (`shown_density`); a density the user picks in the app
  is the world's, and from then on the world's shows (the pick's response drops the variant's density).
- Locale: how dates, times, money and numbers are shown (apps/_shared/locale.py), one of LOCALES.
- Lang: the language of the pages' words (apps/_shared/i18n.py), en or de where the app's look has it.
"""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode

from flask import Flask, current_app, g, has_request_context, request

from apps._shared.locale import DEFAULT_LOCALE, LOCALES

DISPLAY_COOKIE = "uigym_display"
LANGS: tuple[str, ...] = ("en", "de")  # the pages' languages (apps/_shared/i18n.py has their catalogs)
DEFAULT_LANG = "en"
DEFAULT_DENSITY = "default"


def encode_display(density: str | None = None, locale: str | None = None, lang: str | None = None) -> str:
    """The cookie value for these preferences ('' for none)."""
    return urlencode([(k, v) for k, v in (("density", density), ("locale", locale), ("lang", lang)) if v])


def _prefs() -> dict[str, str]:
    if not has_request_context():
        return {}
    cached = g.get("uigym_display")
    if cached is None:
        raw = request.cookies.get(DISPLAY_COOKIE) or ""
        try:
            cached = dict(parse_qsl(raw, max_num_fields=8))
        except ValueError:
            cached = {}
        g.uigym_display = cached
    return cached


def current_lang() -> str:
    """The language of the current request's pages' words (apps/_shared/i18n.py; English outside a request, or for one
    the app lacks)."""
    lang = _prefs().get("lang")
    return lang if lang in LANGS else DEFAULT_LANG


def current_locale() -> str:
    """The locale the current request's pages show (en-US outside a request, or for one the app lacks)."""
    loc = _prefs().get("locale")
    return loc if loc in LOCALES else DEFAULT_LOCALE


def variant_density() -> str | None:
    """The density the variant asks for, where the current look offers it (None: none, or not offered)."""
    want = _prefs().get("density")
    if not want or want == DEFAULT_DENSITY:
        return None
    from apps._shared.looks import current_look

    offered = current_app.extensions["uigym_spec"].densities.get(current_look(), ())
    return want if want in offered else None


def shown_density(world_value: str, product_default: str = DEFAULT_DENSITY,
                  names: dict[str, str] | None = None) -> str:
    """The density a page shows: the world's setting, or the variant's where the world's is the product's default.
    `names` maps the variant's words to the product's (the CRM's 'comfy' is 'default')."""
    want = variant_density()
    if want is None or world_value != product_default:
        return world_value
    return (names or {}).get(want, want)


def drop_variant_density(response):
    """The user picked a density in the app: from now on the world's setting shows (the response keeps the
    locale, drops the density)."""
    prefs = dict(_prefs())
    if prefs.pop("density", None) is not None:
        response.set_cookie(DISPLAY_COOKIE, encode_display(locale=prefs.get("locale"),
                                                           lang=prefs.get("lang")), httponly=True,
                            samesite="Strict")
    return response


def init_display(app: Flask) -> None:
    """Templates see `locale`, `html_lang` and `shown_density(...)`."""
    @app.context_processor
    def _display_context():
        loc, lang = current_locale(), current_lang()
        html_lang = lang if lang != DEFAULT_LANG else (loc.split("-")[0] if loc != DEFAULT_LOCALE else "en")
        return {"locale": loc, "html_lang": html_lang,
                "shown_density": shown_density}


__all__ = ["DISPLAY_COOKIE", "LANGS", "DEFAULT_LANG", "encode_display", "current_lang", "current_locale",
           "variant_density", "shown_density",
           "drop_variant_density", "init_display"]
