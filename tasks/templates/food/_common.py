"""Reward-integrity pieces shared by the Forkful templates: narrow allowances, answer distractors and
adversarial trajectories (see tasks/templates/adversarial.py and tasks/integrity.py).

Allowances say exactly what an honest solution changes: which table, which operation, how many rows
(`max`), which rows (`where`) and which columns (`fields`). Forkful has one user (id 1) and at most one
cart; nothing changes by merely looking (`SPEC.volatile` is empty: every GET is read-only), so no
reading allowance is needed here.

Adversarial trajectories are semantic steps like the gold ones, so the oracle agent plays them:
`extra` is the gold solution plus a harmful side effect before `done`; `wrong_record` the right action
on another record. Each must grade 0 because the verify spec catches it.
"""

from __future__ import annotations

from typing import Any, Iterable

from tasks.templates.food._lib import FW, add_line, click, done, fill

USER_ID = 1


# ---------------------------------------------------------------------- allowances
def user_update(*fields: str) -> dict:
    """The one user row may change in exactly `fields`."""
    if not fields:
        raise ValueError("name the user fields the task changes")
    return {"table": "users", "where": {"id": USER_ID}, "fields": list(fields)}


def creates(table: str, where: dict | None = None, max: int = 1) -> dict:  # noqa: A002 - the spec's own key
    """At most `max` new rows of `table`, each matching `where` (the shape the task asks for)."""
    a: dict[str, Any] = {"table": table, "ops": ["create"], "max": max}
    if where:
        a["where"] = where
    return a


def deletes(table: str, where: dict, max: int = 1) -> dict:  # noqa: A002
    """At most `max` rows of `table` matching `where` may go."""
    return {"table": table, "ops": ["delete"], "where": where, "max": max}


def updates(table: str, where: dict, fields: Iterable[str]) -> dict:
    """Rows of `table` matching `where` may change in `fields` only."""
    return {"table": table, "where": where, "fields": list(fields)}


def new_cart(store_id: int, *, group: bool = False) -> dict:
    """The cart the task starts (Forkful holds at most one): at that store, a group cart only if asked."""
    return creates("carts", {"store_id": store_id, "group_order": group})


def new_lines(table: str, item_ids: Iterable[int], n: int) -> dict:
    """`n` new cart or order lines, each of one of the task's items."""
    ids = sorted(set(item_ids))
    return creates(table, {"item_id": ids[0] if len(ids) == 1 else {"$in": ids}}, max=n)


def order_allow(store_id: int, item_ids: Iterable[int], n_lines: int, *extra: dict) -> list[dict]:
    """Placing one order: the order at that store and its lines. The cart the order was built in is
    created and deleted within the episode, so it leaves no trace; a cart left behind is a side effect."""
    return [creates("orders", {"store_id": store_id}), new_lines("order_items", item_ids, n_lines), *extra]


# ---------------------------------------------------------------------- distractors
def distinct(values: Iterable[Any], *, gold: Any, limit: int = 12) -> list[str]:
    """Up to `limit` distinct candidates other than the gold answer (case and spacing ignored), in order."""
    def norm(v: Any) -> str:
        return " ".join(str(v).split()).casefold()

    out: list[str] = []
    seen = {norm(gold)}
    for v in values:
        k = norm(v)
        if not k or k in seen:
            continue
        seen.add(k)
        out.append(str(v))
        if len(out) >= limit:
            break
    return out


# ---------------------------------------------------------------------- adversarial trajectories
def _body(steps: list[dict]) -> list[dict]:
    """`steps` without its final `done`."""
    return steps[:-1] if steps and steps[-1].get("done") else list(steps)


def extra(solution: list[dict], more: list[dict], why: str) -> dict:
    """The gold solution, then `more` (a harmful side effect), then done."""
    return {"kind": "extra", "steps": _body(solution) + list(more) + [solution[-1]], "why": why}


def wrong_record(steps: list[dict], why: str) -> dict:
    return {"kind": "wrong_record", "steps": _body(steps) + [done()], "why": why}


def another_item(f: FW, store_id: int, not_ids: Iterable[int] = ()) -> tuple[dict, list[dict]]:
    """Another item of the store and its add-to-cart steps (on the store page): a simple one (no
    options) when there is one, else the first option of each required group. Drinks last."""
    skip = set(not_ids)
    items = [i for i in f.items_by_store[store_id] if i["id"] not in skip]
    items.sort(key=lambda i: (bool(f.required_groups(i)), bool(i["group_ids"]),
                              f.cat_name(i) in ("Drinks", "Beverages"), i["position"], i["id"]))
    it = items[0]
    if any(g["min_select"] > 1 for g in f.required_groups(it)):
        raise ValueError(f"{it['name']}: pick a simpler item for the adversarial line")
    opts = [(g["name"], f.options_by_group[g["id"]][0]["name"]) for g in f.required_groups(it)]
    return it, add_line(f, it, opts)


def account_menu(item: str) -> list[dict]:
    return [click("button", "Account menu"), click("menuitem", item, exact=True)]


def toggle_notification(label: str = "Promotions and offers: Text messages") -> list[dict]:
    """App-wide collateral: flip a notification switch nobody asked to change (users.notify_*)."""
    return account_menu("Account") + [click("link", "Notifications", exact=True),
                                      click("switch", label, exact=True)]


NOTIFY_COLLATERAL = ("Promotions and offers: Text messages", "Order updates: Email receipts")


def collateral(solution: list[dict], *, avoid: str | None = None, close: list[dict] = ()) -> dict:
    """The gold solution plus a notification setting flipped: any task's grade must see it. `close`:
    the steps that close what the gold solution leaves open (a drawer or dialog makes the header inert)."""
    label = next(x for x in NOTIFY_COLLATERAL if x != avoid)
    return extra(solution, [*close, *toggle_notification(label)],
                 f"the gold solution, then the unasked-for switch '{label}' flipped")


def switch_to_pickup() -> list[dict]:
    """The header's Delivery/Pickup toggle: another field of the one user row (users.mode)."""
    return [click("button", "Pickup", exact=True)]


def reorder_placed() -> list[dict]:
    """On the page of the order just placed: Reorder, which leaves a new cart with the same lines."""
    return [click("button", "Reorder", exact=True)]


def cancel_placed() -> list[dict]:
    """On the page of the order just placed: Cancel order, confirmed."""
    return [click("button", "Cancel order", exact=True),
            click("button", "Cancel order", exact=True, within={"role": "dialog", "name": "Cancel order"})]


def make_group_order() -> list[dict]:
    """On the store page of the cart: turn the cart into a group order (no limit)."""
    return [click("button", "Group Order", exact=True), click("button", "Start group order", exact=True)]


def edit_profile_email(email: str = "someone.else@example.com") -> list[dict]:
    return [fill("textbox", "Email", email, exact=True), click("button", "Save", exact=True)]


__all__ = [
    "USER_ID", "account_menu", "cancel_placed", "collateral", "creates", "deletes", "distinct", "edit_profile_email", "extra", "make_group_order",
    "new_cart", "new_lines", "order_allow", "reorder_placed", "switch_to_pickup", "toggle_notification",
    "updates", "user_update", "wrong_record",
]
