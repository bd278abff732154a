"""Helpers every Forkful view uses: the user, the cart, store-card data, header context."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from flask import g, request
from sqlalchemy import select

from apps._shared import db, now
from apps.food.models import Cuisine, MenuItem, Option, OptionGroup, Promo, SavedStore, Store

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
from domain import food as logic


def cuisines() -> list[Cuisine]:
    if "food_cuisines" not in g:
        g.food_cuisines = list(db().scalars(select(Cuisine).order_by(Cuisine.position)))
    return g.food_cuisines


def cuisine_map() -> dict[int, Cuisine]:
    return {c.id: c for c in cuisines()}


def saved_ids() -> set[int]:
    if "food_saved" not in g:
        g.food_saved = set(db().scalars(select(SavedStore.store_id)))
    return g.food_saved


def store_deals() -> dict[int, Promo]:
    """Each store's best live store-specific promo (for the deal badge)."""
    if "food_deals" not in g:
        out: dict[int, Promo] = {}
        t = now()
        for p in db().scalars(select(Promo).where(Promo.store_id.is_not(None)).order_by(Promo.id)):
            if p.expires_at > t and p.store_id not in out:
                out[p.store_id] = p
        g.food_deals = out
    return g.food_deals


def deal_badge(p: Promo) -> str:
    if p.kind == "percent":
        return f"{p.value}% off"
    if p.kind == "amount":
        return f"{logic.money(p.value)} off {logic.money(p.min_subtotal_cents)}+"
    return "$0 delivery fee"


@dataclass
class StoreCard:
    s: Store
    cuisine: str
    distance: float
    eta: int
    fee_cents: int
    fee_text: str
    status: dict
    saved: bool
    deal: Promo | None
    is_new: bool
    score: float = 0.0
    match: str = ""  # dish that matched a search
    extra: dict = field(default_factory=dict)

    @property
    def id(self) -> int:
        return self.s.id


def store_card(s: Store) -> StoreCard:
    u, a, t = user(), current_address(), now()
    mode = u.mode
    fee = 0 if mode == "pickup" else s.delivery_fee_cents
    member_free = logic.is_member(u, t) and s.plus_eligible and mode == "delivery"
    if mode == "pickup":
        fee_text = "Pickup"
    elif member_free:
        fee_text = "$0 delivery fee over $12"
    elif fee == 0:
        fee_text = "$0 delivery fee"
    else:
        fee_text = f"{logic.money(fee)} delivery fee"
    return StoreCard(
        s=s, cuisine=cuisine_map()[s.cuisine_id].name, distance=logic.distance_mi(s, a),
        eta=logic.eta_minutes(s, a, mode), fee_cents=0 if member_free else fee, fee_text=fee_text,
        status=logic.store_status(s, t), saved=s.id in saved_ids(), deal=store_deals().get(s.id),
        is_new=(t.date() - s.opened_on).days <= 30,
    )


def all_cards() -> list[StoreCard]:
    stores = db().scalars(select(Store).order_by(Store.id)).all()
    return [store_card(s) for s in stores]


FILTER_KEYS = ("r45", "fast", "price", "plus", "deals", "pickup", "sort")
SORTS = {
    "recommended": "Recommended",
    "rating": "Rating",
    "distance": "Distance",
    "eta": "Delivery time",
    "fee": "Delivery fee",
}


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


def apply_filters(cards: list[StoreCard], f: dict) -> list[StoreCard]:
    out = []
    for c in cards:
        if f["r45"] and c.s.rating < 4.5:
            continue
        if f["fast"] and c.eta > 30:
            continue
        if f["price"] and c.s.price_level not in f["price"]:
            continue
        if f["plus"] and not c.s.plus_eligible:
            continue
        if f["deals"] and c.deal is None:
            continue
        if f["pickup"] and not c.s.offers_pickup:
            continue
        out.append(c)
    return sort_cards(out, f["sort"])


def sort_cards(cards: list[StoreCard], sort: str) -> list[StoreCard]:
    closed_last = lambda c: c.status["state"] == "closed"  # noqa: E731
    if sort == "rating":
        key = lambda c: (closed_last(c), -c.s.rating, -c.s.review_count, c.s.id)  # noqa: E731
    elif sort == "distance":
        key = lambda c: (closed_last(c), c.distance, c.s.id)  # noqa: E731
    elif sort == "eta":
        key = lambda c: (closed_last(c), c.eta, c.s.id)  # noqa: E731
    elif sort == "fee":
        key = lambda c: (closed_last(c), c.fee_cents, c.s.id)  # noqa: E731
    else:
        key = lambda c: (closed_last(c), -c.score, -round(c.s.rating * 10) - min(c.s.review_count, 3000) / 1000, c.s.id)  # noqa: E731
    return sorted(cards, key=key)


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


def item_groups(item: MenuItem) -> list[tuple[OptionGroup, list[Option]]]:
    if not item.group_ids:
        return []
    groups = {gr.id: gr for gr in db().scalars(select(OptionGroup).where(OptionGroup.id.in_(item.group_ids)))}
    opts: dict[int, list[Option]] = {}
    for o in db().scalars(select(Option).where(Option.group_id.in_(item.group_ids)).order_by(Option.group_id, Option.position)):
        opts.setdefault(o.group_id, []).append(o)
    return [(groups[gid], opts.get(gid, [])) for gid in item.group_ids if gid in groups]


def init_app(app) -> None:
    app.jinja_env.filters["money"] = logic.money
    app.jinja_env.filters["count_label"] = logic.count_label
    app.jinja_env.filters["price_sign"] = logic.price_sign
    app.jinja_env.globals["logic"] = logic
    app.jinja_env.globals["filter_url"] = filter_url
    app.jinja_env.globals["SORTS"] = SORTS
    app.jinja_env.globals["deal_badge"] = deal_badge
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
