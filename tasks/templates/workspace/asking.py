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
from tasks.templates.mail.parts import COMPOSE, Mailbox, click, open_row, phrase, search
from tasks.templates.mail.parts import call as mail_call
from tasks.templates.mail.parts import find as mail_find
from tasks.templates.workspace.common import asked_and_answered, calls, done, in_tab, links, plan, scoped, spec

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

        mail_part = asked_and_answered(person["email"])
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
                + scoped("crm", [allow_update("contacts", {"id": contact["id"]}, ["phone"])]),
                {"the answer asked for and come": scoped("mail", mail_part["checks"][:1]),
                 "the number on the contact": scoped("crm", [{"table": "contacts", "where": {"id": contact["id"]},
                                                               "expect": {"phone": phone, "mobile": contact["mobile"]},
                                                               "name": "the answered number on the contact's Phone"}])}),
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


@template("workspace", "ask-headcount-order-lunch", difficulty="long", max_steps=60, count=5, test_every=5)
def ask_headcount_order_lunch(w: World, rng: random.Random):
    """Ask a coworker by mail how many people are coming to lunch, wait for the answer, then order that many of a
    dish on Forkful for delivery to the office."""
    from tasks.templates.food.orders import open_stores, order_expect, pick_line
    from tasks.templates.food.parts import add_line, call as food_call, checkout_address, created_order, fw, \
        goto_store, order_allow, order_line, place, t_add, t_checkout_address, to_checkout, toggle_notification, \
        user_update
    from tasks.templates.workspace.orders import line_text

    f, mb = fw(w.of("food")), Mailbox(w.of("mail"))
    work = next(a for a in f.addr.values() if a["label"] == "Work")
    mates = [p for p in w.table("mail.correspondents") if p["email"] in {c["email"] for c in mb.contacts
                                                                           if c["relation"] == "coworker"}]
    stores = rng.sample(open_stores(f), 5)
    for k, person in enumerate(rng.sample(mates, 5)):
        s = stores[k]
        it, opts, rows = pick_line(f, s, rng)
        n = person["facts"]["headcount"]
        first = person["name"].split()[0]
        subject = "Team lunch today"
        text = f"Hi {first}, I'm ordering the team lunch. How many people will join?"

        def order(q: int) -> list[dict]:
            return goto_store(s) + add_line(f, it, opts, q) + to_checkout() + checkout_address("Work") + place()

        def steps(q: int = n, asked: bool = True, said: str = text) -> list[dict]:
            return (ask(person["email"], subject, said) if asked else []) + in_tab("food", order(q)) + [done()]

        def tcalls(q: int = n, asked: bool = True, said: str = text) -> list[dict]:
            return (t_ask(person["email"], subject, said) if asked else []) + calls("food", [
                food_call("get_store", store_id=s["id"]), *t_add(it, [r["id"] for r in rows], q),
                *t_checkout_address(work["id"]),
                food_call("get_checkout"), food_call("place_order")])

        mail_part = asked_and_answered(person["email"])
        food_checks = created_order(order_expect(f, s, f.unit(it, rows) * n, addr=work), 1) + [
            order_line(it["id"], [r["id"] for r in rows], n)]
        gold = steps()
        courteous = f"Hi {first},\n\nI'm ordering the team lunch. How many people will join us?\n\nThanks,\n{mb.me['name']}"
        yield {
            "goal": f"Ask {person['name']} ({person['email']}) by email how many people will join today's team lunch, "
                    f"wait for the answer, then order one {line_text(it, opts)} per person from {s['name']} on "
                    f"Forkful, for standard delivery to the office (your Work address).",
            "start_path": "/inbox",
            "verify": spec(scoped("mail", mail_part["checks"]) + scoped("food", food_checks),
                           scoped("mail", mail_part["unchanged_except"])
                           + scoped("food", order_allow(s["id"], [it["id"]], 1, user_update("current_address_id"))),
                           {"the headcount asked for and come": scoped("mail", mail_part["checks"][:1]),
                            "the lunch ordered for them": scoped("food", food_checks)}),
            "solution": gold,
            "near_misses": [steps(q=n + 1), steps(asked=False), ask(person["email"], subject, text) + [done()]],
            "adversarial": [
                {"kind": "extra", "steps": gold[:-1] + toggle_notification() + [done()],
                 "why": "the gold, then an unasked-for Forkful notification switch flipped"},
                {"kind": "wrong_app", "steps": ask(person["email"], subject, text) + [
                    {"switch_tab": "food"}, *order(1), done()],
                 "why": "asked and answered in the mail, but the count never reached Forkful: one dish ordered"},
            ],
            "harmless": [harmless("courtesy", steps(said=courteous), "the question as a letter: a greeting and a sign-off",
                                  tcalls(said=courteous))],
            "tools": plan(tcalls(), tcalls(q=n + 1), tcalls(asked=False)),
        }
