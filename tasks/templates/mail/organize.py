"""Organising mail: read state, importance, spam, Trash, labels, moving, snoozing."""

from __future__ import annotations

import datetime as dt
import random

from apps.mail.formatting import snooze_options
from tasks.templates import World, template
from tasks.templates.harmless import harmless
from tasks.templates.mail._tools import call, find, find_open, plan
from tasks.templates.mail._common import (TOOLBAR, Mailbox, bystander, click, done, extra, graded, in_row, iso,
                                          more_then, on_messages, open_row, phrase, picker_day, rail, search,
                                          star_elsewhere, toolbar_button)


def _pick(mb: Mailbox, rng: random.Random, ok) -> list[int]:
    tids = [tid for tid in sorted(mb.threads) if mb.plain(tid) and ok(tid)]
    return rng.sample(tids, len(tids))


def _received(mb: Mailbox, tid: int) -> list[int]:
    return [m["id"] for m in mb.in_thread[tid] if not mb.is_mine(m)]


def _open(mb: Mailbox, tid: int, scope: str = "") -> list[dict]:
    """Search the conversation (where `scope` says it is, e.g. 'in:spam'; check_work's look after the change)
    and open it."""
    subject = mb.threads[tid]["subject"]
    return search(f"{scope} {phrase(subject)}" if scope else phrase(subject)) + [open_row(subject)]



def _t_open(mb: Mailbox, tid: int, scope: str = "") -> list[dict]:
    """Tool mode's _open: search the subject, read the conversation."""
    return find_open(mb.threads[tid]["subject"], tid, scope)


@template("mail", "mark-unread", difficulty="easy", max_steps=10, count=4, test_every=4)
def mark_unread(w: World, rng: random.Random):
    """Mark a read conversation as unread: its messages may become unread, no other's may."""
    mb = Mailbox(w)
    tids = _pick(mb, rng, lambda t: mb.in_inbox(t) and all(m["is_read"] for m in mb.in_thread[t]))
    for i, tid in enumerate(tids):
        subject = mb.threads[tid]["subject"]
        other = tids[(i + 7) % len(tids)]
        yield {
            "goal": f"Mark the conversation \u201c{subject}\u201d as unread.",
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "messages", "where": {"thread_id": tid}, "expect": {"is_read": False},
                  "name": "every message unread"}],
                [on_messages({"thread_id": tid}, [])], unread_ok=[tid]),
            "solution": _open(mb, tid) + [toolbar_button("Mark as unread"), done()],
            # Marking it unread from its row in the search results (never opened) ends the same; in tool mode,
            # "mark unread from here" on its first message.
            "harmless": [harmless("other_control", search(phrase(subject)) + [
                in_row("checkbox", "Select", subject), toolbar_button("Mark as unread"), done()],
                "marks it unread from the search results (its row's checkbox and the toolbar), without opening it",
                [find(phrase(subject)), call("mark_unread_from", message_id=mb.in_thread[tid][0]["id"])])],
            "tools": plan(_t_open(mb, tid) + [call("mark_read", thread_ids=[tid], read=False)],
                          _t_open(mb, tid) + [call("archive", thread_ids=[tid])],
                          _t_open(mb, other) + [call("mark_read", thread_ids=[other], read=False)]),
            "near_misses": [_open(mb, tid) + [toolbar_button("Archive"), done()],
                            _open(mb, other) + [toolbar_button("Mark as unread"), done()]],
            "adversarial": [extra(_open(mb, tid) + [toolbar_button("Mark as unread"), done()],
                                  _open(mb, other) + [toolbar_button("Mark as unread")],
                                  "marks another conversation unread too")],
        }


@template("mail", "mark-important", difficulty="easy", max_steps=10, count=4, test_every=4)
def mark_important(w: World, rng: random.Random):
    """Mark a conversation as important with the importance marker in its row."""
    mb = Mailbox(w)
    tids = _pick(mb, rng, lambda t: mb.in_inbox(t) and not any(m["is_important"] for m in mb.in_thread[t]))
    for i, tid in enumerate(tids):
        subject = mb.threads[tid]["subject"]
        mids = [m["id"] for m in mb.live(tid)]
        steps = search(phrase(subject))
        other = mb.threads[tids[(i + 5) % len(tids)]]["subject"]
        yield {
            "goal": f"Mark the conversation \u201c{subject}\u201d as important.",
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "messages", "where": {"id": {"$in": mids}}, "expect": {"is_important": True},
                  "name": "conversation marked important"}],
                [on_messages({"thread_id": tid}, ["is_important"])]),
            "solution": steps + [in_row("button", "Mark as important", subject), done()],
            "harmless": [harmless("open_first", _open(mb, tid) + [toolbar_button("More"),
                                                                  click("menuitem", "Mark as important", exact=True), done()],
                                  "opens the conversation first and marks it important from its More menu",
                                  _t_open(mb, tid) + [call("mark_important", thread_ids=[tid])])],
            "tools": plan([find(phrase(subject)), call("mark_important", thread_ids=[tid])],
                          [find(phrase(subject)), call("star", thread_ids=[tid])]),
            "near_misses": [steps + [in_row("button", "Star", subject), done()]],
            "adversarial": [extra(steps + [in_row("button", "Mark as important", subject), done()],
                                  search(phrase(other)) + [in_row("button", "Mark as important", other)],
                                  "marks another conversation important too")],
        }


@template("mail", "report-spam", difficulty="easy", max_steps=10, count=3, test_every=3)
def report_spam(w: World, rng: random.Random):
    """Report a promotional email as spam (not just delete it)."""
    mb = Mailbox(w)
    tids = _pick(mb, rng, lambda t: mb.in_inbox(t) and mb.threads[t]["category"] in ("promotions", "social"))
    for i, tid in enumerate(tids):
        subject = mb.threads[tid]["subject"]
        sender = mb.first(tid)["from_name"]
        other = tids[(i + 1) % len(tids)]
        yield {
            "goal": f"The email \u201c{subject}\u201d from {sender} is spam. Report it as spam.",
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "messages", "where": {"thread_id": tid}, "expect": {"is_spam": True, "is_trashed": False},
                  "name": "reported as spam"}],
                [on_messages({"thread_id": tid}, ["is_spam", "in_inbox"])]),
            "solution": _open(mb, tid) + [toolbar_button("Report spam"), done()],
            "harmless": [harmless("check_work", _open(mb, tid) + [toolbar_button("Report spam")] + (_open(mb, tid, "in:spam") + [done()]),
                                  "reports it, then looks it up in Spam and opens it there to see that it took",
                                  _t_open(mb, tid) + [call("report_spam", thread_ids=[tid])] + _t_open(mb, tid, "in:spam"))],
            "tools": plan(_t_open(mb, tid) + [call("report_spam", thread_ids=[tid])],
                          _t_open(mb, tid) + [call("delete_conversations", thread_ids=[tid])]),
            "near_misses": [_open(mb, tid) + [toolbar_button("Delete"), done()]],
            "adversarial": [extra(_open(mb, tid) + [toolbar_button("Report spam"), done()],
                                  _open(mb, other) + [toolbar_button("Report spam")],
                                  "reports another promotional conversation as spam too")],
        }


@template("mail", "restore-from-trash", difficulty="easy", max_steps=10, count=4, test_every=4)
def restore_from_trash(w: World, rng: random.Random):
    """Bring a deleted conversation back from Trash to the inbox."""
    mb = Mailbox(w)
    trash = [tid for tid in sorted(mb.threads) if any(m["is_trashed"] for m in mb.in_thread[tid])]
    tids = [tid for tid in trash if all(m["is_trashed"] for m in mb.in_thread[tid])
            and mb.unique_among(tid, trash) and not all(mb.is_mine(m) for m in mb.in_thread[tid])]
    # The Trash list shows its newest 50 conversations: keep those on the first page.
    tids.sort(key=lambda t: max(m["sent_at"] for m in mb.in_thread[t]), reverse=True)
    tids = tids[:40]
    for i, tid in enumerate(rng.sample(tids, len(tids))):
        subject = mb.threads[tid]["subject"]
        path = more_then("Trash") + [open_row(subject)]
        other = mb.threads[[t for t in tids if t != tid][i % (len(tids) - 1)]]["subject"]
        yield {
            "goal": f"You deleted \u201c{subject}\u201d by mistake. Restore it to your inbox.",
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "messages", "where": {"thread_id": tid}, "expect": {"is_trashed": False},
                  "name": "out of Trash"},
                 {"table": "messages", "where": {"id": {"$in": _received(mb, tid)}},
                  "expect": {"in_inbox": True}, "name": "back in the inbox"}],
                [on_messages({"thread_id": tid}, ["is_trashed", "trashed_at", "in_inbox", "is_spam"])]),
            "solution": path + [toolbar_button("Move to Inbox"), done()],
            "harmless": [harmless("check_work", path + [toolbar_button("Move to Inbox")] + (_open(mb, tid, "in:inbox") + [done()]),
                                  "restores it, then looks it up in the inbox and opens it there to see that it took",
                                  _t_open(mb, tid, "in:trash") + [call("move_to_inbox", thread_ids=[tid])]
                                  + _t_open(mb, tid, "in:inbox"))],
            "tools": plan(_t_open(mb, tid, "in:trash") + [call("move_to_inbox", thread_ids=[tid])],
                          _t_open(mb, tid, "in:trash") + [call("delete_forever", thread_ids=[tid])]),
            "near_misses": [path + [toolbar_button("Delete forever"), done()]],
            "adversarial": [extra(path + [toolbar_button("Move to Inbox"), done()],
                                  [rail("Trash"), open_row(other), toolbar_button("Move to Inbox")],
                                  "restores another deleted conversation too")],
        }


def _into_spam(tid: int) -> list[dict]:
    return [{"op": "update", "table": "messages", "where": {"thread_id": tid}, "set": {"is_spam": True, "in_inbox": False}}]


@template("mail", "not-spam", difficulty="easy", max_steps=10, count=3, test_every=3)
def not_spam(w: World, rng: random.Random):
    """A coworker's email landed in Spam (fixture): mark it not spam so it returns to the inbox."""
    mb = Mailbox(w)
    tids = _pick(mb, rng, lambda t: mb.in_inbox(t) and mb.threads[t]["category"] == "primary"
                 and mb.first(t)["from_email"] in mb.by_email and not mb.is_mine(mb.first(t))
                 and mb.last(t)["sent_at"] > mb.now - dt.timedelta(days=20))
    spam = [t for t in sorted(mb.threads) if any(m["is_spam"] and not m["is_trashed"] for m in mb.in_thread[t])]
    spam.sort(key=lambda t: max(m["sent_at"] for m in mb.in_thread[t]), reverse=True)
    spam_subject = next(mb.threads[t]["subject"] for t in spam if mb.threads[t]["subject"])  # the newest: the first row
    for tid in tids:
        subject = mb.threads[tid]["subject"]
        sender = mb.first(tid)["from_name"]
        path = more_then("Spam") + [open_row(subject)]
        yield {
            "goal": f"{sender}'s email \u201c{subject}\u201d ended up in Spam. It isn't spam: move it back to your inbox.",
            "start_path": "/inbox",
            "fixtures": _into_spam(tid),
            "verify": graded(
                [{"table": "messages", "where": {"thread_id": tid}, "expect": {"is_spam": False, "is_trashed": False},
                  "name": "no longer spam"},
                 {"table": "messages", "where": {"id": {"$in": _received(mb, tid)}}, "expect": {"in_inbox": True},
                  "name": "back in the inbox"}],
                [on_messages({"thread_id": tid}, ["is_spam", "in_inbox"])]),
            "solution": path + [toolbar_button("Not spam"), done()],
            "harmless": [harmless("check_work", path + [toolbar_button("Not spam")] + (_open(mb, tid, "in:inbox") + [done()]),
                                  "marks it not spam, then looks it up in the inbox and opens it there to see that it took",
                                  _t_open(mb, tid, "in:spam") + [call("not_spam", thread_ids=[tid])]
                                  + _t_open(mb, tid, "in:inbox"))],
            "tools": plan(_t_open(mb, tid, "in:spam") + [call("not_spam", thread_ids=[tid])],
                          _t_open(mb, tid, "in:spam") + [call("delete_forever", thread_ids=[tid])]),
            "near_misses": [path + [toolbar_button("Delete forever"), done()]],
            "adversarial": [extra(path + [toolbar_button("Not spam"), done()],
                                  [rail("Spam"), open_row(spam_subject), toolbar_button("Not spam")],
                                  "takes a real spam conversation out of Spam too")],
        }


@template("mail", "find-and-restore", difficulty="medium", max_steps=14, count=4, test_every=4)
def find_and_restore(w: World, rng: random.Random):
    """A conversation is missing from the inbox: archived, deleted or in Spam (fixtures). The obvious first
    place to look (Trash) is wrong for some of them; search with in:anywhere finds it wherever it is."""
    mb = Mailbox(w)
    tids = _pick(mb, rng, lambda t: mb.in_inbox(t) and mb.threads[t]["category"] == "primary"
                 and not mb.is_mine(mb.first(t)) and len(mb.in_thread[t]) >= 2)
    kinds = ["spam", "archived", "trash", "spam", "archived"]
    for i, tid in enumerate(tids):
        kind = kinds[i % len(kinds)]
        subject = mb.threads[tid]["subject"]
        if kind == "spam":
            fx, button = _into_spam(tid), "Not spam"
        elif kind == "trash":
            fx = [{"op": "update", "table": "messages", "where": {"thread_id": tid},
                   "set": {"is_trashed": True, "trashed_at": iso(mb.now - dt.timedelta(hours=3)), "in_inbox": False}}]
            button = "Move to Inbox"
        else:
            fx = [{"op": "update", "table": "messages", "where": {"thread_id": tid}, "set": {"in_inbox": False}}]
            button = "Move to Inbox"
        path = search(f"in:anywhere {phrase(subject)}") + [open_row(subject)]
        near = path + [toolbar_button("Delete forever" if kind != "archived" else "Delete"), done()]
        yield {
            "goal": f"I can't find the conversation \u201c{subject}\u201d in my inbox any more. Find it and put it back in the inbox.",
            "start_path": "/inbox",
            "fixtures": fx,
            "verify": graded(
                [{"table": "messages", "where": {"thread_id": tid}, "expect": {"is_spam": False, "is_trashed": False},
                  "name": "not in Spam or Trash"},
                 {"table": "messages", "where": {"id": {"$in": _received(mb, tid)}}, "expect": {"in_inbox": True},
                  "name": "back in the inbox"}],
                [on_messages({"thread_id": tid}, ["is_spam", "in_inbox", "is_trashed", "trashed_at"])]),
            "solution": path + [toolbar_button(button), done()],
            "harmless": [harmless("check_work", path + [toolbar_button(button)] + (_open(mb, tid, "in:inbox") + [done()]),
                                  "puts it back, then looks it up in the inbox and opens it there to see that it took",
                                  _t_open(mb, tid, "in:anywhere") + [call("not_spam" if kind == "spam" else "move_to_inbox",
                                                                          thread_ids=[tid])] + _t_open(mb, tid, "in:inbox"))],
            "tools": plan(_t_open(mb, tid, "in:anywhere") + [call("not_spam" if kind == "spam" else "move_to_inbox",
                                                                  thread_ids=[tid])],
                          _t_open(mb, tid, "in:anywhere") + [call("delete_forever" if kind != "archived"
                                                                  else "delete_conversations", thread_ids=[tid])]),
            "adversarial": [extra(path + [toolbar_button(button), done()],
                                  star_elsewhere(mb.threads[bystander(mb, [tid])]["subject"]),
                                  "stars an unrelated conversation on the way")],
            "near_misses": [near],
            "tags": [f"was:{kind}"],
        }


LABEL_TARGETS = ["Travel", "Receipts", "Personal", "Finance", "Family", "Work/Projects"]


@template("mail", "apply-label", difficulty="medium", max_steps=12, count=4, test_every=4)
def apply_label(w: World, rng: random.Random):
    """Add a label to a conversation with the Labels menu (it stays in the inbox)."""
    mb = Mailbox(w)
    tids = _pick(mb, rng, lambda t: mb.in_inbox(t) and not any(mb.msg_labels[m["id"]] for m in mb.in_thread[t]))
    for i, tid in enumerate(tids):
        path = LABEL_TARGETS[i % len(LABEL_TARGETS)]
        wrong = LABEL_TARGETS[(i + 1) % len(LABEL_TARGETS)]
        lid = mb.label_id(path)
        mids = [m["id"] for m in mb.live(tid)]
        subject = mb.threads[tid]["subject"]
        other = tids[(i + 3) % len(tids)]

        def steps(lab: str, how: str = "Labels", t: int = tid):
            s = _open(mb, t) + [toolbar_button(how)]
            if how == "Labels":
                return s + [click("menuitemcheckbox", lab, exact=True), click("menuitem", "Apply", exact=True), done()]
            return s + [click("menuitem", lab, exact=True), done()]

        yield {
            "goal": f"Label the conversation \u201c{subject}\u201d as \u201c{path}\u201d, keeping it in the inbox.",
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "message_labels", "where": {"message_id": {"$in": mids}, "label_id": lid},
                  "count": len(mids), "name": f"every message labelled {path}"},
                 {"table": "messages", "where": {"id": {"$in": mids}, "in_inbox": True}, "count": {"$gte": 1},
                  "name": "still in the inbox"}],
                [{"table": "message_labels", "ops": ["create"], "where": {"label_id": lid, "message_id": {"$in": mids}},
                  "max": len(mids)},
                 on_messages({"thread_id": tid}, [])]),
            "solution": steps(path),
            "harmless": [harmless("check_work", steps(path)[:-1] + (_open(mb, tid, "in:inbox") + [done()]),
                                  "labels it, then looks it up in the inbox and opens it again to see the label on it",
                                  _t_open(mb, tid) + [call("change_labels", thread_ids=[tid], add=[lid])]
                                  + _t_open(mb, tid, "in:inbox"))],
            "tools": plan(_t_open(mb, tid) + [call("change_labels", thread_ids=[tid], add=[lid])],
                          _t_open(mb, tid) + [call("change_labels", thread_ids=[tid], add=[mb.label_id(wrong)])],
                          _t_open(mb, tid) + [call("move_to_label", thread_ids=[tid], label_id=lid)]),
            "near_misses": [steps(wrong), steps(path, how="Move to")],
            "adversarial": [extra(steps(path), steps(path, t=other)[:-1],
                                  f"labels another conversation {path} too")],
        }


NEW_LABELS = ["Vendors", "Conferences", "Hiring", "Taxes 2026", "Side projects", "Board", "Renewals", "Events"]


@template("mail", "move-domain-to-label", difficulty="medium", max_steps=22, count=4, test_every=4)
def move_domain_to_label(w: World, rng: random.Random):
    """Create a label and move every conversation from one company's domain into it (out of the inbox)."""
    mb = Mailbox(w)
    by_domain: dict[str, set[int]] = {}
    for m in mb.msgs:
        if mb.visible(m) and not mb.is_mine(m) and m["from_email"] in mb.by_email:
            by_domain.setdefault(m["from_email"].split("@")[1], set()).add(m["thread_id"])
    def contact_of(d: str) -> dict:
        return next(c for c in mb.contacts if c["email"].endswith("@" + d))

    # Every sender of the domain is a contact (no hotel newsletters sharing a client's domain).
    outsiders = {m["from_email"].split("@")[1] for m in mb.msgs if m["from_email"] not in mb.by_email}
    domains = [d for d, tids in sorted(by_domain.items())
               if 3 <= len(tids) <= 45 and any(mb.in_inbox(t) for t in tids) and not d.endswith(mb.me["email"].split("@")[1])
               and all(not mb.snoozed(t) for t in tids) and d not in outsiders
               and contact_of(d)["relation"] in ("vendor", "client")]
    for i, domain in enumerate(rng.sample(domains, len(domains))):
        name = NEW_LABELS[i % len(NEW_LABELS)]
        tids = sorted(by_domain[domain])
        mids = [m["id"] for t in tids for m in mb.live(t)]
        company = contact_of(domain)["company"]
        seen = tids[-1]  # every row of the label's search is one of the moved conversations
        new_label = {"$ref": {"table": "labels", "in": "created", "where": {"name": name}, "field": "id"}}
        select_all = {"click": {"role": "checkbox", "name": "Select", "exact": True, "within": TOOLBAR}}

        def steps(how: str = "Move to", pick_all: bool = True):
            s = search(f"from:@{domain}") + [select_all if pick_all else in_row("checkbox", "Select", mb.threads[tids[-1]]["subject"]),
                                             toolbar_button(how), click("menuitem", "Create new", exact=True),
                                             {"fill": {"role": "textbox", "name": "Label name"}, "text": name},
                                             click("button", "Create", exact=True), done()]
            return s

        yield {
            "goal": f"Create a label named \u201c{name}\u201d and move all mail from {company} (@{domain}) into it, "
                    f"out of the inbox.",
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "labels", "in": "created", "where": {"name": name}, "count": 1,
                  "expect": {"parent_id": None}, "name": "the new label"},
                 {"table": "message_labels", "where": {"message_id": {"$in": mids}, "label_id": new_label},
                  "count": len(mids), "name": f"all {len(mids)} messages labelled"},
                 {"table": "messages", "where": {"id": {"$in": mids}}, "expect": {"in_inbox": False, "is_trashed": False},
                  "name": "out of the inbox"}],
                [{"table": "labels", "ops": ["create"], "where": {"name": name}, "max": 1},
                 {"table": "message_labels", "ops": ["create"], "where": {"message_id": {"$in": mids}, "label_id": new_label},
                  "max": len(mids)},
                 on_messages({"thread_id": {"$in": tids}}, ["in_inbox"])]),
            "solution": steps(),
            # Looking the new label up and opening one of its conversations (it is read, or marked read now).
            "harmless": [harmless("check_work", steps()[:-1] + search(f'label:"{name}"')
                                  + [open_row(mb.threads[seen]["subject"]), done()],
                                  "moves them, then searches the new label and opens one of its conversations",
                                  [find(f"from:@{domain}", limit=50), call("create_label", name=name, thread_ids=tids, move=True),
                                   find(f'label:"{name}"'), call("read_conversation", thread_id=seen)])],
            "tools": plan([find(f"from:@{domain}", limit=50), call("create_label", name=name, thread_ids=tids, move=True)],
                          [find(f"from:@{domain}", limit=50), call("create_label", name=name, thread_ids=tids)],
                          [find(f"from:@{domain}", limit=50), call("create_label", name=name, thread_ids=tids[-1:], move=True)]),
            "near_misses": [steps(how="Labels"), steps(pick_all=False)],
            "adversarial": [extra(steps(), _open(mb, bystander(mb, tids)) + [toolbar_button("Move to"),
                                                                              click("menuitem", name, exact=True)],
                                  f"moves a conversation from another sender into {name} too")],
        }


@template("mail", "bulk-mark-read-label", difficulty="medium", max_steps=12, count=4, test_every=4)
def bulk_mark_read_label(w: World, rng: random.Random):
    """Mark every unread conversation with one label as read (Select > Unread, then Mark as read). A few of the
    label's recent conversations are made unread by fixtures, so there are always several."""
    mb = Mailbox(w)
    leaf = [lid for lid in mb.labels if not any(l2["parent_id"] == lid for l2 in mb.labels.values())]
    cands = []
    for lid in sorted(leaf):
        tids = {m["thread_id"] for m in mb.msgs if lid in mb.msg_labels[m["id"]] and mb.visible(m)}
        ordered = sorted(tids, key=lambda t: (max(m["sent_at"] for m in mb.live(t)), t), reverse=True)
        # "Every unread conversation" must be what Select > Unread picks on the label's first page (50 rows): a
        # label with an unread conversation on page 2 left the gold short of the goal, and a careful person
        # who marked that one read too scored 0 (#48), so such labels are not asked about.
        if len(ordered) >= 6 and not any(not m["is_read"] for t in ordered[50:] for m in mb.live(t)):
            cands.append((lid, ordered))
    for lid, ordered in rng.sample(cands, len(cands)):
        made_unread = sorted(rng.sample(ordered[:20], 3))
        unread = sorted({t for t in ordered[:50] if any(not m["is_read"] for m in mb.live(t))} | set(made_unread))
        fixtures = [{"op": "update", "table": "messages", "where": {"thread_id": t}, "set": {"is_read": False}} for t in made_unread]
        path = mb.label_paths[lid]
        leafname = mb.labels[lid]["name"]
        mids = [m["id"] for t in unread for m in mb.live(t)]
        go = [rail(leafname)]
        first = made_unread[0]  # a row of the label's first page: read or one of `unread`, so opening it is allowed
        sel = [click("button", "Select options", exact=True), click("menuitem", "Unread", exact=True)]
        yield {
            "goal": f"Mark every unread conversation labelled \u201c{path}\u201d as read.",
            "start_path": "/inbox",
            "fixtures": fixtures,
            # Read state is what the task is about: exactly its messages may become read, no others
            # (no reading allowance), so marking the whole inbox read fails.
            "verify": graded(
                [{"table": "messages", "where": {"id": {"$in": mids}}, "expect": {"is_read": True},
                  "name": f"{len(unread)} conversations read"}],
                [on_messages({"id": {"$in": mids}}, [])], read=0),
            "solution": go + sel + [toolbar_button("Mark as read"), done()],
            # Reading one of them first (opening marks it read: one of the task's own rows) before the bulk action.
            "harmless": [harmless("open_first", go + [open_row(mb.threads[first]["subject"])] + go + sel
                                  + [toolbar_button("Mark as read"), done()],
                                  "opens one of the unread conversations first, then marks them all read",
                                  [call("list_labels"), call("list_label_mail", label_id=lid, limit=50),
                                   call("read_conversation", thread_id=first), call("mark_read", thread_ids=unread)])],
            "tools": plan([call("list_labels"), call("list_label_mail", label_id=lid, limit=50),
                           call("mark_read", thread_ids=unread)],
                          [call("list_labels"), call("list_label_mail", label_id=lid, limit=50),
                           call("mark_read", thread_ids=[made_unread[-1]])],
                          [call("list_labels"), call("list_label_mail", label_id=lid, limit=50),
                           call("archive", thread_ids=unread)]),
            "adversarial": [extra(go + sel + [toolbar_button("Mark as read"), done()],
                                  [rail("Inbox")] + sel + [toolbar_button("Mark as read")],
                                  "marks every unread conversation of the inbox read too")],
            "near_misses": [go + [in_row("checkbox", "Select", mb.threads[made_unread[-1]]["subject"], exact=False),
                                  toolbar_button("Mark as read"), done()],
                            go + sel + [toolbar_button("Archive"), done()]],
        }


@template("mail", "empty-folder", difficulty="easy", max_steps=10, count=2, test_every=2)
def empty_folder(w: World, rng: random.Random):
    """Empty the Trash (or delete all spam) for good; nothing outside that folder may change."""
    mb = Mailbox(w)
    for folder in ("Trash", "Spam"):
        if folder == "Trash":
            doomed = [m["id"] for m in mb.msgs if m["is_trashed"]]
            button, goal = "Empty Trash now", "Empty the Trash: delete everything in it forever."
        else:
            doomed = [m["id"] for m in mb.msgs if m["is_spam"] and not m["is_trashed"]]
            button, goal = "Delete all spam messages now", "Delete all the messages in your Spam folder forever."
        first_tid = max((m for m in mb.msgs if m["id"] in set(doomed)), key=lambda m: (m["sent_at"], m["id"]))["thread_id"]
        path = more_then(folder)
        gone = set(doomed)
        # The rows that go with the messages: their labels, attachments, invites, and the conversations
        # left with no message at all. Each allowance is bounded by exactly that many deletes.
        dependants = {t: sum(1 for r in w.table(t) if r["message_id"] in gone)
                      for t in ("message_labels", "attachments", "invites")}
        emptied = [t for t, ms in mb.in_thread.items() if all(m["id"] in gone for m in ms)]
        allow = [{"table": "messages", "ops": ["delete"], "where": {"id": {"$in": doomed}}, "max": len(doomed)}]
        allow += [{"table": t, "ops": ["delete"], "where": {"message_id": {"$in": doomed}}, "max": n}
                  for t, n in dependants.items() if n]
        if emptied:
            allow.append({"table": "threads", "ops": ["delete"], "where": {"id": {"$in": sorted(emptied)}},
                          "max": len(emptied)})
        other_folder, other_button = ("Spam", "Delete all spam messages now") if folder == "Trash" else \
            ("Trash", "Empty Trash now")
        yield {
            "goal": goal,
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "messages", "where": {"id": {"$in": doomed}}, "count": 0,
                  "name": f"the {len(doomed)} messages are gone"}], allow),
            "solution": path + [click("button", button, exact=True), click("button", "OK", exact=True), done()],
            # A look at what goes first: the folder's newest conversation (its first row) opened, then emptied.
            "harmless": [harmless("open_first", path + [open_row(mb.threads[first_tid]["subject"]),
                                                        click("link", f"Back to {folder}"),
                                                        click("button", button, exact=True),
                                                        click("button", "OK", exact=True), done()],
                                  f"opens the newest conversation in {folder} first, then empties the folder",
                                  [call("list_mail", folder=folder.lower()), call("read_conversation", thread_id=first_tid),
                                   call("empty_folder", folder=folder.lower())])],
            "tools": plan([call("list_mail", folder=folder.lower()), call("empty_folder", folder=folder.lower())],
                          [call("list_mail", folder=folder.lower()), call("delete_forever", thread_ids=[first_tid])]),
            "adversarial": [extra(path + [click("button", button, exact=True), click("button", "OK", exact=True), done()],
                                  [rail(other_folder), click("button", other_button, exact=True),
                                   click("button", "OK", exact=True)],
                                  f"empties {other_folder} for good too")],
            "near_misses": [path + [in_row("checkbox", "Select", mb.threads[first_tid]["subject"], exact=True),
                                    toolbar_button("Delete forever"), done()]],
        }


@template("mail", "unsnooze", difficulty="easy", max_steps=10, count=4, test_every=4)
def unsnooze(w: World, rng: random.Random):
    """Bring a snoozed conversation back now (Snoozed > open > Unsnooze)."""
    mb = Mailbox(w)
    snoozed = [t for t in sorted(mb.threads) if mb.snoozed(t)]
    tids = [t for t in snoozed if mb.unique_among(t, snoozed)]
    for i, tid in enumerate(rng.sample(tids, len(tids))):
        subject = mb.threads[tid]["subject"]
        other = [t for t in tids if t != tid][i % (len(tids) - 1)]
        mids = [m["id"] for m in mb.in_thread[tid] if m["snoozed_until"]]

        def steps(t: int):
            return [rail("Snoozed"), open_row(mb.threads[t]["subject"]), toolbar_button("Unsnooze"), done()]

        yield {
            "goal": f"Unsnooze \u201c{subject}\u201d so it is back in your inbox now.",
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "messages", "where": {"id": {"$in": mids}}, "expect": {"snoozed_until": None},
                  "name": "no longer snoozed"}],
                [on_messages({"thread_id": tid}, ["snoozed_until"])]),
            "solution": steps(tid),
            "harmless": [harmless("check_work", steps(tid)[:-1] + (_open(mb, tid, "in:inbox") + [done()]),
                                  "unsnoozes it, then looks it up in the inbox and opens it there to see that it took",
                                  [call("list_mail", folder="snoozed"), call("read_conversation", thread_id=tid),
                                   call("unsnooze", thread_ids=[tid])] + _t_open(mb, tid, "in:inbox"))],
            "tools": plan([call("list_mail", folder="snoozed"), call("read_conversation", thread_id=tid),
                           call("unsnooze", thread_ids=[tid])],
                          [call("list_mail", folder="snoozed"), call("read_conversation", thread_id=other),
                           call("unsnooze", thread_ids=[other])]),
            "near_misses": [steps(other)],
            "adversarial": [extra(steps(tid), steps(other)[:-1], "unsnoozes another conversation too")],
        }


@template("mail", "snooze-preset", difficulty="medium", max_steps=10, count=4, test_every=4)
def snooze_preset(w: World, rng: random.Random):
    """Snooze a conversation with one of the menu's presets (tomorrow, this weekend, next week...)."""
    mb = Mailbox(w)
    opts = snooze_options(mb.now)
    tids = _pick(mb, rng, lambda t: mb.in_inbox(t) and mb.threads[t]["category"] == "primary")
    words = {"later_today": "until later today (6 PM)", "tomorrow": "until tomorrow morning",
             "later_this_week": "until later this week", "this_weekend": "until the weekend (Saturday morning)",
             "next_week": "until next week (Monday morning)"}
    for i, tid in enumerate(tids):
        opt = opts[i % len(opts)]
        wrong = opts[(i + 1) % len(opts)]
        subject = mb.threads[tid]["subject"]
        mids = [m["id"] for m in mb.live(tid)]
        other = tids[(i + 3) % len(tids)]

        def steps(o, t: int = tid):
            return _open(mb, t) + [toolbar_button("Snooze"), click("menuitem", o["label"]), done()]

        yield {
            "goal": f"Snooze the conversation \u201c{subject}\u201d {words[opt['key']]}.",
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "messages", "where": {"id": {"$in": mids}}, "expect": {"snoozed_until": iso(opt["at"])},
                  "name": f"snoozed until {opt['at']}"}],
                [on_messages({"thread_id": tid}, ["snoozed_until", "in_inbox"])]),
            "solution": steps(opt),
            "harmless": [harmless("check_work", steps(opt)[:-1] + [rail("Snoozed"), open_row(subject), done()],
                                  "snoozes it, then opens it from Snoozed to see when it comes back",
                                  _t_open(mb, tid) + [call("snooze", thread_ids=[tid], preset=opt["key"]),
                                                      call("list_mail", folder="snoozed"),
                                                      call("read_conversation", thread_id=tid)])],
            "tools": plan(_t_open(mb, tid) + [call("snooze", thread_ids=[tid], preset=opt["key"])],
                          _t_open(mb, tid) + [call("snooze", thread_ids=[tid], preset=wrong["key"])]),
            "near_misses": [steps(wrong)],
            "adversarial": [extra(steps(opt), steps(opt, t=other)[:-1], "snoozes another conversation too")],
        }


@template("mail", "snooze-custom", difficulty="medium", max_steps=14, count=4, test_every=4)
def snooze_custom(w: World, rng: random.Random):
    """Snooze until a given day and time with the date & time picker."""
    mb = Mailbox(w)
    tids = _pick(mb, rng, lambda t: mb.in_inbox(t) and mb.threads[t]["category"] in ("primary", "updates"))
    times = [(14, 0, "2:00 PM"), (9, 30, "9:30 AM"), (16, 0, "4:00 PM"), (11, 0, "11:00 AM"), (7, 45, "7:45 AM")]
    for i, tid in enumerate(tids):
        other = tids[(i + 3) % len(tids)]
        day = (mb.now + dt.timedelta(days=rng.randint(4, 24))).date()
        h, m, text = times[i % len(times)]
        when = dt.datetime.combine(day, dt.time(h, m))
        subject = mb.threads[tid]["subject"]
        mids = [x["id"] for x in mb.live(tid)]

        def steps(d: dt.date):
            s = _open(mb, tid) + [toolbar_button("Snooze"), click("menuitem", "Pick date & time")]
            if (d.year, d.month) != (mb.now.year, mb.now.month):
                s.append(click("button", "Next month", exact=True))
            return s + [click("button", picker_day(d), exact=True),
                        {"fill": {"role": "textbox", "name": "Time", "exact": True}, "text": text},
                        click("button", "Save", exact=True, within={"role": "dialog", "name": "Pick date & time"}), done()]

        wrong_day = day + dt.timedelta(days=1)
        if wrong_day.month != day.month:
            wrong_day = day - dt.timedelta(days=1)
        yield {
            "goal": f"Snooze \u201c{subject}\u201d until {day.strftime('%A')}, {day.strftime('%B')} {day.day} at {text}.",
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "messages", "where": {"id": {"$in": mids}}, "expect": {"snoozed_until": iso(when)},
                  "name": f"snoozed until {when}"}],
                [on_messages({"thread_id": tid}, ["snoozed_until", "in_inbox"])]),
            "solution": steps(day),
            "harmless": [harmless("check_work", steps(day)[:-1] + [rail("Snoozed"), open_row(subject), done()],
                                  "snoozes it, then opens it from Snoozed to see when it comes back",
                                  _t_open(mb, tid) + [call("snooze", thread_ids=[tid], until=iso(when)),
                                                      call("list_mail", folder="snoozed"),
                                                      call("read_conversation", thread_id=tid)])],
            "tools": plan(_t_open(mb, tid) + [call("snooze", thread_ids=[tid], until=iso(when))],
                          _t_open(mb, tid) + [call("snooze", thread_ids=[tid],
                                                   until=iso(dt.datetime.combine(wrong_day, dt.time(h, m))))]),
            "near_misses": [steps(wrong_day)],
            "adversarial": [extra(steps(day), _open(mb, other) + [toolbar_button("Snooze"),
                                                                  click("menuitem", snooze_options(mb.now)[1]["label"])],
                                  "snoozes another conversation too")],
        }
