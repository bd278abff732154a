"""Cross-app templates over what Forkful orders cost: the amount read in Forkful, told by mail."""

from __future__ import annotations

import random

from domain.food import money
from tasks.templates import World, template
from tasks.templates.food.parts import call as food_call, fw, orders_page, toggle_notification
from tasks.templates.harmless import harmless
from tasks.templates.mail.basics import sent_message
from tasks.templates.mail.parts import Mailbox, graded, text_bound
from tasks.templates.mail.parts import call as mail_call
from tasks.templates.workspace.common import calls, done, in_tab, links, plan, scoped, spec
from tasks.templates.workspace.orders import compose


@template("workspace", "order-total-to-coworker", difficulty="hard", max_steps=40, count=5, test_every=5)
def order_total_to_coworker(w: World, rng: random.Random):
    """A coworker splitting an old team order asks what it cost: read the order's total in Forkful (it has no
    receipt in the mailbox) and email it to them."""
    f, mb = fw(w.of("food")), Mailbox(w.of("mail"))
    receipts = {r["order_id"] for r in links(w)["receipts"]}
    latest: dict[int, dict] = {}
    for o in sorted(f.orders, key=lambda o: o["placed_at"]):
        latest[o["store_id"]] = o
    totals = sorted({money(o["total_cents"]) for o in f.orders})
    # the latest order of a store named once, with no receipt in the mailbox (the amount is only in Forkful)
    cands = [o for sid, o in sorted(latest.items()) if f.names_count[f.store[sid]["name"]] == 1
             and o["status"] == "delivered" and o["id"] not in receipts and o["subtotal_cents"] != o["total_cents"]]
    coworkers = [c for c in mb.contacts if c["relation"] == "coworker" and not c["email"].startswith("ap@")]
    for k, o in enumerate(rng.sample(cands, 5)):
        s = f.store[o["store_id"]]
        mate = coworkers[(k * 5 + 2) % len(coworkers)]
        other_mate = coworkers[(k * 5 + 3) % len(coworkers)]
        other = next(x for x in cands if x["id"] != o["id"] and x["total_cents"] != o["total_cents"])
        total = money(o["total_cents"])
        subject = f"Forkful order from {s['name']}"
        text = f"My last Forkful order from {s['name']} came to {total} in total."

        def steps(said: str = text, to: str = mate["email"], sent: bool = True) -> list[dict]:
            out = in_tab("food", orders_page())
            return out + (in_tab("mail", compose(to, subject, said)) if sent else []) + [done()]

        def tcalls(said: str = text, to: str = mate["email"], sent: bool = True) -> list[dict]:
            out = calls("food", [food_call("list_orders", status="past", store_id=s["id"], limit=5),
                                 food_call("get_order", order_id=o["id"])])
            return out + (calls("mail", [mail_call("send_email", to=[to], subject=subject, body=said)]) if sent else [])

        wrong = [t for t in totals if t != total]
        mail_part = graded(
            [{"table": "messages", "in": "created", "where": {"is_sent": True}, "count": 1,
              "expect": {"to": [mate["email"]], "cc": [], "bcc": [], "is_sent": True,
                         "body": {"$icontains": total, "$len": text_bound(text, extra=mb.me["signature"]),
                                  "$excludes": wrong}},
              "name": "the coworker told the order's total"}],
            [{"table": "messages", "ops": ["create"], "where": sent_message(to=[mate["email"]]), "max": 1},
             {"table": "threads", "ops": ["create"], "max": 1}])
        gold = steps()
        letter = f"Hi {mate['name'].split()[0]},\n\n{text}\n\nBest,\n{mb.me['name']}"
        yield {
            "goal": f"{mate['name']} ({mate['email']}) is settling expenses and needs what your last Forkful "
                    f"order from {s['name']} cost. Look up that order's total on Forkful and email it to them with the "
                    f"subject \u201c{subject}\u201d and the text: \u201cMy last Forkful order from {s['name']} came to "
                    f"<the total> in total.\u201d",
            "start_path": "/inbox",
            "verify": spec(scoped("mail", mail_part["checks"]), scoped("mail", mail_part["unchanged_except"])),
            "solution": gold,
            "near_misses": [steps(sent=False), steps(said=text.replace(total, money(o["subtotal_cents"]))),
                            steps(to=other_mate["email"])],
            "adversarial": [
                {"kind": "wrong_record", "steps": steps(said=text.replace(total, money(other["total_cents"]))),
                 "why": f"the total of another order (#{other['id']}) sent"},
                {"kind": "dump", "steps": steps(said=text + " Other totals: " + ", ".join(wrong) + "."),
                 "why": "the email lists every order total in Forkful besides the right one"},
                {"kind": "extra", "steps": gold[:-1] + in_tab("food", toggle_notification()) + [done()],
                 "why": "the gold, then an unasked-for Forkful notification switch flipped"},
            ],
            "harmless": [harmless("courtesy", steps(said=letter), "the text as a letter: a greeting and a sign-off",
                                  tcalls(said=letter))],
            "tools": plan(tcalls(), tcalls(sent=False), tcalls(said=text.replace(total, money(o["subtotal_cents"]))),
                          tcalls(to=other_mate["email"])),
        }
