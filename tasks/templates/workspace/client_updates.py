"""Cross-app templates over a client account's paperwork: its open cases listed for the client from the CRM, a
client lunch's Forkful receipt forwarded to accounts payable with the account's number, and a client lunch ordered
and kept as a note on the account."""

from __future__ import annotations

import random

from domain.correspondence import asked
from tasks.templates import World, template
from tasks.templates.crm.parts import Crm, allow_create, open_record
from tasks.templates.crm.parts import call as crm_call
from tasks.templates.crm.parts import find as crm_find
from tasks.templates.food.orders import open_stores, pick_line
from tasks.templates.food.parts import fw, toggle_notification
from tasks.templates.harmless import harmless
from tasks.templates.mail.basics import carried_attachments, forward_steps, forwarded_with, sent_message
from tasks.templates.mail.parts import Mailbox, find_open, graded, on_messages, open_row, phrase, search, text_bound
from tasks.templates.mail.parts import call as mail_call
from tasks.templates.workspace.cases import _set_status, _thread
from tasks.templates.workspace.common import calls, done, every, in_tab, links, office_order, plan, scoped, spec, told
from tasks.templates.workspace.onsite import account_note
from tasks.templates.workspace.orders import compose, line_text


def _clients(w: World, crm: Crm) -> list[tuple[dict, dict]]:
    """The client contacts of the mailbox (one an account, its name unique in the CRM) with their accounts."""
    seen: set[int] = set()
    out = []
    for _email, cid in sorted(links(w)["contacts"].items()):
        c = crm.con[cid]
        a = crm.acc[c["account_id"]]
        if a["id"] not in seen and crm.unique(a["name"]) and crm.unique(crm.cname(c)) and c["email"]:
            seen.add(a["id"])
            out.append((c, a))
    return out


@template("workspace", "account-cases-email-client", difficulty="hard", max_steps=40, count=6, test_every=6)
def account_cases_email_client(w: World, rng: random.Random):
    """A client wants to know which of their support cases are still open: read their account's cases in the CRM
    (the closed ones do not count) and email them the open cases' numbers."""
    mb, crm = Mailbox(w.of("mail")), Crm(w.of("crm"))
    cands = []
    for c, a in _clients(w, crm):
        cs = sorted(crm.cases_by_acc.get(a["id"], []), key=lambda x: x["case_number"])
        opened = [x["case_number"] for x in cs if x["status"] != "Closed"]
        closed = [x["case_number"] for x in cs if x["status"] == "Closed"]
        if 1 <= len(opened) <= 3 and closed and len(cs) <= 5:
            cands.append((c, a, opened, closed))
    order = rng.sample(cands, len(cands))
    every_number = sorted(x["case_number"] for x in crm.cases)
    for k, (c, a, opened, closed) in enumerate(order[:6]):
        email = c["email"].lower()
        _oc, other_a, other_open, _ = order[(k + 1) % len(order)]
        subject = "Your open support cases"
        text = f"Hi {c['first_name']}, your open support cases with us are: {', '.join(opened)}."
        assert not asked(subject + "\n" + text), "a statement: the client does not answer it"

        def steps(said: str = text, sent: bool = True, looked: dict = a) -> list[dict]:
            out = in_tab("crm", open_record(looked["name"]))
            return out + (in_tab("mail", compose(email, subject, said)) if sent else []) + [done()]

        def tcalls(said: str = text, sent: bool = True) -> list[dict]:
            out = calls("crm", [crm_find("Account", a["name"]), crm_call("get_record", object="Account", record_id=a["id"])])
            return out + (calls("mail", [mail_call("send_email", to=[email], subject=subject, body=said)]) if sent else [])

        def listing(numbers: list[str]) -> str:
            return f"Hi {c['first_name']}, your open support cases with us are: {', '.join(numbers)}."

        mail_part = told(email, {"$regex": every(*opened), "$len": text_bound(text, extra=mb.me["signature"]),
                                 "$excludes": closed + [n for n in other_open if n not in opened]},
                         "the client told the numbers of their open cases, and only those")
        gold = steps()
        third = listing(opened[1:]) if len(opened) > 1 else listing(closed[:1])
        letter = text.replace(", your", ",\n\nYour") + f"\n\nBest regards,\n{mb.me['name']}"
        yield {
            "goal": f"{crm.cname(c)} of {a['name']} asked which of their support cases are still open. Look up the "
                    f"{a['name']} account's cases in the CRM and email {c['first_name']} ({email}) with the subject "
                    f"\u201c{subject}\u201d and the text: \u201cHi {c['first_name']}, your open support cases with us "
                    f"are: <the numbers of the account's cases that are not Closed>.\u201d",
            "start_path": "/inbox",
            "verify": spec(scoped("mail", mail_part["checks"]), scoped("mail", mail_part["unchanged_except"])),
            "solution": gold,
            "near_misses": [steps(said=listing(sorted(opened + closed))), steps(sent=False), steps(said=third)],
            "adversarial": [
                {"kind": "wrong_record", "steps": steps(said=listing(other_open), looked=other_a),
                 "why": f"the open cases of another account ({other_a['name']}) sent instead"},
                {"kind": "dump", "steps": steps(said=listing(sorted(set(every_number[:40] + opened + closed)))),
                 "why": "the email lists case numbers from all over the CRM, the right ones among them"},
                {"kind": "extra", "steps": gold[:-1] + in_tab("crm", _set_status(closed[0], "Working")) + [done()],
                 "why": f"the gold, then the closed case {closed[0]} reopened, which nobody asked for"},
            ],
            "harmless": [harmless("courtesy", steps(said=letter), "the text as a letter: a greeting and a sign-off",
                                  tcalls(said=letter))],
            "tools": plan(tcalls(), tcalls(said=listing(sorted(opened + closed))), tcalls(sent=False),
                          tcalls(said=third)),
        }


@template("workspace", "receipt-forward-ap-account", difficulty="hard", max_steps=40, count=6, test_every=6)
def receipt_forward_ap_account(w: World, rng: random.Random):
    """A Forkful lunch was a client lunch: forward its receipt (in the mailbox) to accounts payable, writing the
    client account's number (read in the CRM) in the message."""
    mb, crm = Mailbox(w.of("mail")), Crm(w.of("crm"))
    ap = next(c for c in mb.contacts if c["relation"] == "coworker" and c["email"].startswith("ap@"))
    receipts = [r for r in links(w)["receipts"]
                if sum(1 for t in mb.threads.values() if t["subject"] == r["subject"]) == 1]
    accounts = [a for _c, a in _clients(w, crm) if a["account_number"]]
    order = rng.sample(accounts, len(accounts))
    numbers = [a["account_number"] for a in accounts]
    for k, a in enumerate(order[:6]):
        r = receipts[k % len(receipts)]
        other_r = receipts[(k + 1) % len(receipts)]
        tid = _thread(mb, r["subject"])
        note = f"Client lunch with {a['name']}, account number {a['account_number']}."
        bare = f"Client lunch with {a['name']}."
        quoted = max(len(m["body"]) for m in mb.in_thread[tid])

        def fwd(thread: dict = r, said: str = note, to: str = ap["email"]) -> list[dict]:
            return forward_steps(search(phrase(thread["subject"])) + [open_row(thread["subject"])], to, said)

        def steps(thread: dict = r, said: str = note, sent: bool = True) -> list[dict]:
            out = in_tab("crm", open_record(a["name"]))
            return out + (in_tab("mail", fwd(thread, said)) if sent else []) + [done()]

        def tcalls(said: str = note, sent: bool = True) -> list[dict]:
            out = calls("crm", [crm_find("Account", a["name"]), crm_call("get_record", object="Account", record_id=a["id"])])
            return out + (calls("mail", find_open(r["subject"], tid) + [
                mail_call("forward", thread_id=tid, to=[ap["email"]], body=said)]) if sent else [])

        mail_part = graded(
            [{"table": "messages", "in": "created", "count": 1,
              "expect": {"thread_id": tid, "to": [ap["email"]], "cc": [], "bcc": [], "is_sent": True,
                         "subject": {"$ieq": f"Fwd: {r['subject']}"},
                         "body": {"$regex": forwarded_with(a["account_number"]),
                                  "$excludes": [n for n in numbers if n != a["account_number"]],
                                  "$len": text_bound(note, slack=quoted + 500, extra=mb.me["signature"])}},
              "name": "the receipt forwarded to accounts payable with the account's number"}],
            [{"table": "messages", "ops": ["create"], "where": sent_message(thread_id=tid), "max": 1},
             on_messages({"thread_id": tid}, []), *carried_attachments(mb, tid)])
        gold = steps()
        letter = f"Hi,\n\n{note}\n\nThanks,\n{mb.me['name']}"
        yield {
            "goal": f"Your Forkful order from {r['store']} (the receipt \u201c{r['subject']}\u201d in your mailbox) was "
                    f"a client lunch with {a['name']}. Forward that receipt to accounts payable ({ap['email']}) with the "
                    f"message: \u201cClient lunch with {a['name']}, account number <the account's Account Number in "
                    f"the CRM>.\u201d",
            "start_path": "/inbox",
            "verify": spec(scoped("mail", mail_part["checks"]), scoped("mail", mail_part["unchanged_except"])),
            "solution": gold,
            "near_misses": [steps(said=bare), steps(sent=False),
                            in_tab("crm", open_record(a["name"])) + in_tab("mail", compose(ap["email"], r["subject"], note))
                            + [done()]],
            "adversarial": [
                {"kind": "wrong_record", "steps": steps(thread=other_r),
                 "why": f"another receipt (\u201c{other_r['subject']}\u201d) forwarded instead"},
                {"kind": "dump", "steps": steps(said=f"Client lunch with {a['name']}, account number one of: "
                                                     f"{', '.join(numbers)}."),
                 "why": "the message lists every client account's number"},
                {"kind": "extra", "steps": gold[:-1] + fwd(r, note, next(
                    c["email"] for c in mb.contacts if c["relation"] == "coworker" and c["email"] != ap["email"]))
                    + [done()], "why": "the receipt forwarded to a second coworker too"},
            ],
            "harmless": [harmless("courtesy", steps(said=letter), "the message as a letter: a greeting and a sign-off",
                                  tcalls(said=letter))],
            "tools": plan(tcalls(), tcalls(said=bare), tcalls(sent=False)),
        }


@template("workspace", "client-lunch-account-note", difficulty="hard", max_steps=45, count=6, test_every=6)
def client_lunch_account_note(w: World, rng: random.Random):
    """A client's team comes to the office for a working lunch: order it on Forkful for delivery to the office, then
    keep a note on their CRM account naming the new order's number."""
    f, crm = fw(w.of("food")), Crm(w.of("crm"))
    me = links(w)["me"]["email"]
    receipts = [f"#{r['order_id']}" for r in links(w)["receipts"]]
    clients = rng.sample(_clients(w, crm), len(_clients(w, crm)))
    stores = rng.sample(open_stores(f), 6)
    title = "Client lunch"
    for k, (c, a) in enumerate(clients[:6]):
        other_a = clients[(k + 6) % len(clients)][1]
        s = stores[k]
        it, opts, rows = pick_line(f, s, rng)
        q = rng.choice([3, 4, 5])
        lunch = office_order(f, s, it, opts, rows, q)
        text = f"Hosted lunch at our office: Forkful order #{lunch['id']} from {s['name']}."

        def steps(acc: dict = a, said: str = text, ordered: bool = True, to_work: bool = True,
                  noted: bool = True) -> list[dict]:
            out = in_tab("food", lunch["steps"](q, to_work)) if ordered else []
            return out + (in_tab("crm", account_note(acc["name"], title, said)) if noted else []) + [done()]

        def tcalls(said: str = text, ordered: bool = True, to_work: bool = True, noted: bool = True) -> list[dict]:
            out = lunch["calls"](q, to_work) if ordered else []
            return out + (calls("crm", [crm_find("Account", a["name"]),
                                        crm_call("add_note", object="Account", record_id=a["id"], title=title,
                                                 body=said)]) if noted else [])

        crm_checks = [{"table": "notes", "in": "created", "where": {"parent_type": "Account", "parent_id": a["id"]},
                       "count": 1, "expect": {"title": {"$ieq": title},
                                              "body": {"$icontains": f"#{lunch['id']}", "$len": {"$lte": len(text) + 80},
                                                       "$excludes": receipts}},
                       "name": "the lunch kept as a note on the client's account, with its order number"}]
        gold = steps()
        yield {
            "goal": f"{crm.cname(c)} and their team from {a['name']} are at the office for a working lunch. Order "
                    f"{q} \u00d7 {line_text(it, opts)} from {s['name']} on Forkful for standard delivery to the office "
                    f"(your Work address), then add a note titled \u201c{title}\u201d to the {a['name']} account in the "
                    f"CRM with the text: \u201cHosted lunch at our office: Forkful order #<the new order's number> from "
                    f"{s['name']}.\u201d",
            "start_path": "/inbox",
            "verify": spec(scoped("food", lunch["checks"]) + scoped("crm", crm_checks),
                           scoped("food", lunch["allow"])
                           + scoped("crm", [allow_create("notes", {"parent_type": "Account", "parent_id": a["id"]})]),
                           {"the lunch ordered to the office": scoped("food", lunch["checks"]),
                            "the note on the account": scoped("crm", crm_checks)}),
            "solution": gold,
            "near_misses": [steps(noted=False), steps(ordered=False), steps(to_work=False)],
            "adversarial": [
                {"kind": "wrong_app", "steps": steps(noted=False)[:-1] + in_tab("mail", compose(me, title, text))
                 + [done()], "why": "the note kept as an email to yourself in the mailbox: nothing on the CRM account"},
                {"kind": "wrong_record", "steps": steps(acc=other_a),
                 "why": f"the note put on another account ({other_a['name']})"},
                {"kind": "dump", "steps": steps(said=text.replace(f"#{lunch['id']}", " ".join([*receipts, f"#{lunch['id']}"]))),
                 "why": "the note lists every order number of the mailbox and the new one"},
                {"kind": "extra", "steps": gold[:-1] + in_tab("food", toggle_notification()) + [done()],
                 "why": "the gold, then an unasked-for Forkful notification switch flipped"},
            ],
            "harmless": [harmless("check_work", gold[:-1] + open_record(a["name"]) + [done()],
                                  "opens the account again to see the note in its list",
                                  [*tcalls(), *calls("crm", [crm_call("get_record", object="Account",
                                                                      record_id=a["id"])])])],
            "tools": plan(tcalls(), tcalls(noted=False), tcalls(ordered=False), tcalls(to_work=False)),
        }
