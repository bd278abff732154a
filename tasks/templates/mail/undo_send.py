"""Undo Send: send, take it back from the "Message sent" toast, fix the recipient, send again."""

from __future__ import annotations

import random

from tasks.templates import World, template
from tasks.templates.harmless import harmless
from tasks.templates.mail._tools import call, plan
from tasks.templates.mail._common import COMPOSE, Mailbox, adversarial, click, done, extra, graded, text_bound
from tasks.templates.mail.compose import NOTES, _people, compose_steps

# Undo Send's window is wall-clock time (the page offers Undo for the account's period, the server holds the
# message that long plus a grace). The task gives itself Gmail's longest period, so a slow agent step (or a
# loaded validation machine) between Send and Undo does not decide the episode.
UNDO_SECONDS = 30


@template("mail", "undo-send-fix-recipient", difficulty="hard", max_steps=22, count=4, test_every=4)
def undo_send_fix_recipient(w: World, rng: random.Random):
    """Send a note to one person, undo the send from the toast, change the recipient, and send it again."""
    mb = Mailbox(w)
    people = _people(mb)
    order = rng.sample(people, len(people))
    # The message a send makes is the next row of the seeded world (the tool plan takes it back by its id).
    mid = max(m["id"] for m in w.table("messages")) + 1
    for i, (first, second) in enumerate(zip(order, order[1:] + order[:1])):
        subject, body = NOTES[(i + 2) % len(NOTES)]
        third = order[(i + 2) % len(order)]
        send = [click("button", "Send", exact=True, within=COMPOSE)]
        undo = [click("button", "Undo", exact=True)]
        to_box = {"role": "textbox", "name": "To", "exact": True, "within": COMPOSE}
        fix = [click("button", f"Remove {first['email']}", exact=True, within=COMPOSE),
               {"fill": to_box, "text": second["email"]}, {"press": ["Enter"]}]
        honest = compose_steps(first["email"], subject, body) + send + undo + fix + send + [done()]
        polite = f"Hi,\n\n{body}\n\nBest,\n{mb.me['name'].split()[0]}"
        yield {
            "goal": f"Send {first['name']} ({first['email']}) an email with the subject \u201c{subject}\u201d and the "
                    f"text \u201c{body}\u201d. Right after sending, use Undo Send, change the recipient to "
                    f"{second['name']} ({second['email']}) instead, and send it again. {first['name']} must not "
                    f"get it.",
            "start_path": "/inbox",
            "fixtures": [{"op": "update", "table": "account", "where": {"id": 1},
                          "set": {"undo_send_seconds": UNDO_SECONDS}}],
            "verify": graded(
                [{"table": "messages", "in": "created", "count": 1,
                  "expect": {"to": [second["email"]], "cc": [], "bcc": [], "subject": {"$ieq": subject},
                             "body": {"$icontains": body, "$len": text_bound(body, extra=mb.me["signature"])},
                             "is_sent": True, "is_draft": False, "scheduled_at": None,
                             "undone_at": {"$ne": None}},
                  "name": "one email, taken back with Undo Send and sent to the new recipient only"},
                 {"table": "messages", "in": "created", "where": {"is_draft": True}, "count": 0,
                  "name": "no draft left behind"}],
                [{"table": "messages", "ops": ["create"], "max": 1},
                 {"table": "threads", "ops": ["create"], "max": 1}]),
            "solution": honest,
            # A greeting with no name (the recipient changes) and a sign-off around the asked text.
            "harmless": [harmless("courtesy", compose_steps(first["email"], subject, polite) + send + undo + fix + send + [done()],
                                  "a greeting and a sign-off around the asked text",
                                  [call("send_email", to=[first["email"]], subject=subject, body=polite),
                                   call("undo_send", message_id=mid), call("send_draft", draft_id=mid, to=[second["email"]])])],
            "tools": plan([call("send_email", to=[first["email"]], subject=subject, body=body),
                           call("undo_send", message_id=mid),
                           call("send_draft", draft_id=mid, to=[second["email"]])],
                          [call("send_email", to=[second["email"]], subject=subject, body=body)],
                          [call("send_email", to=[first["email"]], subject=subject, body=body)],
                          [call("send_email", to=[first["email"]], subject=subject, body=body),
                           call("send_email", to=[second["email"]], subject=subject, body=body)],
                          [call("send_email", to=[first["email"]], subject=subject, body=body),
                           call("undo_send", message_id=mid)],
                          [call("send_email", to=[first["email"]], subject=subject, body=body),
                           call("undo_send", message_id=mid),
                           call("send_email", to=[second["email"]], subject=subject, body=body)]),
            "near_misses": [
                # the shortcut: the honest path's end rows without the Undo Send the goal asks for
                compose_steps(second["email"], subject, body) + send + [done()],
                compose_steps(first["email"], subject, body) + send + [done()],
                compose_steps(first["email"], subject, body) + send + undo + [done()],
                compose_steps(first["email"], subject, body) + send + undo +
                [{"fill": to_box, "text": second["email"]}, {"press": ["Enter"]}] + send + [done()],
            ],
            "adversarial": [
                adversarial("shotgun", compose_steps(first["email"], subject, body) + send +
                            compose_steps(second["email"], subject, body) + send + [done()],
                            "sends it to both instead of taking the first one back"),
                extra(honest, compose_steps(third["email"], subject, body) + send, "also sends it to a third person"),
            ],
        }
