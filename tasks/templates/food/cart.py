"""Cart templates: add items with options, quantities and notes; the new-cart prompt; edit the cart."""

from __future__ import annotations

import random

from tasks.templates.base import World
from tasks.templates.harmless import harmless
from tasks.templates.food._lib import template  # noqa: E402  (max_steps from the solution)
from tasks.templates.food._lib import (
    DIALOG, add_line, cart_line, click, done, fw, goto_store, open_item, pick, qty_steps, add_to_cart, to_checkout,
)
from tasks.templates.food._lib import call, recheck, t_add, t_find_store, t_recheck, tdone, tools_plan
from tasks.templates.food._common import (
    another_item, collateral, deletes, extra, make_group_order, new_cart, new_lines, updates, wrong_record,
)

GROUP_WHY = "the item added, then the cart turned into a group order nobody asked for"


def _new_cart_allow(store_id: int, item_id: int) -> list[dict]:
    """An empty cart gets one line: the cart at that store, the one line of that item."""
    return [new_cart(store_id), new_lines("cart_items", [item_id], 1)]


def _pizza_stores(f):
    return [s for s in f.stores if f.cuisine_of(s)["slug"] == "pizza" and f.menu_item(s["id"], "Pepperoni Pizza")
            and f.names_count[s["name"]] == 1]


def _has_opts(f, it, size, crust) -> bool:
    try:
        f.option(it, "Size", size), f.option(it, "Crust", crust)
    except KeyError:
        return False
    return True


@template("food", "add-pizza-size-crust", difficulty="easy", max_steps=16)
def add_pizza_size_crust(w: World, rng: random.Random):
    """Add a pizza of a given size and crust from a named pizzeria (start at home, find the store)."""
    f = fw(w)
    stores = _pizza_stores(f)
    rng.shuffle(stores)
    pizzas = ["Pepperoni Pizza", "Margherita Pizza", "Cheese Pizza", "Supreme Pizza", "Veggie Pizza", "Hawaiian Pizza"]
    sizes = ["Large", "Medium", "Extra Large", "Small"]
    crusts = ["Thin crust", "Hand-tossed", "Deep dish"]
    n = 0
    for s in stores:
        pz = next((f.menu_item(s["id"], p) for p in rng.sample(pizzas, len(pizzas)) if f.menu_item(s["id"], p)), None)
        if pz is None:
            continue
        size, crust = sizes[n % 4], crusts[n % 3]
        wrong = "Medium" if size != "Medium" else "Large"
        o_size, o_crust = f.option(pz, "Size", size), f.option(pz, "Crust", crust)
        sol = goto_store(s) + add_line(f, pz, [("Size", size), ("Crust", crust)]) + [done()]
        twin = next(t for t in stores if t["id"] != s["id"] and f.menu_item(t["id"], pz["name"])
                    and _has_opts(f, f.menu_item(t["id"], pz["name"]), size, crust))
        twin_pz = f.menu_item(twin["id"], pz["name"])
        goal = f"Add one {size.lower()} {pz['name'].lower()} with {crust.lower().replace('hand-tossed', 'hand-tossed crust')} from {s['name']} to your cart."
        yield {
            "goal": goal,
            "start_path": "/",
            "verify": {"checks": [{"table": "cart_items", "count": 1},
                                  {"table": "carts", "count": 1, "expect": {"store_id": s["id"]}},
                                  cart_line(pz["id"], [o_size["id"], o_crust["id"]], 1)],
                       "unchanged_except": _new_cart_allow(s["id"], pz["id"])},
            "solution": sol,
            "near_misses": [goto_store(s) + add_line(f, pz, [("Size", wrong), ("Crust", crust)]) + [done()]],
            "harmless": [harmless("check_work", recheck(sol, [click("button", "Cart,")]),
                                  "the pizza added, then the cart opened to see the line",
                                  t_recheck(t_find_store(s) + t_add(pz, [o_size["id"], o_crust["id"]]) + [tdone()], call("get_cart")))],
            "tools": tools_plan(
                t_find_store(s) + t_add(pz, [o_size["id"], o_crust["id"]]) + [tdone()],
                t_find_store(s) + t_add(pz, [f.option(pz, "Size", wrong)["id"], o_crust["id"]]) + [tdone()]),
            "adversarial": [
                extra(sol, another_item(f, s["id"], [pz["id"]])[1], "the pizza, then one more line in the cart"),
                extra(sol, make_group_order(), GROUP_WHY),
                collateral(sol),
                wrong_record(goto_store(twin) + add_line(f, twin_pz, [("Size", size), ("Crust", crust)]),
                             f"the same pizza from another pizzeria ({twin['name']})"),
            ],
        }
        n += 1


@template("food", "add-item-quantity", difficulty="easy", max_steps=12)
def add_item_quantity(w: World, rng: random.Random):
    """Add N of a simple (no options) item from the store page."""
    f = fw(w)
    stores = [s for s in f.stores if f.is_open(s) and len(f.simple_items(s["id"])) >= 3]
    for s in rng.sample(stores, 8):
        it = rng.choice([i for i in f.simple_items(s["id"]) if f.cat_name(i) != "Drinks"] or f.simple_items(s["id"]))
        q = rng.choice([2, 3, 4])
        sol = add_line(f, it, qty=q) + [done()]
        other = next(i for i in f.simple_items(s["id"]) if i["id"] != it["id"])
        yield {
            "goal": f"On {s['name']}'s page, add {q} × {it['name']} to your cart.",
            "start_path": f"/store/{s['id']}",
            "verify": {"checks": [{"table": "cart_items", "count": 1}, cart_line(it["id"], [], q)],
                       "unchanged_except": _new_cart_allow(s["id"], it["id"])},
            "solution": sol,
            "near_misses": [add_line(f, it, qty=q - 1) + [done()]],
            # one added from the menu, then the line's + in the cart drawer up to the quantity (the line is cart item 1:
            # the world's cart is empty)
            "harmless": [harmless("other_control", add_line(f, it) + [click("button", "Cart,")]
                                  + [click("button", f"Increase quantity of {it['name']}", exact=True)] * (q - 1) + [done()],
                                  "one added, then the quantity raised with the cart drawer's +",
                                  [call("get_store", store_id=s["id"]), *t_add(it), call("get_cart"),
                                   call("update_cart_item", cart_item_id=_first_line_id(f), quantity=q), tdone()])],
            "tools": tools_plan([call("get_store", store_id=s["id"]), *t_add(it, qty=q), tdone()],
                                [call("get_store", store_id=s["id"]), *t_add(it, qty=q - 1), tdone()]),
            "adversarial": [
                extra(sol, another_item(f, s["id"], [it["id"]])[1], "the item, then one more line in the cart"),
                extra(sol, make_group_order(), GROUP_WHY),
                collateral(sol),
                wrong_record(add_line(f, other, qty=q), f"{q} × another item of the store ({other['name']})"),
            ],
        }


@template("food", "add-with-note", difficulty="easy", max_steps=14)
def add_with_note(w: World, rng: random.Random):
    """Add an item with required options and a special-instructions note."""
    f = fw(w)
    notes = ["No onions please", "Extra napkins", "Sauce on the side", "No cilantro", "Cut in half please"]
    cands = []
    for s in f.stores:
        if not f.is_open(s) or f.names_count[s["name"]] > 1:
            continue
        for it in f.items_by_store[s["id"]]:
            req = f.required_groups(it)
            if len(req) == 1 and req[0]["max_select"] == 1 and len(f.groups_of(it)) <= 2:
                cands.append((s, it, req[0]))
    for k, (s, it, g) in enumerate(rng.sample(cands, 6)):
        opts = f.options_by_group[g["id"]]
        o = opts[-1] if len(opts) > 1 else opts[0]
        note = notes[k % len(notes)]
        sol = add_line(f, it, [(g["name"], o["name"])], note=note) + [done()]
        other, other_steps = another_item(f, s["id"], [it["id"]])
        yield {
            "goal": f"From {s['name']}, add a {it['name']} ({g['name']}: {o['name']}) to your cart with the note “{note}”.",
            "start_path": f"/store/{s['id']}",
            "verify": {"checks": [{"table": "cart_items", "count": 1}, cart_line(it["id"], [o["id"]], 1, note)],
                       "unchanged_except": _new_cart_allow(s["id"], it["id"])},
            "solution": sol,
            "near_misses": [add_line(f, it, [(g["name"], o["name"])]) + [done()]],
            # added without the note, then the line opened from the cart drawer and the note written there (Update cart)
            "harmless": [harmless("other_control", add_line(f, it, [(g["name"], o["name"])])
                                  + [click("button", "Cart,"), click("button", f"Edit {it['name']}"), fill_note(note),
                                     click("button", "Update cart", within={"role": "dialog", "name": it["name"], "exact": True}),
                                     done()],
                                  "the item added, then the note written on its cart line",
                                  [call("get_store", store_id=s["id"]), *t_add(it, [o["id"]]), call("get_cart"),
                                   call("edit_cart_item", cart_item_id=_first_line_id(f), instructions=note), tdone()])],
            "tools": tools_plan([call("get_store", store_id=s["id"]), *t_add(it, [o["id"]], note=note), tdone()],
                                [call("get_store", store_id=s["id"]), *t_add(it, [o["id"]]), tdone()]),
            "adversarial": [
                extra(sol, another_item(f, s["id"], [it["id"]])[1], "the item with its note, then one more line"),
                extra(sol, make_group_order(), GROUP_WHY),
                collateral(sol),
                wrong_record(other_steps[:-1] + [fill_note(note)] + other_steps[-1:],
                             f"the note on another item of the store ({other['name']})"),
            ],
        }


def _first_line_id(f) -> int:
    """The cart_item_id of the first line added to the world's empty cart (get_cart shows it)."""
    assert not f.w.table("cart_items"), "the first line's id assumes an empty cart_items table"
    return 1


def fill_note(note: str) -> dict:
    from tasks.templates.food._lib import fill

    return fill("textbox", "Special instructions", note, exact=True)


def _cart_fixture(f, s, lines):
    """Fixture rows for a cart at store `s` with (item, options, qty) lines."""
    rows = []
    for i, (it, opts, q) in enumerate(lines, 1):
        rows.append({"id": 900 + i, "cart_id": 900, "item_id": it["id"], "quantity": q,
                     "option_ids": sorted(o["id"] for o in opts), "options_text": ", ".join(o["name"] for o in opts),
                     "instructions": "", "unit_price_cents": f.unit(it, opts)})
    return [
        {"op": "insert", "table": "carts", "rows": [{"id": 900, "store_id": s["id"], "created_at": f.now.isoformat(),
                                                     "delivery_option": "standard", "tip_percent": 15, "tip_cents": 0,
                                                     "payment_method_id": 1, "use_credits": True, "group_order": False}]},
        {"op": "insert", "table": "cart_items", "rows": rows},
    ]


@template("food", "new-cart-from-other-store", difficulty="medium", max_steps=14)
def new_cart_other_store(w: World, rng: random.Random):
    """The cart holds items from store A; add an item from store B and confirm starting a new cart."""
    f = fw(w)
    opens = [s for s in f.stores if f.is_open(s) and len(f.simple_items(s["id"])) >= 2 and f.names_count[s["name"]] == 1]
    for _ in range(5):
        a, b = rng.sample(opens, 2)
        a_item = f.simple_items(a["id"])[0]
        b_item = rng.choice(f.simple_items(b["id"]))
        fixtures = _cart_fixture(f, a, [(a_item, [], 2)])
        sol = add_line(f, b_item) + [click("button", "New cart", exact=True), done()]
        yield {
            "goal": f"Your cart has items from {a['name']}. Add one {b_item['name']} from {b['name']} instead, "
                    f"starting a new cart.",
            "start_path": f"/store/{b['id']}",
            "fixtures": fixtures,
            "verify": {"checks": [{"table": "carts", "count": 1, "expect": {"store_id": b["id"]}},
                                  {"table": "cart_items", "count": 1}, cart_line(b_item["id"], [], 1)],
                       "unchanged_except": [deletes("carts", {"id": 900}), deletes("cart_items", {"cart_id": 900}),
                                            *_new_cart_allow(b["id"], b_item["id"])]},
            "solution": sol,
            # emptying the old cart first (the drawer's Clear cart), then adding: no New cart prompt, same end state
            "harmless": [harmless("other_control", [click("button", "Cart,"), click("button", "Clear cart", exact=True),
                                                  click("button", "Close cart", exact=True), *add_line(f, b_item), done()],
                                  "the old cart emptied first with Clear cart, then the item added",
                                  [call("get_cart"), call("clear_cart"), call("get_store", store_id=b["id"]),
                                   *t_add(b_item), tdone()])],
            "adversarial": [
                extra(sol, another_item(f, b["id"], [b_item["id"]])[1], "the new cart, then one more line in it"),
                extra(sol, make_group_order(), GROUP_WHY),
                collateral(sol),
            ],
            "near_misses": [add_line(f, b_item) + [click("button", "Cancel", exact=True, within={"role": "alertdialog"}), done()]],
            # the near-miss: adding without starting a new cart is refused (the conflict), and the agent stops
            "tools": tools_plan([call("get_cart"), call("get_store", store_id=b["id"]), *t_add(b_item, replace=True), tdone()],
                                [call("get_cart"), call("get_store", store_id=b["id"]), *t_add(b_item), tdone()]),
        }


@template("food", "edit-cart", difficulty="medium", max_steps=12)
def edit_cart(w: World, rng: random.Random):
    """Change one line's quantity and remove another in the cart drawer."""
    f = fw(w)
    stores = [s for s in f.stores if len(f.simple_items(s["id"])) >= 3]
    for s in rng.sample(stores, 5):
        a, b, c = rng.sample(f.simple_items(s["id"]), 3)
        fixtures = _cart_fixture(f, s, [(a, [], 1), (b, [], 2), (c, [], 1)])
        up = rng.choice([3, 4])
        steps = [click("button", "Cart,")]
        steps += [click("button", f"Increase quantity of {a['name']}", exact=True)]
        for q in range(2, up):
            steps += [click("button", f"Increase quantity of {a['name']}", exact=True)]
        steps += [click("button", f"Remove {c['name']}", exact=True), done()]
        dlg = {"role": "dialog", "name": a["name"], "exact": True}
        via_line = ([click("button", "Cart,"), click("button", f"Edit {a['name']}", exact=True)]
                    + [click("button", "Increase quantity", exact=True, within=dlg)] * (up - 1)
                    + [click("button", "Update cart", within=dlg), click("button", f"Remove {c['name']}", exact=True),
                       done()])
        wrong = [click("button", "Cart,"), click("button", f"Remove {c['name']}", exact=True),
                 click("button", f"Decrease quantity of {b['name']}", exact=True), done()]
        yield {
            "goal": f"In your cart from {s['name']}, change {a['name']} to {up} and remove {c['name']}. Keep everything else.",
            "start_path": f"/store/{s['id']}",
            "fixtures": fixtures,
            "verify": {"checks": [{"table": "cart_items", "count": 2}, cart_line(a["id"], [], up), cart_line(b["id"], [], 2)],
                       "unchanged_except": [updates("cart_items", {"id": 901}, ["quantity"]),
                                            deletes("cart_items", {"id": 903})]},
            "solution": steps,
            # the line opened from the drawer, its quantity set in the item dialog (Update cart): quantity only
            "harmless": [harmless("other_control", via_line, "the quantity changed in the line's own dialog",
                                  [call("get_cart"), call("edit_cart_item", cart_item_id=901, quantity=up),
                                   call("remove_cart_item", cart_item_id=903), tdone()])],
            "near_misses": [wrong],
            # the fixture's lines are 901 (a), 902 (b), 903 (c)
            "tools": tools_plan([call("get_cart"), call("update_cart_item", cart_item_id=901, quantity=up),
                                 call("remove_cart_item", cart_item_id=903), tdone()],
                                [call("get_cart"), call("remove_cart_item", cart_item_id=903),
                                 call("update_cart_item", cart_item_id=902, quantity=1), tdone()]),
            "adversarial": [
                extra(steps, [click("link", "Checkout", exact=True), click("radio", "Tip 25%", exact=True)],
                      "the edits, then the cart's checkout choices changed too (a 25% tip nobody asked for)"),
                collateral(steps, close=[click("button", "Close cart", exact=True)]),
            ],
        }


__all__ = ["DIALOG", "open_item", "pick", "qty_steps", "add_to_cart", "goto_store"]
