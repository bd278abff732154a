"""Order-history templates: cancel, rate and review, get help (refund or credit)."""

from __future__ import annotations

import random

from tasks.templates.base import World
from tasks.templates.harmless import harmless
from tasks.templates.food._lib import (call, click, done, fill, fw, orders_page, recheck, t_recheck, tdone, template,
                                       tools_plan)
from tasks.templates.food._common import collateral, creates, extra, user_update, wrong_record


def _past(f):
    return [o for o in f.orders if o["status"] in ("delivered", "picked_up")]


@template("food", "cancel-scheduled-order", difficulty="easy", max_steps=10)
def cancel_scheduled(w: World, rng: random.Random):
    """Cancel the scheduled order (with or without a reason)."""
    f = fw(w)
    o = next(o for o in f.orders if o["status"] == "scheduled")
    s = f.store[o["store_id"]]
    rated_other = next(x for x in _past(f) if x["rating"] is None)
    reasons = [None, "Ordered by mistake", "Changed my mind", "Wrong address", "It's taking too long"]
    for r in reasons:
        steps = [click("button", "Account menu"), click("menuitem", "Orders", exact=True),
                 click("link", f"View order #{o['id']}", exact=True), click("button", "Cancel order", exact=True)]
        if r:
            steps.append(click("radio", r, exact=True))
        sol = steps + [click("button", "Cancel order", exact=True, within={"role": "dialog"}), done()]
        expect = {"status": "cancelled"}
        if r:
            expect["cancel_reason"] = r
        # no reason asked: the dialog's optional reason is the user's to give (cancel_reason is allowed)
        why = "Changed my mind"
        free = [harmless(
            "check_work", recheck(sol, [*orders_page(), click("link", f"Order #{o['id']} from {s['name']}", exact=True)]),
            "the order cancelled with its reason, then reopened from Orders (now under Completed) to see it took",
            [call("list_orders", status="active"), call("cancel_order", order_id=o["id"], reason=r),
             call("get_order", order_id=o["id"]), tdone()])] if r else [harmless(
            "comment", steps + [click("radio", why, exact=True),
                               click("button", "Cancel order", exact=True, within={"role": "dialog"}), done()],
            "the dialog's optional reason given though none was asked",
            [call("list_orders", status="active"), call("cancel_order", order_id=o["id"], reason=why), tdone()])]
        yield {
            "goal": f"Cancel your scheduled order from {s['name']}" + (f", giving the reason “{r}”." if r else "."),
            "start_path": "/",
            "verify": {"checks": [{"table": "orders", "where": {"id": o["id"]}, "count": 1, "expect": expect}],
                       "unchanged_except": [{"table": "orders", "where": {"id": o["id"]}, "fields": ["status", "cancel_reason"]}]},
            "solution": sol,
            "harmless": free,
            "near_misses": [steps + [click("button", "Keep order", exact=True), done()]],
            # the near-miss: opened the order and kept it
            "tools": tools_plan([call("list_orders", status="active"),
                                 call("cancel_order", order_id=o["id"], **({"reason": r} if r else {})), tdone()],
                                [call("list_orders", status="active"), call("get_order", order_id=o["id"]), tdone()]),
            "adversarial": [
                extra(sol, _rate(f, rated_other, 1, "Never again."),
                      f"the order cancelled, then another order (#{rated_other['id']}) rated 1 star"),
                collateral(sol),
            ],
        }


def _rate(f, o, stars: int, text: str) -> list[dict]:
    """From any page: rate order `o` (without the final done)."""
    s = f.store[o["store_id"]]
    return [click("button", "Account menu"), click("menuitem", "Orders", exact=True),
            click("link", f"Order #{o['id']} from {s['name']}", exact=True), click("button", "Rate order", exact=True),
            click("radio", f"{stars} star" + ("" if stars == 1 else "s"), exact=True),
            fill("textbox", "Review", text, exact=True), click("button", "Submit", exact=True)]


@template("food", "rate-order", difficulty="medium", max_steps=12)
def rate_order(w: World, rng: random.Random):
    """Rate a past order with stars and a short review."""
    f = fw(w)
    texts = ["Hot, fast and delicious.", "Great portions, will order again.", "Food was fine but arrived late.",
             "Perfect as always!", "A bit too salty this time."]
    orders = [o for o in _past(f) if o["rating"] is None]
    for k, o in enumerate(rng.sample(orders, 5)):
        s = f.store[o["store_id"]]
        stars = [5, 4, 3, 5, 2][k]
        wrong = 4 if stars != 4 else 5
        when = o["placed_at"]
        base = [click("button", "Account menu"), click("menuitem", "Orders", exact=True),
                click("link", f"Order #{o['id']} from {s['name']}", exact=True), click("button", "Rate order", exact=True)]
        tail = [fill("textbox", "Review", texts[k], exact=True), click("button", "Submit", exact=True), done()]
        sol = base + [click("radio", f"{stars} star" + ("" if stars == 1 else "s"), exact=True)] + tail
        other = next(x for x in orders if x["id"] != o["id"])
        yield {
            "goal": f"Rate your {when.strftime('%B')} {when.day} order from {s['name']} (order #{o['id']}) {stars} stars "
                    f"with the review “{texts[k]}”.",
            "start_path": "/",
            "verify": {"checks": [{"table": "orders", "where": {"id": o["id"]}, "count": 1, "expect": {"rating": stars}},
                                  {"table": "reviews", "in": "created", "count": 1,
                                   "expect": {"order_id": o["id"], "store_id": s["id"], "rating": stars, "text": texts[k]}}],
                       "unchanged_except": [{"table": "orders", "where": {"id": o["id"]}, "fields": ["rating"]},
                                            creates("reviews", {"order_id": o["id"]})]},
            "solution": sol,
            "near_misses": [base + [click("radio", f"{wrong} stars", exact=True)] + tail],
            "harmless": [harmless("check_work", recheck(sol, [*orders_page(), click("link", f"Order #{o['id']} from {s['name']}", exact=True)]),
                                  "the order rated, then reopened from Orders to see the rating",
                                  [call("list_orders", status="past", store_id=s["id"]),
                                   call("rate_order", order_id=o["id"], stars=stars, review=texts[k]), call("get_order", order_id=o["id"]),
                                   tdone()])],
            "tools": tools_plan(
                [call("list_orders", status="past", store_id=s["id"]), call("rate_order", order_id=o["id"], stars=stars, review=texts[k]), tdone()],
                [call("list_orders", status="past", store_id=s["id"]), call("rate_order", order_id=o["id"], stars=wrong, review=texts[k]), tdone()]),
            "adversarial": [
                extra(sol, _rate(f, other, stars, texts[k]), f"the order rated, then another order (#{other['id']}) too"),
                wrong_record(_rate(f, other, stars, texts[k]), f"the same rating on another order (#{other['id']})"),
                collateral(sol),
            ],
        }


def _other_line(lines: list[dict], oi: dict) -> dict:
    """Another line of the order, with a name no other line shares (its checkbox is named by it)."""
    return next(x for x in lines if x["id"] != oi["id"] and sum(y["name"] == x["name"] for y in lines) == 1)


def _help(f, o, oi, issue_label, reason, resolution_label):
    return [click("button", "Account menu"), click("menuitem", "Orders", exact=True),
            click("link", f"Order #{o['id']} from {f.store[o['store_id']]['name']}", exact=True),
            click("link", "Get help", exact=True), click("radio", issue_label, exact=True),
            click("checkbox", oi["name"], exact=True), click("radio", reason, exact=True),
            click("radio", resolution_label) if resolution_label.startswith("Refund") else click("radio", resolution_label, exact=True),
            click("button", "Submit request", exact=True), done()]


@template("food", "refund-missing-side", difficulty="hard", max_steps=16)
def refund_missing_side(w: World, rng: random.Random):
    """The side (or drink) was missing from order #N: refund to the card. The agent must spot which line it is."""
    f = fw(w)
    k = 0
    for o in _past(f):
        lines = f.order_items[o["id"]]
        for kind, cats in (("side", ("Sides",)), ("drink", ("Drinks", "Beverages"))):
            match = [oi for oi in lines if f.cat_name(f.item[oi["item_id"]]) in cats]
            if len(match) != 1 or len(lines) < 2:
                continue
            oi = match[0]
            amt = oi["unit_price_cents"] * oi["quantity"]
            sol = _help(f, o, oi, "Missing items", "Item was not in the bag", "Refund to")
            other = _other_line(lines, oi)
            yield {
                "goal": f"The {kind} was missing from order #{o['id']} ({f.store[o['store_id']]['name']}). Report it "
                        f"(the item was not in the bag) and get a refund to your card.",
                "start_path": "/",
                "verify": {"checks": [{"table": "support_requests", "in": "created", "count": 1,
                                       "expect": {"order_id": o["id"], "order_item_id": oi["id"], "issue": "missing",
                                                  "reason": "Item was not in the bag", "resolution": "refund",
                                                  "amount_cents": amt}}],
                           "unchanged_except": [creates("support_requests", {"order_id": o["id"], "order_item_id": oi["id"]})]},
                "solution": sol,
                "near_misses": [_help(f, o, oi, "Missing items", "Item was not in the bag", "Forkful credits")],
                "harmless": [harmless("check_work", recheck(sol, [*orders_page(), click(
                                          "link", f"Order #{o['id']} from {f.store[o['store_id']]['name']}", exact=True)]),
                                      "the refund requested, then the order reopened from Orders to see the request",
                                      t_recheck(_t_help(o, oi, "missing", "Item was not in the bag", "refund"),
                                                call("get_order", order_id=o["id"])))],
                "tools": tools_plan(_t_help(o, oi, "missing", "Item was not in the bag", "refund"),
                                    _t_help(o, oi, "missing", "Item was not in the bag", "credit")),
                "adversarial": [
                    extra(sol, _help(f, o, other, "Missing items", "Item was not in the bag", "Refund to")[:-1],
                          f"the {kind} refunded, then another line of the order ({other['name']}) claimed missing too"),
                    wrong_record(_help(f, o, other, "Missing items", "Item was not in the bag", "Refund to"),
                                 f"a refund for another line of the order ({other['name']})"),
                    collateral(sol),
                ],
            }
            k += 1


@template("food", "wrong-item-credit", difficulty="medium", max_steps=16)
def wrong_item_credit(w: World, rng: random.Random):
    """A wrong item: ask for Forkful credits; the credit balance grows by the line's price."""
    f = fw(w)
    orders = [o for o in _past(f) if len(f.order_items[o["id"]]) >= 2]
    for o in rng.sample(orders, 5):
        oi = rng.choice(f.order_items[o["id"]])
        amt = oi["unit_price_cents"] * oi["quantity"]
        other = _other_line(f.order_items[o["id"]], oi)
        sol = _help(f, o, oi, "Wrong items", "Received a different item", "Forkful credits")
        yield {
            "goal": f"In order #{o['id']} you received a different item instead of the {oi['name']}. Report it and "
                    f"take the refund as Forkful credits.",
            "start_path": "/",
            "verify": {"checks": [{"table": "support_requests", "in": "created", "count": 1,
                                   "expect": {"order_id": o["id"], "order_item_id": oi["id"], "issue": "wrong",
                                              "reason": "Received a different item", "resolution": "credit",
                                              "amount_cents": amt}},
                                  {"table": "users", "where": {"id": 1}, "expect": {"credits_cents": f.user["credits_cents"] + amt}}],
                       "unchanged_except": [creates("support_requests", {"order_id": o["id"], "order_item_id": oi["id"]}),
                                            user_update("credits_cents")]},
            "solution": sol,
            "adversarial": [
                extra(sol, _help(f, o, other, "Wrong items", "Received a different item", "Forkful credits")[:-1],
                      f"credits for the item, then for another line of the order ({other['name']}) too"),
                collateral(sol),
            ],
            "near_misses": [_help(f, o, other, "Wrong items", "Received a different item", "Forkful credits")],
            "harmless": [harmless("check_work", recheck(sol, [click("button", "Account menu"),
                                                             click("menuitem", "Gift cards & credits", exact=True)]),
                                  "the credits requested, then Gift cards & credits opened to see the balance",
                                  t_recheck(_t_help(o, oi, "wrong", "Received a different item", "credit"), call("get_account")))],
            "tools": tools_plan(_t_help(o, oi, "wrong", "Received a different item", "credit"),
                                _t_help(o, other, "wrong", "Received a different item", "credit")),
        }


def _t_help(o, oi, issue: str, reason: str, resolution: str) -> list[dict]:
    """Tool calls: read the order (its lines' ids), ask for help with one line."""
    return [call("get_order", order_id=o["id"]),
            call("request_help", order_id=o["id"], issue=issue, order_item_ids=[oi["id"]], reason=reason,
                 resolution=resolution), tdone()]
