"""Cross-app templates over a deal won: closed in the CRM, celebrated with a lunch ordered on Forkful, and the team
told by mail (the three apps in one task)."""

from __future__ import annotations

import random

from domain.correspondence import asked
from tasks.templates import World, template
from tasks.templates.crm.parts import ME, Crm, allow_update, close_as, email_composer, open_record
from tasks.templates.crm.parts import call as crm_call
from tasks.templates.crm.parts import find as crm_find
from tasks.templates.food.orders import open_stores, pick_line
from tasks.templates.food.parts import call as food_call
from tasks.templates.food.parts import fw, orders_page, toggle_notification
from tasks.templates.harmless import harmless
from tasks.templates.mail.parts import Mailbox, text_bound
from tasks.templates.mail.parts import call as mail_call
from tasks.templates.workspace.common import calls, done, every, in_tab, links, office_order, plan, scoped, spec, told
from tasks.templates.workspace.orders import compose, line_text


@template("workspace", "won-deal-celebration", difficulty="long", max_steps=60, count=6, test_every=6)
def won_deal_celebration(w: World, rng: random.Random):
    """A deal of mine in Negotiation was signed: mark it Closed Won in the CRM, order the team a celebration lunch on
    Forkful for delivery to the office, and email a coworker naming the deal and the new order's number."""
    f, mb, crm = fw(w.of("food")), Mailbox(w.of("mail")), Crm(w.of("crm"))
    deals = [o for o in crm.opps if o["owner_id"] == ME and o["stage"] == "Negotiation" and crm.unique(o["name"])
             and len(o["name"]) < 62]
    receipts = [f"#{r['order_id']}" for r in links(w)["receipts"]]
    mates = [c for c in mb.contacts if c["relation"] == "coworker" and not c["email"].startswith("ap@")]
    order = rng.sample(deals, len(deals))
    stores = rng.sample(open_stores(f), 6)
    for k, o in enumerate(order[:6]):
        other = order[(k + 6) % len(order)] if len(order) > 6 else order[(k + 1) % len(order)]
        s = stores[k]
        it, opts, rows = pick_line(f, s, rng)
        q = rng.choice([4, 5, 6])
        lunch = office_order(f, s, it, opts, rows, q)
        mate = mates[(k * 5) % len(mates)]
        subject = "We won!"
        text = (f"We closed {o['name']}! Lunch is on me: Forkful order #{lunch['id']} from {s['name']} is on its way "
                f"to the office.")
        assert not asked(subject + "\n" + text), "a statement: the coworker does not answer it"

        def steps(opp: dict = o, stage: str = "Closed Won", won: bool = True, ordered: bool = True,
                  to_work: bool = True, sent: bool = True, said: str = text) -> list[dict]:
            out = in_tab("crm", open_record(opp["name"]) + close_as(stage)) if won else []
            out += in_tab("food", lunch["steps"](q, to_work)) if ordered else []
            return out + (in_tab("mail", compose(mate["email"], subject, said)) if sent else []) + [done()]

        def tcalls(opp: dict = o, stage: str = "Closed Won", won: bool = True, ordered: bool = True,
                   to_work: bool = True, sent: bool = True, said: str = text) -> list[dict]:
            out = calls("crm", [crm_find("Opportunity", opp["name"]),
                                crm_call("change_stage_or_status", object="Opportunity", record_id=opp["id"],
                                         value=stage)]) if won else []
            out += lunch["calls"](q, to_work) if ordered else []
            return out + (calls("mail", [mail_call("send_email", to=[mate["email"]], subject=subject, body=said)])
                          if sent else [])

        crm_checks = [{"table": "opportunities", "where": {"id": o["id"]},
                       "expect": {"stage": "Closed Won", "probability": 100, "forecast_category": "Closed"},
                       "name": "the deal marked Closed Won"}]
        mail_part = told(mate["email"], {"$regex": every(o["name"], f"#{lunch['id']}"),
                                         "$len": text_bound(text, extra=mb.me["signature"]), "$excludes": receipts},
                         "the coworker told the deal and the lunch's order number")
        gold = steps()
        letter = f"Hi {mate['name'].split()[0]},\n\n{text}\n\nCheers,\n{mb.me['name']}"
        yield {
            "goal": f"\u201c{o['name']}\u201d was just signed. Mark the deal Closed Won in the CRM, then celebrate: order "
                    f"{q} \u00d7 {line_text(it, opts)} from {s['name']} on Forkful for standard delivery to the office "
                    f"(your Work address), and email {mate['name']} ({mate['email']}) with the subject "
                    f"\u201c{subject}\u201d and the text: \u201cWe closed {o['name']}! Lunch is on me: Forkful order "
                    f"#<the new order's number> from {s['name']} is on its way to the office.\u201d",
            "start_path": "/inbox",
            "verify": spec(scoped("crm", crm_checks) + scoped("food", lunch["checks"]) + scoped("mail", mail_part["checks"]),
                           scoped("crm", [allow_update("opportunities", {"id": o["id"]},
                                                       ["stage", "probability", "forecast_category", "loss_reason"])])
                           + scoped("food", lunch["allow"]) + scoped("mail", mail_part["unchanged_except"]),
                           {"the deal closed won": scoped("crm", crm_checks),
                            "the lunch ordered to the office": scoped("food", lunch["checks"]),
                            "the coworker told": scoped("mail", mail_part["checks"][:1])}),
            "solution": gold,
            "near_misses": [steps(sent=False), steps(won=False), steps(to_work=False), steps(stage="Closed Lost")],
            "adversarial": [
                {"kind": "wrong_app", "steps": steps(sent=False)[:-1] + in_tab("crm", open_record(o["name"])
                                                                              + email_composer(subject, text)) + [done()],
                 "why": "the email written in the CRM's own Email composer on the deal: nothing sent from the mailbox"},
                {"kind": "wrong_record", "steps": steps(opp=other),
                 "why": f"another deal (\u201c{other['name']}\u201d) marked Closed Won instead"},
                {"kind": "dump", "steps": steps(said=text.replace(f"#{lunch['id']}", " ".join([*receipts, f"#{lunch['id']}"]))),
                 "why": "the email lists every order number of the mailbox and the new one"},
                {"kind": "extra", "steps": gold[:-1] + in_tab("food", toggle_notification()) + [done()],
                 "why": "the gold, then an unasked-for Forkful notification switch flipped"},
            ],
            "harmless": [
                harmless("courtesy", steps(said=letter), "the text as a letter: a greeting and a sign-off",
                         tcalls(said=letter)),
                harmless("check_work", gold[:-1] + in_tab("food", orders_page()) + [done()],
                         "opens Forkful's Orders page at the end, to see the lunch there",
                         [*tcalls(), *calls("food", [food_call("list_orders", status="active")])]),
            ],
            "tools": plan(tcalls(), tcalls(sent=False), tcalls(won=False), tcalls(to_work=False),
                          tcalls(stage="Closed Lost")),
        }
