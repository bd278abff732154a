"""Shared helpers for the Forkful task templates: world queries, solution steps, grader pieces.

Every expected value is computed from the World rows with domain.food, the code the app runs.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from domain import food as logic
from tasks.templates.base import World

# Allowances (unchanged_except) and adversarial trajectories: tasks/templates/food/_common.py.


class FW:
    """Indexed view of a Forkful world."""

    def __init__(self, w: World):
        self.w = w
        self.now = w.now
        self.user = w.table("users")[0]
        self.addr = {a["id"]: a for a in w.table("addresses")}
        self.cur_addr = self.addr[self.user["current_address_id"]]
        self.cuisine = {c["id"]: c for c in w.table("cuisines")}
        self.cuisine_by_slug = {c["slug"]: c for c in w.table("cuisines")}
        self.stores = w.table("stores")
        self.store = {s["id"]: s for s in self.stores}
        self.items_by_store: dict[int, list[dict]] = {}
        for it in w.table("menu_items"):
            self.items_by_store.setdefault(it["store_id"], []).append(it)
        self.item = {it["id"]: it for it in w.table("menu_items")}
        self.group = {g["id"]: g for g in w.table("option_groups")}
        self.options_by_group: dict[int, list[dict]] = {}
        for o in w.table("options"):
            self.options_by_group.setdefault(o["group_id"], []).append(o)
        self.cat = {c["id"]: c for c in w.table("menu_categories")}
        self.promos = w.table("promos")
        self.orders = w.table("orders")
        self.order_items: dict[int, list[dict]] = {}
        for oi in w.table("order_items"):
            self.order_items.setdefault(oi["order_id"], []).append(oi)
        self.names_count: dict[str, int] = {}
        for s in self.stores:
            self.names_count[s["name"]] = self.names_count.get(s["name"], 0) + 1

    # ------------------------------------------------------------------ stores
    def status(self, s) -> str:
        return logic.store_status(s, self.now)["state"]

    def is_open(self, s) -> bool:
        return logic.is_open(s, self.now)

    def eta(self, s, mode="delivery", addr=None) -> int:
        return logic.eta_minutes(s, addr or self.cur_addr, mode)

    def cuisine_of(self, s) -> dict:
        return self.cuisine[s["cuisine_id"]]

    def menu_item(self, store_id: int, name: str) -> dict | None:
        return next((i for i in self.items_by_store.get(store_id, []) if i["name"] == name), None)

    def groups_of(self, it) -> list[dict]:
        return [self.group[g] for g in it["group_ids"]]

    def option(self, it, group_name: str | None, name: str) -> dict:
        for g in self.groups_of(it):
            if group_name is not None and g["name"] != group_name:
                continue
            for o in self.options_by_group[g["id"]]:
                if o["name"] == name:
                    return o
        raise KeyError(f"{it['name']}: no option {group_name}/{name}")

    def required_groups(self, it) -> list[dict]:
        return [g for g in self.groups_of(it) if g["min_select"] > 0]

    def simple_items(self, store_id: int) -> list[dict]:
        """Items with no option groups at all."""
        return [i for i in self.items_by_store.get(store_id, []) if not i["group_ids"]]

    def cat_name(self, it) -> str:
        return self.cat[it["category_id"]]["name"]

    def unit(self, it, opts: list[dict]) -> int:
        return logic.item_unit_price(it, opts)

    def totals(self, s, subtotal, *, mode="delivery", option="standard", tip=15, tip_custom=0, promo=None, user=None):
        return logic.totals(store=s, user=user or self.user, subtotal=subtotal, mode=mode, delivery_option=option,
                            tip_percent=tip, tip_custom_cents=tip_custom, promo=promo, use_credits=True, now=self.now)


_FW: dict[int, FW] = {}


def fw(w: World) -> FW:
    if id(w) not in _FW:
        _FW[id(w)] = FW(w)
    return _FW[id(w)]


# ---------------------------------------------------------------------- solution steps
def click(role: str, name: str | None = None, exact: bool = False, nth: int = 0, within: dict | None = None) -> dict:
    t: dict[str, Any] = {"role": role}
    if name is not None:
        t["name"] = name
    if exact:
        t["exact"] = True
    if nth:
        t["nth"] = nth
    if within:
        t["within"] = within
    return {"click": t}


def fill(role: str, name: str, text: str, exact: bool = False) -> dict:
    t: dict[str, Any] = {"role": role, "name": name}
    if exact:
        t["exact"] = True
    return {"fill": t, "text": text}


def press(*keys: str) -> dict:
    return {"press": list(keys)}


def done(answer: str | None = None) -> dict:
    return {"done": True, "answer": answer} if answer is not None else {"done": True}


DIALOG = {"role": "dialog"}


def goto_store(s: dict) -> list[dict]:
    """From any page with the header: search the store by name, open it."""
    return [fill("searchbox", "Search Forkful", s["name"]), press("Enter"), click("link", s["name"], exact=True)]


def open_item(it: dict) -> list[dict]:
    """On the store page: the item's row in its menu category (the last match; featured cards scroll sideways)."""
    return [click("button", it["name"], exact=True, nth=-1)]


def pick(fwv: FW, it: dict, opts: list[tuple[str, str]]) -> list[dict]:
    """Option clicks for `opts` on item `it`, radio or checkbox by the group's max."""
    out = []
    for gname, oname in opts:
        g = next(g for g in fwv.groups_of(it) if g["name"] == gname)
        role = "radio" if g["max_select"] == 1 else "checkbox"
        out.append(click(role, oname, exact=True, within={"role": "group", "name": gname, "exact": True}))
    return out


def qty_steps(q: int) -> list[dict]:
    return [click("button", "Increase quantity", exact=True, within=DIALOG)] * (q - 1)


def add_to_cart() -> list[dict]:
    return [click("button", "Add to cart", within=DIALOG)]


def to_checkout() -> list[dict]:
    return [click("button", "Cart,"), click("link", "Checkout", exact=True)]


def place() -> list[dict]:
    return [click("button", "Place Order", exact=True)]


def checkout_address(label: str) -> list[dict]:
    """At checkout: Change address, then the saved address labelled `label` ("Work") in the Addresses dialog."""
    return [click("button", "Change address", exact=True),
            click("button", f"Deliver to {label}", within={"role": "dialog", "name": "Addresses"})]


def t_checkout_address(address_id: int) -> list[dict]:
    """The tool calls that deliver the cart to the saved address `address_id` (checkout_address's twin)."""
    return [call("get_account"), call("select_address", address_id=address_id)]


def add_line(fwv: FW, it: dict, opts: list[tuple[str, str]] = (), qty: int = 1, note: str = "") -> list[dict]:
    steps = open_item(it) + pick(fwv, it, list(opts))
    if note:
        steps.append(fill("textbox", "Special instructions", note, exact=True))
    steps += qty_steps(qty) + add_to_cart()
    return steps


def recheck(solution: list[dict], more: list[dict]) -> list[dict]:
    """`solution` (ending with done), then `more`, then its done: the harmless check_work variant that goes
    back to where the change shows (reopens the page, the cart, the order) before finishing."""
    return [*solution[:-1], *more, solution[-1]]


def orders_page() -> list[dict]:
    """From any page with the header: Account menu > Orders."""
    return [click("button", "Account menu"), click("menuitem", "Orders", exact=True)]


def t_recheck(calls: list[dict], *reads: dict) -> list[dict]:
    """Tool calls (ending with done), with the `reads` (get_cart, get_order ...) before the done."""
    return [*calls[:-1], *reads, calls[-1]]


# ---------------------------------------------------------------------- verify pieces
def created_order(expect: dict, n_items: int) -> list[dict]:
    return [
        {"table": "orders", "in": "created", "count": 1, "expect": expect},
        {"table": "order_items", "in": "created", "count": n_items},
    ]


def order_line(item_id: int, option_ids: list[int], qty: int, instructions: str | None = None) -> dict:
    expect: dict[str, Any] = {"quantity": qty}
    if instructions is not None:
        expect["instructions"] = instructions
    return {"table": "order_items", "in": "created", "where": {"item_id": item_id, "option_ids": sorted(option_ids)},
            "count": 1, "expect": expect}


def cart_line(item_id: int, option_ids: list[int], qty: int, instructions: str | None = None) -> dict:
    expect: dict[str, Any] = {"quantity": qty}
    if instructions is not None:
        expect["instructions"] = instructions
    return {"table": "cart_items", "where": {"item_id": item_id, "option_ids": sorted(option_ids)}, "count": 1,
            "expect": expect}


def iso(d: dt.datetime) -> str:
    return d.replace(microsecond=0).isoformat()


def price(c: int) -> str:
    return logic.money(c)


def actions_of(steps: list[dict]) -> int:
    """How many env actions the oracle needs for `steps` (a fill is click + select-all + type)."""
    return sum(3 if "fill" in s else 1 for s in steps)


def template(app: str, name: str, *, difficulty: str, max_steps: int = 30, **kw):
    """tasks.templates.base.template, with each instance's max_steps raised to twice its oracle's
    action count plus headroom for scrolling (never below the template's own max_steps)."""
    import functools

    from tasks.templates.base import template as base_template

    def register(fn):
        @functools.wraps(fn)
        def gen(w, rng):
            for inst in fn(w, rng):
                need = 2 * actions_of(inst["solution"]) + 6
                inst.setdefault("max_steps", max(max_steps, need))
                yield inst

        return base_template(app, name, difficulty=difficulty, max_steps=max_steps, **kw)(gen)

    return register


# ---------------------------------------------------------------------- tool mode (apps/food/tools.py)
# The same tasks through typed function calls: the gold calls include the search or read that finds each id
# (a tool-using agent has no page to look at), then the writes, then `done`.
def call(tool: str, **args: Any) -> dict:
    return {"tool": tool, "args": args}


def tdone(answer: str | None = None) -> dict:
    return call("done", answer=answer) if answer is not None else call("done")


def tools_plan(solution: list[dict], *near_misses: list[dict]) -> dict:
    return {"solution": solution, "near_misses": list(near_misses)}


def t_find_store(s: dict) -> list[dict]:
    """Search the store by name and open its page (its menu gives the item ids)."""
    return [call("search", query=s["name"], limit=5), call("get_store", store_id=s["id"])]


def t_add(it: dict, option_ids: list[int] = (), qty: int = 1, note: str = "", replace: bool = False) -> list[dict]:
    """Add one line: read the item's options first when it has any, then add_to_cart."""
    args: dict[str, Any] = {"item_id": it["id"]}
    if qty != 1:
        args["quantity"] = qty
    if option_ids:
        args["option_ids"] = sorted(option_ids)
    if note:
        args["instructions"] = note
    if replace:
        args["replace_cart"] = True
    return ([call("get_menu_item", item_id=it["id"])] if it["group_ids"] else []) + [call("add_to_cart", **args)]
