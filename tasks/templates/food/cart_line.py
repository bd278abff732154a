"""Open a cart line from the drawer and change its options, note and quantity (DoorDash's cart line opens the
item's dialog with the line's choices; Update cart saves it, repriced)."""

from __future__ import annotations

import random

from tasks.templates.base import World
from tasks.templates.food._lib import template  # noqa: E402  (max_steps from the solution)
from tasks.templates.food._lib import call, click, done, fill, fw, pick, recheck, tdone, tools_plan
from tasks.templates.harmless import harmless
from tasks.templates.food._common import collateral, creates, deletes, extra, updates, wrong_record
from tasks.templates.food.cart import _cart_fixture

PIZZAS = ["Pepperoni Pizza", "Margherita Pizza", "Cheese Pizza", "Supreme Pizza", "Veggie Pizza", "Hawaiian Pizza"]
NOTES = ["Cut in half please", "Well done please", "Light sauce", "Extra crispy", "No oregano"]
LINE_FIELDS = ["option_ids", "options_text", "instructions", "unit_price_cents", "quantity"]


def _sized(f, it) -> bool:
    names = {g["name"] for g in f.groups_of(it)}
    return {"Size", "Crust"} <= names and all(g["name"] in ("Size", "Crust") or g["min_select"] == 0
                                              for g in f.groups_of(it))


def _has(f, it) -> bool:
    try:
        for g, o in [("Size", "Medium"), ("Crust", "Hand-tossed"), ("Size", "Large"), ("Size", "Small"),
                     ("Size", "Extra Large"), ("Crust", "Thin crust"), ("Crust", "Deep dish")]:
            f.option(it, g, o)
    except KeyError:
        return False
    return True


def _line_steps(f, it, picks, note, qty_from, qty_to) -> list[dict]:
    """In the open cart drawer: open the line, pick, write the note, step the quantity, Update cart."""
    dlg = {"role": "dialog", "name": it["name"], "exact": True}
    steps = [click("button", f"Edit {it['name']}")] + pick(f, it, picks)
    if note:
        steps.append(fill("textbox", "Special instructions", note, exact=True))
    name = "Increase quantity" if qty_to > qty_from else "Decrease quantity"
    steps += [click("button", name, exact=True, within=dlg)] * abs(qty_to - qty_from)
    return steps + [click("button", "Update cart", within=dlg)]


@template("food", "edit-cart-line-options", difficulty="medium", max_steps=16)
def edit_cart_line_options(w: World, rng: random.Random):
    """The cart holds two pizzas and a side: change one pizza's size and crust (and a note or its quantity)
    from the cart drawer, keeping the other lines."""
    f = fw(w)
    stores = []
    for s in f.stores:
        if f.names_count[s["name"]] != 1 or not f.is_open(s):
            continue
        pz = [f.menu_item(s["id"], p) for p in PIZZAS]
        pz = [p for p in pz if p and _sized(f, p)]
        pz = [p for p in pz if _has(f, p)]
        if len(pz) >= 2 and f.simple_items(s["id"]):
            stores.append((s, pz))
    sizes = [("Large", "Thin crust"), ("Small", "Deep dish"), ("Extra Large", "Thin crust"), ("Large", "Deep dish")]
    for n, (s, pz) in enumerate(rng.sample(stores, 5)):
        a, b = rng.sample(pz, 2)
        side = rng.choice(f.simple_items(s["id"]))
        start = [f.option(a, "Size", "Medium"), f.option(a, "Crust", "Hand-tossed")]
        b_opts = [f.option(b, "Size", "Medium"), f.option(b, "Crust", "Hand-tossed")]
        size, crust = sizes[n % len(sizes)]
        new = [f.option(a, "Size", size), f.option(a, "Crust", crust)]
        new.sort(key=lambda o: (a["group_ids"].index(o["group_id"]), o["position"]))  # the dialog's order
        note = NOTES[n] if n % 2 == 0 else ""
        qty = 2 if n % 2 == 1 else 1
        fixtures = _cart_fixture(f, s, [(a, start, 1), (b, b_opts, 1), (side, [], 2)])
        ids = sorted(o["id"] for o in new)
        want = {"quantity": qty, "option_ids": ids, "instructions": note, "unit_price_cents": f.unit(a, new),
                "options_text": ", ".join(o["name"] for o in new)}
        picks = [("Size", size), ("Crust", crust)]
        sol = [click("button", "Cart,")] + _line_steps(f, a, picks, note, 1, qty) + [done()]
        wrong_size = "Medium" if size != "Medium" else "Large"
        near = [click("button", "Cart,")] + _line_steps(f, a, [("Size", wrong_size), ("Crust", crust)], note, 1, qty) + [done()]
        bits = [f"{size.lower()} with {crust.lower()}{'' if 'crust' in crust.lower() else ' crust'}"]
        if note:
            bits.append(f"add the note \"{note}\"")
        if qty > 1:
            bits.append(f"make it {qty}")
        goal = (f"Your cart from {s['name']} has a medium hand-tossed {a['name']}. Change it to "
                f"{' and '.join(bits) if len(bits) < 3 else ', '.join(bits[:-1]) + ' and ' + bits[-1]}. "
                "Keep the rest of the cart as it is.")
        edit_args = {"cart_item_id": 901, "option_ids": ids}
        if note:
            edit_args["instructions"] = note
        if qty > 1:
            edit_args["quantity"] = qty
        near_args = {**edit_args, "option_ids": sorted([f.option(a, "Size", wrong_size)["id"], new[1]["id"]])}
        yield {
            "goal": goal,
            "start_path": "/",
            "fixtures": fixtures,
            "verify": {
                "checks": [
                    {"table": "cart_items", "count": 3},
                    {"table": "carts", "count": 1, "expect": {"store_id": s["id"]}},
                    {"table": "cart_items", "where": {"item_id": a["id"]}, "count": 1, "expect": want},
                    {"table": "cart_items", "where": {"id": 902}, "count": 1,
                     "expect": {"option_ids": sorted(o["id"] for o in b_opts), "quantity": 1}},
                    {"table": "cart_items", "where": {"id": 903}, "count": 1, "expect": {"quantity": 2}},
                ],
                # the line saved in place (the dialog), or removed and the pizza added again from the store page
                "unchanged_except": [updates("cart_items", {"id": 901}, LINE_FIELDS),
                                     deletes("cart_items", {"id": 901}),
                                     creates("cart_items", {"item_id": a["id"]})],
            },
            "solution": sol,
            "near_misses": [near],
            # the drawer closed and opened again to see the changed line
            "harmless": [harmless("check_work", recheck(sol, [click("button", "Close cart", exact=True), click("button", "Cart,")]),
                                  "the line updated, then the cart reopened to see it",
                                  [call("get_cart"), call("get_menu_item", item_id=a["id"]), call("edit_cart_item", **edit_args),
                                   call("get_cart"), tdone()])],
            "tools": tools_plan([call("get_cart"), call("get_menu_item", item_id=a["id"]),
                                 call("edit_cart_item", **edit_args), tdone()],
                                [call("get_cart"), call("get_menu_item", item_id=a["id"]),
                                 call("edit_cart_item", **near_args), tdone()]),
            "adversarial": [
                extra(sol, [click("button", f"Decrease quantity of {side['name']}", exact=True)],
                      "the pizza changed, then the side's quantity lowered too"),
                wrong_record([click("button", "Cart,")] + _line_steps(f, b, picks, note, 1, qty),
                             f"the other pizza ({b['name']}) changed instead"),
                collateral(sol, close=[click("button", "Close cart", exact=True)]),
            ],
        }
