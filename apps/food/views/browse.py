"""Home, search, cuisine pages, offers, search suggestions; delivery mode and address picker."""

from __future__ import annotations


from flask import abort, jsonify, redirect, render_template, request, url_for
from sqlalchemy import func, select

from apps._shared import db, inputs, now
from apps._shared.actions import perform
from apps._shared.headers import bounded_path
from apps.food.models import Address, Cuisine, MenuItem, Order, Promo, Store
from apps.food.services import FormInvalid, Invalid, NotFound, account
from apps.food.services.search import RELATED_TO, SYNONYMS, Found, corrections, normalize_query, search_stores
from apps.food.views.blueprint import bp
from apps.food.views.common import (
    any_filter, apply_filters, cuisine_map, cuisines, json_404, json_error, json_form_errors, read_filters,
    listed_cards, sort_cards, store_deals, user,
)
from domain import food as logic

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
    cards = listed_cards()  # the user's mode: every carousel and the all-stores grid list only stores that serve it
    ctx = {"f": f, "cuisine_list": cuisines(), "base": url_for("food.home")}
    if any_filter(f):
        res = apply_filters(cards, f)
        return render_template("food/home.html", filtered=res, **ctx)
    mode_ok = [c for c in cards if c.status["state"] != "closed"]
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
    everything = sort_cards(cards, "recommended")
    return render_template("food/home.html", carousels=carousels, all_stores=everything[:n], more=len(everything) > n,
                           next_n=n + 24, total=len(everything), **ctx)


@bp.get("/search")
def search():
    raw = request.args.get("q", "")
    q, near = normalize_query(raw)
    f = read_filters()
    if near and "sort" not in request.args:
        f["sort"] = "distance"
    found = search_stores(q) if q else Found([], [])
    res = apply_filters(found.cards, f)
    by_id = {c.s.id: c for c in res}
    dish_rows = [(it, by_id[it.store_id]) for it in found.dishes if it.store_id in by_id][:12]
    corrected = found.corrected if (res or dish_rows) else None
    return render_template("food/search.html", q=raw, f=f, results=res, dishes=dish_rows, corrected=corrected,
                           base=url_for("food.search"))


@bp.get("/cuisine/<slug>")
def cuisine(slug: str):
    cz = db().scalars(select(Cuisine).where(Cuisine.slug == slug)).first()
    if cz is None:
        abort(404)
    f = read_filters()
    cards = [c for c in listed_cards() if c.s.cuisine_id == cz.id]
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
    """The header's typeahead: cuisines, stores (those that serve the user's mode) and dish names containing the
    query; a misspelt query that matches nothing suggests for its correction (search's `corrections`)."""
    q, _near = normalize_query(request.args.get("q", ""))
    if not q:
        return jsonify(stores=[], dishes=[], cuisines=[])
    ans = _suggestions(q)
    if not any(ans.values()):
        for alt in corrections(q, all_words=True)[:3]:
            ans = _suggestions(alt)
            if any(ans.values()):
                break
    return jsonify(**ans)


def _suggestions(q: str) -> dict:
    cz = [{"name": c.name, "url": url_for("food.cuisine", slug=c.slug)} for c in cuisines()
          if q in c.name.lower() or q in c.slug or (q in SYNONYMS and SYNONYMS[q] in c.name.lower())
          or c.name.lower() in RELATED_TO.get(q, [])][:3]
    like = f"%{q}%"
    mode = user().mode
    stores = [s for s in db().scalars(select(Store).where(func.lower(Store.name).like(like)).order_by(
        func.lower(Store.name).like(f"{q}%").desc(), Store.rating.desc(), Store.id)) if logic.serves_mode(s, mode)][:5]
    czm = cuisine_map()
    st = [{"name": s.name, "sub": f"{czm[s.cuisine_id].name} · {s.rating} ★", "url": url_for("food.store_page", store_id=s.id)}
          for s in stores]
    names = db().execute(select(MenuItem.name, func.count()).where(func.lower(MenuItem.name).like(like))
                         .group_by(MenuItem.name).order_by(func.count().desc(), MenuItem.name).limit(5)).all()
    dishes = [{"name": n, "sub": f"{c} store{'s' if c != 1 else ''}", "url": url_for("food.search", q=n)} for n, c in names]
    return {"stores": st, "dishes": dishes, "cuisines": cz}


@bp.post("/api/mode")
def set_mode():
    perform(account.set_mode, inputs.body().get("mode"), errors={Invalid: json_error})
    return _back() or jsonify(mode=user().mode)


def _back():
    nxt = bounded_path(request.form.get("next", "")) or ""  # too long for a Location header: no redirect
    if nxt.startswith("/") and not nxt.startswith("//"):
        return redirect(nxt)
    return None


@bp.post("/api/address/select")
def select_address():
    data = inputs.body()
    a = perform(account.select_address, inputs.integer(data, "address_id", 0), errors={NotFound: json_404})
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

    def save():
        a = account.save_address(address_fields(data))
        if data.get("select", "1") not in ("0", False):
            user().current_address_id = a.id
        return a

    a = perform(save, errors={FormInvalid: json_form_errors})
    return jsonify(ok=True, id=a.id, address=logic.address_line(a))


@bp.post("/api/address/<int:aid>")
def edit_address(aid: int):
    a = db().get(Address, aid)
    if a is None:
        abort(404)
    a = perform(account.save_address, address_fields(inputs.body()), a, errors={FormInvalid: json_form_errors})
    return jsonify(ok=True, id=a.id)


@bp.post("/api/address/<int:aid>/delete")
def delete_address(aid: int):
    if db().get(Address, aid) is None:
        abort(404)
    perform(account.delete_address, aid, errors={Invalid: json_error})
    return jsonify(ok=True)


@bp.get("/saved")
def saved_redirect():
    return redirect(url_for("food.account", section="saved"))
