"""Cross-app templates that arrange something with a client by mail and wait for their answer (a correspondent
answers, domain/correspondence.py): the time of a call, kept as a CRM task; a visiting team's headcount, their lunch
ordered on Forkful and noted on their account; the PO number of their deal, passed to accounts payable with the
deal's amount from the CRM."""

from __future__ import annotations

import datetime as dt
import random

from domain.correspondence import asked
from seed_data.workspace import LUNCH_TIMES
from tasks.templates import World, template
from tasks.templates.crm.parts import Crm, allow_create, button, close_as, fill, iso, mdy, money, open_record, tab
from tasks.templates.crm.parts import call as crm_call
from tasks.templates.crm.parts import find as crm_find
from tasks.templates.food.orders import open_stores, pick_line
from tasks.templates.food.parts import fw, toggle_notification
from tasks.templates.harmless import harmless
from tasks.templates.mail.parts import Mailbox, text_bound
from tasks.templates.mail.parts import call as mail_call
from tasks.templates.workspace.asking import ask, t_ask
from tasks.templates.workspace.common import (asked_and_answered, calls, done, every, in_tab, links, office_order, plan,
                                              scoped, sent_once, spec)
from tasks.templates.workspace.onsite import account_note
from tasks.templates.workspace.orders import compose, line_text


def _correspondents(w: World, crm: Crm) -> list[tuple[dict, dict, dict]]:
    """The client correspondents (who answer mail) with their CRM contact and account, one an account, the names
    unique in the CRM."""
    people = {p["email"]: p for p in w.table("mail.correspondents")}
    seen: set[int] = set()
    out = []
    for email, cid in sorted(links(w)["contacts"].items()):
        c = crm.con[cid]
        a = crm.acc[c["account_id"]]
        if (email in people and a["id"] not in seen and crm.unique(a["name"]) and crm.unique(crm.cname(c))
                and not crm.has_duplicates("contacts", c)):
            seen.add(a["id"])
            out.append((people[email], c, a))
    return out


@template("workspace", "ask-time-call-task", difficulty="long", max_steps=60, count=6, test_every=6)
def ask_time_call_task(w: World, rng: random.Random):
    """Ask a client by mail what time suits them for a call tomorrow, wait for the answer, and put the call on their
    CRM contact as a task due tomorrow with that time in its subject."""
    mb, crm = Mailbox(w.of("mail")), Crm(w.of("crm"))
    tomorrow = crm.today + dt.timedelta(days=1)
    order = rng.sample(_correspondents(w, crm), len(_correspondents(w, crm)))
    for k, (person, c, a) in enumerate(order[:6]):
        at = person["facts"]["lunch_time"]
        wrong = next(x for x in LUNCH_TIMES if x != at)
        _op, other_c, _oa = order[(k + 6) % len(order)]
        first, name = c["first_name"], crm.cname(c)
        subject = "A quick call tomorrow"
        text = f"Hi {first}, what time works for you for a quick call tomorrow?"
        assert asked(subject + "\n" + text) == ["lunch_time"], "the question asks for a time and nothing else"

        def task(con: dict, when: str, due: dt.date = tomorrow) -> list[dict]:
            return open_record(crm.cname(con)) + [tab("New Task"), fill("Subject", f"Call {con['first_name']} at {when}",
                                                                        within=None),
                                                  fill("Due Date", mdy(due), within=None), button("Save")]

        def steps(con: dict = c, when: str = at, due: dt.date = tomorrow, said: str = text,
                  made: bool = True) -> list[dict]:
            return ask(person["email"], subject, said) + (in_tab("crm", task(con, when, due)) if made else []) + [done()]

        def tcalls(when: str = at, due: dt.date = tomorrow, said: str = text, made: bool = True) -> list[dict]:
            out = t_ask(person["email"], subject, said)
            return out + (calls("crm", [crm_find("Contact", name), crm_call(
                "new_task", object="Contact", record_id=c["id"], subject=f"Call {first} at {when}", due_date=mdy(due))])
                if made else [])

        mail_part = asked_and_answered(person["email"])
        crm_checks = [{"table": "tasks", "in": "created", "where": {"who_type": "Contact", "who_id": c["id"]}, "count": 1,
                       "expect": {"subject": {"$icontains": at, "$excludes": [x for x in LUNCH_TIMES if x != at],
                                              "$len": {"$lte": 80}},
                                  "activity_date": iso(tomorrow), "task_subtype": "Task", "status": {"$ne": "Completed"}},
                       "name": "the call on the contact, due tomorrow at the answered time"}]
        gold = steps()
        letter = f"Hi {first},\n\nWhat time works for you for a quick call tomorrow?\n\nThanks,\n{mb.me['name']}"
        yield {
            "goal": f"Email {name} of {a['name']} ({person['email']}) to ask what time works for them for a quick call "
                    f"tomorrow, wait for the answer, then create a task on their contact record in the CRM with the "
                    f"subject \u201cCall {first} at <the time they gave>\u201d, due tomorrow ({mdy(tomorrow)}).",
            "start_path": "/inbox",
            "verify": spec(scoped("mail", mail_part["checks"]) + scoped("crm", crm_checks),
                           scoped("mail", mail_part["unchanged_except"])
                           + scoped("crm", [allow_create("tasks", {"who_type": "Contact", "who_id": c["id"]})]),
                           {"the time asked for and come": scoped("mail", mail_part["checks"][:1]),
                            "the call on the contact": scoped("crm", crm_checks)}),
            "solution": gold,
            "near_misses": [steps(made=False), steps(when=wrong), steps(due=crm.today)],
            "adversarial": [
                {"kind": "wrong_record", "steps": steps(con=other_c),
                 "why": f"the task created on another contact ({crm.cname(other_c)})"},
                {"kind": "extra", "steps": gold[:-1] + task(c, wrong) + [done()],
                 "why": f"a second task at {wrong}, hedging the time"},
                {"kind": "dump", "steps": steps(when=" or ".join(LUNCH_TIMES)),
                 "why": "the task's subject names every time a client could give"},
            ],
            "harmless": [harmless("courtesy", steps(said=letter), "the question as a letter: a greeting and a sign-off",
                                  tcalls(said=letter))],
            "tools": plan(tcalls(), tcalls(made=False), tcalls(when=wrong), tcalls(due=crm.today)),
        }


@template("workspace", "ask-headcount-client-visit", difficulty="long", max_steps=60, count=6, test_every=6)
def ask_headcount_client_visit(w: World, rng: random.Random):
    """A client's team comes to the office for a workshop over lunch: ask the client by mail how many will come, wait
    for the answer, order one dish per person on Forkful to the office, and note it on their CRM account."""
    f, mb, crm = fw(w.of("food")), Mailbox(w.of("mail")), Crm(w.of("crm"))
    receipts = [f"#{r['order_id']}" for r in links(w)["receipts"]]
    order = rng.sample(_correspondents(w, crm), len(_correspondents(w, crm)))
    stores = rng.sample(open_stores(f), 6)
    title = "Workshop lunch"
    for k, (person, c, a) in enumerate(order[:6]):
        n = person["facts"]["headcount"]
        _op, _oc, other_a = order[(k + 6) % len(order)]
        s = stores[k]
        it, opts, rows = pick_line(f, s, rng)
        lunch = office_order(f, s, it, opts, rows, n)
        first = c["first_name"]
        subject = "Workshop at our office today"
        text = f"Hi {first}, for today's workshop at our office over lunch: how many of your team will come?"
        assert asked(subject + "\n" + text) == ["headcount"], "the question asks for a headcount and nothing else"
        note = f"Lunch for {n} ordered: Forkful order #{lunch['id']} from {s['name']}."

        def steps(q: int = n, acc: dict = a, said: str = text, asked_: bool = True, noted: bool = True,
                  said_note: str = note) -> list[dict]:
            out = ask(person["email"], subject, said) if asked_ else []
            out += in_tab("food", lunch["steps"](q))
            return out + (in_tab("crm", account_note(acc["name"], title, said_note.replace(f"for {n} ", f"for {q} ")))
                          if noted else []) + [done()]

        def tcalls(q: int = n, said: str = text, asked_: bool = True, noted: bool = True) -> list[dict]:
            out = t_ask(person["email"], subject, said) if asked_ else []
            out += lunch["calls"](q)
            return out + (calls("crm", [crm_find("Account", a["name"]), crm_call(
                "add_note", object="Account", record_id=a["id"], title=title,
                body=note.replace(f"for {n} ", f"for {q} "))]) if noted else [])

        mail_part = asked_and_answered(person["email"])
        crm_checks = [{"table": "notes", "in": "created", "where": {"parent_type": "Account", "parent_id": a["id"]},
                       "count": 1, "expect": {"title": {"$ieq": title},
                                              "body": {"$regex": every(f"for {n} ", f"#{lunch['id']}"),
                                                       "$len": {"$lte": len(note) + 80}, "$excludes": receipts}},
                       "name": "the lunch noted on the client's account: the headcount and the order's number"}]
        gold = steps()
        letter = (f"Hi {first},\n\nFor today's workshop at our office over lunch: how many of your team will come?\n\n"
                  f"Thanks,\n{mb.me['name']}")
        yield {
            "goal": f"{crm.cname(c)}'s team from {a['name']} comes to our office for a workshop over lunch today. Email "
                    f"{first} ({person['email']}) to ask how many of their team will come, wait for the answer, then "
                    f"order one {line_text(it, opts)} per person from {s['name']} on Forkful for standard delivery to the "
                    f"office (your Work address), and add a note titled \u201c{title}\u201d to the {a['name']} account "
                    f"in the CRM with the text: \u201cLunch for <the number> ordered: Forkful order #<the new order's "
                    f"number> from {s['name']}.\u201d",
            "start_path": "/inbox",
            "verify": spec(scoped("mail", mail_part["checks"]) + scoped("food", lunch["checks"]) + scoped("crm", crm_checks),
                           scoped("mail", mail_part["unchanged_except"]) + scoped("food", lunch["allow"])
                           + scoped("crm", [allow_create("notes", {"parent_type": "Account", "parent_id": a["id"]})]),
                           {"the headcount asked for and come": scoped("mail", mail_part["checks"][:1]),
                            "the lunch ordered for them": scoped("food", lunch["checks"]),
                            "the lunch noted on the account": scoped("crm", crm_checks)}),
            "solution": gold,
            "near_misses": [steps(q=n + 1), steps(noted=False), steps(asked_=False)],
            "adversarial": [
                {"kind": "wrong_record", "steps": steps(acc=other_a),
                 "why": f"the note put on another account ({other_a['name']})"},
                {"kind": "extra", "steps": gold[:-1] + in_tab("food", toggle_notification()) + [done()],
                 "why": "the gold, then an unasked-for Forkful notification switch flipped"},
                {"kind": "dump", "steps": steps(said_note=note.replace(f"#{lunch['id']}", " ".join([*receipts, f"#{lunch['id']}"]))),
                 "why": "the note lists every order number of the mailbox and the new one"},
            ],
            "harmless": [harmless("courtesy", steps(said=letter), "the question as a letter: a greeting and a sign-off",
                                  tcalls(said=letter))],
            "tools": plan(tcalls(), tcalls(q=n + 1), tcalls(noted=False), tcalls(asked_=False)),
        }


@template("workspace", "ask-po-email-ap", difficulty="long", max_steps=60, count=6, test_every=6)
def ask_po_email_ap(w: World, rng: random.Random):
    """Ask a client by mail for the purchase order number of their open deal, wait for the answer, then email accounts
    payable the PO number with the deal's amount as the CRM has it."""
    mb, crm = Mailbox(w.of("mail")), Crm(w.of("crm"))
    ap = next(x for x in mb.contacts if x["relation"] == "coworker" and x["email"].startswith("ap@"))
    pos = [p["facts"]["po_number"] for p in w.table("mail.correspondents")]
    cands = []
    for person, c, a in _correspondents(w, crm):
        opps = sorted((o for o in crm.opps_by_acc[a["id"]] if crm.is_open(o) and crm.unique(o["name"]) and o["amount"]
                       and len(o["name"]) < 62), key=lambda o: o["id"])
        if opps and pos.count(person["facts"]["po_number"]) == 1:
            cands.append((person, c, a, opps[-1]))
    order = rng.sample(cands, len(cands))
    for k, (person, c, a, o) in enumerate(order[:6]):
        po, first, amount = person["facts"]["po_number"], c["first_name"], money(o["amount"])
        other_p, _oc, _oa, other_o = next(x for x in order[k + 1:] + order if x[3]["amount"] != o["amount"])
        subject = f"Purchase order for {o['name']}"
        text = f"Hi {first}, could you send me the purchase order number for {o['name']}?"
        assert asked(subject + "\n" + text) == ["po_number"], "the question asks for the PO number and nothing else"
        ap_subject = f"Invoice: {o['name']}"

        def to_ap(number: str = po, value: str = amount) -> str:
            return f"Please invoice {a['name']} for {o['name']}, {value}. Their PO is {number}."

        bill = to_ap()
        assert ap["email"] not in {p["email"] for p in w.table("mail.correspondents")}, "accounts payable answers no mail"

        def steps(said: str = text, number: str = po, value: str = amount, asked_: bool = True,
                  sent: bool = True) -> list[dict]:
            out = ask(person["email"], subject, said) if asked_ else []
            out += in_tab("crm", open_record(o["name"]))
            return out + (in_tab("mail", compose(ap["email"], ap_subject, to_ap(number, value))) if sent else []) + [done()]

        def tcalls(said: str = text, number: str = po, value: str = amount, asked_: bool = True,
                   sent: bool = True) -> list[dict]:
            out = t_ask(person["email"], subject, said) if asked_ else []
            out += calls("crm", [crm_find("Opportunity", o["name"]),
                                 crm_call("get_record", object="Opportunity", record_id=o["id"])])
            return out + (calls("mail", [mail_call("send_email", to=[ap["email"]], subject=ap_subject,
                                                   body=to_ap(number, value))]) if sent else [])

        mail_part = asked_and_answered(person["email"], sent_once(
            ap["email"], {"$regex": every(po, amount), "$len": text_bound(bill, extra=mb.me["signature"]),
                          "$excludes": [x for x in pos if x != po]},
            "accounts payable told the PO number and the deal's amount"))
        gold = steps()
        letter = (f"Hi {first},\n\nCould you send me the purchase order number for {o['name']}?\n\n"
                  f"Thanks,\n{mb.me['name']}")
        yield {
            "goal": f"Email {crm.cname(c)} of {a['name']} ({person['email']}) to ask for the purchase order number for "
                    f"the deal \u201c{o['name']}\u201d, wait for the answer, then email accounts payable "
                    f"({ap['email']}) with the subject \u201c{ap_subject}\u201d and the text: \u201cPlease invoice "
                    f"{a['name']} for {o['name']}, <the deal's Amount in the CRM>. Their PO is <the PO number>.\u201d",
            "start_path": "/inbox",
            "verify": spec(scoped("mail", mail_part["checks"]), scoped("mail", mail_part["unchanged_except"]),
                           {"the PO number asked for and come": scoped("mail", mail_part["checks"][:1]),
                            "accounts payable told": scoped("mail", mail_part["checks"][1:2])}),
            "solution": gold,
            "near_misses": [steps(sent=False), steps(value=money(other_o["amount"])), steps(asked_=False)],
            "adversarial": [
                {"kind": "wrong_record", "steps": steps(number=other_p["facts"]["po_number"]),
                 "why": f"the PO number of another client ({other_p['name']}) sent to accounts payable"},
                {"kind": "dump", "steps": steps(number=" or ".join(pos[:24] + [po])),
                 "why": "the email lists PO numbers from every correspondent, the right one among them"},
                {"kind": "extra", "steps": gold[:-1] + in_tab("crm", open_record(o["name"]) + close_as("Closed Won"))
                 + [done()], "why": "the gold, then the deal marked Closed Won, which nobody asked for"},
            ],
            "harmless": [harmless("courtesy", steps(said=letter), "the question as a letter: a greeting and a sign-off",
                                  tcalls(said=letter))],
            "tools": plan(tcalls(), tcalls(sent=False), tcalls(value=money(other_o["amount"])), tcalls(asked_=False)),
        }
