"""Cross-app templates over a deal moving on: its stage changed in the CRM, and its primary contact (found in the
deal's contact roles) told from the mailbox."""

from __future__ import annotations

import random

from domain.correspondence import asked
from tasks.templates import World, template
from tasks.templates.crm.parts import ME, Crm, allow_update, button, email_composer, open_record
from tasks.templates.crm.parts import call as crm_call
from tasks.templates.crm.parts import find as crm_find
from tasks.templates.harmless import harmless
from tasks.templates.mail.basics import sent_message
from tasks.templates.mail.parts import Mailbox, graded, text_bound
from tasks.templates.mail.parts import call as mail_call
from tasks.templates.workspace.common import calls, done, in_tab, plan, scoped, spec
from tasks.templates.workspace.orders import compose

EARLY = ("Qualification", "Needs Analysis", "Proposal")  # stages before Negotiation


def to_stage(stage: str) -> list[dict]:
    """On an opportunity's page: the stage in the path, then Mark as Current Stage."""
    return [{"click": {"role": "option", "name": stage, "exact": True}}, button("Mark as Current Stage")]


@template("workspace", "deal-stage-email-contact", difficulty="hard", max_steps=40, count=5, test_every=5)
def deal_stage_email_contact(w: World, rng: random.Random):
    """A deal of mine moves to Negotiation: change its stage in the CRM, then email its primary contact (the deal's
    contact roles name them; another contact has a role on it too) from the mailbox."""
    mb, crm = Mailbox(w.of("mail")), Crm(w.of("crm"))
    cands = []
    for o in crm.opps:
        if o["owner_id"] != ME or o["stage"] not in EARLY or not crm.unique(o["name"]):
            continue
        roles = sorted(crm.roles_by_opp[o["id"]], key=lambda r: r["id"])
        primary = [r for r in roles if r["is_primary"]]
        rest = [r for r in roles if not r["is_primary"] and crm.con[r["contact_id"]]["email"]
                and r["contact_id"] not in {p["contact_id"] for p in primary}]
        if len(primary) == 1 and rest and crm.con[primary[0]["contact_id"]]["email"]:
            cands.append((o, crm.con[primary[0]["contact_id"]], crm.con[rest[0]["contact_id"]]))
    order = rng.sample(cands, len(cands))
    for k, (o, c, side) in enumerate(order[:5]):
        other_o = order[(k + 5) % len(order)][0]
        email, side_email = c["email"].lower(), side["email"].lower()
        subject = f"Next steps on {o['name']}"
        text = (f"Hi {c['first_name']}, good news: {o['name']} has moved to the negotiation stage on our side. "
                f"I will send the draft terms this week.")
        assert not asked(subject + "\n" + text), "a statement: the correspondent does not answer it"

        def steps(opp: dict = o, stage: str = "Negotiation", to: str = email, moved: bool = True,
                  sent: bool = True) -> list[dict]:
            out = in_tab("crm", open_record(opp["name"]) + (to_stage(stage) if moved else []))
            return out + (in_tab("mail", compose(to, subject, text if to == email else text.replace(
                c["first_name"], side["first_name"], 1))) if sent else []) + [done()]

        def tcalls(stage: str = "Negotiation", to: str = email, said: str = text, moved: bool = True,
                   sent: bool = True) -> list[dict]:
            out = calls("crm", [crm_find("Opportunity", o["name"]),
                                crm_call("get_record", object="Opportunity", record_id=o["id"]),
                                crm_call("get_record", object="Contact", record_id=c["id"] if to == email else side["id"])]
                        + ([crm_call("change_stage_or_status", object="Opportunity", record_id=o["id"], value=stage)]
                           if moved else []))
            return out + (calls("mail", [mail_call("send_email", to=[to], subject=subject, body=said)]) if sent else [])

        mail_part = graded(
            [{"table": "messages", "in": "created", "where": {"is_sent": True}, "count": 1,
              "expect": {"to": [email], "cc": [], "bcc": [], "is_sent": True,
                         "body": {"$icontains": f"{o['name']} has moved to the negotiation stage",
                                  "$len": text_bound(text, extra=mb.me["signature"])}},
              "name": "the deal's primary contact told from the mailbox"}],
            [{"table": "messages", "ops": ["create"], "where": sent_message(to=[email]), "max": 1},
             {"table": "threads", "ops": ["create"], "max": 1}])
        crm_checks = [{"table": "opportunities", "where": {"id": o["id"]}, "expect": {"stage": "Negotiation"},
                       "name": "the deal moved to Negotiation"}]
        gold = steps()
        letter = text.replace(", good", ",\n\nGood") + f"\n\nBest regards,\n{mb.me['name']}"
        yield {
            "goal": f"The deal \u201c{o['name']}\u201d (currently {o['stage']}) is going into negotiation. Move it to the "
                    f"Negotiation stage in the CRM, then email its primary contact (see the deal's Contact Roles) from "
                    f"your mailbox with the subject \u201c{subject}\u201d and the text: \u201cHi <their first name>, good "
                    f"news: {o['name']} has moved to the negotiation stage on our side. I will send the draft terms "
                    f"this week.\u201d",
            "start_path": "/inbox",
            "verify": spec(scoped("mail", mail_part["checks"]) + scoped("crm", crm_checks),
                           scoped("mail", mail_part["unchanged_except"])
                           + scoped("crm", [allow_update("opportunities", {"id": o["id"]},
                                                         ["stage", "probability", "forecast_category"])]),
                           {"the deal moved to Negotiation": scoped("crm", crm_checks),
                            "the primary contact told": scoped("mail", mail_part["checks"][:1])}),
            "solution": gold,
            "near_misses": [steps(sent=False), steps(moved=False), steps(stage="Proposal" if o["stage"] != "Proposal"
                                                                          else "Closed Won")],
            "adversarial": [
                {"kind": "wrong_record", "steps": steps(to=side_email),
                 "why": f"the email sent to {crm.cname(side)}, who has a role on the deal but is not its primary contact"},
                {"kind": "wrong_app", "steps": in_tab("crm", open_record(o["name"]) + to_stage("Negotiation")
                                                    + email_composer(subject, text)) + [done()],
                 "why": "the email written in the CRM's own Email composer on the deal: nothing sent from the mailbox"},
                {"kind": "extra", "steps": gold[:-1] + in_tab("crm", open_record(other_o["name"]) + to_stage("Negotiation"))
                 + [done()], "why": f"another deal (\u201c{other_o['name']}\u201d) moved to Negotiation too"},
            ],
            "harmless": [harmless("courtesy", in_tab("crm", open_record(o["name"]) + to_stage("Negotiation"))
                                  + in_tab("mail", compose(email, subject, letter)) + [done()],
                                  "the text as a letter: the greeting on its own line and a sign-off",
                                  tcalls(said=letter))],
            "tools": plan(tcalls(), tcalls(sent=False), tcalls(moved=False),
                          tcalls(stage="Proposal" if o["stage"] != "Proposal" else "Closed Won")),
        }
