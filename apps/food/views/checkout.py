"""Checkout: address and drop-off, delivery options and scheduling, payment (+ add a card), promo
codes, tip, fees and total; Place Order turns the cart into an order."""

from __future__ import annotations

import datetime as dt

from flask import jsonify, redirect, render_template, request, url_for
from sqlalchemy import select

from apps._shared import db, inputs, now
from apps._shared.actions import perform
from apps.food.models import Cart, MenuItem, PaymentMethod, Store
from apps.food.services import FormInvalid, Invalid
from apps.food.services import account as account_service
from apps.food.services import checkout as checkout_service
from apps.food.services.checkout import breakdown, cart_promo  # noqa: F401 (the summary's one computation)
from apps.food.views.blueprint import bp
from apps.food.views.common import (
    cart, cart_items, cart_subtotal, current_address, json_form_errors, parse_when, shown_money, user,
)
from domain import food as logic


def cards() -> list[PaymentMethod]:
    return list(db().scalars(select(PaymentMethod).order_by(PaymentMethod.id)))


def schedule_data(s: Store) -> list[dict]:
    return checkout_service.schedule(s)


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
    parts = [f"{LINE_LABELS[k]} {shown_money(sign.get(k, 1) * tot[k])}" for k in moved if k in LINE_LABELS]
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
    """Apply checkout choices from a form or JSON body to the cart (and the user's mode). The page is lenient
    where a stale form can be (an unknown card or time is ignored); a mistyped custom tip is the one error."""
    u = user()
    data = {k: _last(data, k) for k in data}
    if data.get("mode") in ("delivery", "pickup"):
        u.mode = data["mode"]
    opt = data.get("delivery_option")
    if opt in checkout_service.DELIVERY_OPTIONS:
        checkout_service.set_delivery_option(c, opt, parse_when(data.get("scheduled_for")))
    tip = data.get("tip")
    if tip is not None and tip != "":
        if str(tip) == "other":
            raw = str(data.get("tip_custom", "") or "").replace("$", "").strip()
            cents = logic.parse_tip_dollars(raw)
            if raw and cents is None:
                c.tip_percent = None
                return "Enter a tip amount like 5 or 5.50."
            checkout_service.set_tip(c, None, cents)
        elif str(tip).isdecimal() and int(tip) in logic.TIP_PRESETS:
            checkout_service.set_tip(c, int(tip))
    pm = inputs.integer(data, "payment_method_id")
    if pm is not None and db().get(PaymentMethod, pm) is not None:
        checkout_service.set_payment(c, pm)
    if "use_credits" in data:
        c.use_credits = str(data.get("use_credits")) in ("1", "true", "True", "on")
    return None


@bp.post("/checkout/update")
def checkout_update():
    c = cart()
    if c is None:
        return jsonify(ok=False, error="Your cart is empty.")
    err = perform(_apply, c, inputs.body())  # a mistyped tip is shown, and the other choices kept
    ctx = page_context()
    return jsonify(summary=render_template("food/_checkout_summary.html", **ctx), error=err,
                   options=render_template("food/_checkout_options.html", **ctx))


@bp.post("/checkout/mode")
def checkout_mode():
    c = cart()
    if c is not None:
        perform(_apply, c, request.form)
    return redirect(url_for("food.checkout"))


@bp.post("/checkout/promo")
def checkout_promo():
    c = cart()
    if c is None:
        return jsonify(ok=False, error="Your cart is empty.")
    perform(checkout_service.apply_promo, c, inputs.text(inputs.body(), "code", max_len=30), errors={Invalid: lambda e: (
        jsonify(ok=False, error=str(e),
                summary=render_template("food/_checkout_summary.html", **page_context(promo_error=str(e)))))})
    ctx = page_context()
    return jsonify(ok=True, summary=render_template("food/_checkout_summary.html", **ctx))


@bp.post("/checkout/promo/remove")
def checkout_promo_remove():
    c = cart()
    if c is not None:
        perform(_remove_promo, c)
    ctx = page_context()
    return jsonify(ok=True, summary=render_template("food/_checkout_summary.html", **ctx) if ctx else "")


def _remove_promo(c: Cart) -> None:
    c.promo_id = None


@bp.post("/checkout/place")
def place_order():
    c = cart()
    items = cart_items(c)
    if c is None or not items:
        return redirect(url_for("food.checkout"))
    form = request.form

    def apply_and_place():
        err = _apply(c, form)
        if err:
            raise Invalid(err)
        tot = checkout_service.check_placeable(c)
        shown = form.get("shown")
        if shown is not None and shown != shown_key(tot):
            # What the summary showed is not what the order would store (a choice typed but not yet applied, or
            # anything else that moved): show the new summary and let the user place it, never charge unseen.
            raise Invalid(_changed_message(shown, tot))
        pm = checkout_service.check_payment(c, tot)
        return checkout_service.place(c, tot, pm, form.get("dropoff"),
                                      form.get("instructions") if "instructions" in form else None)

    # A refusal keeps the choices made (and a promo that no longer applies, taken off): keep_refused commits them,
    # and the page shows why the order was not placed.
    order = perform(apply_and_place, keep_refused=True,
                    errors={Invalid: lambda e: render_template("food/checkout.html", **page_context(error=str(e)))})
    return redirect(url_for("food.order_detail", order_id=order.id, placed=1))


@bp.post("/api/cards")
def add_card():
    data = inputs.body()
    pm = perform(account_service.add_card, *(inputs.text(data, k, max_len=40) for k in ("number", "exp", "cvc", "zip")),
                 name=inputs.text(data, "name", max_len=80),
                 make_default=str(data.get("make_default", "")) in ("1", "true", "on"),
                 select_for_cart=bool(data.get("select_for_cart", True)), errors={FormInvalid: json_form_errors})
    return jsonify(ok=True, id=pm.id, label=logic.card_label(pm))


__all__ = ["dt"]
