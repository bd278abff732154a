"""Issue 46's everyday mail features, as tasks: the search language's OR, size and is:muted terms, a filter's
"Doesn't have" with several words, several rows ticked for one bulk action, the reply box's Bcc (and its
Pop out reply), and a message's own More menu (Delete this message)."""

from __future__ import annotations

import random
import re
from collections import defaultdict

from domain import mail as mail_rules
from tasks.templates import World, template
from tasks.templates.harmless import harmless
from tasks.templates.mail._common import (TOOLBAR, Mailbox, adversarial, bystander, click, done, extra, fill, graded,
                                          competing, on_messages, open_row, phrase, picker_day, rail, search, star_elsewhere, text_bound,
                                          toolbar_button)
from tasks.templates.mail._tools import call, find, find_open, plan
from tasks.templates.mail.basics import PHRASES, contact_threads, sent_message
from tasks.templates.mail.settings import recheck

SELECT_ALL = {"click": {"role": "checkbox", "name": "Select", "exact": True, "within": TOOLBAR}}
GRID = {"role": "grid", "name": "Conversations"}


def _calm(mb: Mailbox, tid: int) -> bool:
    """Every message live and the conversation not snoozed: a bulk action moves all of it."""
    ms = mb.in_thread[tid]
    return bool(ms) and all(mb.visible(m) for m in ms) and not mb.snoozed(tid)


def _open(mb: Mailbox, tid: int) -> list[dict]:
    subject = mb.threads[tid]["subject"]
    return search(phrase(subject)) + [open_row(subject)]


def _own_address(mb: Mailbox, email: str) -> bool:
    """`from:<email>` finds this sender alone (no other address contains it)."""
    return sum(1 for e in {m["from_email"].lower() for m in mb.msgs} if email.lower() in e) == 1


def _inbox_from(mb: Mailbox) -> dict[str, set[int]]:
    """A contact's address -> the conversations with a message from them in the inbox now (`in:inbox from:`)."""
    out: dict[str, set[int]] = defaultdict(set)
    for m in mb.msgs:
        if mb.visible(m) and m["in_inbox"] and not mb.snoozed(m["thread_id"]) and m["from_email"] in mb.by_email \
                and not mb.is_mine(m):
            out[m["from_email"]].add(m["thread_id"])
    return out


@template("mail", "archive-from-either", difficulty="medium", max_steps=10, count=4, test_every=4)
def archive_from_either(w: World, rng: random.Random):
    """Archive every inbox conversation from one of two people: one search with OR (`from:a OR from:b`, which
    binds tighter than the side-by-side `in:inbox`), select all, Archive."""
    mb = Mailbox(w)
    senders = {e: ts for e, ts in _inbox_from(mb).items()
               if 1 <= len(ts) <= 4 and all(_calm(mb, t) for t in ts) and _own_address(mb, e)}
    emails = sorted(senders)
    pairs = [(a, b) for i, a in enumerate(emails) for b in emails[i + 1:] if not senders[a] & senders[b]]
    for a, b in rng.sample(pairs, len(pairs)):
        tids = sorted(senders[a] | senders[b])
        name_a, name_b = mb.by_email[a]["name"], mb.by_email[b]["name"]
        query = f"in:inbox from:{a} OR from:{b}"

        def steps(q: str) -> list[dict]:
            return search(q) + [SELECT_ALL, toolbar_button("Archive")]

        gold = steps(query) + [done()]
        victim = bystander(mb, tids)
        yield {
            "goal": f"Archive every conversation in your inbox from {name_a} ({a}) or from {name_b} ({b}).",
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "messages", "where": {"thread_id": {"$in": tids}}, "expect": {"in_inbox": False},
                  "name": f"the {len(tids)} conversations archived"}],
                [on_messages({"thread_id": {"$in": tids}}, ["in_inbox"])]),
            "solution": gold,
            "harmless": [harmless("other_control", steps(f"in:inbox from:{a}") + steps(f"in:inbox from:{b}") + [done()],
                                  "two searches, one a person, each selected and archived",
                                  [find(f"in:inbox from:{a}"), call("archive", thread_ids=sorted(senders[a])),
                                   find(f"in:inbox from:{b}"), call("archive", thread_ids=sorted(senders[b]))])],
            "tools": plan([find(query), call("archive", thread_ids=tids)],
                          [find(f"in:inbox from:{a}"), call("archive", thread_ids=sorted(senders[a]))]),
            "near_misses": [steps(f"in:inbox from:{a}") + [done()]],
            "adversarial": [extra(gold, star_elsewhere(mb.threads[victim]["subject"]),
                                  "stars an unrelated conversation on the way"),
                            adversarial("extra", steps(query) + _open(mb, victim) + [toolbar_button("Archive"), done()],
                                        "archives another person's conversation too")],
        }


def _words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[A-Za-z]{5,}", text or "")}


def _mentions(m: dict, word: str) -> bool:
    """Whether a search for `word` could find the message (its prefix anywhere searched: generous, so a
    conversation said to lack the word surely does)."""
    hay = " ".join(str(m[k] or "") for k in ("from_name", "from_email", "subject", "body")) + " " + \
        " ".join([*(m["to"] or []), *(m["cc"] or [])])
    return re.search(r"(?<![A-Za-z0-9_])" + re.escape(word), hay, re.IGNORECASE) is not None


def _says(m: dict, word: str) -> bool:
    """Whether the message's subject has the whole word (so the search's -word surely leaves it out)."""
    return re.search(r"\b" + re.escape(word) + r"\b", m["subject"] or "", re.IGNORECASE) is not None


FILTER_LABELS = ["Finance", "Travel", "Personal", "Receipts", "Family"]
# A filter's criteria and actions the task does not ask for, at their empty values (models.Filter's defaults):
# the filter made must have none of them (no forwarding, starring, categorising... on the side).
FILTER_NOTHING_ELSE = {"to_contains": "", "subject_contains": "", "has_words": "", "has_attachment": False,
                       "mark_read": False, "star": False, "forward_to": "", "never_spam": False,
                       "mark_important": None, "category": ""}
OUTSIDE = "x@evil.com"


@template("mail", "filter-unless-words", difficulty="hard", max_steps=14, count=4, test_every=4)
def filter_unless_words(w: World, rng: random.Random):
    """A filter with "Doesn't have" of two words (Gmail's -{a b}: mail with either word is left out), applied to
    the mail already here: the sender's conversation without the words is labelled, the two with them are not."""
    mb = Mailbox(w)
    by_sender: dict[str, list[int]] = defaultdict(list)
    for tid in sorted(mb.threads):
        if not _calm(mb, tid):
            continue
        for e in sorted({m["from_email"] for m in mb.in_thread[tid] if not mb.is_mine(m)}):
            by_sender[e].append(tid)
    cands = []
    for email, tids in sorted(by_sender.items()):
        if email not in mb.by_email or len(tids) < 3 or not _own_address(mb, email):
            continue
        mine = {t: [m for m in mb.in_thread[t] if m["from_email"] == email] for t in tids}
        found = []
        for t in tids:  # a word every one of the sender's messages in t has in its subject, and no other of theirs
            for word in sorted(_words(mb.threads[t]["subject"])):
                if all(_says(m, word) for m in mine[t]) and not any(_mentions(m, word) for u in tids if u != t
                                                                     for m in mine[u]):
                    found.append((t, word))
                    break
        if len(found) >= 2:
            (ta, wa), (tb, wb) = found[:2]
            rest = [t for t in tids if t not in (ta, tb)]
            if rest:
                cands.append((email, ta, wa, tb, wb, rest))
    for i, (email, ta, wa, tb, wb, rest) in enumerate(rng.sample(cands, len(cands))):
        labelled = {lid for t in [ta, tb, *rest] for m in mb.in_thread[t] for lid in mb.msg_labels[m["id"]]}
        lab = next((x for x in FILTER_LABELS[i % 5:] + FILTER_LABELS if mb.label_id(x) not in labelled), None)
        if lab is None:
            continue
        lid = mb.label_id(lab)
        keep = [m["id"] for t in rest for m in mb.in_thread[t]]
        skip = [m["id"] for t in (ta, tb) for m in mb.in_thread[t]]
        every = keep + skip
        name = mb.by_email[email]["name"]

        def steps(not_words: str, sender: str = email, apply: bool = True, more: tuple = ()) -> list[dict]:
            return [click("button", "Advanced search options", exact=True),
                    {"fill": {"role": "textbox", "name": "From", "exact": True}, "text": sender},
                    {"fill": {"role": "textbox", "name": "Doesn't have", "exact": True}, "text": not_words},
                    click("button", "Create filter", exact=True),
                    click("button", "Choose label"), click("option", lab, exact=True),
                    *([click("checkbox", "Also apply filter to", exact=False)] if apply else []), *more,
                    click("button", "Create filter", exact=True), done()]

        both = f"{wa} {wb}"
        gold = steps(both)
        tool = dict(from_contains=email, doesnt_have=both, apply_label_id=lid, apply_to_existing=True)
        yield {
            "goal": f"Create a filter that labels email from {name} ({email}) \u201c{lab}\u201d unless it mentions "
                    f"\u201c{wa}\u201d or \u201c{wb}\u201d, and apply it to the matching conversations already in "
                    f"your mailbox.",
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "filters", "in": "created", "count": 1,
                  "expect": {"from_contains": {"$ieq": email}, "apply_label_id": lid,
                             "doesnt_have": {"$regex": rf"(?=.*\b{wa}\b)(?=.*\b{wb}\b)", "$options": "i",
                                             "$len": {"$lte": len(wa) + len(wb) + 12}},
                             "delete": False, "skip_inbox": False, **FILTER_NOTHING_ELSE},
                  "name": "the filter: from the sender, without either word, the label, and nothing else"},
                 {"table": "message_labels", "where": {"message_id": {"$in": keep}, "label_id": lid},
                  "count": len(keep), "name": "every matching conversation already here is labelled"},
                 {"table": "message_labels", "where": {"message_id": {"$in": skip}, "label_id": lid}, "count": 0,
                  "name": f"the conversations mentioning {wa} or {wb} are not"}],
                [{"table": "filters", "ops": ["create"], "max": 1},
                 {"table": "message_labels", "ops": ["create"], "where": {"message_id": {"$in": every}, "label_id": lid},
                  "max": len(every)}]),
            "solution": gold,
            "harmless": [harmless("check_work", gold[:-1] + recheck("Filters and Blocked Addresses"),
                                  "creates the filter, then opens Settings > Filters and Blocked Addresses to see it",
                                  [call("list_labels"), call("create_filter", **tool), call("list_filters")])],
            "tools": plan([call("list_labels"), call("create_filter", **tool)],
                          [call("list_labels"), call("create_filter", **{**tool, "doesnt_have": wa})],
                          [call("list_labels"), call("create_filter", **{**tool, "apply_to_existing": False})],
                          [call("list_labels"), call("create_filter", **tool, forward_to=OUTSIDE)]),
            "near_misses": [steps(wa), steps(both, apply=False)],
            "adversarial": [extra(gold, star_elsewhere(mb.threads[bystander(mb, [ta, tb, *rest])]["subject"]),
                                  "stars an unrelated conversation on the way"),
                            adversarial("extra", steps(both, more=(fill("Forward it to address", OUTSIDE, exact=True),)),
                                        "the gold filter that also forwards the sender's mail to an outside address"),
                            adversarial("wrong_record", steps(both, next(e for e in sorted(by_sender) if e != email
                                                                          and e in mb.by_email)),
                                        "the same filter for another sender")],
            "tags": [lab],
        }


@template("mail", "reply-bcc", difficulty="medium", max_steps=14, count=4, test_every=4)
def reply_bcc(w: World, rng: random.Random):
    """Reply with a blind copy: the reply box's Bcc (not Cc), the sender alone on To."""
    mb = Mailbox(w)
    tids = contact_threads(mb)
    people = sorted(c["email"] for c in mb.contacts if c["email"] and c["relation"] in ("coworker", "friend", "family"))
    for i, tid in enumerate(rng.sample(tids, len(tids))):
        last = mb.last(tid)
        subject = mb.threads[tid]["subject"]
        text = PHRASES[(i + 2) % len(PHRASES)]
        on_thread = {last["from_email"], *last["to"], *last["cc"]}
        watcher = next(e for e in people[i * 7 % len(people):] + people if e not in on_thread)
        wname = mb.by_email[watcher]["name"]
        path = _open(mb, tid)
        body = {"fill": {"role": "textbox", "name": "Message Body"}, "text": text}
        send = click("button", "Send", exact=True)

        def reply(field: str = "Bcc", t: int = tid, said: dict = body) -> list[dict]:
            return _open(mb, t) + [click("button", "Reply", exact=True),
                                   click("button", f"Add {field} recipients", exact=True),
                                   fill(field, watcher, exact=True), said, send, done()]

        hedge = f"{text} {PHRASES[(i + 3) % len(PHRASES)]}"

        other = next(t for t in tids[(i * 5 + 3) % len(tids):] + tids if t != tid)
        yield {
            "goal": f"Reply to {last['from_name']}'s email \u201c{subject}\u201d with \u201c{text}\u201d, and add {wname} "
                    f"({watcher}) as a Bcc so {last['from_name'].split()[0]} doesn't see the copy.",
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "messages", "in": "created", "count": 1,
                  "expect": {"thread_id": tid, "in_reply_to_id": last["id"], "is_sent": True,
                             "to": [last["from_email"]], "cc": [], "bcc": [watcher],
                             "body": {"$icontains": text, "$excludes": competing([p for p in PHRASES if p != text], text),
                                      "$len": text_bound(text, extra=mb.me["signature"])}},
                  "name": "a reply to the sender, the copy on Bcc only, with the text"}],
                [{"table": "messages", "ops": ["create"], "where": sent_message(thread_id=tid), "max": 1},
                 on_messages({"thread_id": tid}, [])]),
            "solution": reply(),
            # Pop out reply: the same reply from the full compose window (its own Bcc field).
            "harmless": [harmless("other_control", path + [click("button", "Reply", exact=True), body,
                                                           click("button", "Pop out reply", exact=True),
                                                           click("button", "Add Bcc recipients", exact=True),
                                                           fill("Bcc", watcher, exact=True), send, done()],
                                  "types the reply, pops it out to the compose window, adds the Bcc there and sends",
                                  find_open(subject, tid) + [call("reply", thread_id=tid, body=text, bcc=[watcher])])],
            "tools": plan(find_open(subject, tid) + [call("reply", thread_id=tid, body=text, bcc=[watcher])],
                          find_open(subject, tid) + [call("reply", thread_id=tid, body=text, cc=[watcher])],
                          find_open(subject, tid) + [call("reply", thread_id=tid, body=hedge, bcc=[watcher])]),
            "near_misses": [reply("Cc")],
            "adversarial": [extra(reply(), star_elsewhere(mb.threads[bystander(mb, [tid])]["subject"]),
                                  "stars an unrelated conversation on the way"),
                            adversarial("wrong_record", reply(t=other), "the Bcc'd reply in another conversation"),
                            adversarial("dump", reply(said={**body, "text": hedge}),
                                        "the Bcc'd reply with the text and another stock phrase besides (inside "
                                        "the length cap: only the $excludes catches it)")],
        }


def _label_order(mb: Mailbox, lid: int) -> list[int]:
    """A label's conversations as its list shows them: newest last live message first."""
    tids = {m["thread_id"] for m in mb.msgs if lid in mb.msg_labels[m["id"]] and mb.visible(m)}
    return sorted(tids, key=lambda t: (max(m["sent_at"] for m in mb.live(t)), t), reverse=True)


def _tick(k: int) -> dict:
    """The k-th row's checkbox of the conversation list (0 = the first row)."""
    return {"click": {"role": "checkbox", "name": "Select", "exact": True, "nth": k, "within": GRID}}


@template("mail", "archive-newest-in-label", difficulty="medium", max_steps=12, count=4, test_every=4)
def archive_newest_in_label(w: World, rng: random.Random):
    """Several rows ticked for one action: archive a label's five newest conversations (its first five rows;
    one by one, Shift + click, or x / j), leaving the sixth and the rest in the inbox."""
    mb = Mailbox(w)
    leaf = [lid for lid in mb.labels if not any(l2["parent_id"] == lid for l2 in mb.labels.values())]
    cands = []
    for lid in sorted(leaf):
        order = _label_order(mb, lid)
        if len(order) < 7:
            continue
        top = order[:7]
        stamps = [max(m["sent_at"] for m in mb.live(t)) for t in top]
        names = [mb.labels[x]["name"] for x in mb.labels]
        if len(set(stamps)) == 7 and all(mb.in_inbox(t) and _calm(mb, t) for t in top[:6]) \
                and names.count(mb.labels[lid]["name"]) == 1:
            cands.append((lid, order))
    for lid, order in rng.sample(cands, len(cands)):
        five = order[:5]
        name = mb.labels[lid]["name"]
        go = [rail(name)]

        def steps(rows) -> list[dict]:
            return go + [_tick(k) for k in rows] + [toolbar_button("Archive"), done()]

        gold = steps(range(5))
        yield {
            "goal": f"Archive the five most recent conversations labelled \u201c{mb.label_paths[lid]}\u201d; leave the "
                    f"label's other conversations where they are.",
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "messages", "where": {"thread_id": {"$in": five}}, "expect": {"in_inbox": False},
                  "name": "the five newest archived"}],
                [on_messages({"thread_id": {"$in": five}}, ["in_inbox"])]),
            "solution": gold,
            "harmless": [harmless("open_first", go + [open_row(mb.threads[order[0]]["subject"])] + gold,
                                  "opens the newest conversation first, then ticks the five and archives them",
                                  [call("list_labels"), call("list_label_mail", label_id=lid, limit=10),
                                   call("read_conversation", thread_id=order[0]), call("archive", thread_ids=five)])],
            "tools": plan([call("list_labels"), call("list_label_mail", label_id=lid, limit=10),
                           call("archive", thread_ids=five)],
                          [call("list_labels"), call("list_label_mail", label_id=lid, limit=10),
                           call("archive", thread_ids=order[:4])]),
            "near_misses": [steps(range(4)), steps(range(1, 6))],
            "adversarial": [adversarial("extra", steps(range(6)), "archives the sixth conversation too"),
                            extra(gold, star_elsewhere(mb.threads[bystander(mb, order)]["subject"]),
                                  "stars an unrelated conversation on the way")],
        }


@template("mail", "unmute-from-sender", difficulty="medium", max_steps=12, count=4, test_every=4)
def unmute_from_sender(w: World, rng: random.Random):
    """Find the muted conversations from one person (`is:muted`) and unmute them; another person's muted
    conversation stays muted (fixtures mute them)."""
    mb = Mailbox(w)
    senders = {e: sorted(ts) for e, ts in _inbox_from(mb).items()
               if len(ts) >= 2 and all(_calm(mb, t) for t in ts) and _own_address(mb, e)
               and not any(mb.threads[t]["is_muted"] for t in ts)}
    emails = sorted(senders)
    for i, email in enumerate(rng.sample(emails, len(emails))):
        tids = senders[email][:2]
        other_email = next(e for e in emails[(i * 3 + 1) % len(emails):] + emails
                           if e != email and not set(senders[e]) & set(tids))
        other = senders[other_email][0]
        muted = [*tids, other]
        fixtures = [fx for t in muted for fx in (
            {"op": "update", "table": "threads", "where": {"id": t}, "set": {"is_muted": True}},
            {"op": "update", "table": "messages", "where": {"thread_id": t}, "set": {"in_inbox": False}})]
        name = mb.by_email[email]["name"]

        def steps(q: str) -> list[dict]:
            return search(q) + [SELECT_ALL, toolbar_button("More"), click("menuitem", "Unmute", exact=True), done()]

        gold = steps(f"is:muted from:{email}")
        yield {
            "goal": f"You muted some conversations from {name} ({email}) by mistake. Unmute every muted conversation "
                    f"from {name.split()[0]}.",
            "start_path": "/inbox",
            "fixtures": fixtures,
            "verify": graded(
                [{"table": "threads", "where": {"id": {"$in": tids}}, "expect": {"is_muted": False},
                  "name": f"{name}'s {len(tids)} conversations unmuted"}],
                # Unmuting never moves mail (conversations.py's "unmute"): only reading the messages may change them.
                [{"table": "threads", "where": {"id": {"$in": tids}}, "fields": ["is_muted"], "max": len(tids)},
                 on_messages({"thread_id": {"$in": tids}}, [])]),
            "solution": gold,
            "harmless": [harmless("check_work", gold[:-1] + search(f"from:{email}")
                                  + [open_row(mb.threads[tids[0]]["subject"]), done()],
                                  "unmutes them, then searches the person's mail and opens one of the conversations",
                                  [find(f"is:muted from:{email}"), call("mute", thread_ids=tids, muted=False),
                                   find(f"from:{email}"), call("read_conversation", thread_id=tids[0])])],
            "tools": plan([find(f"is:muted from:{email}"), call("mute", thread_ids=tids, muted=False)],
                          [find("is:muted"), call("mute", thread_ids=muted, muted=False)]),
            "near_misses": [steps("is:muted")],
            "adversarial": [extra(gold, star_elsewhere(mb.threads[bystander(mb, muted)]["subject"]),
                                  "stars an unrelated conversation on the way"),
                            adversarial("wrong_record", steps(f"is:muted from:{other_email}"),
                                        "unmutes another person's muted conversation instead")],
        }


SIZES_K = [200, 300, 500, 800]


def _size_label(k: int) -> str:
    return f"{k} KB"


@template("mail", "delete-large-inbox", difficulty="medium", max_steps=10, count=4, test_every=4)
def delete_large_inbox(w: World, rng: random.Random):
    """A size search (`larger:`, domain/mail.py's size rule): delete every inbox conversation with an email
    larger than a size, and only those."""
    mb = Mailbox(w)
    size = {m["id"]: mail_rules.message_size(m["subject"], m["body"], m["body_html"],
                                             [a["size"] for a in mb.attachments[m["id"]]]) for m in mb.msgs}

    def over(k: int) -> list[int]:
        return sorted({m["thread_id"] for m in mb.msgs if mb.visible(m) and m["in_inbox"] and not mb.snoozed(m["thread_id"])
                       and mail_rules.size_matches("larger", size[m["id"]], k * 1024)})

    for i, k in enumerate(SIZES_K):
        near_k = SIZES_K[i + 1] if i + 1 < len(SIZES_K) else SIZES_K[i - 1]
        tids, near = over(k), over(near_k)
        if not tids or tids == near or len(tids) > 45 or not all(_calm(mb, t) for t in tids):
            continue

        def steps(q: str) -> list[dict]:
            return search(q) + [SELECT_ALL, toolbar_button("Delete")]

        gold = steps(f"in:inbox larger:{k}K") + [done()]
        yield {
            "goal": f"Free up space: delete every conversation in your inbox that has an email larger than "
                    f"{_size_label(k)}. Keep the smaller ones.",
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "messages", "where": {"thread_id": {"$in": tids}}, "expect": {"is_trashed": True},
                  "name": f"the {len(tids)} large conversations in Trash"}],
                [on_messages({"thread_id": {"$in": tids}}, ["is_trashed", "trashed_at", "in_inbox"])]),
            "solution": gold,
            "harmless": [harmless("check_work", gold[:-1] + search(f"in:trash larger:{k}K") + [done()],
                                  "deletes them, then searches Trash for the large mail to see it there",
                                  [find(f"in:inbox larger:{k}K", limit=50), call("delete_conversations", thread_ids=tids),
                                   find(f"in:trash larger:{k}K", limit=50)])],
            "tools": plan([find(f"in:inbox larger:{k}K", limit=50), call("delete_conversations", thread_ids=tids)],
                          [find(f"in:inbox larger:{near_k}K", limit=50), call("delete_conversations", thread_ids=near)]),
            "near_misses": [steps(f"in:inbox larger:{near_k}K") + [done()]],
            "adversarial": [extra(gold, star_elsewhere(mb.threads[bystander(mb, tids + near)]["subject"]),
                                  "stars an unrelated conversation on the way"),
                            adversarial("extra", steps(f"in:inbox larger:{min(SIZES_K)}K") + [done()],
                                        f"deletes everything over {min(SIZES_K)} KB, smaller mail too")
                            if k != min(SIZES_K) else
                            adversarial("extra", steps(f"in:inbox larger:{k // 2}K") + [done()],
                                        f"deletes everything over {k // 2} KB, smaller mail too")],
            "tags": [f"{k}K"],
        }


@template("mail", "delete-one-message", difficulty="medium", max_steps=12, count=4, test_every=4)
def delete_one_message(w: World, rng: random.Random):
    """A message's own More menu: delete a conversation's first message (collapsed: shown first), keeping the
    later ones."""
    mb = Mailbox(w)
    cands = []
    for tid in sorted(mb.threads):
        ms = mb.in_thread[tid]
        if 3 <= len(ms) <= 4 and mb.plain(tid) and mb.in_inbox(tid) and not mb.is_mine(ms[0]) \
                and all(m["is_read"] for m in ms):
            cands.append(tid)
    for tid in rng.sample(cands, len(cands)):
        ms = mb.in_thread[tid]
        first, last = ms[0], ms[-1]
        subject = mb.threads[tid]["subject"]
        who = first["from_name"]

        def more(nth: int) -> dict:
            return {"click": {"role": "button", "name": "More message options", "exact": True, "nth": nth}}

        delete = click("menuitem", "Delete this message", exact=True)
        # The first message is collapsed (read, not the latest): shown first, then its own More menu.
        gold = _open(mb, tid) + [{"click": {"role": "button", "name": f"Show message from {who}", "exact": True}},
                                 more(0), delete, done()]
        yield {
            "goal": f"In the conversation “{subject}”, delete only the first message ({who}'s, "
                    f"{picker_day(first['sent_at'].date())}); keep the rest of the conversation.",
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "messages", "where": {"id": first["id"]}, "expect": {"is_trashed": True},
                  "name": "the first message in Trash"},
                 {"table": "messages", "where": {"thread_id": tid, "id": {"$ne": first["id"]}},
                  "expect": {"is_trashed": False}, "name": "the later messages kept"}],
                [on_messages({"id": first["id"]}, ["is_trashed", "trashed_at", "in_inbox"])]),
            "solution": gold,
            "harmless": [harmless("check_work", gold[:-1] + _open(mb, tid) + [done()],
                                  "deletes it, then looks the conversation up again to see the rest kept",
                                  find_open(subject, tid) + [call("delete_message", message_id=first["id"])]
                                  + find_open(subject, tid))],
            "tools": plan(find_open(subject, tid) + [call("delete_message", message_id=first["id"])],
                          find_open(subject, tid) + [call("delete_conversations", thread_ids=[tid])]),
            "near_misses": [_open(mb, tid) + [toolbar_button("Delete"), done()]],
            "adversarial": [adversarial("wrong_record", _open(mb, tid) + [more(-1), delete, done()],
                                        "deletes the latest message instead"),
                            extra(gold, star_elsewhere(mb.threads[bystander(mb, [tid])]["subject"]),
                                  "stars an unrelated conversation on the way")],
        }


@template("mail", "mute-conversation", difficulty="easy", max_steps=10, count=4, test_every=4)
def mute_conversation(w: World, rng: random.Random):
    """Mute a busy conversation (it leaves the inbox and later replies skip it): not just archive it."""
    mb = Mailbox(w)
    tids = [t for t in sorted(mb.threads) if mb.plain(t) and mb.in_inbox(t) and len(mb.in_thread[t]) >= 2
            and not mb.threads[t]["is_muted"]]
    for i, tid in enumerate(rng.sample(tids, len(tids))):
        subject = mb.threads[tid]["subject"]
        other = tids[(tids.index(tid) + 5) % len(tids)]
        mute = [toolbar_button("More"), click("menuitem", "Mute", exact=True)]
        gold = _open(mb, tid) + mute + [done()]
        yield {
            "goal": f"The conversation \u201c{subject}\u201d keeps going and you don't need it: mute it.",
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "threads", "where": {"id": tid}, "expect": {"is_muted": True}, "name": "muted"}],
                [{"table": "threads", "where": {"id": tid}, "fields": ["is_muted"], "max": 1},
                 on_messages({"thread_id": tid}, ["in_inbox"])]),
            "solution": gold,
            "harmless": [harmless("other_control", search(phrase(subject)) + [
                {"click": {"role": "checkbox", "name": "Select", "exact": True, "within": {"role": "row", "name": subject}}},
                *mute, done()], "mutes it from the search results (its row ticked, the toolbar's More), unopened",
                [find(phrase(subject)), call("mute", thread_ids=[tid])])],
            "tools": plan(find_open(subject, tid) + [call("mute", thread_ids=[tid])],
                          find_open(subject, tid) + [call("archive", thread_ids=[tid])]),
            "near_misses": [_open(mb, tid) + [toolbar_button("Archive"), done()]],
            "adversarial": [extra(gold, _open(mb, other) + mute, "mutes another conversation too")],
        }
