"""Writing with the formatting bar: a reply with one phrase in bold (verified on the sanitized body_html)."""

from __future__ import annotations

import random
import re

from tasks.templates import World, template
from tasks.templates.harmless import harmless
from tasks.templates.mail._tools import call, find_open, plan
from tasks.templates.mail._common import Mailbox, adversarial, done, extra, graded, on_messages, open_row, phrase, search, text_bound
from tasks.templates.mail.basics import contact_threads, sent_message

# (text before, the phrase to bold, text after)
LINES = [
    ("Thanks for the update. The deadline is ", "Friday at noon", ", so please plan for it."),
    ("Quick note: the meeting moved to ", "Room 4B", ". See you there."),
    ("Sounds good. Please remember to bring ", "the signed contract", " on Monday."),
    ("Thanks! The budget we agreed on is ", "$12,500", " for this quarter."),
    ("Got it. Our new office address is ", "210 Market Street", " from next week."),
]


def _bold_html(p: str) -> str:
    return re.escape(p.replace("&", "&amp;"))


@template("mail", "reply-bold-phrase", difficulty="medium", max_steps=18, count=5, test_every=5)
def reply_bold_phrase(w: World, rng: random.Random):
    """Reply to a conversation with a given sentence, one phrase of it in bold (the formatting bar or Ctrl+B)."""
    mb = Mailbox(w)
    tids = contact_threads(mb)
    for i, tid in enumerate(rng.sample(tids, len(tids))):
        last = mb.last(tid)
        subject = mb.threads[tid]["subject"]
        before, bold, after = LINES[i % len(LINES)]
        text = before + bold + after
        path = search(phrase(subject)) + [open_row(subject)]
        body = {"fill": {"role": "textbox", "name": "Message Body"}, "text": before}

        def reply(steps: list[dict]) -> list[dict]:
            return path + [{"click": {"role": "button", "name": "Reply", "exact": True}}, *steps,
                           {"click": {"role": "button", "name": "Send", "exact": True}}, done()]

        ctrl = {"press": ["Control", "b"]}
        honest = reply([body, ctrl, {"type": bold}, ctrl, {"type": after}])
        hi, me = f"Hi {last['from_name'].split()[0]},", mb.me["name"].split()[0]
        polite = reply([{**body, "text": f"{hi}\n\n{before}"}, ctrl, {"type": bold}, ctrl,
                        {"type": f"{after}\n\nBest,\n{me}"}])
        by_bar = [{"click": {"role": "button", "name": "Formatting options", "exact": True}},
                  {"click": {"role": "button", "name": "Bold", "exact": True, "within": {"role": "toolbar", "name": "Formatting options"}}}]
        italic = reply([body, {"press": ["Control", "i"]}, {"type": bold}, {"press": ["Control", "i"]}, {"type": after}])
        plain = reply([{"fill": {"role": "textbox", "name": "Message Body"}, "text": text}])
        shotgun = reply([{"fill": {"role": "textbox", "name": "Message Body"}, "text": ""}, ctrl, {"type": text}])
        tag = _bold_html(bold)
        yield {
            "goal": f"Reply to {last['from_name']}'s email \u201c{subject}\u201d with: \u201c{text}\u201d, with "
                    f"\u201c{bold}\u201d (and only that) in bold.",
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "messages", "in": "created", "count": 1,
                  "expect": {"thread_id": tid, "in_reply_to_id": last["id"], "is_sent": True,
                             "to": [last["from_email"]], "cc": [], "bcc": [],
                             "body": {"$icontains": text, "$len": text_bound(text, extra=mb.me["signature"])},
                             "body_html": {"$regex": rf"(?s)^.*<(b|strong)>{tag}</(b|strong)>.*$",
                                           "$not": {"$regex": rf"(?s)^.*<(b|strong)>(?!{tag}</(b|strong)>).*$"},
                                           # the kept signature as editor HTML (a <div> a line) and a greeting fit
                                           "$len": text_bound(f"{before}<b>{bold}</b>{after}", slack=250,
                                                              extra=mb.me["signature"])}},
                  "name": "a reply with the text, only the phrase in bold"}],
                [{"table": "messages", "ops": ["create"], "where": sent_message(thread_id=tid), "max": 1},
                 on_messages({"thread_id": tid}, [])]),
            "solution": honest,
            "harmless": [harmless("courtesy", polite, "a greeting and a sign-off around the asked sentence (the phrase bold)",
                                  find_open(subject, tid) + [call("reply", thread_id=tid, body=f"{hi}\n\n{text}\n\nBest,\n{me}",
                                                                  body_html=f"{hi}<br><br>{before}<b>{bold}</b>{after}"
                                                                            f"<br><br>Best,<br>{me}")])],
            "tools": plan(find_open(subject, tid) + [call("reply", thread_id=tid, body=text,
                                                          body_html=f"{before}<b>{bold}</b>{after}")],
                          find_open(subject, tid) + [call("reply", thread_id=tid, body=text)],
                          find_open(subject, tid) + [call("reply", thread_id=tid, body=text,
                                                          body_html=f"{before}<i>{bold}</i>{after}")],
                          find_open(subject, tid) + [call("reply", thread_id=tid, body=text,
                                                          body_html=f"<b>{text}</b>")]),
            "near_misses": [plain, italic],
            "adversarial": [adversarial("shotgun", shotgun, "the whole reply in bold"),
                            extra(honest, [{"click": {"role": "button", "name": "Reply", "exact": True}},
                                           {"fill": {"role": "textbox", "name": "Message Body"}, "text": text},
                                           {"click": {"role": "button", "name": "Send", "exact": True}}],
                                  "sends a second, plain reply"),
                            adversarial("shotgun", reply(by_bar + [{"click": {"role": "textbox", "name": "Message Body"}},
                                                                   {"press": ["Control", "a"]}, {"type": text}]),
                                        "bold switched on from the bar for everything")],
        }
