"""After a delivery (issue 46): rate the Dasher (thumbs, reasons, comment), rate the order and the Dasher together,
and help claims for part of a line ("1 of the 2 ... was missing"); the refund is logic.refund_cents, the one
function the app itself calls. And the issue's fixed bugs: a misspelt store name still found (and saved), and
Pickup lists that show only the stores offering pickup (the closest one named)."""

from __future__ import annotations

import random
import re

from domain import food as logic
from tasks.templates.base import World
from tasks.templates.harmless import harmless
from tasks.templates.food._common import (collateral, creates, distinct, extra, switch_to_pickup, updates, user_update,
                                          wrong_record)
from tasks.templates.food._lib import (call, click, done, fill, fw, goto_store, orders_page, press, recheck, t_recheck,
                                       tdone, template, tools_plan)
from tasks.templates.food.retrieval import name_answer

DASHER_FIELDS = ["dasher_rating", "dasher_reasons", "dasher_comment"]


def _delivered(f) -> list[dict]:
    return [o for o in f.orders if o["status"] == "delivered" and o["mode"] == "delivery"]


def _open_order(f, o) -> list[dict]:
    """From any page: Account menu > Orders > the order."""
    return [*orders_page(), click("link", f"Order #{o['id']} from {f.store[o['store_id']]['name']}", exact=True)]


def _dasher_dialog(thumb: str, reasons: list[str] = (), comment: str = "") -> list[dict]:
    """On the order page: Rate your Dasher, the thumb, its reasons, the comment, Submit rating."""
    steps = [click("button", "Rate your Dasher", exact=True), click("radio", logic.THUMBS[thumb], exact=True)]
    steps += [click("checkbox", r, exact=True) for r in reasons]
    if comment:
        steps.append(fill("textbox", "Comment for your Dasher", comment, exact=True))
    return steps + [click("button", "Submit rating", exact=True)]


def _dasher(f, o, thumb: str, reasons: list[str] = (), comment: str = "") -> list[dict]:
    return _open_order(f, o) + _dasher_dialog(thumb, reasons, comment) + [done()]


def _t_dasher(o, thumb: str, reasons: list[str] = (), comment: str = "") -> list[dict]:
    args: dict = {"order_id": o["id"], "thumb": thumb}
    if reasons:
        args["reasons"] = list(reasons)
    if comment:
        args["comment"] = comment
    return [call("list_orders", status="past"), call("rate_dasher", **args), tdone()]


def _dasher_row(o, thumb: str, reasons: list[str], comment: str) -> dict:
    stored = ", ".join(r for r in logic.DASHER_REASONS[thumb] if r in reasons)
    return {"table": "orders", "where": {"id": o["id"]}, "count": 1,
            "expect": {"dasher_rating": thumb, "dasher_reasons": stored, "dasher_comment": comment}}


def _when(o) -> str:
    return f"{o['placed_at'].strftime('%B')} {o['placed_at'].day}"


@template("food", "rate-dasher-thumbs-up", difficulty="easy", max_steps=12)
def rate_dasher_up(w: World, rng: random.Random):
    """Thumbs up for the Dasher of one delivered order, with one reason."""
    f = fw(w)
    orders = _delivered(f)
    for k, o in enumerate(rng.sample(orders, 5)):
        s = f.store[o["store_id"]]
        reason = logic.DASHER_REASONS["up"][k % 4]
        wrong = logic.DASHER_REASONS["up"][(k + 1) % 4]
        other = next(x for x in orders if x["id"] != o["id"])
        sol = _dasher(f, o, "up", [reason])
        yield {
            "goal": f"Give the Dasher of your {_when(o)} order from {s['name']} (order #{o['id']}) a thumbs up, "
                    f"with the reason “{reason}”.",
            "start_path": "/",
            "verify": {"checks": [_dasher_row(o, "up", [reason], "")],
                       "unchanged_except": [updates("orders", {"id": o["id"]}, DASHER_FIELDS)]},
            "solution": sol,
            "near_misses": [_dasher(f, o, "up", [wrong])],
            "harmless": [harmless("check_work", recheck(sol, _open_order(f, o)),
                                  "the Dasher rated, then the order reopened from Orders to see the rating",
                                  t_recheck(_t_dasher(o, "up", [reason]), call("get_order", order_id=o["id"])))],
            "tools": tools_plan(_t_dasher(o, "up", [reason]), _t_dasher(o, "up", [wrong])),
            "adversarial": [
                extra(sol, _dasher(f, other, "up", [reason])[:-1],
                      f"the Dasher rated, then another order's Dasher (#{other['id']}) too"),
                wrong_record(_dasher(f, other, "up", [reason]), f"the thumbs up given on another order (#{other['id']})"),
                collateral(sol),
            ],
        }


@template("food", "rate-dasher-thumbs-down", difficulty="medium", max_steps=14)
def rate_dasher_down(w: World, rng: random.Random):
    """Thumbs down for a Dasher, with a reason and a comment for them."""
    f = fw(w)
    orders = [o for o in _delivered(f) if o["rating"] is None]  # the extra rates the order too
    comments = ["Please use the side gate next time.", "The bag was left on the street.",
                "Rang the bell at 11pm, please don't.", "Drinks were spilled all over the bag.",
                "Took a 40 minute detour."]
    for k, o in enumerate(rng.sample(orders, 5)):
        s = f.store[o["store_id"]]
        reason = logic.DASHER_REASONS["down"][k % 4]
        other = next(x for x in orders if x["id"] != o["id"])
        sol = _dasher(f, o, "down", [reason], comments[k])
        yield {
            "goal": f"Rate the Dasher of order #{o['id']} ({s['name']}) thumbs down: pick “{reason}” and leave the "
                    f"comment “{comments[k]}”.",
            "start_path": "/",
            "verify": {"checks": [_dasher_row(o, "down", [reason], comments[k])],
                       "unchanged_except": [updates("orders", {"id": o["id"]}, DASHER_FIELDS)]},
            "solution": sol,
            # the reason without the comment the goal asks for
            "near_misses": [_dasher(f, o, "down", [reason])],
            "harmless": [harmless("check_work", recheck(sol, _open_order(f, o)),
                                  "the Dasher rated, then the order reopened to see the rating and comment",
                                  t_recheck(_t_dasher(o, "down", [reason], comments[k]),
                                            call("get_order", order_id=o["id"])))],
            "tools": tools_plan(_t_dasher(o, "down", [reason], comments[k]), _t_dasher(o, "down", [reason])),
            "adversarial": [
                extra(sol, [click("button", "Rate order", exact=True), click("radio", "1 star", exact=True),
                            click("button", "Submit", exact=True)],
                      "the Dasher rated, then the store's order rated 1 star too (a review on its page)"),
                wrong_record(_dasher(f, other, "down", [reason], comments[k]),
                             f"the thumbs down given on another order (#{other['id']})"),
                collateral(sol),
            ],
        }


@template("food", "rate-order-and-dasher", difficulty="medium", max_steps=14)
def rate_order_and_dasher(w: World, rng: random.Random):
    """Rate the order (stars) and the Dasher (thumbs up) of one delivered order."""
    f = fw(w)
    orders = [o for o in _delivered(f) if o["rating"] is None]
    for k, o in enumerate(rng.sample(orders, 5)):
        s = f.store[o["store_id"]]
        stars = [5, 4, 5, 3, 4][k]
        label = f"{stars} stars"
        wrong = f"{stars - 1} stars" if stars > 2 else "5 stars"
        other = next(x for x in orders if x["id"] != o["id"])
        rate = [click("button", "Rate order", exact=True), click("radio", label, exact=True),
                click("button", "Submit", exact=True)]
        sol = _open_order(f, o) + rate + _dasher_dialog("up") + [done()]
        t_sol = [call("list_orders", status="past"), call("rate_order", order_id=o["id"], stars=stars),
                 call("rate_dasher", order_id=o["id"], thumb="up"), tdone()]
        yield {
            "goal": f"Your {_when(o)} order from {s['name']} (order #{o['id']}) was great: rate it {stars} stars "
                    f"and give the Dasher a thumbs up.",
            "start_path": "/",
            "verify": {"checks": [{"table": "orders", "where": {"id": o["id"]}, "count": 1,
                                   "expect": {"rating": stars, "dasher_rating": "up"}},
                                  {"table": "reviews", "in": "created", "count": 1,
                                   "expect": {"order_id": o["id"], "store_id": s["id"], "rating": stars}}],
                       "unchanged_except": [updates("orders", {"id": o["id"]}, ["rating", *DASHER_FIELDS]),
                                            creates("reviews", {"order_id": o["id"]})]},
            "solution": sol,
            # only the order rated (the Dasher forgotten); the order rated with other stars
            "near_misses": [_open_order(f, o) + rate + [done()],
                            _open_order(f, o) + [rate[0], click("radio", wrong, exact=True), rate[2]]
                            + _dasher_dialog("up") + [done()]],
            # the Dasher first, then the order: the same end
            "harmless": [harmless("other_control", _open_order(f, o) + _dasher_dialog("up") + rate + [done()],
                                  "the Dasher rated first, then the order",
                                  [call("list_orders", status="past"), call("rate_dasher", order_id=o["id"], thumb="up"),
                                   call("rate_order", order_id=o["id"], stars=stars), tdone()])],
            "tools": tools_plan(t_sol, [call("list_orders", status="past"), call("rate_order", order_id=o["id"], stars=stars),
                                        tdone()]),
            "adversarial": [
                extra(sol, _dasher(f, other, "down")[:-1],
                      f"both rated, then another order's Dasher (#{other['id']}) given a thumbs down"),
                wrong_record(_open_order(f, other) + rate + _dasher_dialog("up") + [done()],
                             f"the ratings given to another order (#{other['id']})"),
                collateral(sol),
            ],
        }


# ---------------------------------------------------------------------- help claims for part of a line
ISSUE_LABELS = {"missing": "Missing items", "wrong": "Wrong items", "quality": "Food quality issue"}


def _part_lines(f) -> list[tuple[dict, dict]]:
    """(order, line) for completed orders' lines of 2 or more whose name no other line of the order shares, in
    orders with another such line to be the wrong record."""
    out = []
    for o in f.orders:
        if o["status"] not in ("delivered", "picked_up"):
            continue
        lines = f.order_items[o["id"]]
        if len(lines) < 2:
            continue
        for oi in lines:
            if oi["quantity"] >= 2 and sum(x["name"] == oi["name"] for x in lines) == 1:
                out.append((o, oi))
    return out


def _other(f, o, oi) -> dict:
    return next(x for x in f.order_items[o["id"]] if x["id"] != oi["id"]
                and sum(y["name"] == x["name"] for y in f.order_items[o["id"]]) == 1)


def _claim(f, o, oi, issue: str, reason: str, resolution: str, n: int | None) -> list[dict]:
    """From any page: the order's Get help page, the issue, the line (and `n` of it; None: as offered, all of it),
    the reason, the refund method, Submit request (without the final done)."""
    steps = _open_order(f, o) + [click("link", "Get help", exact=True), click("radio", ISSUE_LABELS[issue], exact=True),
                                 click("checkbox", oi["name"], exact=True)]
    if n is not None:
        steps.append(click("radio", f"{n} of {oi['quantity']}", exact=True,
                           within={"role": "radiogroup", "name": f"How many {oi['name']}", "exact": True}))
    steps += [click("radio", reason, exact=True),
              click("radio", "Refund to") if resolution == "refund" else click("radio", "Forkful credits", exact=True),
              click("button", "Submit request", exact=True)]
    return steps


def _t_claim(o, oi, issue: str, reason: str, resolution: str, n: int | None) -> list[dict]:
    args: dict = {"order_id": o["id"], "issue": issue, "order_item_ids": [oi["id"]], "reason": reason,
                  "resolution": resolution}
    if n is not None:
        args["quantities"] = {str(oi["id"]): n}
    return [call("get_order", order_id=o["id"]), call("request_help", **args), tdone()]


def _claim_template(w: World, rng: random.Random, *, issue: str, reason: str, resolution: str, goal):
    f = fw(w)
    cands = _part_lines(f)
    for o, oi in rng.sample(cands, 5):
        amount = logic.refund_cents(oi["unit_price_cents"], 1)
        other = _other(f, o, oi)
        sol = _claim(f, o, oi, issue, reason, resolution, 1) + [done()]
        checks = [{"table": "support_requests", "in": "created", "count": 1,
                   "expect": {"order_id": o["id"], "order_item_id": oi["id"], "quantity": 1, "issue": issue,
                              "reason": reason, "resolution": resolution, "amount_cents": amount}}]
        allow = [creates("support_requests", {"order_id": o["id"], "order_item_id": oi["id"]})]
        if resolution == "credit":
            checks.append({"table": "users", "where": {"id": 1},
                           "expect": {"credits_cents": f.user["credits_cents"] + amount}})
            allow.append(user_update("credits_cents"))
        reopen = _open_order(f, o) if resolution == "refund" else [click("button", "Account menu"),
                                                                    click("menuitem", "Gift cards & credits", exact=True)]
        yield {
            "goal": goal(f, o, oi),
            "start_path": "/",
            "verify": {"checks": checks, "unchanged_except": allow},
            "solution": sol,
            # the whole line claimed (as the page offers it), when only one was affected
            "near_misses": [_claim(f, o, oi, issue, reason, resolution, None) + [done()]],
            "harmless": [harmless("check_work", recheck(sol, reopen),
                                  "the claim sent, then " + ("the order reopened to see the request" if resolution == "refund"
                                                             else "Gift cards & credits opened to see the balance"),
                                  t_recheck(_t_claim(o, oi, issue, reason, resolution, 1),
                                            call("get_order", order_id=o["id"]) if resolution == "refund" else call("get_account")))],
            "tools": tools_plan(_t_claim(o, oi, issue, reason, resolution, 1),
                                _t_claim(o, oi, issue, reason, resolution, None)),
            "adversarial": [
                extra(sol, _claim(f, o, other, issue, reason, resolution, None),
                      f"the one claimed, then another line of the order ({other['name']}) claimed too"),
                wrong_record(_claim(f, o, other, issue, reason, resolution, None),
                             f"the claim made for another line of the order ({other['name']})"),
                collateral(sol),
            ],
        }


@template("food", "report-part-missing-refund", difficulty="hard", max_steps=16)
def report_part_missing(w: World, rng: random.Random):
    """One of a line of two was missing: report 1 of 2 (not the whole line) and get it refunded to the card."""
    yield from _claim_template(
        w, rng, issue="missing", reason="Only part of the item arrived", resolution="refund",
        goal=lambda f, o, oi: (f"Only 1 of the {oi['quantity']} {oi['name']} you ordered in order #{o['id']} "
                               f"({f.store[o['store_id']]['name']}) arrived. Report the missing one (only part of the "
                               f"item arrived) and get a refund to your card for it."))


@template("food", "report-part-cold-credit", difficulty="hard", max_steps=16)
def report_part_cold(w: World, rng: random.Random):
    """One of a line of two was cold: report 1 of 2 as a food quality issue and take Forkful credits for it."""
    yield from _claim_template(
        w, rng, issue="quality", reason="Food was cold", resolution="credit",
        goal=lambda f, o, oi: (f"In order #{o['id']} from {f.store[o['store_id']]['name']}, one of your "
                               f"{oi['quantity']} {oi['name']} was cold (the other was fine). Report that one and take "
                               f"the refund as Forkful credits."))


@template("food", "report-part-wrong-refund", difficulty="hard", max_steps=16)
def report_part_wrong(w: World, rng: random.Random):
    """One of a line of two came in the wrong size or options: report 1 of 2 as wrong, refund to the card."""
    yield from _claim_template(
        w, rng, issue="wrong", reason="Wrong size or options", resolution="refund",
        goal=lambda f, o, oi: (f"One of the {oi['quantity']} {oi['name']} in order #{o['id']} "
                               f"({f.store[o['store_id']]['name']}) came with the wrong size or options; the other "
                               f"was right. Report just that one as a wrong item and get it refunded to your card."))


# ---------------------------------------------------------------------- the fixed search and Pickup lists (issue 46)
def _typo(word: str) -> str:
    """The word with its middle letter left out ("vesuvio" -> "vesvio"), as a person misremembers it."""
    i = len(word) // 2
    return word[:i] + word[i + 1:]


@template("food", "save-store-misspelled", difficulty="easy", max_steps=10)
def save_store_misspelled(w: World, rng: random.Random):
    """A friend's misspelling of a store's name: search finds it anyway ("Showing results for"), save it."""
    f = fw(w)
    saved = {r["store_id"] for r in w.table("saved_stores")}
    vocab: set[str] = set()
    for it in w.table("menu_items"):
        vocab.update(re.findall(r"[a-z]+", it["name"].lower()))
    owners: dict[str, set[int]] = {}
    for s in f.stores:
        for wd in re.findall(r"[a-z]+", s["name"].lower()):
            owners.setdefault(wd, set()).add(s["id"])
    cands = []
    for s in f.stores:
        if s["id"] in saved or f.names_count[s["name"]] != 1:
            continue
        words = s["name"].split()
        key = next((x for x in words if len(x) >= 6 and x.isalpha() and owners.get(x.lower()) == {s["id"]}
                    and x.lower() not in vocab), None)
        if key is None or _typo(key.lower()) in vocab or _typo(key.lower()) in owners:
            continue
        cands.append((s, " ".join(_typo(x) if x == key else x for x in words)))
    for s, typo in rng.sample(cands, 5):
        twin = next(x for x in f.stores if x["cuisine_id"] == s["cuisine_id"] and x["id"] not in saved
                    and x["id"] != s["id"] and f.names_count[x["name"]] == 1)
        find = [fill("searchbox", "Search Forkful", typo), press("Enter")]
        sol = find + [click("button", f"Save {s['name']}", exact=True), done()]
        yield {
            "goal": f"A friend recommended a place called “{typo}” (she may have spelled it wrong). Find it on Forkful "
                    f"and save it to your saved stores.",
            "start_path": "/",
            "verify": {"checks": [{"table": "saved_stores", "in": "created", "count": 1, "expect": {"store_id": s["id"]}}],
                       "unchanged_except": [creates("saved_stores", {"store_id": s["id"]})]},
            "solution": sol,
            "near_misses": [goto_store(twin) + [click("button", f"Save {twin['name']}", exact=True), done()]],
            "harmless": [harmless("open_first", find + [click("link", s["name"], exact=True),
                                                        click("button", f"Save {s['name']}", exact=True), done()],
                                  "the store's page opened from the results first, then saved with its own heart",
                                  [call("search", query=typo, limit=5), call("get_store", store_id=s["id"]),
                                   call("save_store", store_id=s["id"]), tdone()])],
            "tools": tools_plan([call("search", query=typo, limit=5), call("save_store", store_id=s["id"]), tdone()],
                                [call("search", query=twin["name"], limit=5), call("save_store", store_id=twin["id"]),
                                 tdone()]),
            "adversarial": [
                extra(sol, goto_store(twin) + [click("button", f"Save {twin['name']}", exact=True)],
                      f"the store saved, then another {f.cuisine_of(s)['name']} store ({twin['name']}) too"),
                wrong_record(goto_store(twin) + [click("button", f"Save {twin['name']}", exact=True)],
                             f"another store of the cuisine saved ({twin['name']})"),
                collateral(sol),
            ],
        }


@template("food", "pickup-nearest-in-cuisine", difficulty="medium", max_steps=12)
def pickup_nearest(w: World, rng: random.Random):
    """Switch to Pickup and name the closest store of a cuisine that offers pickup (the lists show only those
    now; before issue 46 the closest store of all, pickup or not, came first)."""
    f = fw(w)
    addr = next(a for a in w.table("addresses") if a["id"] == f.user["current_address_id"])
    dist = {s["id"]: logic.distance_mi(s, addr) for s in f.stores}
    cands = []
    for c in f.cuisine.values():
        stores = sorted((s for s in f.stores if s["cuisine_id"] == c["id"]), key=lambda s: (dist[s["id"]], s["id"]))
        pick = [s for s in stores if logic.serves_mode(s, "pickup")]
        if len(pick) < 2 or dist[pick[0]["id"]] == dist[pick[1]["id"]] or not f.is_open(pick[0]):
            continue
        near_any = stores[0] if stores[0]["id"] != pick[0]["id"] else pick[1]
        cands.append((not logic.serves_mode(stores[0], "pickup"), c, pick[0], near_any, stores))
    cands.sort(key=lambda x: (not x[0], x[1]["id"]))  # first the cuisines whose closest store has no pickup
    for _, c, best, rival, stores in cands[:5]:
        steps = [*switch_to_pickup(), fill("searchbox", "Search Forkful", c["name"]), click("option", c["name"], exact=True),
                 click("button", "Sort by"), click("menuitemradio", "Distance", exact=True)]
        rivals = [x["name"] for x in stores if x["id"] != best["id"]]
        said = f"The closest {c['name']} place I can pick up from is {best['name']}."
        t_steps = [call("set_delivery_mode", mode="pickup"), call("list_stores", cuisine=c["slug"], sort="distance", limit=5)]
        yield {
            "goal": f"Switch Forkful to Pickup and find the closest {c['name']} store you can pick up from. "
                    f"Answer with the store's name.",
            "start_path": "/",
            # the answer is graded; the switch to Pickup is the way there (allowed, as the goal asks for it)
            "verify": {"checks": [{"answer": name_answer(best["name"], rivals)}],
                       "unchanged_except": [user_update("mode")]},
            "solution": steps + [done(best["name"])],
            # the closest store of the cuisine with no pickup (what the lists showed first before issue 46), or the
            # second closest pickup store
            "near_misses": [steps + [done(rival["name"])]],
            "harmless": [harmless("phrasing", steps + [done(said)], "the store's name in a sentence",
                                  [*t_steps, tdone(said)])],
            "tools": tools_plan([*t_steps, tdone(best["name"])], [*t_steps, tdone(rival["name"])]),
            "adversarial": [collateral(steps + [done(best["name"])])],
            "distractors": distinct(rivals, gold=best["name"]),
        }


# ---------------------------------------------------------------------- Adjust tip after delivery
def _tip(f, o, dollars: str) -> list[dict]:
    """From any page: the order, Adjust tip, a custom amount typed (it picks Other), Save tip (no done)."""
    return _open_order(f, o) + [click("button", "Adjust tip", exact=True),
                                fill("textbox", "Custom tip amount", dollars, exact=True),
                                click("button", "Save tip", exact=True)]


@template("food", "adjust-tip-after-delivery", difficulty="medium", max_steps=12)
def adjust_tip(w: World, rng: random.Random):
    """Change a recent delivery's courier tip to an amount (the total follows: logic.tip_amount)."""
    f = fw(w)
    recent = [o for o in f.orders if logic.tip_change_refusal(o, w.now) is None]
    amounts = [500, 800, 1000, 650, 1200]
    for k in range(5):
        o = recent[k % len(recent)]
        other = recent[(k + 1) % len(recent)]
        s = f.store[o["store_id"]]
        cents = amounts[k]
        dollars = f"{cents // 100}.{cents % 100:02d}" if cents % 100 else str(cents // 100)
        sol = _tip(f, o, dollars) + [done()]
        total = o["total_cents"] - o["tip_cents"] + logic.tip_amount(o["subtotal_cents"], None, cents, o["mode"])
        near = next(p for p in logic.TIP_PRESETS if p != o["tip_percent"])
        t_calls = [call("list_orders", status="past"), call("change_tip", order_id=o["id"], tip_amount_cents=cents), tdone()]
        yield {
            "goal": f"Your courier on order #{o['id']} from {s['name']} went above and beyond. Change that order's "
                    f"tip to {logic.money(cents)}.",
            "start_path": "/",
            "verify": {"checks": [{"table": "orders", "where": {"id": o["id"]}, "count": 1,
                                   "expect": {"tip_cents": cents, "tip_percent": None, "total_cents": total}}],
                       "unchanged_except": [updates("orders", {"id": o["id"]}, ["tip_cents", "tip_percent", "total_cents"])]},
            "solution": sol,
            # a preset percent instead of the amount
            "near_misses": [_open_order(f, o) + [click("button", "Adjust tip", exact=True),
                                                 click("radio", f"Tip {near}%", exact=True),
                                                 click("button", "Save tip", exact=True), done()]],
            # the Other radio clicked before typing the amount: the same end
            "harmless": [harmless("other_control", _open_order(f, o) + [
                click("button", "Adjust tip", exact=True), click("radio", "Other tip amount", exact=True),
                fill("textbox", "Custom tip amount", dollars, exact=True), click("button", "Save tip", exact=True), done()],
                "Other chosen first, then the amount typed", t_calls)],
            "tools": tools_plan(t_calls, [call("list_orders", status="past"),
                                          call("change_tip", order_id=o["id"], tip_percent=near), tdone()]),
            "adversarial": [
                extra(sol, _tip(f, other, dollars), f"the tip changed, then another order's (#{other['id']}) too"),
                wrong_record(_tip(f, other, dollars), f"the tip changed on another order (#{other['id']})"),
                collateral(sol),
            ],
        }
