"""Judged Forkful tasks: reviews and notes to the kitchen whose success is a judgement (a fair complaint,
specific praise, an allergy note). State checks gate (the right order rated, one review, one cart line,
nothing else changed); an LLM judge grades the text (grading/judge.py), calibrated on each task's
labelled texts (tasks/templates/judged_lib.py)."""

from __future__ import annotations

import random

from tasks.templates.base import World
from tasks.templates.harmless import harmless
from tasks.templates.food._common import cancel_placed, extra, order_allow
from tasks.templates.food._lib import (add_line, call, click, created_order, done, fill, fw, goto_store, order_line,
                                       orders_page, place, recheck, t_add, t_recheck, tdone, template, to_checkout,
                                       tools_plan)
from tasks.templates.food.orders import open_stores, order_expect, pick_line
from tasks.templates.judged_lib import calibration, judge_check

REVIEW_MAX = 300  # the review box's maxlength


def _past(f):
    return [o for o in f.orders if o["status"] in ("delivered", "picked_up") and o["rating"] is None]


def _rate_steps(f, o, stars: int, text: str) -> list[dict]:
    s = f.store[o["store_id"]]
    return [click("button", "Account menu"), click("menuitem", "Orders", exact=True),
            click("link", f"Order #{o['id']} from {s['name']}", exact=True), click("button", "Rate order", exact=True),
            click("radio", f"{stars} star" + ("" if stars == 1 else "s"), exact=True),
            fill("textbox", "Review", text, exact=True), click("button", "Submit", exact=True), done()]


def _save_store(s) -> list[dict]:
    return [click("button", f"Save {s['name']}", exact=True)]


def _review_spec(o, s, stars: int, judge: dict) -> dict:
    return {"checks": [{"table": "orders", "where": {"id": o["id"]}, "count": 1, "expect": {"rating": stars},
                        "name": f"order rated {stars}"},
                       {"table": "reviews", "in": "created", "count": 1,
                        "expect": {"order_id": o["id"], "store_id": s["id"], "rating": stars}, "name": "one review"},
                       judge],
            "unchanged_except": [{"table": "orders", "where": {"id": o["id"]}, "fields": ["rating"]},
                                 {"table": "reviews", "ops": ["create"], "where": {"order_id": o["id"]}, "max": 1}]}


def _review_text() -> dict:
    return {"table": "reviews", "in": "created", "field": "text"}


def _main_item(f, o):
    lines = sorted(f.order_items[o["id"]], key=lambda oi: -oi["unit_price_cents"])
    return lines[0]["name"] if lines else None


def _review_task(f, o, stars: int, text: str, *, goal: str, rubric: list[str], context: str, name: str,
                 wrong_text: str, wrong_stars: int, calib: list[dict]) -> dict:
    """A judged review task: rate order `o` `stars` with `text`. Near-misses: the right stars with
    `wrong_text` (the judge fails it), the right text with `wrong_stars` (the state fails it); the
    adversarial: the right review, then the store saved."""
    s = f.store[o["store_id"]]
    return {
        "goal": goal,
        "start_path": "/",
        "verify": _review_spec(o, s, stars, judge_check(_review_text(), rubric, context, REVIEW_MAX, name)),
        "solution": _rate_steps(f, o, stars, text),
        "near_misses": [_rate_steps(f, o, stars, wrong_text), _rate_steps(f, o, wrong_stars, text)],
        "tools": tools_plan(_t_rate(o, stars, text), _t_rate(o, stars, wrong_text), _t_rate(o, wrong_stars, text)),
        # the order reopened from Orders after the review, to see it there
        "harmless": [harmless("check_work", recheck(_rate_steps(f, o, stars, text),
                                                    [*orders_page(), click("link", f"Order #{o['id']} from {s['name']}",
                                                                           exact=True)]),
                              "the order rated, then reopened from Orders to see the review",
                              t_recheck(_t_rate(o, stars, text), call("get_order", order_id=o["id"])))],
        "adversarial": [{"kind": "extra", "why": "the right review, then the store saved",
                         "steps": _rate_steps(f, o, stars, text)[:-1] + goto_store(s) + _save_store(s) + [done()]}],
        "calibration": calib,
    }


@template("food", "judged-review-complaint", difficulty="medium", max_steps=14, count=4, test_every=4, tags=("judged",))
def review_complaint(w: World, rng: random.Random):
    """Rate a past order 2 stars with a fair, polite review saying its main dish arrived squashed and leaking (judged)."""
    f = fw(w)
    orders = [o for o in _past(f) if _main_item(f, o) and f.names_count[f.store[o["store_id"]]["name"]] == 1]
    for k, o in enumerate(rng.sample(orders, len(orders))):
        s, item = f.store[o["store_id"]], _main_item(f, o)
        when = o["placed_at"]
        gold = [f"The {item} arrived squashed and leaking out of its container, which was disappointing. Please pack "
                "it more carefully next time.",
                f"Sadly my {item} was crushed and had leaked all over the bag when it got here. Friendly driver and the "
                "order was complete, but the packaging needs work."]
        praise = f"The {item} was hot, fresh and delicious. Will order again!"
        rude = f"The {item} was squashed and leaking. Absolutely useless kitchen, you people should be ashamed. Never again."
        vague = "It was okay I guess. Nothing special, nothing terrible either."
        hedge = f"The {item} may have been squashed, or maybe it was fine, hard to say. Could be better, could be worse."
        dump = ("Squashed: " + ", ".join(oi["name"] for oi in f.order_items[o["id"]]) + ". Also late, wrong, missing, "
                "soggy, salty, burnt, bland, small, expensive, leaking.")
        rubric = [f"Says the {item} arrived squashed or leaking (damaged packaging).",
                  "Is fair and polite: no insults, profanity, threats or sweeping attacks on the staff.",
                  f"Is a review of this order from {s['name']} only, with no unrelated content and no list of "
                  "complaints beyond the damaged dish."]
        context = (f"Order #{o['id']} from {s['name']} on {when.strftime('%B')} {when.day}: "
                   + ", ".join(f"{oi['quantity']} x {oi['name']}" for oi in f.order_items[o["id"]])
                   + f". The customer's complaint: the {item} arrived squashed and leaking.")
        yield _review_task(
            f, o, 2, gold[k % 2], wrong_text=praise, wrong_stars=4, rubric=rubric, context=context,
            goal=f"Rate your {when.strftime('%B')} {when.day} order from {s['name']} (order #{o['id']}) 2 stars, with "
                 f"a short, fair review saying the {item} arrived squashed and leaking. Keep it polite.",
            name=f"a fair review: the {item} arrived damaged",
            calib=calibration(gold, [("near_miss", praise, "praise, not the complaint"),
                                     ("rude", rude, "the complaint, with insults"),
                                     ("near_miss", vague, "says nothing about the dish"),
                                     ("hedge", hedge, "neither says it was cold nor that it was not")],
                              dump, REVIEW_MAX))


@template("food", "judged-review-praise", difficulty="medium", max_steps=14, count=4, test_every=4, tags=("judged",))
def review_praise(w: World, rng: random.Random):
    """Rate a past order 5 stars with a review praising its main dish by name (judged)."""
    f = fw(w)
    orders = [o for o in _past(f) if _main_item(f, o) and f.names_count[f.store[o["store_id"]]["name"]] == 1]
    for k, o in enumerate(rng.sample(orders, len(orders))):
        s, item = f.store[o["store_id"]], _main_item(f, o)
        when = o["placed_at"]
        others = [oi["name"] for oi in f.order_items[o["id"]] if oi["name"] != item]
        gold = [f"The {item} was excellent: fresh, generous and full of flavour. Arrived hot and on time. Will order again!",
                f"Loved the {item}! Perfectly cooked and well packed. One of the best I've had from {s['name']}."]
        generic = "Great food, fast delivery, would recommend."
        wrong_dish = f"The house salad was the star here, crisp and fresh. Highly recommend {s['name']}!"
        mixed = f"The {item} was fine but honestly overpriced and a bit bland. Not sure I'd order it again."
        dump = (f"Loved the {item}" + "".join(f", the {x}" for x in others) + ", the fries, the salad, the soup, the "
                "dessert, the drinks, the sauces, the bread, the rice, the noodles, the pizza, everything!")
        rubric = [f"Praises the {item} by name.",
                  "Is positive throughout (no complaints or backhanded remarks).",
                  f"Is a review of this order from {s['name']} only, with no unrelated content and no list of "
                  "every dish."]
        context = (f"Order #{o['id']} from {s['name']} on {when.strftime('%B')} {when.day}: "
                   + ", ".join(f"{oi['quantity']} x {oi['name']}" for oi in f.order_items[o["id"]]) + ".")
        yield _review_task(
            f, o, 5, gold[k % 2], wrong_text=generic, wrong_stars=3, rubric=rubric, context=context,
            goal=f"Rate your {when.strftime('%B')} {when.day} order from {s['name']} (order #{o['id']}) 5 stars, with "
                 f"a short review that praises the {item} specifically.",
            name=f"a review praising the {item}",
            calib=calibration(gold, [("near_miss", generic, "praise, but of no dish"),
                                     ("wrong_facts", wrong_dish, "praises a dish not in the order"),
                                     ("near_miss", mixed, "lukewarm, with complaints")], dump, REVIEW_MAX))


ALLERGENS = ["peanut", "sesame", "shellfish", "tree nut", "dairy"]


@template("food", "judged-allergy-note", difficulty="medium", max_steps=16, count=4, test_every=4, tags=("judged",))
def allergy_note(w: World, rng: random.Random):
    """Add an item to the cart with a note telling the kitchen about an allergy (judged)."""
    f = fw(w)
    cands = []
    for s in f.stores:
        if not f.is_open(s) or f.names_count[s["name"]] > 1:
            continue
        for it in f.items_by_store[s["id"]]:
            if f.cat_name(it) in ("Drinks", "Beverages", "Desserts"):
                continue
            req = f.required_groups(it)
            if len(req) == 1 and req[0]["max_select"] == 1 and len(f.groups_of(it)) <= 2:
                cands.append((s, it, req[0]))
    for k, (s, it, g) in enumerate(rng.sample(cands, 6)):
        opts = f.options_by_group[g["id"]]
        o = opts[0]
        a = ALLERGENS[k % len(ALLERGENS)]
        gold = [f"Severe {a} allergy: please make this with no {a} at all and use clean utensils to avoid cross-contact. "
                "Thank you!",
                f"Hi! I have a serious {a} allergy. Please keep this dish completely {a}-free, including sauces and "
                "toppings. Thanks so much."]
        no_allergy = "Extra napkins please, and sauce on the side. Thanks!"
        wrong_allergen = (f"Severe {ALLERGENS[(k + 1) % len(ALLERGENS)]} allergy: please make this with none at all. "
                          "Thank you!")
        rude = f"NO {a.upper()}. If there's {a} in it I'm reporting you. Don't mess it up."
        dump = ("Allergies: " + ", ".join(ALLERGENS) + ", gluten, egg, soy, fish, wheat, mustard, celery, lupin, "
                "sulphites, everything. No onions, no cilantro, extra sauce, no sauce.")
        rubric = [f"Tells the kitchen the customer has a {a} allergy.",
                  f"Asks them to keep the dish free of {a}.",
                  "Is a short, polite note to the kitchen, with no unrelated requests or content."]
        context = f"The note goes with a {it['name']} ({g['name']}: {o['name']}) from {s['name']}. The allergy: {a}."

        def add(note: str, item=it, opt=o, group=g) -> list[dict]:
            return add_line(f, item, [(group["name"], opt["name"])], note=note) + [done()]

        other = next(x for x in f.items_by_store[s["id"]] if x["id"] != it["id"] and not f.required_groups(x))
        text = gold[k % 2]
        yield {
            "goal": f"From {s['name']}, add a {it['name']} ({g['name']}: {o['name']}) to your cart, with a note telling "
                    f"the kitchen about your {a} allergy.",
            "start_path": f"/store/{s['id']}",
            "verify": {
                "checks": [{"table": "cart_items", "in": "created", "count": 1,
                            "expect": {"item_id": it["id"], "option_ids": [o["id"]], "quantity": 1},
                            "name": "one cart line"},
                           judge_check({"table": "cart_items", "in": "created", "field": "instructions"}, rubric,
                                       context, 300, f"a note about the {a} allergy")],
                "unchanged_except": [{"table": "carts", "ops": ["create"], "max": 1},
                                     {"table": "cart_items", "ops": ["create"], "max": 1}],
            },
            "solution": add(text),
            "near_misses": [add(no_allergy), add_line(f, other, [], note=text) + [done()]],
            "harmless": [harmless("check_work", recheck(add(text), [click("button", "Cart,")]),
                                  "the line added with its note, then the cart opened to see it",
                                  [call("get_store", store_id=s["id"]), *t_add(it, [o["id"]], note=text), call("get_cart"), tdone()])],
            "tools": tools_plan([call("get_store", store_id=s["id"]), *t_add(it, [o["id"]], note=text), tdone()],
                                [call("get_store", store_id=s["id"]), *t_add(it, [o["id"]], note=no_allergy), tdone()],
                                [call("get_store", store_id=s["id"]), *t_add(other, note=text), tdone()]),
            "adversarial": [{"kind": "extra", "why": "the right line, and the store saved",
                             "steps": _save_store(s) + add(text)}],
            "calibration": calibration(gold, [("near_miss", no_allergy, "a note, but not about the allergy"),
                                              ("wrong_facts", wrong_allergen, "another allergen"),
                                              ("rude", rude, "threatening")], dump, 300),
        }


@template("food", "judged-review-mixed", difficulty="medium", max_steps=14, count=4, test_every=4, tags=("judged",))
def review_mixed(w: World, rng: random.Random):
    """Rate a past order 3 stars with a balanced review: one dish good, another disappointing (judged)."""
    f = fw(w)
    orders = [o for o in _past(f) if len({oi["name"] for oi in f.order_items[o["id"]]}) >= 2
              and f.names_count[f.store[o["store_id"]]["name"]] == 1]
    for k, o in enumerate(rng.sample(orders, len(orders))):
        s = f.store[o["store_id"]]
        names = sorted({oi["name"] for oi in f.order_items[o["id"]]})
        good, bad = names[0], names[1]
        when = o["placed_at"]
        gold = [f"The {good} was really good, fresh and tasty. The {bad} was a letdown though: bland and a bit "
                "overcooked. Mixed experience overall.",
                f"Mixed bag. Loved the {good}, but the {bad} was disappointing, lukewarm and underseasoned. Would "
                f"order the {good} again."]
        swapped = f"The {bad} was really good, fresh and tasty. The {good} was a letdown though: bland and overcooked."
        all_good = f"Both the {good} and the {bad} were excellent. Perfect order!"
        only_bad = f"The {bad} was bland and overcooked. Disappointing."
        rant = f"The {bad} was garbage and whoever cooked it should be fired. The {good} was fine I guess."
        dump = ("Good: " + ", ".join(names) + ". Bad: " + ", ".join(names) + ". Everything was good and bad, "
                "hot and cold, fresh and stale.")
        rubric = [f"Praises the {good}.",
                  f"Says the {bad} was disappointing (and does not praise it).",
                  "Is balanced and polite: no insults or attacks on the staff, no unrelated content."]
        context = (f"Order #{o['id']} from {s['name']}: " + ", ".join(names)
                   + f". The customer liked the {good} and was disappointed by the {bad}.")
        yield _review_task(
            f, o, 3, gold[k % 2], wrong_text=swapped, wrong_stars=5, rubric=rubric, context=context,
            goal=f"Rate your {when.strftime('%B')} {when.day} order from {s['name']} (order #{o['id']}) 3 stars, with "
                 f"a short, balanced review: the {good} was good, the {bad} was disappointing.",
            name=f"good {good}, disappointing {bad}",
            calib=calibration(gold, [("wrong_facts", swapped, "the dishes swapped"),
                                     ("near_miss", all_good, "no disappointment"),
                                     ("near_miss", only_bad, "no praise"),
                                     ("rude", rant, "insults")], dump, REVIEW_MAX))


def _t_rate(o, stars: int, text: str) -> list[dict]:
    """Tool calls: find the order among the store's past orders, rate it."""
    return [call("list_orders", status="past", store_id=o["store_id"]),
            call("rate_order", order_id=o["id"], stars=stars, review=text), tdone()]


# (what the courier must know, what they should do, a note that does the opposite); the gold notes are
# written from these two facts, the near-misses leave one out or contradict it.
DROPOFF = [
    ("the building's front door is locked in the evening", "use the side entrance and call when they arrive",
     "Front door is locked in the evening. Please use the side entrance and call me when you arrive. Thank you!",
     "Hi! Our front door gets locked in the evening, so please come round to the side entrance and give me a call "
     "when you're here. Thanks!",
     "Please ring the front door bell and wait there. Thank you!"),
    ("the doorbell is broken", "text when they are outside instead of ringing",
     "The doorbell is broken, so please send me a text when you're outside instead of ringing. Thanks!",
     "Hi, our doorbell doesn't work. Could you text me once you're outside rather than ringing? Thank you!",
     "Please ring the doorbell twice when you arrive. Thank you!"),
    ("the elevator is out of service", "leave the order with the concierge in the lobby",
     "Our elevator is out of service, so please leave the order with the concierge in the lobby. Thank you!",
     "Hi! The elevator is broken at the moment. Please just hand the bag to the concierge at the lobby desk. Thanks "
     "so much!",
     "Please bring it up to the fourth floor and knock on the door. Thanks!"),
    ("a baby is sleeping", "not knock or ring, and leave the bag at the door",
     "Baby sleeping! Please don't knock or ring; just leave the bag at the door. Thank you!",
     "Hi, we have a sleeping baby, so please leave the order at the door without knocking or ringing the bell. "
     "Thanks a lot!",
     "Please knock loudly and hand the bag to me in person. Thanks!"),
]


@template("food", "judged-dropoff-note", difficulty="medium", max_steps=20, count=4, test_every=4, tags=("judged",))
def dropoff_note(w: World, rng: random.Random):
    """Order an item for delivery with drop-off instructions of your own telling the courier a situation and what
    to do about it (judged)."""
    f = fw(w)
    for k, s in enumerate(rng.sample(open_stores(f), 4)):
        it, opts, rows = pick_line(f, s, rng)
        fact, ask, *gold, wrong = DROPOFF[k % len(DROPOFF)]
        other, other_opts, other_rows = pick_line(f, s, rng)
        if other["id"] == it["id"]:
            other = next(x for x in f.items_by_store[s["id"]] if x["id"] != it["id"] and not f.required_groups(x))
            other_opts, other_rows = [], []
        no_ask = f"Just so you know, {fact}. Thanks!"
        no_fact = f"Please {ask}."
        rude = f"{fact.capitalize()}. I shouldn't have to tell you twice: {ask}. Don't mess this up."
        # every instruction and its opposite, short enough to reach the judge (not cut by the length bound)
        dump = ("Ring; don't ring; knock; don't knock; call; text; don't call; leave it at the door; hand it to me; "
                "front door; side entrance; concierge; lobby; porch; upstairs.")
        rubric = [f"Tells the courier that {fact}.",
                  f"Asks them to {ask}, and gives no contrary instruction.",
                  "Is a short, polite note to the courier, with no unrelated content."]
        context = (f"Drop-off instructions for a delivery from {s['name']} to {f.cur_addr['street']}. The customer "
                   f"wants the courier to know that {fact}, and to {ask}.")
        sub = f.unit(it, rows)
        text = gold[k % 2]

        def order(note: str, item=it, chosen=opts) -> list[dict]:
            return [*add_line(f, item, chosen), *to_checkout(),
                    fill("textbox", "Drop-off instructions", note, exact=True), *place(), done()]

        def t_order(note: str, item=it, chosen=rows) -> list[dict]:
            return [call("get_store", store_id=s["id"]), *t_add(item, [r["id"] for r in chosen]), call("get_checkout"),
                    call("place_order", instructions=note), tdone()]

        expect = order_expect(f, s, sub)
        del expect["instructions"]  # the judged text: graded by the judge check below, not matched
        # The checkout's drop-off choice beside the note: "Hand it to me" fits a courier asked to call, text or
        # hand the bag to the concierge as well as the address's own "Leave it at my door"; only a note asking
        # to leave the bag at the door pins it (was pinned to the address's choice always: over-strict).
        handed = "leave the bag at the door" not in ask
        if handed:
            expect["dropoff"] = {"$in": ["door", "hand"]}
        desc = it["name"] + (f" ({'; '.join(f'{g}: {o}' for g, o in opts)})" if opts else "")
        sol = order(text)
        yield {
            "goal": f"Order 1 \u00d7 {desc} from {s['name']} for standard delivery to your current address, with "
                    f"drop-off instructions of your own telling the courier that {fact}, and asking them to {ask}.",
            "start_path": f"/store/{s['id']}",
            "verify": {"checks": created_order(expect, 1) + [order_line(it["id"], [r["id"] for r in rows], 1),
                                                             judge_check({"table": "orders", "in": "created",
                                                                          "field": "instructions"}, rubric, context,
                                                                         300, "tells the courier what to do")],
                       "unchanged_except": order_allow(s["id"], [it["id"]], 1)},
            "solution": sol,
            "harmless": [harmless("other_control", [*sol[:-2], click("radio", "Hand it to me", exact=True), *sol[-2:]],
                                  "the checkout's 'Hand it to me' chosen beside the note",
                                  [*t_order(text)[:-2], call("place_order", dropoff="hand", instructions=text), tdone()])]
                        if handed else
                        # the door is the note's own ask: the order placed, then Orders opened to see it in progress
                        [harmless("check_work", recheck(sol, orders_page()),
                                  "the order placed with the note, then the Orders page opened to see it in progress",
                                  t_recheck(t_order(text), call("list_orders", status="active")))],
            "near_misses": [order(no_ask), order(text, other, other_opts)],
            "tools": tools_plan(t_order(text), t_order(no_ask), t_order(text, other, other_rows)),
            "adversarial": [extra(sol, cancel_placed(), "the order placed with the right note, then cancelled")],
            "calibration": calibration(gold, [("near_miss", no_ask, "says the situation, not what to do"),
                                              ("near_miss", no_fact, "what to do, not why"),
                                              ("wrong_facts", wrong, "asks the opposite"),
                                              ("rude", rude, "rude to the courier")], dump, 300),
        }
