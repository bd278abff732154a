"""Cross-app templates where a coworker needs a fact the CRM holds: read on the record, sent from the mailbox."""

from __future__ import annotations

import random

from domain.correspondence import asked
from tasks.templates import World, template
from tasks.templates.crm.parts import Crm, button, fill, open_record, tab
from tasks.templates.crm.parts import call as crm_call
from tasks.templates.crm.parts import find as crm_find
from tasks.templates.harmless import harmless
from tasks.templates.mail.basics import sent_message
from tasks.templates.mail.parts import Mailbox, graded, text_bound
from tasks.templates.mail.parts import call as mail_call
from tasks.templates.workspace.common import calls, done, in_tab, links, plan, scoped, spec
from tasks.templates.workspace.orders import compose


@template("workspace", "contact-phone-to-coworker", difficulty="hard", max_steps=30, count=5, test_every=5)
def contact_phone_to_coworker(w: World, rng: random.Random):
    """A coworker is about to call a client: send them the Phone on the client's CRM contact (not the Mobile, not
    another contact's) by mail."""
    mb, crm = Mailbox(w.of("mail")), Crm(w.of("crm"))
    people = {p["email"]: p for p in w.table("mail.correspondents")}
    coworkers = [c for c in mb.contacts if c["relation"] == "coworker" and not c["email"].startswith("ap@")]
    cands = [crm.con[cid] for _e, cid in sorted(links(w)["contacts"].items())
             if crm.unique(crm.cname(crm.con[cid])) and not crm.has_duplicates("contacts", crm.con[cid])
             and crm.con[cid]["phone"] and crm.con[cid]["mobile"] and crm.con[cid]["mobile"] != crm.con[cid]["phone"]]
    seen: set[int] = set()  # one contact an account
    order = [c for c in rng.sample(cands, len(cands)) if not (c["account_id"] in seen or seen.add(c["account_id"]))]
    for k, c in enumerate(order[:5]):
        mate, wrong_mate = coworkers[(k * 4 + 1) % len(coworkers)], coworkers[(k * 4 + 2) % len(coworkers)]
        other = order[(k + 5) % len(order)]
        name, phone, acc = crm.cname(c), c["phone"], crm.acc[c["account_id"]]["name"]
        subject = f"Number for {name}"
        text = f"You can reach {name} at {phone}."
        assert not asked(subject + "\n" + text), "a statement: the coworker does not answer it"
        # the numbers it must not carry: the account's other CRM numbers (the Mobile among them), the other clients'
        # of this template, and the one the person gives by mail when asked
        near = [x for x in crm.contacts_by_acc[c["account_id"]]] + order
        wrong = sorted({n for x in near for n in (x["phone"], x["mobile"]) if n and n != phone}
                       | ({people[c["email"]]["facts"]["phone"]} if c["email"] in people else set()))

        def steps(said: str = text, to: str = mate["email"], sent: bool = True) -> list[dict]:
            out = in_tab("crm", open_record(name))
            return out + (in_tab("mail", compose(to, subject, said)) if sent else []) + [done()]

        def tcalls(said: str = text, to: str = mate["email"], sent: bool = True) -> list[dict]:
            out = calls("crm", [crm_find("Contact", name), crm_call("get_record", object="Contact", record_id=c["id"])])
            return out + (calls("mail", [mail_call("send_email", to=[to], subject=subject, body=said)]) if sent else [])

        mail_part = graded(
            [{"table": "messages", "in": "created", "where": {"is_sent": True}, "count": 1,
              "expect": {"to": [mate["email"]], "cc": [], "bcc": [], "is_sent": True,
                         "body": {"$icontains": phone, "$len": text_bound(text, extra=mb.me["signature"]),
                                  "$excludes": wrong}},
              "name": "the coworker sent the contact's Phone from the CRM"}],
            [{"table": "messages", "ops": ["create"], "where": sent_message(to=[mate["email"]]), "max": 1},
             {"table": "threads", "ops": ["create"], "max": 1}])
        gold = steps()
        letter = f"Hi {mate['name'].split()[0]},\n\n{text}\n\nBest,\n{mb.me['name']}"
        yield {
            "goal": f"{mate['name']} ({mate['email']}) is about to call {name} of {acc.rstrip('.')}. Look up the Phone on "
                    f"{name}'s contact record in the CRM and email it to {mate['name'].split()[0]} with the subject "
                    f"\u201c{subject}\u201d and the text: \u201cYou can reach {name} at <the phone number>.\u201d",
            "start_path": "/inbox",
            "verify": spec(scoped("mail", mail_part["checks"]), scoped("mail", mail_part["unchanged_except"])),
            "solution": gold,
            "near_misses": [steps(said=text.replace(phone, c["mobile"])), steps(to=wrong_mate["email"]),
                            steps(sent=False)],
            "adversarial": [
                {"kind": "wrong_record", "steps": steps(said=text.replace(phone, other["phone"])),
                 "why": f"the number of another contact ({crm.cname(other)})"},
                {"kind": "dump", "steps": steps(said=f"{text} Or try {c['mobile']}."),
                 "why": "the Phone and the Mobile both sent, hedging"},
                {"kind": "extra", "steps": gold[:-1] + in_tab("crm", open_record(name) + [
                    tab("Log a Call"), fill("Comments", "Shared the number with a coworker.", within=None),
                    button("Save")]) + [done()], "why": "the gold, then a call logged on the contact that never happened"},
            ],
            "harmless": [harmless("courtesy", steps(said=letter), "the text as a letter: a greeting and a sign-off",
                                  tcalls(said=letter))],
            "tools": plan(tcalls(), tcalls(said=text.replace(phone, c["mobile"])), tcalls(to=wrong_mate["email"]),
                          tcalls(sent=False)),
        }
