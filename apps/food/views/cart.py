"""The cart: add from the item dialog (with the new-cart prompt), change quantities, remove; drawer."""

from __future__ import annotations

from flask import g, jsonify, render_template, request
from sqlalchemy import select

from apps._shared import db, inputs, now
from apps.food import logic
from apps.food.models import Cart, CartItem, MenuItem, Option, OptionGroup, Store
from apps.food.views import bp
from apps.food.views.common import cart, cart_count, cart_items, cart_subtotal, user

MAX_QTY = 20


def validate_options(item: MenuItem, option_ids: list[int]) -> tuple[list[Option], str | None]:
    opts = list(db().scalars(select(Option).where(Option.id.in_(option_ids)))) if option_ids else []
    if len(opts) != len(set(option_ids)):
        return [], "Unknown option."
    groups = {gr.id: gr for gr in db().scalars(select(OptionGroup).where(OptionGroup.id.in_(item.group_ids or [-1])))}
    for o in opts:
        if o.group_id not in groups:
            return [], f"{o.name} is not an option of {item.name}."
    for gid in item.group_ids:
        gr = groups.get(gid)
        if gr is None:
            continue
        n = sum(1 for o in opts if o.group_id == gid)
        if n < gr.min_select:
            return [], f"Choose {gr.min_select if gr.min_select > 1 else 'an option'} for {gr.name}."
        if n > gr.max_select:
            return [], f"Choose at most {gr.max_select} for {gr.name}."
    order = {gid: i for i, gid in enumerate(item.group_ids)}
    pos = {o.id: o.position for o in opts}
    opts.sort(key=lambda o: (order.get(o.group_id, 99), pos[o.id]))
    return opts, None


def cart_json() -> dict:
    g.pop("food_cart", None)
    c = cart()
    items = cart_items(c)
    return {"count": sum(i.quantity for i in items), "subtotal": logic.money(cart_subtotal(items)),
            "store_id": c.store_id if c else None}


@bp.post("/api/cart/add")
def cart_add():
    data = inputs.body()
    item = db().get(MenuItem, inputs.integer(data, "item_id", 0))
    if item is None:
        return jsonify(error="That item is no longer available."), 404
    qty = inputs.integer(data, "quantity", 1) or 1
    if not 1 <= qty <= MAX_QTY:
        return jsonify(ok=False, error=f"Quantity must be between 1 and {MAX_QTY}.")
    option_ids = sorted(set(inputs.id_list(data, "option_ids")))
    opts, err = validate_options(item, option_ids)
    if err:
        return jsonify(ok=False, error=err)
    instructions = inputs.text(data, "instructions").strip()[:300]
    c = cart()
    if c is not None and c.store_id != item.store_id:
        if cart_items(c) and not data.get("replace"):
            cur = db().get(Store, c.store_id)
            new = db().get(Store, item.store_id)
            return jsonify(ok=False, conflict=True, current_store=cur.name if cur else "", new_store=new.name)
        for ci in cart_items(c):
            db().delete(ci)
        db().delete(c)
        db().flush()
        c = None
    if c is None:
        c = Cart(store_id=item.store_id, created_at=now(), payment_method_id=user().default_payment_id,
                 tip_percent=logic.DEFAULT_TIP)
        db().add(c)
        db().flush()
    same = next((ci for ci in cart_items(c) if ci.item_id == item.id and ci.option_ids == option_ids
                 and ci.instructions == instructions), None)
    if same is not None:
        same.quantity = min(MAX_QTY, same.quantity + qty)
    else:
        db().add(CartItem(cart_id=c.id, item_id=item.id, quantity=qty, option_ids=[o.id for o in sorted(opts, key=lambda o: o.id)],
                          options_text=", ".join(o.name for o in opts), instructions=instructions,
                          unit_price_cents=logic.item_unit_price(item, opts)))
    db().commit()
    return jsonify(ok=True, name=item.name, **cart_json())


@bp.post("/api/cart/item/<int:ci_id>")
def cart_update(ci_id: int):
    ci = db().get(CartItem, ci_id)
    if ci is None:
        return jsonify(error="Not in your cart."), 404
    qty = inputs.integer(inputs.body(), "quantity", ci.quantity)
    if qty <= 0:
        db().delete(ci)
    else:
        ci.quantity = min(MAX_QTY, qty)
    db().flush()
    c = cart()
    if c is not None and not cart_items(c) and not c.group_order:
        db().delete(c)
    db().commit()
    return jsonify(ok=True, drawer=drawer_html(), **cart_json())


@bp.post("/api/cart/clear")
def cart_clear():
    c = cart()
    if c is not None:
        for ci in cart_items(c):
            db().delete(ci)
        db().delete(c)
        db().commit()
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
    from apps.food.views.store import group_link

    return render_template("food/_cart_drawer.html", c=c, items=items, s=s, menu=names,
                           subtotal=cart_subtotal(items), count=cart_count(),
                           link=group_link(c) if c is not None and c.group_order else "")
