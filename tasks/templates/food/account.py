"""Account templates: saved stores, addresses, notifications, profile, payment methods, gift cards,
membership, group orders."""

from __future__ import annotations

import random

from domain import food as logic
from tasks.templates.base import World
from tasks.templates.harmless import harmless
from tasks.templates.food._common import (
    another_item, collateral, creates, deletes, edit_profile_email, extra, new_cart, switch_to_pickup, user_update,
    wrong_record,
)
from tasks.templates.food._lib import (call, click, done, fill, fw, goto_store, press, recheck, tdone, template,
                                       tools_plan)


def _acct(section_link: str) -> list[dict]:
    return [click("button", "Account menu"), click("menuitem", "Account", exact=True),
            click("link", section_link, exact=True)]


def _reopen(section_link: str) -> list[dict]:
    """On an account page: its section link clicked again (the page reloaded from the server)."""
    return [click("link", section_link, exact=True)]


@template("food", "save-store", difficulty="easy", max_steps=10)
def save_store(w: World, rng: random.Random):
    """Find a store by name and save it (the heart)."""
    f = fw(w)
    saved = {r["store_id"] for r in w.table("saved_stores")}
    cands = [s for s in f.stores if s["id"] not in saved and f.names_count[s["name"]] == 1]
    for s in rng.sample(cands, 5):
        twin = next(x for x in cands if x["cuisine_id"] == s["cuisine_id"] and x["id"] != s["id"])
        sol = goto_store(s) + [click("button", f"Save {s['name']}", exact=True), done()]
        yield {
            "goal": f"Save {s['name']} to your saved stores.",
            "start_path": "/",
            "verify": {"checks": [{"table": "saved_stores", "in": "created", "count": 1, "expect": {"store_id": s["id"]}}],
                       "unchanged_except": [creates("saved_stores", {"store_id": s["id"]})]},
            "solution": sol,
            "near_misses": [goto_store(twin) + [click("button", f"Save {twin['name']}", exact=True), done()]],
            "harmless": [harmless("check_work", recheck(sol, [click("button", "Account menu"),
                                                             click("menuitem", "Saved stores", exact=True)]),
                                  "the store saved, then Saved stores opened to see it there",
                                  [call("search", query=s["name"], limit=5), call("save_store", store_id=s["id"]),
                                   call("get_account"), tdone()])],
            "tools": tools_plan([call("search", query=s["name"], limit=5), call("save_store", store_id=s["id"]), tdone()],
                                [call("search", query=twin["name"], limit=5), call("save_store", store_id=twin["id"]), tdone()]),
            "adversarial": [
                extra(sol, goto_store(twin) + [click("button", f"Save {twin['name']}", exact=True)],
                      f"the store saved, then another one too ({twin['name']})"),
                collateral(sol),
            ],
        }


@template("food", "unsave-store", difficulty="easy", max_steps=8)
def unsave_store(w: World, rng: random.Random):
    """Remove one store from Saved stores, keeping the others."""
    f = fw(w)
    rows = w.table("saved_stores")
    for r in rng.sample(rows, 5):
        s = f.store[r["store_id"]]
        other = f.store[next(x for x in rows if x["id"] != r["id"])["store_id"]]
        sol = [click("button", "Account menu"), click("menuitem", "Saved stores", exact=True),
               click("button", f"Unsave {s['name']}", exact=True), done()]
        yield {
            "goal": f"Remove {s['name']} from your saved stores, keeping the others.",
            "start_path": "/",
            "verify": {"checks": [{"table": "saved_stores", "in": "deleted", "count": 1, "expect": {"store_id": s["id"]}}],
                       "unchanged_except": [deletes("saved_stores", {"store_id": s["id"]})]},
            "solution": sol,
            "adversarial": [
                extra(sol, [click("button", f"Unsave {other['name']}", exact=True)],
                      f"the store unsaved, then another one too ({other['name']})"),
                collateral(sol),
            ],
            "near_misses": [[click("button", "Account menu"), click("menuitem", "Saved stores", exact=True),
                             click("button", f"Unsave {other['name']}", exact=True), done()]],
            # the heart on the store's own page (found by its name) instead of the Saved stores list
            "harmless": [harmless("other_control", goto_store(s) + [click("button", f"Unsave {s['name']}", exact=True), done()],
                                  "the store opened and unsaved with its own page's heart",
                                  [call("search", query=s["name"], limit=5), call("get_store", store_id=s["id"]),
                                   call("unsave_store", store_id=s["id"]), tdone()])],
            "tools": tools_plan([call("get_account"), call("unsave_store", store_id=s["id"]), tdone()],
                                [call("get_account"), call("unsave_store", store_id=other["id"]), tdone()]),
        }


@template("food", "switch-address", difficulty="easy", max_steps=8)
def switch_address(w: World, rng: random.Random):
    """Change the delivery address from the header."""
    f = fw(w)
    addrs = list(f.addr.values())
    others = [a for a in addrs if a["id"] != f.user["current_address_id"]]
    combos = [(a, start) for a in others for start in ("/", "/orders", "/offers")][:5]
    for a, start in combos:
        wrong = next(x for x in addrs if x["id"] not in (a["id"],))
        sol = [click("button", "Delivery address:"), click("button", f"Deliver to {a['label']},"), done()]
        yield {
            "goal": f"Switch your delivery address to your {a['label']} address ({logic.address_line(a)}).",
            "start_path": start,
            "verify": {"checks": [{"table": "users", "where": {"id": 1}, "expect": {"current_address_id": a["id"]}}],
                       "unchanged_except": [user_update("current_address_id")]},
            "solution": sol,
            "adversarial": [
                extra(sol, switch_to_pickup(), "the address switched, then the user's mode flipped to pickup too"),
                collateral(sol),
            ],
            "near_misses": [[click("button", "Delivery address:"), click("button", f"Deliver to {wrong['label']},"), done()]],
            # the Addresses page opened afterwards to see the Current pill on it
            "harmless": [harmless("check_work", recheck(sol, _acct("Addresses")),
                                  "the address switched, then Account > Addresses opened to see it marked Current",
                                  [call("get_account"), call("select_address", address_id=a["id"]), call("get_account"), tdone()])],
            "tools": tools_plan([call("get_account"), call("select_address", address_id=a["id"]), tdone()],
                                [call("get_account"), call("select_address", address_id=wrong["id"]), tdone()]),
        }


@template("food", "add-address", difficulty="medium", max_steps=16)
def add_address(w: World, rng: random.Random):
    """Add a new address (with label, apt and drop-off preference) and deliver there."""
    f = fw(w)
    nbs = w.table("neighborhoods")
    plans = [("250 King St", "Apt 3", "Gym"), ("1200 Ocean Ave", "", "Studio"), ("77 Pier Rd", "Unit 9", "Boat"),
             ("415 Castro St", "Suite 200", "Office 2"), ("9 Grove St", "", "Grandma")]
    for k, (street, apt, label) in enumerate(plans):
        nb = nbs[(k * 3) % len(nbs)]
        steps = [click("button", "Delivery address:"), click("button", "Add new address", exact=True),
                 fill("textbox", "Street address", street, exact=True)]
        if apt:
            steps.append(fill("textbox", "Apt, suite or floor", apt, exact=True))
        tail = [fill("textbox", "Address label", label, exact=True), click("radio", "Hand it to me", exact=True),
                click("button", "Save address", exact=True), done()]
        wrong_zip = next(n["zip"] for n in nbs if n["zip"] != nb["zip"])
        sol = steps + [fill("textbox", "ZIP code", nb["zip"], exact=True)] + tail
        city = steps + [fill("textbox", "City", "Bayview", exact=True),
                        fill("textbox", "ZIP code", nb["zip"], exact=True)] + tail
        yield {
            "goal": f"Add a new delivery address: {street}{', ' + apt if apt else ''}, Bayview {nb['zip']}, labelled "
                    f"“{label}”, with drop-off “Hand it to me”, and make it your current address.",
            "start_path": "/",
            "verify": {"checks": [{"table": "addresses", "in": "created", "count": 1,
                                   "expect": {"street": street, "apt": apt, "zip": nb["zip"], "label": label,
                                              "dropoff": "hand", "neighborhood_id": nb["id"]}},
                                  {"table": "users", "where": {"id": 1},
                                   "expect": {"current_address_id": {"$ref": {"table": "addresses", "in": "created", "field": "id"}}}}],
                       "unchanged_except": [creates("addresses", {"street": street, "label": label}),
                                            user_update("current_address_id")]},
            "solution": sol,
            # the goal names the city: typing it into the City field (prefilled with it) changes nothing
            "harmless": [harmless("autofilled", city, "the City field typed as the goal writes it (the form prefills it)",
                                  [call("add_address", street=street, zip=nb["zip"], **({"apt": apt} if apt else {}),
                                        city="Bayview", label=label, dropoff="hand"), tdone()])],
            "near_misses": [steps + [fill("textbox", "ZIP code", wrong_zip, exact=True)] + tail],
            "tools": tools_plan(
                [call("add_address", street=street, zip=nb["zip"], **({"apt": apt} if apt else {}), label=label, dropoff="hand"), tdone()],
                [call("add_address", street=street, zip=wrong_zip, **({"apt": apt} if apt else {}), label=label, dropoff="hand"), tdone()]),
            "adversarial": [
                extra(sol, sol[:-1], "the address added, then added a second time"),
                collateral(sol),
            ],
        }


@template("food", "notification-setting", difficulty="easy", max_steps=8)
def notification_setting(w: World, rng: random.Random):
    """Flip one notification switch."""
    f = fw(w)
    from apps.food.services.account import NOTIFY

    picks = [NOTIFY[i] for i in (4, 3, 1, 5, 2)]
    for key, head, label in picks:
        on = f.user[key]
        other = next(k for k in NOTIFY if k[0] != key)
        verb = "Turn off" if on else "Turn on"
        name = f"{head}: {label}"
        sol = _acct("Notifications") + [click("switch", name, exact=True), done()]
        yield {
            "goal": f"{verb} {label.lower()} for {head.lower()} in your notification settings, leaving the rest as is.",
            "start_path": "/",
            "verify": {"checks": [{"table": "users", "where": {"id": 1}, "expect": {key: not on}}],
                       "unchanged_except": [user_update(key)]},
            "solution": sol,
            "near_misses": [_acct("Notifications") + [click("switch", f"{other[1]}: {other[2]}", exact=True), done()]],
            "harmless": [harmless("check_work", recheck(sol, _reopen("Notifications")),
                                  "the switch flipped, then the Notifications page reloaded to see it stayed",
                                  [call("get_account"), call("set_notification", setting=key, on=not on), call("get_account"), tdone()])],
            "tools": tools_plan([call("get_account"), call("set_notification", setting=key, on=not on), tdone()],
                                [call("get_account"), call("set_notification", setting=other[0], on=not f.user[other[0]]), tdone()]),
            "adversarial": [
                extra(sol, [click("switch", f"{other[1]}: {other[2]}", exact=True)],
                      f"the switch flipped, then another one too ({other[1]}: {other[2]})"),
                extra(sol, switch_to_pickup(), "the switch flipped, then the user's mode flipped to pickup"),
            ],
        }


@template("food", "update-phone", difficulty="easy", max_steps=8)
def update_phone(w: World, rng: random.Random):
    """Change the profile's phone number (the app normalises the format)."""
    for k in range(5):
        digits = f"415555{rng.randint(1000, 9999)}"
        typed = [f"({digits[:3]}) {digits[3:6]}-{digits[6:]}", digits, f"{digits[:3]}-{digits[3:6]}-{digits[6:]}"][k % 3]
        want = f"({digits[:3]}) {digits[3:6]}-{digits[6:]}"
        bad = f"({digits[:3]}) {digits[3:6]}-{digits[6:9]}0" if digits[9] != "0" else f"({digits[:3]}) {digits[3:6]}-{digits[6:9]}1"
        sol = _acct("Profile") + [fill("textbox", "Phone number", typed, exact=True),
                                  click("button", "Save", exact=True), done()]
        yield {
            "goal": f"Change the phone number on your Forkful profile to {typed}.",
            "start_path": "/",
            "verify": {"checks": [{"table": "users", "where": {"id": 1}, "expect": {"phone": want}}],
                       "unchanged_except": [user_update("phone")]},
            "solution": sol,
            "adversarial": [
                extra(sol, edit_profile_email(), "the phone changed, then the profile's email too"),
                collateral(sol),
            ],
            "near_misses": [_acct("Profile") + [fill("textbox", "Phone number", bad, exact=True),
                                               click("button", "Save", exact=True), done()]],
            "harmless": [harmless("check_work", recheck(sol, _reopen("Profile")),
                                  "the phone saved, then the Profile page reloaded to see the number",
                                  [call("update_profile", phone=typed), call("get_account"), tdone()])],
            "tools": tools_plan([call("update_profile", phone=typed), tdone()], [call("update_profile", phone=bad), tdone()]),
        }


@template("food", "redeem-gift-card", difficulty="easy", max_steps=8)
def redeem_gift(w: World, rng: random.Random):
    """Redeem a gift card code; credits grow by its amount."""
    f = fw(w)
    cards = [g for g in w.table("gift_cards") if g["redeemed_at"] is None]
    used = next(g for g in w.table("gift_cards") if g["redeemed_at"] is not None)
    forms = [lambda c: c, lambda c: c.replace("-", ""), lambda c: c.lower(), lambda c: c, lambda c: c.replace("-", " ")]
    for k in range(5):
        g = cards[k % len(cards)]
        code = forms[k](g["code"])
        g2 = next(x for x in cards if x["id"] != g["id"])
        sol = [click("button", "Account menu"), click("menuitem", "Gift cards & credits", exact=True),
               fill("textbox", "Gift card code", code, exact=True), click("button", "Redeem", exact=True), done()]
        yield {
            "goal": f"Redeem the Forkful gift card with code {code}.",
            "start_path": "/",
            "verify": {"checks": [{"table": "users", "where": {"id": 1}, "expect": {"credits_cents": f.user["credits_cents"] + g["amount_cents"]}},
                                  {"table": "gift_cards", "in": "changed", "count": 1, "where": {"id": g["id"]}}],
                       "unchanged_except": [user_update("credits_cents"),
                                            {"table": "gift_cards", "where": {"id": g["id"]}, "fields": ["redeemed_at"]}]},
            "solution": sol,
            "adversarial": [
                extra(sol, [fill("textbox", "Gift card code", g2["code"], exact=True), click("button", "Redeem", exact=True)],
                      "the gift card redeemed, then another unredeemed one too"),
                collateral(sol),
            ],
            "near_misses": [[click("button", "Account menu"), click("menuitem", "Gift cards & credits", exact=True),
                             fill("textbox", "Gift card code", used["code"], exact=True), click("button", "Redeem", exact=True), done()]],
            # the near-miss: the already-used card (refused)
            "harmless": [harmless("check_work", recheck(sol, _reopen("Gift cards & credits")),
                                  "the card redeemed, then the Gift cards & credits page reloaded to see the balance",
                                  [call("redeem_gift_card", code=code), call("get_account"), tdone()])],
            "tools": tools_plan([call("redeem_gift_card", code=code), tdone()],
                                [call("redeem_gift_card", code=used["code"]), tdone()]),
        }


@template("food", "default-card", difficulty="easy", max_steps=8)
def default_card(w: World, rng: random.Random):
    """Make another saved card the default."""
    f = fw(w)
    cards = [c for c in w.table("payment_methods") if c["id"] != f.user["default_payment_id"]
             and not logic.card_expired(c, f.now)]
    starts = ["/", "/orders", "/offers", "/", "/orders"]
    for k in range(5):
        c = cards[k % len(cards)]
        other = cards[(k + 1) % len(cards)]
        label = f"{c['brand']} •••• {c['last4']}"
        sol = _acct("Payment methods") + [click("button", f"Make {label} default", exact=True), done()]
        yield {
            "goal": f"Make your {c['brand']} card ending in {c['last4']} your default payment method.",
            "start_path": starts[k],
            "verify": {"checks": [{"table": "users", "where": {"id": 1}, "expect": {"default_payment_id": c["id"]}}],
                       "unchanged_except": [user_update("default_payment_id")]},
            "solution": sol,
            "adversarial": [
                extra(sol, switch_to_pickup(), "the default card changed, then the user's mode flipped to pickup"),
                collateral(sol),
            ],
            "near_misses": [_acct("Payment methods") + [click("button", f"Make {other['brand']} •••• {other['last4']} default", exact=True), done()]],
            "harmless": [harmless("check_work", recheck(sol, _reopen("Payment methods")),
                                  "the default changed, then Payment methods reloaded to see the Default pill",
                                  [call("get_account"), call("set_default_card", card_id=c["id"]), call("get_account"), tdone()])],
            "tools": tools_plan([call("get_account"), call("set_default_card", card_id=c["id"]), tdone()],
                                [call("get_account"), call("set_default_card", card_id=other["id"]), tdone()]),
        }


TEST_CARDS = [("4000056655665556", "Visa", "09/29", "321"), ("5555555555554444", "Mastercard", "12/28", "456"),
              ("378282246310005", "Amex", "06/30", "7788"), ("4111111111111111", "Visa", "03/27", "135"),
              ("6011111111111117", "Discover", "11/29", "864")]


@template("food", "add-card", difficulty="medium", max_steps=14)
def add_card(w: World, rng: random.Random):
    """Add a card with validation (a mistyped number is rejected)."""
    for k, (num, brand, exp, cvc) in enumerate(TEST_CARDS):
        z = rng.choice(["94107", "94110", "94133"])
        typo = num[:-1] + str((int(num[-1]) + 1) % 10)
        pretty = " ".join(num[i:i + 4] for i in range(0, len(num), 4))
        make_default = k % 2 == 0

        def steps(n):
            out = _acct("Payment methods") + [click("button", "Add card", exact=True),
                                              fill("textbox", "Card number", n, exact=True),
                                              fill("textbox", "Expiration date", exp, exact=True),
                                              fill("textbox", "CVC", cvc, exact=True),
                                              fill("textbox", "Billing ZIP code", z, exact=True)]
            if make_default:
                out.append(click("checkbox", "Make this my default card", exact=True))
            return out + [click("button", "Save card", exact=True), done()]

        checks = [{"table": "payment_methods", "in": "created", "count": 1,
                   "expect": {"brand": brand, "last4": num[-4:], "exp_month": int(exp[:2]), "exp_year": 2000 + int(exp[3:]), "zip": z}}]
        allow = [creates("payment_methods", {"last4": num[-4:]})]
        if make_default:
            checks.append({"table": "users", "where": {"id": 1},
                           "expect": {"default_payment_id": {"$ref": {"table": "payment_methods", "in": "created", "field": "id"}}}})
            allow.append(user_update("default_payment_id"))
        sol = steps(pretty)
        again = sol[2:-1]  # already on Payment methods: the Add card dialog once more
        yield {
            "goal": f"Add a new {brand} card: number {pretty}, expiring {exp}, security code {cvc}, billing ZIP {z}"
                    + (", and make it your default card." if make_default else "."),
            "start_path": "/",
            "verify": {"checks": checks, "unchanged_except": allow},
            "solution": sol,
            "near_misses": [steps(typo)],
            # the near-miss: the mistyped number (refused by the card check)
            "harmless": [harmless("check_work", recheck(sol, _reopen("Payment methods")),
                                  "the card saved, then Payment methods reloaded to see it listed",
                                  [call("add_card", number=pretty, expiration=exp, cvc=cvc, billing_zip=z,
                                        **({"make_default": True} if make_default else {})), call("get_account"), tdone()])],
            "tools": tools_plan([call("add_card", number=pretty, expiration=exp, cvc=cvc, billing_zip=z,
                                      **({"make_default": True} if make_default else {})), tdone()],
                                [call("add_card", number=typo, expiration=exp, cvc=cvc, billing_zip=z,
                                      **({"make_default": True} if make_default else {})), tdone()]),
            "adversarial": [extra(sol, again, "the card added, then added a second time"), collateral(sol)],
        }


@template("food", "subscribe-plus", difficulty="medium", max_steps=10)
def subscribe_plus(w: World, rng: random.Random):
    """Join Forkful Plus on a plan, paying with a named card."""
    f = fw(w)
    cards = [c for c in w.table("payment_methods") if not logic.card_expired(c, f.now)]
    for k in range(5):
        plan = ["annual", "monthly"][k % 2]
        c = cards[k % len(cards)]
        other = "monthly" if plan == "annual" else "annual"
        base = [click("button", "Account menu"), click("menuitem", "Forkful Plus", exact=True)]

        def steps(p):
            return base + [click("radio", f"{p.capitalize()} plan", exact=True),
                           click("radio", f"{c['brand']} •••• {c['last4']}", exact=True),
                           click("button", "Subscribe", exact=True), done()]
        yield {
            "goal": f"Subscribe to Forkful Plus on the {plan} plan, paying with your {c['brand']} ending in {c['last4']}.",
            "start_path": "/",
            "verify": {"checks": [{"table": "users", "where": {"id": 1},
                                   "expect": {"membership_status": "active", "membership_plan": plan,
                                              "membership_payment_id": c["id"]}}],
                       "unchanged_except": [user_update("membership_status", "membership_plan",
                                                        "membership_payment_id", "membership_ends_on")]},
            "solution": steps(plan),
            "near_misses": [steps(other)],
            "harmless": [harmless("check_work", recheck(steps(plan), _acct("Forkful Plus")),
                                  "subscribed, then the Forkful Plus page opened again to see the membership",
                                  [call("get_account"), call("subscribe_plus", plan=plan, payment_method_id=c["id"]),
                                   call("get_account"), tdone()])],
            "tools": tools_plan([call("get_account"), call("subscribe_plus", plan=plan, payment_method_id=c["id"]), tdone()],
                                [call("get_account"), call("subscribe_plus", plan=other, payment_method_id=c["id"]), tdone()]),
            "adversarial": [
                extra(steps(plan), switch_to_pickup(), "subscribed, then the user's mode flipped to pickup"),
                collateral(steps(plan)),
            ],
        }


@template("food", "cancel-plus", difficulty="easy", max_steps=8)
def cancel_plus(w: World, rng: random.Random):
    """With an active membership (fixture), cancel it."""
    f = fw(w)
    for k in range(5):
        plan = ["annual", "monthly"][k % 2]
        ends = (f.now.date().toordinal() + 20 + k * 30)
        import datetime as dt

        fixtures = [{"op": "update", "table": "users", "where": {"id": 1},
                     "set": {"membership_status": "active", "membership_plan": plan, "membership_payment_id": 1,
                             "membership_ends_on": dt.date.fromordinal(ends).isoformat()}}]
        base = [click("button", "Account menu"), click("menuitem", "Forkful Plus", exact=True),
                click("button", "Cancel membership", exact=True)]
        sol = base + [click("button", "Cancel membership", exact=True, within={"role": "dialog"}), done()]
        yield {
            "goal": "Cancel your Forkful Plus membership.",
            "start_path": ["/", "/orders", "/offers", "/account/profile", "/"][k],
            "fixtures": fixtures,
            "verify": {"checks": [{"table": "users", "where": {"id": 1}, "expect": {"membership_status": "cancelled"}}],
                       "unchanged_except": [user_update("membership_status")]},
            "solution": sol,
            "adversarial": [
                extra(sol, switch_to_pickup(), "cancelled, then the user's mode flipped to pickup"),
                collateral(sol),
            ],
            "near_misses": [base + [click("button", "Keep membership", exact=True), done()]],
            # the near-miss: looked at the membership and kept it
            "harmless": [harmless("check_work", recheck(sol, _acct("Forkful Plus")),
                                  "cancelled, then the Forkful Plus page opened again to see the membership's end date",
                                  [call("get_account"), call("cancel_plus"), call("get_account"), tdone()])],
            "tools": tools_plan([call("get_account"), call("cancel_plus"), tdone()], [call("get_account"), tdone()]),
        }


@template("food", "start-group-order", difficulty="medium", max_steps=10)
def group_order(w: World, rng: random.Random):
    """Start a group order at a store with a per-person spending limit."""
    f = fw(w)
    stores = [s for s in f.stores if f.is_open(s) and f.names_count[s["name"]] == 1]
    limits = [("$25", 2500), ("$15", 1500), ("$50", 5000), ("No limit", None), ("$25", 2500)]
    for k, s in enumerate(rng.sample(stores, 5)):
        label, cents = limits[k]
        wrong_label = "$15" if label != "$15" else "$50"
        base = goto_store(s) + [click("button", "Group Order", exact=True)]
        tail = [click("button", "Start group order", exact=True), done()]
        goal_lim = "no spending limit" if cents is None else f"a {label} spending limit per person"
        sol = base + [click("radio", label, exact=True)] + tail
        yield {
            "goal": f"Start a group order at {s['name']} with {goal_lim}.",
            "start_path": "/",
            "verify": {"checks": [{"table": "carts", "count": 1, "expect": {"store_id": s["id"], "group_order": True,
                                                                           "group_limit_cents": cents}}],
                       "unchanged_except": [new_cart(s["id"], group=True)]},
            "solution": sol,
            "adversarial": [
                extra(sol, [click("button", "Done", exact=True, within={"role": "dialog", "name": "Group order"}),
                            *another_item(f, s["id"])[1]],
                      "the group order started, then an item added to it (nobody asked to shop)"),
                collateral(sol, close=[click("button", "Done", exact=True, within={"role": "dialog", "name": "Group order"})]),
            ],
            "near_misses": [base + [click("radio", wrong_label, exact=True)] + tail],
            # the share dialog closed (Done), then the cart drawer opened to see the group order
            "harmless": [harmless("check_work", recheck(sol, [click("button", "Done", exact=True,
                                                                     within={"role": "dialog", "name": "Group order"}),
                                                               click("button", "Cart,")]),
                                  "the group order started, then the cart opened to see it",
                                  [call("search", query=s["name"], limit=5), call("start_group_order", store_id=s["id"], limit_cents=cents),
                                   call("get_cart"), tdone()])],
            "tools": tools_plan(
                [call("search", query=s["name"], limit=5), call("start_group_order", store_id=s["id"], limit_cents=cents), tdone()],
                [call("search", query=s["name"], limit=5),
                 call("start_group_order", store_id=s["id"], limit_cents={"$15": 1500, "$50": 5000}[wrong_label]), tdone()]),
        }


__all__ = ["press"]
