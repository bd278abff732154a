"""Store search: a query's normalisation and ranking, shared by the search page, the suggestions and the tools."""

from __future__ import annotations

import difflib
import itertools
import re
from typing import NamedTuple

from flask import g
from sqlalchemy import func, literal_column, or_, select

from apps._shared import db
from apps.food.models import MenuCategory, MenuItem, Store
from apps.food.services.stores import cuisine_map, cuisines, listed_cards

SYNONYMS = {
    "boba": "bubble tea", "milk tea": "bubble tea", "veggie": "vegetarian", "hamburger": "burgers",
    "burger": "burgers", "wings": "wings", "noodles": "noodle", "sub": "sandwiches", "subs": "sandwiches",
    "sandwich": "sandwiches", "taco": "tacos", "donut": "donuts", "doughnut": "donuts", "salad": "salad",
    "dessert": "desserts", "smoothie": "smoothies", "juice": "juice", "bbq": "bbq", "barbecue": "bbq",
    "fried chicken": "chicken", "dumpling": "dumplings", "ice cream": "ice cream", "breakfast": "breakfast",
    "brunch": "breakfast", "healthy": "healthy", "plant based": "vegan", "plant-based": "vegan",
}
# What DoorDash shows for a cuisine, diet or style the market has no store of its own for: the stores of the
# related cuisines (a search for "lebanese" lists the Middle Eastern and Mediterranean places).
RELATED = {
    "middle eastern": ["lebanese", "turkish", "persian", "afghan", "israeli", "kebab", "kebabs", "shawarma"],
    "mediterranean": ["lebanese", "turkish", "israeli", "spanish", "tapas", "paella"],
    "caribbean": ["jamaican", "cuban", "puerto rican", "dominican", "haitian", "trinidadian", "latin",
                  "latin american", "peruvian", "brazilian", "colombian", "venezuelan", "empanadas", "arepas"],
    "mexican": ["tex-mex", "tex mex", "latin", "latin american", "salvadoran", "pupusas", "tamales"],
    "american": ["soul", "southern", "cajun", "creole", "comfort", "diner", "steakhouse", "steak"],  # "food" is a stop word
    "chicken": ["soul", "southern", "peruvian"],
    "bbq": ["southern", "brazilian", "smokehouse"],
    "chinese": ["asian", "pan asian", "dim sum", "cantonese", "szechuan", "sichuan"],
    "dumplings": ["dim sum", "potstickers", "wontons", "wonton"],
    "japanese": ["asian", "pan asian"],
    "thai": ["asian", "pan asian", "filipino", "lao", "laotian"],
    "korean": ["asian", "pan asian"],
    "vietnamese": ["asian", "pan asian", "filipino"],
    "poke": ["hawaiian"],
    "ice cream": ["gelato", "froyo", "frozen yogurt", "soft serve", "sundae", "sundaes"],
    "healthy": ["keto", "low carb", "low-carb", "paleo", "organic", "dairy free", "dairy-free", "whole30",
                "clean eating", "salads", "high protein", "protein"],
    "vegan": ["dairy free", "dairy-free"],
    "italian": ["pasta", "spaghetti", "lasagna"],
    "bakery": ["pastry", "pastries", "bread", "cafe", "café"],
    "coffee": ["cafe", "café", "tea", "latte", "espresso"],
    "bubble tea": ["tea"],
    "fast food": ["fastfood", "drive thru", "drive-thru", "quick bites"],
    "seafood": ["fish", "lobster", "oysters", "crab"],
    "french": ["bistro", "crepes", "crêpes"],
}
RELATED_TO: dict[str, list[str]] = {}  # word -> the cuisines it leads to
for _cz, _words in RELATED.items():
    for _w in _words:
        RELATED_TO.setdefault(_w, []).append(_cz)
TAG_WORDS = {"vegan": ["vg"], "vegetarian": ["v", "vg"], "gluten free": ["gf"], "gluten-free": ["gf"],
             "spicy": ["spicy"], "halal": ["halal"]}
STOP = re.compile(r"\b(near me|nearby|near|delivery|food|restaurants?|places?|open now|best|cheap|order)\b")


def normalize_query(q: str) -> tuple[str, bool]:
    q = (q or "").strip().lower()
    near = "near" in q
    q = STOP.sub(" ", q)
    q = re.sub(r"\s+", " ", q).strip(" ,.!?")
    return q, near


WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)*")  # a word: letters, with inner apostrophes ("tso's")
# A misspelt word's corrections: the world's words whose difflib ratio to it is at least FUZZY_CUTOFF. One edit
# (a letter deleted, replaced, inserted, or two swapped) in a word of n >= 4 letters keeps a ratio of at least
# (n - 1) / n >= 0.75; two edits pass only in long words (8+ letters): the tolerance scales with the length.
# A 3-letter word is corrected too (a 4-letter word with a letter dropped: "oll" -> "roll"), but a 3-letter
# word one letter off another scores 0.67, so "pho" or "pie" never turn into something else.
FUZZY_MIN_LEN = 3
FUZZY_CUTOFF = 0.75
FUZZY_CANDIDATES = 6  # per word, best first
FUZZY_PHRASES = 12  # corrected queries tried at most
# A corrected query's matches score this fraction of an exact match's (the k-th guess: a (k + 1)th of it): the best
# of them (a store name, 15 x 0.1) ranks below the least exact match (one dish, 2.5), so typo matches always come
# after exact ones, and the best guess's ("piza": pizza) before the next's (pita).
FUZZY_WEIGHT = 0.1


class Found(NamedTuple):
    """A search's answer: store cards (with .score and .match), dish items, and the corrected query the results
    came from when the query was misspelt and nothing matched it as typed (else None)."""

    cards: list
    dishes: list[MenuItem]
    corrected: str | None = None


def vocabulary() -> frozenset[str]:
    """Every word a query can mean: the words of store names, cuisines (names and slugs), store tags, dish names
    and menu sections, and the words the search knows of its own (synonyms, related cuisines, diet tags).
    Memoised per request: nothing a user does changes them."""
    if "food_vocab" not in g:
        texts: list[str] = []
        for name, tags in db().execute(select(Store.name, Store.tags)):
            texts.append(name)
            texts.extend(tags or [])
        for c in cuisines():
            texts += [c.name, c.slug.replace("-", " ")]
        texts += db().scalars(select(MenuItem.name).distinct())
        texts += db().scalars(select(MenuCategory.name).distinct())
        texts += list(SYNONYMS) + list(SYNONYMS.values()) + list(RELATED) + list(RELATED_TO) + list(TAG_WORDS)
        g.food_vocab = frozenset(w for t in texts for w in WORD.findall(t.lower()))
    return g.food_vocab


def close_words(word: str, vocab: frozenset[str] | None = None) -> list[str]:
    """The world's words a misspelt `word` may mean (difflib ratio >= FUZZY_CUTOFF), best first; none for a
    short word."""
    if len(word) < FUZZY_MIN_LEN:
        return []
    vocab = vocabulary() if vocab is None else vocab
    near = [w for w in vocab if abs(len(w) - len(word)) <= 2 and w != word]  # more than 2 apart: ratio < cutoff
    return difflib.get_close_matches(word, near, n=FUZZY_CANDIDATES, cutoff=FUZZY_CUTOFF)


def corrections(q: str, *, all_words: bool = False) -> list[str]:
    """Queries `q` may have meant, best guesses first. Words that are no word of the world are corrected (each
    to its close words, the rest of the query kept as typed: "margherta pizza" -> "margherita pizza"); with
    `all_words` (the query as typed found nothing), a real word may be the typo too ("park bun" -> "pork bun"),
    one word at a time."""
    vocab = vocabulary()
    spans = [(m.start(), m.end(), m.group()) for m in WORD.finditer(q)]
    unknown = [sp for sp in spans if len(sp[2]) >= FUZZY_MIN_LEN and sp[2] not in vocab]
    out: list[str] = []
    if unknown:
        options = [close_words(w, vocab) or [w] for _a, _b, w in unknown]
        for combo in itertools.islice(itertools.product(*options), FUZZY_PHRASES):
            out.append(_replace(q, list(zip(unknown, combo))))
    elif all_words:
        for sp in spans:
            for w in close_words(sp[2], vocab):
                out.append(_replace(q, [(sp, w)]))
    return [p for p in dict.fromkeys(out) if p != q][:FUZZY_PHRASES]


def _replace(q: str, subs: list[tuple[tuple[int, int, str], str]]) -> str:
    for (a, b, _w), new in sorted(subs, key=lambda x: -x[0][0]):
        q = q[:a] + new + q[b:]
    return q


def search_stores(q: str) -> Found:
    """The one search (the search page, the tools' search; the typeahead shares its corrections), for a
    normalised query.

    A store matches by its name, its cuisine, its tags, or a dish on its menu (by the dish's name, or its
    dietary tag for "vegan", "spicy"...); a word that names a related cuisine ("lebanese", "gelato", "keto")
    adds that cuisine's stores, ranked below direct matches. A misspelt word ("piza", "burito") is forgiven:
    the corrected queries (`corrections`) match the same way, ranked after every exact match. Failing all
    that: any word of the query. Only stores that serve the user's mode are found (`listed_cards`).
    """
    cards = listed_cards()
    by_id = {c.s.id: c for c in cards}
    cz = cuisine_map()
    scores: dict[int, float] = {}
    matches: dict[int, str] = {}
    dishes: list[tuple[int, MenuItem]] = []  # (tier: 0 exact, 1 + k the k-th correction, item)

    def bump(sid: int, sc: float) -> None:
        if sid in by_id:
            scores[sid] = max(scores.get(sid, 0), sc)

    def match_term(t: str, weight: float, tier: int) -> None:
        for c in cards:
            name = c.s.name.lower()
            cname = cz[c.s.cuisine_id].name.lower()
            if t in name:
                bump(c.s.id, (10 + (5 if name.startswith(t) else 0)) * weight)
            if t == cname or t == cz[c.s.cuisine_id].slug or (len(t) >= 4 and t in cname):
                bump(c.s.id, 8 * weight)
            if any(t == tag or (len(t) >= 4 and t in tag) for tag in c.s.tags):
                bump(c.s.id, 6 * weight)
        conds = [func.lower(MenuItem.name).like(f"%{t}%")]
        for tag in TAG_WORDS.get(t, []):
            conds.append(literal_column("menu_items.tags").like(f'%"{tag}"%'))
        add_dishes(list(db().scalars(select(MenuItem).where(or_(*conds)).order_by(MenuItem.id))), weight, tier)

    def add_dishes(found: list[MenuItem], weight: float, tier: int) -> None:
        found = [it for it in found if it.store_id in by_id]
        per_store: dict[int, list[MenuItem]] = {}
        for it in found:
            per_store.setdefault(it.store_id, []).append(it)
        for sid, its in per_store.items():
            bump(sid, (2 + min(len(its), 5) * 0.5) * weight)
            matches.setdefault(sid, its[0].name)
        dishes.extend((tier, it) for it in found)

    def direct(t: str, weight: float = 1.0, tier: int = 0) -> None:
        """The query as it reads: names, cuisines, tags, dishes, its synonym, its singular, a menu section,
        the related cuisines."""
        before = len(scores)
        match_term(t, weight, tier)
        if t in SYNONYMS and SYNONYMS[t] != t:
            match_term(SYNONYMS[t], weight, tier)
        if len(scores) == before and t.endswith("s") and len(t) > 3:
            match_term(t[:-1], weight, tier)
        if not any(tr == tier for tr, _ in dishes) and len(t) >= 4:  # a menu section: "pasta", "pastries"
            secs = select(MenuCategory.id).where(func.lower(MenuCategory.name).like(f"%{t}%"))
            add_dishes(list(db().scalars(select(MenuItem).where(MenuItem.category_id.in_(secs)).order_by(MenuItem.id))),
                       weight, tier)
        for rel in RELATED_TO.get(t, []):  # related cuisines, below direct matches
            for c in cards:
                if cz[c.s.cuisine_id].name.lower() == rel:
                    bump(c.s.id, 5 * weight)

    direct(q)
    exact = bool(scores)
    corrected = None
    for k, alt in enumerate(corrections(q, all_words=not scores)):  # typos: after every exact match, best guess first
        n = len(scores), len(dishes)
        direct(alt, FUZZY_WEIGHT / (1 + k), 1 + k)
        if corrected is None and (len(scores), len(dishes)) != n:
            corrected = alt
    if not scores and " " in q:  # any word
        for w in [w for w in q.split() if len(w) >= 3]:
            sub = search_stores(w)
            for c in sub.cards:
                bump(c.s.id, c.score / 2)
                if c.match:
                    matches.setdefault(c.s.id, c.match)
            dishes.extend((0, it) for it in sub.dishes)
    out = []
    for sid, sc in scores.items():
        c = by_id[sid]
        c.score = sc
        c.match = matches.get(sid, "")
        out.append(c)
    # dishes: exact matches first; then best-rated stores first, one row per (store, dish name)
    seen = set()
    first, rest = [], []
    stores_seen: set[int] = set()
    for tier, it in sorted(dishes, key=lambda d: (d[0], -by_id[d[1].store_id].s.rating, d[1].id)):
        key = (it.store_id, it.name)
        if key in seen:
            continue
        seen.add(key)
        (rest if (tier, it.store_id) in stores_seen else first).append((tier, it))
        stores_seen.add((tier, it.store_id))
    ordered = sorted(first + rest, key=lambda d: d[0])  # stable: within a tier, one dish per store first
    return Found(out, [it for _t, it in ordered], corrected if (out and not exact) else None)
