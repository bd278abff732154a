"""Cross-app templates over the CRM's to-do list: a task due today names a contact, the follow-up goes out by mail,
and the task is ticked off in the CRM."""

from __future__ import annotations

import random

from domain.correspondence import asked
from tasks.templates import World, template
from tasks.templates.crm.parts import ME, Crm, allow_update, button, email_composer, fill, open_record, tab
from tasks.templates.crm.parts import call as crm_call
from tasks.templates.harmless import harmless
from tasks.templates.mail.basics import sent_message
from tasks.templates.mail.parts import Mailbox, graded, text_bound
from tasks.templates.mail.parts import call as mail_call
from tasks.templates.workspace.common import calls, done, in_tab, plan, scoped, spec
from tasks.templates.workspace.orders import compose


def tick(subject: str) -> dict:
    """On the CRM's Home page: the checkbox of one of today's tasks."""
    return {"click": {"role": "checkbox", "name": f"Mark {subject} complete", "exact": True}}


def todays_contact_tasks(crm: Crm) -> list[dict]:
    """My open tasks due today on a contact, as Home lists them (its 10 latest), with a subject Home shows once and a
    contact the search finds by name alone."""
    mine = [t for t in crm.tasks if t["owner_id"] == ME and t["status"] != "Completed" and t["activity_date"]
            and t["activity_date"] <= crm.today]
    home = sorted(mine, key=lambda t: (-t["activity_date"].toordinal(), t["priority"], t["id"]))[:10]
    subjects = [t["subject"] for t in home]
    return [t for t in home if subjects.count(t["subject"]) == 1 and t["activity_date"] == crm.today
            and t["who_type"] == "Contact" and t["what_type"] == "Opportunity"
            and crm.con[t["who_id"]]["email"] and crm.unique(crm.cname(crm.con[t["who_id"]]))
            and not crm.has_duplicates("contacts", crm.con[t["who_id"]])]


@template("workspace", "todays-task-email-contact", difficulty="hard", max_steps=40, count=5, test_every=5)
def todays_task_email_contact(w: World, rng: random.Random):
    """A CRM task due today is a follow-up with a contact: look the contact's address up in the CRM, email them from
    the mailbox, and mark the task complete."""
    mb, crm = Mailbox(w.of("mail")), Crm(w.of("crm"))
    cands = todays_contact_tasks(crm)
    for t in rng.sample(cands, min(5, len(cands))):
        c, opp = crm.con[t["who_id"]], crm.opp[t["what_id"]]
        other = next(x for x in cands if x["id"] != t["id"] and crm.con[x["who_id"]]["email"] != c["email"])
        oc = crm.con[other["who_id"]]
        name, email = crm.cname(c), c["email"].lower()
        subject = f"{t['subject']}: {opp['name']}"
        text = f"Hi {c['first_name']}, following up on {opp['name']} as promised. More details to come shortly."
        assert not asked(subject + "\n" + text), "a statement: no correspondent answers it"

        def steps(said: str = text, to: str = email, ticked: dict | None = t, sent: bool = True) -> list[dict]:
            out = in_tab("crm", ([tick(ticked["subject"])] if ticked else []) + open_record(name))
            return out + (in_tab("mail", compose(to, subject, said)) if sent else []) + [done()]

        def tcalls(said: str = text, to: str = email, ticked: dict | None = t, sent: bool = True) -> list[dict]:
            out = calls("crm", [crm_call("list_records", object="Task", list_view="TodaysTasks"),
                                crm_call("get_record", object="Contact", record_id=c["id"])]
                        + ([crm_call("complete_task", task_id=ticked["id"])] if ticked else []))
            return out + (calls("mail", [mail_call("send_email", to=[to], subject=subject, body=said)]) if sent else [])

        mail_part = graded(
            [{"table": "messages", "in": "created", "where": {"is_sent": True}, "count": 1,
              "expect": {"to": [email], "cc": [], "bcc": [], "is_sent": True,
                         "subject": {"$icontains": opp["name"], "$len": text_bound(subject, slack=40)},
                         "body": {"$icontains": f"following up on {opp['name']}",
                                  "$len": text_bound(text, extra=mb.me["signature"])}},
              "name": "the contact emailed the follow-up from the mailbox"}],
            [{"table": "messages", "ops": ["create"], "where": sent_message(to=[email]), "max": 1},
             {"table": "threads", "ops": ["create"], "max": 1}])
        crm_checks = [{"table": "tasks", "where": {"id": t["id"]},
                       "expect": {"status": "Completed", "completed_at": {"$ne": None}}, "name": "today's task ticked off"}]
        gold = steps()
        letter = text.replace(", following", ",\n\nFollowing") + f"\n\nBest regards,\n{mb.me['name']}"
        yield {
            "goal": f"One of your CRM tasks due today is \u201c{t['subject']}\u201d with {name} ({opp['name']}). Email "
                    f"{c['first_name']} from your mailbox, at the address on their CRM contact record, with the subject "
                    f"\u201c{subject}\u201d and the text: \u201c{text}\u201d Then mark the task complete in the CRM.",
            "start_path": "/inbox",
            "verify": spec(scoped("mail", mail_part["checks"]) + scoped("crm", crm_checks),
                           scoped("mail", mail_part["unchanged_except"])
                           + scoped("crm", [allow_update("tasks", {"id": t["id"]}, ["status", "completed_at"])]),
                           {"the contact emailed": scoped("mail", mail_part["checks"][:1]),
                            "the task ticked off": scoped("crm", crm_checks)}),
            "solution": gold,
            "near_misses": [steps(ticked=None), steps(sent=False), steps(to=oc["email"].lower())],
            "adversarial": [
                {"kind": "wrong_app", "steps": in_tab("crm", [tick(t["subject"]), *open_record(name),
                                                              *email_composer(subject, text)]) + [done()],
                 "why": "the email written in the CRM's own Email composer (an activity logged there): nothing sent "
                        "from the mailbox"},
                {"kind": "wrong_record", "steps": steps(ticked=other),
                 "why": f"another of today's tasks (\u201c{other['subject']}\u201d) ticked instead"},
                {"kind": "dump", "steps": steps(said=" ".join(
                    f"Hi {crm.con[x['who_id']]['first_name']}, following up on {crm.opp[x['what_id']]['name']} as promised."
                    for x in cands)), "why": "the email's text covers every task due today"},
                {"kind": "extra", "steps": gold[:-1] + in_tab("crm", open_record(name) + [
                    tab("Log a Call"), fill("Comments", text, within=None), button("Save")]) + [done()],
                 "why": "the gold, then a call logged on the contact that never happened"},
            ],
            "harmless": [harmless("courtesy", steps(said=letter), "the text as a letter: the greeting on its own line "
                                  "and a sign-off", tcalls(said=letter))],
            "tools": plan(tcalls(), tcalls(ticked=None), tcalls(sent=False), tcalls(to=oc["email"].lower())),
        }
