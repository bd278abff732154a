"""Cross-app templates over Forkful and the mailbox: an order placed for the office, and the word sent by mail."""

from __future__ import annotations

import random

from tasks.templates import World, template
from tasks.templates.food.orders import open_stores, order_expect, pick_line
from tasks.templates.food.parts import (
    add_line, call as food_call, checkout_address, click as food_click, created_order, fw, goto_store, order_allow,
    order_line, orders_page, place, t_add, t_checkout_address, to_checkout, toggle_notification, user_update,
)
from tasks.templates.harmless import harmless
from tasks.templates.mail.parts import COMPOSE, Mailbox, click, graded
from tasks.templates.mail.parts import call as mail_call
from tasks.templates.mail.basics import sent_message
from tasks.templates.workspace.common import calls, done, in_tab, links, plan, scoped, spec


def line_text(it: dict, opts: list[tuple[str, str]]) -> str:
    """An order line as a goal names it: "Pad Thai (Protein: Tofu)"."""
    return it["name"] if not opts else f"{it['name']} ({'; '.join(f'{g}: {o}' for g, o in opts)})"


def compose(to: str, subject: str, text: str) -> list[dict]:
    """In the mail tab: a new email, sent."""
    return [click("button", "Compose", exact=True),
            {"fill": {"role": "textbox", "name": "To", "exact": True, "within": COMPOSE}, "text": to}, {"press": ["Enter"]},
            {"fill": {"role": "textbox", "name": "Subject", "within": COMPOSE}, "text": subject},
            {"fill": {"role": "textbox", "name": "Message Body", "within": COMPOSE}, "text": text},
            click("button", "Send", exact=True, within=COMPOSE)]


@template("workspace", "office-lunch-confirm", difficulty="long", max_steps=60, count=5, test_every=5)
def office_lunch_confirm(w: World, rng: random.Random):
    """Order lunch on Forkful for delivery to the office (the Work address, the one in the mail signature), then
    email a coworker the order's number."""
    f, mb = fw(w.of("food")), Mailbox(w.of("mail"))
    work = next(a for a in f.addr.values() if a["label"] == "Work")
    order_id = max(o["id"] for o in f.orders) + 1  # the id the placed order gets
    receipts = [str(r["order_id"]) for r in links(w)["receipts"]]
    coworkers = [c for c in mb.contacts if c["relation"] == "coworker" and not c["email"].startswith("ap@")]
    for k, s in enumerate(rng.sample(open_stores(f), 5)):
        it, opts, rows = pick_line(f, s, rng)
        q = rng.choice([2, 3, 4])
        sub = f.unit(it, rows) * q
        mate = coworkers[(k * 3) % len(coworkers)]
        subject = "Lunch is ordered"
        text = f"Lunch is on its way to the office: Forkful order #{order_id} from {s['name']}."

        def order(to_work: bool = True) -> list[dict]:
            out = goto_store(s) + add_line(f, it, opts, q) + to_checkout()
            if to_work:
                out += checkout_address("Work")
            return out + place()

        def steps(to_work: bool = True, said: str = text, ordered: bool = True, sent: bool = True) -> list[dict]:
            out = in_tab("food", order(to_work)) if ordered else []
            return out + (in_tab("mail", compose(mate["email"], subject, said)) if sent else []) + [done()]

        def tcalls(to_work: bool = True, said: str = text, ordered: bool = True, sent: bool = True) -> list[dict]:
            out = []
            if ordered:
                out += calls("food", [food_call("get_store", store_id=s["id"]), *t_add(it, [r["id"] for r in rows], q)]
                             + (t_checkout_address(work["id"]) if to_work else [])
                             + [food_call("get_checkout"), food_call("place_order")])
            if sent:
                out += calls("mail", [mail_call("send_email", to=[mate["email"]], subject=subject, body=said)])
            return out

        food_checks = created_order(order_expect(f, s, sub, addr=work), 1) + [order_line(it["id"], [r["id"] for r in rows], q)]
        mail_part = graded(
            [{"table": "messages", "in": "created", "where": {"is_sent": True}, "count": 1,
              "expect": {"to": [mate["email"]], "cc": [], "bcc": [], "is_sent": True,
                         "body": {"$icontains": f"#{order_id}", "$len": {"$lte": len(text) + len(mb.me["signature"]) + 150},
                                  "$excludes": receipts}},
              "name": "the coworker told the new order's number"}],
            [{"table": "messages", "ops": ["create"], "where": sent_message(to=[mate["email"]]), "max": 1},
             {"table": "threads", "ops": ["create"], "max": 1}])
        gold = steps()
        yield {
            "goal": f"Order {q} \u00d7 {line_text(it, opts)} from {s['name']} on Forkful for standard delivery to the "
                    f"office (your Work address), then email {mate['name']} ({mate['email']}) with the subject "
                    f"\u201c{subject}\u201d and the text: \u201c{text}\u201d",
            "start_path": "/inbox",
            "verify": spec(scoped("food", food_checks) + scoped("mail", mail_part["checks"]),
                           scoped("food", order_allow(s["id"], [it["id"]], 1, user_update("current_address_id")))
                           + scoped("mail", mail_part["unchanged_except"]),
                           {"the lunch ordered to the office": scoped("food", food_checks),
                            "the coworker told its number": scoped("mail", mail_part["checks"][:1])}),
            "solution": gold,
            "near_misses": [steps(sent=False), steps(ordered=False), steps(to_work=False)],
            "adversarial": [
                {"kind": "wrong_record", "steps": steps(said=text.replace(f"#{order_id}", f"#{receipts[-1]}")),
                 "why": "the email names the last receipt's order number (copied from the wrong order)"},
                {"kind": "dump", "steps": steps(said=" ".join(text.replace(f"#{order_id}", f"#{n}")
                                                              for n in [*receipts, str(order_id)])),
                 "why": "the email lists every order number in the mailbox and the new one"},
                {"kind": "extra", "steps": gold[:-1] + in_tab("food", toggle_notification()) + [done()],
                 "why": "the gold, then an unasked-for Forkful notification switch flipped"},
                {"kind": "extra", "steps": in_tab("food", order(True)) + [
                    food_click("button", "Reorder", exact=True)] + in_tab("mail", compose(mate["email"], subject, text))
                    + [done()], "why": "the order placed, then Reorder on its page: a second cart left in Forkful"},
            ],
            "harmless": [
                harmless("courtesy", steps(said=f"Hi {mate['name'].split()[0]},\n\n{text}\n\n{mb.me['name']}"),
                         "the text as a letter: a greeting and a sign-off",
                         tcalls(said=f"Hi {mate['name'].split()[0]},\n\n{text}\n\n{mb.me['name']}")),
                harmless("check_work", in_tab("food", order(True) + orders_page())
                         + in_tab("mail", compose(mate["email"], subject, text)) + [done()],
                         "opens Forkful's Orders page after placing, to see the order there",
                         [*tcalls(), *calls("food", [food_call("list_orders", status="active")])]),
            ],
            "tools": plan(tcalls(), tcalls(sent=False), tcalls(ordered=False), tcalls(to_work=False)),
        }
