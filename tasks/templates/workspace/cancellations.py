"""Cross-app templates over a plan called off: tomorrow's scheduled Forkful lunch cancelled, and the coworker who
called it off told by mail which order went."""

from __future__ import annotations

import random

from domain.correspondence import asked
from tasks.templates import World, template
from tasks.templates.food.parts import call as food_call
from tasks.templates.food.parts import cancel_order, fw, orders_page, toggle_notification
from tasks.templates.harmless import harmless
from tasks.templates.mail.parts import Mailbox, text_bound
from tasks.templates.mail.parts import call as mail_call
from tasks.templates.workspace.common import calls, done, in_tab, links, plan, scoped, spec, told
from tasks.templates.workspace.orders import compose

REASONS = ("Changed my mind", "Ordered by mistake", "Wrong address")


@template("workspace", "cancel-lunch-tell", difficulty="hard", max_steps=30, count=6, test_every=6)
def cancel_lunch_tell(w: World, rng: random.Random):
    """A coworker called off tomorrow's team lunch: cancel the scheduled Forkful order (with the reason given) and
    email them that it is cancelled, naming the order's number."""
    f, mb = fw(w.of("food")), Mailbox(w.of("mail"))
    o = next(o for o in f.orders if o["status"] == "scheduled")
    s = f.store[o["store_id"]]
    receipts = [f"#{r['order_id']}" for r in links(w)["receipts"]]
    mates = [c for c in mb.contacts if c["relation"] == "coworker" and not c["email"].startswith("ap@")]
    picked = rng.sample(mates, 6)
    for k, mate in enumerate(picked):
        reason = REASONS[k % len(REASONS)]
        wrong_reason = REASONS[(k + 1) % len(REASONS)]
        first = mate["name"].split()[0]
        subject = "Tomorrow's lunch is cancelled"
        text = f"Done: I cancelled tomorrow's lunch, Forkful order #{o['id']} from {s['name']}."
        assert not asked(subject + "\n" + text), "a statement: the coworker does not answer it"

        def steps(why: str | None = reason, cancelled: bool = True, sent: bool = True, said: str = text) -> list[dict]:
            out = in_tab("food", cancel_order(o["id"], why)) if cancelled else []
            return out + (in_tab("mail", compose(mate["email"], subject, said)) if sent else []) + [done()]

        def tcalls(why: str | None = reason, cancelled: bool = True, sent: bool = True, said: str = text) -> list[dict]:
            out = calls("food", [food_call("list_orders", status="active")]
                        + ([food_call("cancel_order", order_id=o["id"], **({"reason": why} if why else {}))]
                           if cancelled else []))
            return out + (calls("mail", [mail_call("send_email", to=[mate["email"]], subject=subject, body=said)])
                          if sent else [])

        food_checks = [{"table": "orders", "where": {"id": o["id"]}, "count": 1,
                        "expect": {"status": "cancelled", "cancel_reason": reason},
                        "name": "the scheduled lunch cancelled, with the reason"}]
        mail_part = told(mate["email"], {"$icontains": f"#{o['id']}", "$len": text_bound(text, extra=mb.me["signature"]),
                                         "$excludes": receipts}, "the coworker told which order was cancelled")
        gold = steps()
        letter = f"Hi {first},\n\n{text}\n\nThanks,\n{mb.me['name']}"
        yield {
            "goal": f"{mate['name']} says tomorrow's team lunch is off. Cancel your scheduled Forkful order from "
                    f"{s['name']}, giving the reason \u201c{reason}\u201d, then email {first} ({mate['email']}) with the "
                    f"subject \u201c{subject}\u201d and the text: \u201cDone: I cancelled tomorrow's lunch, Forkful "
                    f"order #<its number> from {s['name']}.\u201d",
            "start_path": "/inbox",
            "verify": spec(scoped("food", food_checks) + scoped("mail", mail_part["checks"]),
                           scoped("food", [{"table": "orders", "where": {"id": o["id"]},
                                            "fields": ["status", "cancel_reason"]}])
                           + scoped("mail", mail_part["unchanged_except"]),
                           {"the lunch cancelled": scoped("food", food_checks),
                            "the coworker told": scoped("mail", mail_part["checks"][:1])}),
            "solution": gold,
            "near_misses": [steps(sent=False), steps(cancelled=False), steps(why=wrong_reason)],
            "adversarial": [
                {"kind": "wrong_record", "steps": steps(said=text.replace(f"#{o['id']}", receipts[-1])),
                 "why": "the email names the last receipt's order number, not the cancelled one's"},
                {"kind": "dump", "steps": steps(said=text.replace(f"#{o['id']}", " ".join([*receipts, f"#{o['id']}"]))),
                 "why": "the email lists every order number of the mailbox and the cancelled one"},
                {"kind": "extra", "steps": gold[:-1] + in_tab("food", toggle_notification()) + [done()],
                 "why": "the gold, then an unasked-for Forkful notification switch flipped"},
            ],
            "harmless": [
                harmless("courtesy", steps(said=letter), "the text as a letter: a greeting and a sign-off",
                         tcalls(said=letter)),
                harmless("check_work", in_tab("food", cancel_order(o["id"], reason) + orders_page())
                         + in_tab("mail", compose(mate["email"], subject, text)) + [done()],
                         "opens Forkful's Orders page after cancelling, to see the order gone from the active ones",
                         [*tcalls(), *calls("food", [food_call("list_orders", status="active")])]),
            ],
            "tools": plan(tcalls(), tcalls(sent=False), tcalls(cancelled=False), tcalls(why=wrong_reason)),
        }
