"""Forkful (DoorDash-like) schema.

Conventions graders rely on:
- every table has an integer primary key `id`; money is integer cents (`*_cents`);
- chosen item options are stored as `option_ids`: a JSON list of `options.id`, sorted ascending,
  plus `options_text` (the option names joined with ", ", in group order) for display;
- there is one user (id 1) and at most one cart (the user's), whose checkout choices live on the
  cart row until "Place Order" turns it into an `orders` row (+ `order_items`) and deletes it;
- date-times are naive, read as the world's local time, relative to its frozen now.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import JSON, Boolean, Date, DateTime, Float, ForeignKey, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = "users"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    first_name: Mapped[str] = mapped_column(String(60))
    last_name: Mapped[str] = mapped_column(String(60))
    email: Mapped[str] = mapped_column(String(200))
    phone: Mapped[str] = mapped_column(String(40))
    mode: Mapped[str] = mapped_column(String(10), default="delivery")  # delivery | pickup
    current_address_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    default_payment_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    credits_cents: Mapped[int] = mapped_column(Integer, default=0)
    # Forkful Plus membership: none | active | cancelled (benefits until membership_ends_on)
    membership_status: Mapped[str] = mapped_column(String(12), default="none")
    membership_plan: Mapped[str | None] = mapped_column(String(10), nullable=True)  # monthly | annual
    membership_ends_on: Mapped[dt.date | None] = mapped_column(Date, nullable=True)
    membership_payment_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # Notification settings
    notify_push_orders: Mapped[bool] = mapped_column(Boolean, default=True)
    notify_sms_orders: Mapped[bool] = mapped_column(Boolean, default=True)
    notify_email_receipts: Mapped[bool] = mapped_column(Boolean, default=True)
    notify_push_promos: Mapped[bool] = mapped_column(Boolean, default=True)
    notify_email_promos: Mapped[bool] = mapped_column(Boolean, default=True)
    notify_sms_promos: Mapped[bool] = mapped_column(Boolean, default=False)


class Neighborhood(Base):
    __tablename__ = "neighborhoods"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(60))
    zip: Mapped[str] = mapped_column(String(10))
    x: Mapped[float] = mapped_column(Float)
    y: Mapped[float] = mapped_column(Float)


class Address(Base):
    __tablename__ = "addresses"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    label: Mapped[str] = mapped_column(String(40), default="")  # Home, Work, ...
    street: Mapped[str] = mapped_column(String(120))
    apt: Mapped[str] = mapped_column(String(40), default="")
    city: Mapped[str] = mapped_column(String(60))
    state: Mapped[str] = mapped_column(String(4))
    zip: Mapped[str] = mapped_column(String(10))
    neighborhood_id: Mapped[int] = mapped_column(Integer)
    x: Mapped[float] = mapped_column(Float)
    y: Mapped[float] = mapped_column(Float)
    dropoff: Mapped[str] = mapped_column(String(10), default="door")  # door | hand
    instructions: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[dt.datetime] = mapped_column(DateTime)


class Cuisine(Base):
    __tablename__ = "cuisines"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    slug: Mapped[str] = mapped_column(String(40), index=True)
    name: Mapped[str] = mapped_column(String(60))
    emoji: Mapped[str] = mapped_column(String(16))
    position: Mapped[int] = mapped_column(Integer)


class Store(Base):
    __tablename__ = "stores"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    cuisine_id: Mapped[int] = mapped_column(Integer, index=True)
    tags: Mapped[list[str]] = mapped_column(JSON, default=list)  # searchable: vegan, halal, ...
    description: Mapped[str] = mapped_column(String(200))
    price_level: Mapped[int] = mapped_column(Integer)  # 1..4 -> $..$$$$
    rating: Mapped[float] = mapped_column(Float)
    review_count: Mapped[int] = mapped_column(Integer)
    street: Mapped[str] = mapped_column(String(120))
    neighborhood_id: Mapped[int] = mapped_column(Integer)
    x: Mapped[float] = mapped_column(Float)
    y: Mapped[float] = mapped_column(Float)
    prep_minutes: Mapped[int] = mapped_column(Integer)
    delivery_fee_cents: Mapped[int] = mapped_column(Integer)
    plus_eligible: Mapped[bool] = mapped_column(Boolean, default=True)
    offers_pickup: Mapped[bool] = mapped_column(Boolean, default=True)
    opened_on: Mapped[dt.date] = mapped_column(Date)
    # hours[weekday] (0 = Monday) = [open_minute, close_minute] or null; close may pass midnight (>1440)
    hours: Mapped[list[Any]] = mapped_column(JSON)
    color: Mapped[str] = mapped_column(String(9))
    emoji: Mapped[str] = mapped_column(String(16))
    phone: Mapped[str] = mapped_column(String(40))


class MenuCategory(Base):
    __tablename__ = "menu_categories"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    store_id: Mapped[int] = mapped_column(Integer, index=True)
    name: Mapped[str] = mapped_column(String(60))
    position: Mapped[int] = mapped_column(Integer)


class MenuItem(Base):
    __tablename__ = "menu_items"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    store_id: Mapped[int] = mapped_column(Integer, index=True)
    category_id: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(80))
    description: Mapped[str] = mapped_column(String(200))
    price_cents: Mapped[int] = mapped_column(Integer)
    emoji: Mapped[str] = mapped_column(String(16))
    tags: Mapped[list[str]] = mapped_column(JSON, default=list)  # v, vg, gf, spicy, halal
    group_ids: Mapped[list[int]] = mapped_column(JSON, default=list)  # option_groups, in order
    popular: Mapped[bool] = mapped_column(Boolean, default=False)
    position: Mapped[int] = mapped_column(Integer)


class OptionGroup(Base):
    """A store's modifier group ("Size", "Add-ons"), shared by the items that list it."""

    __tablename__ = "option_groups"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    store_id: Mapped[int] = mapped_column(Integer, index=True)
    name: Mapped[str] = mapped_column(String(60))
    min_select: Mapped[int] = mapped_column(Integer)  # >= 1: required
    max_select: Mapped[int] = mapped_column(Integer)


class Option(Base):
    __tablename__ = "options"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    group_id: Mapped[int] = mapped_column(Integer, index=True)
    name: Mapped[str] = mapped_column(String(60))
    price_cents: Mapped[int] = mapped_column(Integer, default=0)
    position: Mapped[int] = mapped_column(Integer)


class Review(Base):
    __tablename__ = "reviews"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    store_id: Mapped[int] = mapped_column(Integer, index=True)
    author: Mapped[str] = mapped_column(String(60))
    rating: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(String(300))
    created_at: Mapped[dt.datetime] = mapped_column(DateTime)
    order_id: Mapped[int | None] = mapped_column(Integer, nullable=True)  # the user's own reviews


class Promo(Base):
    __tablename__ = "promos"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(30), index=True)
    title: Mapped[str] = mapped_column(String(120))
    kind: Mapped[str] = mapped_column(String(12))  # percent | amount | delivery
    value: Mapped[int] = mapped_column(Integer)  # percent (20) or cents (500)
    max_discount_cents: Mapped[int | None] = mapped_column(Integer, nullable=True)
    min_subtotal_cents: Mapped[int] = mapped_column(Integer, default=0)
    store_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    members_only: Mapped[bool] = mapped_column(Boolean, default=False)
    expires_at: Mapped[dt.datetime] = mapped_column(DateTime)
    featured: Mapped[bool] = mapped_column(Boolean, default=False)  # listed on Offers


class PaymentMethod(Base):
    __tablename__ = "payment_methods"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    brand: Mapped[str] = mapped_column(String(20))  # Visa | Mastercard | Amex | Discover
    last4: Mapped[str] = mapped_column(String(4))
    exp_month: Mapped[int] = mapped_column(Integer)
    exp_year: Mapped[int] = mapped_column(Integer)
    name_on_card: Mapped[str] = mapped_column(String(80))
    zip: Mapped[str] = mapped_column(String(10))
    created_at: Mapped[dt.datetime] = mapped_column(DateTime)


class GiftCard(Base):
    __tablename__ = "gift_cards"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(30))
    amount_cents: Mapped[int] = mapped_column(Integer)
    redeemed_at: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)


class SavedStore(Base):
    __tablename__ = "saved_stores"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    store_id: Mapped[int] = mapped_column(Integer, index=True)
    saved_at: Mapped[dt.datetime] = mapped_column(DateTime)


class Cart(Base):
    """The user's one open cart (0 or 1 row) and the choices made on the checkout page."""

    __tablename__ = "carts"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    store_id: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime)
    delivery_option: Mapped[str] = mapped_column(String(12), default="standard")  # standard|express|scheduled
    scheduled_for: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)
    tip_percent: Mapped[int | None] = mapped_column(Integer, nullable=True, default=15)  # null: custom
    tip_cents: Mapped[int] = mapped_column(Integer, default=0)  # the custom tip
    promo_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    payment_method_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    use_credits: Mapped[bool] = mapped_column(Boolean, default=True)
    group_order: Mapped[bool] = mapped_column(Boolean, default=False)
    group_limit_cents: Mapped[int | None] = mapped_column(Integer, nullable=True)


class CartItem(Base):
    __tablename__ = "cart_items"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    cart_id: Mapped[int] = mapped_column(Integer, index=True)
    item_id: Mapped[int] = mapped_column(Integer)
    quantity: Mapped[int] = mapped_column(Integer)
    option_ids: Mapped[list[int]] = mapped_column(JSON, default=list)
    options_text: Mapped[str] = mapped_column(String(400), default="")
    instructions: Mapped[str] = mapped_column(String(300), default="")
    unit_price_cents: Mapped[int] = mapped_column(Integer)


class Order(Base):
    __tablename__ = "orders"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    store_id: Mapped[int] = mapped_column(Integer, index=True)
    status: Mapped[str] = mapped_column(String(20))  # placed|preparing|on_the_way|ready|delivered|picked_up|cancelled|scheduled
    mode: Mapped[str] = mapped_column(String(10))  # delivery | pickup
    placed_at: Mapped[dt.datetime] = mapped_column(DateTime)
    completed_at: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)
    delivery_option: Mapped[str] = mapped_column(String(12), default="standard")
    scheduled_for: Mapped[dt.datetime | None] = mapped_column(DateTime, nullable=True)
    address_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    address_text: Mapped[str] = mapped_column(String(200), default="")
    dropoff: Mapped[str] = mapped_column(String(10), default="door")
    instructions: Mapped[str] = mapped_column(Text, default="")
    payment_method_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    subtotal_cents: Mapped[int] = mapped_column(Integer)
    delivery_fee_cents: Mapped[int] = mapped_column(Integer, default=0)
    service_fee_cents: Mapped[int] = mapped_column(Integer, default=0)
    small_order_fee_cents: Mapped[int] = mapped_column(Integer, default=0)
    express_fee_cents: Mapped[int] = mapped_column(Integer, default=0)
    tax_cents: Mapped[int] = mapped_column(Integer, default=0)
    tip_percent: Mapped[int | None] = mapped_column(Integer, nullable=True)
    tip_cents: Mapped[int] = mapped_column(Integer, default=0)
    promo_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    discount_cents: Mapped[int] = mapped_column(Integer, default=0)
    credits_applied_cents: Mapped[int] = mapped_column(Integer, default=0)
    total_cents: Mapped[int] = mapped_column(Integer)
    eta_minutes: Mapped[int] = mapped_column(Integer, default=30)
    rating: Mapped[int | None] = mapped_column(Integer, nullable=True)
    cancel_reason: Mapped[str] = mapped_column(String(120), default="")
    # the Dasher's rating (delivered orders, once): up | down, the chosen reasons joined with ", " in
    # logic.DASHER_REASONS' order, an optional comment
    dasher_rating: Mapped[str | None] = mapped_column(String(4), nullable=True)
    dasher_reasons: Mapped[str] = mapped_column(String(200), default="")
    dasher_comment: Mapped[str] = mapped_column(String(300), default="")


class OrderItem(Base):
    __tablename__ = "order_items"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    order_id: Mapped[int] = mapped_column(Integer, index=True)
    item_id: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(80))
    quantity: Mapped[int] = mapped_column(Integer)
    option_ids: Mapped[list[int]] = mapped_column(JSON, default=list)
    options_text: Mapped[str] = mapped_column(String(400), default="")
    instructions: Mapped[str] = mapped_column(String(300), default="")
    unit_price_cents: Mapped[int] = mapped_column(Integer)


class SupportRequest(Base):
    """"Get help" on an order: one row per affected order item (once per line), for `quantity` of its units
    (1 to the line's quantity); `amount_cents` is logic.refund_cents of that part."""

    __tablename__ = "support_requests"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    order_id: Mapped[int] = mapped_column(Integer, index=True)
    order_item_id: Mapped[int] = mapped_column(Integer)
    quantity: Mapped[int] = mapped_column(Integer, default=1)
    issue: Mapped[str] = mapped_column(String(20))  # missing | wrong | quality
    reason: Mapped[str] = mapped_column(String(120), default="")
    resolution: Mapped[str] = mapped_column(String(10))  # refund | credit
    amount_cents: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime)
