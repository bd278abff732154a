"""Orders: in progress (status timeline), past orders, receipt, reorder, cancel, rate, get help."""

from __future__ import annotations

import datetime as dt

from flask import abort, jsonify, redirect, render_template, request, url_for
from sqlalchemy import select

from apps._shared import db, inputs, now
from apps.food import logic
from apps.food.models import (
    Cart, CartItem, MenuItem, Option, Order, OrderItem, PaymentMethod, Promo, Review, Store, SupportRequest,
)
from apps.food.views import bp
from apps.food.views.common import cart, cart_items, user

ACTIVE = ("placed", "preparing", "on_the_way", "ready", "scheduled")
DONE = ("delivered", "picked_up")
CANCELLABLE = ("placed", "scheduled")
STATUS_TEXT = {
    "placed": "Order placed", "preparing": "Preparing your order", "on_the_way": "On the way",
    "ready": "Ready for pickup", "delivered": "Delivered", "picked_up": "Picked up", "cancelled": "Cancelled",
    "scheduled": "Scheduled",
}
ISSUES = {
    "missing": ("Missing items", ["Item was not in the bag", "Only part of the item arrived", "Whole order is missing"]),
    "wrong": ("Wrong items", ["Received a different item", "Wrong size or options", "Allergy or dietary issue"]),
    "quality": ("Food quality issue", ["Food was cold", "Spilled or damaged", "Undercooked or overcooked"]),
}
CANCEL_REASONS = ["Ordered by mistake", "Wrong address", "It's taking too long", "Changed my mind"]


def get_order(order_id: int) -> Order:
    o = db().get(Order, order_id)
    if o is None:
        abort(404)
    return o


def timeline(o: Order) -> list[dict]:
    if o.status == "cancelled":
        return [{"label": "Order placed", "time": o.placed_at, "done": True},
                {"label": "Cancelled", "time": None, "done": True}]
    pickup = o.mode == "pickup"
    steps = ["Order placed", "Preparing", "Ready for pickup" if pickup else "On the way", "Picked up" if pickup else "Delivered"]
    reached = {"scheduled": 0, "placed": 0, "preparing": 1, "on_the_way": 2, "ready": 2, "delivered": 3, "picked_up": 3}[o.status]
    out = []
    for i, label in enumerate(steps):
        t = None
        if i == 0:
            t = o.placed_at
        elif i == 3 and o.completed_at:
            t = o.completed_at
        out.append({"label": label, "time": t, "done": i <= reached, "current": i == reached})
    return out


def order_lines(o: Order) -> list[OrderItem]:
    return list(db().scalars(select(OrderItem).where(OrderItem.order_id == o.id).order_by(OrderItem.id)))


@bp.get("/orders")
def orders():
    rows = db().scalars(select(Order).order_by(Order.placed_at.desc(), Order.id.desc())).all()
    stores = {s.id: s for s in db().scalars(select(Store).where(Store.id.in_({o.store_id for o in rows})))}
    counts: dict[int, int] = {}
    for oi in db().scalars(select(OrderItem)):
        counts[oi.order_id] = counts.get(oi.order_id, 0) + oi.quantity
    active = [o for o in rows if o.status in ACTIVE]
    past = [o for o in rows if o.status not in ACTIVE]
    conflict = inputs.integer(request.args, "reorder_conflict", None, 1)
    o = db().get(Order, conflict) if conflict else None
    cur = db().get(Store, cart().store_id) if (o is not None and cart() is not None) else None
    return render_template("food/orders.html", active=active, past=past, stores=stores, counts=counts,
                           STATUS_TEXT=STATUS_TEXT, conflict=conflict if cur else None, conflict_store=cur,
                           conflict_new=stores.get(o.store_id) if cur else None)


@bp.get("/orders/<int:order_id>")
def order_detail(order_id: int):
    o = get_order(order_id)
    s = db().get(Store, o.store_id)
    pm = db().get(PaymentMethod, o.payment_method_id) if o.payment_method_id else None
    promo = db().get(Promo, o.promo_id) if o.promo_id else None
    helps = list(db().scalars(select(SupportRequest).where(SupportRequest.order_id == o.id).order_by(SupportRequest.id)))
    return render_template("food/order.html", o=o, s=s, lines=order_lines(o), pm=pm, promo=promo, steps=timeline(o),
                           STATUS_TEXT=STATUS_TEXT, can_cancel=o.status in CANCELLABLE,
                           can_rate=o.status in DONE and o.rating is None, can_help=o.status in DONE,
                           helps=helps, reasons=CANCEL_REASONS, placed=request.args.get("placed") == "1",
                           helped=request.args.get("help") == "1", rate_error=request.args.get("rate_error", ""))


@bp.get("/orders/<int:order_id>/receipt")
def receipt(order_id: int):
    o = get_order(order_id)
    s = db().get(Store, o.store_id)
    pm = db().get(PaymentMethod, o.payment_method_id) if o.payment_method_id else None
    promo = db().get(Promo, o.promo_id) if o.promo_id else None
    return render_template("food/receipt.html", o=o, s=s, lines=order_lines(o), pm=pm, promo=promo)


@bp.post("/orders/<int:order_id>/cancel")
def cancel(order_id: int):
    o = get_order(order_id)
    back = None if request.is_json else redirect(url_for("food.order_detail", order_id=o.id))
    if o.status not in CANCELLABLE:
        return back or jsonify(ok=False, error="This order can no longer be cancelled.")
    reason = inputs.body().get("reason", "") or ""
    o.status = "cancelled"
    o.cancel_reason = reason if reason in CANCEL_REASONS else ""
    if o.credits_applied_cents:
        user().credits_cents += o.credits_applied_cents
    db().commit()
    return back or jsonify(ok=True)


@bp.post("/orders/<int:order_id>/rate")
def rate(order_id: int):
    o = get_order(order_id)
    data = inputs.body()
    if not request.is_json:
        err = _rate(o, data)
        return redirect(url_for("food.order_detail", order_id=o.id, **({"rate_error": err} if err else {})))
    err = _rate(o, data)
    return jsonify(ok=False, error=err) if err else jsonify(ok=True)


def _rate(o: Order, data) -> str | None:
    stars = inputs.integer(data, "rating", 0)
    if o.status not in DONE:
        return "You can rate an order once it's complete."
    if o.rating is not None:
        return "You already rated this order."
    if not 1 <= stars <= 5:
        return "Choose a rating from 1 to 5 stars."
    text = inputs.text(data, "text").strip()[:300]
    o.rating = stars
    u = user()
    db().add(Review(store_id=o.store_id, author=f"{u.first_name} {u.last_name[:1]}.", rating=stars, text=text,
                    created_at=now(), order_id=o.id))
    db().commit()
    return None


@bp.route("/orders/<int:order_id>/help", methods=["GET", "POST"])
def order_help(order_id: int):
    o = get_order(order_id)
    s = db().get(Store, o.store_id)
    lines = order_lines(o)
    pm = db().get(PaymentMethod, o.payment_method_id) if o.payment_method_id else None
    done_ids = {r.order_item_id for r in db().scalars(select(SupportRequest).where(SupportRequest.order_id == o.id))}
    error = None
    form = request.form
    if request.method == "POST":
        issue = form.get("issue")
        chosen = [oi for oi in lines if form.get(f"item_{oi.id}") and oi.id not in done_ids]
        reason = form.get("reason", "")
        resolution = form.get("resolution")
        if o.status not in DONE:
            error = "You can get help once your order is complete."
        elif issue not in ISSUES:
            error = "Choose what went wrong."
        elif not chosen:
            error = "Select the items with a problem."
        elif reason not in ISSUES[issue][1]:
            error = "Choose a reason."
        elif resolution not in ("refund", "credit"):
            error = "Choose how you'd like to be refunded."
        else:
            total = 0
            for oi in chosen:
                amt = oi.unit_price_cents * oi.quantity
                total += amt
                db().add(SupportRequest(order_id=o.id, order_item_id=oi.id, issue=issue, reason=reason,
                                        resolution=resolution, amount_cents=amt, created_at=now()))
            if resolution == "credit":
                user().credits_cents += total
            db().commit()
            return redirect(url_for("food.order_detail", order_id=o.id, help=1))
    return render_template("food/help.html", o=o, s=s, lines=lines, pm=pm, issues=ISSUES, error=error,
                           done_ids=done_ids, form=form)


@bp.post("/orders/<int:order_id>/reorder")
def reorder(order_id: int):
    o = get_order(order_id)
    data = inputs.body()
    c = cart()
    if c is not None and c.store_id != o.store_id and cart_items(c) and not data.get("replace"):
        cur = db().get(Store, c.store_id)
        if not request.is_json:
            return redirect(url_for("food.orders", reorder_conflict=o.id))
        return jsonify(ok=False, conflict=True, current_store=cur.name if cur else "")
    if c is not None and c.store_id != o.store_id:
        for ci in cart_items(c):
            db().delete(ci)
        db().delete(c)
        db().flush()
        c = None
    if c is None:
        c = Cart(store_id=o.store_id, created_at=now(), payment_method_id=user().default_payment_id,
                 tip_percent=logic.DEFAULT_TIP)
        db().add(c)
        db().flush()
    existing = cart_items(c)
    for oi in order_lines(o):
        m = db().get(MenuItem, oi.item_id)
        if m is None:
            continue
        opts = list(db().scalars(select(Option).where(Option.id.in_(oi.option_ids)))) if oi.option_ids else []
        same = next((ci for ci in existing if ci.item_id == m.id and ci.option_ids == list(oi.option_ids)
                     and ci.instructions == oi.instructions), None)
        if same:
            same.quantity += oi.quantity
        else:
            db().add(CartItem(cart_id=c.id, item_id=m.id, quantity=oi.quantity, option_ids=list(oi.option_ids),
                              options_text=oi.options_text, instructions=oi.instructions,
                              unit_price_cents=logic.item_unit_price(m, opts)))
    db().commit()
    url = url_for("food.store_page", store_id=o.store_id, cart="open")
    return jsonify(ok=True, url=url) if request.is_json else redirect(url)


__all__ = ["dt"]
