"""Cross-app templates over a phone call with a client: the call logged on their CRM contact, the recap sent from the
mailbox to the address the CRM and the mailbox share."""

from __future__ import annotations

import random

from domain.correspondence import asked
from tasks.templates import World, template
from tasks.templates.crm.parts import Crm, button, email_composer, fill, open_record, tab
from tasks.templates.crm.parts import call as crm_call
from tasks.templates.crm.parts import find as crm_find
from tasks.templates.harmless import harmless
from tasks.templates.mail.basics import sent_message
from tasks.templates.mail.parts import Mailbox, graded, text_bound
from tasks.templates.mail.parts import call as mail_call
from tasks.templates.workspace.common import calls, done, in_tab, links, plan, scoped, spec
from tasks.templates.workspace.orders import compose

NOTES = ["They want to start the rollout in May.", "They agreed to a pilot with two teams.",
         "Budget approval is expected by the end of the month.", "They asked for two customer references.",
         "Legal will review the contract next week.", "They prefer the annual plan over monthly billing."]
SUBJECT = "Recap of our call"


@template("workspace", "log-call-email-recap", difficulty="hard", max_steps=40, count=5, test_every=5)
def log_call_email_recap(w: World, rng: random.Random):
    """After a phone call with a client: log the call on their CRM contact with the note, and email them the recap
    from the mailbox."""
    mb, crm = Mailbox(w.of("mail")), Crm(w.of("crm"))
    cands = [crm.con[cid] for _e, cid in sorted(links(w)["contacts"].items())
             if crm.unique(crm.cname(crm.con[cid])) and not crm.has_duplicates("contacts", crm.con[cid])]
    seen: set[int] = set()  # one contact an account: five clients, not five people of one company
    order = [c for c in rng.sample(cands, len(cands)) if not (c["account_id"] in seen or seen.add(c["account_id"]))]
    for k, c in enumerate(order[:5]):
        other = order[(k + 5) % len(order)]
        name, email = crm.cname(c), c["email"].lower()
        acc = crm.acc[c["account_id"]]["name"]
        note = NOTES[(k + rng.randrange(len(NOTES))) % len(NOTES)]
        text = f"Hi {c['first_name']}, thanks for the call today. To recap: {note}"
        assert not asked(SUBJECT + "\n" + text), "a statement: the correspondent does not answer it"

        def log(who: dict = c, comment: str = note) -> list[dict]:
            return open_record(crm.cname(who)) + [tab("Log a Call"), fill("Comments", comment, within=None),
                                                  button("Save")]

        def steps(who: dict = c, to: str = email, said: str = text, logged: bool = True,
                  sent: bool = True) -> list[dict]:
            out = in_tab("crm", log(who)) if logged else []
            return out + (in_tab("mail", compose(to, SUBJECT, said)) if sent else []) + [done()]

        def tcalls(who: dict = c, to: str = email, said: str = text, logged: bool = True,
                   sent: bool = True) -> list[dict]:
            out = calls("crm", [crm_find("Contact", crm.cname(who)),
                                crm_call("log_call", object="Contact", record_id=who["id"], comments=note)]) if logged else []
            return out + (calls("mail", [mail_call("send_email", to=[to], subject=SUBJECT, body=said)]) if sent else [])

        others = [n for n in NOTES if n != note]
        mail_part = graded(
            [{"table": "messages", "in": "created", "where": {"is_sent": True}, "count": 1,
              "expect": {"to": [email], "cc": [], "bcc": [], "is_sent": True,
                         "body": {"$icontains": note, "$len": text_bound(text, extra=mb.me["signature"]),
                                  "$excludes": others}},
              "name": "the recap emailed to the client from the mailbox"}],
            [{"table": "messages", "ops": ["create"], "where": sent_message(to=[email]), "max": 1},
             {"table": "threads", "ops": ["create"], "max": 1}])
        crm_checks = [{"table": "tasks", "in": "created", "where": {"who_type": "Contact", "who_id": c["id"]}, "count": 1,
                       "expect": {"task_subtype": "Call", "status": "Completed",
                                  "description": {"$icontains": note, "$len": {"$lte": len(note) + 60},
                                                  "$excludes": others}},
                       "name": "the call logged on the client's contact"}]
        gold = steps()
        letter = f"Hi {c['first_name']},\n\nThanks for the call today. To recap: {note}\n\nBest,\n{mb.me['name']}"
        yield {
            "goal": f"You just got off the phone with {name} of {acc.rstrip('.')}. Log the call on their CRM contact with the "
                    f"comment \u201c{note}\u201d, then email them from your mailbox (the address on their contact record) "
                    f"with the subject \u201c{SUBJECT}\u201d and the text: \u201c{text}\u201d",
            "start_path": "/inbox",
            "verify": spec(scoped("mail", mail_part["checks"]) + scoped("crm", crm_checks),
                           scoped("mail", mail_part["unchanged_except"])
                           + scoped("crm", [{"table": "tasks", "ops": ["create"],
                                             "where": {"who_type": "Contact", "who_id": c["id"]}, "max": 1}]),
                           {"the call logged": scoped("crm", crm_checks),
                            "the recap emailed": scoped("mail", mail_part["checks"][:1])}),
            "solution": gold,
            "near_misses": [steps(sent=False), steps(logged=False), steps(who=other)],
            "adversarial": [
                {"kind": "wrong_app", "steps": in_tab("crm", log() + email_composer(SUBJECT, text))
                 + [done()], "why": "the recap written in the CRM's Email composer (an activity logged there): "
                                    "nothing sent from the mailbox"},
                {"kind": "wrong_record", "steps": steps(to=other["email"].lower()),
                 "why": f"the recap emailed to another client ({crm.cname(other)})"},
                {"kind": "dump", "steps": steps(said=f"{text} " + " ".join(others)),
                 "why": "the recap lists every note the template could ask for"},
                {"kind": "extra", "steps": gold[:-1] + in_tab("crm", log(other)) + [done()],
                 "why": f"a call logged on {crm.cname(other)} too"},
            ],
            "harmless": [
                harmless("courtesy", steps(said=letter), "the text as a letter: a greeting and a sign-off",
                         tcalls(said=letter)),
                harmless("check_work", gold[:-1] + in_tab("crm", open_record(name)) + [done()],
                         "opens the contact again to see the call in its activity",
                         [*tcalls(), {"tool": "crm_get_record", "args": {"object": "Contact", "record_id": c["id"]}}]),
            ],
            "tools": plan(tcalls(), tcalls(sent=False), tcalls(logged=False), tcalls(who=other)),
        }
