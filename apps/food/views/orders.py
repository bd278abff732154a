"""Orders: in progress (status timeline), past orders, receipt, reorder, cancel, rate, get help."""

from __future__ import annotations

import datetime as dt

from flask import abort, jsonify, redirect, render_template, request, url_for
from sqlalchemy import select

from apps._shared import db, inputs
from apps._shared.actions import perform
from apps.food.models import Order, OrderItem, PaymentMethod, Promo, Store, SupportRequest
from apps.food.services import Conflict, Invalid
from apps.food.services import orders as order_service
from apps.food.services.orders import ACTIVE, CANCEL_REASONS, CANCELLABLE, DONE, ISSUES, lines as order_lines  # noqa: F401
from apps.food.views.blueprint import bp
from apps.food.views.common import cart
from domain import food as logic

STATUS_TEXT = {
    "placed": "Order placed", "preparing": "Preparing your order", "on_the_way": "On the way",
    "ready": "Ready for pickup", "delivered": "Delivered", "picked_up": "Picked up", "cancelled": "Cancelled",
    "scheduled": "Scheduled",
}


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
                           can_rate_dasher=order_service.can_rate_dasher(o), dasher_reasons=logic.DASHER_REASONS,
                           thumbs=logic.THUMBS, dasher_rated=request.args.get("dasher") == "1",
                           can_change_tip=order_service.can_change_tip(o), tipped=request.args.get("tip") == "1",
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
    perform(order_service.cancel, o, inputs.body().get("reason", "") or "",
            errors={Invalid: lambda e: back or jsonify(ok=False, error=str(e))})
    return back or jsonify(ok=True)


@bp.post("/orders/<int:order_id>/rate")
def rate(order_id: int):
    o = get_order(order_id)
    data = inputs.body()

    def reply(err: str | None):
        if not request.is_json:
            return redirect(url_for("food.order_detail", order_id=o.id, **({"rate_error": err} if err else {})))
        return jsonify(ok=False, error=err) if err else jsonify(ok=True)

    perform(order_service.rate, o, inputs.integer(data, "rating", 0), inputs.text(data, "text"),
            errors={Invalid: lambda e: reply(str(e))})
    return reply(None)


@bp.post("/orders/<int:order_id>/rate-dasher")
def rate_dasher(order_id: int):
    """The order page's 'Rate your Dasher' dialog (form: thumb, reason_<thumb> checkboxes, comment) or JSON
    {thumb, reasons: [...], comment}."""
    o = get_order(order_id)
    data = inputs.body()
    thumb = inputs.text(data, "thumb") or None
    if hasattr(data, "getlist"):
        reasons = data.getlist(f"reason_{thumb}") if thumb in logic.THUMBS else []
    else:
        reasons = data.get("reasons") or []
        if not isinstance(reasons, list) or not all(isinstance(r, str) for r in reasons):
            inputs.bad_request("'reasons' must be a list of reasons.")

    def reply(err: str | None):
        if not request.is_json:
            return redirect(url_for("food.order_detail", order_id=o.id, **({"rate_error": err} if err else {"dasher": 1})))
        return jsonify(ok=False, error=err) if err else jsonify(ok=True)

    perform(order_service.rate_dasher, o, thumb, reasons, inputs.text(data, "comment"),
            errors={Invalid: lambda e: reply(str(e))})
    return reply(None)


@bp.post("/orders/<int:order_id>/tip")
def change_tip(order_id: int):
    """The order page's 'Adjust tip' dialog (form: tip = 15|20|25|other, tip_custom in dollars) or JSON
    {tip_percent} / {tip_amount_cents}."""
    o = get_order(order_id)
    data = inputs.body()
    if request.is_json:
        percent = inputs.integer(data, "tip_percent", None, 0, 100)
        custom = inputs.integer(data, "tip_amount_cents", None, 0, 10**9)
    else:
        tip = inputs.text(data, "tip")
        percent = int(tip) if tip.isdecimal() and len(tip) <= 3 else None
        custom = logic.parse_tip_dollars(inputs.text(data, "tip_custom")) if tip == "other" else None
        if not tip:
            percent, custom = None, None

    def reply(err: str | None):
        if not request.is_json:
            return redirect(url_for("food.order_detail", order_id=o.id, **({"rate_error": err} if err else {"tip": 1})))
        return jsonify(ok=False, error=err) if err else jsonify(ok=True)

    perform(order_service.change_tip, o, percent, custom, errors={Invalid: lambda e: reply(str(e))})
    return reply(None)


@bp.route("/orders/<int:order_id>/help", methods=["GET", "POST"])
def order_help(order_id: int):
    o = get_order(order_id)
    s = db().get(Store, o.store_id)
    lines = order_lines(o)
    pm = db().get(PaymentMethod, o.payment_method_id) if o.payment_method_id else None
    done_ids = order_service.helped_line_ids(o)
    form = request.form

    def page(error: str | None):
        return render_template("food/help.html", o=o, s=s, lines=lines, pm=pm, issues=ISSUES, error=error,
                               done_ids=done_ids, form=form)

    if request.method != "POST":
        return page(None)
    chosen = [oi for oi in lines if form.get(f"item_{oi.id}") and oi.id not in done_ids]
    quantities = {oi.id: inputs.integer(form, f"qty_{oi.id}", oi.quantity) for oi in chosen}
    perform(order_service.request_help, o, form.get("issue"), chosen, form.get("reason", ""), form.get("resolution"),
            quantities, errors={Invalid: lambda e: page(str(e))})
    return redirect(url_for("food.order_detail", order_id=o.id, help=1))


@bp.post("/orders/<int:order_id>/reorder")
def reorder(order_id: int):
    o = get_order(order_id)
    data = inputs.body()
    perform(order_service.reorder, o, replace=bool(data.get("replace")), errors={Conflict: lambda e: (
        jsonify(ok=False, conflict=True, current_store=e.current_store) if request.is_json
        else redirect(url_for("food.orders", reorder_conflict=o.id)))})
    url = url_for("food.store_page", store_id=o.store_id, cart="open")
    return jsonify(ok=True, url=url) if request.is_json else redirect(url)


__all__ = ["dt", "OrderItem"]
