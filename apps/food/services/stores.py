"""Store cards, the browse filters and sorts, and an item's option groups: what the pages and the tools list.

One place for them: the views render these cards and the catalog service (tools) returns them, so a store's
fee text, ETA, deal badge and rank are the same on the screen and through a tool call.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from flask import g
from sqlalchemy import select

from apps._shared import db, now
from apps.food.models import Cuisine, MenuItem, Option, OptionGroup, Promo, SavedStore, Store
from apps.food.services.state import current_address, user
from domain import food as logic


def cuisines() -> list[Cuisine]:
    if "food_cuisines" not in g:
        g.food_cuisines = list(db().scalars(select(Cuisine).order_by(Cuisine.position)))
    return g.food_cuisines


def cuisine_map() -> dict[int, Cuisine]:
    return {c.id: c for c in cuisines()}


def saved_ids() -> set[int]:
    if "food_saved" not in g:
        g.food_saved = set(db().scalars(select(SavedStore.store_id)))
    return g.food_saved


def store_deals() -> dict[int, Promo]:
    """Each store's best live store-specific promo (for the deal badge)."""
    if "food_deals" not in g:
        out: dict[int, Promo] = {}
        t = now()
        for p in db().scalars(select(Promo).where(Promo.store_id.is_not(None)).order_by(Promo.id)):
            if p.expires_at > t and p.store_id not in out:
                out[p.store_id] = p
        g.food_deals = out
    return g.food_deals


def deal_badge(p: Promo, money_fn=logic.money, whole_fn=logic.money_whole) -> str:
    """A store card's deal badge; the amounts through `money_fn` / `whole_fn` (a page in another locale passes its own)."""
    if p.kind == "percent":
        return f"{p.value}% off"
    if p.kind == "amount":
        return f"{money_fn(p.value)} off {money_fn(p.min_subtotal_cents)}+"
    return f"{whole_fn(0)} delivery fee"


@dataclass
class StoreCard:
    s: Store
    cuisine: str
    distance: float
    eta: int
    fee_cents: int
    fee_text: str  # the app's own words (tools, search results); a page writes `fee_label` in its locale
    status: dict
    saved: bool
    deal: Promo | None
    is_new: bool
    serves: bool = True  # the store can serve the user's current mode (logic.serves_mode)
    score: float = 0.0
    match: str = ""  # dish that matched a search
    extra: dict = field(default_factory=dict)
    fee_kind: str = "fee"  # closed (the store cannot serve the mode) | pickup | member | free | fee
    mode: str = "delivery"

    @property
    def id(self) -> int:
        return self.s.id


def store_card(s: Store) -> StoreCard:
    u, a, t = user(), current_address(), now()
    mode = u.mode
    serves = logic.serves_mode(s, mode)
    fee = 0 if mode == "pickup" else s.delivery_fee_cents
    member_free = logic.is_member(u, t) and s.plus_eligible and mode == "delivery"
    # never labelled as if it could serve the mode (a saved store on the account page, the store page)
    kind = ("closed" if not serves else "pickup" if mode == "pickup" else "member" if member_free
            else "free" if fee == 0 else "fee")
    return StoreCard(
        s=s, cuisine=cuisine_map()[s.cuisine_id].name, distance=logic.distance_mi(s, a),
        eta=logic.eta_minutes(s, a, mode if serves else "delivery"), fee_cents=0 if member_free else fee,
        fee_text=fee_label(kind, fee, mode), status=logic.store_status(s, t), saved=s.id in saved_ids(),
        deal=store_deals().get(s.id), is_new=(t.date() - s.opened_on).days <= 30, serves=serves, fee_kind=kind,
        mode=mode,
    )


def fee_label(kind: str, fee_cents: int, mode: str, money_fn=logic.money, whole_fn=logic.money_whole) -> str:
    """A store card's fee line: "$0 delivery fee over $12" for a member, "$2.99 delivery fee", "Pickup", "No pickup".
    The amounts through `money_fn` / `whole_fn` (a page in another locale passes its own)."""
    return {"closed": "No pickup" if mode == "pickup" else f"No {mode}", "pickup": "Pickup",
            "member": f"{whole_fn(0)} delivery fee over {whole_fn(logic.PLUS_MIN_SUBTOTAL)}",
            "free": f"{whole_fn(0)} delivery fee"}.get(kind) or f"{money_fn(fee_cents)} delivery fee"


def all_cards() -> list[StoreCard]:
    """Every store's card, whatever the mode (the account's saved stores: each labelled by `serves`)."""
    stores = db().scalars(select(Store).order_by(Store.id)).all()
    return [store_card(s) for s in stores]


def listed_cards() -> list[StoreCard]:
    """The stores a browse list shows in the user's mode (home's carousels and all stores, search, cuisine pages,
    the tools' list_stores and search): in Pickup only the stores that offer pickup, as DoorDash lists them, so
    every store a list shows can check out in that mode (the one rule, `logic.serves_mode`)."""
    return [c for c in all_cards() if c.serves]


SORTS = {
    "recommended": "Recommended",
    "rating": "Rating",
    "distance": "Distance",
    "eta": "Delivery time",
    "fee": "Delivery fee",
}


def apply_filters(cards: list[StoreCard], f: dict) -> list[StoreCard]:
    out = []
    for c in cards:
        if f["r45"] and c.s.rating < 4.5:
            continue
        if f["fast"] and c.eta > 30:
            continue
        if f["price"] and c.s.price_level not in f["price"]:
            continue
        if f["plus"] and not c.s.plus_eligible:
            continue
        if f["deals"] and c.deal is None:
            continue
        if f["pickup"] and not logic.serves_mode(c.s, "pickup"):
            continue
        out.append(c)
    return sort_cards(out, f["sort"])


def sort_cards(cards: list[StoreCard], sort: str) -> list[StoreCard]:
    closed_last = lambda c: c.status["state"] == "closed"  # noqa: E731
    if sort == "rating":
        key = lambda c: (closed_last(c), -c.s.rating, -c.s.review_count, c.s.id)  # noqa: E731
    elif sort == "distance":
        key = lambda c: (closed_last(c), c.distance, c.s.id)  # noqa: E731
    elif sort == "eta":
        key = lambda c: (closed_last(c), c.eta, c.s.id)  # noqa: E731
    elif sort == "fee":
        key = lambda c: (closed_last(c), c.fee_cents, c.s.id)  # noqa: E731
    else:
        key = lambda c: (closed_last(c), -c.score, -round(c.s.rating * 10) - min(c.s.review_count, 3000) / 1000, c.s.id)  # noqa: E731
    return sorted(cards, key=key)


def item_groups(item: MenuItem) -> list[tuple[OptionGroup, list[Option]]]:
    if not item.group_ids:
        return []
    groups = {gr.id: gr for gr in db().scalars(select(OptionGroup).where(OptionGroup.id.in_(item.group_ids)))}
    opts: dict[int, list[Option]] = {}
    for o in db().scalars(select(Option).where(Option.group_id.in_(item.group_ids)).order_by(Option.group_id, Option.position)):
        opts.setdefault(o.group_id, []).append(o)
    return [(groups[gid], opts.get(gid, [])) for gid in item.group_ids if gid in groups]
