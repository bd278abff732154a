"""Orders after checkout: cancel, rate and review, get help (refund to the card or credits), reorder."""

from __future__ import annotations

from typing import Any, Iterable

from sqlalchemy import select

from apps._shared import db, now
from apps.food.models import CartItem, MenuItem, Option, Order, OrderItem, Review, SupportRequest
from apps.food.services import Invalid, NotFound
from apps.food.services.cart import cart_for_store, new_cart
from apps.food.services.checkout import store_name
from apps.food.services.state import cart_items, user
from domain import food as logic

ACTIVE = ("placed", "preparing", "on_the_way", "ready", "scheduled")
DONE = ("delivered", "picked_up")
CANCELLABLE = ("placed", "scheduled")
ISSUES = {
    "missing": ("Missing items", ["Item was not in the bag", "Only part of the item arrived", "Whole order is missing"]),
    "wrong": ("Wrong items", ["Received a different item", "Wrong size or options", "Allergy or dietary issue"]),
    "quality": ("Food quality issue", ["Food was cold", "Spilled or damaged", "Undercooked or overcooked"]),
}
CANCEL_REASONS = ["Ordered by mistake", "Wrong address", "It's taking too long", "Changed my mind"]
RESOLUTIONS = ("refund", "credit")
REVIEW_MAX = 300  # the Review box's maxlength


def get(order_id: int) -> Order:
    o = db().get(Order, order_id)
    if o is None:
        raise NotFound(f"No order #{order_id}.")
    return o


def lines(o: Order) -> list[OrderItem]:
    return list(db().scalars(select(OrderItem).where(OrderItem.order_id == o.id).order_by(OrderItem.id)))


def helped_line_ids(o: Order) -> set[int]:
    return {r.order_item_id for r in db().scalars(select(SupportRequest).where(SupportRequest.order_id == o.id))}


def cancel(o: Order, reason: str = "") -> None:
    """Cancel a placed or scheduled order (credits it used come back); an unknown reason is stored empty."""
    if o.status not in CANCELLABLE:
        raise Invalid("This order can no longer be cancelled.")
    o.status = "cancelled"
    o.cancel_reason = reason if reason in CANCEL_REASONS else ""
    if o.credits_applied_cents:
        user().credits_cents += o.credits_applied_cents


def rate(o: Order, stars: int, text: str) -> Review:
    """Rate a completed order once, 1 to 5 stars, with an optional review (posted on the store's page)."""
    if o.status not in DONE:
        raise Invalid("You can rate an order once it's complete.")
    if o.rating is not None:
        raise Invalid("You already rated this order.")
    if not 1 <= stars <= 5:
        raise Invalid("Choose a rating from 1 to 5 stars.")
    o.rating = stars
    u = user()
    r = Review(store_id=o.store_id, author=f"{u.first_name} {u.last_name[:1]}.", rating=stars,
               text=(text or "").strip()[:REVIEW_MAX], created_at=now(), order_id=o.id)
    db().add(r)
    return r


def request_help(o: Order, issue: str | None, chosen: list[OrderItem], reason: str | None,
                 resolution: str | None, quantities: dict[int, Any] | None = None) -> list[SupportRequest]:
    """One support request per chosen line (lines already reported are not chosen again), for the quantity
    `quantities` gives it (by order_item_id; none: the whole line), refunded by logic.refund_cents; credits
    are added at once, a card refund is recorded. The checks run in the help page's order, with its messages."""
    if o.status not in DONE:
        raise Invalid("You can get help once your order is complete.")
    if issue not in ISSUES:
        raise Invalid("Choose what went wrong.")
    if not chosen:
        raise Invalid("Select the items with a problem.")
    qty = {oi.id: (quantities or {}).get(oi.id, oi.quantity) for oi in chosen}
    for oi in chosen:
        why = logic.claim_refusal(oi.name, oi.quantity, qty[oi.id])
        if why:
            raise Invalid(why)
    if reason not in ISSUES[issue][1]:
        raise Invalid("Choose a reason.")
    if resolution not in RESOLUTIONS:
        raise Invalid("Choose how you'd like to be refunded.")
    out = []
    for oi in chosen:
        r = SupportRequest(order_id=o.id, order_item_id=oi.id, quantity=qty[oi.id], issue=issue, reason=reason,
                           resolution=resolution, amount_cents=logic.refund_cents(oi.unit_price_cents, qty[oi.id]),
                           created_at=now())
        db().add(r)
        out.append(r)
    if resolution == "credit":
        user().credits_cents += sum(r.amount_cents for r in out)
    return out


def can_change_tip(o: Order) -> bool:
    return logic.tip_change_refusal(o, now()) is None


def change_tip(o: Order, percent: int | None = None, custom_cents: int | None = None) -> None:
    """Adjust the courier tip of a delivered order (logic.tip_change_refusal): a preset percent of the subtotal,
    or with percent None a custom amount; the order's total moves by the difference."""
    why = logic.tip_change_refusal(o, now())
    if why:
        raise Invalid(why)
    if percent is not None and percent not in logic.TIP_PRESETS:
        raise Invalid(f"The tip is one of {', '.join(map(str, logic.TIP_PRESETS))} percent, or a custom amount.")
    if percent is None and (custom_cents is None or not 0 <= custom_cents <= logic.TIP_MAX_CENTS):
        raise Invalid("Enter a tip amount like 5 or 5.50.")
    new = logic.tip_amount(o.subtotal_cents, percent, custom_cents or 0, o.mode)
    o.total_cents += new - o.tip_cents
    o.tip_cents = new
    o.tip_percent = percent


def can_rate_dasher(o: Order) -> bool:
    return o.mode == "delivery" and o.status == "delivered" and o.dasher_rating is None


def rate_dasher(o: Order, thumb: str | None, reasons: Iterable[str] = (), comment: str = "") -> None:
    """Rate the Dasher of a delivered order once: thumbs up or down, optional reasons from that thumb's list
    (stored in the list's order), an optional comment."""
    if o.mode != "delivery":
        raise Invalid("Pickup orders have no Dasher to rate.")
    if o.status != "delivered":
        raise Invalid("You can rate your Dasher once your order is delivered.")
    if o.dasher_rating is not None:
        raise Invalid("You already rated your Dasher for this order.")
    if thumb not in logic.THUMBS:
        raise Invalid("Choose thumbs up or thumbs down.")
    chosen = set(reasons)
    allowed = logic.DASHER_REASONS[thumb]
    stray = sorted(chosen - set(allowed))
    if stray:
        raise Invalid(f"“{stray[0]}” is not a reason for a {logic.THUMBS[thumb].lower()}; choose from: "
                      + ", ".join(allowed) + ".")
    comment = (comment or "").strip()
    if len(comment) > logic.DASHER_COMMENT_MAX:
        raise Invalid(f"Keep your comment to {logic.DASHER_COMMENT_MAX} characters.")
    o.dasher_rating = thumb
    o.dasher_reasons = ", ".join(r for r in allowed if r in chosen)
    o.dasher_comment = comment


def choose_lines(o: Order, order_item_ids: Iterable[int]) -> list[OrderItem]:
    """The order's lines named by `order_item_ids` (for a tool: an id that is not a line of this order, or a
    line already reported, is an error; the page offers only its own lines and disables reported ones)."""
    ids = set(order_item_ids)
    own = lines(o)
    unknown = ids - {oi.id for oi in own}
    if unknown:
        raise NotFound(f"Order #{o.id} has no line {sorted(unknown)[0]}; its lines are "
                       + ", ".join(f"{oi.id} ({oi.name})" for oi in own) + ".")
    again = [oi for oi in own if oi.id in ids and oi.id in helped_line_ids(o)]
    if again:
        raise Invalid(f"{again[0].name} (line {again[0].id}) was already reported; a line can be reported once.")
    return [oi for oi in own if oi.id in ids]


def reorder(o: Order, replace: bool = False) -> None:
    """The order's lines back in the cart (at today's prices; items no longer on the menu are skipped).
    A cart at another store raises Conflict unless `replace`."""
    c = cart_for_store(o.store_id, replace, store_name(o.store_id))
    if c is None:
        c = new_cart(o.store_id, tip_percent=logic.DEFAULT_TIP)
    existing = cart_items(c)
    for oi in lines(o):
        m = db().get(MenuItem, oi.item_id)
        if m is None:
            continue
        opts = list(db().scalars(select(Option).where(Option.id.in_(oi.option_ids)))) if oi.option_ids else []
        same = next((ci for ci in existing if ci.item_id == m.id and ci.option_ids == list(oi.option_ids)
                     and ci.instructions == oi.instructions), None)
        if same:
            same.quantity += oi.quantity
        else:
            db().add(CartItem(cart_id=c.id, item_id=m.id, quantity=oi.quantity, option_ids=list(oi.option_ids),
                              options_text=oi.options_text, instructions=oi.instructions,
                              unit_price_cents=logic.item_unit_price(m, opts)))
    db().flush()
