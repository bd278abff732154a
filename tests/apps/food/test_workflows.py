"""Each workflow end to end through the HTTP API, asserting on the database."""

from __future__ import annotations

from sqlalchemy import select

from apps.food.models import (
    Address, Cart, CartItem, GiftCard, MenuItem, Option, OptionGroup, Order, OrderItem, PaymentMethod, Promo, Review,
    SavedStore, Store, SupportRequest, User,
)
from domain import food as logic


def _item_with_required(db, store_id=None):
    for it in db.all(MenuItem, *( [MenuItem.store_id == store_id] if store_id else [])):
        if it.group_ids:
            return it
    raise AssertionError("no item with options")


def _required_choice(db, it):
    ids = []
    for gid in it.group_ids:
        g = db.get(OptionGroup, gid)
        opts = db.all(Option, Option.group_id == gid)
        ids += [o.id for o in opts[: g.min_select]]
    return ids


def _open_store(db, now, pickup=False):
    return next(s for s in db.all(Store) if logic.store_status(s, now)["state"] == "open" and (s.offers_pickup or not pickup))


def _simple(db, store_id):
    return [i for i in db.all(MenuItem, MenuItem.store_id == store_id) if not i.group_ids]


def test_add_to_cart_options_validated(client, db):
    it = _item_with_required(db)
    r = client.post("/api/cart/add", json={"item_id": it.id, "quantity": 1, "option_ids": []})
    assert r.json["ok"] is False and "Choose" in r.json["error"]
    opts = _required_choice(db, it)
    r = client.post("/api/cart/add", json={"item_id": it.id, "quantity": 2, "option_ids": opts, "instructions": "no onions"})
    assert r.json["ok"] and r.json["count"] == 2
    ci = db.one(CartItem)
    assert ci.option_ids == sorted(opts) and ci.quantity == 2 and ci.instructions == "no onions"
    chosen = [db.get(Option, o) for o in opts]
    assert ci.unit_price_cents == it.price_cents + sum(o.price_cents for o in chosen)
    # the same line again merges
    client.post("/api/cart/add", json={"item_id": it.id, "quantity": 1, "option_ids": opts, "instructions": "no onions"})
    assert db.one(CartItem).quantity == 3


def test_second_store_asks_for_new_cart(client, db, now):
    a, b = [s for s in db.all(Store) if len(_simple(db, s.id)) >= 1][:2]
    ia, ib = _simple(db, a.id)[0], _simple(db, b.id)[0]
    assert client.post("/api/cart/add", json={"item_id": ia.id, "quantity": 1}).json["ok"]
    r = client.post("/api/cart/add", json={"item_id": ib.id, "quantity": 1})
    assert r.json["conflict"] is True and r.json["current_store"] == a.name
    assert db.one(Cart).store_id == a.id  # nothing changed yet
    assert client.post("/api/cart/add", json={"item_id": ib.id, "quantity": 1, "replace": True}).json["ok"]
    assert db.one(Cart).store_id == b.id
    assert [ci.item_id for ci in db.all(CartItem)] == [ib.id]


def test_cart_quantity_and_remove(client, db):
    s = next(s for s in db.all(Store) if len(_simple(db, s.id)) >= 2)
    x, y = _simple(db, s.id)[:2]
    client.post("/api/cart/add", json={"item_id": x.id, "quantity": 1})
    client.post("/api/cart/add", json={"item_id": y.id, "quantity": 1})
    cx, cy = db.all(CartItem)
    r = client.post(f"/api/cart/item/{cx.id}", json={"quantity": 4})
    assert r.json["count"] == 5 and "drawer" in r.json
    client.post(f"/api/cart/item/{cy.id}", json={"quantity": 0})
    assert [(c.item_id, c.quantity) for c in db.all(CartItem)] == [(x.id, 4)]
    client.post(f"/api/cart/item/{cx.id}", json={"quantity": 0})
    assert db.all(Cart) == []


def _cart(client, db, now, n=2):
    s = next(s for s in db.all(Store) if logic.store_status(s, now)["state"] == "open" and len(_simple(db, s.id)) >= 1
              and s.offers_pickup)
    it = _simple(db, s.id)[0]
    client.post("/api/cart/add", json={"item_id": it.id, "quantity": n})
    return s, it


def test_place_order_delivery(client, db, now):
    s, it = _cart(client, db, now, 3)
    client.post("/checkout/update", json={"tip": "20"})
    r = client.post("/checkout/place", data={"dropoff": "hand", "instructions": "Ring twice", "tip": "20",
                                             "delivery_option": "express", "payment_method_id": "2"})
    assert r.status_code == 302
    o = max(db.all(Order), key=lambda o: o.id)
    u = db.get(User, 1)
    sub = it.price_cents * 3
    t = logic.totals(store=s, user=u, subtotal=sub, mode="delivery", delivery_option="express", tip_percent=20,
                     tip_custom_cents=0, promo=None, use_credits=True, now=now)
    assert (o.store_id, o.mode, o.status, o.delivery_option, o.dropoff, o.instructions, o.payment_method_id) == \
        (s.id, "delivery", "placed", "express", "hand", "Ring twice", 2)
    assert o.total_cents == t["total_cents"] and o.tip_cents == round(sub * 0.2) and o.express_fee_cents == 299
    assert [(oi.item_id, oi.quantity) for oi in db.all(OrderItem, OrderItem.order_id == o.id)] == [(it.id, 3)]
    assert db.all(Cart) == [] and db.all(CartItem) == []
    assert client.get(r.headers["Location"]).status_code == 200


def test_place_order_pickup_and_schedule(client, db, now):
    s, it = _cart(client, db, now)
    client.post("/checkout/mode", data={"mode": "pickup"})
    assert db.get(User, 1).mode == "pickup"
    slot = logic.schedule_slots(s, now, now.date())[0]
    r = client.post("/checkout/place", data={"delivery_option": "scheduled", "scheduled_for": slot.isoformat()})
    assert r.status_code == 302
    o = max(db.all(Order), key=lambda o: o.id)
    assert (o.mode, o.status, o.scheduled_for, o.tip_cents, o.address_id) == ("pickup", "scheduled", slot, 0, None)


def test_closed_store_requires_schedule(client, db, now):
    s = next(s for s in db.all(Store) if logic.store_status(s, now)["state"] == "closed" and _simple(db, s.id))
    client.post("/api/cart/add", json={"item_id": _simple(db, s.id)[0].id, "quantity": 1})
    r = client.post("/checkout/place", data={"delivery_option": "standard"})
    assert b"is closed right now" in r.data and db.all(Order, Order.store_id == s.id, Order.status == "placed") == []


def test_expired_card_rejected(client, db, now):
    _cart(client, db, now)
    expired = next(p for p in db.all(PaymentMethod) if logic.card_expired(p, now))
    r = client.post("/checkout/place", data={"payment_method_id": str(expired.id)})
    assert b"has expired" in r.data


def test_promo_rules(client, db, now):
    s, it = _cart(client, db, now, 1)
    sub = it.price_cents
    promos = db.all(Promo)
    expired = next(p for p in promos if p.expires_at <= now)
    other_store = next(p for p in promos if p.store_id not in (None, s.id) and p.expires_at > now)
    members = next(p for p in promos if p.members_only)
    minimum = next(p for p in promos if p.min_subtotal_cents > sub and p.store_id is None and p.expires_at > now
                   and not p.members_only)
    assert "has expired" in client.post("/checkout/promo", json={"code": expired.code}).json["error"]
    assert "only valid at" in client.post("/checkout/promo", json={"code": other_store.code}).json["error"]
    assert "Plus members" in client.post("/checkout/promo", json={"code": members.code}).json["error"]
    assert "minimum subtotal" in client.post("/checkout/promo", json={"code": minimum.code}).json["error"]
    assert "doesn't exist" in client.post("/checkout/promo", json={"code": "NOPE"}).json["error"]
    assert db.one(Cart).promo_id is None
    # enough items for the minimum: valid, case-insensitive
    q = -(-minimum.min_subtotal_cents // it.price_cents)
    client.post(f"/api/cart/item/{db.one(CartItem).id}", json={"quantity": q})
    assert client.post("/checkout/promo", json={"code": minimum.code.lower()}).json["ok"]
    assert db.one(Cart).promo_id == minimum.id
    client.post("/checkout/place", data={})
    o = max(db.all(Order), key=lambda o: o.id)
    assert o.promo_id == minimum.id and o.discount_cents == logic.promo_discount(minimum, it.price_cents * q, o.delivery_fee_cents)


def test_add_card_validation(client, db, now):
    bad = client.post("/api/cards", json={"number": "4242 4242 4242 4241", "exp": "01/20", "cvc": "12", "zip": "9"}).json
    assert bad["ok"] is False and set(bad["errors"]) == {"number", "exp", "cvc", "zip"}
    assert "invalid" in bad["errors"]["number"] and "expired" in bad["errors"]["exp"]
    amex = client.post("/api/cards", json={"number": "378282246310005", "exp": "06/30", "cvc": "123", "zip": "94107"}).json
    assert amex["errors"] == {"cvc": "Enter the 4-digit security code."}
    ok = client.post("/api/cards", json={"number": "5555 5555 5555 4444", "exp": "12/28", "cvc": "456", "zip": "94107",
                                         "make_default": "1"}).json
    assert ok["ok"]
    pm = db.get(PaymentMethod, ok["id"])
    assert (pm.brand, pm.last4, pm.exp_month, pm.exp_year) == ("Mastercard", "4444", 12, 2028)
    assert db.get(User, 1).default_payment_id == pm.id


def test_orders_cancel_rate_help_reorder(client, db, now):
    sched = db.one(Order, Order.status == "scheduled")
    assert client.post(f"/orders/{sched.id}/cancel", json={"reason": "Changed my mind"}).json["ok"]
    o = db.get(Order, sched.id)
    assert (o.status, o.cancel_reason) == ("cancelled", "Changed my mind")
    prep = db.one(Order, Order.status == "preparing")
    assert client.post(f"/orders/{prep.id}/cancel", json={}).json["ok"] is False
    past = next(o for o in db.all(Order) if o.status == "delivered" and o.rating is None)
    assert client.post(f"/orders/{past.id}/rate", json={"rating": 4, "text": "Good"}).json["ok"]
    assert db.get(Order, past.id).rating == 4 and db.one(Review, Review.order_id == past.id).text == "Good"
    assert client.post(f"/orders/{past.id}/rate", json={"rating": 5}).json["ok"] is False
    lines = db.all(OrderItem, OrderItem.order_id == past.id)
    r = client.post(f"/orders/{past.id}/help", data={"issue": "missing", f"item_{lines[0].id}": "1",
                                                     "reason": "Item was not in the bag", "resolution": "credit"})
    assert r.status_code == 302
    req = db.one(SupportRequest)
    assert req.amount_cents == lines[0].unit_price_cents * lines[0].quantity
    assert db.get(User, 1).credits_cents == req.amount_cents
    r = client.post(f"/orders/{past.id}/help", data={"issue": "missing", "reason": "Item was not in the bag",
                                                     "resolution": "refund"})
    assert b"Select the items" in r.data
    r = client.post(f"/orders/{past.id}/reorder", json={})
    assert r.json["ok"]
    assert sorted((c.item_id, c.quantity) for c in db.all(CartItem)) == sorted((l.item_id, l.quantity) for l in lines)


def test_account_workflows(client, db, now):
    r = client.post("/account/profile", data={"first_name": "Ana", "last_name": "Diaz", "email": "ana@example.com",
                                              "phone": "415-555-0199"})
    assert r.status_code == 302 and db.get(User, 1).phone == "(415) 555-0199"
    r = client.post("/account/profile", data={"first_name": "", "last_name": "D", "email": "x", "phone": "1"})
    assert b"Enter your first name" in r.data and db.get(User, 1).first_name == "Ana"
    # addresses
    bad = client.post("/api/address", json={"street": "Main", "zip": "10001"}).json
    assert set(bad["errors"]) == {"street", "zip"}
    ok = client.post("/api/address", json={"street": "250 King St", "apt": "3", "zip": "94107", "label": "Gym",
                                           "dropoff": "hand"}).json
    assert db.get(User, 1).current_address_id == ok["id"] and db.get(Address, ok["id"]).dropoff == "hand"
    client.post("/api/address/select", data={"address_id": "2"})
    assert db.get(User, 1).current_address_id == 2
    # saved stores
    s = db.all(Store)[5]
    assert client.post(f"/api/store/{s.id}/save", json={"saved": True}).json["saved"]
    assert client.post(f"/api/store/{s.id}/save", json={"saved": False}).json["saved"] is False
    # notifications
    client.post("/api/notifications", json={"key": "notify_email_promos", "on": False})
    assert db.get(User, 1).notify_email_promos is False
    # gift card
    gc = next(g for g in db.all(GiftCard) if g.redeemed_at is None)
    before = db.get(User, 1).credits_cents
    client.post("/account/credits/redeem", data={"code": gc.code.lower().replace("-", "")})
    assert db.get(User, 1).credits_cents == before + gc.amount_cents
    client.post("/account/credits/redeem", data={"code": gc.code})
    assert db.get(User, 1).credits_cents == before + gc.amount_cents  # not twice
    # membership
    client.post("/account/plus/subscribe", data={"plan": "annual", "payment_method_id": "3"})
    u = db.get(User, 1)
    assert (u.membership_status, u.membership_plan, u.membership_payment_id) == ("active", "annual", 3)
    assert logic.is_member(u, now)
    client.post("/account/plus/cancel")
    u = db.get(User, 1)
    assert u.membership_status == "cancelled" and logic.is_member(u, now)  # benefits until the end date
    # cards
    client.post("/api/cards/2/default")
    assert db.get(User, 1).default_payment_id == 2
    client.post("/api/cards/3/delete")
    assert db.get(PaymentMethod, 3) is None


def test_group_order_and_mode(client, db, now):
    s = _open_store(db, now)
    r = client.post("/api/group-order", json={"store_id": s.id, "limit": "2500"}).json
    assert r["ok"] and r["link"].startswith("https://forkful.test/group/")
    c = db.one(Cart)
    assert (c.store_id, c.group_order, c.group_limit_cents) == (s.id, True, 2500)
    client.post("/api/mode", data={"mode": "pickup", "next": "/"})
    assert db.get(User, 1).mode == "pickup"
    html = client.get("/").data.decode()
    assert 'data-mode="pickup" aria-pressed="true"' in html


def test_filters_apply(client, db, now):
    import re

    html = client.get("/?r45=1&fast=1").data.decode()
    n = int(re.search(r"(\d+) stores?</h1>", html).group(1))
    u = db.get(User, 1)
    a = db.get(Address, u.current_address_id)
    want = [s for s in db.all(Store) if s.rating >= 4.5 and logic.eta_minutes(s, a) <= 30]
    assert n == len(want) > 0


def test_option_groups_have_options(db):
    for g in db.all(OptionGroup)[:200]:
        opts = db.all(Option, Option.group_id == g.id)
        assert len(opts) >= max(1, g.min_select) and g.max_select >= g.min_select
    assert select  # keep the import used
