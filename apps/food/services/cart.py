"""The cart: one cart at one store (adding from another store asks to start a new cart), lines with their
options, quantities, notes; group orders."""

from __future__ import annotations

import hashlib
from typing import Iterable

from sqlalchemy import select

from apps._shared import db, now
from apps.food.models import Cart, CartItem, MenuItem, Option, OptionGroup, Store
from apps.food.services import Conflict, Invalid, NotFound
from apps.food.services.state import cart, cart_items, forget_cart, user
from domain import food as logic

MAX_QTY = 20
NOTE_MAX = 300  # the Special instructions box's maxlength


def validate_options(item: MenuItem, option_ids: list[int]) -> tuple[list[Option], str | None]:
    """The chosen options in display order (group, then position), or why the choice is not allowed
    (unknown option, not this item's, a required group unanswered, too many in a group)."""
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


def drop_cart(c: Cart) -> None:
    for ci in cart_items(c):
        db().delete(ci)
    db().delete(c)
    db().flush()
    forget_cart()


def cart_for_store(store_id: int, replace: bool, new_store: str) -> Cart | None:
    """The cart to use for `store_id`: the current one if it is that store's (or empty); another store's
    cart with items is a Conflict unless `replace` (then it is emptied and deleted). None: no cart yet."""
    c = cart()
    if c is not None and c.store_id != store_id:
        if cart_items(c) and not replace:
            cur = db().get(Store, c.store_id)
            name = cur.name if cur else ""
            raise Conflict(f"Your cart has items from {name}. Start a new cart to add items from {new_store}.",
                           name, new_store)
        drop_cart(c)
        c = None
    return c


def new_cart(store_id: int, **kw) -> Cart:
    c = Cart(store_id=store_id, created_at=now(), payment_method_id=user().default_payment_id, **kw)
    db().add(c)
    db().flush()
    forget_cart()
    return c


def add_item(item_id: int, quantity: int = 1, option_ids: Iterable[int] = (), instructions: str = "",
             replace: bool = False) -> CartItem:
    """Add `quantity` of an item with its options and note; the same item, options and note add up on one
    line. A cart at another store raises Conflict unless `replace` (the "New cart" answer)."""
    item = db().get(MenuItem, item_id)
    if item is None:
        raise NotFound("That item is no longer available.")
    if not 1 <= quantity <= MAX_QTY:
        raise Invalid(f"Quantity must be between 1 and {MAX_QTY}.")
    option_ids = sorted(set(option_ids))
    opts, err = validate_options(item, option_ids)
    if err:
        raise Invalid(err)
    instructions = (instructions or "").strip()[:NOTE_MAX]
    store = db().get(Store, item.store_id)
    c = cart_for_store(item.store_id, replace, store.name if store else "")
    if c is None:
        c = new_cart(item.store_id, tip_percent=logic.DEFAULT_TIP)
    same = next((ci for ci in cart_items(c) if ci.item_id == item.id and ci.option_ids == option_ids
                 and ci.instructions == instructions), None)
    if same is not None:
        same.quantity = min(MAX_QTY, same.quantity + quantity)
        return same
    line = CartItem(cart_id=c.id, item_id=item.id, quantity=quantity, option_ids=[o.id for o in sorted(opts, key=lambda o: o.id)],
                    options_text=", ".join(o.name for o in opts), instructions=instructions,
                    unit_price_cents=logic.item_unit_price(item, opts))
    db().add(line)
    db().flush()
    return line


def edit_line(cart_item_id: int, option_ids: Iterable[int] | None = None, instructions: str | None = None,
              quantity: int | None = None) -> CartItem:
    """Save a cart line from its option dialog (the drawer's line opened): new options, note and quantity
    (None keeps the line's), checked as when adding, priced by the same `logic.item_unit_price`. A line that
    now matches another line (same item, options and note) merges into it, as adding it again would have."""
    ci = db().get(CartItem, cart_item_id)
    if ci is None:
        raise NotFound("Not in your cart.")
    option_ids = ci.option_ids if option_ids is None else option_ids
    instructions = ci.instructions if instructions is None else instructions
    quantity = ci.quantity if quantity is None else quantity
    if not 1 <= quantity <= MAX_QTY:
        raise Invalid(f"Quantity must be between 1 and {MAX_QTY}.")
    item = db().get(MenuItem, ci.item_id)
    if item is None:
        raise NotFound("That item is no longer available.")
    option_ids = sorted(set(option_ids))
    opts, err = validate_options(item, option_ids)
    if err:
        raise Invalid(err)
    instructions = (instructions or "").strip()[:NOTE_MAX]
    twin = next((o for o in cart_items(cart()) if o.id != ci.id and o.item_id == ci.item_id
                 and o.option_ids == option_ids and o.instructions == instructions), None)
    if twin is not None:
        twin.quantity = min(MAX_QTY, twin.quantity + quantity)
        db().delete(ci)
        db().flush()
        return twin
    ci.option_ids = option_ids
    ci.options_text = ", ".join(o.name for o in opts)
    ci.instructions = instructions
    ci.unit_price_cents = logic.item_unit_price(item, opts)
    ci.quantity = quantity
    db().flush()
    return ci


def set_quantity(cart_item_id: int, quantity: int) -> None:
    """A line's new quantity (at most MAX_QTY); 0 or less removes it. A cart left empty goes too, unless
    it is a group order (the group's link stays valid)."""
    ci = db().get(CartItem, cart_item_id)
    if ci is None:
        raise NotFound("Not in your cart.")
    if quantity <= 0:
        db().delete(ci)
    else:
        ci.quantity = min(MAX_QTY, quantity)
    db().flush()
    c = cart()
    if c is not None and not cart_items(c) and not c.group_order:
        db().delete(c)
        db().flush()
        forget_cart()


def clear() -> None:
    c = cart()
    if c is not None:
        drop_cart(c)


def group_link(c: Cart) -> str:
    token = hashlib.sha1(f"forkful-group-{c.id}-{c.store_id}".encode()).hexdigest()[:10]
    return f"https://forkful.test/group/{token}"


def start_group_order(store_id: int, limit_cents: int | None, replace: bool = False) -> Cart:
    """Make the cart at `store_id` a group order with a per-person limit (None: no limit)."""
    s = db().get(Store, store_id)
    if s is None:
        raise NotFound("No such store.")
    c = cart_for_store(s.id, replace, s.name)
    if c is None:
        c = new_cart(s.id)
    c.group_order = True
    c.group_limit_cents = limit_cents
    return c


def end_group_order() -> None:
    c = cart()
    if c is not None:
        c.group_order = False
        c.group_limit_cents = None
        if not cart_items(c):
            db().delete(c)
            forget_cart()
