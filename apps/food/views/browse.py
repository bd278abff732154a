"""Home, search, cuisine pages, offers, search suggestions; delivery mode and address picker."""

from __future__ import annotations

import re

from flask import abort, jsonify, redirect, render_template, request, url_for
from sqlalchemy import func, literal_column, or_, select

from apps._shared import db, inputs, now
from apps.food.models import Address, Cuisine, MenuCategory, MenuItem, Order, Promo, Store
from apps.food.services import FormInvalid, Invalid, NotFound, account
from apps.food.views.blueprint import bp
from apps.food.views.common import (
    all_cards, any_filter, apply_filters, cuisine_map, cuisines, read_filters, sort_cards, store_deals, user,
)
from domain import food as logic

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


def _norm(q: str) -> tuple[str, bool]:
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


def order_again(cards: list) -> list:
    """The stores of your completed orders, most recently ordered first, each once (at most 12)."""
    rows = db().execute(select(Order.store_id).where(Order.status.in_(("delivered", "picked_up")))
                        .order_by(Order.placed_at.desc(), Order.id.desc())).scalars()
    by_id = {c.s.id: c for c in cards}
    out: list = []
    for sid in rows:
        if sid in by_id and by_id[sid] not in out:
            out.append(by_id[sid])
        if len(out) == 12:
            break
    return out


@bp.get("/")
def home():
    f = read_filters()
    cards = all_cards()
    ctx = {"f": f, "cuisine_list": cuisines(), "base": url_for("food.home")}
    if any_filter(f):
        res = apply_filters(cards, f)
        return render_template("food/home.html", filtered=res, **ctx)
    open_cards = [c for c in cards if c.status["state"] != "closed"]
    mode_ok = [c for c in open_cards if user().mode != "pickup" or c.s.offers_pickup]
    carousels = [
        ("Fastest near you", sorted(mode_ok, key=lambda c: (c.eta, c.s.id))[:12], {"sort": "eta"}),
        ("Deals for you", sort_cards([c for c in mode_ok if c.deal], "recommended")[:12], {"deals": True}),
        ("Popular near you", sorted(mode_ok, key=lambda c: (-c.s.review_count, c.s.id))[:12], {"sort": "recommended"}),
        ("New on Forkful", sort_cards([c for c in cards if c.is_new], "recommended")[:12], None),
        ("Top rated", sorted(mode_ok, key=lambda c: (-c.s.rating, -c.s.review_count, c.s.id))[:12], {"r45": True, "sort": "rating"}),
    ]
    saved = [c for c in cards if c.saved]
    if saved:
        carousels.insert(2, ("Your saved stores", saved, None))
    again = order_again(cards)
    if again:  # DoorDash's home opens with the stores you ordered from, most recent first
        carousels.insert(0, ("Order again", again, None))
    n = min(max(request.args.get("n", 24, type=int), 24), 400)  # type=int: garbage is the default; clamped
    everything = sort_cards([c for c in cards if user().mode != "pickup" or c.s.offers_pickup], "recommended")
    return render_template("food/home.html", carousels=carousels, all_stores=everything[:n], more=len(everything) > n,
                           next_n=n + 24, total=len(everything), **ctx)


@bp.get("/search")
def search():
    raw = request.args.get("q", "")
    q, near = _norm(raw)
    f = read_filters()
    if near and "sort" not in request.args:
        f["sort"] = "distance"
    cards, dishes = search_stores(q) if q else ([], [])
    res = apply_filters(cards, f)
    by_id = {c.s.id: c for c in res}
    dish_rows = [(it, by_id[it.store_id]) for it in dishes if it.store_id in by_id][:12]
    return render_template("food/search.html", q=raw, f=f, results=res, dishes=dish_rows,
                           base=url_for("food.search"))


@bp.get("/cuisine/<slug>")
def cuisine(slug: str):
    cz = db().scalars(select(Cuisine).where(Cuisine.slug == slug)).first()
    if cz is None:
        abort(404)
    f = read_filters()
    cards = [c for c in all_cards() if c.s.cuisine_id == cz.id]
    res = apply_filters(cards, f)
    return render_template("food/cuisine.html", cz=cz, f=f, results=res, cuisine_list=cuisines(),
                           base=url_for("food.cuisine", slug=slug))


@bp.get("/offers")
def offers():
    t = now()
    promos = [p for p in db().scalars(select(Promo).where(Promo.featured.is_(True)).order_by(Promo.id)) if p.expires_at > t]
    stores = {s.id: s for s in db().scalars(select(Store).where(Store.id.in_([p.store_id for p in promos if p.store_id])))}
    return render_template("food/offers.html", general=[p for p in promos if p.store_id is None],
                           store_promos=[(p, stores[p.store_id]) for p in promos if p.store_id], deals=store_deals())


@bp.get("/api/suggest")
def suggest():
    q, _near = _norm(request.args.get("q", ""))
    if not q:
        return jsonify(stores=[], dishes=[], cuisines=[])
    cz = [{"name": c.name, "url": url_for("food.cuisine", slug=c.slug)} for c in cuisines()
          if q in c.name.lower() or q in c.slug or (q in SYNONYMS and SYNONYMS[q] in c.name.lower())
          or c.name.lower() in RELATED_TO.get(q, [])][:3]
    like = f"%{q}%"
    stores = db().scalars(select(Store).where(func.lower(Store.name).like(like)).order_by(
        func.lower(Store.name).like(f"{q}%").desc(), Store.rating.desc(), Store.id).limit(5)).all()
    czm = cuisine_map()
    st = [{"name": s.name, "sub": f"{czm[s.cuisine_id].name} · {s.rating} ★", "url": url_for("food.store_page", store_id=s.id)}
          for s in stores]
    names = db().execute(select(MenuItem.name, func.count()).where(func.lower(MenuItem.name).like(like))
                         .group_by(MenuItem.name).order_by(func.count().desc(), MenuItem.name).limit(5)).all()
    dishes = [{"name": n, "sub": f"{c} store{'s' if c != 1 else ''}", "url": url_for("food.search", q=n)} for n, c in names]
    return jsonify(stores=st, dishes=dishes, cuisines=cz)


@bp.post("/api/mode")
def set_mode():
    try:
        account.set_mode(inputs.body().get("mode"))
    except Invalid as e:
        return jsonify(ok=False, error=str(e))
    db().commit()
    return _back() or jsonify(mode=user().mode)


def _back():
    nxt = request.form.get("next", "")
    if nxt.startswith("/") and not nxt.startswith("//"):
        return redirect(nxt)
    return None


@bp.post("/api/address/select")
def select_address():
    data = inputs.body()
    try:
        a = account.select_address(inputs.integer(data, "address_id", 0))
    except NotFound as e:
        return jsonify(error=str(e)), 404
    db().commit()
    return _back() or jsonify(ok=True, address=logic.address_line(a))


def address_fields(data) -> dict:
    """The address form's fields as the service reads them (an absent drop-off or note is left as is)."""
    out = {k: inputs.text(data, k, max_len=n) for k, n in (("street", 120), ("zip", 10), ("apt", 40), ("city", 60),
                                                            ("label", 40))}
    if "dropoff" in data:
        out["dropoff"] = data.get("dropoff")
    if "instructions" in data:
        out["instructions"] = inputs.text(data, "instructions", max_len=300)
    return out


@bp.post("/api/address")
def add_address():
    data = inputs.body()
    try:
        a = account.save_address(address_fields(data))
    except FormInvalid as e:
        return jsonify(ok=False, errors=e.errors)
    if data.get("select", "1") not in ("0", False):
        user().current_address_id = a.id
    db().commit()
    return jsonify(ok=True, id=a.id, address=logic.address_line(a))


@bp.post("/api/address/<int:aid>")
def edit_address(aid: int):
    a = db().get(Address, aid)
    if a is None:
        abort(404)
    data = inputs.body()
    try:
        a = account.save_address(address_fields(data), a)
    except FormInvalid as e:
        db().rollback()
        return jsonify(ok=False, errors=e.errors)
    db().commit()
    return jsonify(ok=True, id=a.id)


@bp.post("/api/address/<int:aid>/delete")
def delete_address(aid: int):
    if db().get(Address, aid) is None:
        abort(404)
    try:
        account.delete_address(aid)
    except Invalid as e:
        return jsonify(ok=False, error=str(e))
    db().commit()
    return jsonify(ok=True)


@bp.get("/saved")
def saved_redirect():
    return redirect(url_for("food.account", section="saved"))
