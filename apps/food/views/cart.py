"""The cart: add from the item dialog (with the new-cart prompt), change quantities, remove; drawer."""

from __future__ import annotations

from flask import abort, g, jsonify, render_template
from sqlalchemy import select

from apps._shared import db, inputs
from apps._shared.actions import perform
from apps.food.models import CartItem, MenuItem, Store
from apps.food.services import Conflict, Invalid, NotFound
from apps.food.services import cart as cart_service
from apps.food.services.cart import group_link
from apps.food.views.blueprint import bp
from apps.food.views.common import (
    cart, cart_count, cart_items, cart_subtotal, item_groups, json_404, json_conflict, json_error, shown_money,
)
from domain import food as logic


def cart_json() -> dict:
    g.pop("food_cart", None)
    c = cart()
    items = cart_items(c)
    return {"count": sum(i.quantity for i in items), "subtotal": shown_money(cart_subtotal(items)),
            "store_id": c.store_id if c else None}


@bp.post("/api/cart/add")
def cart_add():
    data = inputs.body()
    line = perform(cart_service.add_item, inputs.integer(data, "item_id", 0), inputs.integer(data, "quantity", 1) or 1,
                   inputs.id_list(data, "option_ids"), inputs.text(data, "instructions"),
                   replace=bool(data.get("replace")),
                   errors={NotFound: json_404, Conflict: json_conflict, Invalid: json_error})
    name = db().get(MenuItem, line.item_id).name
    return jsonify(ok=True, name=name, **cart_json())


@bp.post("/api/cart/item/<int:ci_id>")
def cart_update(ci_id: int):
    ci = db().get(CartItem, ci_id)
    if ci is None:
        return jsonify(error="Not in your cart."), 404
    perform(cart_service.set_quantity, ci.id, inputs.integer(inputs.body(), "quantity", ci.quantity))
    return jsonify(ok=True, drawer=drawer_html(), **cart_json())


@bp.get("/cart/item/<int:ci_id>/edit")
def cart_line_dialog(ci_id: int):
    """A cart line's option dialog, prefilled with the line's options, note and quantity."""
    ci = db().get(CartItem, ci_id)
    it = db().get(MenuItem, ci.item_id) if ci is not None else None
    if it is None:
        abort(404)
    return render_template("food/_item_dialog.html", it=it, groups=item_groups(it), s=db().get(Store, it.store_id), line=ci)


@bp.post("/api/cart/item/<int:ci_id>/edit")
def cart_line_save(ci_id: int):
    data = inputs.body()
    # a field left out is kept (the dialog sends all three)
    perform(cart_service.edit_line, ci_id, inputs.id_list(data, "option_ids") if "option_ids" in data else None,
            inputs.text(data, "instructions") if "instructions" in data else None,
            inputs.integer(data, "quantity", None),
            errors={NotFound: lambda e: (jsonify(ok=False, error=str(e)), 404), Invalid: json_error})
    return jsonify(ok=True, drawer=drawer_html(), **cart_json())


@bp.post("/api/cart/clear")
def cart_clear():
    if cart() is not None:
        perform(cart_service.clear)
    return jsonify(ok=True, count=0, drawer=drawer_html())


@bp.get("/cart/drawer")
def cart_drawer():
    return drawer_html()


def drawer_html() -> str:
    g.pop("food_cart", None)
    c = cart()
    items = cart_items(c)
    s = db().get(Store, c.store_id) if c else None
    names = {}
    if items:
        names = {m.id: m for m in db().scalars(select(MenuItem).where(MenuItem.id.in_([i.item_id for i in items])))}
    return render_template("food/_cart_drawer.html", c=c, items=items, s=s, menu=names,
                           subtotal=cart_subtotal(items), count=cart_count(),
                           link=group_link(c) if c is not None and c.group_order else "")
