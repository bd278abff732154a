"""Cross-app templates over a deal's paperwork: the client's purchase order number asked for by mail (a correspondent
answers, domain/correspondence.py) and recorded on the deal in the CRM."""

from __future__ import annotations

import random

from domain.correspondence import asked
from tasks.templates import World, template
from tasks.templates.crm.parts import Crm, allow_update, button, open_record, save_modal
from tasks.templates.crm.parts import call as crm_call
from tasks.templates.crm.parts import fill as crm_fill
from tasks.templates.crm.parts import find as crm_find
from tasks.templates.harmless import harmless
from tasks.templates.mail.parts import Mailbox
from tasks.templates.workspace.asking import ask, t_ask
from tasks.templates.workspace.common import asked_and_answered, calls, done, in_tab, links, plan, scoped, spec
from tasks.templates.workspace.orders import compose


@template("workspace", "ask-po-opportunity", difficulty="long", max_steps=60, count=5, test_every=5)
def ask_po_opportunity(w: World, rng: random.Random):
    """Ask a client by mail for the purchase order number of their open deal, wait for the answer, and put it in the
    deal's Next Step in the CRM."""
    mb, crm = Mailbox(w.of("mail")), Crm(w.of("crm"))
    people = {p["email"]: p for p in w.table("mail.correspondents")}
    pos = [p["facts"]["po_number"] for p in people.values()]

    def po_free(o: dict) -> bool:  # no PO number on the deal yet
        return not any(x in (o["next_step"] or "") or x in (o["description"] or "") for x in pos)

    cands = []
    for email, cid in sorted(links(w)["contacts"].items()):
        c = crm.con[cid]
        opps = sorted((o for o in crm.opps_by_acc[c["account_id"]] if crm.is_open(o) and crm.unique(o["name"])
                       and po_free(o)), key=lambda o: o["id"])
        unique_po = email in people and all(p is people[email] or p["facts"]["po_number"] != people[email]["facts"]["po_number"]
                                            for p in people.values())
        if unique_po and opps and opps[-1]["id"] not in {x[2]["id"] for x in cands}:  # one person a deal
            cands.append((people[email], c, opps[-1]))
    order = rng.sample(cands, len(cands))
    for person, contact, opp in order[:5]:
        other_p, _other_c, other_opp = next(x for x in order if x[2]["account_id"] != opp["account_id"])
        po, first = person["facts"]["po_number"], contact["first_name"]
        subject = f"Purchase order for {opp['name']}"
        text = f"Hi {first}, could you send me the purchase order number for {opp['name']}?"
        assert asked(subject + "\n" + text) == ["po_number"], "the question asks for the PO number and nothing else"

        def edit(o: dict, field: str, value: str) -> list[dict]:
            return open_record(o["name"]) + [button("Edit"), crm_fill(field, value), save_modal()]

        def steps(who: dict = person, o: dict = opp, field: str = "Next Step", value: str = po, said: str = text,
                  update: bool = True) -> list[dict]:
            return ask(who["email"], subject, said) + (in_tab("crm", edit(o, field, value)) if update else []) + [done()]

        def tcalls(who: dict = person, o: dict = opp, field: str = "next_step", value: str = po, said: str = text,
                   update: bool = True) -> list[dict]:
            out = t_ask(who["email"], subject, said)
            if update:
                out += calls("crm", [crm_find("Opportunity", o["name"]),
                                     crm_call("update_record", object="Opportunity", record_id=o["id"],
                                              fields={field: value})])
            return out

        mail_part = asked_and_answered(person["email"])
        crm_checks = [{"table": "opportunities", "where": {"id": opp["id"]},
                       "expect": {"next_step": {"$icontains": po, "$len": {"$lte": len(po) + 40},
                                                "$excludes": [x for x in pos if x != po]},
                                  "description": opp["description"]},
                       "name": "the answered PO number in the deal's Next Step"}]
        gold = steps()
        letter = (f"Hi {first},\n\nCould you send me the purchase order number for {opp['name']}?\n\n"
                  f"Thanks,\n{mb.me['name']}")
        yield {
            "goal": f"Email {crm.cname(contact)} of {crm.acc[contact['account_id']]['name']} ({person['email']}) to ask "
                    f"for the purchase order number for the deal \u201c{opp['name']}\u201d, wait for the answer, then put "
                    f"that PO number in the Next Step field of the opportunity \u201c{opp['name']}\u201d in the CRM.",
            "start_path": "/inbox",
            "verify": spec(scoped("mail", mail_part["checks"]) + scoped("crm", crm_checks),
                           scoped("mail", mail_part["unchanged_except"])
                           + scoped("crm", [allow_update("opportunities", {"id": opp["id"]}, ["next_step"])]),
                           {"the PO number asked for and come": scoped("mail", mail_part["checks"][:1]),
                            "the PO number on the deal": scoped("crm", crm_checks)}),
            "solution": gold,
            "near_misses": [steps(update=False), steps(field="Description"),
                            steps(who=other_p, value=other_p["facts"]["po_number"])],
            "adversarial": [
                {"kind": "wrong_record", "steps": steps(o=other_opp),
                 "why": f"the answered PO number put on another deal (\u201c{other_opp['name']}\u201d)"},
                {"kind": "wrong_app", "steps": ask(person["email"], subject, text)
                 + compose(mb.me["email"], f"PO for {opp['name']}", f"PO number: {po}") + [done()],
                 "why": "the answer noted in an email to yourself: the deal in the CRM never updated"},
                {"kind": "dump", "steps": steps(value=" ".join(sorted(set(pos)))),
                 "why": "the Next Step lists every PO number the correspondents hold"},
                {"kind": "extra", "steps": gold[:-1] + edit(other_opp, "Next Step", po) + [done()],
                 "why": f"the PO number put on \u201c{other_opp['name']}\u201d too"},
            ],
            "harmless": [
                harmless("courtesy", steps(said=letter), "the question as a letter: a greeting and a sign-off",
                         tcalls(said=letter)),
                harmless("check_work", gold[:-1] + open_record(opp["name"]) + [done()],
                         "opens the deal again to see the Next Step took",
                         [*tcalls(), {"tool": "crm_get_record", "args": {"object": "Opportunity", "record_id": opp["id"]}}]),
            ],
            "tools": plan(tcalls(), tcalls(update=False), tcalls(field="description"),
                          tcalls(who=other_p, value=other_p["facts"]["po_number"])),
        }
