"""QA of a page language other than English (issue 45's lang axis): every page the crawl reached, read in the
language and in English from the same world, shows no English chrome (`apps._shared.i18n.untranslated`: a string the
English page shows as it is, with a word that is neither the world's data nor one the language keeps; or any
message of the app's catalog left in English).

The pages are read as the app serves them (the server's HTML: its templates, its labels and the strings the page
scripts take from the catalog), once with the crawl's display cookie and once without it, over one fresh world of the
crawl's seed and look. A GET changes nothing (the crawl would have flagged one that did).
"""

from __future__ import annotations

import re
import uuid

import httpx

from agent_harness.qa.report import Defect
from apps import display_cookie, untranslated
from gym_core.runtime import Runtime

_WORD = re.compile(r"[A-Za-z]+")
_WORD3 = re.compile(r"[A-Za-z]{3,}")


def crawl_lang(variant: str | None) -> str | None:
    """The page language a QA variant names outright, other than English (None: English, or drawn per episode)."""
    from gym_core.variant import DEFAULT_LANG, parse_variant

    want = parse_variant(variant).lang
    return want if isinstance(want, str) and want not in ("random", DEFAULT_LANG) else None


def world_text(state: dict) -> list[str]:
    """Every string value of a world's data (its state, bookkeeping aside)."""
    out: list[str] = []

    def walk(v) -> None:
        if isinstance(v, str):
            out.append(v)
        elif isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    walk({k: v for k, v in state.items() if not k.startswith("_")})
    return out


def data_words(state: dict, texts: list[str] | None = None) -> set[str]:
    """Every word of a world's data (lower case): these stay as the world wrote them. `texts`: its `world_text`,
    where the caller has it already."""
    return {w.lower() for v in (world_text(state) if texts is None else texts) for w in _WORD.findall(v)}


def is_data(s: str, haystack: str, values: frozenset[str] = frozenset()) -> bool:
    """A string the page shows that is a piece of the world's data: a message's snippet ("- Hi Megan, Our book..."
    cut mid-word), a subject, a name; or a code of the world's, one of its whole `values` with no word of three
    letters (the state OR, which the catalog also holds as the convert dialog's ODER). `haystack`: the world's
    strings, lower case, joined by NUL."""
    if s in values and not _WORD3.search(s):
        return True
    core = " ".join(s.strip().lstrip("-–— ").rstrip(".… ").split()).lower()
    return len(core) >= 8 and core in haystack


async def language_defects(app: str, paths: list[str], lang: str, *, seed: int, look: str | None = None,
                           locale: str | None = None, runtime: Runtime | None = None) -> list[Defect]:
    """One `untranslated` defect per page of `paths` that shows English chrome in `lang` (the strings in its
    detail); a page that does not answer 200 in both languages is the crawl's to report, not this check's."""
    runtime = runtime or Runtime.current()
    server = await runtime.server(app)
    control = runtime.control(server)
    world = f"qa-lang-{uuid.uuid4().hex[:8]}"
    reset = await control.reset(world, seed, None, [], look=look)
    try:
        state = await control.state(world)
        texts = world_text(state)
        words = data_words(state, texts)
        haystack = "\x00".join(" ".join(v.split()).lower() for v in texts)
        values = frozenset(texts)
        binding = {reset["cookie"]["name"]: reset["cookie"]["value"]}
        shown = dict([*binding.items(), display_cookie(locale=locale, lang=lang)])
        out: list[Defect] = []
        async with httpx.AsyncClient(base_url=server.url, timeout=60, cookies=binding) as en_http, \
                httpx.AsyncClient(base_url=server.url, timeout=60, cookies=shown) as lang_http:
            for path in dict.fromkeys(paths):
                english = await en_http.get(path)
                other = await lang_http.get(path)
                if english.status_code != 200 or other.status_code != 200 or \
                        "text/html" not in other.headers.get("content-type", ""):
                    continue
                left = [s for s in untranslated(english.text, other.text, lang, words, app) if not is_data(s, haystack, values)]
                if left:
                    out.append(Defect("untranslated", f"{len(left)} string(s) in English on the {lang} page: "
                                      + "; ".join(repr(s[:60]) for s in left[:12]), page=path))
        return out
    finally:
        await control.drop(world)


__all__ = ["language_defects", "crawl_lang", "data_words", "world_text", "is_data"]
