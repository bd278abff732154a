"""Checkout: address and drop-off, delivery options and scheduling, payment (+ add a card), promo
codes, tip, fees and total; Place Order turns the cart into an order."""

from __future__ import annotations

import datetime as dt
import re

from flask import jsonify, redirect, render_template, request, url_for
from sqlalchemy import func, select

from apps._shared import db, inputs, now
from apps.food import logic
from apps.food.models import Cart, MenuItem, Order, OrderItem, PaymentMethod, Promo, Store
from apps.food.views import bp
from apps.food.views.common import cart, cart_items, cart_subtotal, current_address, parse_when, user


def cards() -> list[PaymentMethod]:
    return list(db().scalars(select(PaymentMethod).order_by(PaymentMethod.id)))


def cart_promo(c: Cart) -> Promo | None:
    return db().get(Promo, c.promo_id) if c.promo_id else None


def breakdown(c: Cart, s: Store, subtotal: int) -> tuple[dict, str | None]:
    """Totals of the cart as it stands, and the promo's error if it no longer applies. The one computation
    both the checkout summary and Place Order use, so the page can't show an amount the order doesn't store."""
    u, t = user(), now()
    promo = cart_promo(c)
    perr = None
    if promo is not None:
        perr = logic.promo_error(promo, s, u, subtotal, u.mode, t, store_name=_store_name(promo.store_id))
        if perr:
            promo = None
    tot = logic.totals(store=s, user=u, subtotal=subtotal, mode=u.mode, delivery_option=c.delivery_option,
                       tip_percent=c.tip_percent, tip_custom_cents=c.tip_cents, promo=promo,
                       use_credits=c.use_credits, now=t)
    return tot, perr


def _store_name(store_id: int | None) -> str:
    if store_id is None:
        return ""
    s = db().get(Store, store_id)
    return s.name if s else ""


def schedule_data(s: Store) -> list[dict]:
    t = now()
    out = []
    for d in logic.slot_days(t):
        slots = logic.schedule_slots(s, t, d)
        out.append({"date": d, "label": logic.day_label(d, t.date()), "slots": slots})
    return out


def page_context(error: str | None = None, promo_error: str | None = None, card_errors: dict | None = None):
    c = cart()
    items = cart_items(c)
    if c is None or not items:
        return None
    s = db().get(Store, c.store_id)
    subtotal = cart_subtotal(items)
    tot, perr = breakdown(c, s, subtotal)
    u, t = user(), now()
    a = current_address()
    menu = {m.id: m for m in db().scalars(select(MenuItem).where(MenuItem.id.in_([i.item_id for i in items])))}
    status = logic.store_status(s, t)
    eta = logic.eta_minutes(s, a, u.mode)
    return dict(
        c=c, items=items, s=s, menu=menu, tot=tot, shown=shown_key(tot), promo=cart_promo(c) if not perr else None,
        promo_error=promo_error or perr, error=error, cards=cards(), addr=a, status=status, eta=eta,
        express_eta=logic.express_eta(eta), schedule=schedule_data(s), member=logic.is_member(u, t),
        card_errors=card_errors or {}, count=sum(i.quantity for i in items),
    )


def shown_key(tot: dict) -> str:
    """Every line of a breakdown in one string: the summary carries it in the Place Order form, and an order
    is placed only if the breakdown it would store is the one that summary showed."""
    return ",".join(str(v) for v in tot.values())


LINE_LABELS = {
    "subtotal_cents": "Subtotal", "delivery_fee_cents": "Delivery Fee", "service_fee_cents": "Service Fee",
    "small_order_fee_cents": "Small Order Fee", "express_fee_cents": "Express Delivery", "tax_cents": "Estimated Tax",
    "tip_cents": "Courier Tip", "discount_cents": "Promotion", "credits_applied_cents": "Forkful credits",
    "total_cents": "Total",
}


def _changed_message(shown: str, tot: dict) -> str:
    """Which lines moved since the summary the user saw (a tip typed but not saved moves the tip, and credits
    may absorb it so the total stays): named, with their new amounts."""
    old = shown.split(",")
    moved = [k for i, k in enumerate(tot) if i >= len(old) or old[i] != str(tot[k])]
    sign = {"discount_cents": -1, "credits_applied_cents": -1}
    parts = [f"{LINE_LABELS[k]} {logic.money(sign.get(k, 1) * tot[k])}" for k in moved if k in LINE_LABELS]
    return f"Your order changed ({', '.join(parts)}). Check the summary and place your order again."


@bp.get("/checkout")
def checkout():
    ctx = page_context()
    if ctx is None:
        return render_template("food/checkout_empty.html")
    return render_template("food/checkout.html", **ctx)


def _last(data, key: str):
    """The value a form or JSON body gives `key`. A form may repeat a key: the credits switch is a hidden "0"
    followed by the checkbox's "1" (so an unticked switch still says "off"), and the browser sends both when it
    is ticked; the last one is the user's choice. (`MultiDict.get` returns the first: issue 25, credits shown
    in the summary but never applied to the placed order.)"""
    if hasattr(data, "getlist"):
        vals = data.getlist(key)
        return vals[-1] if vals else None
    return data.get(key)


def _apply(c: Cart, data) -> str | None:
    """Apply checkout choices from a form or JSON body to the cart (and the user's mode)."""
    u = user()
    data = {k: _last(data, k) for k in data}
    if data.get("mode") in ("delivery", "pickup"):
        u.mode = data["mode"]
    opt = data.get("delivery_option")
    if opt in ("standard", "express", "scheduled"):
        c.delivery_option = opt
        if opt == "scheduled":
            when = parse_when(data.get("scheduled_for"))
            if when is not None:
                c.scheduled_for = when
        else:
            c.scheduled_for = None
    tip = data.get("tip")
    if tip is not None and tip != "":
        if str(tip) == "other":
            c.tip_percent = None
            raw = str(data.get("tip_custom", "") or "").replace("$", "").strip()
            if raw:
                if not re.fullmatch(r"\d{1,3}(\.\d{1,2})?", raw):
                    return "Enter a tip amount like 5 or 5.50."
                c.tip_cents = round(float(raw) * 100)
        elif str(tip).isdecimal() and int(tip) in logic.TIP_PRESETS:
            c.tip_percent = int(tip)
            c.tip_cents = 0
    pm = inputs.integer(data, "payment_method_id")
    if pm is not None and db().get(PaymentMethod, pm) is not None:
        c.payment_method_id = pm
    if "use_credits" in data:
        c.use_credits = str(data.get("use_credits")) in ("1", "true", "True", "on")
    return None


@bp.post("/checkout/update")
def checkout_update():
    c = cart()
    if c is None:
        return jsonify(ok=False, error="Your cart is empty.")
    err = _apply(c, inputs.body())
    db().commit()
    ctx = page_context()
    return jsonify(summary=render_template("food/_checkout_summary.html", **ctx), error=err,
                   options=render_template("food/_checkout_options.html", **ctx))


@bp.post("/checkout/mode")
def checkout_mode():
    c = cart()
    if c is not None:
        _apply(c, request.form)
        db().commit()
    return redirect(url_for("food.checkout"))


@bp.post("/checkout/promo")
def checkout_promo():
    c = cart()
    if c is None:
        return jsonify(ok=False, error="Your cart is empty.")
    code = inputs.text(inputs.body(), "code", max_len=30).strip().upper()
    s = db().get(Store, c.store_id)
    p = db().scalars(select(Promo).where(func.upper(Promo.code) == code)).first() if code else None
    items = cart_items(c)
    if not code:
        err = "Enter a promo code."
    else:
        err = logic.promo_error(p, s, user(), cart_subtotal(items), user().mode, now(),
                                store_name=_store_name(p.store_id if p else None))
    if err:
        ctx = page_context(promo_error=err)
        return jsonify(ok=False, error=err, summary=render_template("food/_checkout_summary.html", **ctx))
    c.promo_id = p.id
    db().commit()
    ctx = page_context()
    return jsonify(ok=True, summary=render_template("food/_checkout_summary.html", **ctx))


@bp.post("/checkout/promo/remove")
def checkout_promo_remove():
    c = cart()
    if c is not None:
        c.promo_id = None
        db().commit()
    ctx = page_context()
    return jsonify(ok=True, summary=render_template("food/_checkout_summary.html", **ctx) if ctx else "")


@bp.post("/checkout/place")
def place_order():
    c = cart()
    items = cart_items(c)
    if c is None or not items:
        return redirect(url_for("food.checkout"))
    form = request.form
    err = _apply(c, form)
    u, t = user(), now()
    s = db().get(Store, c.store_id)
    a = current_address()
    subtotal = cart_subtotal(items)

    def fail(msg: str):
        db().commit()  # keep the choices made
        ctx = page_context(error=msg)
        return render_template("food/checkout.html", **ctx)

    if err:
        return fail(err)
    mode = u.mode
    if mode == "delivery" and a is None:
        return fail("Add a delivery address.")
    if mode == "pickup" and not s.offers_pickup:
        return fail(f"{s.name} doesn't offer pickup. Switch to delivery.")
    if c.delivery_option == "scheduled":
        slots = logic.schedule_slots(s, t, c.scheduled_for.date()) if c.scheduled_for else []
        if c.scheduled_for is None or c.scheduled_for not in slots:
            return fail("Choose a delivery time.")
    elif not logic.is_open(s, t):
        return fail(f"{s.name} is closed right now. Schedule your order for later.")
    tot, perr = breakdown(c, s, subtotal)
    if perr:
        c.promo_id = None
        return fail(perr + " The promo was removed.")
    promo = cart_promo(c)
    shown = form.get("shown")
    if shown is not None and shown != shown_key(tot):
        # What the summary showed is not what the order would store (a choice typed but not yet applied, or
        # anything else that moved): show the new summary and let the user place it, never charge unseen.
        return fail(_changed_message(shown, tot))
    pm = db().get(PaymentMethod, c.payment_method_id) if c.payment_method_id else None
    if tot["total_cents"] > 0:
        if pm is None:
            return fail("Choose a payment method.")
        if logic.card_expired(pm, t):
            return fail(f"Your {logic.card_label(pm)} has expired. Choose another payment method.")
    eta = logic.eta_minutes(s, a, mode)
    if mode == "delivery" and c.delivery_option == "express":
        eta = logic.express_eta(eta)
    dropoff = form.get("dropoff") if form.get("dropoff") in ("door", "hand") else (a.dropoff if a else "door")
    instructions = (form.get("instructions") if "instructions" in form else (a.instructions if a else "")) or ""
    order = Order(
        store_id=s.id, status="scheduled" if c.delivery_option == "scheduled" else "placed", mode=mode,
        placed_at=t, delivery_option=c.delivery_option if mode == "delivery" or c.delivery_option == "scheduled" else "standard",
        scheduled_for=c.scheduled_for if c.delivery_option == "scheduled" else None,
        address_id=a.id if (mode == "delivery" and a) else None,
        address_text=logic.address_full(a) if (mode == "delivery" and a) else "",
        dropoff=dropoff if mode == "delivery" else "door", instructions=instructions.strip() if mode == "delivery" else "",
        payment_method_id=pm.id if pm else None,
        tip_percent=c.tip_percent if mode == "delivery" else None, promo_id=promo.id if promo else None,
        eta_minutes=eta, rating=None, cancel_reason="", **tot,
    )
    if mode == "pickup" and order.delivery_option == "express":
        order.delivery_option = "standard"
    db().add(order)
    db().flush()
    for ci in items:
        m = db().get(MenuItem, ci.item_id)
        db().add(OrderItem(order_id=order.id, item_id=ci.item_id, name=m.name if m else "", quantity=ci.quantity,
                           option_ids=list(ci.option_ids), options_text=ci.options_text, instructions=ci.instructions,
                           unit_price_cents=ci.unit_price_cents))
        db().delete(ci)
    if tot["credits_applied_cents"]:
        u.credits_cents -= tot["credits_applied_cents"]
    db().delete(c)
    db().commit()
    return redirect(url_for("food.order_detail", order_id=order.id, placed=1))


@bp.post("/api/cards")
def add_card():
    data = inputs.body()
    errors, card = logic.validate_card(*(inputs.text(data, k, max_len=40) for k in ("number", "exp", "cvc", "zip")), now())
    if errors:
        return jsonify(ok=False, errors=errors)
    u = user()
    pm = PaymentMethod(brand=card["brand"], last4=card["last4"], exp_month=card["exp_month"],
                       exp_year=card["exp_year"], name_on_card=(inputs.text(data, "name", max_len=80).strip() or f"{u.first_name} {u.last_name}"),
                       zip=card["zip"], created_at=now())
    db().add(pm)
    db().flush()
    if str(data.get("make_default", "")) in ("1", "true", "on"):
        u.default_payment_id = pm.id
    c = cart()
    if c is not None and data.get("select_for_cart", True):
        c.payment_method_id = pm.id
    db().commit()
    return jsonify(ok=True, id=pm.id, label=logic.card_label(pm))


__all__ = ["dt"]
