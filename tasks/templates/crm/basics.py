"""Easy CRM tasks: edit one field of one record, follow, complete a task, add a note, create a contact.

Every expected value is read from the world's rows; every template has near-misses that look right
but must grade 0 (the wrong record, the wrong field, the wrong value, the wrong action).
"""

from __future__ import annotations

import random

from tasks.templates import World, template
from tasks.templates.harmless import harmless
from tasks.templates.crm._common import (
    DIALOG, ME, Crm, allow_create, allow_update, button, call, done, dump, dump_text, extra, fill, find, finish, link, lookup,
    neighbour, next_id, open_record, pick, reread, save_modal, tab, tools, written, wrong_record)

NEW_PHONES = ["(415) 555-0198", "(212) 555-0147", "(312) 555-0163", "(206) 555-0112", "(617) 555-0185",
              "(303) 555-0129", "(512) 555-0176", "(404) 555-0141"]


@template("crm", "contact-phone", difficulty="easy", max_steps=20)
def contact_phone(w: World, rng: random.Random):
    """Change the phone number of a named contact (via search, record page, Edit)."""
    crm = Crm(w)
    cands = [c for c in crm.contacts if crm.unique(crm.cname(c)) and c["phone"] and c["mobile"]
             and not crm.has_duplicates("contacts", c)]
    order = rng.sample(cands, len(cands))
    for c in order:
        name = crm.cname(c)
        acc = crm.acc[c["account_id"]]["name"]
        phone = rng.choice([p for p in NEW_PHONES if p != c["phone"]])
        path = open_record(name) + [button("Edit")]
        other = neighbour(order, c, lambda x: x["phone"] != phone)
        other_edit = open_record(crm.cname(other)) + [button("Edit"), fill("Phone", phone), save_modal()]
        solution = path + [fill("Phone", phone), save_modal(), done()]
        yield {
            "goal": f"Change the phone number of contact {name} ({acc}) to {phone}.",
            "start_path": "/lightning/page/home",
            "verify": {
                "checks": [{"table": "contacts", "where": {"id": c["id"]}, "expect": {"phone": phone, "mobile": c["mobile"]},
                            "name": "phone updated"}],
                "unchanged_except": [allow_update("contacts", {"id": c["id"]}, ["phone"])],
            },
            "solution": solution,
            "near_misses": [path + [fill("Mobile", phone), save_modal(), done()]],
            "harmless": [harmless("check_work", solution[:-1] + open_record(name) + [done()],
                                  "opens the contact again after saving to see the new number took",
                                  [find("Contact", name), call("update_record", object="Contact", record_id=c["id"], fields={"phone": phone}),
                                   reread("Contact", c["id"])])],
            "tools": tools([find("Contact", name), call("update_record", object="Contact", record_id=c["id"], fields={"phone": phone}), finish()],
                           [find("Contact", name), call("update_record", object="Contact", record_id=c["id"], fields={"mobile": phone}), finish()]),
            "adversarial": [
                extra(solution, other_edit, f"also gives {crm.cname(other)} the new number (the same edit on another row)"),
                wrong_record(other_edit + [done()], f"changes {crm.cname(other)}'s phone instead"),
            ],
        }


@template("crm", "account-industry", difficulty="easy", max_steps=20)
def account_industry(w: World, rng: random.Random):
    """Set an account's Industry picklist."""
    crm = Crm(w)
    from apps.crm.meta import INDUSTRIES

    cands = [a for a in crm.accounts if crm.unique(a["name"]) and a["industry"]]
    order = rng.sample(cands, len(cands))
    for a in order:
        new = rng.choice([i for i in INDUSTRIES if i != a["industry"]])
        wrong = rng.choice([i for i in INDUSTRIES if i not in (a["industry"], new)])
        path = open_record(a["name"]) + [button("Edit")]
        other = neighbour(order, a, lambda x: x["industry"] != new)
        solution = path + pick("Industry", new) + [save_modal(), done()]
        yield {
            "goal": f"The account {a['name']} is in the wrong industry. Change its industry to {new}.",
            "start_path": "/lightning/o/Account/list",
            "verify": {
                "checks": [{"table": "accounts", "where": {"id": a["id"]}, "expect": {"industry": new}}],
                "unchanged_except": [allow_update("accounts", {"id": a["id"]}, ["industry"])],
            },
            "solution": solution,
            "near_misses": [path + pick("Industry", wrong) + [save_modal(), done()]],
            "harmless": [harmless("check_work", solution[:-1] + open_record(a["name"]) + [done()],
                                  "opens the account again after saving to see the new industry took",
                                  [find("Account", a["name"]),
                                   call("update_record", object="Account", record_id=a["id"], fields={"industry": new}),
                                   reread("Account", a["id"])])],
            "tools": tools([find("Account", a["name"]), call("update_record", object="Account", record_id=a["id"], fields={"industry": new}),
                            finish()],
                           [find("Account", a["name"]), call("update_record", object="Account", record_id=a["id"], fields={"industry": wrong}),
                            finish()]),
            "adversarial": [extra(solution, open_record(other["name"]) + [button("Edit"), *pick("Industry", new), save_modal()],
                                  f"also moves {other['name']} to {new} (the same edit on another account)"),
                            wrong_record(open_record(other["name"]) + [button("Edit"), *pick("Industry", new), save_modal(), done()],
                                         f"moves {other['name']} to {new} instead")],
        }


@template("crm", "lead-status-working", difficulty="easy", max_steps=15)
def lead_status_working(w: World, rng: random.Random):
    """Move a new lead to Working - Contacted with the Path's Mark Status as Complete."""
    crm = Crm(w)
    cands = [x for x in crm.leads if x["status"] == "Open - Not Contacted" and crm.unique(crm.cname(x))]
    order = rng.sample(cands, len(cands))
    for x in order:
        name = crm.cname(x)
        other = crm.cname(neighbour(order, x))
        solution = open_record(name) + [button("Mark Status as Complete"), done()]
        note = f"Reached {x['first_name']} by phone."
        yield {
            "goal": f"You just reached {name} from {x['company']} by phone. Mark the lead's status as Working - Contacted.",
            "start_path": "/lightning/o/Lead/list?filterName=AllOpenLeads",
            # Audit (#48): the goal's first sentence reports a call; logging it on this lead (one Call task) is what a
            # careful person may do beside the status, so it is allowed (the harmless variant logs it).
            "verify": {
                "checks": [{"table": "leads", "where": {"id": x["id"]}, "expect": {"status": "Working - Contacted", "is_converted": False}}],
                "unchanged_except": [allow_update("leads", {"id": x["id"]}, ["status"]),
                                     allow_create("tasks", {"who_type": "Lead", "who_id": x["id"], "task_subtype": "Call"})],
            },
            "solution": solution,
            "harmless": [harmless("comment", solution[:-1] + [tab("Log a Call"), fill("Comments", note, within=None), button("Save"), done()],
                                  "also logs the call the goal reports, on the lead, with a short comment",
                                  [find("Lead", name), call("change_stage_or_status", object="Lead", record_id=x["id"],
                                                            value="Working - Contacted"),
                                   call("log_call", object="Lead", record_id=x["id"], comments=note)])],
            "adversarial": [
                extra(solution, open_record(other) + [button("Mark Status as Complete")], f"also marks {other} as contacted"),
                wrong_record(open_record(other) + [button("Mark Status as Complete"), done()], f"marks {other} instead"),
            ],
            "near_misses": [open_record(name) + [
                {"click": {"role": "option", "name": "Closed", "exact": True}}, button("Select Closed Status"),
                *pick("Lead Status", "Closed - Not Converted"), save_modal(), done()]],
            "tools": tools([find("Lead", name), call("change_stage_or_status", object="Lead", record_id=x["id"], value="Working - Contacted"),
                            finish()],
                           [find("Lead", name), call("change_stage_or_status", object="Lead", record_id=x["id"], value="Closed - Not Converted"),
                            finish()]),
        }


@template("crm", "case-close", difficulty="easy", max_steps=15)
def case_close(w: World, rng: random.Random):
    """Close a case found by its number."""
    crm = Crm(w)
    cands = [c for c in crm.cases if c["status"] in ("New", "Working")]
    order = rng.sample(cands, len(cands))
    # Close Case opens its form (issue 17): Status is already the closed value; Save closes the case.
    close = [button("Show more actions"), {"click": {"role": "menuitem", "name": "Close Case"}}, save_modal()]
    for c in order:
        acc = crm.acc[c["account_id"]]["name"]
        path = open_record(c["case_number"])
        other = neighbour(order, c)
        solution = path + close + [done()]
        note = f"{acc} confirmed the fix."
        yield {
            "goal": f"The customer at {acc} confirmed the fix. Close case {c['case_number']} (\u201c{c['subject']}\u201d).",
            "start_path": "/lightning/o/Case/list?filterName=AllOpenCases",
            # The goal's first sentence invites a note: the Close Case form's Internal Comments may record one
            # private comment on this case (the harmless variant writes it); a published one, or one on another
            # case, is still a change nobody asked for.
            "verify": {
                "checks": [{"table": "cases", "where": {"id": c["id"]}, "expect": {"status": "Closed", "closed_at": {"$ne": None}}}],
                "unchanged_except": [allow_update("cases", {"id": c["id"]}, ["status", "closed_at"]),
                                     allow_create("case_comments", {"case_id": c["id"], "is_published": False})],
            },
            "solution": solution,
            "adversarial": [
                extra(solution, open_record(other["case_number"]) + close, f"also closes case {other['case_number']}"),
                wrong_record(open_record(other["case_number"]) + close + [done()], f"closes case {other['case_number']} instead"),
            ],
            "harmless": [harmless(
                "comment", path + close[:2] + [fill("Internal Comments", note), close[2], done()],
                "closes the case with an internal comment saying why, as the goal's first sentence invites",
                [find("Case", c["case_number"]), call("close_case", case_id=c["id"], comment=note)])],
            "near_misses": [path + [{"click": {"role": "option", "name": "Escalated", "exact": True}},
                                    button("Mark as Current Status"), done()]],
            "tools": tools([find("Case", c["case_number"]), call("change_stage_or_status", object="Case", record_id=c["id"], value="Closed"),
                            finish()],
                           [find("Case", c["case_number"]),
                            call("change_stage_or_status", object="Case", record_id=c["id"], value="Escalated"), finish()]),
        }


@template("crm", "follow-opportunity", difficulty="easy", max_steps=12)
def follow_opportunity(w: World, rng: random.Random):
    """Follow an opportunity (not its account)."""
    crm = Crm(w)
    followed = {(f["object"], f["record_id"]) for f in w.table("follows")}
    cands = [o for o in crm.opps if crm.is_open(o) and crm.unique(o["name"]) and ("Opportunity", o["id"]) not in followed
             and crm.unique(crm.acc[o["account_id"]]["name"])]
    order = rng.sample(cands, len(cands))
    for o in order:
        acc = crm.acc[o["account_id"]]["name"]
        other = neighbour(order, o)
        solution = open_record(o["name"]) + [button("Follow"), done()]
        yield {
            "goal": f"Follow the opportunity \u201c{o['name']}\u201d so its updates show up in your feed.",
            "start_path": "/lightning/page/home",
            "verify": {
                "checks": [{"table": "follows", "in": "created", "where": {"object": "Opportunity", "record_id": o["id"], "user_id": ME}, "count": 1}],
                "unchanged_except": [allow_create("follows", {"object": "Opportunity", "record_id": o["id"], "user_id": ME})],
            },
            "solution": solution,
            "near_misses": [open_record(acc) + [button("Follow"), done()]],
            "harmless": [harmless("check_work", solution[:-1] + open_record(o["name"]) + [done()],
                                  "opens the opportunity again to see its button now says Following",
                                  [find("Opportunity", o["name"]), call("follow_record", object="Opportunity", record_id=o["id"]),
                                   reread("Opportunity", o["id"])])],
            "tools": tools([find("Opportunity", o["name"]), call("follow_record", object="Opportunity", record_id=o["id"]), finish()],
                           [find("Account", acc), call("follow_record", object="Account", record_id=o["account_id"]), finish()]),
            "adversarial": [extra(solution, open_record(acc) + [button("Follow")], f"also follows its account {acc}"),
                            extra(solution, open_record(other["name"]) + [button("Follow")],
                                  f"also follows another opportunity, \u201c{other['name']}\u201d")],
        }


@template("crm", "complete-todays-task", difficulty="easy", max_steps=8)
def complete_todays_task(w: World, rng: random.Random):
    """Tick one of today's tasks on the Home page."""
    crm = Crm(w)
    mine = [t for t in crm.tasks if t["owner_id"] == ME and t["status"] != "Completed" and t["activity_date"]
            and t["activity_date"] <= crm.today]
    home = sorted(mine, key=lambda t: (-t["activity_date"].toordinal(), t["priority"], t["id"]))[:10]
    subjects = [t["subject"] for t in home]
    cands = [t for t in home if subjects.count(t["subject"]) == 1 and t["activity_date"] == crm.today]
    for t in rng.sample(cands, len(cands)):
        other = next(x for x in cands if x["id"] != t["id"])
        what = crm.opp[t["what_id"]]["name"] if t["what_type"] == "Opportunity" else ""
        tick = lambda x: {"click": {"role": "checkbox", "name": f"Mark {x['subject']} complete", "exact": True}}  # noqa: E731
        solution = [tick(t), done()]
        yield {
            "goal": f"You finished today's task \u201c{t['subject']}\u201d{' for ' + what if what else ''}. Mark it complete.",
            "start_path": "/lightning/page/home",
            "verify": {
                "checks": [{"table": "tasks", "where": {"id": t["id"]}, "expect": {"status": "Completed", "completed_at": {"$ne": None}}}],
                "unchanged_except": [allow_update("tasks", {"id": t["id"]}, ["status", "completed_at"])],
            },
            "solution": solution,
            "near_misses": [[tick(other), done()]],
            "harmless": [harmless("open_first", [link(t["subject"]), button("Mark Complete"), done()],
                                  "opens the task from Home's list first and marks it complete on its own page",
                                  [call("list_records", object="Task", list_view="TodaysTasks"),
                                   call("get_record", object="Task", record_id=t["id"]), call("complete_task", task_id=t["id"])])],
            "tools": tools([call("list_records", object="Task", list_view="TodaysTasks"), call("complete_task", task_id=t["id"]), finish()],
                           [call("list_records", object="Task", list_view="TodaysTasks"), call("complete_task", task_id=other["id"]),
                            finish()]),
            "adversarial": [extra(solution, [tick(other)], f"also ticks \u201c{other['subject']}\u201d")],
        }


@template("crm", "note-on-account", difficulty="easy", max_steps=25)
def note_on_account(w: World, rng: random.Random):
    """Add a note to an account from its Notes related list."""
    crm = Crm(w)
    notes = [("Budget update", "Budget for next fiscal year approved at the board meeting."),
             ("Reorg", "New VP of Operations starts next month; set up an intro."),
             ("Renewal risk", "Usage dropped after the migration; schedule a health check."),
             ("Expansion", "They plan to open two new sites in the fall."),
             ("Competitor", "Evaluating a competitor for the analytics module.")]
    cands = [a for a in crm.accounts if crm.unique(a["name"]) and a["type"].startswith("Customer")]
    bodies = [b for _, b in notes]
    for a in rng.sample(cands, len(cands)):
        title, body = rng.choice(notes)
        path = open_record(a["name"]) + [button("New Notes")]
        other_title, other_body = next(n for n in notes if n[0] != title)

        def steps(text):
            return path + [fill("Title", title), fill("Note", text), save_modal(), done()]
        solution = steps(body)
        yield {
            "goal": f"Add a note to the account {a['name']} titled \u201c{title}\u201d with the text: {body}",
            "start_path": "/lightning/page/home",
            "verify": {
                "checks": [{"table": "notes", "in": "created", "where": {"parent_type": "Account", "parent_id": a["id"]},
                            "expect": {"title": {"$ieq": title}, "body": written(body.rstrip('.'), body, bodies), "owner_id": ME},
                            "count": 1}],
                "unchanged_except": [allow_create("notes", {"parent_type": "Account", "parent_id": a["id"]})],
            },
            "solution": solution,
            "near_misses": [path + [fill("Title", title), save_modal(), done()]],
            "harmless": [harmless("check_work", solution[:-1] + open_record(a["name"]) + [done()],
                                  "opens the account again to see the note in its Notes list",
                                  [find("Account", a["name"]), call("add_note", object="Account", record_id=a["id"], title=title, body=body),
                                   reread("Account", a["id"])])],
            "tools": tools([find("Account", a["name"]), call("add_note", object="Account", record_id=a["id"], title=title, body=body), finish()],
                           [find("Account", a["name"]), call("add_note", object="Account", record_id=a["id"], title=title), finish()]),
            "adversarial": [
                dump(steps(dump_text(body, bodies)), "the note lists every note text the template could ask for"),
                extra(solution, [button("New Notes"), fill("Title", other_title), fill("Note", other_body), save_modal()],
                      "adds a second note to the same account"),
            ],
        }


@template("crm", "new-contact", difficulty="easy", max_steps=35)
def new_contact(w: World, rng: random.Random):
    """Create a contact at an existing account with name, title and email."""
    crm = Crm(w)
    people = [("Maya", "Okafor", "Director of Finance"), ("Lucas", "Brennan", "IT Manager"), ("Sara", "Lindqvist", "VP, Operations"),
              ("Tomas", "Ferreira", "Procurement Manager"), ("Nina", "Kowalski", "Head of Data"), ("Omar", "Haddad", "Controller"),
              ("Julia", "Marchetti", "Project Manager"), ("Ethan", "Nakamura", "Solutions Architect")]
    cands = [a for a in crm.accounts if crm.unique(a["name"]) and a["website"] and len(a["name"]) < 30]
    for a in rng.sample(cands, len(cands)):
        first, last, title = rng.choice(people)
        if crm.name_count.get(f"{first} {last}".lower()):
            continue
        email = f"{first}.{last}@{a['website'].removeprefix('www.')}".lower()
        other = rng.choice([x for x in cands if x["id"] != a["id"] and x["name"][:4] != a["name"][:4]])

        def steps(acc_name):
            return ([{"click": {"role": "link", "name": "Contacts", "exact": True}}, {"click": {"role": "link", "name": "New", "exact": True}},
                     fill("First Name", first), fill("Last Name", last)]
                    + lookup("Account Name", acc_name, acc_name) + [fill("Title", title), fill("Email", email), save_modal(), done()])
        solution = steps(a["name"])
        yield {
            "goal": f"Add a new contact {first} {last}, {title} at {a['name']}, with email {email}.",
            "start_path": "/lightning/page/home",
            "verify": {
                "checks": [{"table": "contacts", "in": "created", "where": {"last_name": last},
                            "expect": {"first_name": first, "account_id": a["id"], "title": {"$ieq": title},
                                       "email": {"$ieq": email}, "owner_id": ME}, "count": 1}],
                "unchanged_except": [allow_create("contacts", {"first_name": first, "last_name": last})],
            },
            "solution": solution,
            "near_misses": [steps(other["name"])],
            "harmless": [harmless("check_work", solution[:-1] + open_record(f"{first} {last}") + [done()],
                                  "finds the new contact with the search after saving, to see it is there",
                                  [find("Account", a["name"]),
                                   call("create_record", object="Contact", fields={"first_name": first, "last_name": last,
                                                                                   "account_id": a["id"], "title": title, "email": email}),
                                   find("Contact", f"{first} {last}"), reread("Contact", next_id(crm, "contacts"))])],
            "tools": tools(*[[find("Account", acc["name"]),
                              call("create_record", object="Contact", fields={"first_name": first, "last_name": last, "account_id": acc["id"],
                                                                              "title": title, "email": email}), finish()]
                             for acc in (a, other)]),
            # Within the step budget (35, gold 20): the same person, by last name, at the other account too.
            "adversarial": [extra(solution, [{"click": {"role": "link", "name": "Contacts", "exact": True}},
                                             {"click": {"role": "link", "name": "New", "exact": True}}, fill("Last Name", last)]
                                  + lookup("Account Name", other["name"], other["name"]) + [save_modal()],
                                  f"creates {last} at {other['name']} as well (hedging the account)")],
        }


@template("crm", "lead-email-inline", difficulty="easy", max_steps=25)
def lead_email_inline(w: World, rng: random.Random):
    """Fix a lead's email with inline edit in the All Open Leads list view."""
    crm = Crm(w)
    cands = [x for x in crm.leads if x["status"] in ("Open - Not Contacted", "Working - Contacted") and crm.unique(crm.cname(x))
             and x["email"] and sum(1 for y in crm.leads if y["last_name"] == x["last_name"]) == 1]
    order = rng.sample(cands, len(cands))

    def fix(lead, email):
        who = crm.cname(lead)
        return [{"fill": {"role": "searchbox", "name": "Search this list"}, "text": lead["last_name"]}, {"press": ["Enter"]},
                {"click": {"role": "button", "name": f"Edit Email: {who}", "exact": True}},
                {"fill": {"role": "textbox", "name": "Email", "exact": True}, "text": email}, {"press": ["Enter"]}, button("Save")]
    for x in order:
        name = crm.cname(x)
        local, domain = x["email"].split("@", 1)
        new = f"{x['first_name'].lower()}.{x['last_name'].lower()}@{domain}"
        if new == x["email"]:
            continue
        search = [{"fill": {"role": "searchbox", "name": "Search this list"}, "text": x["last_name"]}, {"press": ["Enter"]}]
        other = neighbour(order, x)
        solution = fix(x, new) + [done()]
        yield {
            "goal": f"In the All Open Leads list, correct the email of lead {name} to {new}.",
            "start_path": "/lightning/o/Lead/list?filterName=AllOpenLeads",
            "verify": {
                "checks": [{"table": "leads", "where": {"id": x["id"]}, "expect": {"email": new}}],
                "unchanged_except": [allow_update("leads", {"id": x["id"]}, ["email"])],
            },
            "solution": solution,
            "adversarial": [extra(solution, fix(other, new), f"also writes the address into {crm.cname(other)}'s email"),
                            wrong_record(fix(other, new) + [done()], f"writes the address into {crm.cname(other)}'s email instead")],
            "harmless": [harmless("check_work", solution[:-1] + open_record(name) + [done()],
                                  "opens the lead's record after the inline edit to see the address took",
                                  [call("list_records", object="Lead", list_view="AllOpenLeads", search=x["last_name"]),
                                   call("update_record", object="Lead", record_id=x["id"], fields={"email": new}),
                                   reread("Lead", x["id"])])],
            "near_misses": [search + [{"click": {"role": "button", "name": f"Edit Email: {name}", "exact": True}},
                                      {"fill": {"role": "textbox", "name": "Email", "exact": True}, "text": new}, {"press": ["Enter"]},
                                      button("Cancel"), done()]],
            # The near-miss opens the edit and cancels it (nothing saved); and the address on the lead next to it.
            "tools": tools([call("list_records", object="Lead", list_view="AllOpenLeads", search=x["last_name"]),
                            call("update_record", object="Lead", record_id=x["id"], fields={"email": new}), finish()],
                           [call("list_records", object="Lead", list_view="AllOpenLeads", search=x["last_name"]), finish()],
                           [call("list_records", object="Lead", list_view="AllOpenLeads", search=other["last_name"]),
                            call("update_record", object="Lead", record_id=other["id"], fields={"email": new}), finish()]),
        }
