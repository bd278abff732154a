"""Multi-view tasks that need several decisions."""

from __future__ import annotations

import datetime as dt
import random
import re

from tasks.templates import World, template
from tasks.templates.harmless import harmless
from tasks.templates.mail._tools import call, find, find_open, plan
from tasks.templates.mail._common import (TOOLBAR, Mailbox, adversarial, bystander, click, competing, date_regex, done,
                                          extra, graded, in_row, long_date, on_messages, open_row, other_dates, phrase,
                                          search, text_bound, toolbar_button)
from tasks.templates.mail.basics import carried_attachments, every_amount, forward_body, forward_steps, invoices, letter

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
        polite = f"Hi,\n\n{note}\n\nThanks,\n{mb.me['name'].split()[0]}"

        def tool_run(item: dict, text: str, archive: bool = True):
            calls = [find(phrase("Contract term") + " " + phrase(item["term_end"])),
                     call("read_conversation", thread_id=item["tid"]),
                     call("forward", thread_id=item["tid"], to=[ap["email"]], body=text),
                     call("change_labels", thread_ids=[item["tid"]], add=[finance])]
            return calls + ([call("archive", thread_ids=[item["tid"]])] if archive else [])

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
            # Finding the vendor may open a few invoices: the reading allowance covers that.
            "verify": graded(
                [{"table": "messages", "in": "created", "count": 1,
                  "expect": {"thread_id": tid, "to": [ap["email"]], "cc": [], "bcc": [], "is_sent": True,
                             "subject": {"$ieq": f"Fwd: {latest['subject']}"},
                             "body": forward_body(mb, tid, amount, inv, note)},
                  "name": f"{company}'s latest invoice forwarded with {amount}"},
                 {"table": "message_labels", "where": {"message_id": {"$in": mids}, "label_id": finance},
                  "count": len(mids), "name": "labelled Finance"},
                 {"table": "messages", "where": {"id": {"$in": mids}}, "expect": {"in_inbox": False, "is_trashed": False},
                  "name": "archived"}],
                [{"table": "messages", "ops": ["create"], "where": {"thread_id": tid, "is_sent": True}, "max": 1},
                 on_messages({"thread_id": tid}, ["in_inbox"]),
                 # "Labels" applies to every message of the conversation, the forward just sent included.
                 {"table": "message_labels", "ops": ["create"], "max": len(mids) + 1,
                  "where": {"label_id": finance, "$or": [{"message_id": {"$in": mids}}, {"message_id": {"$ref": {
                      "table": "messages", "in": "created", "where": {"thread_id": tid}, "field": "id"}}}]}},
                 *carried_attachments(mb, tid)]),
            "solution": run(latest, note),
            "harmless": [harmless("courtesy", run(latest, polite), "a greeting and a sign-off around the note with the amount",
                                  tool_run(latest, polite))],
            "tools": plan(tool_run(latest, note), tool_run(other, f"Please pay this invoice: {other['amount']} is due."),
                          tool_run(latest, "Please pay this invoice."), tool_run(latest, note, archive=False)),
            "near_misses": [run(other, f"Please pay this invoice: {other['amount']} is due."),
                            run(latest, "Please pay this invoice."), run(latest, note, archive=False)],
            "adversarial": [
                adversarial("dump", run(latest, every_amount(inv, amount)), "the invoice amounts of the mailbox in the note"),
                extra(run(latest, note), run(other, f"Please pay this invoice: {other['amount']} is due.")[:-1],
                      "does the same for another vendor's invoice too"),
            ],
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
        other = next(e for e in sorted(per) if e != email)
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
            "verify": graded(
                [{"table": "messages", "where": {"id": {"$in": mids}}, "expect": {"is_trashed": True},
                  "name": f"{len(tids)} conversations in Trash"},
                 {"table": "filters", "in": "created", "count": 1,
                  "expect": {"from_contains": {"$ieq": email}, "delete": True}, "name": "the filter"}],
                [on_messages({"id": {"$in": mids}}, ["is_trashed", "trashed_at", "in_inbox"]),
                 {"table": "filters", "ops": ["create"], "max": 1}]),
            "solution": delete_all + make_filter + [done()],
            # One step for both: the delete filter applied to the sender's mail already here ("Also apply filter
            # to N matching conversations") trashes the very conversations the gold deletes by hand.
            "harmless": [harmless("apply_existing", make_filter[:4] + [click("checkbox", "Also apply filter to"),
                                                                       make_filter[4], done()],
                                  "deletes their emails by applying the new delete filter to the matching "
                                  "conversations", [call("create_filter", from_contains=email, delete_it=True,
                                                         apply_to_existing=True)])],
            "tools": plan([find(f"from:{email}", limit=50), call("delete_conversations", thread_ids=tids),
                           call("create_filter", from_contains=email, delete_it=True)],
                          [find(f"from:{email}", limit=50), call("delete_conversations", thread_ids=tids)],
                          [call("create_filter", from_contains=email, delete_it=True)]),
            "adversarial": [extra(delete_all + make_filter + [done()],
                                  [make_filter[0], {**make_filter[1], "text": other}] + make_filter[2:],
                                  "a second delete filter for another sender")],
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
    # Every flight number the mailbox mentions: a reply listing them all is a dump.
    all_flights = sorted({h.group(1) for m in mb.msgs for h in re.finditer(r"Flight ([A-Z]{2} \d+)", m["body"])})
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
        near = [mb.now.date() + dt.timedelta(days=k) for k in range((day - mb.now.date()).days - 6,
                                                                    (day - mb.now.date()).days + 7)]
        dump = (f"I fly on one of {', '.join(f'{MONTHS[d.month - 1][:3]} {d.day}' for d in near)}, "
                f"flight {' or '.join(([f for f in all_flights if f != flight][:6] + [flight])[::-1])}.")

        def tool_steps(body: str):
            return [find(f'"{city}" flight confirmation'), call("read_conversation", thread_id=m["thread_id"]),
                    *find_open(t["subject"], tid), call("reply", thread_id=tid, body=body)]

        def steps(body: str):
            return search(f'"{city}" flight confirmation') + [open_row(conf_subject)] + search(phrase(t["subject"])) + [
                open_row(t["subject"]), click("button", "Reply", exact=True),
                {"fill": {"role": "textbox", "name": "Message Body"}, "text": body},
                click("button", "Send", exact=True), done()]

        yield {
            "goal": f"{q['from_name']} is asking about your trip to {city}. Reply with the day you fly out and your "
                    f"flight number.",
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "messages", "in": "created", "count": 1,
                  "expect": {"thread_id": tid, "to": [q["from_email"]], "cc": [], "bcc": [], "is_sent": True,
                             "$and": [{"body": {"$regex": re.escape(flight).replace("\\ ", "\\s*"),
                                                "$excludes": competing([f for f in all_flights if f != flight], text)}},
                                      {"body": {"$regex": date_regex(day),
                                                "$excludes": competing(other_dates(mb.now, [day]), text),
                                                "$len": text_bound(text, slack=250, extra=mb.me["signature"])}}]},
                  "name": f"replied with {flight} on {day.isoformat()}"}],
                [{"table": "messages", "ops": ["create"], "where": {"thread_id": tid, "is_sent": True}, "max": 1},
                 on_messages({"thread_id": {"$in": [tid, m["thread_id"]]}}, [])]),
            "solution": steps(text),
            "harmless": [harmless("courtesy", steps(letter(q["from_name"], text, mb.me["name"])),
                                  "a greeting and a sign-off around the day and the flight",
                                  tool_steps(letter(q["from_name"], text, mb.me["name"])))],
            "tools": plan(tool_steps(text), tool_steps(wrong)),
            "near_misses": [steps(wrong)],
            "adversarial": [
                adversarial("dump", steps(dump), "every flight number and every date of the next two months"),
                extra(steps(text), [click("button", "Reply", exact=True),
                                    {"fill": {"role": "textbox", "name": "Message Body"}, "text": wrong},
                                    click("button", "Send", exact=True)], "a second reply with another flight"),
            ],
        }


__all__ = ["in_row"]
