"""Cross-app templates that need a correspondent's answer (domain/correspondence.py): ask by mail, wait for the
reply on the workspace's clock, then act on it in another app."""

from __future__ import annotations

import random

from tasks.templates import World, template
from tasks.templates.crm.parts import Crm, allow_update, button, open_record, save_modal
from tasks.templates.crm.parts import call as crm_call
from tasks.templates.crm.parts import fill as crm_fill
from tasks.templates.crm.parts import find as crm_find
from tasks.templates.harmless import harmless
from tasks.templates.mail.parts import COMPOSE, Mailbox, click, graded, open_row, phrase, search
from tasks.templates.mail.parts import call as mail_call
from tasks.templates.mail.parts import find as mail_find
from tasks.templates.workspace.common import calls, done, in_tab, links, plan, scoped, spec

WAIT_MS = 10_000  # the longest screen wait: ten minutes on the workspace's clock, past every correspondent's delay
WAIT_MINUTES = 10


def ask(email: str, subject: str, text: str) -> list[dict]:
    """In the mail tab: a new email to `email`, sent, then the wait for the answer and the answer opened."""
    return [click("button", "Compose", exact=True),
            {"fill": {"role": "textbox", "name": "To", "exact": True, "within": COMPOSE}, "text": email},
            {"press": ["Enter"]},
            {"fill": {"role": "textbox", "name": "Subject", "within": COMPOSE}, "text": subject},
            {"fill": {"role": "textbox", "name": "Message Body", "within": COMPOSE}, "text": text},
            click("button", "Send", exact=True, within=COMPOSE),
            {"wait": WAIT_MS}, *search(phrase(subject)), open_row(subject)]


def t_ask(email: str, subject: str, text: str) -> list[dict]:
    return calls("mail", [mail_call("send_email", to=[email], subject=subject, body=text)]) + [
        {"tool": "wait", "args": {"minutes": WAIT_MINUTES}}] + calls("mail", [mail_find(f"from:{email}")])


@template("workspace", "ask-phone-update-contact", difficulty="long", max_steps=60, count=5, test_every=5)
def ask_phone_update_contact(w: World, rng: random.Random):
    """Ask a client by mail for the best number to reach them, wait for the answer, and put it on their CRM
    contact's Phone."""
    mb, crm = Mailbox(w.of("mail")), Crm(w.of("crm"))
    joins = links(w)["contacts"]
    people = {p["email"]: p for p in w.table("mail.correspondents")}
    cands = [(people[e], crm.con[cid]) for e, cid in sorted(joins.items())
             if e in people and crm.unique(crm.cname(crm.con[cid])) and not crm.has_duplicates("contacts", crm.con[cid])
             and people[e]["facts"]["phone"] != crm.con[cid]["phone"]]
    order = rng.sample(cands, len(cands))
    for person, contact in order:
        name, phone = crm.cname(contact), person["facts"]["phone"]
        acc = crm.acc[contact["account_id"]]["name"]
        other_p, other_c = next((p, c) for p, c in order if c["id"] != contact["id"])
        subject = "Best number to reach you"
        text = f"Hi {contact['first_name']}, what is the best phone number to reach you?"

        def edit(c: dict, field: str, value: str) -> list[dict]:
            return open_record(crm.cname(c)) + [button("Edit"), crm_fill(field, value), save_modal()]

        def steps(who: dict = person, c: dict = contact, field: str = "Phone", value: str = phone, said: str = text,
                  update: bool = True) -> list[dict]:
            out = ask(who["email"], subject, said)
            return out + (in_tab("crm", edit(c, field, value)) if update else []) + [done()]

        def tcalls(who: dict = person, c: dict = contact, field: str = "phone", value: str = phone, said: str = text,
                   update: bool = True) -> list[dict]:
            out = t_ask(who["email"], subject, said)
            if update:
                out += calls("crm", [crm_find("Contact", crm.cname(c)),
                                     crm_call("update_record", object="Contact", record_id=c["id"], fields={field: value})])
            return out

        mail_part = graded(
            [{"table": "messages", "in": "created", "where": {"from_email": person["email"], "is_sent": False}, "count": 1,
              "name": "their answer came (asked, and waited for)"}],
            [{"table": "messages", "ops": ["create"], "where": {"is_sent": True, "is_draft": False, "to": [person["email"]]},
              "max": 1},
             {"table": "messages", "ops": ["create"], "where": {"from_email": person["email"]}, "max": 1},
             {"table": "threads", "ops": ["create"], "max": 1},
             {"table": "pending_replies", "ops": ["create"], "where": {"from_email": person["email"]}, "max": 1}])
        gold = steps()
        courteous = f"Hi {contact['first_name']},\n\nCould you tell me the best phone number to reach you?\n\nThanks,\n{mb.me['name']}"
        yield {
            "goal": f"Email {name} of {acc} ({person['email']}) to ask for the best phone number to reach them, wait for "
                    f"the answer, then set that number as the Phone of their contact record in the CRM.",
            "start_path": "/inbox",
            "verify": spec(
                scoped("mail", mail_part["checks"])
                + scoped("crm", [{"table": "contacts", "where": {"id": contact["id"]},
                                  "expect": {"phone": phone, "mobile": contact["mobile"]},
                                  "name": "the answered number on the contact's Phone"}]),
                scoped("mail", mail_part["unchanged_except"])
                + scoped("crm", [allow_update("contacts", {"id": contact["id"]}, ["phone"])])),
            "solution": gold,
            "near_misses": [steps(update=False), steps(field="Mobile"),
                            steps(who=other_p, c=contact, value=other_p["facts"]["phone"])],
            "adversarial": [
                {"kind": "wrong_record", "steps": steps(c=other_c),
                 "why": f"the answered number put on another contact ({crm.cname(other_c)})"},
                {"kind": "extra", "steps": gold[:-1] + edit(other_c, "Phone", phone) + [done()],
                 "why": f"the number put on {crm.cname(other_c)} too"},
            ],
            "harmless": [
                harmless("courtesy", steps(said=courteous), "the question as a letter: a greeting and a sign-off",
                         tcalls(said=courteous)),
                harmless("check_work", gold[:-1] + open_record(name) + [done()],
                         "opens the contact again to see the new number took",
                         [*tcalls(), {"tool": "crm_get_record", "args": {"object": "Contact", "record_id": contact["id"]}}]),
            ],
            "tools": plan(tcalls(), tcalls(update=False), tcalls(field="mobile"),
                          tcalls(who=other_p, value=other_p["facts"]["phone"])),
        }
