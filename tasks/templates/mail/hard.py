"""Multi-view tasks that need several decisions."""

from __future__ import annotations

import datetime as dt
import random
import re

from tasks.templates import World, template
from tasks.templates.mail._common import (TOOLBAR, Mailbox, click, date_regex, done, in_row, long_date, open_row,
                                          phrase, search, toolbar_button)
from tasks.templates.mail.basics import forward_steps, forwarded_with, invoices

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]


@template("mail", "vendor-contract-invoice", difficulty="hard", max_steps=26, count=4, test_every=4)
def vendor_contract_invoice(w: World, rng: random.Random):
    """Find the vendor whose contract ends in a given month (written in its invoices), forward its latest
    invoice to Accounts Payable with the amount in the message, label it Finance and archive it."""
    mb = Mailbox(w)
    inv = invoices(mb)
    ap = next(c for c in mb.contacts if c["email"].startswith("ap@"))
    finance = mb.label_id("Finance")
    by_end: dict[str, str] = {}
    for company, items in inv.items():
        by_end.setdefault(items[0]["term_end"], company)
    ends = sorted(by_end, key=lambda s: dt.datetime.strptime(s, "%B %d, %Y"))

    def eligible(end: str) -> bool:
        tid = inv[by_end[end]][0]["tid"]
        return mb.in_inbox(tid) and not any(finance in mb.msg_labels[m["id"]] for m in mb.in_thread[tid])

    # The near-miss (another vendor's invoice, same steps) needs a conversation the same steps can archive.
    ok_ends = [e for e in ends if eligible(e)]
    for k, end in enumerate(ends):
        company = by_end[end]
        latest = inv[company][0]
        if not eligible(end):
            continue
        d = dt.datetime.strptime(end, "%B %d, %Y").date()
        months = (d.year - mb.now.year) * 12 + d.month - mb.now.month
        when = "this month" if months == 0 else "next month" if months == 1 else f"in {MONTHS[d.month - 1]} {d.year}"
        tid, amount = latest["tid"], latest["amount"]
        mids = [m["id"] for m in mb.live(tid)]
        other_company = by_end[ok_ends[(ok_ends.index(end) + 1) % len(ok_ends)]]
        other = inv[other_company][0]
        note = f"Please pay this invoice: {amount} is due."

        def run(item: dict, text: str, label: bool = True, archive: bool = True):
            s = forward_steps(search(phrase(f"Contract term") + " " + phrase(item["term_end"])) + [open_row(item["subject"])],
                              ap["email"], text)
            if label:
                s += [toolbar_button("Labels"), click("menuitemcheckbox", "Finance", exact=True),
                      click("menuitem", "Apply", exact=True)]
            if archive:
                s.append(toolbar_button("Archive"))
            return s + [done()]

        yield {
            "goal": f"One vendor's contract ends {when}. Forward that vendor's most recent invoice to Accounts Payable "
                    f"({ap['email']}) with the amount due written in your message, then label the invoice conversation "
                    f"\u201cFinance\u201d and archive it.",
            "start_path": "/inbox",
            "verify": {
                "checks": [
                    {"table": "messages", "in": "created", "count": 1,
                     "expect": {"thread_id": tid, "to": [ap["email"]], "is_sent": True, "subject": {"$istartswith": "fwd:"},
                                "body": {"$regex": forwarded_with(amount)}},
                     "name": f"{company}'s latest invoice forwarded with {amount}"},
                    {"table": "message_labels", "where": {"message_id": {"$in": mids}, "label_id": finance},
                     "count": len(mids), "name": "labelled Finance"},
                    {"table": "messages", "where": {"id": {"$in": mids}}, "expect": {"in_inbox": False, "is_trashed": False},
                     "name": "archived"},
                ],
                "unchanged_except": [{"table": "messages", "ops": ["create"]},
                                     {"table": "messages", "where": {"thread_id": tid}, "fields": ["in_inbox"]},
                                     {"table": "message_labels", "ops": ["create"], "where": {"label_id": finance}}],
            },
            "solution": run(latest, note),
            "near_misses": [run(other, f"Please pay this invoice: {other['amount']} is due."),
                            run(latest, "Please pay this invoice."), run(latest, note, archive=False)],
            "tags": [f"vendor:{company}"],
        }


@template("mail", "cleanup-sender", difficulty="hard", max_steps=20, count=3, test_every=3)
def cleanup_sender(w: World, rng: random.Random):
    """Delete everything from a promotional sender and create a filter that deletes their future mail."""
    mb = Mailbox(w)
    per: dict[str, set[int]] = {}
    for m in mb.msgs:
        if mb.visible(m) and mb.threads[m["thread_id"]]["category"] == "promotions" and not mb.is_mine(m):
            per.setdefault(m["from_email"], set()).add(m["thread_id"])
    senders = [e for e, tids in sorted(per.items()) if 3 <= len(tids) <= 45
               and all(len(mb.in_thread[t]) == 1 and not mb.snoozed(t) for t in tids)]
    for email in rng.sample(senders, len(senders)):
        tids = sorted(per[email])
        mids = [m["id"] for t in tids for m in mb.in_thread[t]]
        name = mb.first(tids[0])["from_name"]
        select_all = {"click": {"role": "checkbox", "name": "Select", "exact": True, "within": TOOLBAR}}
        delete_all = search(f"from:{email}") + [select_all, toolbar_button("Delete")]
        make_filter = [click("button", "Advanced search options", exact=True),
                       {"fill": {"role": "textbox", "name": "From", "exact": True}, "text": email},
                       click("button", "Create filter", exact=True), click("checkbox", "Delete it"),
                       click("button", "Create filter", exact=True)]
        yield {
            "goal": f"I never want mail from {name} ({email}) again: delete all of their emails and create a filter "
                    f"that deletes their future emails automatically.",
            "start_path": "/inbox",
            "verify": {
                "checks": [{"table": "messages", "where": {"id": {"$in": mids}}, "expect": {"is_trashed": True},
                            "name": f"{len(tids)} conversations in Trash"},
                           {"table": "filters", "in": "created", "count": 1,
                            "expect": {"from_contains": {"$icontains": email}, "delete": True}, "name": "the filter"}],
                "unchanged_except": [{"table": "messages", "where": {"id": {"$in": mids}},
                                      "fields": ["is_trashed", "trashed_at", "in_inbox"]},
                                     {"table": "filters", "ops": ["create"]}],
            },
            "solution": delete_all + make_filter + [done()],
            "near_misses": [delete_all + [done()], make_filter + [done()]],
        }


FLIGHT_RE = re.compile(r"Flight ([A-Z]{2} \d+): (\w+) to (\w+) \(([^)]+)\)\nDeparts (\w+), (\w+) (\d+) at")


@template("mail", "trip-question", difficulty="hard", max_steps=20, count=3, test_every=3)
def trip_question(w: World, rng: random.Random):
    """A friend asks which day you fly and your flight number: find the confirmation, reply with both."""
    mb = Mailbox(w)
    upcoming: dict[str, list] = {}
    for m in mb.msgs:
        hit = FLIGHT_RE.search(m["body"])
        if not hit or not mb.visible(m):
            continue
        mon = next(x for x in MONTHS if x.startswith(hit.group(6)))
        day = dt.date(m["sent_at"].year, MONTHS.index(mon) + 1, int(hit.group(7)))
        if day < m["sent_at"].date():
            day = dt.date(day.year + 1, day.month, day.day)
        if day >= mb.now.date():
            upcoming.setdefault(hit.group(4), []).append((m, hit.group(1), day))
    for tid, t in sorted(mb.threads.items()):
        if not t["subject"].startswith("Your trip to ") or not mb.in_inbox(tid):
            continue
        city = t["subject"][len("Your trip to "):]
        q = mb.first(tid)
        if len(upcoming.get(city, [])) != 1:
            continue
        m, flight, day = upcoming[city][0]
        text = f"I fly out on {long_date(day)} on flight {flight}."
        wrong = f"I fly out on {long_date(day)} on flight {flight[:-1]}{(int(flight[-1]) + 1) % 10}."
        conf_subject = mb.threads[m["thread_id"]]["subject"]

        def steps(body: str):
            return search(f'"{city}" flight confirmation') + [open_row(conf_subject)] + search(phrase(t["subject"])) + [
                open_row(t["subject"]), click("button", "Reply", exact=True),
                {"fill": {"role": "textbox", "name": "Message Body"}, "text": body},
                click("button", "Send", exact=True), done()]

        yield {
            "goal": f"{q['from_name']} is asking about your trip to {city}. Reply with the day you fly out and your "
                    f"flight number.",
            "start_path": "/inbox",
            "verify": {
                "checks": [{"table": "messages", "in": "created", "count": 1,
                            "expect": {"thread_id": tid, "to": {"$contains": q["from_email"]}, "is_sent": True,
                                       "$and": [{"body": {"$regex": re.escape(flight).replace("\\ ", "\\s*")}},
                                                {"body": {"$regex": date_regex(day)}}]},
                            "name": f"replied with {flight} on {day.isoformat()}"}],
                "unchanged_except": [{"table": "messages", "ops": ["create"]}],
            },
            "solution": steps(text),
            "near_misses": [steps(wrong)],
        }


__all__ = ["in_row"]
