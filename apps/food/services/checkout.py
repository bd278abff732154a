"""Checkout: the cart's choices (mode, delivery option and time, tip, card, credits, promo), the one fee
computation (`breakdown`) the summary shows and the order stores, and placing the order."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import func, select

from apps._shared import db, now
from apps.food.models import Cart, MenuItem, Order, OrderItem, PaymentMethod, Promo, Store
from apps.food.services import Invalid, NotFound
from apps.food.services.state import cart, cart_items, cart_subtotal, current_address, forget_cart, user
from domain import food as logic

DELIVERY_OPTIONS = ("standard", "express", "scheduled")


def open_cart() -> Cart:
    """The cart with items, or Invalid (the checkout page is empty without one)."""
    c = cart()
    if c is None or not cart_items(c):
        raise Invalid("Your cart is empty.")
    return c


def cart_promo(c: Cart) -> Promo | None:
    return db().get(Promo, c.promo_id) if c.promo_id else None


def store_name(store_id: int | None) -> str:
    if store_id is None:
        return ""
    s = db().get(Store, store_id)
    return s.name if s else ""


def breakdown(c: Cart, s: Store, subtotal: int) -> tuple[dict, str | None]:
    """Totals of the cart as it stands, and the promo's error if it no longer applies. The one computation
    both the checkout summary and Place Order use, so the page can't show an amount the order doesn't store."""
    u, t = user(), now()
    promo = cart_promo(c)
    perr = None
    if promo is not None:
        perr = logic.promo_error(promo, s, u, subtotal, u.mode, t, store_name=store_name(promo.store_id))
        if perr:
            promo = None
    tot = logic.totals(store=s, user=u, subtotal=subtotal, mode=u.mode, delivery_option=c.delivery_option,
                       tip_percent=c.tip_percent, tip_custom_cents=c.tip_cents, promo=promo,
                       use_credits=c.use_credits, now=t)
    return tot, perr


def schedule(s: Store) -> list[dict]:
    """The scheduling windows: today and the next days, each with its 30-minute slot starts."""
    t = now()
    return [{"date": d, "label": logic.day_label(d, t.date()), "slots": logic.schedule_slots(s, t, d)}
            for d in logic.slot_days(t)]


def slot_ok(s: Store, when: dt.datetime | None) -> bool:
    return when is not None and when in logic.schedule_slots(s, now(), when.date())


# ---------------------------------------------------------------------- choices (each one a setter)
def set_delivery_option(c: Cart, option: str, when: dt.datetime | None = None) -> None:
    """Standard, Express or Scheduled (a time kept only with Scheduled; its slot is checked at Place Order)."""
    if option not in DELIVERY_OPTIONS:
        raise Invalid(f"The delivery option must be one of {', '.join(DELIVERY_OPTIONS)}.")
    c.delivery_option = option
    if option == "scheduled":
        if when is not None:
            c.scheduled_for = when
    else:
        c.scheduled_for = None


def set_tip(c: Cart, percent: int | None = None, custom_cents: int | None = None) -> None:
    """A preset tip (15/20/25 % of the subtotal) or, with percent None, a custom amount in cents."""
    if percent is not None:
        if percent not in logic.TIP_PRESETS:
            raise Invalid(f"The tip is one of {', '.join(map(str, logic.TIP_PRESETS))} percent, or a custom amount.")
        c.tip_percent = percent
        c.tip_cents = 0
        return
    c.tip_percent = None
    if custom_cents is not None:
        if not 0 <= custom_cents <= 99_999:
            raise Invalid("Enter a tip amount like 5 or 5.50.")
        c.tip_cents = custom_cents


def set_payment(c: Cart, payment_method_id: int) -> PaymentMethod:
    pm = db().get(PaymentMethod, payment_method_id)
    if pm is None:
        raise NotFound("No such payment method.")
    c.payment_method_id = pm.id
    return pm


def apply_promo(c: Cart, code: str) -> Promo:
    """Apply a code (case ignored), or Invalid with why not: unknown, expired, another store's, members
    only, delivery only, a minimum subtotal not met."""
    code = (code or "").strip().upper()
    if not code:
        raise Invalid("Enter a promo code.")
    s = db().get(Store, c.store_id)
    p = db().scalars(select(Promo).where(func.upper(Promo.code) == code)).first()
    err = logic.promo_error(p, s, user(), cart_subtotal(cart_items(c)), user().mode, now(),
                            store_name=store_name(p.store_id if p else None))
    if err:
        raise Invalid(err)
    c.promo_id = p.id
    return p


# ---------------------------------------------------------------------- placing the order
def check_placeable(c: Cart) -> dict:
    """The breakdown the order would store and its card, or Invalid with the checkout page's message.
    A promo that no longer applies is taken off the cart (the caller decides whether that sticks)."""
    u, t = user(), now()
    s = db().get(Store, c.store_id)
    a = current_address()
    if u.mode == "delivery" and a is None:
        raise Invalid("Add a delivery address.")
    refusal = logic.mode_refusal(s, u.mode)
    if refusal:
        raise Invalid(refusal)
    if c.delivery_option == "scheduled":
        if not slot_ok(s, c.scheduled_for):
            raise Invalid("Choose a delivery time.")
    elif not logic.is_open(s, t):
        raise Invalid(f"{s.name} is closed right now. Schedule your order for later.")
    tot, perr = breakdown(c, s, cart_subtotal(cart_items(c)))
    if perr:
        c.promo_id = None
        raise Invalid(perr + " The promo was removed.")
    return tot


def check_payment(c: Cart, tot: dict) -> PaymentMethod | None:
    pm = db().get(PaymentMethod, c.payment_method_id) if c.payment_method_id else None
    if tot["total_cents"] > 0:
        if pm is None:
            raise Invalid("Choose a payment method.")
        if logic.card_expired(pm, now()):
            raise Invalid(f"Your {logic.card_label(pm)} has expired. Choose another payment method.")
    return pm


def place(c: Cart, tot: dict, pm: PaymentMethod | None, dropoff: str | None = None,
          instructions: str | None = None) -> Order:
    """Turn the cart into an order with the breakdown `tot` (from check_placeable), its lines, the credits
    spent; the cart is deleted. Drop-off and instructions default to the address's own."""
    u, t = user(), now()
    s = db().get(Store, c.store_id)
    a = current_address()
    mode = u.mode
    promo = cart_promo(c)
    eta = logic.eta_minutes(s, a, mode)
    if mode == "delivery" and c.delivery_option == "express":
        eta = logic.express_eta(eta)
    dropoff = dropoff if dropoff in ("door", "hand") else (a.dropoff if a else "door")
    instructions = (instructions if instructions is not None else (a.instructions if a else "")) or ""
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
    for ci in cart_items(c):
        m = db().get(MenuItem, ci.item_id)
        db().add(OrderItem(order_id=order.id, item_id=ci.item_id, name=m.name if m else "", quantity=ci.quantity,
                           option_ids=list(ci.option_ids), options_text=ci.options_text, instructions=ci.instructions,
                           unit_price_cents=ci.unit_price_cents))
        db().delete(ci)
    if tot["credits_applied_cents"]:
        u.credits_cents -= tot["credits_applied_cents"]
    db().delete(c)
    db().flush()
    forget_cart()
    return order
