"""Questions answered with done(answer), read from the lists (counts) or found with search operators."""

from __future__ import annotations

import random

from tasks.templates import World, template
from tasks.templates.harmless import harmless
from tasks.templates.mail._answers import file_answer
from tasks.templates.mail._tools import call, find, finish, plan
from tasks.templates.mail._common import (Mailbox, bystander, click, done, extra, graded, more_then, rail, search,
                                          star_elsewhere)


@template("mail", "unread-count", difficulty="easy", max_steps=8, count=4, test_every=4)
def unread_count(w: World, rng: random.Random):
    """How many unread conversations a tab holds, or how many drafts / spam conversations there are."""
    mb = Mailbox(w)

    def unread_in(cat: str) -> int:
        return sum(1 for t in mb.threads.values() if t["category"] == cat and mb.in_inbox(t["id"])
                   and any(not m["is_read"] and m["in_inbox"] for m in mb.live(t["id"])))

    drafts = sum(1 for m in mb.msgs if m["is_draft"] and not m["is_trashed"])
    spam = len({m["thread_id"] for m in mb.msgs if m["is_spam"] and not m["is_trashed"]})
    questions = [
        ("How many unread conversations are in your Promotions tab?", unread_in("promotions"), []),
        ("How many unread conversations are in your Social tab?", unread_in("social"), []),
        ("How many drafts do you have?", drafts, []),
        ("How many conversations are in your Spam folder?", spam, more_then("Spam")),
        ("How many unread conversations are in your Updates tab?", unread_in("updates"), []),
    ]
    # Tool mode counts with a list's or a search's total.
    lookups = [find("in:inbox is:unread category:promotions", limit=1), find("in:inbox is:unread category:social", limit=1),
               call("list_mail", folder="drafts", limit=1), call("list_mail", folder="spam", limit=1),
               find("in:inbox is:unread category:updates", limit=1)]
    collateral = star_elsewhere(mb.threads[bystander(mb, [])]["subject"])
    for (q, n, steps), lookup in zip(questions, lookups):
        yield {
            "goal": q + " Answer with a number.",
            "start_path": "/inbox",
            "verify": graded([{"answer": {"$number": {"$eq": n}}, "name": f"answer {n}"}]),
            "solution": steps + [done(str(n))],
            "harmless": [harmless("phrasing", steps + [done(f"There are {n} of them.")], "the count in a full sentence",
                                  [lookup, finish(f"There are {n} of them.")])],
            "tools": plan([lookup, finish(str(n))], [lookup, finish(str(n + 1))]),
            "near_misses": [steps + [done(str(n + 1))]],
            # The other questions' counts: the numbers a hedging answer would add.
            "distractors": [str(x) for _q, x, _s in questions if x != n] + [str(n - 1)],
            "adversarial": [extra(steps + [done(str(n))], collateral,
                                  "the right count, after starring an unrelated conversation")],
        }


@template("mail", "latest-attachment-name", difficulty="medium", max_steps=10, count=4, test_every=4)
def latest_attachment_name(w: World, rng: random.Random):
    """The file name of the most recent attachment a contact sent (search from: has:attachment)."""
    mb = Mailbox(w)
    per: dict[str, list] = {}
    for m in mb.msgs:
        if mb.visible(m) and mb.attachments.get(m["id"]) and m["from_email"] in mb.by_email and not mb.is_mine(m):
            per.setdefault(m["from_email"], []).append(m)
    cands = []
    for email, ms in sorted(per.items()):
        ms.sort(key=lambda m: (m["sent_at"], m["id"]), reverse=True)
        files = [a["filename"] for a in mb.attachments[ms[0]["id"]]]
        older = [a["filename"] for m in ms[1:] for a in mb.attachments[m["id"]] if a["filename"] not in files]
        if len(files) == 1 and older:
            cands.append((email, files[0], older))
    collateral = star_elsewhere(mb.threads[bystander(mb, [])]["subject"])
    for email, fname, older in rng.sample(cands, len(cands)):
        name = mb.by_email[email]["name"]
        path = search(f"from:{email} has:attachment")
        yield {
            "goal": f"What is the file name of the most recent attachment {name} sent you? Answer with the file name.",
            "start_path": "/inbox",
            # file_answer: the name alone or ending a sentence ("The file name is x.pdf."; $ieq took it bare only).
            "verify": graded([{"answer": file_answer(fname), "name": "the file name"}]),
            "solution": path + [done(fname)],
            "harmless": [harmless("phrasing", path + [done(f"The file name is {fname}.")], "the file name in a full sentence",
                                  [find(f"from:{email} has:attachment", limit=5), finish(f"The file name is {fname}.")])],
            "tools": plan([find(f"from:{email} has:attachment", limit=5), finish(fname)],
                          [find(f"from:{email} has:attachment", limit=5), finish(older[0])]),
            "near_misses": [path + [done(older[0])]],
            "distractors": older[1:],
            "adversarial": [extra(path + [done(fname)], collateral,
                                  "the right file name, after starring an unrelated conversation")],
        }


__all__ = ["click", "rail"]
