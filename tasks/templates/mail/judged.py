"""Judged mail tasks: replies whose success is a judgement (a polite decline with two other times, an
answer to a question, a thank-you note). State checks gate (one sent message, in the right thread, to the
right person, nothing else changed); an LLM judge grades the text against a rubric (grading/judge.py),
calibrated on each task's labelled texts (tasks/templates/judged_lib.py)."""

from __future__ import annotations

import datetime as dt
import random

from tasks.templates import World, template
from tasks.templates.harmless import harmless
from tasks.templates.judged_lib import calibration, judge_check
from tasks.templates.mail._tools import call, find_open, plan
from tasks.templates.mail._common import (graded, COMPOSE, Mailbox, clock, click, done, long_date, open_row, phrase, rail,
                                          search, toolbar_button)
from tasks.templates.mail.compose import compose_steps, date_in, question_pairs

REPLY_MAX = 600


def _reply(path: list[dict], text: str) -> list[dict]:
    return path + [click("button", "Reply", exact=True), {"fill": {"role": "textbox", "name": "Message Body"}, "text": text},
                   click("button", "Send", exact=True), done()]


def _reply_spec(tid: int, to: str, judge: dict, checks: list[dict] = (), allow: list[dict] = ()) -> dict:
    # graded(): the reading rule every mail task shares (reading the thread marks it read, within a budget).
    return graded([{"table": "messages", "in": "created", "count": 1,
                    "expect": {"thread_id": tid, "to": [to], "is_sent": True, "is_draft": False},
                    "name": "one reply sent in the thread"}, judge, *checks],
                  [{"table": "messages", "ops": ["create"], "where": {"thread_id": tid}, "max": 1}, *allow])


def _text(tid: int) -> dict:
    return {"table": "messages", "in": "created", "where": {"thread_id": tid}, "field": "body"}


def _weekday_after(d: dt.date, n: int) -> dt.date:
    while n:
        d += dt.timedelta(days=1)
        if d.weekday() < 5:
            n -= 1
    return d


def _when(d: dt.date, hour: int) -> str:
    return f"{long_date(d)} at {clock(dt.datetime(d.year, d.month, d.day, hour))}"


def _other_lone_message(mb: Mailbox, not_thread: int) -> dict | None:
    """The newest visible message alone in its thread (a unique subject), outside thread `not_thread`."""
    lone = [m for m in mb.msgs if m["thread_id"] != not_thread and mb.visible(m)
            and len(mb.in_thread[m["thread_id"]]) == 1 and mb.unique_subject(m["thread_id"])]
    return max(lone, key=lambda m: (m["sent_at"], m["id"])) if lone else None


@template("mail", "judged-decline-invite", difficulty="medium", max_steps=16, count=4, test_every=4,
          tags=("judged",))
def decline_invite(w: World, rng: random.Random):
    """Reply to a meeting invitation declining it politely and proposing two other times (judged)."""
    mb = Mailbox(w)
    invs = [i for i in w.table("invites") if i["rsvp"] is None and i["starts_at"] > mb.now
            and mb.visible(mb.msg[i["message_id"]]) and len(mb.in_thread[mb.msg[i["message_id"]]["thread_id"]]) == 1
            and mb.unique_subject(mb.msg[i["message_id"]]["thread_id"])]
    me = mb.me["name"].split()[0]
    for k, inv in enumerate(rng.sample(invs, len(invs))):
        msg = mb.msg[inv["message_id"]]
        tid, subject = msg["thread_id"], mb.threads[msg["thread_id"]]["subject"]
        org, first = msg["from_email"], msg["from_name"].split()[0]
        day = inv["starts_at"].date()
        alt1, alt2 = _when(_weekday_after(day, 1), 10), _when(_weekday_after(day, 2), 15)
        when = f"{long_date(day)} at {clock(inv['starts_at'])}"
        path = search(phrase(inv["title"]) + " invitation") + [open_row(subject)]
        other = next((i for i in invs if i["id"] != inv["id"]), None)
        if other is not None:
            other_msg = mb.msg[other["message_id"]]
            other_path = search(phrase(other["title"]) + " invitation") + [open_row(mb.threads[other_msg["thread_id"]]["subject"])]
        else:  # a world with one open invitation: the wrong-thread near-miss replies in another lone thread
            other_msg = _other_lone_message(mb, tid)
            if other_msg is None:
                continue
            other_subject = mb.threads[other_msg["thread_id"]]["subject"]
            other_path = search(phrase(other_subject)) + [open_row(other_subject)]
        gold = [f"Hi {first}, thank you for the invitation to {inv['title']}. Unfortunately I have a conflict on "
                f"{long_date(day)} and won't be able to attend. Could we meet {alt1} or {alt2} instead? Best, {me}",
                f"Hello {first}, sorry, I can't make {inv['title']} ({when}). Would {alt1} or {alt2} work for you "
                f"instead? Thanks for understanding. {me}"]
        accept = f"Hi {first}, thanks for the invite to {inv['title']}. I'll be there on {long_date(day)}. See you then! {me}"
        no_times = (f"Hi {first}, thank you for the invitation to {inv['title']}, but I won't be able to attend. "
                    f"Sorry about that! {me}")
        rude = f"Can't come to {inv['title']}, obviously. Pick another slot: {alt1} or {alt2}. Don't schedule over my calendar again."
        hedge = (f"Hi {first}, I might make {inv['title']}, or maybe not. Perhaps another day works, or perhaps not; "
                 f"any time next week or the week after is probably fine too. {me}")
        one_time = f"Hi {first}, thanks for the invite. I'm sorry, I can't attend {inv['title']}. Could we do {alt1} instead? {me}"
        slots = [_when(_weekday_after(day, n), h) for n in (1, 2, 3) for h in (9, 11, 14, 16)]
        dump = f"Hi {first}, I can't attend {inv['title']}. How about " + ", or ".join(slots) + f"? {me}"
        rubric = [f"Declines the meeting \u201c{inv['title']}\u201d on {long_date(day)}: says clearly that the writer "
                  "cannot attend it.",
                  "Is polite: thanks the organizer or apologises, with no rude, curt or sarcastic wording.",
                  "Proposes exactly two specific alternative times (each a day and a time of day), neither being the "
                  "original time; not one, not three or more, not an open-ended 'any time'.",
                  "Is a short reply about this meeting only, with no unrelated content."]
        context = (f"The invitation is to \u201c{inv['title']}\u201d, organised by {msg['from_name']} <{org}>, on {when}. "
                   f"The reply is written by {mb.me['name']} to {msg['from_name']}.")
        # Declining by reply, a careful person may also click No on the invitation's Going? card: the same
        # answer, so the grader allows the invite's RSVP to become "no" and refuses any other (Yes, Maybe).
        spec = _reply_spec(tid, org, judge_check(_text(tid), rubric, context, REPLY_MAX, "polite decline with two times"),
                           [{"table": "invites", "where": {"id": inv["id"]}, "expect": {"rsvp": {"$in": [None, "no"]}},
                             "name": "the invitation is not accepted (its RSVP, if any, is No)"}],
                           [{"table": "invites", "where": {"id": inv["id"]}, "fields": ["rsvp"], "max": 1}])
        going = {"role": "group", "name": "Going?"}
        yield {
            "goal": f"{msg['from_name']} invited you to \u201c{inv['title']}\u201d on {when}. You can't make it: reply to "
                    "the invitation email declining politely, and propose two other times in the following days.",
            "start_path": "/inbox",
            "verify": spec,
            "solution": _reply(path, gold[k % 2]),
            "tools": plan(find_open(subject, tid) + [call("reply", thread_id=tid, body=gold[k % 2])],
                          find_open(subject, tid) + [call("reply", thread_id=tid, body=accept)],
                          find_open(mb.threads[other_msg["thread_id"]]["subject"], other_msg["thread_id"])
                          + [call("reply", thread_id=other_msg["thread_id"], body=gold[k % 2])]),
            "near_misses": [_reply(path, accept), _reply(other_path, gold[k % 2])],
            "adversarial": [{"kind": "extra", "why": "the right reply plus accepting the invitation on its card",
                             "steps": path + [click("button", "Yes", exact=True, within=going)]
                             + _reply([], gold[k % 2])},
                            {"kind": "extra", "why": "the right reply plus Maybe on the invitation's card",
                             "steps": path + [click("button", "Maybe", exact=True, within=going)]
                             + _reply([], gold[k % 2])}],
            "harmless": [harmless("rsvp", path + [click("button", "No", exact=True, within=going)] + _reply([], gold[k % 2]),
                                  "declines on the invitation's Going? card too, the answer the reply gives",
                                  find_open(subject, tid) + [call("rsvp", invite_id=inv["id"], response="no"),
                                                             call("reply", thread_id=tid, body=gold[k % 2])])],
            "calibration": calibration(gold, [("near_miss", accept, "accepts instead of declining"),
                                              ("near_miss", no_times, "declines but proposes no times"),
                                              ("near_miss", one_time, "proposes one time, not two"),
                                              ("rude", rude, "declines with two times, but rudely"),
                                              ("hedge", hedge, "neither declines nor proposes concrete times")],
                                       dump, REPLY_MAX),
        }


@template("mail", "judged-answer-question", difficulty="medium", max_steps=18, count=4, test_every=4,
          tags=("judged",))
def answer_question(w: World, rng: random.Random):
    """A coworker asks for a date announced in another email: reply with it, briefly and politely (judged)."""
    mb = Mailbox(w)
    pairs = [p for p in question_pairs(mb) if mb.in_inbox(p[0]) and mb.unique_subject(p[0])]
    me = mb.me["name"].split()[0]
    for tid, ann, _ev in rng.sample(pairs, len(pairs)):
        when = date_in(mb.first(ann)["body"], mb.now)
        if when is None:
            continue
        q = mb.first(tid)
        subject = mb.threads[tid]["subject"]
        first = q["from_name"].split()[0]
        path = search(phrase(subject)) + [open_row(subject)]
        wrong = when + dt.timedelta(days=1)
        gold = [f"Hi {first}, it's on {long_date(when)}. Hope that helps with the newsletter! {me}",
                f"Hi {first}, we settled on {long_date(when)}. Let me know if you need anything else. Best, {me}"]
        wrong_text = f"Hi {first}, it's on {long_date(wrong)}. Hope that helps! {me}"
        hedge = f"Hi {first}, I think it's {long_date(wrong)}, or maybe {long_date(when)}; not totally sure. {me}"
        rude = f"{long_date(when)}. It was in the announcement, you could have looked it up yourself."
        vague = f"Hi {first}, it's sometime in the next few weeks, I'll let you know once I find the email. {me}"
        dates = [long_date(when + dt.timedelta(days=d)) for d in range(-6, 7)]
        dump = f"Hi {first}, it's one of these: " + "; ".join(dates) + f". {me}"
        rubric = [f"Answers the question with the date {long_date(when)} (the weekday may be left out).",
                  "Gives no other candidate date for it: no hedging between dates and no list of dates.",
                  "Is polite and friendly, with no rude or condescending wording.",
                  "Is a short reply to this question only, with no unrelated content."]
        body = q["body"].strip().replace("\n", " ")
        context = (f"{q['from_name']} asked, in \u201c{subject}\u201d: \u201c{body[:400]}\u201d. The answer, from another "
                   f"email: {long_date(when)}. The reply is written by {mb.me['name']}.")
        spec = _reply_spec(tid, q["from_email"], judge_check(_text(tid), rubric, context, 400, "answers with the date"))
        yield {
            "goal": f"{q['from_name']} asked you a question in \u201c{subject}\u201d. Reply to them with a short, "
                    "friendly answer (you'll find the date in another email).",
            "start_path": "/inbox",
            "verify": spec,
            "solution": _reply(path, gold[0]),
            # The announcement looked up first (the date checked at its source), then the reply.
            "harmless": [harmless("open_first", search(phrase(mb.threads[ann]["subject"])) + [open_row(mb.threads[ann]["subject"])]
                                  + _reply(path, gold[0]),
                                  "opens the announcement with the date first, then replies",
                                  find_open(mb.threads[ann]["subject"], ann) + find_open(subject, tid)
                                  + [call("reply", thread_id=tid, body=gold[1])])],
            "tools": plan(find_open(subject, tid) + find_open(mb.threads[ann]["subject"], ann)
                          + [call("reply", thread_id=tid, body=gold[0])],
                          find_open(subject, tid) + [call("reply", thread_id=tid, body=wrong_text)],
                          find_open(subject, tid) + [call("reply", thread_id=tid, body=hedge)]),
            "near_misses": [_reply(path, wrong_text), _reply(path, hedge)],
            "adversarial": [{"kind": "extra", "why": "the right reply, then the conversation archived",
                             "steps": _reply(path, gold[0])[:-1] + [toolbar_button("Archive"), done()]}],
            "calibration": calibration(gold, [("wrong_facts", wrong_text, "the day after the announced date"),
                                              ("hedge", hedge, "the right date beside a wrong one"),
                                              ("rude", rude, "the right date, rudely"),
                                              ("near_miss", vague, "no date at all")], dump, 400),
        }


THANKS = [("covering the client demo on Friday", "the recording of the demo"),
          ("reviewing the quarterly report draft", "your list of suggested edits"),
          ("helping with the data migration last weekend", "the notes you took on the migration steps"),
          ("presenting our results at the all-hands", "the slides you used"),
          ("organising the team offsite", "the final agenda")]


def _people(mb: Mailbox) -> list[dict]:
    return [c for c in mb.contacts if c["relation"] in ("coworker", "client") and c["is_saved"]
            and not c["email"].startswith("ap@")]


@template("mail", "judged-thank-you", difficulty="medium", max_steps=18, count=4, test_every=4, tags=("judged",))
def thank_you(w: World, rng: random.Random):
    """Write a new email thanking a contact for something and asking for a follow-up (judged)."""
    mb = Mailbox(w)
    people = _people(mb)
    me = mb.me["name"].split()[0]
    for k, c in enumerate(rng.sample(people, len(people))):
        what, ask = THANKS[k % len(THANKS)]
        first = c["name"].split()[0]
        other = people[(people.index(c) + 3) % len(people)]
        subject = "Thank you!"
        gold = [(subject, f"Hi {first}, thank you so much for {what}, I really appreciate it. Could you send me {ask} "
                          f"when you get a chance? Thanks again, {me}"),
                ("Thanks for your help", f"Hi {first}, many thanks for {what}. It made a real difference. Would you mind "
                                         f"sharing {ask} with me? Best, {me}")]
        subj, body = gold[k % 2]

        def joined(s: str, b: str) -> str:
            return f"subject: {s}\nbody: {b}"

        no_ask = joined(subject, f"Hi {first}, thank you so much for {what}, I really appreciate it. Best, {me}")
        no_thanks = joined("Request", f"Hi {first}, send me {ask}. {me}")
        wrong_thing = joined(subject, f"Hi {first}, thanks a lot for the birthday flowers! Could you send me {ask}? {me}")
        sarcastic = joined(subject, f"Wow {first}, thanks SO much for {what}, truly heroic. I guess I'll have to beg for "
                                    f"{ask} now? {me}")
        dump = joined(subject, f"Hi {first}, thank you for " + ", for ".join(t for t, _ in THANKS)
                      + ". Could you send me " + ", ".join(a for _, a in THANKS) + f"? {me}")
        rubric = [f"Thanks {c['name']} for {what}.",
                  f"Asks them to send {ask}.",
                  "Is warm and professional, with no sarcastic, rude or curt wording.",
                  "Has a subject line that fits the message, and no unrelated content."]
        context = f"The email is from {mb.me['name']} to {c['name']} <{c['email']}>."
        steps = compose_steps(c["email"], subj, body) + [click("button", "Send", exact=True, within=COMPOSE), done()]
        yield {
            "goal": f"Email {c['name']} ({c['email']}) to thank them for {what}, and ask them to send you {ask}.",
            "start_path": "/inbox",
            "verify": graded([{"table": "messages", "in": "created", "count": 1,
                               "expect": {"to": [c["email"]], "cc": [], "bcc": [], "is_sent": True, "is_draft": False},
                               "name": f"one email sent to {c['email']} only"},
                              judge_check({"table": "messages", "in": "created", "field": ["subject", "body"]}, rubric,
                                          context, 600, "a fitting thank-you with the request")],
                             [{"table": "messages", "ops": ["create"], "max": 1},
                              {"table": "threads", "ops": ["create"], "max": 1}]),
            "solution": steps,
            "harmless": [harmless("check_work", steps[:-1] + [rail("Sent"), open_row(subj), done()],
                                  "sends it, then opens it from Sent to see that it went",
                                  [call("send_email", to=[c["email"]], subject=subj, body=body),
                                   call("list_mail", folder="sent")])],
            "tools": plan([call("send_email", to=[c["email"]], subject=subj, body=body)],
                          [call("send_email", to=[c["email"]], subject=subject, body=no_ask.split("body: ", 1)[1])],
                          [call("send_email", to=[other["email"]], subject=subj, body=body)]),
            "near_misses": [compose_steps(c["email"], subject, no_ask.split("body: ", 1)[1])
                            + [click("button", "Send", exact=True, within=COMPOSE), done()],
                            compose_steps(other["email"], subj, body)
                            + [click("button", "Send", exact=True, within=COMPOSE), done()]],
            "adversarial": [{"kind": "extra", "why": "the right email, also sent to someone else",
                             "steps": compose_steps(c["email"], subj, body)[:3]
                             + [{"fill": {"role": "textbox", "name": "To", "exact": True, "within": COMPOSE},
                                 "text": other["email"]}, {"press": ["Enter"]}]
                             + compose_steps(c["email"], subj, body)[3:]
                             + [click("button", "Send", exact=True, within=COMPOSE), done()]}],
            "calibration": calibration([joined(s, b) for s, b in gold],
                                       [("near_miss", no_ask, "thanks, but does not ask"),
                                        ("near_miss", no_thanks, "asks, but does not thank"),
                                        ("wrong_facts", wrong_thing, "thanks them for something else"),
                                        ("rude", sarcastic, "sarcastic")], dump, 600),
        }


@template("mail", "judged-vacation-message", difficulty="hard", max_steps=24, count=4, test_every=4, tags=("judged",))
def vacation_message(w: World, rng: random.Random):
    """Turn on the vacation responder for given days with a message of your own: away until when, and who to
    contact meanwhile (judged)."""
    from tasks.templates.mail.settings import long_day, recheck, vacation_steps

    mb = Mailbox(w)
    people = [c for c in _people(mb) if c["relation"] == "coworker"]
    for k, c in enumerate(rng.sample(people, len(people))):
        start = (mb.now + dt.timedelta(days=5 + 3 * k)).date()
        end = start + dt.timedelta(days=4 + k)
        back = end + dt.timedelta(days=1)
        subject = "Out of office"
        gold = [f"Thanks for your email. I'm out of the office until {long_date(end)} and will reply when I'm back on "
                f"{long_date(back)}. For anything urgent, please contact {c['name']} at {c['email']}.",
                f"Hi, I'm away with limited access to email until {long_date(end)}. If it can't wait, {c['name']} "
                f"({c['email']}) can help. I'll get back to you after my return."]
        no_contact = f"Thanks for your email. I'm out of the office until {long_date(end)} and will reply when I'm back."
        wrong_date = (f"Thanks for your email. I'm out of the office until {long_date(end + dt.timedelta(days=7))}. For "
                      f"anything urgent, please contact {c['name']} at {c['email']}.")
        other = next(x for x in people if x["id"] != c["id"])
        wrong_person = (f"Thanks for your email. I'm out of the office until {long_date(end)}. For anything urgent, "
                        f"please contact {other['name']} at {other['email']}.")
        casual = f"gone till {long_date(end)} lol, bug {c['name'].split()[0]} if u must"
        dump = (f"I'm away until {long_date(end)}. For anything urgent contact "
                + ", ".join(f"{x['name']} ({x['email']})" for x in people[:12]) + ".")
        rubric = [f"Says the writer is away (out of the office) until {long_date(end)}, or back on {long_date(back)}.",
                  f"Names {c['name']} (or {c['email']}) as the contact for urgent matters, and no one else.",
                  "Is a courteous, professional auto-reply, with no unrelated content."]
        context = (f"The responder is {mb.me['name']}'s, on from {long_date(start)} to {long_date(end)}. The urgent "
                   f"contact: {c['name']} <{c['email']}>.")

        def vacation(body: str, last: dt.date = end) -> dict:
            return call("set_vacation_responder", enabled=True, first_day=start.isoformat(), last_day=last.isoformat(),
                        subject=subject, message=body)

        def steps(body: str, last: dt.date = end, extra: list | None = None) -> list[dict]:
            return vacation_steps(start, last, subject, body, extra or [])

        text = gold[k % 2]
        yield {
            "goal": f"Turn on your vacation responder from {long_day(start)} to {long_day(end)} with the subject "
                    f"\u201c{subject}\u201d and a short message of your own saying you're away until then and that "
                    f"urgent matters should go to {c['name']} ({c['email']}).",
            "start_path": "/inbox",
            "verify": graded([{"table": "account", "where": {"id": 1},
                               "expect": {"vacation_enabled": True, "vacation_start": start.isoformat(),
                                          "vacation_end": end.isoformat(), "vacation_subject": {"$ieq": subject}},
                               "name": "vacation responder on, for those days"},
                              judge_check({"table": "account", "in": "changed", "where": {"id": 1},
                                           "field": "vacation_body"}, rubric, context, 500, "the away message")],
                             [{"table": "account", "where": {"id": 1},
                               "fields": ["vacation_enabled", "vacation_start", "vacation_end", "vacation_subject",
                                          "vacation_body", "vacation_contacts_only"]}]),
            "solution": steps(text),
            "harmless": [harmless("check_work", steps(text)[:-1] + recheck(),
                                  "saves it, then leaves and reopens the settings to see the responder on",
                                  [vacation(text), call("get_settings")])],
            "tools": plan([vacation(text)], [vacation(no_contact)], [vacation(text, end + dt.timedelta(days=1))]),
            "near_misses": [steps(no_contact), steps(text, end + dt.timedelta(days=1))],
            "adversarial": [{"kind": "extra", "why": "the right responder, and the signature replaced",
                             "steps": steps(text, extra=[{"fill": {"role": "textbox", "name": "Signature", "exact": True},
                                                          "text": "Away"}])}],
            "calibration": calibration(gold, [("near_miss", no_contact, "no urgent contact"),
                                              ("wrong_facts", wrong_date, "a week too late"),
                                              ("wrong_facts", wrong_person, "another coworker"),
                                              ("rude", casual, "not professional")], dump, 500),
        }


INTROS = [("leads our data platform team", "is planning a reporting project"),
          ("ran last year's customer onboarding program", "is setting up onboarding for new clients"),
          ("knows our pricing inside out", "has questions about the renewal quote"),
          ("organised the last two team offsites", "is planning the spring offsite"),
          ("wrote our security review checklist", "is preparing for a security audit")]


@template("mail", "judged-introduction", difficulty="hard", max_steps=22, count=4, test_every=4, tags=("judged",))
def introduction(w: World, rng: random.Random):
    """Introduce two contacts to each other in one email to both: who each is, why they should talk (judged)."""
    mb = Mailbox(w)
    people = _people(mb)
    firsts = [p["name"].split()[0] for p in people]
    # First names that are unique among the candidates, so "Hi Ana and Ben" names exactly two people.
    people = [p for p, f in zip(people, firsts) if firsts.count(f) == 1]
    coworkers = [p for p in people if p["relation"] == "coworker"]
    me = mb.me["name"].split()[0]
    for k, a in enumerate(rng.sample(coworkers, len(coworkers))):
        b = people[(people.index(a) + 2 + k) % len(people)]
        third = next(x for x in people if x["id"] not in (a["id"], b["id"]))
        role_a, role_b = INTROS[k % len(INTROS)]
        fa, fb = a["name"].split()[0], b["name"].split()[0]
        gold = [(f"Introduction: {fa} and {fb}",
                 f"Hi {fa} and {fb}, I'd like to introduce you two. {a['name']} {role_a}, and {b['name']} {role_b}. "
                 f"I think a quick call would help you both; could you set one up this week? Best, {me}"),
                (f"Meet {fb}", f"Hello both! {fa}, meet {b['name']}, who {role_b}. {fb}, {a['name']} {role_a} and is "
                              f"the right person to talk to. Would you two find 30 minutes for a call? Thanks, {me}")]
        subj, body = gold[k % 2]

        def joined(s: str, t: str) -> str:
            return f"subject: {s}\nbody: {t}"

        no_call = f"Hi {fa} and {fb}, {a['name']} {role_a}, and {b['name']} {role_b}. Just so you know each other. {me}"
        one_side = (f"Hi {fa} and {fb}, {a['name']} {role_a}. I think a quick call would help; could you set one up "
                    f"this week? {me}")
        swapped = (f"Hi {fa} and {fb}, I'd like to introduce you two. {a['name']} {role_b}, and {b['name']} {role_a}. "
                   f"Could you set up a quick call this week? {me}")
        curt = f"{fa}, {fb}. Talk to each other. {me}"
        # every candidate and every role, short enough to reach the judge (not cut by the length bound)
        dump = ("Hi all, meet each other: " + ", ".join(p["name"] for p in people[:6]) + ". Between you, someone "
                + "; someone ".join(r for pair in INTROS[:3] for r in pair) + f". Call whoever. {me}")
        rubric = [f"Introduces {a['name']} and {b['name']} to each other by name.",
                  f"Says that {a['name']} {role_a} and that {b['name']} {role_b} (these roles, not swapped).",
                  "Suggests they set up a call or a meeting.",
                  "Is friendly and professional, with a subject line that fits and no unrelated content."]
        context = (f"The email is from {mb.me['name']} to {a['name']} <{a['email']}> and {b['name']} <{b['email']}>. "
                   f"{a['name']} {role_a}; {b['name']} {role_b}.")

        def send(to: list[str], s: str, t: str) -> list[dict]:
            # compose_steps fills the first recipient; each further one is typed into To and confirmed with Enter.
            head = compose_steps(to[0], s, t)
            more = [x for addr in to[1:] for x in ({"fill": {"role": "textbox", "name": "To", "exact": True,
                                                             "within": COMPOSE}, "text": addr}, {"press": ["Enter"]})]
            return head[:3] + more + head[3:] + [click("button", "Send", exact=True, within=COMPOSE), done()]

        both = [a["email"], b["email"]]
        yield {
            "goal": f"Introduce {a['name']} ({a['email']}) to {b['name']} ({b['email']}) in one email to both of them: "
                    f"{a['name']} {role_a}, and {b['name']} {role_b}. Suggest they set up a call.",
            "start_path": "/inbox",
            "verify": graded([{"table": "messages", "in": "created", "count": 1,
                               # Both on To, or one on To and the other on Cc (the usual way to introduce someone):
                               # "one email to both of them" reads both ways; a third person anywhere is refused.
                               "expect": {"$or": [{"to": {"$set": both}, "cc": []},
                                                  {"to": [a["email"]], "cc": [b["email"]]},
                                                  {"to": [b["email"]], "cc": [a["email"]]}],
                                          "bcc": [], "is_sent": True, "is_draft": False},
                               "name": "one email to both of them only"},
                              judge_check({"table": "messages", "in": "created", "field": ["subject", "body"]}, rubric,
                                          context, 700, "introduces them, with the reason and a call")],
                             [{"table": "messages", "ops": ["create"], "max": 1},
                              {"table": "threads", "ops": ["create"], "max": 1}]),
            "solution": send(both, subj, body),
            "harmless": [harmless("addressing", send([b["email"]], subj, body)[:3] + [
                click("button", "Add Cc recipients", exact=True),
                {"fill": {"role": "textbox", "name": "Cc", "exact": True, "within": COMPOSE}, "text": a["email"]},
                {"press": ["Enter"]}] + send([b["email"]], subj, body)[3:],
                "addresses the email to one of them with the other on Cc, the usual shape of an introduction",
                [call("send_email", to=[b["email"]], cc=[a["email"]], subject=subj, body=body)])],
            "tools": plan([call("send_email", to=both, subject=subj, body=body)],
                          [call("send_email", to=both, subject=subj, body=no_call)],
                          [call("send_email", to=[a["email"]], subject=subj, body=body)]),
            "near_misses": [send(both, subj, no_call), send([a["email"]], subj, body)],
            "adversarial": [{"kind": "extra", "why": "the right email, also sent to a third contact",
                             "steps": send(both + [third["email"]], subj, body)}],
            "calibration": calibration([joined(s, t) for s, t in gold],
                                       [("near_miss", joined(subj, no_call), "no call suggested"),
                                        ("near_miss", joined(subj, one_side), "says who only one of them is"),
                                        ("wrong_facts", joined(subj, swapped), "the roles swapped"),
                                        ("rude", joined(subj, curt), "curt, no introduction")],
                                       joined(subj, dump), 700),
        }
