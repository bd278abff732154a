"""Store search: a query's normalisation and ranking, shared by the search page, the suggestions and the tools."""

from __future__ import annotations

import re

from sqlalchemy import func, literal_column, or_, select

from apps._shared import db
from apps.food.models import MenuCategory, MenuItem
from apps.food.services.stores import all_cards, cuisine_map

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


def search_stores(q: str):
    """(store cards with .score and .match, dish items) for a normalised query.

    A store matches by its name, its cuisine, its tags, or a dish on its menu (by the dish's name, or its
    dietary tag for "vegan", "spicy"...); a word that names a related cuisine ("lebanese", "gelato", "keto")
    adds that cuisine's stores, ranked below direct matches. Failing all that: the singular, dishes in a menu
    section of that name ("pasta"), then any word of the query.
    """
    cards = all_cards()
    by_id = {c.s.id: c for c in cards}
    cz = cuisine_map()
    scores: dict[int, float] = {}
    matches: dict[int, str] = {}
    dishes: list[MenuItem] = []

    def bump(sid: int, sc: float) -> None:
        scores[sid] = max(scores.get(sid, 0), sc)

    def match_term(t: str, weight: float = 1.0) -> None:
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
        add_dishes(list(db().scalars(select(MenuItem).where(or_(*conds)).order_by(MenuItem.id))), weight)

    def add_dishes(found: list[MenuItem], weight: float = 1.0) -> None:
        per_store: dict[int, list[MenuItem]] = {}
        for it in found:
            per_store.setdefault(it.store_id, []).append(it)
        for sid, its in per_store.items():
            bump(sid, (2 + min(len(its), 5) * 0.5) * weight)
            matches.setdefault(sid, its[0].name)
        dishes.extend(found)

    match_term(q)
    if q in SYNONYMS and SYNONYMS[q] != q:
        match_term(SYNONYMS[q])
    if not scores and q.endswith("s") and len(q) > 3:
        match_term(q[:-1])
    if not dishes and len(q) >= 4:  # a menu section: "pasta", "pastries", "noodles"
        secs = select(MenuCategory.id).where(func.lower(MenuCategory.name).like(f"%{q}%"))
        add_dishes(list(db().scalars(select(MenuItem).where(MenuItem.category_id.in_(secs)).order_by(MenuItem.id))))
    for rel in RELATED_TO.get(q, []):  # related cuisines, below direct matches
        for c in cards:
            if cz[c.s.cuisine_id].name.lower() == rel:
                bump(c.s.id, 5)
    if not scores and " " in q:  # any word
        words = [w for w in q.split() if len(w) >= 3]
        for w in words:
            sub_cards, sub_dishes = search_stores(w)
            for c in sub_cards:
                bump(c.s.id, c.score / 2)
                if c.match:
                    matches.setdefault(c.s.id, c.match)
            dishes += sub_dishes
    out = []
    for sid, sc in scores.items():
        c = by_id[sid]
        c.score = sc
        c.match = matches.get(sid, "")
        out.append(c)
    # dishes: best-rated stores first, one row per (store, dish name)
    seen = set()
    first, rest = [], []
    stores_seen: set[int] = set()
    for it in sorted(dishes, key=lambda i: (-by_id[i.store_id].s.rating, i.id)):
        key = (it.store_id, it.name)
        if key in seen:
            continue
        seen.add(key)
        (rest if it.store_id in stores_seen else first).append(it)
        stores_seen.add(it.store_id)
    return out, first + rest
