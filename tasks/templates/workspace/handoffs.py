"""Cross-app templates over handing work to a coworker: a case of mine given to them in the CRM, and the handoff
note (with what only the CRM says about the case) sent to them from the mailbox."""

from __future__ import annotations

import random

from domain.correspondence import asked
from tasks.templates import World, template
from tasks.templates.crm.parts import DIALOG, ME, Crm, allow_update, button, lookup, menuitem, open_record, pick, \
    save_modal
from tasks.templates.crm.parts import call as crm_call
from tasks.templates.crm.parts import find as crm_find
from tasks.templates.harmless import harmless
from tasks.templates.mail.basics import sent_message
from tasks.templates.mail.parts import Mailbox, graded, text_bound
from tasks.templates.mail.parts import call as mail_call
from tasks.templates.workspace.common import calls, done, in_tab, plan, scoped, spec
from tasks.templates.workspace.orders import compose

MATES = (7, 8, 9, 10, 11, 13, 14)  # CRM users who are mail coworkers (seed_data/workspace.py casts them), first names unique


def give_case(crm: Crm, case: dict, user: dict) -> list[dict]:
    """In the CRM tab: open the case, Change Owner to the CRM user `user`."""
    return open_record(case["case_number"]) + [button("Show more actions"), menuitem("Change Owner"),
                                               *lookup("Owner", user["first_name"], crm.uname(user["id"])),
                                               button("Change Owner", within=DIALOG)]


@template("workspace", "case-handoff-email", difficulty="hard", max_steps=40, count=5, test_every=5)
def case_handoff_email(w: World, rng: random.Random):
    """Before time off: make a coworker the owner of one of my open cases in the CRM, then email them the handoff,
    naming the case's contact (read from the case in the CRM)."""
    mb, crm = Mailbox(w.of("mail")), Crm(w.of("crm"))
    mine = sorted((c for c in crm.cases if c["owner_id"] == ME and c["status"] in ("New", "Working") and c["contact_id"]),
                  key=lambda c: c["id"])
    numbers = [c["case_number"] for c in mine]
    for k, case in enumerate(rng.sample(mine, min(5, len(mine)))):
        uid, wrong_uid = MATES[k % len(MATES)], MATES[(k + 3) % len(MATES)]
        mate, wrong_mate = crm.users[uid], crm.users[wrong_uid]
        contact, acc = crm.con[case["contact_id"]], crm.acc[case["account_id"]]
        other = next(c for c in mine if c["id"] != case["id"] and c["contact_id"] != case["contact_id"])
        number, who = case["case_number"], crm.cname(contact)
        subject = f"Handoff: case {number}"
        text = (f"Hi {mate['first_name']}, I have assigned you case {number} ({case['subject']}) for {acc['name']}. "
                f"The customer contact is {who}.")
        assert not asked(subject + "\n" + text), "a statement: the coworker does not answer it"

        def give(c: dict, u: dict) -> list[dict]:
            return give_case(crm, c, u)

        def steps(owner: dict = mate, said: str = text, given: bool = True, sent: bool = True) -> list[dict]:
            out = in_tab("crm", give(case, owner) if given else open_record(number))
            return out + (in_tab("mail", compose(mate["email"], subject, said)) if sent else []) + [done()]

        def tcalls(owner: dict = mate, said: str = text, given: bool = True, sent: bool = True) -> list[dict]:
            out = calls("crm", [crm_find("Case", number), crm_call("get_record", object="Case", record_id=case["id"])]
                        + ([crm_call("list_users"), crm_call("change_owner", object="Case", record_id=case["id"],
                                                             owner_id=owner["id"])] if given else []))
            return out + (calls("mail", [mail_call("send_email", to=[mate["email"]], subject=subject, body=said)])
                          if sent else [])

        mail_part = graded(
            [{"table": "messages", "in": "created", "where": {"is_sent": True}, "count": 1,
              "expect": {"to": [mate["email"]], "cc": [], "bcc": [], "is_sent": True,
                         "body": {"$icontains": f"case {number}", "$len": text_bound(text, extra=mb.me["signature"]),
                                  "$excludes": [n for n in numbers if n != number]}},
              "name": "the coworker told which case is theirs now"},
             {"table": "messages", "in": "created", "where": {"is_sent": True}, "count": 1,
              "expect": {"body": {"$icontains": f"contact is {who}", "$len": text_bound(text, extra=mb.me["signature"])}},
              "name": "the handoff names the case's contact, as the CRM has it"}],
            [{"table": "messages", "ops": ["create"], "where": sent_message(to=[mate["email"]]), "max": 1},
             {"table": "threads", "ops": ["create"], "max": 1}])
        crm_checks = [{"table": "cases", "where": {"id": case["id"]}, "expect": {"owner_id": uid, "status": case["status"]},
                       "name": "the case owned by the coworker now"}]
        gold = steps()
        other_who = crm.cname(crm.con[other["contact_id"]])
        letter = text.replace(", I have", ",\n\nI have") + f"\n\nThanks,\n{mb.me['name']}"
        yield {
            "goal": f"You are out tomorrow. Hand your case {number} ({acc['name']}: \u201c{case['subject']}\u201d) over to "
                    f"{crm.uname(uid)}: make them the case's owner in the CRM, then email them from your mailbox "
                    f"({mate['email']}) with the subject \u201c{subject}\u201d and the text: \u201cHi "
                    f"{mate['first_name']}, I have assigned you case {number} ({case['subject']}) for {acc['name']}. "
                    f"The customer contact is <the case's contact, as the CRM names them>.\u201d",
            "start_path": "/inbox",
            "verify": spec(scoped("mail", mail_part["checks"]) + scoped("crm", crm_checks),
                           scoped("mail", mail_part["unchanged_except"])
                           + scoped("crm", [allow_update("cases", {"id": case["id"]}, ["owner_id"])]),
                           {"the case given to the coworker": scoped("crm", crm_checks),
                            "the coworker told": scoped("mail", mail_part["checks"][:2])}),
            "solution": gold,
            "near_misses": [steps(sent=False), steps(given=False), steps(owner=wrong_mate)],
            "adversarial": [
                {"kind": "wrong_record", "steps": steps(said=text.replace(f"is {who}.", f"is {other_who}.")),
                 "why": f"the handoff names {other_who}, another case's contact (copied from the wrong record)"},
                {"kind": "dump", "steps": steps(said=text + " My other open cases: " + ", ".join(
                    n for n in numbers if n != number) + "."), "why": "the email lists every open case of mine"},
                {"kind": "extra", "steps": gold[:-1] + in_tab("crm", open_record(number) + [
                    button("Edit"), *pick("Status", "Escalated"), save_modal()]) + [done()],
                 "why": "the gold, then the case escalated, which nobody asked for"},
            ],
            "harmless": [harmless("courtesy", steps(said=letter), "the text as a letter: the greeting on its own line "
                                  "and a sign-off", tcalls(said=letter))],
            "tools": plan(tcalls(), tcalls(sent=False), tcalls(given=False), tcalls(owner=wrong_mate)),
        }
