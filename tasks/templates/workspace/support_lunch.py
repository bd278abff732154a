"""Cross-app templates where a count read in the CRM sizes a Forkful order: lunch for the people working an
account's open cases."""

from __future__ import annotations

import random

from tasks.templates import World, template
from tasks.templates.crm.parts import Crm, open_record
from tasks.templates.crm.parts import call as crm_call
from tasks.templates.crm.parts import find as crm_find
from tasks.templates.food.orders import open_stores, order_expect, pick_line
from tasks.templates.food.parts import (
    add_line, call as food_call, checkout_address, created_order, fw, goto_store, order_allow, order_line,
    orders_page, place, t_add, t_checkout_address, to_checkout, toggle_notification, user_update,
)
from tasks.templates.harmless import harmless
from tasks.templates.workspace.common import calls, done, in_tab, plan, scoped, spec
from tasks.templates.workspace.orders import line_text


@template("workspace", "open-cases-lunch", difficulty="hard", max_steps=40, count=5, test_every=5)
def open_cases_lunch(w: World, rng: random.Random):
    """A manager treats the support engineers on an account: one lunch per open case of that account (counted in the
    CRM; its closed cases do not count), ordered on Forkful for delivery to the office."""
    f, crm = fw(w.of("food")), Crm(w.of("crm"))
    work = next(a for a in f.addr.values() if a["label"] == "Work")
    cands = []
    for a in crm.accounts:
        cs = crm.cases_by_acc.get(a["id"], [])
        n_open = sum(1 for c in cs if c["status"] != "Closed")
        if 2 <= n_open <= 6 and len(cs) > n_open and crm.unique(a["name"]):
            cands.append((a, n_open, len(cs)))
    order = rng.sample(cands, len(cands))
    stores = rng.sample(open_stores(f), 5)
    for k, (a, n, n_all) in enumerate(order[:5]):
        other_a, other_n, _ = next(x for x in order if x[1] != n)
        s = stores[k]
        it, opts, rows = pick_line(f, s, rng)

        def food_order(q: int, to_work: bool = True) -> list[dict]:
            out = goto_store(s) + add_line(f, it, opts, q) + to_checkout()
            if to_work:
                out += checkout_address("Work")
            return out + place()

        def steps(q: int = n, to_work: bool = True, looked: dict = a) -> list[dict]:
            return in_tab("crm", open_record(looked["name"])) + in_tab("food", food_order(q, to_work)) + [done()]

        def tcalls(q: int = n, to_work: bool = True, looked: dict = a) -> list[dict]:
            return calls("crm", [crm_find("Account", looked["name"]),
                                 crm_call("get_record", object="Account", record_id=looked["id"])]) + calls("food", [
                food_call("get_store", store_id=s["id"]), *t_add(it, [r["id"] for r in rows], q)]
                + (t_checkout_address(work["id"]) if to_work else [])
                + [food_call("get_checkout"), food_call("place_order")])

        food_checks = created_order(order_expect(f, s, f.unit(it, rows) * n, addr=work), 1) + [
            order_line(it["id"], [r["id"] for r in rows], n)]
        gold = steps()
        yield {
            "goal": f"Lunch is on you for the support engineers working the open cases of {a['name']}: one "
                    f"{line_text(it, opts)} from {s['name']} per open (not closed) case that account has in the CRM. "
                    f"Order them on Forkful for standard delivery to the office (your Work address).",
            "start_path": "/inbox",
            "verify": spec(scoped("food", food_checks),
                           scoped("food", order_allow(s["id"], [it["id"]], 1, user_update("current_address_id")))),
            "solution": gold,
            "near_misses": [steps(q=n_all), steps(to_work=False), in_tab("crm", open_record(a["name"])) + [done()]],
            "adversarial": [
                {"kind": "wrong_record", "steps": steps(q=other_n, looked=other_a),
                 "why": f"sized by another account's open cases ({other_a['name']}: {other_n})"},
                {"kind": "extra", "steps": gold[:-1] + toggle_notification() + [done()],
                 "why": "the gold, then an unasked-for Forkful notification switch flipped"},
                {"kind": "extra", "steps": gold[:-1] + food_order(1) + [done()],
                 "why": "a second order of one more, hedging the count"},
            ],
            "harmless": [harmless("check_work", gold[:-1] + orders_page() + [done()],
                                  "opens Forkful's Orders page after placing, to see the order there",
                                  [*tcalls(), *calls("food", [food_call("list_orders", status="active")])])],
            "tools": plan(tcalls(), tcalls(q=n_all), tcalls(to_work=False)),
        }
