"""Retrieval templates: answer with done(answer); nothing in the world may change."""

from __future__ import annotations

import random
import re

from domain import food as logic
from tasks.templates.answer_text import no_hedge
from tasks.templates.base import World
from tasks.templates.harmless import harmless
from tasks.templates.food._common import distinct
from tasks.templates.food._lib import call, click, done, fill, fw, goto_store, tdone, template, tools_plan


def _num(v: float) -> dict:
    return {"$number": {"$approx": v, "$tol": 0.005}}


def _name_re(name: str) -> str:
    """A store name as a regex: runs of spaces as \\s+, either apostrophe, whole words only."""
    words = ["".join("['’]" if ch in "'’" else re.escape(ch) for ch in w) for w in name.split()]
    return r"(?<!\w)" + r"\s+".join(words) + r"(?!\w)"


def name_answer(gold: str, rivals: list[str]) -> dict:
    """The answer names the store `gold`, alone or in a sentence ("The best-rated one is Sakura Sushi."),
    and names none of its `rivals` (the world's competing answers: a hedge or a list of candidates fails).
    One anchored regex without alternation (a closed matcher for tasks/integrity.py and grading.lint): a
    negative lookahead per rival and one for hedging words ("X or some other place", "maybe X": answer_text),
    then the gold name anywhere. A rival the gold name itself contains is
    left out, so the gold never excludes itself."""
    folded = " ".join(gold.split()).casefold()
    ex = []
    for r in rivals:
        q = " ".join(r.split()).casefold()
        if q and q not in folded and r not in ex:
            ex.append(r)
    look = "".join(f"(?!.*{_name_re(r)})" for r in ex)
    return {"$regex": f"^{no_hedge(gold)}{look}.*{_name_re(gold)}.*$", "$options": "is"}


@template("food", "lookup-delivery-fee", difficulty="easy", max_steps=8)
def lookup_fee(w: World, rng: random.Random):
    """Read a store's delivery fee off its page."""
    f = fw(w)
    stores = [s for s in f.stores if f.names_count[s["name"]] == 1 and s["delivery_fee_cents"] > 0]
    for s in rng.sample(stores, 5):
        other = next(x for x in stores if x["delivery_fee_cents"] != s["delivery_fee_cents"])
        fee = s["delivery_fee_cents"] / 100
        gold = logic.money(s["delivery_fee_cents"])
        yield {
            # The format hint names no amount: "e.g. $1.99" was the very fee of 2 of the 5 bundled stores (and
            # of ~22% of stores in fresh worlds), so copying the example scored 1 (tasks/goal_lint.py).
            "goal": f"What is the delivery fee at {s['name']}? Answer with the amount in dollars and cents, as the "
                    "store's page shows it.",
            "start_path": "/",
            "verify": {"checks": [{"answer": _num(fee)}], "unchanged_except": []},
            "harmless": [harmless("phrasing", goto_store(s) + [done(f"The delivery fee is {gold}.")],
                                  "the amount in a sentence", _t_store(s) + [tdone(f"The delivery fee is {gold}.")])],
            "solution": goto_store(s) + [done(logic.money(s["delivery_fee_cents"]))],
            "near_misses": [goto_store(s) + [done(logic.money(other["delivery_fee_cents"]))]],
            "tools": tools_plan(_t_store(s) + [tdone(logic.money(s["delivery_fee_cents"]))],
                                _t_store(s) + [tdone(logic.money(other["delivery_fee_cents"]))]),
            # the other fees a store page or the checkout shows: other stores' delivery fees, Express, small-order
            "distractors": distinct([logic.money(x["delivery_fee_cents"]) for x in stores]
                                    + [logic.money(299), logic.money(250)], gold=logic.money(s["delivery_fee_cents"])),
        }


@template("food", "lookup-closing-time", difficulty="easy", max_steps=8)
def lookup_closing(w: World, rng: random.Random):
    """When does a store close today (from its hours)?"""
    f = fw(w)
    stores = [s for s in f.stores if f.names_count[s["name"]] == 1 and f.is_open(s)]
    for s in rng.sample(stores, 5):
        end = logic.store_status(s, f.now)["closes_at"]
        ans = logic.fmt_time(end)
        h = end.hour % 12 or 12
        # The time alone or in a sentence ("It closes at 9:00 PM today."): no other digit anywhere, so a second
        # time (a hedge, the hours table) fails; was ^time$ only, which refused the sentence.
        mins = f"(:{end.minute:02d})?" if end.minute == 0 else f":{end.minute:02d}"
        pat = rf"^[^\d]*(?<!\d){h}{mins}\s*{'AM' if end.hour < 12 else 'PM'}(?!\w)[^\d]*$"
        wrong = logic.fmt_time(end.replace(hour=(end.hour + 1) % 24))
        yield {
            # No example time in the hint: "Answer like 9:00 PM" was the answer for stores closing at 9 PM.
            "goal": f"What time does {s['name']} close today? Answer with the hour, minutes and AM or PM.",
            "start_path": "/",
            "verify": {"checks": [{"answer": {"$regex": pat, "$options": "i"}}], "unchanged_except": []},
            "harmless": [harmless("phrasing", goto_store(s) + [click("button", "See hours", exact=True),
                                                            done(f"It closes at {ans} today.")],
                                  "the time in a sentence", _t_store(s) + [tdone(f"It closes at {ans} today.")])],
            "solution": goto_store(s) + [click("button", "See hours", exact=True), done(ans)],
            "near_misses": [goto_store(s) + [done(wrong)]],
            "tools": tools_plan(_t_store(s) + [tdone(ans)], _t_store(s) + [tdone(wrong)]),
            # the other times the hours table shows (other days' closing, today's opening) and other stores' closing
            "distractors": distinct(_hours_times(f, s) + [logic.fmt_time(logic.store_status(x, f.now)["closes_at"])
                                                          for x in stores], gold=ans),
        }


def _hours_times(f, s) -> list[str]:
    """Every opening and closing time in the store's hours table (minutes per weekday), as answered."""
    out = []
    for span in s["hours"] or []:
        if isinstance(span, list) and len(span) == 2:
            out += [logic.fmt_time(span[1]), logic.fmt_time(span[0])]
    return out


@template("food", "best-rated-in-cuisine", difficulty="medium", max_steps=10)
def best_rated(w: World, rng: random.Random):
    """Which store of a cuisine is best rated (unique top rating), using the cuisine page's sort."""
    f = fw(w)
    out = 0
    cz = list(f.cuisine.values())
    rng.shuffle(cz)
    for c in cz:
        if out >= 5:
            break
        stores = sorted([s for s in f.stores if s["cuisine_id"] == c["id"]], key=lambda s: -s["rating"])
        if len(stores) < 3 or stores[0]["rating"] == stores[1]["rating"]:
            continue
        best, second = stores[0], stores[1]
        out += 1
        steps = [fill("searchbox", "Search Forkful", c["name"]), click("option", c["name"], exact=True),
                 click("button", "Sort by"),
                 click("menuitemradio", "Rating", exact=True)]
        said = f"The highest-rated {c['name']} store is {best['name']}."
        yield {
            "goal": f"Which {c['name']} store on Forkful has the highest rating? Answer with the store's name.",
            "start_path": "/",
            # The name alone or in a sentence ($ieq refused "The highest-rated ... is X."); naming another store
            # of the cuisine fails (the hedges).
            "verify": {"checks": [{"answer": name_answer(best["name"], [x["name"] for x in stores[1:]])}],
                       "unchanged_except": []},
            "harmless": [harmless("phrasing", steps + [done(said)], "the store's name in a sentence",
                                  [call("list_stores", cuisine=c["slug"], sort="rating", limit=5), tdone(said)])],
            "solution": steps + [done(best["name"])],
            "near_misses": [steps + [done(second["name"])]],
            "tools": tools_plan([call("list_stores", cuisine=c["slug"], sort="rating", limit=5), tdone(best["name"])],
                                [call("list_stores", cuisine=c["slug"], sort="rating", limit=5), tdone(second["name"])]),
            "distractors": distinct([x["name"] for x in stores[1:]], gold=best["name"]),
        }


@template("food", "last-order-total", difficulty="easy", max_steps=8)
def last_order_total(w: World, rng: random.Random):
    """How much was paid for the most recent order from a store."""
    f = fw(w)
    by_store: dict[int, list] = {}
    for o in f.orders:
        if o["status"] in ("delivered", "picked_up"):
            by_store.setdefault(o["store_id"], []).append(o)
    stores = [sid for sid in by_store if f.names_count[f.store[sid]["name"]] == 1]
    for sid in rng.sample(sorted(stores), 5):
        os_ = sorted(by_store[sid], key=lambda o: o["placed_at"])
        o = os_[-1]
        s = f.store[sid]
        wrong = o["subtotal_cents"] if o["subtotal_cents"] != o["total_cents"] else o["total_cents"] + 100
        steps = [click("button", "Account menu"), click("menuitem", "Orders", exact=True)]
        said = f"You paid {logic.money(o['total_cents'])} in total."
        yield {
            "goal": f"How much did you pay in total for your most recent order from {s['name']}? Answer with the amount.",
            "start_path": "/",
            "verify": {"checks": [{"answer": _num(o["total_cents"] / 100)}], "unchanged_except": []},
            "harmless": [harmless("phrasing", steps + [done(said)], "the amount in a sentence",
                                  [call("list_orders", status="past", store_id=sid, limit=5),
                                   call("get_order", order_id=o["id"]), tdone(said)])],
            "solution": steps + [done(logic.money(o["total_cents"]))],
            "near_misses": [steps + [done(logic.money(wrong))]],
            "tools": tools_plan([call("list_orders", status="past", store_id=sid, limit=5), call("get_order", order_id=o["id"]),
                                 tdone(logic.money(o["total_cents"]))],
                                [call("list_orders", status="past", store_id=sid, limit=5), call("get_order", order_id=o["id"]),
                                 tdone(logic.money(wrong))]),
            # the order's other amounts, and the totals of the store's earlier orders
            "distractors": distinct([logic.money(o[k]) for k in ("subtotal_cents", "tax_cents", "service_fee_cents",
                                                                 "delivery_fee_cents", "tip_cents") if o[k]]
                                    + [logic.money(x["total_cents"]) for x in os_[:-1]],
                                    gold=logic.money(o["total_cents"])),
        }


@template("food", "cheapest-dish-nearby", difficulty="hard", max_steps=14)
def cheapest_dish(w: World, rng: random.Random):
    """Among stores within 2 miles that sell a dish, which has it cheapest (base price)?"""
    f = fw(w)
    names = sorted({i["name"] for i in w.table("menu_items")})
    rng.shuffle(names)
    out = 0
    for dish in names:
        if out >= 5:
            break
        offers = []
        for s in f.stores:
            it = f.menu_item(s["id"], dish)
            if it and logic.distance_mi(s, f.cur_addr) <= 2.0:
                offers.append((it["price_cents"], s["name"], s, it))
        if len(offers) < 3 or len(offers) > 8:
            continue
        offers.sort(key=lambda x: (x[0], x[1]))
        if offers[0][0] == offers[1][0] or f.names_count[offers[0][1]] > 1:
            continue
        if re.search(r"[()]", dish):
            continue
        out += 1
        s = offers[0][2]
        said = f"{s['name']} sells {dish} at the lowest price."
        search = [{"fill": {"role": "searchbox", "name": "Search Forkful"}, "text": dish},
                  {"press": ["Enter"]}, click("button", "Sort by"), click("menuitemradio", "Distance", exact=True)]
        yield {
            "goal": f"Among stores within 2.0 miles of your current address, which one sells {dish} at the lowest "
                    f"menu price? Answer with the store's name.",
            "start_path": "/",
            # The name alone or in a sentence ($ieq refused one); naming another store that sells it (near or far) fails.
            "verify": {"checks": [{"answer": name_answer(s["name"], [x["name"] for x in f.stores if x["id"] != s["id"]
                                                                     and f.menu_item(x["id"], dish)])}],
                       "unchanged_except": []},
            "harmless": [harmless("phrasing", search + [done(said)], "the store's name in a sentence",
                                  [call("search", query=dish, sort="distance", limit=50), tdone(said)])],
            "solution": [{"fill": {"role": "searchbox", "name": "Search Forkful"}, "text": dish},
                         {"press": ["Enter"]}, click("button", "Sort by"), click("menuitemradio", "Distance", exact=True),
                         done(s["name"])],
            "near_misses": [[{"fill": {"role": "searchbox", "name": "Search Forkful"}, "text": dish},
                             {"press": ["Enter"]}, done(offers[1][1])]],
            # the dish rows give each store's price; get_store gives its distance
            "tools": tools_plan([call("search", query=dish, sort="distance", limit=50), tdone(s["name"])],
                                [call("search", query=dish, sort="distance", limit=50), tdone(offers[1][1])]),
            "distractors": distinct([x[1] for x in offers[1:]], gold=s["name"]),
        }


def _t_store(s) -> list[dict]:
    """Tool calls: find the store by name, read its page."""
    return [call("search", query=s["name"], limit=5), call("get_store", store_id=s["id"])]
