"""Activity composers on record pages: New Task (for someone else), Log a Call, New Event, Email."""

from __future__ import annotations

import datetime as dt
import random

from tasks.templates import World, template
from tasks.templates.harmless import harmless
from tasks.templates.crm._common import (
    ME, Crm, allow_create, button, done, dump, dump_text, extra, fill, find, finish, iso, lookup, mdy, next_weekday, open_record,
    reread, tab, tools, written)
from tasks.templates.crm._common import call as tcall  # `call` is a local name here (log a call)

TASKS = ["Send revised pricing", "Schedule technical deep dive", "Share security documentation", "Prepare ROI analysis",
         "Confirm legal contact", "Book executive sponsor meeting"]
CALL_NOTES = ["Discussed rollout timeline; they want to start in May.", "Left a voicemail about the renewal.",
              "Walked through pricing tiers; waiting on budget approval.", "Agreed on next steps for the pilot.",
              "They asked for two customer references."]


def _contact_cands(crm: Crm):
    return [c for c in crm.contacts if crm.unique(crm.cname(c)) and not crm.has_duplicates("contacts", c) and c["email"]]


@template("crm", "task-on-opportunity", difficulty="medium", max_steps=30)
def task_on_opportunity(w: World, rng: random.Random):
    """Create a task on an opportunity for a teammate, with a due date."""
    crm = Crm(w)
    cands = [o for o in crm.opps if crm.is_open(o) and crm.unique(o["name"]) and o["owner_id"] == ME]
    for o in rng.sample(cands, len(cands)):
        uid = rng.choice([7, 8, 9, 11])
        user = crm.uname(uid)
        subject = rng.choice(TASKS)
        due = crm.today + dt.timedelta(days=rng.randint(2, 12))
        head = open_record(o["name"]) + [tab("New Task"), fill("Subject", subject, within=None), fill("Due Date", mdy(due), within=None)]
        other = next(u for u in (7, 8, 9, 11) if u != uid)

        def assign(u):
            return lookup("Assigned To", crm.uname(u).split()[0], crm.uname(u), within=None, clear=True) + [button("Save")]
        solution = head + assign(uid) + [done()]
        thanks = f"Thanks for taking this one, {user.split()[0]}!"
        yield {
            "goal": f"On the opportunity \u201c{o['name']}\u201d, create a task \u201c{subject}\u201d due {mdy(due)} and assign it to {user}.",
            "start_path": "/lightning/page/home",
            "verify": {
                "checks": [{"table": "tasks", "in": "created", "where": {"what_type": "Opportunity", "what_id": o["id"]},
                            "expect": {"subject": {"$ieq": subject}, "activity_date": iso(due), "owner_id": uid,
                                       "status": {"$ne": "Completed"}, "task_subtype": "Task"}, "count": 1}],
                "unchanged_except": [allow_create("tasks", {"what_type": "Opportunity", "what_id": o["id"]})],
            },
            "solution": solution,
            "near_misses": [head + [button("Save"), done()]],
            "harmless": [harmless("courtesy", head + assign(uid)[:-1] + [fill("Comments", thanks, within=None), button("Save"), done()],
                                  "adds a thank-you line for the teammate in the task's comments",
                                  [find("Opportunity", o["name"]), tcall("list_users"),
                                   tcall("new_task", object="Opportunity", record_id=o["id"], subject=subject, due_date=mdy(due),
                                         assigned_to_id=uid, comments=thanks)])],
            "tools": tools([find("Opportunity", o["name"]), tcall("list_users"),
                            tcall("new_task", object="Opportunity", record_id=o["id"], subject=subject, due_date=mdy(due),
                                 assigned_to_id=uid), finish()],
                           [find("Opportunity", o["name"]),
                            tcall("new_task", object="Opportunity", record_id=o["id"], subject=subject, due_date=mdy(due)), finish()]),
            "adversarial": [extra(solution, head[len(open_record(o["name"])):] + [button("Save")],
                                  "creates the same task for yourself too (hedging the assignee)")],
        }


@template("crm", "log-call-contact", difficulty="medium", max_steps=16)
def log_call_contact(w: World, rng: random.Random):
    """Log a completed call on a contact with comments."""
    crm = Crm(w)
    cands = _contact_cands(crm)
    for c in rng.sample(cands, len(cands)):
        name = crm.cname(c)
        note = rng.choice(CALL_NOTES)
        other_note = next(n for n in CALL_NOTES if n != note)

        def call(text):
            return open_record(name) + [tab("Log a Call"), fill("Comments", text, within=None), button("Save"), done()]
        yield {
            "goal": f"You just spoke with {name} ({crm.acc[c['account_id']]['name']}). Log the call with the comment: {note}",
            "start_path": "/lightning/page/home",
            "verify": {
                "checks": [{"table": "tasks", "in": "created", "where": {"who_type": "Contact", "who_id": c["id"]},
                            "expect": {"task_subtype": "Call", "status": "Completed",
                                       "description": written(note.rstrip('.'), note, CALL_NOTES),
                                       "activity_date": iso(crm.today)}, "count": 1}],
                "unchanged_except": [allow_create("tasks", {"who_type": "Contact", "who_id": c["id"]})],
            },
            "solution": call(note),
            "harmless": [harmless("autofilled", open_record(name) + [tab("Log a Call"), fill("Subject", "Call", within=None),
                                                                     fill("Comments", note, within=None), button("Save"), done()],
                                  "types the call's subject, Call, which the composer fills in itself",
                                  [find("Contact", name), tcall("log_call", object="Contact", record_id=c["id"], subject="Call", comments=note)])],
            "adversarial": [
                dump(call(dump_text(note, CALL_NOTES)), "the call's comment lists every comment the template could ask for"),
                extra(call(note), [tab("Log a Call"), fill("Comments", other_note, within=None), button("Save")],
                      "logs a second call with another comment"),
            ],
            "near_misses": [open_record(name) + [tab("New Task"), fill("Subject", "Call", within=None),
                                                 fill("Comments", note, within=None), button("Save"), done()]],
            "tools": tools([find("Contact", name), tcall("log_call", object="Contact", record_id=c["id"], comments=note), finish()],
                           [find("Contact", name), tcall("new_task", object="Contact", record_id=c["id"], subject="Call", comments=note),
                            finish()]),
        }


@template("crm", "schedule-event", difficulty="medium", max_steps=35)
def schedule_event(w: World, rng: random.Random):
    """Schedule a one-hour meeting with a contact from the New Event composer."""
    crm = Crm(w)
    cands = _contact_cands(crm)
    subjects = ["Quarterly business review", "Product roadmap preview", "Onboarding kickoff", "Pricing workshop"]
    for c in rng.sample(cands, len(cands)):
        name = crm.cname(c)
        day = next_weekday(crm.today, rng.choice([0, 1, 2, 3]))
        hour = rng.choice([9, 10, 14, 15])
        subject = rng.choice(subjects)
        start = dt.datetime.combine(day, dt.time(hour, 0))
        end = start + dt.timedelta(hours=1)
        t = lambda d: f"{(d.hour % 12) or 12}:00 {'AM' if d.hour < 12 else 'PM'}"  # noqa: E731

        def steps(d):
            return open_record(name) + [tab("New Event"), fill("Subject", subject, within=None), fill("Start Date", mdy(d), within=None),
                                        fill("Start Time", t(start), within=None, role="combobox"), fill("End Date", mdy(d), within=None),
                                        fill("End Time", t(end), within=None, role="combobox"), button("Save"), done()]
        yield {
            "goal": f"Schedule \u201c{subject}\u201d with {name} on {day.strftime('%A, %B %-d, %Y')} from {t(start)} to {t(end)}.",
            "start_path": "/lightning/page/home",
            "verify": {
                "checks": [{"table": "events", "in": "created", "where": {"who_type": "Contact", "who_id": c["id"]},
                            "expect": {"subject": {"$ieq": subject}, "start": iso(start), "end": iso(end), "owner_id": ME}, "count": 1}],
                "unchanged_except": [allow_create("events", {"who_type": "Contact", "who_id": c["id"]})],
            },
            "solution": steps(day),
            "near_misses": [steps(day + dt.timedelta(days=1))],
            "harmless": [harmless("check_work", steps(day)[:-1] + open_record(name) + [done()],
                                  "opens the contact again to see the meeting in its activities",
                                  [find("Contact", name),
                                   tcall("new_event", object="Contact", record_id=c["id"], subject=subject, start_date=mdy(day),
                                         start_time=t(start), end_date=mdy(day), end_time=t(end)), reread("Contact", c["id"])])],
            "tools": tools(*[[find("Contact", name),
                              tcall("new_event", object="Contact", record_id=c["id"], subject=subject, start_date=mdy(d), start_time=t(start),
                                   end_date=mdy(d), end_time=t(end)), finish()]
                             for d in (day, day + dt.timedelta(days=1))]),
            "adversarial": [extra(steps(day), [tab("New Event"), fill("Subject", subject, within=None), button("Save")],
                                  "schedules the meeting a second time at the composer's default time (hedging the time)")],
        }


@template("crm", "email-contact", difficulty="medium", max_steps=20)
def email_contact(w: World, rng: random.Random):
    """Send an email from a contact's activity composer (it is logged as a completed email task)."""
    crm = Crm(w)
    mails = [("Case studies", "Hi, here are the two case studies we discussed. Happy to walk you through them."),
             ("Next steps", "Thanks for your time today. I will send the proposal by Friday."),
             ("Pricing follow-up", "Attached is the updated pricing with the multi-year discount."),
             ("Intro to our engineer", "I'd like to introduce our solutions engineer, who will join our next call.")]
    bodies = [b for _, b in mails]
    cands = _contact_cands(crm)
    for c in rng.sample(cands, len(cands)):
        name = crm.cname(c)
        subj, body = rng.choice(mails)
        wrong = next(s for s, _ in mails if s != subj)
        greet = "" if body.startswith("Hi") else f"Hi {c['first_name']},\n\n"
        polite = f"{greet}{body}\n\nBest regards"

        def steps(s, text=body):
            return open_record(name) + [tab("Email"), fill("Subject", s, within=None), fill("Body", text, within=None), button("Send"), done()]
        yield {
            "goal": f"Email {name} ({c['email']}) with the subject \u201c{subj}\u201d and this message: {body}",
            "start_path": "/lightning/page/home",
            "verify": {
                "checks": [{"table": "tasks", "in": "created", "where": {"who_type": "Contact", "who_id": c["id"]},
                            "expect": {"task_subtype": "Email", "status": "Completed", "subject": {"$ieq": f"Email: {subj}"},
                                       "description": written(body[:40], f"To: {c['email']}\n\n{body}", bodies)}, "count": 1}],
                "unchanged_except": [allow_create("tasks", {"who_type": "Contact", "who_id": c["id"]})],
            },
            "solution": steps(subj),
            "near_misses": [steps(wrong)],
            "harmless": [harmless("courtesy", steps(subj, polite), "the asked message with a greeting and a sign-off around it",
                                  [find("Contact", name),
                                   tcall("send_email", object="Contact", record_id=c["id"], subject=subj, body=polite)])],
            "tools": tools(*[[find("Contact", name), tcall("send_email", object="Contact", record_id=c["id"], subject=s, body=body), finish()]
                             for s in (subj, wrong)]),
            "adversarial": [
                dump(steps(subj, dump_text(body, bodies)), "the email's body pastes every message the template could ask for"),
                extra(steps(subj), [tab("Log a Call"), fill("Comments", body, within=None), button("Save")],
                      "also logs a call with the same text (a second activity on the contact)"),
            ],
        }
