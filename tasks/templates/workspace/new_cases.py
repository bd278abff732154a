"""Cross-app templates over a new support case: opened in the CRM for a client who reported a problem, its number
(known only once the CRM has made it) sent to the client from the mailbox."""

from __future__ import annotations

import random

from domain.correspondence import asked
from tasks.templates import World, template
from tasks.templates.crm.parts import Crm, allow_create, button, fill, menuitem, open_record, pick, save_modal
from tasks.templates.crm.parts import call as crm_call
from tasks.templates.crm.parts import find as crm_find
from tasks.templates.harmless import harmless
from tasks.templates.mail.basics import sent_message
from tasks.templates.mail.parts import Mailbox, graded, text_bound
from tasks.templates.mail.parts import call as mail_call
from tasks.templates.workspace.common import calls, done, in_tab, links, plan, scoped, spec
from tasks.templates.workspace.orders import compose

PROBLEMS = ["Export to CSV times out", "Cannot add new users", "Dashboard shows wrong totals", "SSO login loop",
            "Sensor data delayed by hours", "API rate limit errors"]
SUBJECT = "Your support case"


@template("workspace", "phoned-case-email-number", difficulty="hard", max_steps=45, count=5, test_every=5)
def phoned_case_email_number(w: World, rng: random.Random):
    """A client phoned in a problem: open a High priority case for them in the CRM (origin Phone), then email them
    the new case's number, which the CRM gives the case when it is saved."""
    mb, crm = Mailbox(w.of("mail")), Crm(w.of("crm"))
    last = max(crm.cases, key=lambda c: c["id"])["case_number"]
    number = f"{int(last) + 1:08d}"  # the number the new case gets (apps/crm/records.create: the last one's plus one)
    known = sorted({last, *(t["case_number"] for t in links(w)["case_threads"])})
    cands = [crm.con[cid] for _e, cid in sorted(links(w)["contacts"].items())
             if crm.unique(crm.cname(crm.con[cid])) and not crm.has_duplicates("contacts", crm.con[cid])
             and crm.acc[crm.con[cid]["account_id"]]["type"].startswith("Customer")]
    seen: set[int] = set()  # one contact an account: five clients, not five people of one company
    order = [c for c in rng.sample(cands, len(cands)) if not (c["account_id"] in seen or seen.add(c["account_id"]))]
    for k, c in enumerate(order[:5]):
        other = order[(k + 5) % len(order)]
        name, email, acc = crm.cname(c), c["email"].lower(), crm.acc[c["account_id"]]
        problem = PROBLEMS[(k + rng.randrange(len(PROBLEMS))) % len(PROBLEMS)]
        text = (f"Hi {c['first_name']}, I have opened case {number} for \u201c{problem}\u201d. "
                f"Our support team will be in touch.")
        assert not asked(SUBJECT + "\n" + text), "a statement: the correspondent does not answer it"

        def case(who: dict = c, priority: str = "High") -> list[dict]:
            return open_record(crm.cname(who)) + [button("Show more actions"), menuitem("New Case"),
                                                  fill("Subject", problem), *pick("Priority", priority),
                                                  *pick("Case Origin", "Phone"), save_modal()]

        def steps(who: dict = c, priority: str = "High", said: str = text, opened: bool = True,
                  sent: bool = True) -> list[dict]:
            out = in_tab("crm", case(who, priority)) if opened else []
            return out + (in_tab("mail", compose(email, SUBJECT, said)) if sent else []) + [done()]

        def tcalls(who: dict = c, priority: str = "High", said: str = text, opened: bool = True,
                   sent: bool = True) -> list[dict]:
            out = calls("crm", [crm_find("Contact", crm.cname(who)),
                                crm_call("create_record", object="Case", fields={
                                    "subject": problem, "origin": "Phone", "contact_id": who["id"],
                                    "priority": priority})]) if opened else []
            return out + (calls("mail", [mail_call("send_email", to=[email], subject=SUBJECT, body=said)]) if sent else [])

        mail_part = graded(
            [{"table": "messages", "in": "created", "where": {"is_sent": True}, "count": 1,
              "expect": {"to": [email], "cc": [], "bcc": [], "is_sent": True,
                         "body": {"$icontains": number, "$len": text_bound(text, extra=mb.me["signature"]),
                                  "$excludes": known}},
              "name": "the client emailed the new case's number"}],
            [{"table": "messages", "ops": ["create"], "where": sent_message(to=[email]), "max": 1},
             {"table": "threads", "ops": ["create"], "max": 1}])
        crm_checks = [{"table": "cases", "in": "created", "where": {"contact_id": c["id"]}, "count": 1,
                       "expect": {"account_id": acc["id"], "subject": {"$ieq": problem}, "priority": "High",
                                  "origin": "Phone", "status": "New", "case_number": number},
                       "name": "the case opened for the client"}]
        gold = steps()
        letter = (f"Hi {c['first_name']},\n\nI have opened case {number} for \u201c{problem}\u201d. Our support team "
                  f"will be in touch.\n\nBest regards,\n{mb.me['name']}")
        yield {
            "goal": f"{name} of {acc['name']} just phoned to report a problem: \u201c{problem}\u201d. Open a "
                    f"High priority case for them in the CRM with that subject and case origin Phone, then email them "
                    f"from your mailbox (the address on their contact record) with the subject \u201c{SUBJECT}\u201d and "
                    f"the text: \u201cHi {c['first_name']}, I have opened case <the new case's number> for "
                    f"\u201c{problem}\u201d. Our support team will be in touch.\u201d",
            "start_path": "/inbox",
            "verify": spec(scoped("mail", mail_part["checks"]) + scoped("crm", crm_checks),
                           scoped("mail", mail_part["unchanged_except"])
                           + scoped("crm", [allow_create("cases", {"contact_id": c["id"], "account_id": acc["id"]})]),
                           {"the case opened": scoped("crm", crm_checks),
                            "the client told its number": scoped("mail", mail_part["checks"][:1])}),
            "solution": gold,
            "near_misses": [steps(sent=False), steps(opened=False), steps(priority="Medium")],
            "adversarial": [
                {"kind": "wrong_record", "steps": steps(said=text.replace(number, last)),
                 "why": f"the email names case {last}, the newest case before this one (copied from the wrong record)"},
                {"kind": "dump", "steps": steps(said=text.replace(number, ", ".join([*known, number]))),
                 "why": "the email lists every case number in sight and the new one"},
                {"kind": "wrong_record", "steps": steps(who=other),
                 "why": f"the case opened on another client's contact ({crm.cname(other)})"},
                {"kind": "extra", "steps": gold[:-1] + in_tab("crm", case(c, "Medium")) + [done()],
                 "why": "a second case for the same problem, at Medium priority (hedging)"},
            ],
            "harmless": [
                harmless("courtesy", steps(said=letter), "the text as a letter: a greeting and a sign-off",
                         tcalls(said=letter)),
            ],
            "tools": plan(tcalls(), tcalls(sent=False), tcalls(opened=False), tcalls(priority="Medium")),
        }
