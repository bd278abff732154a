"""Cross-app templates over the customers' case threads: the complaint in the mailbox, its case in the CRM."""

from __future__ import annotations

import random

from tasks.templates import World, template
from tasks.templates.crm.parts import Crm, allow_update, button, open_record, pick, save_modal
from tasks.templates.crm.parts import call as crm_call
from tasks.templates.crm.parts import find as crm_find
from tasks.templates.harmless import harmless
from tasks.templates.mail.basics import sent_message
from tasks.templates.mail.parts import Mailbox, click, find_open, graded, on_messages, open_row, phrase, search, \
    text_bound, toolbar_button
from tasks.templates.mail.parts import call as mail_call
from tasks.templates.workspace.common import calls, done, in_tab, links, plan, scoped, spec


def _thread(mb: Mailbox, subject: str) -> int:
    return next(tid for tid, t in mb.threads.items() if t["subject"] == subject)


def _reply(subject: str, text: str) -> list[dict]:
    """In the mail tab: find the customer's thread, reply with `text`."""
    return search(phrase(subject)) + [open_row(subject), click("button", "Reply", exact=True),
                                      {"fill": {"role": "textbox", "name": "Message Body"}, "text": text},
                                      click("button", "Send", exact=True)]


def _set_status(number: str, status: str) -> list[dict]:
    """In the CRM tab: open the case, Edit, set its Status."""
    return open_record(number) + [button("Edit"), *pick("Status", status), save_modal()]


@template("workspace", "case-escalate-reply", difficulty="hard", max_steps=40, count=4, test_every=4)
def case_escalate_reply(w: World, rng: random.Random):
    """A customer's case thread: escalate the case in the CRM, then tell the customer so in the thread."""
    mb, crm = Mailbox(w.of("mail")), Crm(w.of("crm"))
    threads = [t for t in links(w)["case_threads"] if crm.w.get("cases", t["case_id"])["status"] != "Escalated"]
    numbers = [t["case_number"] for t in links(w)["case_threads"]]
    for k, t in enumerate(rng.sample(threads, len(threads))):
        case, tid = crm.w.get("cases", t["case_id"]), _thread(mb, t["subject"])
        other = threads[(threads.index(t) + 1) % len(threads)]
        contact = crm.con[case["contact_id"]]
        text = f"Your case {t['case_number']} has been escalated to our engineering team."
        wrong_text = f"Your case {other['case_number']} has been escalated to our engineering team."

        def steps(number: str = t["case_number"], said: str = text, escalate: bool = True, reply: bool = True):
            out = _reply(t["subject"], said) if reply else []
            return out + (in_tab("crm", _set_status(number, "Escalated")) if escalate else []) + [done()]

        def tcalls(case_id: int = case["id"], said: str = text, escalate: bool = True, reply: bool = True):
            out = calls("mail", find_open(t["subject"], tid) + [mail_call("reply", thread_id=tid, body=said)]) if reply else []
            if escalate:
                out += calls("crm", [crm_find("Case", t["case_number"] if case_id == case["id"] else other["case_number"]),
                                     crm_call("update_record", object="Case", record_id=case_id,
                                              fields={"status": "Escalated"})])
            return out

        gold = steps()
        mail_part = graded(
            [{"table": "messages", "in": "created", "where": {"is_sent": True}, "count": 1,
              "expect": {"thread_id": tid, "is_sent": True, "to": [contact["email"].lower()], "cc": [], "bcc": [],
                         "body": {"$icontains": text, "$len": text_bound(text, extra=mb.me["signature"]),
                                  "$excludes": [n for n in numbers if n != t["case_number"]]}},
              "name": "the customer told in the case's thread, naming the case"}],
            [{"table": "messages", "ops": ["create"], "where": sent_message(thread_id=tid), "max": 1},
             on_messages({"thread_id": tid}, [])])
        yield {
            "goal": f"{contact['first_name']} {contact['last_name']} of {t['account']} is waiting on their support case "
                    f"(the email thread \u201c{t['subject']}\u201d). Escalate that case in the CRM (status Escalated), "
                    f"then reply in the thread with: \u201c{text}\u201d",
            "start_path": "/inbox",
            "verify": spec(
                scoped("mail", mail_part["checks"])
                + scoped("crm", [{"table": "cases", "where": {"id": case["id"]}, "expect": {"status": "Escalated"},
                                  "name": "the case escalated"}]),
                scoped("mail", mail_part["unchanged_except"])
                + scoped("crm", [allow_update("cases", {"id": case["id"]}, ["status"])]),
                {"the case escalated": scoped("crm", [{"table": "cases", "where": {"id": case["id"]},
                                                       "expect": {"status": "Escalated"}, "name": "the case escalated"}]),
                 "the customer told": scoped("mail", mail_part["checks"][:1])}),
            "solution": gold,
            "near_misses": [steps(escalate=False), steps(reply=False), steps(number=other["case_number"])],
            "adversarial": [
                {"kind": "wrong_app", "steps": _reply(t["subject"], text) + [
                    toolbar_button("More"), click("menuitem", "Mark as important", exact=True), done()],
                 "why": "the reply sent and the thread marked important in the mail: the case never escalated"},
                {"kind": "wrong_record", "steps": steps(said=wrong_text),
                 "why": "the reply names another customer's case number (copied from the wrong thread)"},
                {"kind": "dump", "steps": steps(said=" ".join(
                    f"Your case {n} has been escalated to our engineering team." for n in numbers)),
                 "why": "the reply lists every case thread's number"},
                {"kind": "extra", "steps": gold[:-1] + _set_status(other["case_number"], "Escalated") + [done()],
                 "why": f"escalates case {other['case_number']} too"},
            ],
            "harmless": [
                harmless("check_work", gold[:-1] + open_record(t["case_number"]) + [done()],
                         "opens the case again after the reply to see it is Escalated",
                         [*tcalls(), {"tool": "crm_get_record", "args": {"object": "Case", "record_id": case["id"]}}]),
                harmless("courtesy", steps(said=f"Hi {contact['first_name']},\n\n{text}\n\nBest,\n{mb.me['name']}"),
                         "the text as a letter: a greeting before it and a sign-off after it",
                         tcalls(said=f"Hi {contact['first_name']},\n\n{text}\n\nBest,\n{mb.me['name']}")),
            ],
            "tools": plan(tcalls(), tcalls(escalate=False), tcalls(reply=False), tcalls(case_id=other["case_id"])),
        }
