"""Store page, item dialog, save store, group order."""

from __future__ import annotations

from flask import abort, jsonify, render_template, request
from sqlalchemy import select

from apps._shared import db, inputs, now
from apps._shared.actions import perform
from apps.food.models import CartItem, MenuCategory, MenuItem, Promo, Review, Store
from apps.food.services import Conflict
from apps.food.services import cart as cart_service
from apps.food.services.account import toggle_saved
from apps.food.services.cart import group_link
from apps.food.views.blueprint import bp
from apps.food.views.common import cart, cuisine_map, current_address, item_groups, store_card, user
from domain import food as logic


def get_store(store_id: int) -> Store:
    s = db().get(Store, store_id)
    if s is None:
        abort(404)
    return s


@bp.get("/store/<int:store_id>")
def store_page(store_id: int):
    s = get_store(store_id)
    card = store_card(s)
    cats = db().scalars(select(MenuCategory).where(MenuCategory.store_id == s.id).order_by(MenuCategory.position)).all()
    items = db().scalars(select(MenuItem).where(MenuItem.store_id == s.id).order_by(MenuItem.category_id, MenuItem.position)).all()
    by_cat: dict[int, list[MenuItem]] = {}
    for it in items:
        by_cat.setdefault(it.category_id, []).append(it)
    popular = [it for it in items if it.popular]
    reviews = db().scalars(select(Review).where(Review.store_id == s.id).order_by(Review.created_at.desc(), Review.id)).all()
    t = now()
    promos = [p for p in db().scalars(select(Promo).where(Promo.store_id == s.id).order_by(Promo.id)) if p.expires_at > t]
    u = user()
    a = current_address()
    open_item = inputs.integer(request.args, "item", None)
    open_it = next((i for i in items if i.id == open_item), None) if open_item else None
    group = cart() if (cart() is not None and cart().store_id == s.id and cart().group_order) else None
    return render_template(
        "food/store.html", s=s, card=card, cuisine=cuisine_map()[s.cuisine_id], cats=cats, by_cat=by_cat,
        popular=popular, reviews=reviews, promos=promos, hours=logic.hours_rows(s),
        eta_delivery=logic.eta_minutes(s, a, "delivery"), eta_pickup=logic.eta_minutes(s, a, "pickup"),
        open_item=open_it.id if open_it else None,
        item_html=render_template("food/_item_dialog.html", it=open_it, groups=item_groups(open_it), s=s) if open_it else "",
        member=logic.is_member(u, t), group=group, group_link=group_link(group) if group else "",
    )


@bp.get("/store/<int:store_id>/item/<int:item_id>")
def item_dialog(store_id: int, item_id: int):
    it = db().get(MenuItem, item_id)
    if it is None or it.store_id != store_id:
        abort(404)
    return render_template("food/_item_dialog.html", it=it, groups=item_groups(it), s=get_store(store_id))


@bp.post("/api/store/<int:store_id>/save")
def toggle_save(store_id: int):
    s = get_store(store_id)
    want = inputs.body().get("saved")
    saved = perform(toggle_saved, s.id, want if isinstance(want, bool) else None)
    return jsonify(saved=saved, name=s.name)


@bp.post("/api/group-order")
def start_group_order():
    data = inputs.body()
    s = get_store(inputs.integer(data, "store_id", 0))
    limit = None if data.get("limit") == "none" else inputs.integer(data, "limit", None, 0, 10**7)
    c = perform(cart_service.start_group_order, s.id, limit, replace=bool(data.get("replace")),
                errors={Conflict: lambda e: jsonify(ok=False, conflict=True, current_store=e.current_store)})
    return jsonify(ok=True, link=group_link(c), limit=limit)


@bp.post("/api/group-order/end")
def end_group_order():
    perform(cart_service.end_group_order)
    return jsonify(ok=True)


__all__ = ["get_store", "group_link", "CartItem"]
