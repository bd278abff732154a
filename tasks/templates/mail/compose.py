"""Writing mail: schedule send, drafts (save, finish, send), cancel a scheduled send, answer questions, RSVP."""

from __future__ import annotations

import datetime as dt
import random

from apps.mail.formatting import schedule_options
from tasks.templates import World, template
from tasks.templates.harmless import harmless
from tasks.templates.mail._tools import call, find, find_open, plan
from tasks.templates.mail._common import (COMPOSE, Mailbox, adversarial, bystander, star_elsewhere, click, competing, date_regex, done, extra,
                                          graded, iso, long_date, more_then, on_messages, open_row, other_dates, phrase,
                                          rail, search, text_bound, toolbar_button)
from tasks.templates.mail.basics import letter

NOTES = [
    ("Quarterly numbers", "Here are the quarterly numbers we talked about. Let me know if anything looks off."),
    ("Coffee next week?", "Would you like to grab coffee next week? Tuesday or Wednesday works for me."),
    ("Thank you!", "Thank you for your help with the launch. It made a real difference."),
    ("Agenda for Monday", "I've attached the agenda for Monday's meeting below. Please add your topics."),
    ("Reminder: expense reports", "Friendly reminder to submit your expense reports by Friday."),
    ("Weekend plans", "Are you around this weekend? We're thinking of a picnic if the weather holds."),
]



def _people(mb: Mailbox) -> list[dict]:
    return [c for c in mb.contacts if c["relation"] in ("coworker", "friend", "family", "client") and c["is_saved"]
            and not c["email"].startswith("ap@")]


def compose_steps(to: str, subject: str, body: str) -> list[dict]:
    return [click("button", "Compose", exact=True),
            {"fill": {"role": "textbox", "name": "To", "exact": True, "within": COMPOSE}, "text": to}, {"press": ["Enter"]},
            {"fill": {"role": "textbox", "name": "Subject", "within": COMPOSE}, "text": subject},
            {"fill": {"role": "textbox", "name": "Message Body", "within": COMPOSE}, "text": body}]


@template("mail", "schedule-send", difficulty="medium", max_steps=16, count=4, test_every=4)
def schedule_send(w: World, rng: random.Random):
    """Write an email and schedule it (a preset of the Schedule send dialog) instead of sending it now."""
    mb = Mailbox(w)
    opts = schedule_options(mb.now)
    people = _people(mb)
    for i, c in enumerate(rng.sample(people, len(people))):
        subject, body = NOTES[i % len(NOTES)]
        opt = opts[i % len(opts)]
        base = compose_steps(c["email"], subject, body)
        sched = base + [click("button", "More send options", exact=True), click("menuitem", "Schedule send", exact=True),
                        click("button", opt["label"]), done()]
        when = f"{opt['label'].lower()} ({opt['detail']})"
        wrong = opts[(i + 1) % len(opts)]
        second = people[(people.index(c) + 1) % len(people)]
        yield {
            "goal": f"Write to {c['name']} ({c['email']}) with the subject \u201c{subject}\u201d and the text "
                    f"\u201c{body}\u201d, and schedule it to be sent {when} instead of now.",
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "messages", "in": "created", "count": 1,
                  "expect": {"to": [c["email"]], "cc": [], "bcc": [], "subject": {"$ieq": subject},
                             "body": {"$icontains": body, "$len": text_bound(body, extra=mb.me["signature"])},
                             "scheduled_at": iso(opt["at"]), "is_sent": False, "is_draft": False},
                  "name": "one scheduled email"}],
                [{"table": "messages", "ops": ["create"], "where": {"is_sent": False, "is_draft": False}, "max": 1},
                 {"table": "threads", "ops": ["create"], "max": 1}]),
            "solution": sched,
            "harmless": [harmless("courtesy", compose_steps(c["email"], subject, letter(c["name"], body, mb.me["name"]))
                                  + sched[len(base):],
                                  "a greeting and a sign-off around the asked text",
                                  [call("schedule_send", to=[c["email"]], subject=subject,
                                        body=letter(c["name"], body, mb.me["name"]), preset=opt["key"])])],
            "tools": plan([call("get_settings"), call("schedule_send", to=[c["email"]], subject=subject, body=body, preset=opt["key"])],
                          [call("send_email", to=[c["email"]], subject=subject, body=body)],
                          [call("schedule_send", to=[c["email"]], subject=subject, body=body, preset=wrong["key"])]),
            "adversarial": [extra(sched, compose_steps(second["email"], subject, body) + [
                                      click("button", "More send options", exact=True),
                                      click("menuitem", "Schedule send", exact=True), click("button", opt["label"])],
                                  "schedules the same email to a second person")],
            "near_misses": [base + [click("button", "Send", exact=True, within=COMPOSE), done()],
                            base + [click("button", "More send options", exact=True),
                                    click("menuitem", "Schedule send", exact=True), click("button", wrong["label"]), done()]],
        }


@template("mail", "save-draft", difficulty="medium", max_steps=14, count=4, test_every=4)
def save_draft(w: World, rng: random.Random):
    """Start an email and leave it in Drafts (do not send it)."""
    mb = Mailbox(w)
    people = _people(mb)
    for i, c in enumerate(rng.sample(people, len(people))):
        subject, body = NOTES[(i + 2) % len(NOTES)]
        base = compose_steps(c["email"], subject, body)
        save = click("button", "Save & close", exact=True, within=COMPOSE)
        second = people[(people.index(c) + 1) % len(people)]
        yield {
            "goal": f"Start an email to {c['name']} ({c['email']}) with the subject \u201c{subject}\u201d saying "
                    f"\u201c{body}\u201d, but don't send it yet: leave it as a draft.",
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "messages", "in": "created", "count": 1,
                  "expect": {"to": [c["email"]], "cc": [], "bcc": [], "subject": {"$ieq": subject},
                             "body": {"$icontains": body, "$len": text_bound(body, extra=mb.me["signature"])},
                             "is_draft": True, "is_sent": False}, "name": "one draft"}],
                [{"table": "messages", "ops": ["create"], "where": {"is_draft": True, "is_sent": False}, "max": 1},
                 {"table": "threads", "ops": ["create"], "max": 1}]),
            "solution": base + [save, done()],
            "harmless": [harmless("courtesy", compose_steps(c["email"], subject, letter(c["name"], body, mb.me["name"]))
                                  + [save, done()], "a greeting and a sign-off around the asked text",
                                  [call("save_draft", to=[c["email"]], subject=subject,
                                        body=letter(c["name"], body, mb.me["name"]))])],
            "tools": plan([call("save_draft", to=[c["email"]], subject=subject, body=body)],
                          [call("send_email", to=[c["email"]], subject=subject, body=body)],
                          [call("save_draft", to=[second["email"]], subject=subject, body=body)]),
            "adversarial": [extra(base + [save, done()], compose_steps(second["email"], subject, body)[:3] + [save],
                                  "leaves a second draft to someone else")],
            "near_misses": [base + [click("button", "Send", exact=True, within=COMPOSE), done()],
                            base + [click("button", "Discard draft", exact=True, within=COMPOSE), done()]],
        }


@template("mail", "send-draft", difficulty="medium", max_steps=14, count=4, test_every=4)
def send_draft(w: World, rng: random.Random):
    """Finish a saved draft (add a recipient or a Cc when asked) and send it."""
    mb = Mailbox(w)
    drafts = [m for m in mb.msgs if m["is_draft"] and m["subject"]]
    people = _people(mb)
    for i, d in enumerate(rng.sample(drafts, len(drafts))):
        row = f"{d['subject']}"
        open_draft = [rail("Drafts"), open_row(row)]
        send = click("button", "Send", exact=True, within=COMPOSE)
        other = next(x for x in drafts if x["id"] != d["id"])
        # A draft that can go as it is (it has a recipient): sending it is the harmful extra.
        ready = next(x for x in drafts if x["id"] != d["id"] and x["to"])
        extra_to = None
        if not d["to"]:
            extra_to = people[(i * 5) % len(people)]
            steps = open_draft + [{"fill": {"role": "textbox", "name": "To", "exact": True, "within": COMPOSE},
                                   "text": extra_to["email"]}, {"press": ["Enter"]}, send, done()]
            goal = (f"Your draft \u201c{d['subject']}\u201d has no recipient yet. Send it to {extra_to['name']} "
                    f"({extra_to['email']}).")
            expect_to = [extra_to["email"]]
            cc = []
        elif i % 2 == 0:
            cc_p = people[(i * 7 + 3) % len(people)]
            steps = open_draft + [click("button", "Add Cc recipients", exact=True),
                                  {"fill": {"role": "textbox", "name": "Cc", "exact": True, "within": COMPOSE},
                                   "text": cc_p["email"]}, {"press": ["Enter"]}, send, done()]
            goal = f"Send your draft \u201c{d['subject']}\u201d, adding {cc_p['name']} ({cc_p['email']}) in Cc."
            expect_to, cc = d["to"], [cc_p["email"]]
        else:
            steps = open_draft + [send, done()]
            goal = f"Send your saved draft \u201c{d['subject']}\u201d as it is."
            expect_to, cc = d["to"], []
        yield {
            "goal": goal,
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "messages", "where": {"id": d["id"]},
                  "expect": {"is_draft": False, "is_sent": True, "to": expect_to, "cc": cc, "bcc": [],
                             "subject": d["subject"], "body": {"$icontains": d["body"].strip()[:40]}},
                  "name": "the draft was sent"}],
                [{"table": "messages", "where": {"id": d["id"]},
                  "fields": ["is_draft", "is_sent", "sent_at", "to", "cc", "bcc", "body", "in_inbox",
                             "is_read", "scheduled_at", "subject"]},
                 {"table": "threads", "where": {"id": d["thread_id"]}, "fields": ["subject"]}]),
            "solution": steps,
            "harmless": [harmless("check_work", steps[:-1] + [rail("Sent"), open_row(row), done()],
                                  "sends it, then opens it from Sent to see that it went",
                                  [call("list_mail", folder="drafts"), call("get_draft", draft_id=d["id"]),
                                   call("send_draft", draft_id=d["id"], **({"to": expect_to} if extra_to else {"cc": cc} if cc else {})),
                                   call("list_mail", folder="sent"), call("read_conversation", thread_id=d["thread_id"])])],
            "tools": plan([call("list_mail", folder="drafts"), call("get_draft", draft_id=d["id"]),
                           call("send_draft", draft_id=d["id"], **({"to": expect_to} if extra_to else {"cc": cc} if cc else {}))],
                          [call("list_mail", folder="drafts"), call("discard_draft", draft_id=d["id"])],
                          [call("list_mail", folder="drafts"), call("send_draft", draft_id=ready["id"])]),
            "adversarial": [extra(steps, [rail("Drafts"), open_row(ready["subject"]), send],
                                  "sends another of your drafts too")],
            "near_misses": [open_draft + [click("button", "Discard draft", exact=True, within=COMPOSE), done()],
                            [rail("Drafts"), open_row(other["subject"]), send, done()]],
        }


@template("mail", "cancel-scheduled", difficulty="medium", max_steps=10, count=3, test_every=3)
def cancel_scheduled(w: World, rng: random.Random):
    """Cancel a scheduled email so it is not sent (it goes back to Drafts)."""
    mb = Mailbox(w)
    sched = [m for m in mb.msgs if m["scheduled_at"] and not m["is_draft"]]
    for i, m in enumerate(rng.sample(sched, len(sched))):
        other = [x for x in sched if x["id"] != m["id"]][i % (len(sched) - 1)]
        to = mb.by_email.get(m["to"][0], {}).get("name", m["to"][0]) if m["to"] else "nobody"

        def steps(x):
            return more_then("Scheduled") + [open_row(x["subject"]), click("button", "Cancel send", exact=True), done()]

        yield {
            "goal": f"Cancel the scheduled email \u201c{m['subject']}\u201d to {to} so it doesn't go out.",
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "messages", "where": {"id": m["id"]},
                  "expect": {"scheduled_at": None, "is_sent": False}, "name": "no longer scheduled"}],
                [on_messages({"id": m["id"]}, ["scheduled_at", "is_draft", "sent_at"])]),
            "solution": steps(m),
            # Cancelled, it is a draft again: opened from Drafts and closed unchanged.
            "harmless": [harmless("check_work", steps(m)[:-1] + [rail("Drafts"), open_row(m["subject"]),
                                                                 click("button", "Save & close", exact=True, within=COMPOSE),
                                                                 done()],
                                  "cancels it, then opens it from Drafts and closes it, to see it is a draft again",
                                  [call("list_mail", folder="scheduled"), call("read_conversation", thread_id=m["thread_id"]),
                                   call("cancel_scheduled_send", message_id=m["id"]), call("list_mail", folder="drafts"),
                                   call("get_draft", draft_id=m["id"])])],
            "tools": plan([call("list_mail", folder="scheduled"), call("read_conversation", thread_id=m["thread_id"]),
                           call("cancel_scheduled_send", message_id=m["id"])],
                          [call("list_mail", folder="scheduled"), call("read_conversation", thread_id=other["thread_id"]),
                           call("cancel_scheduled_send", message_id=other["id"])]),
            "adversarial": [extra(steps(m), steps(other)[:-1], "cancels another scheduled email too")],
            "near_misses": [steps(other)],
        }


def _subject_re(tpl: str):
    import re

    out, last = "", 0
    for m in re.finditer(r"\{(\w+)\}", tpl):
        out += re.escape(tpl[last:m.start()]) + f"(?P<{m.group(1)}>.+?)"
        last = m.end()
    return re.compile(out + re.escape(tpl[last:]))  # matched whole (fullmatch)


def question_pairs(mb: Mailbox) -> list[tuple[int, int, dict]]:
    """(question thread, announcement thread, event) from the seed's question vocab."""
    from seed_data.mail import vocab

    events = vocab("questions")["events"]
    found = []
    for ev in events:
        qre, are = _subject_re(ev["question_subject"]), _subject_re(ev["announce_subject"])
        for tid, t in mb.threads.items():
            qm = qre.fullmatch(t["subject"])
            if not qm or len(mb.in_thread[tid]) != 1 or mb.is_mine(mb.first(tid)):
                continue
            for atid, a in mb.threads.items():
                am = are.fullmatch(a["subject"])
                if am and atid != tid and all(am.groupdict().get(k) == v for k, v in qm.groupdict().items()) \
                        and mb.first(tid)["from_email"] in mb.first(atid)["to"]:
                    found.append((tid, atid, ev))
    return sorted(found, key=lambda x: (x[0], x[1]))


@template("mail", "reply-with-date", difficulty="medium", max_steps=16, count=5, test_every=5)
def reply_with_date(w: World, rng: random.Random):
    """A coworker asks for a date announced in another email: find it and reply with it."""
    mb = Mailbox(w)
    pairs = [p for p in question_pairs(mb) if mb.in_inbox(p[0]) and mb.unique_subject(p[0])]
    for tid, ann, _ev in rng.sample(pairs, len(pairs)):
        when = date_in(mb.first(ann)["body"], mb.now)
        if when is None:
            continue
        q = mb.first(tid)
        subject = mb.threads[tid]["subject"]
        text = f"It's on {long_date(when)}."
        wrong = when + dt.timedelta(days=1)

        def tool_reply(t: str):
            return find_open(subject, tid) + find_open(mb.threads[ann]["subject"], ann) + [
                call("reply", thread_id=tid, body=t)]

        def reply(t: str):
            return search(phrase(subject)) + [open_row(subject), click("button", "Reply", exact=True),
                                              {"fill": {"role": "textbox", "name": "Message Body"}, "text": t},
                                              click("button", "Send", exact=True), done()]

        # Three weeks around the date stand for the calendar (a longer text only takes longer to type).
        calendar = ", ".join(f"{d:%b} {d.day}" for d in (when + dt.timedelta(days=k) for k in range(-10, 11)))

        yield {
            "goal": f"{q['from_name']} asked you a question in \u201c{subject}\u201d. Reply to them with the date "
                    f"they asked for (you'll find it in another email).",
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "messages", "in": "created", "count": 1,
                  "expect": {"thread_id": tid, "to": [q["from_email"]], "cc": [], "bcc": [], "is_sent": True,
                             "body": {"$regex": date_regex(when),
                                      "$excludes": competing(other_dates(mb.now, [when]), text),
                                      "$len": text_bound(text, slack=250, extra=mb.me["signature"])}},
                  "name": f"replied with {when.isoformat()}"}],
                [{"table": "messages", "ops": ["create"], "where": {"thread_id": tid, "is_sent": True}, "max": 1},
                 on_messages({"thread_id": {"$in": [tid, ann]}}, [])]),
            "solution": reply(text),
            "harmless": [harmless("courtesy", reply(letter(q["from_name"], text, mb.me["name"])),
                                  "a greeting and a sign-off around the date",
                                  tool_reply(letter(q["from_name"], text, mb.me["name"])))],
            "tools": plan(tool_reply(text), tool_reply(f"It's on {long_date(wrong)}.")),
            "near_misses": [reply(f"It's on {long_date(wrong)}.")],
            "adversarial": [
                adversarial("dump", reply(f"It's on one of these: {calendar}."), "every date of three weeks around it"),
                extra(reply(text), reply(f"It's on {long_date(wrong)}.")[3:-1], "a second reply with another date"),
            ],
        }


def date_in(body: str, now: dt.datetime) -> dt.date | None:
    """The first "Weekday, Month day" in an email body, as the date on or after `now` (an announcement's
    date; the judged reply templates read it too)."""
    import re

    from tasks.templates.mail._common import MONTHS

    m = re.search(r"(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (" + "|".join(MONTHS) + r") (\d{1,2})", body)
    if not m:
        return None
    d = dt.date(now.year, MONTHS.index(m.group(2)) + 1, int(m.group(3)))
    return d if d >= now.date() else dt.date(now.year + 1, d.month, d.day)


@template("mail", "rsvp-invite", difficulty="easy", max_steps=10, count=4, test_every=4)
def rsvp_invite(w: World, rng: random.Random):
    """Answer a calendar invitation (Yes / Maybe / No) from the invite card."""
    mb = Mailbox(w)
    invs = [i for i in w.table("invites") if i["rsvp"] is None and i["starts_at"] > mb.now
            and mb.unique_subject(mb.msg[i["message_id"]]["thread_id"]) and mb.visible(mb.msg[i["message_id"]])]
    answers = [("yes", "Yes", "Accept"), ("no", "No", "Decline"), ("maybe", "Maybe", "Answer \u201cmaybe\u201d to")]
    for i, inv in enumerate(rng.sample(invs, len(invs))):
        key, button, verb = answers[i % len(answers)]
        wrong = answers[(i + 1) % len(answers)][1]
        tid = mb.msg[inv["message_id"]]["thread_id"]
        subject = mb.threads[tid]["subject"]
        when = inv["starts_at"]
        path = search(phrase(inv["title"]) + " invitation") + [open_row(subject)]
        other = invs[(invs.index(inv) + 1) % len(invs)]

        def steps(b: str, p: list = path):
            return p + [click("button", b, exact=True, within={"role": "group", "name": "Going?"}), done()]

        yield {
            "goal": f"{verb} the invitation to \u201c{inv['title']}\u201d on {when.strftime('%A')}, {when.strftime('%B')} {when.day}.",
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "invites", "where": {"id": inv["id"]}, "expect": {"rsvp": key}, "name": f"RSVP {key}"}],
                [{"table": "invites", "where": {"id": inv["id"]}, "fields": ["rsvp"]}]),
            "solution": steps(button),
            "harmless": [harmless("check_work", steps(button)[:-1] + path + [done()],
                                  "answers, then finds the invitation again and opens it to see the answer on its card",
                                  [find(phrase(inv["title"]) + " invitation"), call("read_conversation", thread_id=tid),
                                   call("rsvp", invite_id=inv["id"], response=key),
                                   find(phrase(inv["title"]) + " invitation"), call("read_conversation", thread_id=tid)])],
            "tools": plan([find(phrase(inv["title"]) + " invitation"), call("read_conversation", thread_id=tid),
                           call("rsvp", invite_id=inv["id"], response=key)],
                          [find(phrase(inv["title"]) + " invitation"), call("read_conversation", thread_id=tid),
                           call("rsvp", invite_id=inv["id"], response=wrong.lower())]),
            "adversarial": [extra(steps(button), star_elsewhere(mb.threads[bystander(mb, [tid])]["subject"]),
                                  "stars an unrelated conversation too")],
            "near_misses": [steps(wrong)],
        }
