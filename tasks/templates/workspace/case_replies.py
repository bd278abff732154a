"""Cross-app templates that answer a customer in their case thread with what the CRM says or does: the case's
current status or priority read from the CRM, or the case given to a coworker who the customer is told about."""

from __future__ import annotations

import random

from domain.correspondence import asked
from tasks.templates import World, template
from tasks.templates.crm.parts import Crm, allow_update, open_record
from tasks.templates.crm.parts import call as crm_call
from tasks.templates.crm.parts import find as crm_find
from tasks.templates.harmless import harmless
from tasks.templates.mail.basics import sent_message
from tasks.templates.mail.parts import Mailbox, find_open, graded, on_messages, text_bound
from tasks.templates.mail.parts import call as mail_call
from tasks.templates.workspace.cases import _reply, _set_status, _thread
from tasks.templates.workspace.common import calls, done, in_tab, links, plan, scoped, spec
from tasks.templates.workspace.handoffs import MATES, give_case
from tasks.templates.workspace.orders import compose

VALUES = {"status": ("New", "Working", "Escalated", "Closed"), "priority": ("Critical", "High", "Medium", "Low")}


def _said(fact: str, number: str, value: str) -> tuple[str, str]:
    """The reply's sentence about a case's `fact`, and the words of it the check reads."""
    if fact == "status":
        return f"Your case {number} is currently {value} in our system.", f"currently {value}"
    return f"Your case {number} is marked {value} priority in our system.", f"marked {value} priority"


def _in_thread(mb: Mailbox, tid: int, to: str, body: dict, name: str) -> dict[str, list[dict]]:
    """The mail side of a reply in the customer's thread `tid`: one message sent there to `to`, reading it allowed."""
    return graded([{"table": "messages", "in": "created", "where": {"is_sent": True}, "count": 1,
                    "expect": {"thread_id": tid, "is_sent": True, "to": [to], "cc": [], "bcc": [], "body": body},
                    "name": name}],
                  [{"table": "messages", "ops": ["create"], "where": sent_message(thread_id=tid), "max": 1},
                   on_messages({"thread_id": tid}, [])])


@template("workspace", "case-status-reply", difficulty="hard", max_steps=40, count=6, test_every=6)
def case_status_reply(w: World, rng: random.Random):
    """A customer asks in their case thread where things stand: read the case's status (or priority) in the CRM and
    reply in the thread saying it, changing nothing in the CRM."""
    mb, crm = Mailbox(w.of("mail")), Crm(w.of("crm"))
    threads = links(w)["case_threads"]
    numbers = [t["case_number"] for t in threads]
    order = rng.sample(threads, len(threads))
    for k in range(6):
        t = order[k % len(order)]
        fact = "status" if k < len(order) else "priority"
        case, tid = crm.w.get("cases", t["case_id"]), _thread(mb, t["subject"])
        contact = crm.con[case["contact_id"]]
        email = contact["email"].lower()
        number, value = t["case_number"], case[fact]
        wrong = next(v for v in VALUES[fact] if v != value and v != "Closed")
        text, words = _said(fact, number, value)
        other = order[(k + 1) % len(order)]
        assert not asked(text), "a statement: the customer does not answer it"

        def steps(said: str = text, looked: bool = True, sent: bool = True, subject: str = t["subject"]) -> list[dict]:
            out = in_tab("crm", open_record(number)) if looked else []
            return out + (in_tab("mail", _reply(subject, said)) if sent else []) + [done()]

        def tcalls(said: str = text, sent: bool = True) -> list[dict]:
            out = calls("crm", [crm_find("Case", number), crm_call("get_record", object="Case", record_id=case["id"])])
            return out + (calls("mail", find_open(t["subject"], tid) + [mail_call("reply", thread_id=tid, body=said)])
                          if sent else [])

        mail_part = _in_thread(mb, tid, email, {
            "$icontains": words, "$len": text_bound(text, extra=mb.me["signature"]),
            "$excludes": [_said(fact, number, v)[1] for v in VALUES[fact] if v != value]
            + [n for n in numbers if n != number]}, f"the customer told the case's {fact} in their thread")
        gold = steps()
        letter = f"Hi {contact['first_name']},\n\n{text}\n\nBest,\n{mb.me['name']}"
        what = "current status" if fact == "status" else "priority"
        yield {
            "goal": f"{crm.cname(contact)} of {t['account']} is asking about their support case (the email thread "
                    f"\u201c{t['subject']}\u201d). Look the case up in the CRM and reply in that thread with its "
                    f"{what} as the CRM shows it: \u201c{_said(fact, number, '<' + fact + '>')[0]}\u201d. "
                    f"Change nothing in the CRM.",
            "start_path": "/inbox",
            "verify": spec(scoped("mail", mail_part["checks"]), scoped("mail", mail_part["unchanged_except"])),
            "solution": gold,
            "near_misses": [steps(said=_said(fact, number, wrong)[0]), steps(sent=False),
                            in_tab("crm", open_record(number)) + in_tab("mail", compose(email, f"Re: {t['subject']}",
                                                                                         text)) + [done()]],
            "adversarial": [
                {"kind": "wrong_record", "steps": steps(subject=other["subject"]),
                 "why": f"the reply sent in another customer's thread (\u201c{other['subject']}\u201d)"},
                {"kind": "dump", "steps": steps(said=" ".join(_said(fact, number, v)[0] for v in VALUES[fact])),
                 "why": f"the reply names every {fact} a case can have"},
                {"kind": "extra", "steps": gold[:-1] + in_tab("crm", _set_status(number, "Closed")) + [done()],
                 "why": "the gold, then the case closed in the CRM, which nobody asked for"},
            ],
            "harmless": [
                harmless("courtesy", steps(said=letter), "the text as a letter: a greeting and a sign-off",
                         tcalls(said=letter)),
                harmless("check_work", gold[:-1] + in_tab("crm", open_record(number)) + [done()],
                         "opens the case again after replying, to compare",
                         [*tcalls(), *calls("crm", [crm_call("get_record", object="Case", record_id=case["id"])])]),
            ],
            "tools": plan(tcalls(), tcalls(said=_said(fact, number, wrong)[0]), tcalls(sent=False)),
        }


@template("workspace", "case-owner-intro-reply", difficulty="hard", max_steps=45, count=6, test_every=6)
def case_owner_intro_reply(w: World, rng: random.Random):
    """A customer's case goes to a coworker: make them the case's owner in the CRM, then tell the customer in their
    case thread who has it now."""
    mb, crm = Mailbox(w.of("mail")), Crm(w.of("crm"))
    threads = links(w)["case_threads"]
    order = rng.sample(threads, len(threads))
    for k in range(6):
        t = order[k % len(order)]
        case, tid = crm.w.get("cases", t["case_id"]), _thread(mb, t["subject"])
        contact = crm.con[case["contact_id"]]
        email, number = contact["email"].lower(), t["case_number"]
        uids = [u for u in MATES if u != case["owner_id"]]
        uid, wrong_uid = uids[k % len(uids)], uids[(k + 3) % len(uids)]
        mate, wrong_mate = crm.users[uid], crm.users[wrong_uid]
        text = (f"Your case {number} is now with my colleague {crm.uname(uid)}, who will be your contact for it from "
                f"here.")
        assert not asked(text), "a statement: the customer does not answer it"

        def steps(owner: dict = mate, said: str = text, given: bool = True, sent: bool = True) -> list[dict]:
            out = in_tab("crm", give_case(crm, case, owner) if given else open_record(number))
            return out + (in_tab("mail", _reply(t["subject"], said)) if sent else []) + [done()]

        def tcalls(owner: dict = mate, said: str = text, given: bool = True, sent: bool = True) -> list[dict]:
            out = calls("crm", [crm_find("Case", number), crm_call("get_record", object="Case", record_id=case["id"])]
                        + ([crm_call("list_users"), crm_call("change_owner", object="Case", record_id=case["id"],
                                                             owner_id=owner["id"])] if given else []))
            return out + (calls("mail", find_open(t["subject"], tid) + [mail_call("reply", thread_id=tid, body=said)])
                          if sent else [])

        mail_part = _in_thread(mb, tid, email, {
            "$icontains": crm.uname(uid), "$len": text_bound(text, extra=mb.me["signature"]),
            "$excludes": [crm.uname(u) for u in MATES if u != uid]}, "the customer told who has their case now")
        crm_checks = [{"table": "cases", "where": {"id": case["id"]}, "expect": {"owner_id": uid, "status": case["status"]},
                       "name": "the case owned by the coworker now"}]
        gold = steps()
        letter = f"Hi {contact['first_name']},\n\n{text}\n\nBest regards,\n{mb.me['name']}"
        yield {
            "goal": f"{crm.uname(uid)} is taking over the support case of {crm.cname(contact)} ({t['account']}; the "
                    f"email thread \u201c{t['subject']}\u201d). Make {mate['first_name']} the case's owner in the CRM, "
                    f"then reply in the thread: \u201c{text}\u201d",
            "start_path": "/inbox",
            "verify": spec(scoped("crm", crm_checks) + scoped("mail", mail_part["checks"]),
                           scoped("crm", [allow_update("cases", {"id": case["id"]}, ["owner_id"])])
                           + scoped("mail", mail_part["unchanged_except"]),
                           {"the case given to the coworker": scoped("crm", crm_checks),
                            "the customer told": scoped("mail", mail_part["checks"][:1])}),
            "solution": gold,
            "near_misses": [steps(sent=False), steps(given=False), steps(owner=wrong_mate)],
            "adversarial": [
                {"kind": "wrong_record", "steps": steps(said=text.replace(crm.uname(uid), crm.uname(wrong_uid))),
                 "why": f"the reply names {crm.uname(wrong_uid)}, not the coworker the case went to"},
                {"kind": "dump", "steps": steps(said=text + " Others who may help: " + ", ".join(
                    crm.uname(u) for u in MATES if u != uid) + "."), "why": "the reply names every coworker"},
                {"kind": "extra", "steps": gold[:-1] + in_tab("crm", _set_status(number, "Closed")) + [done()],
                 "why": "the gold, then the case closed in the CRM, which nobody asked for"},
            ],
            "harmless": [harmless("courtesy", steps(said=letter), "the text as a letter: a greeting and a sign-off",
                                  tcalls(said=letter))],
            "tools": plan(tcalls(), tcalls(sent=False), tcalls(given=False), tcalls(owner=wrong_mate)),
        }
