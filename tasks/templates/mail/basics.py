"""The first mail templates: star, archive, delete, send, reply, forward, and retrieval questions.

Every expected value is read from the world's rows; every template has near-misses that look
right but must grade 0 (wrong message, wrong recipient, wrong text, wrong action).
"""

from __future__ import annotations

import random
import re

from tasks.templates import World, template
from tasks.templates.mail._common import Mailbox, open_row, phrase, search, toolbar_button

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
    return [tid for tid in sorted(mb.threads) if mb.in_inbox(tid) and mb.unique_subject(tid)
            and kind_ok(mb.threads[tid])]


@template("mail", "star-latest-from", difficulty="easy", max_steps=10, count=3)
def star_latest_from(w: World, rng: random.Random):
    """Star the most recent email from a contact (their latest message closes its conversation)."""
    mb = Mailbox(w)
    cands = []
    for c in mb.contacts:
        sent = mb.from_contact(c["email"])
        if len(sent) < 2 or sent[0]["is_starred"]:
            continue
        latest = sent[0]
        tid = latest["thread_id"]
        if mb.last(tid)["id"] != latest["id"] or not mb.unique_subject(tid):
            continue
        other = next((m for m in sent[1:] if m["thread_id"] != tid and mb.unique_subject(m["thread_id"])), None)
        if other is None or mb.last(other["thread_id"])["is_starred"]:
            continue
        cands.append((c, latest, other))
    for c, latest, other in rng.sample(cands, len(cands)):
        subject = mb.threads[latest["thread_id"]]["subject"]
        other_subject = mb.threads[other["thread_id"]]["subject"]
        star = lambda subj: {"click": {"role": "button", "name": "Star", "exact": True,
                                       "within": {"role": "row", "name": subj}}}
        yield {
            "goal": f"Star the most recent email from {c['name']}.",
            "start_path": "/inbox",
            "verify": {
                "checks": [{"table": "messages", "where": {"id": latest["id"]}, "expect": {"is_starred": True},
                            "name": "their latest email is starred"}],
                "unchanged_except": [{"table": "messages", "where": {"id": latest["id"]}, "fields": ["is_starred"]}],
            },
            "solution": search(f"from:{c['email']}") + [star(subject), {"done": True}],
            "near_misses": [search(f"from:{c['email']}") + [star(other_subject), {"done": True}]],
        }


@template("mail", "archive-conversation", difficulty="easy", max_steps=10, count=3)
def archive_conversation(w: World, rng: random.Random):
    """Archive one named conversation: it leaves the inbox, nothing else changes."""
    mb = Mailbox(w)
    tids = _inbox_threads(mb, lambda t: t["category"] == "primary")
    for tid in rng.sample(tids, len(tids)):
        subject = mb.threads[tid]["subject"]
        sender = mb.first(tid)["from_name"]
        path = search(phrase(subject)) + [open_row(subject)]
        yield {
            "goal": f"Archive the conversation \u201c{subject}\u201d.",
            "start_path": "/inbox",
            "verify": {
                "checks": [{"table": "messages", "where": {"thread_id": tid},
                            "expect": {"in_inbox": False, "is_trashed": False, "is_spam": False},
                            "name": f"conversation {tid} archived, not deleted"}],
                "unchanged_except": [{"table": "messages", "where": {"thread_id": tid}, "fields": ["in_inbox"]}],
            },
            "solution": path + [toolbar_button("Archive"), {"done": True}],
            "near_misses": [path + [toolbar_button("Delete"), {"done": True}]],
            "tags": [f"sender:{sender}"],
        }


@template("mail", "delete-conversation", difficulty="easy", max_steps=10, count=2)
def delete_conversation(w: World, rng: random.Random):
    """Delete (move to Trash) one named conversation."""
    mb = Mailbox(w)
    tids = _inbox_threads(mb, lambda t: t["category"] in ("promotions", "updates", "social"))
    for tid in rng.sample(tids, len(tids)):
        subject = mb.threads[tid]["subject"]
        path = search(phrase(subject)) + [open_row(subject)]
        yield {
            "goal": f"Delete the email \u201c{subject}\u201d from {mb.first(tid)['from_name']}.",
            "start_path": "/inbox",
            "verify": {
                "checks": [{"table": "messages", "where": {"thread_id": tid}, "expect": {"is_trashed": True},
                            "name": f"conversation {tid} in Trash"}],
                "unchanged_except": [{"table": "messages", "where": {"thread_id": tid},
                                      "fields": ["is_trashed", "trashed_at", "in_inbox"]}],
            },
            "solution": path + [toolbar_button("Delete"), {"done": True}],
            "near_misses": [path + [toolbar_button("Archive"), {"done": True}]],
        }


@template("mail", "send-new-email", difficulty="medium", max_steps=16, count=3)
def send_new_email(w: World, rng: random.Random):
    """Compose and send a new email to a contact, with a given subject and text."""
    mb = Mailbox(w)
    people = [c for c in mb.contacts if c["relation"] in ("coworker", "friend", "family", "client")]
    for i, c in enumerate(rng.sample(people, len(people))):
        subject, body = SUBJECTS[i % len(SUBJECTS)]
        wrong = next(o for o in people if o["id"] != c["id"] and o["relation"] == c["relation"])

        def compose(to: str, subj: str = subject):
            return [{"click": {"role": "button", "name": "Compose", "exact": True}},
                    {"fill": {"role": "textbox", "name": "To", "exact": True,
                              "within": {"role": "dialog", "name": "New Message"}}, "text": to},
                    {"fill": {"role": "textbox", "name": "Subject", "within": {"role": "dialog", "name": "New Message"}},
                     "text": subj},
                    {"fill": {"role": "textbox", "name": "Message Body",
                              "within": {"role": "dialog", "name": "New Message"}}, "text": body},
                    {"click": {"role": "button", "name": "Send", "exact": True,
                               "within": {"role": "dialog", "name": "New Message"}}},
                    {"done": True}]

        yield {
            "goal": f"Send an email to {c['name']} ({c['email']}) with the subject \u201c{subject}\u201d "
                    f"that says: \u201c{body}\u201d",
            "start_path": "/inbox",
            "verify": {
                "checks": [{"table": "messages", "in": "created", "count": 1,
                            "expect": {"to": [c["email"]], "cc": [], "is_sent": True,
                                       "subject": {"$ieq": subject}, "body": {"$icontains": body}},
                            "name": "one new email with the right recipient, subject and text"}],
                "unchanged_except": [{"table": "messages", "ops": ["create"]},
                                     {"table": "threads", "ops": ["create"]}],
            },
            "solution": compose(c["email"]),
            "near_misses": [compose(wrong["email"]), compose(c["email"], subj="Hello")],
        }


@template("mail", "reply-with-text", difficulty="medium", max_steps=14, count=3)
def reply_with_text(w: World, rng: random.Random):
    """Reply to the last message of a conversation from a contact, with given text."""
    mb = Mailbox(w)
    tids = [tid for tid in _inbox_threads(mb, lambda t: t["category"] == "primary")
            if mb.last(tid)["from_email"] in mb.by_email and not mb.last(tid)["is_sent"]]
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
                           {"done": True}]

        yield {
            "goal": f"Reply to {last['from_name']}'s email \u201c{subject}\u201d with: \u201c{text}\u201d",
            "start_path": "/inbox",
            "verify": {
                "checks": [{"table": "messages", "in": "created", "count": 1,
                            "expect": {"thread_id": tid, "in_reply_to_id": last["id"], "is_sent": True,
                                       "to": {"$contains": last["from_email"]}, "body": {"$icontains": text}},
                            "name": "a reply in the same conversation, to the sender, with the text"}],
                "unchanged_except": [{"table": "messages", "ops": ["create"]}],
            },
            "solution": reply(text),
            "near_misses": [reply(wrong_text)],
        }


@template("mail", "who-sent-subject", difficulty="easy", max_steps=10, count=2)
def who_sent_subject(w: World, rng: random.Random):
    """Retrieval: the full name of the person who started a conversation."""
    mb = Mailbox(w)
    tids = [tid for tid in sorted(mb.threads) if mb.unique_subject(tid) and mb.first(tid)["from_email"] in mb.by_email
            and not mb.first(tid)["is_sent"] and mb.visible(mb.first(tid))]
    for tid in rng.sample(tids, len(tids)):
        subject = mb.threads[tid]["subject"]
        name = mb.first(tid)["from_name"]
        wrong = next(c["name"] for c in mb.contacts if c["name"] != name)
        path = search(phrase(subject)) + [open_row(subject)]
        yield {
            "goal": f"Who sent you the email \u201c{subject}\u201d? Answer with their full name.",
            "start_path": "/inbox",
            "verify": {"checks": [{"answer": {"$ieq": name}, "name": "the sender's name"}], "unchanged_except": []},
            "solution": path + [{"done": True, "answer": name}],
            "near_misses": [path + [{"done": True, "answer": wrong}]],
        }


AMOUNT_RE = re.compile(r"total due is (\$[\d,]+(?:\.\d\d)?)")


def _invoices(mb: Mailbox) -> dict[str, list[tuple[dict, str, dict]]]:
    """Invoice conversations per vendor company: (first message, amount text, contact), newest first."""
    out: dict[str, list] = {}
    for tid, t in mb.threads.items():
        first = mb.first(tid)
        m = AMOUNT_RE.search(first["body"])
        if not m or not t["subject"].startswith("Invoice ") or not mb.visible(first):
            continue
        contact = mb.by_email.get(first["from_email"])
        if contact is None:
            continue
        out.setdefault(contact["company"], []).append((first, m.group(1), contact))
    for v in out.values():
        v.sort(key=lambda x: (x[0]["sent_at"], x[0]["id"]), reverse=True)
    return out


def _dollars(text: str) -> float:
    return float(text.replace("$", "").replace(",", ""))


@template("mail", "invoice-amount", difficulty="medium", max_steps=12, count=2)
def invoice_amount(w: World, rng: random.Random):
    """Retrieval: the amount due on the latest invoice from a vendor company."""
    mb = Mailbox(w)
    inv = _invoices(mb)
    for company in rng.sample(sorted(inv), len(inv)):
        first, amount, contact = inv[company][0]
        subject = mb.threads[first["thread_id"]]["subject"]
        path = search(f"invoice from:{contact['email']}") + [open_row(subject)]
        wrong = f"${_dollars(amount) + 100:,.2f}"
        yield {
            "goal": f"How much is due on the most recent invoice from {company}? Answer with the amount.",
            "start_path": "/inbox",
            "verify": {"checks": [{"answer": {"$number": {"$approx": _dollars(amount), "$tol": 0.005}},
                                   "name": "the amount due"}],
                       "unchanged_except": []},
            "solution": path + [{"done": True, "answer": amount}],
            "near_misses": [path + [{"done": True, "answer": wrong}]],
        }


SEAT_RE = re.compile(r"Flight ([A-Z]{2} \d+): (\w+) to (\w+).*?Seat: (\w+)", re.S)


@template("mail", "flight-seat", difficulty="medium", max_steps=12, count=2)
def flight_seat(w: World, rng: random.Random):
    """Retrieval: the seat on a flight, read from its confirmation email."""
    mb = Mailbox(w)
    found = []
    for m in mb.msgs:
        hit = SEAT_RE.search(m["body"]) if "confirmation" in m["subject"].lower() else None
        if hit and mb.visible(m) and mb.unique_subject(m["thread_id"]):
            found.append((m, hit.group(1), f"{hit.group(2)} to {hit.group(3)}", hit.group(4)))
    flights = {}
    for m, flight, route, seat in found:
        flights.setdefault(flight, []).append((m, route, seat))
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
            "verify": {"checks": [{"answer": {"$ieq": seat}, "name": "the seat"}], "unchanged_except": []},
            "solution": path + [{"done": True, "answer": seat}],
            "near_misses": [path + [{"done": True, "answer": wrong}]],
        }


@template("mail", "forward-invoice-amount", difficulty="hard", max_steps=24, count=2)
def forward_invoice_amount(w: World, rng: random.Random):
    """Forward a vendor's latest invoice to a finance coworker with the amount written in the
    message, then archive the invoice conversation."""
    mb = Mailbox(w)
    inv = _invoices(mb)
    finance = [c for c in mb.contacts if c["relation"] == "coworker"] or mb.contacts
    for i, company in enumerate(rng.sample(sorted(inv), len(inv))):
        first, amount, contact = inv[company][0]
        tid = first["thread_id"]
        subject = mb.threads[tid]["subject"]
        to = finance[i % len(finance)]
        wrong_to = finance[(i + 1) % len(finance)]
        open_steps = search(f"invoice from:{contact['email']}") + [open_row(subject)]
        note = f"Please pay {amount} for this one."

        def forward(recipient: str, text: str, archive: bool = True):
            steps = open_steps + [
                {"click": {"role": "button", "name": "Forward", "exact": True}},
                {"fill": {"role": "textbox", "name": "To", "exact": True}, "text": recipient},
                {"fill": {"role": "textbox", "name": "Message Body"}, "text": text},
                {"click": {"role": "button", "name": "Send", "exact": True}},
            ]
            if archive:
                steps.append(toolbar_button("Archive"))
            return steps + [{"done": True}]

        before_forward = r"(?s)^.*?" + re.escape(amount) + r".*?-{5,} ?Forwarded message"
        yield {
            "goal": f"Forward the most recent invoice from {company} to {to['name']} ({to['email']}), "
                    f"writing the amount due in your message, then archive the invoice conversation.",
            "start_path": "/inbox",
            "verify": {
                "checks": [
                    {"table": "messages", "in": "created", "count": 1,
                     "expect": {"thread_id": tid, "to": [to["email"]], "is_sent": True,
                                "subject": {"$istartswith": "fwd:"}, "body": {"$regex": before_forward}},
                     "name": "forwarded to the right person with the amount in the message"},
                    {"table": "messages", "where": {"thread_id": tid, "is_sent": False},
                     "expect": {"in_inbox": False, "is_trashed": False}, "name": "invoice archived"},
                ],
                "unchanged_except": [{"table": "messages", "ops": ["create"]},
                                     {"table": "messages", "where": {"thread_id": tid}, "fields": ["in_inbox"]}],
            },
            "solution": forward(to["email"], note),
            "near_misses": [forward(wrong_to["email"], note), forward(to["email"], "Please pay this one."),
                            forward(to["email"], note, archive=False)],
        }


@template("mail", "archive-all-from-sender", difficulty="hard", max_steps=16, count=2)
def archive_all_from_sender(w: World, rng: random.Random):
    """Archive every inbox conversation from one sender (several of them), and nothing else."""
    mb = Mailbox(w)
    by_sender: dict[str, set[int]] = {}
    for m in mb.msgs:
        if m["in_inbox"] and not m["is_sent"]:
            by_sender.setdefault(m["from_email"], set()).add(m["thread_id"])
    senders = sorted(e for e, tids in by_sender.items() if 2 <= len(tids) <= 5)
    for email in rng.sample(senders, len(senders)):
        tids = sorted(by_sender[email])
        # Only conversations where every inbox message is from this sender: archiving them is the whole job.
        if any(m["in_inbox"] and m["from_email"] != email for tid in tids for m in mb.in_thread[tid]):
            continue
        name = next(m["from_name"] for m in mb.msgs if m["from_email"] == email)
        query = f"from:{email} in:inbox"
        select_all = {"click": {"role": "checkbox", "name": "Select", "exact": True,
                                "within": {"role": "toolbar", "name": "Conversation actions"}}}
        first_row = {"click": {"role": "checkbox", "name": "Select", "exact": True,
                               "within": {"role": "row", "name": name}}}
        yield {
            "goal": f"Archive every conversation from {name} <{email}> that is in your inbox, and nothing else.",
            "start_path": "/inbox",
            "verify": {
                "checks": [{"table": "messages", "where": {"thread_id": {"$in": tids}},
                            "expect": {"in_inbox": False, "is_trashed": False},
                            "name": f"{len(tids)} conversations archived"}],
                "unchanged_except": [{"table": "messages", "where": {"thread_id": {"$in": tids}},
                                      "fields": ["in_inbox"]}],
            },
            "solution": search(query) + [select_all, toolbar_button("Archive"), {"done": True}],
            "near_misses": [search(query) + [first_row, toolbar_button("Archive"), {"done": True}]],
        }
