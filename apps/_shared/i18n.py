"""The pages' UI language (issue 45's `lang` axis): English, or German where an app's look has its catalog.

The words of a page's chrome (buttons, labels, menus, headings, placeholders, aria-labels, titles, the server's
flash messages, empty states) are written in English in the templates and the views, each wrapped once:
`{{ _('Compose') }}` in a template, `gettext("Conversation archived.")` in Python, `t('Undo')` in the page
scripts (the layout hands them the page's catalog). The German words live in one gettext catalog per app,
`apps/<app>/translations/de/LC_MESSAGES/messages.po`, read at start with Babel's own reader (no compiled .mo:
a clean clone needs no build step). The world's data (mail, names, dishes) and the task goals stay English.

In English a wrapped string is the template's text byte for byte (`_` returns it as it is written, markup
included), so the default language's pages are the pages they were. A msgid is written as the template
writes the text (an `&amp;` where the HTML had one); lookups by accessible name (`names`) read it unescaped.

The same catalog renames the controls a task's steps address: apps/_shared/surface.py `Surface.translate`
takes the default look's names into the language through `names(app, lang)`, so one gold solution plays in
every language.

Which looks speak which languages: `AppSpec.langs` (look -> languages beyond English); a run that asks for a
language an app or look does not have is refused (gym_core/variant.py), never shown a silent English page.
"""

from __future__ import annotations

import html
from functools import lru_cache
from pathlib import Path

from markupsafe import Markup, escape

from apps._shared.display import DEFAULT_LANG, LANGS, current_lang  # noqa: F401 - the request's language is a display pref
from apps._shared.request_filters import per_request

LANG_NAMES = {"en": "English", "de": "German"}
APPS_DIR = Path(__file__).resolve().parent.parent
CONTEXT_SEP = "\x04"  # GNU gettext's separator of a message's context and its msgid


def catalog_path(app: str, lang: str) -> Path:
    return APPS_DIR / app / "translations" / lang / "LC_MESSAGES" / "messages.po"


@lru_cache(maxsize=16)
def catalog(app: str, lang: str) -> dict[str, str]:
    """msgid -> msgstr of the app's catalog in `lang` ({} for English, or an app without one); untranslated and
    fuzzy entries are left out (they show in English)."""
    if lang == DEFAULT_LANG:
        return {}
    path = catalog_path(app, lang)
    if not path.exists():
        return {}
    from babel.messages.pofile import read_po

    with path.open("rb") as f:
        cat = read_po(f, locale=lang)
    # A message with a context (msgctxt) is keyed "context\x04msgid", as GNU gettext keys it (see `pgettext`).
    return {(f"{m.context}{CONTEXT_SEP}{m.id}" if m.context else m.id): m.string
            for m in cat if m.id and isinstance(m.id, str) and m.string and not m.fuzzy}


@lru_cache(maxsize=16)
def names(app: str, lang: str) -> dict[str, str]:
    """The catalog as accessible names read it (entities unescaped): 'Save & close' -> 'Speichern & schließen'."""
    return {html.unescape(k): html.unescape(v) for k, v in catalog(app, lang).items()}


def _current(of) -> dict[str, str]:
    """The current request's app's catalog (or its `names`) in the request's language ({} in English)."""
    lang = current_lang()
    if lang == DEFAULT_LANG:
        return {}
    from flask import current_app

    return of(current_app.extensions["uigym_spec"].name, lang)


def gettext(msgid: str, **kw) -> str:
    """`msgid` in the current request's language, `%(name)s` filled from `kw` (for Python: flash messages)."""
    return pgettext("", msgid, **kw)


def pgettext(context: str, msgid: str, **kw) -> str:
    """`msgid` where the same English says different things in German (msgctxt `context`): "me" is "ich" among a
    thread's senders and "mich" in "an mich", its recipients. English, or no entry: `msgid`. No context: `gettext`."""
    s = _current(catalog).get(f"{context}{CONTEXT_SEP}{msgid}" if context else msgid, msgid)
    return s % kw if kw else s


def _jinja_gettext(msgid: str, **kw) -> Markup:
    """Templates' `_`: the text as the template writes it (markup included; the catalog's German likewise), the
    arguments escaped."""
    return _jinja_pgettext("", msgid, **kw)


def _jinja_pgettext(context: str, msgid: str, **kw) -> Markup:
    """Templates' `pgettext`: `_` for a message with a context (food's drawer "Home" is "Startseite", while an address
    labelled Home stays the world's word). No context: `_`."""
    s = Markup(_current(catalog).get(f"{context}{CONTEXT_SEP}{msgid}" if context else msgid, msgid))
    return s % {k: escape(v) for k, v in kw.items()} if kw else s


def page_catalog() -> dict[str, str]:
    """The catalog the page scripts' `t()` reads ({} in English): the whole app's, it is small; unescaped as
    accessible names read it (`names`, built once per app and language, not per page)."""
    return _current(names)


def ui(text):
    """A template's filter for a word that comes from the code, not the template (a folder's title, a menu's option):
    its translation where the catalog has one, else the text as it is (escaped as any value): `{{ f.title|ui }}`."""
    if not isinstance(text, str):
        return text
    hit = _current(catalog).get(text)
    return text if hit is None else html.unescape(hit)


def init_i18n(app) -> None:
    """Templates see `_`, the `ui` filter, `page_catalog()` and `lang`."""
    app.jinja_env.globals["_"] = _jinja_gettext
    app.jinja_env.globals["gettext"] = _jinja_gettext
    app.jinja_env.globals["pgettext"] = _jinja_pgettext
    app.jinja_env.globals["page_catalog"] = page_catalog
    app.jinja_env.filters["ui"] = per_request(ui)  # the request's language: never folded at compile time

    @app.context_processor
    def _lang_context():
        return {"lang": current_lang()}


__all__ = ["ui", "LANGS", "DEFAULT_LANG", "LANG_NAMES", "catalog", "names", "current_lang", "gettext", "page_catalog",
           "init_i18n", "catalog_path", "pgettext"]


# ---------------------------------------------------------------------------------------------- the check
# What a page in another language may still show in English: the brand, the product's loanwords, data, operators.
SAME_IN = {"de": {"Inkbox", "Mail", "OK", "Spam", "Cc", "Bcc", "Labels", "Label", "Name", "Sans Serif", "Serif", "Filter",
                  "Details", "App", "Apps", "Status", "Info", "E-Mail", "Normal", "(optional)", "Garamond", "Georgia",
                  "Tahoma", "Trebuchet MS", "Verdana", "subject:",
                  # food: the brand and its membership, the card's code, the gift card's mask
                  "Forkful", "FORKFUL", "Plus", "CVC", "Optional", "XXXX",
                  # the months German spells as English does (August 2024, November 2025)
                  "April", "August", "September", "November"}}
_TEXT_ATTRS = ("aria-label", "placeholder", "title", "alt")
_WORD = __import__("re").compile(r"[A-Za-z]{3,}")


def page_strings(page: str) -> list[str]:
    """The words a page shows or names its controls with: its text (outside scripts, styles and icon ligatures) and
    its aria-label, placeholder, title and alt attributes."""
    from html.parser import HTMLParser

    out: list[str] = []

    class P(HTMLParser):
        skip = 0

        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            for k in _TEXT_ATTRS:
                if a.get(k):
                    out.append(a[k].strip())
            icon = "material-symbols" in (a.get("class") or "") or a.get("aria-hidden") == "true"
            if tag in ("script", "style", "template") or (icon and tag in ("span", "i")):
                self.skip += 1
                self._stack = getattr(self, "_stack", []) + [tag]

        def handle_endtag(self, tag):
            st = getattr(self, "_stack", [])
            if self.skip and st and st[-1] == tag:
                st.pop()
                self.skip -= 1

        def handle_data(self, data):
            if not self.skip and data.strip():
                out.append(" ".join(data.split()))

    P(convert_charrefs=True).feed(page)
    return [s for s in out if s]


def untranslated(page_en: str, page_lang: str, lang: str, data_words: set[str] = frozenset(),
                 app: str | None = None) -> list[str]:
    """The strings the page in `lang` still shows in English: those it shows exactly as the English page does, with a
    word that is neither the world's (`data_words`: every word of the world's data) nor kept in that language
    (SAME_IN, or a message `app`'s catalog gives unchanged); and, whatever its words, any string that is a message of
    the catalog ("Primary" is chrome even where a world's column holds "primary"). [] for a page fully in `lang`."""
    english = set(page_strings(page_en))
    known = names(app, lang) if app else {}
    # A message the catalog gives as it is ("App Launcher", "Feed" in Salesforce's German) is kept on purpose.
    kept = SAME_IN.get(lang, set()) | {k for k, v in known.items() if k == v}
    bad = []
    for s in dict.fromkeys(page_strings(page_lang)):
        if s not in english or s in kept:
            continue
        words = [w for w in _WORD.findall(s) if w not in kept and w.lower() not in data_words]
        if words or known.get(s, s) != s:
            bad.append(s)
    return bad
