"""What a user reads, as plain dicts with ids (for the tools): stores by search, cuisine and filters,
a store's page (hours, fees, menu, deals, reviews), an item's options, offers, the cart, checkout, orders,
the account. Every list is capped and says its total. Read-only: nothing here writes.

The store cards, filters and search ranking are the pages' own (apps/food/services/stores.py and search.py),
so a tool lists what the page lists, in the same order."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import select

from apps._shared import db, now
from apps.food.models import (
    Cuisine, GiftCard, MenuCategory, MenuItem, Order, OrderItem, PaymentMethod, Promo, Review, Store, SupportRequest,
)
from apps.food.services import NotFound
from apps.food.services import checkout as checkout_service
from apps.food.services import orders as order_service
from apps.food.services.account import NOTIFY
from apps.food.services import stores
from apps.food.services.cart import group_link
from apps.food.services.search import Found, normalize_query, search_stores
from apps.food.services.state import addresses, cart, cart_items, cart_subtotal, current_address, user
from domain import food as logic


def _t(v: dt.datetime | None) -> str | None:
    return v.isoformat(timespec="minutes") if v else None


def card_json(c) -> dict:
    st = c.status
    out = {"store_id": c.s.id, "name": c.s.name, "cuisine": c.cuisine, "rating": c.s.rating,
           "review_count": c.s.review_count, "price_level": logic.price_sign(c.s.price_level),
           "distance_mi": round(c.distance, 1), "eta_minutes": c.eta, "delivery_fee": c.fee_text,
           "status": st["label"], "offers_pickup": c.s.offers_pickup, "plus_eligible": c.s.plus_eligible,
           "saved": c.saved}
    if c.deal is not None:
        out["deal"] = f"{c.deal.code}: {logic.promo_summary(c.deal)}"
    if c.match:
        out["matched_dish"] = c.match
    return out


def _filters(min_rating_45: bool, under_30_min: bool, price_levels: list[int], plus: bool, deals: bool,
             pickup: bool, sort: str) -> dict:
    return {"r45": min_rating_45, "fast": under_30_min, "price": sorted(set(price_levels)), "plus": plus,
            "deals": deals, "pickup": pickup, "sort": sort}


def search(query: str, limit: int, **filters: Any) -> dict:
    """The search page: stores (name, cuisine, tags, dishes) and dish rows, with the page's chips. A query
    with "near me" sorts by distance, as the page does; a misspelt one answers for its correction (and says
    which, `showing_results_for`), as the page does. In Pickup mode only stores that offer pickup."""
    q, near = normalize_query(query)
    f = _filters(**filters)
    if near and f["sort"] == "recommended":
        f["sort"] = "distance"
    found = search_stores(q) if q else Found([], [])
    res = stores.apply_filters(found.cards, f)
    by_id = {c.s.id: c for c in res}
    dish_rows = [(it, by_id[it.store_id]) for it in found.dishes if it.store_id in by_id]
    out = {"total_stores": len(res), "stores": [card_json(c) for c in res[:limit]],
           "total_dishes": len(dish_rows),
           "dishes": [{"item_id": it.id, "name": it.name, "price": logic.money(it.price_cents),
                       "store_id": c.s.id, "store": c.s.name} for it, c in dish_rows[:limit]]}
    if found.corrected and (res or dish_rows):
        out["showing_results_for"] = found.corrected  # the page's "Showing results for ..." line
    return out


def list_stores(cuisine: str | None, limit: int, offset: int, **filters: Any) -> dict:
    """Home's store list (or a cuisine page's), filtered and sorted like the page."""
    cards = stores.listed_cards()
    if cuisine:
        cz = db().scalars(select(Cuisine).where(Cuisine.slug == cuisine.strip().lower())).first()
        if cz is None:
            cz = next((c for c in stores.cuisines() if c.name.lower() == cuisine.strip().lower()), None)
        if cz is None:
            raise NotFound(f"No cuisine {cuisine!r}; list_cuisines gives the slugs.")
        cards = [c for c in cards if c.s.cuisine_id == cz.id]
    res = stores.apply_filters(cards, _filters(**filters))
    return {"total": len(res), "offset": offset, "stores": [card_json(c) for c in res[offset:offset + limit]]}


def list_cuisines() -> list[dict]:
    return [{"slug": c.slug, "name": c.name} for c in db().scalars(select(Cuisine).order_by(Cuisine.position))]


def get_store(store_id: int) -> dict:
    s = db().get(Store, store_id)
    if s is None:
        raise NotFound(f"No store {store_id}; search or list_stores gives store ids.")
    card = stores.store_card(s)
    t = now()
    a = current_address()
    st = logic.store_status(s, t)
    cats = db().scalars(select(MenuCategory).where(MenuCategory.store_id == s.id).order_by(MenuCategory.position)).all()
    items = db().scalars(select(MenuItem).where(MenuItem.store_id == s.id).order_by(MenuItem.category_id, MenuItem.position)).all()
    menu = []
    for c in cats:
        menu.append({"category": c.name, "items": [_item_row(i) for i in items if i.category_id == c.id]})
    reviews = db().scalars(select(Review).where(Review.store_id == s.id).order_by(Review.created_at.desc(), Review.id)).all()
    promos = [p for p in db().scalars(select(Promo).where(Promo.store_id == s.id).order_by(Promo.id)) if p.expires_at > t]
    return {
        **card_json(card), "description": s.description, "address": s.street, "phone": s.phone,
        "delivery_fee_cents": card.fee_cents, "status_state": st["state"],
        "closes_at": logic.fmt_time(st["closes_at"]) if st.get("closes_at") else None,
        "opens_at": _t(st.get("opens_at")),
        "hours": [{"day": d, "hours": h} for d, h in logic.hours_rows(s)],
        "eta_delivery_minutes": logic.eta_minutes(s, a, "delivery"), "eta_pickup_minutes": logic.eta_minutes(s, a, "pickup"),
        "deals": [{"code": p.code, "title": p.title, "summary": logic.promo_summary(p)} for p in promos],
        "menu": menu,
        "reviews_total": len(reviews),
        "reviews": [{"author": r.author, "rating": r.rating, "text": r.text, "date": r.created_at.date().isoformat()}
                    for r in reviews[:10]],
    }


def _item_row(i: MenuItem) -> dict:
    return {"item_id": i.id, "name": i.name, "price": logic.money(i.price_cents), "price_cents": i.price_cents,
            "description": i.description, "popular": i.popular, "tags": list(i.tags or []),
            "has_options": bool(i.group_ids)}


def get_item(item_id: int) -> dict:
    it = db().get(MenuItem, item_id)
    if it is None:
        raise NotFound(f"No menu item {item_id}; get_store lists a store's items.")
    return {**_item_row(it), "store_id": it.store_id,
            "option_groups": [{"group": g.name, "min_select": g.min_select, "max_select": g.max_select,
                               "required": g.min_select > 0,
                               "options": [{"option_id": o.id, "name": o.name, "price_delta": logic.money(o.price_cents)
                                            if o.price_cents else "$0.00"} for o in opts]}
                              for g, opts in stores.item_groups(it)]}


def list_offers() -> dict:
    """The Offers page: featured promo codes still valid (general ones, then store deals)."""
    t = now()
    promos = [p for p in db().scalars(select(Promo).where(Promo.featured.is_(True)).order_by(Promo.id)) if p.expires_at > t]
    names = {s.id: s.name for s in db().scalars(select(Store).where(Store.id.in_([p.store_id for p in promos if p.store_id])))}
    return {"promos": [{"code": p.code, "title": p.title, "summary": logic.promo_summary(p),
                        "min_subtotal": logic.money(p.min_subtotal_cents) if p.min_subtotal_cents else None,
                        "members_only": p.members_only, "expires": _t(p.expires_at),
                        "store_id": p.store_id, "store": names.get(p.store_id) if p.store_id else None}
                       for p in sorted(promos, key=lambda p: (p.store_id is not None, p.id))]}


# ---------------------------------------------------------------------- cart and checkout
def get_cart() -> dict:
    c = cart()
    items = cart_items(c)
    if c is None:
        return {"store_id": None, "items": [], "count": 0, "subtotal": logic.money(0)}
    names = {m.id: m.name for m in db().scalars(select(MenuItem).where(MenuItem.id.in_([i.item_id for i in items])))}
    out = {"store_id": c.store_id, "store": checkout_service.store_name(c.store_id),
           "items": [{"cart_item_id": i.id, "item_id": i.item_id, "name": names.get(i.item_id, ""),
                      "quantity": i.quantity, "options": i.options_text, "option_ids": list(i.option_ids),
                      "instructions": i.instructions, "unit_price": logic.money(i.unit_price_cents),
                      "line_total": logic.money(i.unit_price_cents * i.quantity)} for i in items],
           "count": sum(i.quantity for i in items), "subtotal": logic.money(cart_subtotal(items)),
           "group_order": c.group_order}
    if c.group_order:
        out["group_link"] = group_link(c)
        out["group_limit"] = logic.money(c.group_limit_cents) if c.group_limit_cents else "No limit"
    return out


def get_checkout() -> dict:
    c = checkout_service.open_cart()
    s = db().get(Store, c.store_id)
    u, t = user(), now()
    tot, perr = checkout_service.breakdown(c, s, cart_subtotal(cart_items(c)))
    a = current_address()
    promo = checkout_service.cart_promo(c)
    pm = db().get(PaymentMethod, c.payment_method_id) if c.payment_method_id else None
    eta = logic.eta_minutes(s, a, u.mode)
    return {
        "cart": get_cart(), "mode": u.mode, "store_status": logic.store_status(s, t)["label"],
        "offers_pickup": logic.serves_mode(s, "pickup"),
        "address": ({"address_id": a.id, "label": a.label, "address": logic.address_full(a), "dropoff": a.dropoff,
                     "instructions": a.instructions} if a else None),
        "delivery_option": c.delivery_option, "scheduled_for": _t(c.scheduled_for),
        "eta_minutes": eta, "express_eta_minutes": logic.express_eta(eta),
        "tip": f"{c.tip_percent}%" if c.tip_percent is not None else f"custom {logic.money(c.tip_cents)}",
        "payment_method": _card_json(pm, u) if pm else None, "use_credits": c.use_credits,
        "credits": logic.money(u.credits_cents),
        "promo": promo.code if promo and not perr else None, "promo_error": perr,
        "totals": {k: logic.money(v) for k, v in tot.items()},
    }


def delivery_times(store_id: int | None = None) -> dict:
    """The Schedule dialog's windows for the cart's store (or `store_id`): days, each with window starts."""
    if store_id is None:
        c = checkout_service.open_cart()
        store_id = c.store_id
    s = db().get(Store, store_id)
    if s is None:
        raise NotFound(f"No store {store_id}.")
    return {"store_id": s.id, "days": [{"day": d["label"], "date": d["date"].isoformat(),
                                        "windows": [{"scheduled_for": _t(x), "label": logic.slot_label(x)} for x in d["slots"]]}
                                       for d in checkout_service.schedule(s)]}


# ---------------------------------------------------------------------- orders
def _order_row(o: Order, names: dict[int, str], counts: dict[int, int]) -> dict:
    return {"order_id": o.id, "store_id": o.store_id, "store": names.get(o.store_id, ""), "status": o.status,
            "placed_at": _t(o.placed_at), "scheduled_for": _t(o.scheduled_for), "items": counts.get(o.id, 0),
            "total": logic.money(o.total_cents), "rated": o.rating is not None}


def list_orders(status: str, store_id: int | None, limit: int) -> dict:
    rows = list(db().scalars(select(Order).order_by(Order.placed_at.desc(), Order.id.desc())))
    if status == "active":
        rows = [o for o in rows if o.status in order_service.ACTIVE]
    elif status == "past":
        rows = [o for o in rows if o.status not in order_service.ACTIVE]
    if store_id is not None:
        rows = [o for o in rows if o.store_id == store_id]
    names = {s.id: s.name for s in db().scalars(select(Store).where(Store.id.in_({o.store_id for o in rows})))}
    counts: dict[int, int] = {}
    for oi in db().scalars(select(OrderItem)):
        counts[oi.order_id] = counts.get(oi.order_id, 0) + oi.quantity
    return {"total": len(rows), "orders": [_order_row(o, names, counts) for o in rows[:limit]]}


def get_order(order_id: int) -> dict:
    o = order_service.get(order_id)
    lines = order_service.lines(o)
    pm = db().get(PaymentMethod, o.payment_method_id) if o.payment_method_id else None
    promo = db().get(Promo, o.promo_id) if o.promo_id else None
    helps = list(db().scalars(select(SupportRequest).where(SupportRequest.order_id == o.id).order_by(SupportRequest.id)))
    amounts = ("subtotal_cents", "delivery_fee_cents", "service_fee_cents", "small_order_fee_cents", "express_fee_cents",
               "tax_cents", "tip_cents", "discount_cents", "credits_applied_cents", "total_cents")
    return {
        "order_id": o.id, "store_id": o.store_id, "store": checkout_service.store_name(o.store_id), "status": o.status,
        "mode": o.mode, "placed_at": _t(o.placed_at), "completed_at": _t(o.completed_at),
        "delivery_option": o.delivery_option, "scheduled_for": _t(o.scheduled_for), "address": o.address_text,
        "dropoff": o.dropoff, "instructions": o.instructions, "payment": logic.card_label(pm) if pm else None,
        "promo": promo.code if promo else None, "rating": o.rating, "cancel_reason": o.cancel_reason or None,
        "lines": [{"order_item_id": oi.id, "item_id": oi.item_id, "name": oi.name, "quantity": oi.quantity,
                   "options": oi.options_text, "instructions": oi.instructions,
                   "unit_price": logic.money(oi.unit_price_cents)} for oi in lines],
        "amounts": {k.removesuffix("_cents"): logic.money(getattr(o, k)) for k in amounts},
        "can_cancel": o.status in order_service.CANCELLABLE,
        "can_rate": o.status in order_service.DONE and o.rating is None,
        "can_get_help": o.status in order_service.DONE,
        "can_rate_dasher": order_service.can_rate_dasher(o),
        "can_change_tip": order_service.can_change_tip(o),
        "dasher_rating": ({"thumb": o.dasher_rating, "reasons": [r for r in o.dasher_reasons.split(", ") if r],
                           "comment": o.dasher_comment} if o.dasher_rating else None),
        "help_requests": [{"order_item_id": r.order_item_id, "quantity": r.quantity, "issue": r.issue, "reason": r.reason,
                           "resolution": r.resolution, "amount": logic.money(r.amount_cents)} for r in helps],
    }


# ---------------------------------------------------------------------- account
def _card_json(pm: PaymentMethod, u) -> dict:
    return {"card_id": pm.id, "label": logic.card_label(pm), "brand": pm.brand, "last4": pm.last4,
            "expires": f"{pm.exp_month:02d}/{pm.exp_year % 100:02d}", "expired": logic.card_expired(pm, now()),
            "default": u.default_payment_id == pm.id}


def get_account() -> dict:
    u, t = user(), now()
    cur = current_address()
    gifts = db().scalars(select(GiftCard).where(GiftCard.redeemed_at.is_not(None)).order_by(GiftCard.redeemed_at.desc()))
    return {
        "profile": {"first_name": u.first_name, "last_name": u.last_name, "email": u.email, "phone": u.phone},
        "mode": u.mode,
        "current_address_id": cur.id if cur else None,
        "addresses": [{"address_id": a.id, "label": a.label, "address": logic.address_full(a), "dropoff": a.dropoff,
                       "instructions": a.instructions} for a in addresses()],
        "payment_methods": [_card_json(pm, u) for pm in db().scalars(select(PaymentMethod).order_by(PaymentMethod.id))],
        "credits": logic.money(u.credits_cents),
        "redeemed_gift_cards": [{"code": g.code, "amount": logic.money(g.amount_cents)} for g in gifts],
        "membership": {"status": u.membership_status, "plan": u.membership_plan, "active": logic.is_member(u, t),
                       "ends_on": u.membership_ends_on.isoformat() if u.membership_ends_on else None,
                       "plans": {k: logic.money(v) for k, v in logic.PLUS_PRICES.items()}},
        "notifications": [{"setting": k, "group": head, "channel": label, "on": bool(getattr(u, k))}
                          for k, head, label in NOTIFY],
        "saved_stores": [{"store_id": c.s.id, "name": c.s.name} for c in stores.all_cards() if c.saved],
    }

