"""Judged CRM tasks: notes and activities whose success is a judgement (a note summarising an account's
open pipeline, a call log written up from shorthand, an email to a customer about their open case). State
checks gate (one note / activity on the right record, nothing else changed); an LLM judge grades the text
(grading/judge.py), calibrated on each task's labelled texts (tasks/templates/judged_lib.py)."""

from __future__ import annotations

import datetime as dt
import random

from tasks.templates import World, template
from tasks.templates.harmless import harmless
from tasks.templates.crm._common import (
    DIALOG, ME, Crm, allow_update, button, call, done, extra, fill, find, finish, mdy, menuitem, money, open_record, save_modal, tab,
    tools)
from tasks.templates.judged_lib import calibration, judge_check


def _opp_line(o: dict) -> str:
    return f"{o['name']} ({o['stage']}, {money(o['amount'])}, closing {mdy(o['close_date'])})"


@template("crm", "judged-pipeline-note", difficulty="hard", max_steps=25, count=4, test_every=4, tags=("judged",))
def pipeline_note(w: World, rng: random.Random):
    """Add a note to an account summarising its open opportunities: names, stages, amounts (judged)."""
    crm = Crm(w)
    cands = []
    for a in crm.accounts:
        opps = [o for o in crm.opps_by_acc[a["id"]] if crm.is_open(o)]
        closed = [o for o in crm.opps_by_acc[a["id"]] if not crm.is_open(o) and o["amount"]]
        if crm.unique(a["name"]) and 2 <= len(opps) <= 3 and closed and all(o["amount"] for o in opps):
            cands.append((a, sorted(opps, key=lambda o: o["close_date"]), closed))
    title = "Open pipeline"
    for k, (a, opps, closed) in enumerate(rng.sample(cands, len(cands))):
        total = sum(o["amount"] for o in opps)
        gold = ["Open opportunities: " + "; ".join(_opp_line(o) for o in opps) + f". Total open pipeline {money(total)}.",
                f"{len(opps)} open deals, {money(total)} in total. " + " ".join(
                    f"{o['name']} is in {o['stage']} at {money(o['amount'])}." for o in opps)]
        missing = "Open opportunities: " + "; ".join(_opp_line(o) for o in opps[:-1]) + "."
        with_closed = gold[0] + " Also " + _opp_line(closed[0]) + "."
        wrong_amounts = "Open opportunities: " + "; ".join(
            f"{o['name']} ({o['stage']}, {money(o['amount'] * 2)})" for o in opps) + "."
        vague = f"{a['name']} has a few deals in progress. Looking good overall, follow up next quarter."
        others = [o for o in crm.opps if o["account_id"] != a["id"] and crm.is_open(o) and o["amount"]][:10]
        dump = "Opportunities: " + "; ".join(_opp_line(o) for o in opps + closed + others) + "."
        rubric = ["Names every open opportunity of the account listed in the context, and no other opportunity.",
                  "Gives each named opportunity's stage and amount as in the context.",
                  "Is a concise summary note (a few lines), with no unrelated content."]
        context = (f"Account {a['name']}. Its open opportunities: " + "; ".join(_opp_line(o) for o in opps)
                   + f". Total open: {money(total)}. Closed opportunities (not open): "
                   + "; ".join(_opp_line(o) for o in closed) + ".")
        other = next(x for x, _, _ in cands if x["id"] != a["id"])
        path = open_record(a["name"]) + [button("New Notes")]

        def note(body: str, p=path) -> list[dict]:
            return p + [fill("Title", title), fill("Note", body), save_modal(), done()]

        yield {
            "goal": f"Add a note titled \u201c{title}\u201d to the account {a['name']}, summarising its open opportunities "
                    "(each one's name, stage and amount).",
            "start_path": "/lightning/page/home",
            "verify": {
                "checks": [{"table": "notes", "in": "created", "count": 1,
                            "expect": {"parent_type": "Account", "parent_id": a["id"], "title": {"$ieq": title},
                                       "owner_id": ME}, "name": "one note on the account"},
                           judge_check({"table": "notes", "in": "created", "field": "body"}, rubric, context, 700,
                                       "summarises the open pipeline")],
                "unchanged_except": [{"table": "notes", "ops": ["create"],
                                      "where": {"parent_type": "Account", "parent_id": a["id"]}, "max": 1}],
            },
            "solution": note(gold[k % 2]),
            "near_misses": [note(missing), note(gold[k % 2], open_record(other["name"]) + [button("New Notes")])],
            # The other gold wording (a labelled pass): the state checks must not pin one phrasing.
            "harmless": [harmless("phrasing", note(gold[(k + 1) % 2]), "the summary in the other accepted wording",
                                  [find("Account", a["name"]), call("get_record", object="Account", record_id=a["id"]),
                                   call("add_note", object="Account", record_id=a["id"], title=title, body=gold[(k + 1) % 2])])],
            "tools": tools(*[[find("Account", acc["name"]), call("get_record", object="Account", record_id=acc["id"]),
                              call("add_note", object="Account", record_id=acc["id"], title=title, body=body), finish()]
                             for acc, body in ((a, gold[k % 2]), (a, missing), (other, gold[k % 2]))]),
            "adversarial": [{"kind": "extra", "why": "the right note, and a second one",
                             "steps": note(gold[k % 2])[:-1] + [button("New Notes"), fill("Title", "Misc"),
                                                                  fill("Note", vague), save_modal(), done()]}],
            "calibration": calibration(gold, [("near_miss", missing, "leaves out an open opportunity"),
                                              ("wrong_facts", with_closed, "adds a closed opportunity"),
                                              ("wrong_facts", wrong_amounts, "amounts doubled"),
                                              ("near_miss", vague, "no names, stages or amounts")], dump, 700),
        }


CALLS = [
    ("want 40 more seats", "have budget approval from their CFO", "need our security questionnaire by {d}"),
    ("are unhappy with the onboarding speed", "asked for a dedicated trainer", "will decide on the renewal by {d}"),
    ("are evaluating a competitor", "see price as the main concern", "asked for a revised quote by {d}"),
    ("said the pilot went well", "want to roll out to two more teams", "proposed a kickoff call on {d}"),
]


def _contacts(crm: Crm):
    return [c for c in crm.contacts if crm.unique(crm.cname(c)) and c["email"] and c["account_id"] in crm.acc]


def _contact_activity(crm: Crm, c: dict, other: dict, expect: dict, label: str, judge: dict, act, gold: str,
                      near: str, tool: str, text_arg: str, more_checks: tuple = (), **tool_args) -> dict:
    """The verify spec, solution, near-misses and tool plan of a judged activity on contact `c`: one
    completed activity on `c` matching `expect` (plus `more_checks`), no other task created on `c`.
    act(text, name) plays it in the browser; the tool `tool` gets the text as `text_arg`. Near-misses:
    `near` on `c` (the judge fails it), `gold` on `other` (the state fails it)."""
    return {
        "verify": {
            "checks": [{"table": "tasks", "in": "created", "count": 1,
                        "expect": {"who_type": "Contact", "who_id": c["id"], **expect}, "name": label},
                       *more_checks, judge],
            "unchanged_except": [{"table": "tasks", "ops": ["create"], "where": {"who_id": c["id"]}, "max": 1}],
        },
        "solution": act(gold, crm.cname(c)),
        "near_misses": [act(near, crm.cname(c)), act(gold, crm.cname(other))],
        "tools": tools(*[[find("Contact", crm.cname(who)),
                          call(tool, object="Contact", record_id=who["id"], **tool_args, **{text_arg: text}), finish()]
                         for who, text in ((c, gold), (c, near), (other, gold))]),
    }


@template("crm", "judged-call-summary", difficulty="medium", max_steps=16, count=4, test_every=4, tags=("judged",))
def call_summary(w: World, rng: random.Random):
    """Log a call on a contact, writing shorthand notes up as a clear summary (judged)."""
    crm = Crm(w)
    cands = _contacts(crm)
    for k, c in enumerate(rng.sample(cands, len(cands))):
        name, first = crm.cname(c), c["first_name"]
        d = mdy(crm.today + dt.timedelta(days=7 + k))
        f1, f2, f3 = (x.format(d=d) for x in CALLS[k % len(CALLS)])
        shorthand = f"{f1}; {f2}; {f3}"
        gold = [f"Spoke with {first}: they {f1}, and they {f2}. Next step: they {f3}.",
                f"Call with {name}. They {f1} and {f2}; they {f3}. I'll follow up before then."]
        missing = f"Spoke with {first}: they {f1}, and they {f2}."
        wrong = f"Spoke with {first}: they {f1}, and they {f2}. Next step: they {f3.replace(d, mdy(crm.today))}."
        copy = f"Call with {first}. " + " ".join(" / ".join(x.format(d=d) for x in call) for call in CALLS)
        rubric = [f"Records all three points of the call: {f1}; {f2}; {f3}.",
                  "States nothing that contradicts these points (no other dates, numbers or outcomes).",
                  "Reads as a short call summary in plain sentences, with no unrelated content."]
        context = f"A call with {name} of {crm.acc[c['account_id']]['name']}. The rep's shorthand notes: {shorthand}."
        other = cands[(cands.index(c) + 5) % len(cands)]

        def log(text: str, who: str = name) -> list[dict]:
            return open_record(who) + [tab("Log a Call"), fill("Comments", text, within=None), button("Save"), done()]

        yield {
            "goal": f"You just spoke with {name}. Log the call, with a comment that writes up your notes as a short "
                    f"summary: {shorthand}.",
            "start_path": "/lightning/page/home",
            **_contact_activity(crm, c, other, {"task_subtype": "Call", "status": "Completed"},
                                "one call logged on the contact",
                                judge_check({"table": "tasks", "in": "created", "field": "description"}, rubric, context,
                                            500, "summarises the call"),
                                log, gold[k % 2], missing, "log_call", "comments"),
            "harmless": [harmless("phrasing", log(gold[(k + 1) % 2]), "the summary in the other accepted wording",
                                  [find("Contact", name), call("log_call", object="Contact", record_id=c["id"], comments=gold[(k + 1) % 2])])],
            "adversarial": [{"kind": "extra", "why": "the right call log, and another one",
                             "steps": log(gold[k % 2])[:-1] + [tab("Log a Call"), fill("Comments", "Follow up.", within=None),
                                                                 button("Save"), done()]}],
            "calibration": calibration(gold, [("near_miss", missing, "leaves out the next step"),
                                              ("wrong_facts", wrong, "the wrong date"),
                                              ("hedge", f"Spoke with {first}, some things came up, maybe a deal, "
                                                        "maybe not; will see.", "vague")], copy, 500),
        }


@template("crm", "judged-case-update-email", difficulty="medium", max_steps=20, count=4, test_every=4, tags=("judged",))
def case_update_email(w: World, rng: random.Random):
    """Email a contact about their open case: apologise, say who works on it, promise an update by a date (judged)."""
    crm = Crm(w)
    cands = [(cs, crm.con[cs["contact_id"]]) for cs in crm.cases
             if cs["status"] != "Closed" and cs["contact_id"] in crm.con and crm.con[cs["contact_id"]]["email"]
             and crm.unique(crm.cname(crm.con[cs["contact_id"]]))]
    seen, uniq = set(), []
    for cs, c in cands:
        if c["id"] not in seen:
            seen.add(c["id"])
            uniq.append((cs, c))
    for k, (cs, c) in enumerate(rng.sample(uniq, len(uniq))):
        name, first = crm.cname(c), c["first_name"]
        d = mdy(crm.today + dt.timedelta(days=2 + k % 3))
        subj = f"Update on case {cs['case_number']}"
        gold = [f"Hi {first}, I'm sorry for the trouble with \u201c{cs['subject']}\u201d (case {cs['case_number']}). Our "
                f"support engineer is working on it now, and I will send you an update by {d}. Thank you for your "
                "patience.",
                f"Dear {first}, apologies for the inconvenience with case {cs['case_number']} ({cs['subject']}). An "
                f"engineer has picked it up and you'll hear from me with an update no later than {d}. Best regards."]
        no_date = (f"Hi {first}, sorry for the trouble with case {cs['case_number']}. Our engineer is working on it "
                   "and we will get back to you soon.")
        no_apology = f"Case {cs['case_number']}: engineer assigned. Update by {d}."
        blame = (f"Hi {first}, regarding case {cs['case_number']}: this looks like a mistake on your side, but we'll "
                 f"check anyway. Update by {d}.")
        fixed = f"Hi {first}, good news: case {cs['case_number']} is resolved and closed. Let us know if anything else comes up."
        dump = (f"Hi {first}, about your cases " + ", ".join(x["case_number"] for x in crm.cases[:25])
                + f": we're working on all of them, update by {d} or later, or sooner.")
        rubric = [f"Apologises for the trouble with case {cs['case_number']} (\u201c{cs['subject']}\u201d).",
                  "Says an engineer is working on it (the case is not resolved yet).",
                  f"Promises an update by {d}.",
                  "Is polite and professional: no blaming the customer, no unrelated content."]
        context = (f"Case {cs['case_number']} \u201c{cs['subject']}\u201d for {name} ({c['email']}), status "
                   f"{cs['status']}: not resolved. The promised update date: {d}.")
        other = uniq[(uniq.index((cs, c)) + 3) % len(uniq)][1]
        to = f"To: {c['email']}\n\n"

        def mail(body: str, who: str = name) -> list[dict]:
            return open_record(who) + [tab("Email"), fill("Subject", subj, within=None), fill("Body", body, within=None),
                                       button("Send"), done()]

        yield {
            "goal": f"Email {name} about their open case {cs['case_number']} (\u201c{cs['subject']}\u201d), with the "
                    f"subject \u201c{subj}\u201d: apologise for the trouble, say an engineer is working on it, and "
                    f"promise an update by {d}.",
            "start_path": "/lightning/page/home",
            **_contact_activity(crm, c, other, {"task_subtype": "Email", "status": "Completed",
                                                "subject": {"$ieq": f"Email: {subj}"}},
                                "one email to the contact",
                                judge_check({"table": "tasks", "in": "created", "field": "description"}, rubric, context,
                                            600, "apology, engineer, update date"),
                                mail, gold[k % 2], no_date, "send_email", "body",
                                more_checks=({"table": "cases", "where": {"id": cs["id"]},
                                              "expect": {"status": cs["status"]}, "name": "the case stays open"},),
                                subject=subj),
            "harmless": [harmless("phrasing", mail(gold[(k + 1) % 2]), "the email in the other accepted wording (its own greeting "
                                  "and sign-off)",
                                  [find("Contact", name), call("send_email", object="Contact", record_id=c["id"], subject=subj,
                                                               body=gold[(k + 1) % 2])])],
            "adversarial": [{"kind": "extra", "why": "the right email, sent twice",
                             "steps": mail(gold[k % 2])[:-1] + [tab("Email"), fill("Subject", subj, within=None),
                                                                  fill("Body", gold[k % 2], within=None),
                                                                  button("Send"), done()]}],
            # The email activity stores "To: <address>" above the body: the judged text is what is stored.
            "calibration": calibration([to + g for g in gold],
                                       [("near_miss", to + no_date, "no update date"),
                                        ("near_miss", to + no_apology, "curt, no apology"),
                                        ("rude", to + blame, "blames the customer"),
                                        ("wrong_facts", to + fixed, "says the case is resolved")], to + dump, 600),
        }


@template("crm", "judged-handoff-task", difficulty="hard", max_steps=34, count=4, test_every=4, tags=("judged",))
def handoff_task(w: World, rng: random.Random):
    """Hand an opportunity over: a task for a teammate whose comments brief them on the deal (judged)."""
    from tasks.templates.crm._common import lookup

    crm = Crm(w)
    cands = [o for o in crm.opps if crm.is_open(o) and crm.unique(o["name"]) and o["owner_id"] == ME and o["amount"]]
    for k, o in enumerate(rng.sample(cands, len(cands))):
        uid = [7, 8, 9, 11][k % 4]
        stranger = [8, 9, 11, 7][k % 4]  # another teammate (not drawn from rng: the instances stay the same)
        user = crm.uname(uid)
        subject = "Take over this opportunity"
        acc = crm.acc[o["account_id"]]["name"]
        facts = f"stage {o['stage']}, amount {money(o['amount'])}, close date {mdy(o['close_date'])}"
        gold = [f"Hi {user.split()[0]}, you're taking over this deal with {acc}. It is in {o['stage']}, worth "
                f"{money(o['amount'])}, closing {mdy(o['close_date'])}. Please reach out to them this week.",
                f"Handover: {o['name']} is at {o['stage']} for {money(o['amount'])}, expected to close on "
                f"{mdy(o['close_date'])}. It's yours from today; thanks for picking it up!"]
        no_date = (f"Hi {user.split()[0]}, you're taking over this deal with {acc}. It is in {o['stage']}, worth "
                   f"{money(o['amount'])}.")
        wrong_amount = (f"Hi {user.split()[0]}, you're taking over this deal with {acc}. It is in {o['stage']}, worth "
                        f"{money(o['amount'] * 10)}, closing {mdy(o['close_date'])}.")
        bare = "Take it."
        others = [x for x in crm.opps if x["owner_id"] == ME and crm.is_open(x) and x["amount"]][:8]
        dump = "Deals: " + "; ".join(f"{x['name']} ({x['stage']}, {money(x['amount'])}, {mdy(x['close_date'])})"
                                      for x in others) + "."
        rubric = [f"Gives the opportunity's stage ({o['stage']}), amount ({money(o['amount'])}) and close date "
                  f"({mdy(o['close_date'])}) correctly.",
                  "Makes clear the teammate is taking the deal over.",
                  "Is a short, friendly briefing about this opportunity only, with no unrelated content."]
        context = f"Opportunity {o['name']} (account {acc}): {facts}. The task is for {user}."
        head = open_record(o["name"]) + [tab("New Task"), fill("Subject", subject, within=None)]

        def task(text: str, assign: bool = True) -> list[dict]:
            who = lookup("Assigned To", user.split()[0], user, within=None, clear=True) if assign else []
            return head + who + [fill("Comments", text, within=None), button("Save"), done()]

        text = gold[k % 2]
        yield {
            "goal": f"Hand the opportunity \u201c{o['name']}\u201d over to {user}: create a task \u201c{subject}\u201d "
                    f"assigned to them, with comments briefing them on the deal (its stage, amount and close date).",
            "start_path": "/lightning/page/home",
            "verify": {
                "checks": [{"table": "tasks", "in": "created", "count": 1,
                            "expect": {"what_type": "Opportunity", "what_id": o["id"], "subject": {"$ieq": subject},
                                       "owner_id": uid, "task_subtype": "Task"}, "name": f"one task for {user}"},
                           judge_check({"table": "tasks", "in": "created", "field": "description"}, rubric, context,
                                       500, "briefs the teammate"),
                           {"table": "opportunities", "where": {"id": o["id"]}, "expect": {"owner_id": {"$in": [ME, uid]}},
                            "name": f"the opportunity stays yours or goes to {user}"}],
                # Audit (#48): "Hand the opportunity over to <user>" also reads as Change Owner to them, which a careful
                # person may do beside the briefing task: the owner may become that teammate (nobody else).
                "unchanged_except": [{"table": "tasks", "ops": ["create"], "where": {"what_id": o["id"]}, "max": 1},
                                     allow_update("opportunities", {"id": o["id"]}, ["owner_id"])],
            },
            "solution": task(text),
            "near_misses": [task(no_date), task(text, assign=False)],
            "harmless": [harmless("follow_through", task(text)[:-1] + [
                button("Show more actions"), menuitem("Change Owner"), *lookup("Owner", user.split()[0], user),
                button("Change Owner", within=DIALOG), done()],
                "also makes the teammate the opportunity's owner (Change Owner), as handing it over implies",
                [find("Opportunity", o["name"]), call("list_users"),
                 call("new_task", object="Opportunity", record_id=o["id"], subject=subject, comments=text, assigned_to_id=uid),
                 call("change_owner", object="Opportunity", record_id=o["id"], owner_id=uid)])],
            "tools": tools(*[[find("Opportunity", o["name"]), call("list_users"),
                              call("new_task", object="Opportunity", record_id=o["id"], subject=subject, comments=body, **who), finish()]
                             for body, who in ((text, {"assigned_to_id": uid}), (no_date, {"assigned_to_id": uid}), (text, {}))]),
            "adversarial": [extra(task(text), [button("Show more actions"), menuitem("Change Owner"),
                                               *lookup("Owner", crm.uname(stranger).split()[0], crm.uname(stranger)),
                                               button("Change Owner", within=DIALOG)],
                                  f"also gives the opportunity to {crm.uname(stranger)}, who is not taking it over"),
                            {"kind": "extra", "why": "the right task, created twice",
                             "steps": task(text)[:-1] + head[len(open_record(o["name"])):]
                             + lookup("Assigned To", user.split()[0], user, within=None, clear=True)
                             + [fill("Comments", text, within=None), button("Save"), done()]}],
            "calibration": calibration(gold, [("near_miss", no_date, "no close date"),
                                              ("wrong_facts", wrong_amount, "ten times the amount"),
                                              ("near_miss", bare, "no briefing")], dump, 500),
        }


# (loss reason, what happened, what to do next: {d} is a date), for a note on a lost deal.
LOSSES = [
    ("Price", "they chose Northwind Analytics, whose quote was 20% lower", "check in again on {d}, before their next "
     "budget cycle"),
    ("Feature Gap", "they need a native mobile app, which we don't offer yet", "tell them when our mobile app ships, "
     "and meet again on {d}"),
    ("Timing", "their budget is frozen until next year", "follow up on {d}, when the new budget opens"),
    ("Lost to Competitor", "they went with Brightline Software, which already integrates with their ERP",
     "offer them an integration pilot on {d}"),
]


@template("crm", "judged-loss-note", difficulty="hard", max_steps=30, count=4, test_every=4, tags=("judged",))
def loss_note(w: World, rng: random.Random):
    """Close an opportunity as lost with its loss reason, and add a note on why it was lost and what to do next
    (judged)."""
    from tasks.templates.crm._common import allow_update, pick

    crm = Crm(w)
    cands = [o for o in crm.opps if crm.is_open(o) and crm.unique(o["name"]) and o["owner_id"] == ME and o["amount"]]
    title = "Why we lost"
    for k, o in enumerate(rng.sample(cands, len(cands))):
        reason, why, nxt = LOSSES[k % len(LOSSES)]
        d = mdy(crm.today + dt.timedelta(days=14 + 7 * k))
        nxt = nxt.format(d=d)
        acc = crm.acc[o["account_id"]]["name"]
        gold = [f"Lost: {why}. Next step: {nxt}.",
                f"We lost this one because {why}. They were happy with the team, so the door is open: {nxt}."]
        no_next = f"Lost: {why}."
        wrong_date = f"Lost: {why}. Next step: {nxt.replace(d, mdy(crm.today + dt.timedelta(days=400)))}."
        other_reason = LOSSES[(k + 1) % len(LOSSES)]
        wrong_why = f"Lost: {other_reason[1]}. Next step: {nxt}."
        blame = f"Lost because {acc} couldn't see value if it hit them. Not worth chasing. {nxt.capitalize()} I suppose."
        dump = "Possible reasons: " + "; ".join(x[1] for x in LOSSES) + ". Next steps: " + "; ".join(
            x[2].format(d=d) for x in LOSSES) + "."
        rubric = [f"Says why the deal was lost: {why}.",
                  f"Gives the next step: {nxt}.",
                  "States nothing that contradicts these (no other reason, date or competitor).",
                  "Is a short, professional note about this deal, with no blame, sarcasm or unrelated content."]
        context = (f"Opportunity {o['name']} (account {acc}) was lost. Loss reason: {reason}. What happened: {why}. "
                   f"Next step: {nxt}.")
        other = cands[(cands.index(o) + 3) % len(cands)]

        def close(opp: dict, stage: str = "Closed Lost") -> list[dict]:
            return open_record(opp["name"]) + [
                {"click": {"role": "option", "name": "Closed", "exact": True}}, button("Select Closed Stage"),
                *pick("Stage", stage), *(pick("Loss Reason", reason) if stage == "Closed Lost" else []), save_modal()]

        def steps(text: str, opp: dict = o, stage: str = "Closed Lost") -> list[dict]:
            return close(opp, stage) + [button("New Notes"), fill("Title", title), fill("Note", text), save_modal(), done()]

        def t_steps(text: str, opp: dict = o, stage: str = "Closed Lost") -> list[dict]:
            lost = {"loss_reason": reason} if stage == "Closed Lost" else {}
            return [find("Opportunity", opp["name"]),
                    call("change_stage_or_status", object="Opportunity", record_id=opp["id"], value=stage, **lost),
                    call("add_note", object="Opportunity", record_id=opp["id"], title=title, body=text), finish()]

        text = gold[k % 2]
        sol = steps(text)
        yield {
            "goal": f"The opportunity \u201c{o['name']}\u201d is lost: {why}. Mark it Closed Lost with the loss reason "
                    f"\u201c{reason}\u201d, and add a note titled \u201c{title}\u201d to it that says, in your own words, "
                    f"why we lost it and the next step: {nxt}.",
            "start_path": "/lightning/page/home",
            "verify": {
                "checks": [{"table": "opportunities", "where": {"id": o["id"]},
                            "expect": {"stage": "Closed Lost", "loss_reason": reason, "probability": 0},
                            "name": f"closed lost ({reason})"},
                           {"table": "notes", "in": "created", "count": 1,
                            "expect": {"parent_type": "Opportunity", "parent_id": o["id"], "title": {"$ieq": title},
                                       "owner_id": ME}, "name": "one note on the opportunity"},
                           judge_check({"table": "notes", "in": "created", "field": "body"}, rubric, context, 500,
                                       "why it was lost, and the next step")],
                "unchanged_except": [
                    allow_update("opportunities", {"id": o["id"]}, ["stage", "probability", "forecast_category",
                                                                    "loss_reason"]),
                    {"table": "notes", "ops": ["create"], "where": {"parent_type": "Opportunity", "parent_id": o["id"]},
                     "max": 1}],
            },
            "solution": sol,
            "near_misses": [steps(no_next), steps(text, stage="Closed Won")],
            "harmless": [harmless("phrasing", steps(gold[(k + 1) % 2]), "the note in the other accepted wording",
                                  t_steps(gold[(k + 1) % 2])[:-1])],
            "tools": tools(t_steps(text), t_steps(no_next), t_steps(text, other)),
            "adversarial": [{"kind": "extra", "why": "the right close and note, and a second note",
                             "steps": sol[:-1] + [button("New Notes"), fill("Title", "Misc"), fill("Note", no_next),
                                                  save_modal(), done()]}],
            "calibration": calibration(gold, [("near_miss", no_next, "no next step"),
                                              ("wrong_facts", wrong_date, "the wrong follow-up date"),
                                              ("wrong_facts", wrong_why, "another reason"),
                                              ("rude", blame, "blames the customer")], dump, 500),
        }
