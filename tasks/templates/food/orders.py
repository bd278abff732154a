"""Ordering templates: checkout with tips, pickup, promos, express, addresses, scheduling, reorders."""

from __future__ import annotations

import datetime as dt
import random

from domain import food as logic
from tasks.templates.base import World
from tasks.templates.harmless import harmless
from tasks.templates.food._common import cancel_placed, collateral, extra, order_allow, reorder_placed, user_update
from tasks.templates.food._lib import (
    add_line,
    call,
    checkout_address,
    click,
    created_order,
    done,
    fill,
    fw,
    goto_store,
    iso,
    order_line,
    orders_page,
    place,
    price,
    recheck,
    t_add,
    t_recheck,
    tdone,
    template,  # noqa: E402  (max_steps from the solution)
    to_checkout,
    tools_plan,
)


def _t_line(s, it, rows, q=1) -> list[dict]:
    """Tool calls: open the store's page (the menu), then add the line."""
    return [call("get_store", store_id=s["id"]), *t_add(it, [r["id"] for r in rows], q)]


def _t_place(**place_args) -> list[dict]:
    """Tool calls: read the checkout's totals, place the order, done."""
    return [call("get_checkout"), call("place_order", **place_args), tdone()]

USER_MODE = user_update("mode")


def _adversarial(sol: list[dict]) -> list[dict]:
    """The order placed, then Reorder on its page: a second cart left behind (the one more create of the
    kind the order made); and the app-wide collateral."""
    return [extra(sol, reorder_placed(), "the order placed, then reordered at once: a new cart left behind"),
            extra(sol, cancel_placed(), "the order placed, then cancelled at once: no order stands"),
            collateral(sol)]


def _orders_checked(inst: dict) -> dict:
    """An order template's instance with the harmless check_work variant added: the gold order placed, then the
    Orders page opened (UI) or the active orders listed (tools) to see it there."""
    inst["harmless"] = [*inst.get("harmless", []), harmless(
        "check_work", recheck(inst["solution"], orders_page()), "the order placed, then the Orders page opened to see it",
        t_recheck(inst["tools"]["solution"], call("list_orders", status="active")))]
    return inst


def _line_desc(it, opts):
    if not opts:
        return it["name"]
    return f"{it['name']} ({'; '.join(f'{g}: {o}' for g, o in opts)})"


def pick_line(f, s, rng, simple_ok=True, max_groups=2):
    """A random item of store `s` and a choice for each of its required groups."""
    cands = [i for i in f.items_by_store[s["id"]] if len(f.required_groups(i)) <= max_groups
             and all(g["max_select"] == 1 for g in f.required_groups(i))
             and (simple_ok or f.required_groups(i)) and f.cat_name(i) not in ("Drinks", "Beverages")]
    it = rng.choice(cands)
    opts = []
    for g in f.required_groups(it):
        o = rng.choice(f.options_by_group[g["id"]])
        opts.append((g["name"], o["name"]))
    rows = [f.option(it, g, o) for g, o in opts]
    return it, opts, rows


def open_stores(f, pickup=False):
    return [s for s in f.stores if f.status(s) == "open" and f.names_count[s["name"]] == 1
            and (not pickup or s["offers_pickup"])]


def order_expect(f, s, subtotal, *, mode="delivery", option="standard", tip=15, tip_custom=0, promo=None,
                 addr=None, dropoff=None, instructions=None, scheduled=None, payment=1):
    addr = addr or f.cur_addr
    t = f.totals(s, subtotal, mode=mode, option=option, tip=tip if mode == "delivery" else None,
                 tip_custom=tip_custom, promo=promo)
    e = {"store_id": s["id"], "mode": mode, "delivery_option": option, "promo_id": promo["id"] if promo else None,
         "payment_method_id": payment, "subtotal_cents": subtotal, "tip_cents": t["tip_cents"],
         "discount_cents": t["discount_cents"], "total_cents": t["total_cents"],
         "scheduled_for": iso(scheduled) if scheduled else None,
         # placed (or scheduled) and still standing: an order cancelled right after placing is no order
         "status": "scheduled" if scheduled else "placed"}
    if mode == "delivery":
        e.update({"address_id": addr["id"], "tip_percent": tip, "dropoff": dropoff or addr["dropoff"],
                  "instructions": instructions if instructions is not None else addr["instructions"]})
    else:
        e.update({"address_id": None, "tip_percent": None})
    return e


@template("food", "order-with-tip", difficulty="medium", max_steps=18)
def order_with_tip(w: World, rng: random.Random):
    """Order items for standard delivery with a given tip percentage."""
    f = fw(w)
    for k, s in enumerate(rng.sample(open_stores(f), 5)):
        it, opts, rows = pick_line(f, s, rng)
        q = rng.choice([1, 2])
        tip = [20, 25, 20, 25, 20][k]
        sub = f.unit(it, rows) * q
        steps = [*add_line(f, it, opts, q), *to_checkout()]
        yield _orders_checked({
            "goal": f"Order {q} × {_line_desc(it, opts)} from {s['name']} for standard delivery to your current address, "
                    f"with a {tip}% courier tip.",
            "start_path": f"/store/{s['id']}",
            "verify": {"checks": created_order(order_expect(f, s, sub, tip=tip), 1)
                       + [order_line(it["id"], [r["id"] for r in rows], q)],
                       "unchanged_except": order_allow(s["id"], [it["id"]], 1)},
            "solution": (sol := steps + [click("radio", f"Tip {tip}%", exact=True)] + place() + [done()]),
            "adversarial": _adversarial(sol),
            "near_misses": [steps + place() + [done()]],
            "tools": tools_plan(_t_line(s, it, rows, q) + [call("set_checkout_options", tip_percent=tip)] + _t_place(),
                                _t_line(s, it, rows, q) + _t_place()),
        })


@template("food", "order-ramen-pickup-best-rated", difficulty="medium", max_steps=26)
def order_ramen_pickup(w: World, rng: random.Random):
    """Two bowls of a ramen from the best-rated Japanese/ramen place under 30 min, an add-on on one, pickup."""
    f = fw(w)
    dishes = ["Tonkotsu Ramen", "Miso Ramen", "Shoyu Ramen", "Spicy Miso Ramen", "Shio Ramen", "Vegetable Ramen",
              "Tantanmen", "Spicy Tonkotsu Ramen", "Black Garlic Tonkotsu", "Vegan Ramen"]
    addons = ["Extra egg", "Corn", "Extra chashu", "Nori", "Bamboo shoots"]
    seen_store = set()
    k = 0
    for dish in dishes:
        cands = [s for s in f.stores if f.cuisine_of(s)["slug"] in ("japanese", "ramen") and f.menu_item(s["id"], dish)
                 and f.is_open(s) and f.eta(s) <= 30 and s["offers_pickup"]]
        if not cands:
            continue
        cands.sort(key=lambda s: (-s["rating"], s["id"]))
        if len(cands) > 1 and cands[1]["rating"] == cands[0]["rating"]:
            continue
        best = cands[0]
        if (best["id"], dish) in seen_store:
            continue
        seen_store.add((best["id"], dish))
        it = f.menu_item(best["id"], dish)
        add = addons[k % len(addons)]
        o = f.option(it, "Add-ons", add)
        sub = f.unit(it, [o]) + f.unit(it, [])
        steps = [click("link", "Japanese", exact=True) if f.cuisine_of(best)["slug"] == "japanese" else click("link", "Ramen", exact=True),
                 click("button", "Under 30 min", exact=True), click("link", best["name"], exact=True),
                 *add_line(f, it, [("Add-ons", add)]), *add_line(f, it), *to_checkout(),
                 click("radio", "Pickup", exact=True)]
        k += 1
        yield {
            "goal": f"Order two bowls of {dish} for pickup from the best-rated Japanese or Ramen restaurant that "
                    f"delivers in under 30 minutes and serves it. Add {add.lower()} to one of the two bowls only.",
            "start_path": "/",
            "verify": {"checks": created_order(order_expect(f, best, sub, mode="pickup"), 2)
                       + [order_line(it["id"], [o["id"]], 1), order_line(it["id"], [], 1)],
                       "unchanged_except": order_allow(best["id"], [it["id"]], 2, USER_MODE)},
            "solution": (sol := steps + place() + [done()]),
            "adversarial": _adversarial(sol),
            "near_misses": [steps[:-1] + place() + [done()]],
            # Pickup chosen with the header's Delivery/Pickup switch (after the bowls are in the cart) instead of the
            # checkout's Pickup radio: the same users.mode the checkout sets
            "harmless": [harmless("other_control", [*steps[:-3], click("button", "Pickup", exact=True), *to_checkout(), *place(),
                                                    done()],
                                  "pickup chosen with the header's switch before checkout",
                                  [call("list_stores", cuisine=f.cuisine_of(best)["slug"], under_30_min=True, sort="rating", limit=5),
                                   call("get_store", store_id=best["id"]), *t_add(it, [o["id"]]), *t_add(it),
                                   call("set_delivery_mode", mode="pickup"), *_t_place()])],
            "tools": tools_plan(
                (t_steps := [call("list_stores", cuisine=f.cuisine_of(best)["slug"], under_30_min=True, sort="rating", limit=5),
                             call("get_store", store_id=best["id"]), *t_add(it, [o["id"]]), *t_add(it)])
                + [call("set_checkout_options", mode="pickup")] + _t_place(),
                t_steps + _t_place()),
        }


def _promo_cases(f, rng, general_only=True):
    t = f.now
    promos = [p for p in f.promos if p["store_id"] is None and not p["members_only"] and p["expires_at"] > t
              and p["kind"] != "delivery"]
    return promos


@template("food", "order-with-promo", difficulty="medium", max_steps=20)
def order_with_promo(w: World, rng: random.Random):
    """Order enough to meet a promo's minimum and apply its code at checkout."""
    f = fw(w)
    promos = _promo_cases(f, rng)
    stores = open_stores(f)
    rng.shuffle(stores)
    k = 0
    for s in stores:
        if k >= 5:
            break
        p = promos[k % len(promos)]
        it, opts, rows = pick_line(f, s, rng)
        unit = f.unit(it, rows)
        q = max(1, -(-p["min_subtotal_cents"] // unit))
        if q > 4:
            continue
        sub = unit * q
        if logic.promo_error(p, s, f.user, sub, "delivery", f.now) is not None:
            continue
        steps = [*add_line(f, it, opts, q), *to_checkout()]
        k += 1
        yield _orders_checked({
            "goal": f"Order {q} × {_line_desc(it, opts)} from {s['name']} for delivery and use promo code {p['code']}.",
            "start_path": f"/store/{s['id']}",
            "verify": {"checks": created_order(order_expect(f, s, sub, promo=p), 1)
                       + [order_line(it["id"], [r["id"] for r in rows], q)],
                       "unchanged_except": order_allow(s["id"], [it["id"]], 1)},
            "solution": (sol := steps + [fill("textbox", "Promo code", p["code"], exact=True),
                                         click("button", "Apply", exact=True)] + place() + [done()]),
            "adversarial": _adversarial(sol),
            "near_misses": [steps + place() + [done()]],
            "tools": tools_plan(_t_line(s, it, rows, q) + [call("apply_promo", code=p["code"])] + _t_place(),
                                _t_line(s, it, rows, q) + _t_place()),
        })


@template("food", "order-express-to-work", difficulty="medium", max_steps=22)
def order_express_work(w: World, rng: random.Random):
    """Switch the address at checkout, choose Express and 'Hand it to me'."""
    f = fw(w)
    work = next(a for a in f.addr.values() if a["label"] == "Work")
    for s in rng.sample(open_stores(f), 5):
        it, opts, rows = pick_line(f, s, rng)
        sub = f.unit(it, rows)
        steps = [*add_line(f, it, opts, 1), *to_checkout(), *checkout_address("Work")]
        tail = [click("radio", "Hand it to me", exact=True)] + place() + [done()]
        exp = order_expect(f, s, sub, option="express", addr=work, dropoff="hand")
        # the other natural order: Work chosen in the header first (the current address the goal changes)
        header = [click("button", "Delivery address:"), click("button", "Deliver to Work,"), *add_line(f, it, opts, 1),
                  *to_checkout(), click("radio", "Express", exact=True)] + tail
        # express ETA/fee do not depend on the address, the total does not either (fees are per store)
        yield {
            "goal": f"Order {_line_desc(it, opts)} from {s['name']} with Express delivery to your Work address, "
                    f"and ask the courier to hand it to you.",
            "start_path": f"/store/{s['id']}",
            "verify": {"checks": created_order(exp, 1) + [order_line(it["id"], [r["id"] for r in rows], 1)],
                       "unchanged_except": order_allow(s["id"], [it["id"]], 1, user_update("current_address_id"))},
            "solution": (sol := steps + [click("radio", "Express", exact=True)] + tail),
            "harmless": [harmless("other_control", header, "the Work address chosen in the header before shopping",
                                  [call("get_account"), call("select_address", address_id=work["id"]),
                                   *_t_line(s, it, rows), call("set_checkout_options", delivery_option="express"),
                                   *_t_place(dropoff="hand")])],
            "adversarial": _adversarial(sol),
            "near_misses": [steps + tail],
            "tools": tools_plan(
                (t_steps := _t_line(s, it, rows) + [call("get_account"), call("select_address", address_id=work["id"])])
                + [call("set_checkout_options", delivery_option="express")] + _t_place(dropoff="hand"),
                t_steps + _t_place(dropoff="hand")),
        }


@template("food", "order-custom-tip-instructions", difficulty="medium", max_steps=20)
def order_custom_tip(w: World, rng: random.Random):
    """A custom dollar tip and new drop-off instructions."""
    f = fw(w)
    notes = ["Call when you arrive", "Leave it with the doorman", "Ring twice, the bell is quiet",
             "Gate code 4321", "Please don't knock, baby sleeping"]
    for k, s in enumerate(rng.sample(open_stores(f), 5)):
        it, opts, rows = pick_line(f, s, rng)
        q = rng.choice([1, 2])
        sub = f.unit(it, rows) * q
        tip_c = rng.choice([300, 450, 500, 600, 750])
        note = notes[k]
        steps = [*add_line(f, it, opts, q), *to_checkout(), fill("textbox", "Drop-off instructions", note, exact=True),
                 click("radio", "Other tip amount", exact=True)]
        tip_txt = f"{tip_c // 100}.{tip_c % 100:02d}"
        yield _orders_checked({
            "goal": f"Order {q} × {_line_desc(it, opts)} from {s['name']} for delivery. Tip the courier exactly "
                    f"{price(tip_c)} and set the drop-off instructions to “{note}”.",
            "start_path": f"/store/{s['id']}",
            "verify": {"checks": created_order(order_expect(f, s, sub, tip=None, tip_custom=tip_c, instructions=note), 1)
                       + [order_line(it["id"], [r["id"] for r in rows], q)],
                       "unchanged_except": order_allow(s["id"], [it["id"]], 1)},
            "solution": (sol := steps + [fill("textbox", "Custom tip amount", tip_txt, exact=True),
                                         click("button", "Save tip", exact=True)] + place() + [done()]),
            "adversarial": _adversarial(sol),
            "near_misses": [steps[:-2] + [click("radio", "Tip 25%", exact=True)] + place() + [done()]],
            "tools": tools_plan(
                _t_line(s, it, rows, q) + [call("set_checkout_options", tip_amount_cents=tip_c)] + _t_place(instructions=note),
                _t_line(s, it, rows, q) + [call("set_checkout_options", tip_percent=25)] + _t_place()),
        })


@template("food", "schedule-closed-store", difficulty="hard", max_steps=24)
def schedule_closed_store(w: World, rng: random.Random):
    """The store is closed now: schedule the order for a given time tomorrow."""
    f = fw(w)
    closed = [s for s in f.stores if f.status(s) == "closed" and f.names_count[s["name"]] == 1]
    tomorrow = f.now.date() + dt.timedelta(days=1)
    rng.shuffle(closed)
    k = 0
    for s in closed:
        if k >= 5:
            break
        slots = logic.schedule_slots(s, f.now, tomorrow)
        if len(slots) < 3:
            continue
        slot = slots[min(len(slots) - 1, 2 + (k * 3) % max(1, len(slots) - 2))]
        other = next(t for t in slots if t != slot)
        it, opts, rows = pick_line(f, s, rng)
        sub = f.unit(it, rows)
        steps = [*add_line(f, it, opts, 1), *to_checkout(), click("radio", "Schedule", exact=True),
                 click("tab", "Tomorrow", exact=True)]
        fin = [click("button", "Set delivery time", exact=True)] + place() + [done()]
        k += 1
        yield _orders_checked({
            "goal": f"{s['name']} is closed right now. Schedule a delivery of {_line_desc(it, opts)} from them for "
                    f"tomorrow, in the {logic.slot_label(slot)} window.",
            "start_path": f"/store/{s['id']}",
            "verify": {"checks": created_order(order_expect(f, s, sub, option="scheduled", scheduled=slot), 1)
                       + [order_line(it["id"], [r["id"] for r in rows], 1),
                          {"table": "orders", "in": "created", "expect": {"status": "scheduled"}}],
                       "unchanged_except": order_allow(s["id"], [it["id"]], 1)},
            "solution": (sol := steps + [click("radio", logic.slot_label(slot), exact=True)] + fin),
            "adversarial": _adversarial(sol),
            "near_misses": [steps + [click("radio", logic.slot_label(other), exact=True)] + fin],
            "tools": tools_plan(
                _t_line(s, it, rows) + [call("list_delivery_times"),
                                        call("set_checkout_options", delivery_option="scheduled", scheduled_for=_slot(slot))] + _t_place(),
                _t_line(s, it, rows) + [call("list_delivery_times"),
                                        call("set_checkout_options", delivery_option="scheduled", scheduled_for=_slot(other))] + _t_place()),
        })


@template("food", "order-best-promo", difficulty="hard", max_steps=24)
def order_best_promo(w: World, rng: random.Random):
    """Find, among the Offers page's codes, the one that saves the most on this cart, and use it."""
    f = fw(w)
    valid_pool = [p for p in f.promos if p["expires_at"] > f.now and p["featured"]]
    stores = open_stores(f)
    rng.shuffle(stores)
    k = 0
    for s in stores:
        if k >= 5:
            break
        it, opts, rows = pick_line(f, s, rng)
        q = rng.choice([2, 3, 4])
        sub = f.unit(it, rows) * q
        ranked = []
        dfee = logic.delivery_fee(s, f.user, sub, "delivery", f.now)
        for p in valid_pool:
            if logic.promo_error(p, s, f.user, sub, "delivery", f.now) is None:
                ranked.append((logic.promo_discount(p, sub, dfee), -p["id"], p))
        ranked.sort(reverse=True)
        if len(ranked) < 2 or ranked[0][0] == ranked[1][0]:
            continue
        best, second = ranked[0][2], ranked[1][2]
        assert best is logic.best_promo(valid_pool, store=s, user=f.user, subtotal=sub, mode="delivery", now=f.now)
        steps = [*add_line(f, it, opts, q), *to_checkout()]
        k += 1
        yield {
            "goal": f"Order {q} × {_line_desc(it, opts)} from {s['name']} for delivery, using whichever promo code "
                    f"from the Offers page saves you the most on this order.",
            "start_path": f"/store/{s['id']}",
            "verify": {"checks": created_order(order_expect(f, s, sub, promo=best), 1)
                       + [order_line(it["id"], [r["id"] for r in rows], q)],
                       "unchanged_except": order_allow(s["id"], [it["id"]], 1)},
            "solution": (sol := steps + [fill("textbox", "Promo code", best["code"], exact=True),
                                         click("button", "Apply", exact=True)] + place() + [done()]),
            "adversarial": _adversarial(sol),
            "near_misses": [steps + [fill("textbox", "Promo code", second["code"], exact=True),
                                     click("button", "Apply", exact=True)] + place() + [done()]],
            # the runner-up code tried first, compared, removed, then the best one applied
            "harmless": [harmless("other_control", [*steps, fill("textbox", "Promo code", second["code"], exact=True),
                                                    click("button", "Apply", exact=True),
                                                    click("button", f"Remove promo {second['code']}", exact=True),
                                                    *sol[len(steps):]],
                                  "another Offers code tried first, then replaced by the one that saves the most",
                                  [*_t_line(s, it, rows, q), call("list_offers"), call("apply_promo", code=second["code"]),
                                   call("apply_promo", code=best["code"]), *_t_place()])],
            "tools": tools_plan(
                _t_line(s, it, rows, q) + [call("list_offers"), call("apply_promo", code=best["code"])] + _t_place(),
                _t_line(s, it, rows, q) + [call("list_offers"), call("apply_promo", code=second["code"])] + _t_place()),
        }


@template("food", "reorder-swap-drink", difficulty="hard", max_steps=40)
def reorder_swap_drink(w: World, rng: random.Random):
    """Reorder last Friday's order with a different drink, the best promo, a 20% tip, scheduled tomorrow."""
    f = fw(w)
    fri = (f.now - dt.timedelta(days=7)).date()
    o = next(o for o in f.orders if o["placed_at"].date() == fri)
    s = f.store[o["store_id"]]
    lines = f.order_items[o["id"]]
    drink_lines = [oi for oi in lines if f.cat_name(f.item[oi["item_id"]]) in ("Drinks", "Beverages")]
    assert drink_lines, "last Friday's order must include a drink"
    old = drink_lines[0]
    drinks = [i for i in f.items_by_store[s["id"]] if f.cat_name(i) in ("Drinks", "Beverages")
              and i["id"] != old["item_id"] and not i["group_ids"]]
    tomorrow = f.now.date() + dt.timedelta(days=1)
    slots = logic.schedule_slots(s, f.now, tomorrow)
    times = [t for t in slots if t.hour in (18, 19, 20)]
    pool = [p for p in f.promos if p["expires_at"] > f.now and p["featured"]]
    for k in range(5):
        new = drinks[k % len(drinks)]
        slot = times[(k * 2) % len(times)]
        kept = [oi for oi in lines if oi["id"] != old["id"]]
        sub = sum(oi["unit_price_cents"] * oi["quantity"] for oi in kept) + new["price_cents"] * old["quantity"]
        best = logic.best_promo(pool, store=s, user=f.user, subtotal=sub, mode="delivery", now=f.now)
        steps = [click("button", "Account menu"), click("menuitem", "Orders", exact=True),
                 click("button", f"Reorder order #{o['id']}", exact=True),
                 click("button", f"Remove {old['name']}", exact=True)] if old["quantity"] == 1 else None
        if steps is None:
            steps = [click("button", "Account menu"), click("menuitem", "Orders", exact=True),
                     click("button", f"Reorder order #{o['id']}", exact=True)]
            steps += [click("button", f"Decrease quantity of {old['name']}", exact=True)] * (old["quantity"] - 1)
            steps += [click("button", f"Remove {old['name']}", exact=True)]
        steps += [click("button", "Close cart", exact=True), *add_line(f, new, qty=old["quantity"]), *to_checkout(),
                  click("radio", "Schedule", exact=True), click("tab", "Tomorrow", exact=True),
                  click("radio", logic.slot_label(slot), exact=True), click("button", "Set delivery time", exact=True)]
        promo_steps = [fill("textbox", "Promo code", best["code"], exact=True), click("button", "Apply", exact=True)] if best else []
        tip_step = [click("radio", "Tip 20%", exact=True)]
        checks = created_order(order_expect(f, s, sub, option="scheduled", scheduled=slot, tip=20, promo=best),
                               len(kept) + 1)
        checks += [order_line(oi["item_id"], oi["option_ids"], oi["quantity"]) for oi in kept]
        checks += [order_line(new["id"], [], old["quantity"])]
        yield _orders_checked({
            "goal": f"Reorder last Friday's order from {s['name']}, but swap the {old['name']} for {new['name']} "
                    f"(same quantity). Use the best valid promo code from the Offers page, tip 20%, and schedule it for "
                    f"tomorrow at {logic.fmt_hour(slot)} (the {logic.slot_label(slot)} window).",
            "start_path": "/",
            "verify": {"checks": checks, "unchanged_except": order_allow(
                s["id"], [oi["item_id"] for oi in kept] + [new["id"]], len(kept) + 1)},
            "solution": (sol := steps + promo_steps + tip_step + place() + [done()]),
            "adversarial": _adversarial(sol),
            "near_misses": [steps + tip_step + place() + [done()]],
            "tools": tools_plan(
                (t_steps := [call("list_orders", status="past", store_id=s["id"]), call("get_order", order_id=o["id"]),
                             call("reorder", order_id=o["id"]), call("remove_cart_item", cart_item_id=_reordered_id(f, lines, old)),
                             call("get_store", store_id=s["id"]), *t_add(new, qty=old["quantity"]), call("list_delivery_times"),
                             call("set_checkout_options", delivery_option="scheduled", scheduled_for=_slot(slot), tip_percent=20)])
                + ([call("list_offers"), call("apply_promo", code=best["code"])] if best else []) + _t_place(),
                t_steps + _t_place()),
        })


def _slot(t: dt.datetime) -> str:
    """A schedule window's start as list_delivery_times gives it."""
    return t.isoformat(timespec="minutes")


def _reordered_id(f, lines: list[dict], line: dict) -> int:
    """The cart_item_id Reorder gives `line`: the world has no cart lines, so they are numbered from 1 in the
    order's line order (get_cart shows them)."""
    assert not f.w.table("cart_items"), "reorder ids assume an empty cart_items table"
    return 1 + [oi["id"] for oi in lines].index(line["id"])
