"""The first mail templates: star, archive, delete, send, reply, forward, and retrieval questions.

Every expected value is read from the world's rows; every template has near-misses that look
right but must grade 0 (wrong message, wrong recipient, wrong text, wrong action).
"""

from __future__ import annotations

import random
import re

from tasks.templates import World, template
from tasks.templates.harmless import harmless
from tasks.templates.mail._answers import code_answer, name_answer
from tasks.templates.mail._tools import call, find, find_open, finish, plan
from tasks.templates.mail._common import (COMPOSE, Mailbox, adversarial, bystander, click, competing, done, extra, graded,
                                          on_messages, open_row, phrase, search, star_elsewhere, text_bound,
                                          toolbar_button)

PHRASES = [
    "Thanks, I'll take a look this afternoon.",
    "Works for me, see you then.",
    "Could you send me the latest numbers?",
    "Let's move this to next Tuesday.",
    "Got it, thank you for the update.",
    "I'll have the draft ready by Friday.",
    "Can we add Priya to the thread?",
    "Sounds good, please go ahead.",
]
SUBJECTS = [
    ("Lunch on Friday?", "Are you free for lunch on Friday around noon?"),
    ("Quick question about the budget", "Do you have a minute to go over the Q2 budget tomorrow?"),
    ("Slides for Monday", "Could you share the slides for Monday's review when they are ready?"),
    ("Parking pass", "Do you still have the spare parking pass? I need it next week."),
    ("Book recommendation", "I just finished the book you recommended and loved it. Any other picks?"),
    ("Team offsite dates", "Which of the two offsite dates in April works better for you?"),
]


def _inbox_threads(mb: Mailbox, kind_ok=lambda t: True) -> list[int]:
    return [tid for tid in sorted(mb.threads) if mb.in_inbox(tid) and mb.plain(tid) and kind_ok(mb.threads[tid])]


def contact_threads(mb: Mailbox) -> list[int]:
    """Primary inbox conversations whose last message is from a contact (not from me): ones to reply to."""
    return [tid for tid in _inbox_threads(mb, lambda t: t["category"] == "primary")
            if mb.last(tid)["from_email"] in mb.by_email and not mb.is_mine(mb.last(tid))]


def _open(mb: Mailbox, tid: int) -> list[dict]:
    subject = mb.threads[tid]["subject"]
    return search(phrase(subject)) + [open_row(subject)]


def letter(to_name: str, text: str, me: str) -> str:
    """The asked-for text as a careful person writes it: a greeting, the text, a sign-off (harmless variants;
    text_bound leaves room for them)."""
    return f"Hi {to_name.split()[0]},\n\n{text}\n\nBest,\n{me.split()[0]}"


def reply_verify(mb: Mailbox, tid: int, last: dict, text: str) -> dict:
    """A reply to `last` (the conversation's latest message) in conversation `tid` with `text`: one sent message in
    the same conversation, to the sender alone, holding the text (and not much more); nothing else written there."""
    return graded(
        [{"table": "messages", "in": "created", "count": 1,
          "expect": {"thread_id": tid, "in_reply_to_id": last["id"], "is_sent": True,
                     "to": [last["from_email"]], "cc": [], "bcc": [],
                     "body": {"$icontains": text, "$len": text_bound(text, extra=mb.me["signature"])}},
          "name": "a reply in the same conversation, to the sender, with the text"}],
        [{"table": "messages", "ops": ["create"], "where": sent_message(thread_id=tid), "max": 1},
         on_messages({"thread_id": tid}, [])])


def sent_message(**expect) -> dict:
    """The shape of a message the agent sends: an allowance's `where` for its one create."""
    return {"is_sent": True, "is_draft": False, **expect}


@template("mail", "star-latest-from", difficulty="easy", max_steps=10, count=5, test_every=5)
def star_latest_from(w: World, rng: random.Random):
    """Star the most recent email from a contact. Preferred: contacts whose latest email was archived while an
    older one is still in the inbox, so the obvious inbox row is the wrong one."""
    mb = Mailbox(w)
    tricky, plain = [], []
    for c in mb.contacts:
        sent = mb.from_contact(c["email"])
        if len(sent) < 2:
            continue
        latest = sent[0]
        tid = latest["thread_id"]
        if mb.last(tid)["id"] != latest["id"] or not mb.plain(tid) or any(m["is_starred"] for m in mb.in_thread[tid]):
            continue
        other = next((m for m in sent[1:] if m["thread_id"] != tid and mb.plain(m["thread_id"])
                      and not any(x["is_starred"] for x in mb.in_thread[m["thread_id"]])), None)
        if other is None:
            continue
        inbox_other = next((m for m in sent[1:] if m["thread_id"] != tid and mb.in_inbox(m["thread_id"])
                            and mb.plain(m["thread_id"])
                            and not any(x["is_starred"] for x in mb.in_thread[m["thread_id"]])), None)
        if not mb.in_inbox(tid) and inbox_other is not None:
            tricky.append((c, latest, inbox_other))
        else:
            plain.append((c, latest, other))
    picks = rng.sample(tricky, min(3, len(tricky))) + rng.sample(plain, len(plain))
    for c, latest, other in picks:
        subject = mb.threads[latest["thread_id"]]["subject"]
        other_subject = mb.threads[other["thread_id"]]["subject"]
        star = lambda subj: {"click": {"role": "button", "name": "Star", "exact": True,
                                       "within": {"role": "row", "name": subj}}}
        yield {
            "goal": f"Star the most recent email from {c['name']}.",
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "messages", "where": {"id": latest["id"]}, "expect": {"is_starred": True},
                  "name": "their latest email is starred"}],
                [on_messages({"id": latest["id"]}, ["is_starred"])]),
            "solution": search(f"from:{c['email']}") + [star(subject), done()],
            # Opening it first (to check it is the latest) and starring it from the More menu stars the same
            # message: the conversation's last one, which is their latest email.
            "harmless": [harmless("open_first", search(f"from:{c['email']}") + [
                open_row(subject), toolbar_button("More"), click("menuitem", "Add star", exact=True), done()],
                "opens the email first and stars it from the conversation's More menu",
                [find(f"from:{c['email']}"), call("read_conversation", thread_id=latest["thread_id"]),
                 call("star", thread_ids=[latest["thread_id"]])])],
            "tools": plan([find(f"from:{c['email']}"), call("star", thread_ids=[latest["thread_id"]])],
                          [find(f"from:{c['email']}"), call("star", thread_ids=[other["thread_id"]])]),
            "near_misses": [search(f"from:{c['email']}") + [star(other_subject), done()]],
            "adversarial": [extra(search(f"from:{c['email']}") + [star(subject), done()], [star(other_subject)],
                                  "stars their older email too: every candidate starred")],
        }


@template("mail", "archive-conversation", difficulty="easy", max_steps=10, count=4, test_every=4)
def archive_conversation(w: World, rng: random.Random):
    """Archive one named conversation: it leaves the inbox, nothing else changes."""
    mb = Mailbox(w)
    tids = _inbox_threads(mb, lambda t: t["category"] == "primary")
    for tid in rng.sample(tids, len(tids)):
        subject = mb.threads[tid]["subject"]
        sender = mb.first(tid)["from_name"]
        other = bystander(mb, [tid])
        path = search(phrase(subject)) + [open_row(subject)]
        yield {
            "goal": f"Archive the conversation \u201c{subject}\u201d.",
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "messages", "where": {"thread_id": tid},
                  "expect": {"in_inbox": False, "is_trashed": False, "is_spam": False},
                  "name": f"conversation {tid} archived, not deleted"}],
                [on_messages({"thread_id": tid}, ["in_inbox"])]),
            "solution": path + [toolbar_button("Archive"), done()],
            # Archived mail is still found by a search (All Mail): looked up and opened again, out of the inbox.
            "harmless": [harmless("check_work", path + [toolbar_button("Archive")] + search(phrase(subject))
                                  + [open_row(subject), done()],
                                  "archives it, then searches it and opens it again to see it left the inbox",
                                  find_open(subject, tid) + [call("archive", thread_ids=[tid])] + find_open(subject, tid))],
            "tools": plan(find_open(subject, tid) + [call("archive", thread_ids=[tid])],
                          find_open(subject, tid) + [call("delete_conversations", thread_ids=[tid])]),
            "near_misses": [path + [toolbar_button("Delete"), done()]],
            "adversarial": [extra(path + [toolbar_button("Archive"), done()],
                                  _open(mb, other) + [toolbar_button("Archive")],
                                  "archives another inbox conversation too")],
            "tags": [f"sender:{sender}"],
        }


@template("mail", "delete-conversation", difficulty="easy", max_steps=10, count=4, test_every=4)
def delete_conversation(w: World, rng: random.Random):
    """Delete (move to Trash) one named conversation."""
    mb = Mailbox(w)
    tids = _inbox_threads(mb, lambda t: t["category"] in ("promotions", "updates", "social"))
    for i, tid in enumerate(rng.sample(tids, len(tids))):
        subject = mb.threads[tid]["subject"]
        path = search(phrase(subject)) + [open_row(subject)]
        other = [t for t in tids if t != tid][i % (len(tids) - 1)]
        yield {
            "goal": f"Delete the email \u201c{subject}\u201d from {mb.first(tid)['from_name']}.",
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "messages", "where": {"thread_id": tid}, "expect": {"is_trashed": True},
                  "name": f"conversation {tid} in Trash"}],
                [on_messages({"thread_id": tid}, ["is_trashed", "trashed_at", "in_inbox"])]),
            "solution": path + [toolbar_button("Delete"), done()],
            "harmless": [harmless("check_work", path + [toolbar_button("Delete")] + search("in:trash " + phrase(subject))
                                  + [open_row(subject), done()],
                                  "deletes it, then looks it up in Trash and opens it there to see that it took",
                                  find_open(subject, tid) + [call("delete_conversations", thread_ids=[tid])]
                                  + find_open(subject, tid, "in:trash"))],
            "tools": plan(find_open(subject, tid) + [call("delete_conversations", thread_ids=[tid])],
                          find_open(subject, tid) + [call("archive", thread_ids=[tid])]),
            "near_misses": [path + [toolbar_button("Archive"), done()]],
            "adversarial": [extra(path + [toolbar_button("Delete"), done()],
                                  _open(mb, other) + [toolbar_button("Delete")],
                                  "deletes another promotional conversation too")],
        }


@template("mail", "send-new-email", difficulty="medium", max_steps=16, count=5, test_every=5)
def send_new_email(w: World, rng: random.Random):
    """Compose and send a new email to a contact, with a given subject and text."""
    mb = Mailbox(w)
    people = [c for c in mb.contacts if c["relation"] in ("coworker", "friend", "family", "client") and c["email"]
              and not c["email"].startswith("ap@")]
    for i, c in enumerate(rng.sample(people, len(people))):
        subject, body = SUBJECTS[i % len(SUBJECTS)]
        wrong = next(o for o in people if o["id"] != c["id"] and o["relation"] == c["relation"])

        def compose(to: str, subj: str = subject, text: str = body):
            return [{"click": {"role": "button", "name": "Compose", "exact": True}},
                    {"fill": {"role": "textbox", "name": "To", "exact": True, "within": COMPOSE}, "text": to}, {"press": ["Enter"]},
                    {"fill": {"role": "textbox", "name": "Subject", "within": COMPOSE}, "text": subj},
                    {"fill": {"role": "textbox", "name": "Message Body", "within": COMPOSE}, "text": text},
                    {"click": {"role": "button", "name": "Send", "exact": True, "within": COMPOSE}},
                    done()]

        others = "\n".join(b for _s, b in SUBJECTS)

        yield {
            "goal": f"Send an email to {c['name']} ({c['email']}) with the subject \u201c{subject}\u201d "
                    f"that says: \u201c{body}\u201d",
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "messages", "in": "created", "count": 1,
                  "expect": {"to": [c["email"]], "cc": [], "bcc": [], "is_sent": True, "is_draft": False,
                             "subject": {"$ieq": subject},
                             "body": {"$icontains": body, "$len": text_bound(body, extra=mb.me["signature"])}},
                  "name": "one new email with the right recipient, subject and text"}],
                [{"table": "messages", "ops": ["create"], "where": sent_message(), "max": 1},
                 {"table": "threads", "ops": ["create"], "max": 1}]),
            "solution": compose(c["email"]),
            "harmless": [harmless("phrasing", compose(c["email"], text=letter(c["name"], body, mb.me["name"])),
                                  "the text as a letter: a greeting before it and a sign-off after it",
                                  [call("send_email", to=[c["email"]], subject=subject,
                                        body=letter(c["name"], body, mb.me["name"]))])],
            "tools": plan([call("send_email", to=[c["email"]], subject=subject, body=body)],
                          [call("send_email", to=[wrong["email"]], subject=subject, body=body)],
                          [call("send_email", to=[c["email"]], subject="Hello", body=body)]),
            "near_misses": [compose(wrong["email"]), compose(c["email"], subj="Hello")],
            "adversarial": [
                extra(compose(c["email"]), compose(wrong["email"])[:4] + compose(wrong["email"])[5:-1],
                      "sends the same subject to a second person"),
                adversarial("dump", compose(c["email"])[:3] + [
                    {"fill": {"role": "textbox", "name": "Subject", "within": COMPOSE}, "text": subject},
                    {"fill": {"role": "textbox", "name": "Message Body", "within": COMPOSE}, "text": others},
                    {"click": {"role": "button", "name": "Send", "exact": True, "within": COMPOSE}}, done()],
                    "the text asked for among every other stock message"),
            ],
        }


@template("mail", "reply-with-text", difficulty="medium", max_steps=14, count=5, test_every=5)
def reply_with_text(w: World, rng: random.Random):
    """Reply to the last message of a conversation from a contact, with given text."""
    mb = Mailbox(w)
    tids = contact_threads(mb)
    for i, tid in enumerate(rng.sample(tids, len(tids))):
        last = mb.last(tid)
        subject = mb.threads[tid]["subject"]
        text = PHRASES[i % len(PHRASES)]
        wrong_text = PHRASES[(i + 3) % len(PHRASES)]
        path = search(phrase(subject)) + [open_row(subject)]

        def reply(t: str):
            return path + [{"click": {"role": "button", "name": "Reply", "exact": True}},
                           {"fill": {"role": "textbox", "name": "Message Body"}, "text": t},
                           {"click": {"role": "button", "name": "Send", "exact": True}},
                           done()]

        every = "\n".join(PHRASES)

        yield {
            "goal": f"Reply to {last['from_name']}'s email \u201c{subject}\u201d with: \u201c{text}\u201d",
            "start_path": "/inbox",
            "verify": reply_verify(mb, tid, last, text),
            "solution": reply(text),
            "harmless": [harmless("phrasing", reply(letter(last["from_name"], text, mb.me["name"])),
                                  "the text as a letter: a greeting before it and a sign-off after it",
                                  find_open(subject, tid) + [call("reply", thread_id=tid,
                                                                  body=letter(last["from_name"], text, mb.me["name"]))])],
            "tools": plan(find_open(subject, tid) + [call("reply", thread_id=tid, body=text)],
                          find_open(subject, tid) + [call("reply", thread_id=tid, body=wrong_text)]),
            "near_misses": [reply(wrong_text)],
            "adversarial": [extra(reply(text), reply(wrong_text)[len(path):-1], "sends a second reply"),
                            adversarial("dump", reply(every), "every stock phrase in one reply")],
        }


@template("mail", "who-sent-subject", difficulty="easy", max_steps=10, count=4, test_every=4)
def who_sent_subject(w: World, rng: random.Random):
    """Retrieval: the full name of the person who started a conversation (nothing may change)."""
    mb = Mailbox(w)
    tids = [tid for tid in sorted(mb.threads) if mb.plain(tid) and mb.first(tid)["from_email"] in mb.by_email
            and not mb.is_mine(mb.first(tid))]
    for tid in rng.sample(tids, len(tids)):
        subject = mb.threads[tid]["subject"]
        name = mb.first(tid)["from_name"]
        wrong = next(c["name"] for c in mb.contacts if c["name"] != name)
        path = search(phrase(subject)) + [open_row(subject)]
        # The others in the conversation, then other contacts: the names a shotgun would list.
        people = [m["from_name"] for m in mb.in_thread[tid]] + [e for m in mb.in_thread[tid] for e in m["to"]]
        people = [mb.by_email[e]["name"] if e in mb.by_email else e for e in people]
        yield {
            "goal": f"Who sent you the email \u201c{subject}\u201d? Answer with their full name.",
            "start_path": "/inbox",
            # name_answer: the name alone or in a sentence ("It was sent by ..."; $ieq took the bare name only).
            "verify": graded([{"answer": name_answer(name, people + [c["name"] for c in mb.contacts]),
                               "name": "the sender's name"}]),
            "solution": path + [done(name)],
            "harmless": [harmless("phrasing", path + [done(f"It was sent by {name}.")], "the name in a full sentence",
                                  find_open(subject, tid) + [finish(f"It was sent by {name}.")])],
            "tools": plan(find_open(subject, tid) + [finish(name)], find_open(subject, tid) + [finish(wrong)],
                          find_open(subject, tid) + [call("archive" if mb.in_inbox(tid) else "move_to_inbox",
                                                          thread_ids=[tid]), finish(name)]),
            "distractors": [p for p in people if p != name] + [c["name"] for c in mb.contacts[:12] if c["name"] != name],
            "adversarial": [extra(path + [done(name)], star_elsewhere(mb.threads[bystander(mb, [tid])]["subject"]),
                                  "the right answer, after starring an unrelated conversation")],
            # Right answer, but the conversation was moved (a retrieval task must change nothing).
            "near_misses": [path + [done(wrong)],
                            path + [toolbar_button("Archive" if mb.in_inbox(tid) else "Move to Inbox"), done(name)]],
        }


AMOUNT_RE = re.compile(r"Total due: (\$[\d,]+\.\d\d)")
TERM_RE = re.compile(r"Contract term: (.+?) - (.+)")


def invoices(mb: Mailbox) -> dict[str, list[dict]]:
    """Vendor invoices per vendor company, newest first: thread, first message, amount, contract end, contact."""
    out: dict[str, list[dict]] = {}
    for tid, t in mb.threads.items():
        if not t["subject"].startswith("Invoice INV-") or " from " not in t["subject"]:
            continue
        first = mb.first(tid)
        m = AMOUNT_RE.search(first["body"])
        if not m or not mb.visible(first) or not mb.unique_subject(tid):
            continue
        contact = mb.by_email.get(first["from_email"])
        if contact is None:
            continue
        term = TERM_RE.search(first["body"])
        out.setdefault(contact["company"], []).append({
            "tid": tid, "first": first, "amount": m.group(1), "contact": contact, "subject": t["subject"],
            "term_end": term.group(2).strip() if term else ""})
    for v in out.values():
        v.sort(key=lambda x: (x["first"]["sent_at"], x["first"]["id"]), reverse=True)
    return out


def dollars(text: str) -> float:
    return float(text.replace("$", "").replace(",", ""))


@template("mail", "invoice-amount", difficulty="medium", max_steps=12, count=4, test_every=4)
def invoice_amount(w: World, rng: random.Random):
    """Retrieval: the amount due on the latest invoice from a vendor company."""
    mb = Mailbox(w)
    inv = invoices(mb)
    for company in rng.sample(sorted(inv), len(inv)):
        latest, older = inv[company][0], inv[company][1]
        path = search(f"invoice from:{latest['contact']['email']}") + [open_row(latest["subject"])]
        wrong = older["amount"] if older["amount"] != latest["amount"] else f"${dollars(latest['amount']) + 100:,.2f}"
        yield {
            "goal": f"How much is due on the most recent invoice from {company}? Answer with the amount.",
            "start_path": "/inbox",
            "verify": graded([{"answer": {"$number": {"$approx": dollars(latest["amount"]), "$tol": 0.005}},
                               "name": "the amount due"}]),
            "solution": path + [done(latest["amount"])],
            "harmless": [harmless("phrasing", path + [done(f"The amount due is {latest['amount']}.")],
                                  "the amount in a full sentence",
                                  [find(f"invoice from:{latest['contact']['email']}"),
                                   call("read_conversation", thread_id=latest["tid"]),
                                   finish(f"The amount due is {latest['amount']}.")])],
            "tools": plan([find(f"invoice from:{latest['contact']['email']}"), call("read_conversation", thread_id=latest["tid"]),
                           finish(latest["amount"])],
                          [find(f"invoice from:{latest['contact']['email']}"), call("read_conversation", thread_id=latest["tid"]),
                           finish(wrong)]),
            "distractors": [x["amount"] for v in inv.values() for x in v if x["amount"] != latest["amount"]],
            "adversarial": [extra(path + [done(latest["amount"])], [toolbar_button("Delete")],
                                  "the right amount, after deleting the invoice (a question changes nothing)")],
            "near_misses": [path + [done(wrong)]],
        }


SEAT_RE = re.compile(r"Flight ([A-Z]{2} \d+): (\w+) to (\w+).*?Seat: (\w+)", re.S)


@template("mail", "flight-seat", difficulty="medium", max_steps=12, count=4, test_every=4)
def flight_seat(w: World, rng: random.Random):
    """Retrieval: the seat on a flight, read from its confirmation email."""
    mb = Mailbox(w)
    flights: dict[str, list] = {}
    for m in mb.msgs:
        hit = SEAT_RE.search(m["body"]) if "confirmation" in m["subject"].lower() else None
        if hit and mb.visible(m) and mb.unique_subject(m["thread_id"]):
            flights.setdefault(hit.group(1), []).append((m, f"{hit.group(2)} to {hit.group(3)}", hit.group(4)))
    for flight in rng.sample(sorted(flights), len(flights)):
        if len(flights[flight]) != 1:
            continue
        m, route, seat = flights[flight][0]
        subject = mb.threads[m["thread_id"]]["subject"]
        path = search(f'"{flight}"') + [open_row(subject)]
        wrong = seat[:-1] + ("A" if seat[-1] != "A" else "C")
        yield {
            "goal": f"Which seat do I have on my {route} flight ({flight})? Answer with the seat number.",
            "start_path": "/inbox",
            # code_answer: the seat alone or in a sentence ("Seat 14C."; $ieq took the bare seat only).
            "verify": graded([{"answer": code_answer(seat), "name": "the seat"}]),
            "solution": path + [done(seat)],
            "harmless": [harmless("phrasing", path + [done(f"Your seat is {seat}.")], "the seat in a full sentence",
                                  [find(f'"{flight}"'), call("read_conversation", thread_id=m["thread_id"]),
                                   finish(f"Your seat is {seat}.")])],
            "tools": plan([find(f'"{flight}"'), call("read_conversation", thread_id=m["thread_id"]), finish(seat)],
                          [find(f'"{flight}"'), call("read_conversation", thread_id=m["thread_id"]), finish(wrong)]),
            "distractors": [x[2] for f in sorted(flights) for x in flights[f] if x[2] != seat],
            "adversarial": [extra(path + [done(seat)], [toolbar_button("Delete")],
                                  "the right seat, after deleting the confirmation")],
            "near_misses": [path + [done(wrong)]],
        }


def forward_steps(open_steps: list, recipient: str, text: str) -> list:
    return open_steps + [
        {"click": {"role": "button", "name": "Forward", "exact": True}},
        {"fill": {"role": "textbox", "name": "To", "exact": True}, "text": recipient}, {"press": ["Enter"]},
        {"fill": {"role": "textbox", "name": "Message Body"}, "text": text},
        {"click": {"role": "button", "name": "Send", "exact": True}},
    ]


def carried_attachments(mb: Mailbox, tid: int) -> list[dict]:
    """A forward carries the forwarded message's attachments (Gmail; compose.forwarded_attachments): the copies
    it may create, at most one per attachment of the conversation."""
    names = sorted({a["filename"] for m in mb.live(tid) for a in mb.attachments.get(m["id"], [])})
    return [{"table": "attachments", "ops": ["create"], "where": {"filename": {"$in": names}}, "max": len(names)}] if names else []


def forwarded_with(amount: str) -> str:
    """The forward's own text (before the quoted original) mentions the amount."""
    return r"(?s)^.*?" + re.escape(amount) + r".*?-{5,} ?Forwarded message"


def forward_body(mb: Mailbox, tid: int, amount: str, inv: dict[str, list[dict]], note: str) -> dict:
    """A forward's body: the amount in the agent's text, no other invoice's amount anywhere (a note
    listing every amount of the mailbox is a dump), and no longer than the note, the quoted original
    and its headers allow."""
    quoted = "\n".join(m["body"] for m in mb.in_thread[tid])
    others = competing((x["amount"] for v in inv.values() for x in v), note + "\n" + quoted)
    longest = max(len(m["body"]) for m in mb.in_thread[tid])
    return {"$regex": forwarded_with(amount), "$excludes": others,
            "$len": text_bound(note, slack=longest + 500, extra=mb.me["signature"])}


def every_amount(inv: dict[str, list[dict]], amount: str, n: int = 24) -> str:
    """A dumped note: the invoice amounts of the mailbox (the right one among them). A couple of dozen stand
    for all of them: typing hundreds of characters more only slows the episode down."""
    others = [a for a in dict.fromkeys(x["amount"] for v in inv.values() for x in v) if a != amount][:n - 1]
    return "Please pay one of: " + ", ".join(others[: n // 2] + [amount] + others[n // 2:])


@template("mail", "forward-invoice-amount", difficulty="hard", max_steps=24, count=3, test_every=3)
def forward_invoice_amount(w: World, rng: random.Random):
    """Forward a vendor's latest invoice to a finance coworker with the amount written in the
    message, then archive the invoice conversation."""
    mb = Mailbox(w)
    inv = invoices(mb)
    finance = [c for c in mb.contacts if c["relation"] == "coworker" and "Finance" in c["title"]] or \
        [c for c in mb.contacts if c["relation"] == "coworker"]
    companies = [c for c in sorted(inv) if mb.in_inbox(inv[c][0]["tid"])]
    for i, company in enumerate(rng.sample(companies, len(companies))):
        latest = inv[company][0]
        tid, amount = latest["tid"], latest["amount"]
        to = finance[i % len(finance)]
        wrong_to = finance[(i + 1) % len(finance)]
        if wrong_to["email"] == to["email"]:  # a world with one finance coworker: the wrong one is another coworker
            wrong_to = next(c for c in mb.contacts if c["relation"] == "coworker" and c["email"] != to["email"])
        open_steps = search(f"invoice from:{latest['contact']['email']}") + [open_row(latest["subject"])]
        note = f"Please pay {amount} for this one."

        def tool_forward(recipient: str, text: str, archive: bool = True):
            calls = [find(f"invoice from:{latest['contact']['email']}"), call("read_conversation", thread_id=tid),
                     call("forward", thread_id=tid, to=[recipient], body=text)]
            return calls + ([call("archive", thread_ids=[tid])] if archive else [])

        def forward(recipient: str, text: str, archive: bool = True):
            steps = forward_steps(open_steps, recipient, text)
            if archive:
                steps.append(toolbar_button("Archive"))
            return steps + [done()]

        yield {
            "goal": f"Forward the most recent invoice from {company} to {to['name']} ({to['email']}), "
                    f"writing the amount due in your message, then archive the invoice conversation.",
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "messages", "in": "created", "count": 1,
                  "expect": {"thread_id": tid, "to": [to["email"]], "cc": [], "bcc": [], "is_sent": True,
                             "subject": {"$ieq": f"Fwd: {latest['subject']}"},
                             "body": forward_body(mb, tid, amount, inv, note)},
                  "name": "forwarded to the right person with the amount in the message"},
                 {"table": "messages", "where": {"thread_id": tid, "is_sent": False},
                  "expect": {"in_inbox": False, "is_trashed": False}, "name": "invoice archived"}],
                [{"table": "messages", "ops": ["create"], "where": sent_message(thread_id=tid), "max": 1},
                 on_messages({"thread_id": tid}, ["in_inbox"]), *carried_attachments(mb, tid)]),
            "solution": forward(to["email"], note),
            # The note as a person writes it to a coworker: a greeting and a sign-off around the amount.
            "harmless": [harmless("courtesy", forward(to["email"], letter(to["name"], note, mb.me["name"])),
                                  "a greeting and a sign-off around the note with the amount",
                                  tool_forward(to["email"], letter(to["name"], note, mb.me["name"])))],
            "tools": plan(tool_forward(to["email"], note), tool_forward(wrong_to["email"], note),
                          tool_forward(to["email"], "Please pay this one."), tool_forward(to["email"], note, archive=False)),
            "near_misses": [forward(wrong_to["email"], note), forward(to["email"], "Please pay this one."),
                            forward(to["email"], note, archive=False)],
            "adversarial": [
                adversarial("dump", forward(to["email"], every_amount(inv, amount)), "the invoice amounts of the mailbox in the note"),
                extra(forward(to["email"], note), forward_steps(open_steps, wrong_to["email"], note),
                      "forwards the invoice to a second person too"),
            ],
        }


@template("mail", "archive-all-from-sender", difficulty="hard", max_steps=16, count=4, test_every=4)
def archive_all_from_sender(w: World, rng: random.Random):
    """Archive every inbox conversation from one sender (several of them), and nothing else."""
    mb = Mailbox(w)
    by_sender: dict[str, set[int]] = {}
    for m in mb.msgs:
        if m["in_inbox"] and not mb.is_mine(m) and mb.visible(m) and not mb.snoozed(m["thread_id"]):
            by_sender.setdefault(m["from_email"], set()).add(m["thread_id"])
    senders = sorted(e for e, tids in by_sender.items() if 2 <= len(tids) <= 8)
    for email in rng.sample(senders, len(senders)):
        tids = sorted(by_sender[email])
        # Only conversations where every inbox message is from this sender: archiving them is the whole job.
        if any(m["in_inbox"] and m["from_email"] != email for tid in tids for m in mb.in_thread[tid]):
            continue
        name = next(m["from_name"] for m in mb.msgs if m["from_email"] == email)
        seen = tids[-1]  # any row of the search is one of theirs: opening it is harmless whichever it picks
        query = f"from:{email} in:inbox"
        select_all = {"click": {"role": "checkbox", "name": "Select", "exact": True,
                                "within": {"role": "toolbar", "name": "Conversation actions"}}}
        first_row = {"click": {"role": "checkbox", "name": "Select", "exact": True,
                               "within": {"role": "row", "name": name}}}
        yield {
            "goal": f"Archive every conversation from {name} <{email}> that is in your inbox, and nothing else.",
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "messages", "where": {"thread_id": {"$in": tids}},
                  "expect": {"in_inbox": False, "is_trashed": False},
                  "name": f"{len(tids)} conversations archived"}],
                [on_messages({"thread_id": {"$in": tids}}, ["in_inbox"])]),
            "solution": search(query) + [select_all, toolbar_button("Archive"), done()],
            # Reading one of them first (to be sure it is theirs), then back to the search and archive them all.
            "harmless": [harmless("open_first", search(query) + [open_row(mb.threads[seen]["subject"])] + search(query)
                                  + [select_all, toolbar_button("Archive"), done()],
                                  "opens one of the conversations first, then archives them all from the search",
                                  [find(query, limit=50), call("read_conversation", thread_id=seen),
                                   call("archive", thread_ids=tids)])],
            "tools": plan([find(query, limit=50), call("archive", thread_ids=tids)],
                          [find(query, limit=50), call("archive", thread_ids=tids[-1:])]),
            "near_misses": [search(query) + [first_row, toolbar_button("Archive"), done()]],
            "adversarial": [extra(search(query) + [select_all, toolbar_button("Archive"), done()],
                                  _open(mb, bystander(mb, tids)) + [toolbar_button("Archive")],
                                  "archives a conversation from someone else too")],
        }
