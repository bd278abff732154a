"""Per-request lookups of the world's one user and one cart (memoised on flask.g; a tool call is a request
of its own, so nothing leaks between calls)."""

from __future__ import annotations

from flask import g
from sqlalchemy import select

from apps._shared import db
from apps.food.models import Address, Cart, CartItem, User


def user() -> User:
    if "food_user" not in g:
        g.food_user = db().get(User, 1)
    return g.food_user


def current_address() -> Address | None:
    u = user()
    memo = g.setdefault("food_addr", {})  # per request, keyed by the id (an address change in the request)
    if u.current_address_id not in memo:
        a = db().get(Address, u.current_address_id) if u.current_address_id else None
        if a is None:
            a = db().scalars(select(Address).order_by(Address.id)).first()
        memo[u.current_address_id] = a
    return memo[u.current_address_id]


def addresses() -> list[Address]:
    return list(db().scalars(select(Address).order_by(Address.id)))


def cart() -> Cart | None:
    if "food_cart" not in g:
        g.food_cart = db().scalars(select(Cart).order_by(Cart.id)).first()
    return g.food_cart


def forget_cart() -> None:
    """Drop the memoised cart (after one was created or deleted)."""
    g.pop("food_cart", None)


def cart_items(c: Cart | None = None) -> list[CartItem]:
    c = c or cart()
    if c is None:
        return []
    return list(db().scalars(select(CartItem).where(CartItem.cart_id == c.id).order_by(CartItem.id)))


def cart_count() -> int:
    return sum(ci.quantity for ci in cart_items())


def cart_subtotal(items: list[CartItem]) -> int:
    return sum(ci.unit_price_cents * ci.quantity for ci in items)
