"""The food clone's tools: its everyday operations as typed function calls (see apps/_shared/tools.py).

Every tool body calls the service layer (apps/food/services/) the UI's views call, so a tool's checks and
side effects are exactly the UI's: no tool writes a column a user cannot change through a page. Reads
return ids (store_id, item_id, option_id, cart_item_id, order_id, order_item_id, card_id, address_id)
for the next call; lists are capped and give their total.
"""

import datetime as dt
from typing import Annotated, Literal

from pydantic import Field

from apps._shared import db
from apps._shared.tools import ToolError, ToolSet
from apps.food.services import Conflict, NotFound, account, catalog, checkout, orders
from apps.food.services import cart as cart_service
from apps.food.services.state import cart, user
from domain import food as logic

TOOLS = ToolSet("food")

ID_MAX = 2**53  # ids are SQLite integers; anything larger is no id of ours


def _id(what: str):
    return Annotated[int, Field(ge=1, le=ID_MAX, description=what)]


StoreId = _id("the store's id (from search, list_stores, list_orders or get_account's saved_stores)")
ItemId = _id("the menu item's id (from get_store's menu or search's dishes)")
OrderId = _id("the order's id (from list_orders), the number shown as 'Order #N'")
CardId = _id("the payment card's id (from get_account's payment_methods)")
AddressId = _id("the address's id (from get_account's addresses)")
CartItemId = _id("the cart line's id (cart_item_id, from get_cart)")
Limit = Annotated[int, Field(ge=1, le=50, description="how many to return (at most 50)")]
Sort = Literal["recommended", "rating", "distance", "eta", "fee"]
Text = Annotated[str, Field(max_length=300)]


def _filters(min_rating_45: bool, under_30_min: bool, price_levels: list[int], plus_only: bool, deals_only: bool,
             pickup_only: bool, sort: str) -> dict:
    return {"min_rating_45": min_rating_45, "under_30_min": under_30_min, "price_levels": price_levels,
            "plus": plus_only, "deals": deals_only, "pickup": pickup_only, "sort": sort}


PriceLevels = Annotated[list[Literal[1, 2, 3, 4]], Field(max_length=4, description="price levels to keep: 1 = $ ... 4 = $$$$ (the Price chip)")]
R45 = Annotated[bool, Field(description="only stores rated 4.5 or more (the 'Over 4.5' chip)")]
Fast = Annotated[bool, Field(description="only stores delivering in under 30 minutes (the 'Under 30 min' chip)")]
PlusOnly = Annotated[bool, Field(description="only Forkful Plus stores")]
DealsOnly = Annotated[bool, Field(description="only stores with a deal")]
PickupOnly = Annotated[bool, Field(description="only stores offering pickup")]
SortArg = Annotated[Sort, Field(description="order: recommended, rating, distance, eta (delivery time) or fee (delivery fee); closed stores last")]


# ---------------------------------------------------------------------- browse (read-only)
@TOOLS.tool
def search(query: Annotated[str, Field(min_length=1, max_length=200, description="what a user types in 'Search Forkful': a store, dish, cuisine or craving ('ramen', 'pizza near me')")],
           min_rating_45: R45 = False, under_30_min: Fast = False, price_levels: PriceLevels = [],
           plus_only: PlusOnly = False, deals_only: DealsOnly = False, pickup_only: PickupOnly = False,
           sort: SortArg = "recommended", limit: Limit = 10) -> dict:
    """Search stores and dishes like the search page. Returns {total_stores, stores: [{store_id, name, cuisine, rating, distance_mi, eta_minutes, delivery_fee, status, deal?, matched_dish?}], total_dishes, dishes: [{item_id, name, price, store_id, store}]}. 'near me' in the query sorts by distance."""
    return catalog.search(query, limit, **_filters(min_rating_45, under_30_min, price_levels, plus_only, deals_only, pickup_only, sort))


@TOOLS.tool
def list_stores(cuisine: Annotated[str | None, Field(max_length=60, description="a cuisine's slug or name (list_cuisines); none: every store, as on the home page")] = None,
                min_rating_45: R45 = False, under_30_min: Fast = False, price_levels: PriceLevels = [],
                plus_only: PlusOnly = False, deals_only: DealsOnly = False, pickup_only: PickupOnly = False,
                sort: SortArg = "recommended", limit: Limit = 20,
                offset: Annotated[int, Field(ge=0, le=1000, description="skip this many (paging)")] = 0) -> dict:
    """List stores as the home page or a cuisine page does, with its filter chips and sorts. Returns {total, offset, stores: [{store_id, name, cuisine, rating, review_count, price_level, distance_mi, eta_minutes, delivery_fee, status, ...}]}."""
    return catalog.list_stores(cuisine, limit, offset, **_filters(min_rating_45, under_30_min, price_levels, plus_only, deals_only, pickup_only, sort))


@TOOLS.tool
def list_cuisines() -> list:
    """The cuisines of the home page's carousel: [{slug, name}] (a slug is list_stores' cuisine)."""
    return catalog.list_cuisines()


@TOOLS.tool
def get_store(store_id: StoreId) -> dict:
    """A store's page: rating, delivery fee (delivery_fee text and delivery_fee_cents), status and today's closes_at, weekly hours, ETAs, deals, the menu by category ([{category, items: [{item_id, name, price, has_options}]}]) and recent reviews."""
    return catalog.get_store(store_id)


@TOOLS.tool
def get_menu_item(item_id: ItemId) -> dict:
    """An item's dialog: price and its option groups ([{group, required, min_select, max_select, options: [{option_id, name, price_delta}]}]); pass the chosen option_ids to add_to_cart."""
    return catalog.get_item(item_id)


@TOOLS.tool
def list_offers() -> dict:
    """The Offers page: the promo codes still valid ({promos: [{code, title, summary, min_subtotal, members_only, store_id, store}]})."""
    return catalog.list_offers()


# ---------------------------------------------------------------------- cart
@TOOLS.tool
def get_cart() -> dict:
    """The cart: {store_id, store, items: [{cart_item_id, item_id, name, quantity, options, instructions, unit_price}], count, subtotal, group_order}."""
    return catalog.get_cart()


@TOOLS.tool
def add_to_cart(item_id: ItemId,
                quantity: Annotated[int, Field(ge=1, le=cart_service.MAX_QTY, description="how many")] = 1,
                option_ids: Annotated[list[Annotated[int, Field(ge=1, le=ID_MAX)]], Field(max_length=30, description="the chosen options' ids (get_menu_item); every required group needs its choice")] = [],
                instructions: Annotated[str, Field(max_length=cart_service.NOTE_MAX, description="special instructions for the kitchen")] = "",
                replace_cart: Annotated[bool, Field(description="the cart holds another store's items: empty it and start a new cart (the 'New cart' answer)")] = False) -> dict:
    """Add an item with its options, quantity and note to the cart (one store per cart; the same item, options and note add up on one line). Returns the cart (get_cart)."""
    try:
        cart_service.add_item(item_id, quantity, option_ids, instructions, replace=replace_cart)
    except NotFound as e:
        raise ToolError(f"{e} No menu item {item_id}: get_store lists a store's item ids.") from None
    except Conflict as e:
        raise ToolError(f"{e} Call again with replace_cart=true to empty the cart and start a new one.") from None
    return catalog.get_cart()


@TOOLS.tool
def update_cart_item(cart_item_id: CartItemId,
                     quantity: Annotated[int, Field(ge=0, le=cart_service.MAX_QTY, description="the new quantity; 0 removes the line")]) -> dict:
    """Change a cart line's quantity (0 removes it; an emptied cart goes away unless it is a group order). Returns the cart."""
    _set_quantity(cart_item_id, quantity)
    return catalog.get_cart()


@TOOLS.tool
def edit_cart_item(cart_item_id: CartItemId,
                   option_ids: Annotated[list[Annotated[int, Field(ge=1, le=ID_MAX)]] | None, Field(max_length=30, description="the line's new options, all of them (get_menu_item lists the item's option ids); omitted: keep the line's")] = None,
                   instructions: Annotated[str | None, Field(max_length=cart_service.NOTE_MAX, description="the new special instructions ('' clears the note); omitted: keep")] = None,
                   quantity: Annotated[int | None, Field(ge=1, le=cart_service.MAX_QTY, description="the new quantity; omitted: keep")] = None) -> dict:
    """Change a cart line's options, note or quantity (the drawer's line opened: its option dialog's Update cart). The options are checked as when adding and the line repriced; a line that comes to match another line merges into it. Returns the cart."""
    try:
        cart_service.edit_line(cart_item_id, option_ids, instructions, quantity)
    except NotFound as e:
        raise ToolError(f"{e} No cart line {cart_item_id}: get_cart lists the cart_item_id of each line.") from None
    return catalog.get_cart()


@TOOLS.tool
def remove_cart_item(cart_item_id: CartItemId) -> dict:
    """Remove a line from the cart. Returns the cart."""
    _set_quantity(cart_item_id, 0)
    return catalog.get_cart()


def _set_quantity(cart_item_id: int, quantity: int) -> None:
    try:
        cart_service.set_quantity(cart_item_id, quantity)
    except NotFound as e:
        raise ToolError(f"{e} No cart line {cart_item_id}: get_cart lists the cart_item_id of each line.") from None


@TOOLS.tool
def clear_cart() -> dict:
    """Empty the cart (the drawer's 'Clear cart')."""
    cart_service.clear()
    return catalog.get_cart()


@TOOLS.tool
def start_group_order(store_id: StoreId,
                      limit_cents: Annotated[Literal[1500, 2500, 5000] | None, Field(description="spending limit per person in cents ($15, $25 or $50); none: no limit")] = None,
                      replace_cart: Annotated[bool, Field(description="the cart holds another store's items: empty it first")] = False) -> dict:
    """Start a group order at a store (the cart becomes the group's cart). Returns the cart with its share link."""
    try:
        cart_service.start_group_order(store_id, limit_cents, replace=replace_cart)
    except Conflict as e:
        raise ToolError(f"{e} Call again with replace_cart=true to empty the cart first.") from None
    return catalog.get_cart()


@TOOLS.tool
def end_group_order() -> dict:
    """End the group order (the cart stays, as your own; an empty one goes)."""
    cart_service.end_group_order()
    return catalog.get_cart()


# ---------------------------------------------------------------------- checkout
@TOOLS.tool
def get_checkout() -> dict:
    """The checkout page: mode, address, delivery option and time, tip, card, credits, promo and the totals the order would store ({subtotal, delivery_fee, service_fee, ..., total})."""
    return catalog.get_checkout()


@TOOLS.tool
def list_delivery_times(store_id: Annotated[int | None, Field(ge=1, le=ID_MAX, description="a store's id; none: the cart's store")] = None) -> dict:
    """The Schedule dialog's 30-minute windows, today and the next 3 days: {days: [{day, date, windows: [{scheduled_for, label}]}]}; pass a window's scheduled_for to set_checkout_options."""
    return catalog.delivery_times(store_id)


@TOOLS.tool
def set_checkout_options(
    mode: Annotated[Literal["delivery", "pickup"] | None, Field(description="delivery or pickup (also the header's mode)")] = None,
    delivery_option: Annotated[Literal["standard", "express", "scheduled"] | None, Field(description="standard, express (faster, a fee) or scheduled (needs scheduled_for)")] = None,
    scheduled_for: Annotated[str | None, Field(max_length=40, description="a window's start, local time like 2026-03-14T19:00 (list_delivery_times)")] = None,
    tip_percent: Annotated[Literal[15, 20, 25] | None, Field(description="courier tip as a percent of the subtotal")] = None,
    tip_amount_cents: Annotated[int | None, Field(ge=0, le=99_999, description="a custom courier tip in cents (instead of tip_percent)")] = None,
    payment_method_id: Annotated[int | None, Field(ge=1, le=ID_MAX, description="the card to pay with (get_account's payment_methods)")] = None,
    use_credits: Annotated[bool | None, Field(description="apply Forkful credits")] = None,
) -> dict:
    """Make checkout choices for the cart, like the checkout page's controls; only the given ones change. Returns the checkout (get_checkout)."""
    c = checkout.open_cart()
    given = [mode, delivery_option, scheduled_for, tip_percent, tip_amount_cents, payment_method_id, use_credits]
    if all(v is None for v in given):
        raise ToolError("set_checkout_options: give at least one choice to change")
    if tip_percent is not None and tip_amount_cents is not None:
        raise ToolError("set_checkout_options: give tip_percent or tip_amount_cents, not both")
    if scheduled_for is not None and delivery_option not in (None, "scheduled"):
        raise ToolError("set_checkout_options: scheduled_for goes with delivery_option 'scheduled'")
    if mode is not None:
        account.set_mode(mode)
    if delivery_option == "scheduled" or scheduled_for is not None:
        when = None
        if scheduled_for is not None:
            try:
                when = dt.datetime.fromisoformat(scheduled_for)
            except ValueError:
                raise ToolError(f"scheduled_for {scheduled_for!r} is not a local date-time like 2026-03-14T19:00") from None
        s = db().get(checkout.Store, c.store_id)
        if when is None or when.tzinfo is not None or not checkout.slot_ok(s, when):
            raise ToolError("Choose a delivery time: scheduled_for must be the start of one of the store's windows "
                            "(list_delivery_times), in local time.")
        checkout.set_delivery_option(c, "scheduled", when)
    elif delivery_option is not None:
        checkout.set_delivery_option(c, delivery_option)
    if tip_percent is not None:
        checkout.set_tip(c, tip_percent)
    elif tip_amount_cents is not None:
        checkout.set_tip(c, None, tip_amount_cents)
    if payment_method_id is not None:
        checkout.set_payment(c, payment_method_id)
    if use_credits is not None:
        c.use_credits = use_credits
    return catalog.get_checkout()


@TOOLS.tool
def apply_promo(code: Annotated[str, Field(min_length=1, max_length=30, description="the promo code (list_offers, or one you were given)")]) -> dict:
    """Apply a promo code to the cart; an unknown, expired, other store's, members-only or under-minimum code is refused with the reason. Returns the checkout."""
    checkout.apply_promo(checkout.open_cart(), code)
    return catalog.get_checkout()


@TOOLS.tool
def remove_promo() -> dict:
    """Take the promo code off the cart. Returns the checkout."""
    checkout.open_cart().promo_id = None
    return catalog.get_checkout()


@TOOLS.tool
def place_order(dropoff: Annotated[Literal["door", "hand"] | None, Field(description="'door' (leave it at my door) or 'hand' (hand it to me); none: the address's own")] = None,
                instructions: Annotated[str | None, Field(max_length=300, description="drop-off instructions for the courier; none: the address's own")] = None) -> dict:
    """Place the order with the cart and its checkout choices (the totals get_checkout shows). Refused with the reason when the store is closed and not scheduled, pickup is not offered, no valid card, or the promo no longer applies. Returns the new order (get_order)."""
    c = checkout.open_cart()
    tot = checkout.check_placeable(c)
    pm = checkout.check_payment(c, tot)
    o = checkout.place(c, tot, pm, dropoff, instructions)
    return catalog.get_order(o.id)


# ---------------------------------------------------------------------- orders
@TOOLS.tool
def list_orders(status: Annotated[Literal["all", "active", "past"], Field(description="active (in progress or scheduled), past (completed or cancelled) or all")] = "all",
                store_id: Annotated[int | None, Field(ge=1, le=ID_MAX, description="only this store's orders")] = None,
                limit: Limit = 20) -> dict:
    """Your orders, newest first: {total, orders: [{order_id, store_id, store, status, placed_at, items, total, rated}]}."""
    return catalog.list_orders(status, store_id, limit)


@TOOLS.tool
def get_order(order_id: OrderId) -> dict:
    """An order's page and receipt: status, lines ([{order_item_id, name, quantity, options, unit_price}]), every amount (subtotal, fees, tax, tip, discount, credits, total), and whether it can be cancelled, rated or get help."""
    return catalog.get_order(order_id)


@TOOLS.tool
def cancel_order(order_id: OrderId,
                 reason: Annotated[Literal["Ordered by mistake", "Wrong address", "It's taking too long", "Changed my mind"] | None, Field(description="why (optional)")] = None) -> dict:
    """Cancel an order that is placed or scheduled (not yet being prepared); credits it used come back. Returns the order."""
    orders.cancel(orders.get(order_id), reason or "")
    return catalog.get_order(order_id)


@TOOLS.tool
def rate_order(order_id: OrderId, stars: Annotated[int, Field(ge=1, le=5, description="1 to 5 stars")],
               review: Annotated[str, Field(max_length=orders.REVIEW_MAX, description="the review text (optional)")] = "") -> dict:
    """Rate a completed order once, with an optional review (it appears on the store's page). Returns the order."""
    orders.rate(orders.get(order_id), stars, review)
    return catalog.get_order(order_id)


REASONS = "; ".join(f"{k}: {', '.join(v[1])}" for k, v in orders.ISSUES.items())


@TOOLS.tool
def request_help(order_id: OrderId,
                 issue: Annotated[Literal["missing", "wrong", "quality"], Field(description="missing items, wrong items or a food quality issue")],
                 order_item_ids: Annotated[list[Annotated[int, Field(ge=1, le=ID_MAX)]], Field(min_length=1, max_length=50, description="the affected lines' order_item_id (get_order)")],
                 reason: Annotated[str, Field(max_length=60, description=f"the reason, one of the issue's: {REASONS}")],
                 resolution: Annotated[Literal["refund", "credit"], Field(description="refund to the order's card, or Forkful credits (added at once)")],
                 quantities: Annotated[dict[Annotated[int, Field(ge=1, le=ID_MAX)], int] | None, Field(max_length=50, description="how many of a line were affected, by order_item_id (e.g. {\"12\": 1} for 1 of a line of 3); a line not named: all of it")] = None) -> dict:
    """Get help with a completed order: report lines (or part of a line's quantity) as missing, wrong or poor quality, and get that part's price back to the card or as credits. A line can be reported once. Returns the order with its help requests."""
    o = orders.get(order_id)
    stray = sorted(set(quantities or {}) - set(order_item_ids))
    if stray:
        raise ToolError(f"quantities names line {stray[0]}, which is not in order_item_ids.")
    orders.request_help(o, issue, orders.choose_lines(o, order_item_ids), reason, resolution, quantities)
    return catalog.get_order(order_id)


@TOOLS.tool
def change_tip(order_id: OrderId,
               tip_percent: Annotated[Literal[15, 20, 25] | None, Field(description="the new tip as a percent of the subtotal")] = None,
               tip_amount_cents: Annotated[int | None, Field(ge=0, le=99_999, description="a custom tip in cents (instead of tip_percent)")] = None) -> dict:
    """Change the courier tip of a delivered order (for 7 days after delivery); the order's total moves by the difference. Returns the order."""
    if (tip_percent is None) == (tip_amount_cents is None):
        raise ToolError("change_tip: give tip_percent or tip_amount_cents (one of them)")
    orders.change_tip(orders.get(order_id), tip_percent, tip_amount_cents)
    return catalog.get_order(order_id)


DASHER = "; ".join(f"{k}: {', '.join(v)}" for k, v in logic.DASHER_REASONS.items())


@TOOLS.tool
def rate_dasher(order_id: OrderId,
                thumb: Annotated[Literal["up", "down"], Field(description="thumbs up or thumbs down")],
                reasons: Annotated[list[Annotated[str, Field(max_length=60)]], Field(max_length=8, description=f"optional reasons from the thumb's list: {DASHER}")] = [],  # noqa: B006 - pydantic copies it
                comment: Annotated[str, Field(max_length=logic.DASHER_COMMENT_MAX, description="an optional comment for your Dasher")] = "") -> dict:
    """Rate the Dasher of a delivered order (once): thumbs up or down, with optional reasons and a comment. Returns the order."""
    orders.rate_dasher(orders.get(order_id), thumb, reasons, comment)
    return catalog.get_order(order_id)


@TOOLS.tool
def reorder(order_id: OrderId,
            replace_cart: Annotated[bool, Field(description="the cart holds another store's items: empty it first")] = False) -> dict:
    """Put an order's lines back in the cart (today's prices). Returns the cart."""
    try:
        orders.reorder(orders.get(order_id), replace=replace_cart)
    except Conflict as e:
        raise ToolError(f"{e} Call again with replace_cart=true to empty the cart first.") from None
    return catalog.get_cart()


# ---------------------------------------------------------------------- account
@TOOLS.tool
def get_account() -> dict:
    """Your account: profile, delivery mode, addresses (current_address_id), payment_methods (card_id, default, expired), credits, redeemed gift cards, Forkful Plus membership, notification settings, saved stores."""
    return catalog.get_account()


@TOOLS.tool
def set_delivery_mode(mode: Annotated[Literal["delivery", "pickup"], Field(description="delivery or pickup")]) -> dict:
    """Switch between delivery and pickup (the header's toggle)."""
    account.set_mode(mode)
    return {"mode": user().mode}


@TOOLS.tool
def select_address(address_id: AddressId) -> dict:
    """Deliver to one of your saved addresses (it becomes the current address)."""
    a = account.select_address(address_id)
    return {"current_address_id": a.id, "address": logic.address_full(a)}


@TOOLS.tool
def add_address(street: Annotated[str, Field(max_length=120, description="street with a number, e.g. 250 King St")],
                zip: Annotated[str, Field(max_length=10, description="5-digit ZIP code (one Forkful delivers to)")],
                apt: Annotated[str, Field(max_length=40, description="apt, suite or floor")] = "",
                city: Annotated[str, Field(max_length=60, description="city (Bayview if empty)")] = "",
                label: Annotated[str, Field(max_length=40, description="a label such as Home or Gym")] = "",
                dropoff: Annotated[Literal["door", "hand"], Field(description="'door' (leave it at my door) or 'hand' (hand it to me)")] = "door",
                instructions: Annotated[str, Field(max_length=300, description="drop-off instructions")] = "") -> dict:
    """Add a delivery address and make it your current address (as the address dialog does). Returns its address_id."""
    a = account.save_address({"street": street, "zip": zip, "apt": apt, "city": city, "label": label,
                              "dropoff": dropoff, "instructions": instructions})
    user().current_address_id = a.id
    return {"address_id": a.id, "address": logic.address_full(a), "current": True}


@TOOLS.tool
def save_store(store_id: StoreId) -> dict:
    """Save a store (the heart) to your saved stores."""
    s = catalog.get_store(store_id)
    account.toggle_saved(store_id, True)
    return {"store_id": store_id, "name": s["name"], "saved": True}


@TOOLS.tool
def unsave_store(store_id: StoreId) -> dict:
    """Remove a store from your saved stores."""
    s = catalog.get_store(store_id)
    account.toggle_saved(store_id, False)
    return {"store_id": store_id, "name": s["name"], "saved": False}


@TOOLS.tool
def update_profile(first_name: Annotated[str | None, Field(max_length=60, description="first name")] = None,
                   last_name: Annotated[str | None, Field(max_length=60, description="last name")] = None,
                   email: Annotated[str | None, Field(max_length=200, description="email address")] = None,
                   phone: Annotated[str | None, Field(max_length=40, description="10 digits, any format; stored as (415) 555-0123")] = None) -> dict:
    """Change your profile; only the given fields change (all are checked, as the profile form does). Returns the profile."""
    u = user()
    if all(v is None for v in (first_name, last_name, email, phone)):
        raise ToolError("update_profile: give at least one field to change")
    account.save_profile(u.first_name if first_name is None else first_name, u.last_name if last_name is None else last_name,
                         u.email if email is None else email, u.phone if phone is None else phone)
    return {"first_name": u.first_name, "last_name": u.last_name, "email": u.email, "phone": u.phone}


@TOOLS.tool
def set_notification(setting: Annotated[Literal[account.NOTIFY_KEYS], Field(description="; ".join(f"{k} = {h}: {c}" for k, h, c in account.NOTIFY))],
                     on: Annotated[bool, Field(description="on or off")]) -> dict:
    """Turn one notification setting on or off (get_account lists them)."""
    return {"setting": setting, "on": account.set_notification(setting, on)}


@TOOLS.tool
def add_card(number: Annotated[str, Field(max_length=40, description="card number (spaces allowed)")],
             expiration: Annotated[str, Field(max_length=10, description="MM/YY")],
             cvc: Annotated[str, Field(max_length=6, description="the security code (3 digits, 4 for Amex)")],
             billing_zip: Annotated[str, Field(max_length=10, description="the billing ZIP code (5 digits)")],
             make_default: Annotated[bool, Field(description="make it your default card")] = False) -> dict:
    """Add a payment card (checked like the Add card dialog: number, expiry, CVC, ZIP). Returns its card_id."""
    pm = account.add_card(number, expiration, cvc, billing_zip, make_default=make_default, select_for_cart=cart() is not None)
    return {"card_id": pm.id, "label": logic.card_label(pm), "default": user().default_payment_id == pm.id}


@TOOLS.tool
def set_default_card(card_id: CardId) -> dict:
    """Make a card (not expired) your default payment method."""
    account.set_default_card(card_id)
    return {"default_card_id": card_id}


@TOOLS.tool
def remove_card(card_id: CardId) -> dict:
    """Remove a payment card (not the one paying for Forkful Plus)."""
    account.delete_card(card_id)
    return {"removed_card_id": card_id, "default_card_id": user().default_payment_id}


@TOOLS.tool
def subscribe_plus(plan: Annotated[Literal["monthly", "annual"], Field(description="monthly ($9.99) or annual ($96.00)")],
                   payment_method_id: CardId) -> dict:
    """Join Forkful Plus on a plan, paying with a card. Returns the membership."""
    account.subscribe_plus(plan, payment_method_id)
    return catalog.get_account()["membership"]


@TOOLS.tool
def cancel_plus() -> dict:
    """Cancel your Forkful Plus membership (benefits last until its end date)."""
    if not account.cancel_plus():
        raise ToolError("You don't have an active Forkful Plus membership.")
    return catalog.get_account()["membership"]


@TOOLS.tool
def redeem_gift_card(code: Annotated[str, Field(min_length=1, max_length=40, description="the gift card code (dashes, spaces and case ignored)")]) -> dict:
    """Redeem a gift card: its amount is added to your Forkful credits. Returns the new credit balance."""
    gc = account.redeem_gift_card(code)
    return {"added": logic.money(gc.amount_cents), "credits": logic.money(user().credits_cents)}
