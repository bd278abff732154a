"""Settings: signature, vacation responder, filters, blocked addresses, inbox tabs, page size."""

from __future__ import annotations

import datetime as dt
import random

from tasks.templates import World, template
from tasks.templates.mail._tools import call, find, plan as tool_plan
from tasks.templates.harmless import harmless
from tasks.templates.mail._common import (MONTHS, Mailbox, adversarial, all_settings, click, done, extra, graded, on_messages,
                                          open_row, search, toolbar_button)


def long_day(d: dt.date) -> str:
    """A date as the vacation responder's day fields take it: March 5, 2026."""
    return f"{MONTHS[d.month - 1]} {d.day}, {d.year}"


SAVE = click("button", "Save Changes", exact=True)
def vacation_steps(start: dt.date, last: dt.date, subject: str, body: str, extra: list[dict] = ()) -> list[dict]:
    """Settings > vacation responder on for start..last with this subject and message (`extra` steps before
    Save Changes), then done: the vacation templates' one way through the form."""
    return all_settings() + [
        click("radio", "Vacation responder on", exact=True),
        {"fill": {"role": "textbox", "name": "First day", "exact": True}, "text": long_day(start)},
        {"fill": {"role": "textbox", "name": "Last day", "exact": True}, "text": long_day(last)},
        {"fill": {"role": "textbox", "name": "Vacation subject", "exact": True}, "text": subject},
        {"fill": {"role": "textbox", "name": "Vacation message", "exact": True}, "text": body},
        *extra, SAVE, done()]


def recheck(tab: str | None = None) -> list[dict]:
    """check_work after Save Changes: away to the inbox and back into the settings (that `tab`), to see the
    saved value, then done."""
    return [click("link", "Inbox", within={"role": "navigation", "name": "Mailboxes"}), *all_settings(),
            *([click("tab", tab, exact=True)] if tab else []), done()]


# A harmful extra on the same settings page: show 100 conversations per page (the world has 50).
PAGE_SIZE_100 = [click("button", "Maximum page size"), click("option", "100", exact=True), SAVE]


@template("mail", "signature", difficulty="medium", max_steps=10, count=4, test_every=4)
def signature(w: World, rng: random.Random):
    """Change the email signature (Settings > General > Signature, Save Changes)."""
    mb = Mailbox(w)
    me = mb.me
    first = me["name"].split()[0]
    variants = [
        f"{me['name']}\nSenior Product Manager",
        f"Best,\n{first}",
        f"{me['name']}\n(555) 010-4477",
        f"Cheers,\n{first} | Sent from Inkbox",
        f"{me['name']} | She/her",
        f"Thanks,\n{me['name']}",
    ]
    for i in range(len(variants)):
        text = variants[(i * 5) % len(variants)]
        fill = {"fill": {"role": "textbox", "name": "Signature", "exact": True}, "text": text}
        if "\n" in text:
            a, b = text.split("\n", 1)
            goal = f"Change your email signature to two lines: \u201c{a}\u201d and, below it, \u201c{b}\u201d."
        else:
            goal = f"Change your email signature to \u201c{text}\u201d."
        yield {
            "goal": goal,
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "account", "where": {"id": 1}, "expect": {"signature": {"$regex": "^\\s*" + _re(text) + "\\s*$"}},
                  "name": "new signature saved"}],
                [{"table": "account", "where": {"id": 1}, "fields": ["signature"]}]),
            "solution": all_settings() + [fill, SAVE, done()],
            "harmless": [harmless("check_work", all_settings() + [fill, SAVE] + recheck(),
                                  "saves it, then leaves and reopens the settings to see the new signature",
                                  [call("get_settings"), call("update_settings", signature=text), call("get_settings")])],
            "tools": tool_plan([call("get_settings"), call("update_settings", signature=text)],
                          [call("get_settings")],
                          [call("update_settings", signature=variants[(i * 5 + 1) % len(variants)])]),
            "adversarial": [extra(all_settings() + [fill, SAVE, done()], PAGE_SIZE_100,
                                  "changes the page size as well")],
            "near_misses": [all_settings() + [fill, click("link", "Cancel", exact=True), done()]],
        }


def _re(text: str) -> str:
    import re

    return r"\s*\n\s*".join(re.escape(line.strip()) for line in text.split("\n"))


@template("mail", "vacation-responder", difficulty="hard", max_steps=22, count=3, test_every=3)
def vacation_responder(w: World, rng: random.Random):
    """Turn on the vacation responder for given days with a subject and message."""
    mb = Mailbox(w)
    for i in range(3):
        start = (mb.now + dt.timedelta(days=rng.randint(5, 15))).date()
        end = start + dt.timedelta(days=rng.randint(4, 9))
        subject = ["Out of office", "On vacation", "Away until " + f"{MONTHS[end.month - 1]} {end.day}"][i]
        body = [f"I'm away until {MONTHS[end.month - 1]} {end.day} with limited access to email.",
                "I'm on vacation and will reply when I'm back. For anything urgent, please call the office.",
                "Thanks for your email. I'm out of the office and will get back to you after my return."][i]

        def steps(last: dt.date):
            return vacation_steps(start, last, subject, body)

        yield {
            "goal": f"Turn on your vacation responder from {long_day(start)} to {long_day(end)} with the subject "
                    f"\u201c{subject}\u201d and the message \u201c{body}\u201d",
            "start_path": "/inbox",
            # The message is given word for word: read it as that text (case and spacing aside), not as
            # a text containing it.
            "verify": graded(
                [{"table": "account", "where": {"id": 1},
                  "expect": {"vacation_enabled": True, "vacation_start": start.isoformat(),
                             "vacation_end": end.isoformat(), "vacation_subject": {"$ieq": subject},
                             "vacation_body": {"$ieq": body}}, "name": "vacation responder on"}],
                [{"table": "account", "where": {"id": 1},
                  "fields": ["vacation_enabled", "vacation_start", "vacation_end", "vacation_subject",
                             "vacation_body", "vacation_contacts_only"]}]),
            "solution": steps(end),
            "harmless": [harmless("check_work", steps(end)[:-1] + recheck(),
                                  "saves it, then leaves and reopens the settings to see the responder on",
                                  [call("set_vacation_responder", enabled=True, first_day=start.isoformat(),
                                        last_day=end.isoformat(), subject=subject, message=body), call("get_settings")])],
            "tools": tool_plan([call("set_vacation_responder", enabled=True, first_day=start.isoformat(), last_day=end.isoformat(),
                                subject=subject, message=body)],
                          [call("set_vacation_responder", enabled=True, first_day=start.isoformat(),
                                last_day=(end + dt.timedelta(days=1)).isoformat(), subject=subject, message=body)]),
            "adversarial": [extra(steps(end), PAGE_SIZE_100, "changes the page size as well")],
            "near_misses": [steps(end + dt.timedelta(days=1))],
        }


@template("mail", "create-filter", difficulty="hard", max_steps=16, count=4, test_every=4)
def create_filter(w: World, rng: random.Random):
    """Create a filter from the advanced search panel: mail from a sender gets actions (skip inbox + label,
    star, mark read, or delete)."""
    mb = Mailbox(w)
    senders = sorted({(m["from_name"], m["from_email"]) for m in mb.msgs if mb.visible(m) and not mb.is_mine(m)
                      and mb.threads[m["thread_id"]]["category"] in ("promotions", "updates", "social")
                      and m["from_email"] not in {f["from_contains"] for f in w.table("filters")}})
    labels = ["Receipts", "Travel", "Finance", "Personal"]
    plans = ["skip+label", "star", "read+label", "delete"]
    for i, (name, email) in enumerate(rng.sample(senders, len(senders))):
        other = next(e for _n, e in senders if e != email)
        plan = plans[i % len(plans)]
        lab = labels[i % len(labels)]
        lid = mb.label_id(lab)
        base = [click("button", "Advanced search options", exact=True),
                {"fill": {"role": "textbox", "name": "From", "exact": True}, "text": email},
                click("button", "Create filter", exact=True)]
        create = click("button", "Create filter", exact=True)
        # "Also apply filter to N matching conversations": emails from X that skip the inbox and get a label, are
        # starred, or are read and labelled reads just as well as the sender's mail already here, so the grader
        # allows the filter's own actions on the conversations it matches now (`_applied`); "deletes every new
        # email" does not, and deleting the old mail too is an adversarial extra.
        applied = _applied(w, mb, email, plan, lid)
        if plan == "skip+label":
            acts = [click("checkbox", "Skip the Inbox (Archive it)"), click("button", "Choose label"), click("option", lab, exact=True)]
            expect = {"skip_inbox": True, "apply_label_id": lid, "delete": False}
            tool_acts, tool_near = {"skip_inbox": True, "apply_label_id": lid}, {"apply_label_id": lid}
            goal = f"Create a filter so that emails from {email} skip the inbox and get the label \u201c{lab}\u201d."
            near = [click("button", "Choose label"), click("option", lab, exact=True)]
        elif plan == "star":
            acts = [click("checkbox", "Star it")]
            expect = {"star": True, "skip_inbox": False, "delete": False}
            tool_acts, tool_near = {"star_it": True}, {"mark_as_read": True}
            goal = f"Create a filter that stars every email from {email}."
            near = [click("checkbox", "Mark as read")]
        elif plan == "read+label":
            acts = [click("checkbox", "Mark as read"), click("button", "Choose label"), click("option", lab, exact=True)]
            expect = {"mark_read": True, "apply_label_id": lid, "skip_inbox": False}
            tool_acts, tool_near = {"mark_as_read": True, "apply_label_id": lid}, {"mark_as_read": True}
            goal = f"Create a filter that marks emails from {email} as read and labels them \u201c{lab}\u201d."
            near = [click("checkbox", "Mark as read")]
        else:
            acts = [click("checkbox", "Delete it")]
            expect = {"delete": True}
            tool_acts, tool_near = {"delete_it": True}, {"skip_inbox": True}
            goal = f"Create a filter that deletes every new email from {email}."
            near = [click("checkbox", "Skip the Inbox (Archive it)")]
        apply = click("checkbox", "Also apply filter to", exact=False)
        existing = base + acts + [apply, create, done()]
        existing_tools = [call("list_labels"), call("create_filter", from_contains=email, apply_to_existing=True, **tool_acts)]
        yield {
            "goal": goal,
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "filters", "in": "created", "count": 1,
                  "expect": {"from_contains": {"$ieq": email}, **expect}, "name": "the filter"}],
                [{"table": "filters", "ops": ["create"], "max": 1}, *applied]),
            "solution": base + acts + [create, done()],
            "tools": tool_plan([call("list_labels"), call("create_filter", from_contains=email, **tool_acts)],
                          [call("list_labels"), call("create_filter", from_contains=email, **tool_near)]),
            "adversarial": [extra(base + acts + [create, done()], [base[0], {**base[1], "text": other}, base[2]] + acts + [create],
                                  "the same filter for another sender too")]
            + ([adversarial("extra", existing, "deletes the sender's mail already here too, not only new email")]
               if plan == "delete" else []),
            "harmless": [harmless("check_work", base + acts + [create] + recheck("Filters and Blocked Addresses"),
                                  "creates the filter, then opens Settings > Filters and Blocked Addresses to see it listed",
                                  [call("list_labels"), call("create_filter", from_contains=email, **tool_acts),
                                   call("list_filters")])] if plan == "delete" else [
                harmless("apply_existing", existing, "also applies the new filter to the sender's mail already here "
                         "(the goal reads that way too)", existing_tools)],
            "near_misses": [base + near + [create, done()]],
            "tags": [plan],
        }


def _applied(w: World, mb: Mailbox, email: str, plan: str, lid: int | None) -> list[dict]:
    """Allowances for a new filter applied to the conversations it matches now (`from:<email>`): its own
    actions (archive, star, mark read, the label) on those conversations' messages, nothing else."""
    if plan == "delete":
        return []
    tids = sorted({m["thread_id"] for m in w.table("messages") if email.casefold() in (m["from_email"] or "").casefold()})
    mids = [m["id"] for m in w.table("messages") if m["thread_id"] in tids]
    fields = {"skip+label": ["in_inbox"], "star": ["is_starred"], "read+label": ["is_read"]}[plan]
    out = [on_messages({"thread_id": {"$in": tids}}, fields)]
    if plan != "star":
        out.append({"table": "message_labels", "ops": ["create"], "where": {"message_id": {"$in": mids}, "label_id": lid},
                    "max": len(mids)})
    return out


@template("mail", "block-sender", difficulty="medium", max_steps=12, count=4, test_every=4)
def block_sender(w: World, rng: random.Random):
    """Block a sender from their email's message menu (future mail goes to Spam)."""
    mb = Mailbox(w)
    blocked = {b["email"] for b in w.table("blocked_senders")}
    cands = []
    for tid in sorted(mb.threads):
        ms = mb.in_thread[tid]
        if len(ms) == 1 and mb.plain(tid) and not mb.is_mine(ms[0]) and ms[0]["from_email"] not in blocked \
                and mb.threads[tid]["category"] in ("promotions", "social", "updates"):
            cands.append(tid)
    used = set()
    for tid in rng.sample(cands, len(cands)):
        m = mb.first(tid)
        if m["from_email"] in used:
            continue
        used.add(m["from_email"])
        subject = mb.threads[tid]["subject"]
        path = search(f"from:{m['from_email']}") + [open_row(subject)]
        o = mb.first(next(t for t in cands if mb.first(t)["from_email"] != m["from_email"]))
        block_other = search(f"from:{o['from_email']}") + [open_row(mb.threads[o["thread_id"]]["subject"]),
                                                           click("button", "More message options", exact=True),
                                                           click("menuitem", f'Block "{o["from_name"]}"', exact=True),
                                                           click("button", "Block", exact=True)]
        block = [click("button", "More message options", exact=True),
                 click("menuitem", f'Block "{m["from_name"]}"', exact=True), click("button", "Block", exact=True)]
        # "so their emails go to Spam" also reads as the sender's emails already here: reporting them as spam
        # too is allowed (their conversations' spam and inbox state, nothing else); reporting without
        # blocking stays the near-miss, and blocking another sender the adversarial.
        theirs = sorted({x["thread_id"] for x in mb.msgs if x["from_email"] == m["from_email"]})
        yield {
            "goal": f"Block {m['from_name']} ({m['from_email']}) so their emails go to Spam.",
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "blocked_senders", "in": "created", "count": 1, "expect": {"email": m["from_email"]},
                  "name": "sender blocked"}],
                [{"table": "blocked_senders", "ops": ["create"], "max": 1},
                 on_messages({"thread_id": {"$in": theirs}}, ["is_spam", "in_inbox"])]),
            "harmless": [harmless("apply_existing", path + block + [toolbar_button("Report spam"), done()],
                                  "blocks the sender and reports their email already here as spam too (the goal "
                                  "reads that way too)",
                                  [find(f"from:{m['from_email']}"), call("read_conversation", thread_id=tid),
                                   call("block_sender", email=m["from_email"]), call("report_spam", thread_ids=[tid])])],
            "tools": tool_plan([find(f"from:{m['from_email']}"), call("read_conversation", thread_id=tid),
                           call("block_sender", email=m["from_email"])],
                          [find(f"from:{m['from_email']}"), call("read_conversation", thread_id=tid),
                           call("report_spam", thread_ids=[tid])]),
            "solution": path + [click("button", "More message options", exact=True),
                                click("menuitem", f'Block "{m["from_name"]}"', exact=True),
                                click("button", "Block", exact=True), done()],
            "adversarial": [extra(path + [click("button", "More message options", exact=True),
                                          click("menuitem", f'Block "{m["from_name"]}"', exact=True),
                                          click("button", "Block", exact=True), done()], block_other,
                                  "blocks another sender too")],
            "near_misses": [path + [click("button", "Report spam", exact=True, within={"role": "toolbar", "name": "Conversation actions"}),
                                    done()]],
        }


@template("mail", "unblock", difficulty="easy", max_steps=10, count=3, test_every=3)
def unblock(w: World, rng: random.Random):
    """Unblock one address in Settings > Filters and Blocked Addresses (others stay blocked)."""
    mb = Mailbox(w)
    pool = sorted({m["from_email"] for m in mb.msgs if mb.threads[m["thread_id"]]["category"] == "promotions"})
    base_id = max((b["id"] for b in w.table("blocked_senders")), default=0)
    for i in range(3):
        added = rng.sample(pool, 3)
        fx = [{"op": "insert", "table": "blocked_senders",
               "rows": [{"id": base_id + 1 + k, "email": e, "blocked_at": (mb.now - dt.timedelta(days=10 + k)).isoformat()}
                        for k, e in enumerate(added)]}]
        target, other = added[i % 3], added[(i + 1) % 3]
        tid = base_id + 1 + (i % 3)

        def steps(e: str):
            return all_settings() + [click("tab", "Filters and Blocked Addresses", exact=True),
                                     click("button", f"Unblock {e}", exact=True), done()]

        yield {
            "goal": f"Unblock {target}; leave the other blocked addresses blocked.",
            "start_path": "/inbox",
            "fixtures": fx,
            "verify": graded(
                [{"table": "blocked_senders", "where": {"email": target}, "count": 0, "name": "unblocked"}],
                [{"table": "blocked_senders", "ops": ["delete"], "where": {"id": tid}, "max": 1}]),
            "solution": steps(target),
            "harmless": [harmless("check_work", steps(target)[:-1] + recheck("Filters and Blocked Addresses"),
                                  "unblocks it, then leaves and reopens the blocked addresses to see it gone",
                                  [call("list_blocked_senders"), call("unblock_sender", email=target),
                                   call("list_blocked_senders")])],
            "tools": tool_plan([call("list_blocked_senders"), call("unblock_sender", email=target)],
                          [call("list_blocked_senders"), call("unblock_sender", email=other)]),
            "adversarial": [extra(steps(target), [click("button", f"Unblock {other}", exact=True)],
                                  "unblocks another address too")],
            "near_misses": [steps(other)],
        }


@template("mail", "inbox-settings", difficulty="medium", max_steps=10, count=3, test_every=3)
def inbox_settings(w: World, rng: random.Random):
    """Inbox tabs and page size: turn off a category tab, or show N conversations per page."""
    plans = [("tab_social", "Social"), ("page_size", 25), ("tab_promotions", "Promotions")]
    for field, value in plans:
        if field == "page_size":
            steps = all_settings() + [click("button", "Maximum page size"), click("option", str(value), exact=True), SAVE, done()]
            near = all_settings() + [click("button", "Maximum page size"), click("option", "20", exact=True), SAVE, done()]
            goal = f"Change your settings to show {value} conversations per page."
            expect = {"page_size": value}
            harm = [click("tab", "Inbox", exact=True), click("checkbox", "Social", exact=True),
                    click("button", "Save Changes", exact=True)]
        else:
            steps = all_settings() + [click("tab", "Inbox", exact=True), click("checkbox", value, exact=True),
                                      click("button", "Save Changes", exact=True), done()]
            near = all_settings() + [click("tab", "Inbox", exact=True), click("checkbox", "Updates", exact=True),
                                     click("button", "Save Changes", exact=True), done()]
            goal = f"Turn off the {value} tab in your inbox (its mail should show in Primary)."
            expect = {field: False}
            harm = [click("checkbox", "Updates", exact=True), click("button", "Save Changes", exact=True)]
        yield {
            "goal": goal,
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "account", "where": {"id": 1}, "expect": expect, "name": "setting saved"}],
                [{"table": "account", "where": {"id": 1}, "fields": [field]}]),
            "solution": steps,
            "harmless": [harmless("check_work", steps[:-1] + recheck(None if field == "page_size" else "Inbox"),
                                  "saves it, then looks at the inbox and reopens the settings to see it took",
                                  [call("get_settings"), call("update_settings", **{field: value if field == "page_size" else False}),
                                   call("get_settings")])],
            "tools": tool_plan([call("get_settings"), call("update_settings", **{field: value if field == "page_size" else False})],
                          [call("get_settings"), call("update_settings", **({"page_size": 20} if field == "page_size"
                                                                            else {"tab_updates": False}))]),
            "adversarial": [extra(steps, harm, "turns another setting off too")],
            "near_misses": [near],
        }
