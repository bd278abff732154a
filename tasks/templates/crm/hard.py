"""Hard, multi-record CRM tasks: find the right record by its data, then change several things."""

from __future__ import annotations

import datetime as dt
import random

from domain.crm import OPEN_STAGES
from tasks.templates import World, template
from tasks.templates.harmless import harmless
from tasks.templates.crm._common import (
    DIALOG, ME, Crm, allow_create, allow_update, button, call, contacts_went_to, done, dump, dump_text, extra, fill, find,
    finish, give_contact, iso, link, lookup, mdy, menuitem, money, neighbour, next_id, next_weekday, open_record, pick,
    reread, save_modal, stray_contact, tab, tools, user_id,
    written,
)

CALL_NOTES = ["Champion confirmed budget; legal review starts next week.", "Procurement asked for final pricing by Friday.",
              "Verbal yes from the VP; waiting on the signature process.", "They want a 3-year term with a price lock."]
FOLLOW_UPS = ["Send contract for signature", "Confirm signature process", "Send final pricing", "Schedule legal review"]


@template("crm", "latest-activity-negotiation", difficulty="hard", max_steps=50)
def latest_activity_negotiation(w: World, rng: random.Random):
    """Among an account's open deals closing this quarter above $50k, move the one with the latest
    activity to Negotiation, log a call on it, and create a follow-up task for its owner next Monday."""
    crm = Crm(w)
    monday = next_weekday(crm.today, 0)
    cands = []
    for a in crm.accounts:
        if not crm.unique(a["name"]):
            continue
        opps = [o for o in crm.opps_by_acc.get(a["id"], []) if o["stage"] in OPEN_STAGES and o["amount"] and o["amount"] > 50000
                and crm.q_start <= o["close_date"] <= crm.q_end]
        if len(opps) < 2 or not all(crm.unique(o["name"]) for o in opps):
            continue
        acts = [(crm.last_activity("Opportunity", o["id"]), o) for o in opps]
        dated = sorted([(d, o) for d, o in acts if d], key=lambda x: x[0], reverse=True)
        if not dated or (len(dated) > 1 and dated[0][0] == dated[1][0]):
            continue
        target = dated[0][1]
        if target["stage"] == "Negotiation":
            continue
        decoy = max((o for o in opps if o["id"] != target["id"]), key=lambda o: (o["amount"], o["id"]))
        cands.append((a, target, decoy, opps))
    for a, target, decoy, opps in rng.sample(cands, len(cands)):
        note = rng.choice(CALL_NOTES)
        subject = rng.choice(FOLLOW_UPS)
        owner = target["owner_id"]

        def steps(o, comment=note):
            own = o["owner_id"]
            s = open_record(o["name"]) + [{"click": {"role": "option", "name": "Negotiation", "exact": True}},
                                          button("Mark as Current Stage"),
                                          tab("Log a Call"), fill("Comments", comment, within=None), button("Save"),
                                          tab("New Task"), fill("Subject", subject, within=None), fill("Due Date", mdy(monday), within=None)]
            if own != ME:
                u = crm.uname(own)
                s += lookup("Assigned To", u.split()[0], u, within=None, clear=True)
            return s + [button("Save"), done()]

        def calls(o):
            # Read the account's open deals, then each one's Last Activity; act on the latest.
            reads = [find("Account", a["name"]), call("get_record", object="Account", record_id=a["id"])]
            reads += [call("get_record", object="Opportunity", record_id=x["id"]) for x in opps]
            return reads + [call("change_stage_or_status", object="Opportunity", record_id=o["id"], value="Negotiation"),
                            call("log_call", object="Opportunity", record_id=o["id"], comments=note),
                            call("new_task", object="Opportunity", record_id=o["id"], subject=subject, due_date=mdy(monday),
                                 assigned_to_id=o["owner_id"]), finish()]
        yield {
            "goal": f"Look at every open opportunity of {a['name']} that closes this quarter and is worth more than $50,000. "
                    f"Move the one with the most recent activity to Negotiation, log a call on it with the comment \u201c{note}\u201d, "
                    f"and create a follow-up task \u201c{subject}\u201d for the opportunity's owner, due next Monday.",
            "start_path": "/lightning/page/home",
            "verify": {
                "checks": [
                    {"table": "opportunities", "where": {"id": target["id"]}, "expect": {"stage": "Negotiation", "probability": 80}},
                    {"table": "tasks", "in": "created", "where": {"what_type": "Opportunity", "what_id": target["id"], "task_subtype": "Call"},
                     "expect": {"status": "Completed", "description": written(note.rstrip('.'), note, CALL_NOTES)}, "count": 1},
                    {"table": "tasks", "in": "created", "where": {"what_type": "Opportunity", "what_id": target["id"], "task_subtype": "Task"},
                     "expect": {"subject": {"$ieq": subject}, "activity_date": iso(monday), "owner_id": owner,
                                "status": {"$ne": "Completed"}}, "count": 1},
                ],
                "unchanged_except": [
                    allow_update("opportunities", {"id": target["id"]}, ["stage", "probability", "forecast_category"]),
                    allow_create("tasks", {"what_type": "Opportunity", "what_id": target["id"], "task_subtype": "Call"}),
                    allow_create("tasks", {"what_type": "Opportunity", "what_id": target["id"], "task_subtype": "Task"}),
                ],
            },
            "solution": steps(target),
            "near_misses": [steps(decoy)],
            "harmless": [harmless("check_work", steps(target)[:-1] + open_record(target["name"]) + [done()],
                                  "opens the opportunity again to see the stage, the call and the task on it",
                                  calls(target)[:-1] + [reread("Opportunity", target["id"])])],
            "tools": tools(calls(target), calls(decoy)),
            "adversarial": [
                dump(steps(target, dump_text(note, CALL_NOTES)), "the call's comment lists every comment the template could ask for"),
                extra(steps(target), open_record(decoy["name"]) + [{"click": {"role": "option", "name": "Negotiation", "exact": True}},
                                                                   button("Mark as Current Stage")],
                      f"moves the other candidate, \u201c{decoy['name']}\u201d, to Negotiation too (hedging the choice)"),
            ],
        }


@template("crm", "close-won-and-renewal", difficulty="hard", max_steps=40)
def close_won_and_renewal(w: World, rng: random.Random):
    """Close a deal as won, then create its renewal for the same account."""
    crm = Crm(w)
    cands = [o for o in crm.opps if o["stage"] == "Negotiation" and crm.unique(o["name"]) and o["amount"]
             and crm.unique(crm.acc[o["account_id"]]["name"]) and len(o["name"]) < 62]
    for o in rng.sample(cands, len(cands)):
        acc = crm.acc[o["account_id"]]
        renewal = f"{o['name']} Renewal"
        close = crm.today.replace(year=crm.today.year + 1)

        def new_opp(name, day):
            return [link(acc["name"]), button("Show more actions"), menuitem("New Opportunity"),
                    fill("Opportunity Name", name), fill("Amount", str(o["amount"])), fill("Close Date", mdy(day)), save_modal()]

        def steps(stage):
            return open_record(o["name"]) + [
                {"click": {"role": "option", "name": "Closed", "exact": True}}, button("Select Closed Stage"),
                *pick("Stage", stage), save_modal()] + new_opp(renewal, close) + [done()]
        yield {
            "goal": f"\u201c{o['name']}\u201d was just signed. Mark it Closed Won, then create its renewal: a new opportunity for "
                    f"{acc['name']} named \u201c{renewal}\u201d with the same amount ({money(o['amount'])}), close date {mdy(close)}, "
                    f"in the Prospecting stage.",
            "start_path": "/lightning/o/Opportunity/list",
            "verify": {
                "checks": [
                    {"table": "opportunities", "where": {"id": o["id"]}, "expect": {"stage": "Closed Won", "probability": 100,
                                                                                   "forecast_category": "Closed"}},
                    {"table": "opportunities", "in": "created", "where": {"name": {"$ieq": renewal}},
                     "expect": {"account_id": acc["id"], "amount": o["amount"], "close_date": iso(close), "stage": "Prospecting"},
                     "count": 1},
                ],
                "unchanged_except": [
                    allow_update("opportunities", {"id": o["id"]}, ["stage", "probability", "forecast_category", "loss_reason"]),
                    allow_create("opportunities", {"account_id": acc["id"], "name": {"$ieq": renewal}}),
                ],
            },
            "solution": steps("Closed Won"),
            "adversarial": [extra(steps("Closed Won"), new_opp(renewal, close + dt.timedelta(days=1)),
                                  "creates the renewal twice, a day apart (hedging the close date)")],
            "near_misses": [steps("Closed Lost")],
            "harmless": [harmless("check_work", steps("Closed Won")[:-1] + open_record(o["name"]) + [done()],
                                  "opens the won deal again after creating the renewal, to see it is Closed Won",
                                  [find("Opportunity", o["name"]),
                                   call("change_stage_or_status", object="Opportunity", record_id=o["id"], value="Closed Won"),
                                   call("create_record", object="Opportunity",
                                        fields={"name": renewal, "account_id": acc["id"], "amount": o["amount"], "close_date": mdy(close),
                                                "stage": "Prospecting"}),
                                   reread("Opportunity", o["id"]), reread("Opportunity", next_id(crm, "opportunities"))])],
            "tools": tools(*[[find("Opportunity", o["name"]), call("change_stage_or_status", object="Opportunity", record_id=o["id"], value=st),
                              call("create_record", object="Opportunity",
                                   fields={"name": renewal, "account_id": acc["id"], "amount": o["amount"], "close_date": mdy(close),
                                           "stage": "Prospecting"}), finish()]
                             for st in ("Closed Won", "Closed Lost")]),
        }


@template("crm", "escalate-case-reassign", difficulty="hard", max_steps=40)
def escalate_case_reassign(w: World, rng: random.Random):
    """Escalate a case, raise its priority, reassign it, and log a call with its contact."""
    crm = Crm(w)
    cands = [c for c in crm.cases if c["status"] in ("New", "Working") and c["priority"] != "High" and c["owner_id"] not in (12,)]
    notes = ["Told the customer engineering is on it; next update tomorrow 10 AM.", "Confirmed the impact: all EU users affected.",
             "Customer agreed to share logs from the failing job."]
    order = rng.sample(cands, len(cands))
    for c in order:
        acc = crm.acc[c["account_id"]]["name"]
        contact = crm.con[c["contact_id"]]
        note = rng.choice(notes)
        other = neighbour(order, c)

        def steps(owner_first, owner, comment=note):
            return open_record(c["case_number"]) + [
                button("Edit"), *pick("Status", "Escalated"), *pick("Priority", "High"), save_modal(),
                button("Show more actions"), menuitem("Change Owner"), *lookup("Owner", owner_first, owner),
                button("Change Owner", within=DIALOG),
                tab("Log a Call"), fill("Comments", comment, within=None), button("Save"), done()]
        # Audit (#48): "log a call with <contact>" also read as a call logged on the contact's own page (not on the
        # case), which the check (the call related to the case) refuses: the goal now says where the call goes.
        yield {
            "goal": f"Case {c['case_number']} from {acc} (\u201c{c['subject']}\u201d) needs engineering. Escalate it, raise its priority "
                    f"to High, assign it to Mateo Rossi, and log a call on the case with {crm.cname(contact)} noting: {note}",
            "start_path": "/lightning/o/Case/list?filterName=AllOpenCases",
            "verify": {
                "checks": [
                    {"table": "cases", "where": {"id": c["id"]}, "expect": {"status": "Escalated", "priority": "High", "owner_id": 12}},
                    {"table": "tasks", "in": "created", "where": {"what_type": "Case", "what_id": c["id"], "task_subtype": "Call"},
                     "expect": {"who_type": "Contact", "who_id": contact["id"],
                                "description": written(note.rstrip('.')[:40], note, notes)},
                     "count": 1},
                ],
                "unchanged_except": [
                    allow_update("cases", {"id": c["id"]}, ["status", "priority", "owner_id"]),
                    allow_create("tasks", {"what_type": "Case", "what_id": c["id"], "task_subtype": "Call"}),
                ],
            },
            "solution": steps("Mateo", "Mateo Rossi"),
            "adversarial": [
                dump(steps("Mateo", "Mateo Rossi", dump_text(note, notes)), "the call's comment lists every note the template could ask for"),
                extra(steps("Mateo", "Mateo Rossi"), open_record(other["case_number"]) + [
                    button("Edit"), *pick("Status", "Escalated"), *pick("Priority", "High"), save_modal()],
                    f"escalates case {other['case_number']} as well"),
            ],
            "near_misses": [steps("Hannah", "Hannah Schmidt")],
            "harmless": [harmless("check_work", steps("Mateo", "Mateo Rossi")[:-1] + open_record(c["case_number"]) + [done()],
                                  "opens the case again to see its status, priority, owner and the logged call",
                                  [find("Case", c["case_number"]), call("list_users"),
                                   call("update_record", object="Case", record_id=c["id"], fields={"status": "Escalated", "priority": "High"}),
                                   call("change_owner", object="Case", record_id=c["id"], owner_id=12),
                                   call("log_call", object="Case", record_id=c["id"], comments=note), reread("Case", c["id"])])],
            "tools": tools(*[[find("Case", c["case_number"]), call("list_users"),
                              call("update_record", object="Case", record_id=c["id"], fields={"status": "Escalated", "priority": "High"}),
                              call("change_owner", object="Case", record_id=c["id"], owner_id=user_id(crm, owner)),
                              call("log_call", object="Case", record_id=c["id"], comments=note), finish()]
                             for owner in ("Mateo Rossi", "Hannah Schmidt")]),
        }


@template("crm", "reassign-account-and-opps", difficulty="hard", max_steps=45)
def reassign_account_and_opps(w: World, rng: random.Random):
    """Hand an account and all of its open opportunities (not the closed ones) to another rep."""
    crm = Crm(w)
    cands = []
    for a in crm.accounts:
        opps = crm.opps_by_acc.get(a["id"], [])
        open_ = [o for o in opps if o["stage"] in OPEN_STAGES]
        closed = [o for o in opps if o["stage"] not in OPEN_STAGES]
        if (1 <= len(open_) <= 2 and closed and a["owner_id"] not in (7,) and crm.unique(a["name"])
                and all(crm.unique(o["name"]) and o["owner_id"] != 7 for o in open_)):
            cands.append((a, open_, closed))
    change = lambda: [button("Show more actions"), menuitem("Change Owner"), *lookup("Owner", "Noah", "Noah Patel"),  # noqa: E731
                      button("Change Owner", within=DIALOG)]
    for a, open_, closed in rng.sample(cands, len(cands)):
        # Change Account Owner takes the account's contacts and its open opportunities owned by the account's owner
        # along (apps/crm/services/records.account_transfer); the others are handed over one by one.
        steps = open_record(a["name"]) + change()
        for o in open_:
            if o["owner_id"] != a["owner_id"]:
                steps += open_record(o["name"]) + change()
        opps_only = [s for o in open_ for s in open_record(o["name"]) + change()]
        closed_named = [o for o in closed if crm.unique(o["name"])]
        stray = stray_contact(crm, a["id"], (7, a["owner_id"]))
        harm = (open_record(closed_named[0]["name"]) + change() if closed_named
                else open_record(crm.acc[neighbour(sorted(crm.acc), a["id"], lambda i: crm.unique(crm.acc[i]["name"])
                                                   and crm.acc[i]["owner_id"] != 7)]["name"]) + change())
        yield {
            "goal": f"Noah Patel is taking over {a['name']}. Make him the owner of the account and of each of its open opportunities; "
                    f"closed opportunities keep their current owners.",
            "start_path": "/lightning/page/home",
            "verify": {
                "checks": [{"table": "accounts", "where": {"id": a["id"]}, "expect": {"owner_id": 7}}]
                + [{"table": "opportunities", "where": {"id": o["id"]}, "expect": {"owner_id": 7}} for o in open_]
                + [contacts_went_to(a["id"], 7)],
                "unchanged_except": [allow_update("accounts", {"id": a["id"]}, ["owner_id"]),
                                     allow_update("contacts", {"account_id": a["id"]}, ["owner_id"])]
                + [allow_update("opportunities", {"id": o["id"]}, ["owner_id"]) for o in open_],
            },
            "solution": steps + [done()],
            "adversarial": [extra(steps + [done()], harm,
                                  "also hands Noah a closed opportunity of the account" if closed_named
                                  else "also hands Noah another account")]
            + ([extra(steps + [done()], give_contact(crm, stray[0], stray[1]),
                      f"also gives the account's contact {crm.cname(stray[0])} to {crm.uname(stray[1])}")] if stray else []),
            "near_misses": [opps_only + [done()]],  # the opportunities handed over, the account forgotten
            "harmless": [harmless("check_work", steps + open_record(a["name"]) + [done()],
                                  "opens the account again to see Noah on it and on its open opportunities",
                                  [find("Account", a["name"]), call("get_record", object="Account", record_id=a["id"]), call("list_users"),
                                   call("change_owner", object="Account", record_id=a["id"], owner_id=7)]
                                  + [call("change_owner", object="Opportunity", record_id=o["id"], owner_id=7) for o in open_]
                                  + [reread("Account", a["id"])])],
            "tools": tools([find("Account", a["name"]), call("get_record", object="Account", record_id=a["id"]), call("list_users"),
                            call("change_owner", object="Account", record_id=a["id"], owner_id=7)]
                           + [call("change_owner", object="Opportunity", record_id=o["id"], owner_id=7) for o in open_] + [finish()],
                           [find("Account", a["name"]), call("get_record", object="Account", record_id=a["id"]), call("list_users")]
                           + [call("change_owner", object="Opportunity", record_id=o["id"], owner_id=7) for o in open_] + [finish()],
                           *([[find("Account", a["name"]), call("list_users"),
                               call("change_owner", object="Account", record_id=a["id"], owner_id=7)]
                              + [call("change_owner", object="Opportunity", record_id=o["id"], owner_id=7) for o in open_]
                              + [call("change_owner", object="Contact", record_id=stray[0]["id"], owner_id=stray[1]), finish()]]
                             if stray else [])),
        }
