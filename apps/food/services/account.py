"""The account: delivery mode, addresses, profile, notifications, payment cards, Forkful Plus, gift cards,
saved stores."""

from __future__ import annotations

import datetime as dt
import re

from sqlalchemy import select

from apps._shared import db, now
from apps.food.models import Address, GiftCard, Neighborhood, PaymentMethod, SavedStore
from apps.food.services import FormInvalid, Invalid, NotFound
from apps.food.services.state import cart, user
from domain import food as logic

MODES = logic.MODES
NOTIFY = [
    ("notify_push_orders", "Order updates", "Push notifications"),
    ("notify_sms_orders", "Order updates", "Text messages"),
    ("notify_email_receipts", "Order updates", "Email receipts"),
    ("notify_push_promos", "Promotions and offers", "Push notifications"),
    ("notify_email_promos", "Promotions and offers", "Emails"),
    ("notify_sms_promos", "Promotions and offers", "Text messages"),
]
NOTIFY_KEYS = tuple(k for k, _, _ in NOTIFY)


def set_mode(mode: str) -> None:
    if mode not in MODES:
        raise Invalid("mode must be delivery or pickup")
    user().mode = mode


# ---------------------------------------------------------------------- saved stores
def toggle_saved(store_id: int, want: bool | None = None) -> bool:
    """Save or unsave a store (None: flip it); whether it is saved now."""
    row = db().scalars(select(SavedStore).where(SavedStore.store_id == store_id)).first()
    if row is not None and want is not True:
        db().delete(row)
        return False
    if row is None and want is not False:
        db().add(SavedStore(store_id=store_id, saved_at=now()))
        return True
    return row is not None


# ---------------------------------------------------------------------- addresses
def select_address(address_id: int) -> Address:
    a = db().get(Address, address_id)
    if a is None:
        raise NotFound("No such address")
    user().current_address_id = a.id
    return a


def save_address(fields: dict, a: Address | None = None) -> Address:
    """Add (a is None) or edit an address from `fields` (street, apt, city, zip, label, and optionally
    dropoff and instructions). A street needs a number; the ZIP must be one Forkful delivers to."""
    street = str(fields.get("street") or "").strip()[:120]
    zip_code = str(fields.get("zip") or "").strip()[:10]
    errors = {}
    if len(street) < 4 or not re.search(r"\d", street):
        errors["street"] = "Enter a street address with a number, e.g. 123 Main St."
    nb = db().scalars(select(Neighborhood).where(Neighborhood.zip == zip_code)).first()
    if not re.fullmatch(r"\d{5}", zip_code):
        errors["zip"] = "Enter a 5-digit ZIP code."
    elif nb is None:
        zips = ", ".join(n.zip for n in db().scalars(select(Neighborhood).order_by(Neighborhood.zip)))
        errors["zip"] = f"We don't deliver to {zip_code} yet. Delivery ZIP codes: {zips}."
    if errors:
        raise FormInvalid(errors)
    if a is None:
        a = Address(created_at=now(), x=0.0, y=0.0, neighborhood_id=nb.id, city="", state="", zip="", street="")
        db().add(a)
    a.street = street
    a.apt = str(fields.get("apt") or "").strip()[:40]
    a.city = str(fields.get("city") or "").strip()[:60] or "Bayview"
    a.state = "CA"
    a.zip = zip_code
    a.label = str(fields.get("label") or "").strip()[:40]
    a.neighborhood_id = nb.id
    # place it near its neighbourhood's centre, deterministically from the street
    h = sum(ord(c) for c in street)
    a.x = round(nb.x + ((h % 21) - 10) / 40, 2)
    a.y = round(nb.y + (((h // 21) % 21) - 10) / 40, 2)
    if fields.get("dropoff") in ("door", "hand"):
        a.dropoff = fields["dropoff"]
    if fields.get("instructions") is not None:
        a.instructions = str(fields["instructions"]).strip()[:300]
    db().flush()
    return a


def delete_address(address_id: int) -> None:
    a = db().get(Address, address_id)
    if a is None:
        raise NotFound("No such address")
    others = [x for x in db().scalars(select(Address).order_by(Address.id)) if x.id != address_id]
    if not others:
        raise Invalid("You need at least one address.")
    u = user()
    if u.current_address_id == address_id:
        u.current_address_id = others[0].id
    db().delete(a)


# ---------------------------------------------------------------------- profile and notifications
def save_profile(first: str, last: str, email: str, phone: str) -> None:
    """All four fields, checked together; the phone is stored as (415) 555-0123."""
    first, last, email, phone = first.strip(), last.strip(), email.strip(), phone.strip()
    errors = {}
    if not first:
        errors["first_name"] = "Enter your first name."
    if not last:
        errors["last_name"] = "Enter your last name."
    if not re.fullmatch(r"[^@\s]+@[^@\s]+\.[a-z]{2,}", email, re.I):
        errors["email"] = "Enter a valid email address."
    digits = re.sub(r"\D", "", phone)
    if len(digits) != 10:
        errors["phone"] = "Enter a 10-digit phone number."
    if errors:
        raise FormInvalid(errors)
    u = user()
    u.first_name, u.last_name, u.email = first, last, email
    u.phone = f"({digits[:3]}) {digits[3:6]}-{digits[6:]}"


def set_notification(key: str, on: bool) -> bool:
    if key not in NOTIFY_KEYS:
        raise Invalid("Unknown setting")
    setattr(user(), key, bool(on))
    return getattr(user(), key)


# ---------------------------------------------------------------------- payment cards
def add_card(number: str, exp: str, cvc: str, zip_code: str, name: str = "", make_default: bool = False,
             select_for_cart: bool = True) -> PaymentMethod:
    errors, card = logic.validate_card(number, exp, cvc, zip_code, now())
    if errors:
        raise FormInvalid(errors)
    u = user()
    pm = PaymentMethod(brand=card["brand"], last4=card["last4"], exp_month=card["exp_month"],
                       exp_year=card["exp_year"], name_on_card=(name.strip()[:80] or f"{u.first_name} {u.last_name}"),
                       zip=card["zip"], created_at=now())
    db().add(pm)
    db().flush()
    if make_default:
        u.default_payment_id = pm.id
    c = cart()
    if c is not None and select_for_cart:
        c.payment_method_id = pm.id
    return pm


def _card(card_id: int) -> PaymentMethod:
    pm = db().get(PaymentMethod, card_id)
    if pm is None:
        raise NotFound("No such card")
    return pm


def delete_card(card_id: int) -> None:
    pm = _card(card_id)
    u = user()
    if u.membership_status == "active" and u.membership_payment_id == pm.id:
        raise Invalid("This card pays for Forkful Plus. Choose another card for your membership first.")
    db().delete(pm)
    if u.default_payment_id == card_id:
        rest = db().scalars(select(PaymentMethod).where(PaymentMethod.id != card_id).order_by(PaymentMethod.id)).first()
        u.default_payment_id = rest.id if rest else None
    c = cart()
    if c is not None and c.payment_method_id == card_id:
        c.payment_method_id = u.default_payment_id


def set_default_card(card_id: int) -> None:
    pm = _card(card_id)
    if logic.card_expired(pm, now()):
        raise Invalid("This card has expired.")
    user().default_payment_id = pm.id


# ---------------------------------------------------------------------- Forkful Plus and gift cards
def subscribe_plus(plan: str | None, payment_method_id: int | None) -> None:
    u, t = user(), now()
    pm = db().get(PaymentMethod, payment_method_id) if payment_method_id else None
    if plan not in logic.PLUS_PRICES:
        raise Invalid("Choose a plan.")
    if pm is None:
        raise Invalid("Choose a payment method.")
    if logic.card_expired(pm, t):
        raise Invalid(f"Your {logic.card_label(pm)} has expired.")
    if u.membership_status == "active":
        raise Invalid("You're already a member.")
    u.membership_status = "active"
    u.membership_plan = plan
    u.membership_payment_id = pm.id
    days = 365 if plan == "annual" else 30
    u.membership_ends_on = (t + dt.timedelta(days=days)).date()


def cancel_plus() -> bool:
    """Cancel an active membership (benefits run to its end date); whether there was one to cancel."""
    u = user()
    if u.membership_status != "active":
        return False
    u.membership_status = "cancelled"
    return True


def redeem_gift_card(code: str) -> GiftCard:
    """Redeem a code (spaces, dashes and case ignored): its amount is added to the credits at once."""
    code = re.sub(r"[\s-]", "", code or "").upper()
    gc = None
    for row in db().scalars(select(GiftCard).order_by(GiftCard.id)):
        if row.code.replace("-", "").upper() == code:
            gc = row
    if not code:
        raise Invalid("Enter a gift card code.")
    if gc is None:
        raise Invalid("That gift card code isn't valid.")
    if gc.redeemed_at is not None:
        raise Invalid("This gift card has already been redeemed.")
    gc.redeemed_at = now()
    user().credits_cents += gc.amount_cents
    return gc
