"""Medium sales workflows: lead conversion, opportunity stages (Path and Kanban), cases, contact roles,
owner changes, merging duplicate contacts."""

from __future__ import annotations

import random

from domain.crm import OPEN_STAGES, company_base, normalize_company
from tasks.templates import World, template
from tasks.templates.harmless import harmless
from tasks.templates.crm._common import (
    DIALOG, ME, Crm, allow_create, allow_update, button, call, done, extra, fill, find, finish, link, lookup, mdy,
    menuitem, money, neighbour, next_id, open_record, pick, reread, save_modal, toggle_follow, tools, wrong_record,
)

PRODUCTS = ["Analytics Cloud", "Integration Hub", "Security Suite", "Data Warehouse", "IoT Gateway", "Premier Support"]


def _lead_allowances(lead: dict) -> list[dict]:
    """What converting `lead` changes: the lead itself, its one new contact, its activities and notes."""
    lead_id = lead["id"]
    return [
        allow_update("leads", {"id": lead_id}, ["status", "is_converted", "converted_account_id", "converted_contact_id",
                                                "converted_opportunity_id", "converted_date", "owner_id"]),
        allow_create("contacts", {"first_name": lead["first_name"], "last_name": lead["last_name"]}),
        allow_update("tasks", {"who_type": "Lead", "who_id": lead_id}, ["who_type", "who_id", "what_type", "what_id"]),
        allow_update("events", {"who_type": "Lead", "who_id": lead_id}, ["who_type", "who_id", "what_type", "what_id"]),
        allow_update("notes", {"parent_type": "Lead", "parent_id": lead_id}, ["parent_type", "parent_id"]),
    ]


@template("crm", "convert-lead-existing-account", difficulty="medium", max_steps=40)
def convert_lead_existing_account(w: World, rng: random.Random):
    """Convert a lead into a new opportunity with an amount, attached to the matching existing account
    (the dialog's default, Create New Account, is the wrong first click)."""
    crm = Crm(w)
    by_key = {}
    for a in crm.accounts:
        by_key.setdefault(normalize_company(a["name"]), []).append(a)
    cands = []
    for x in crm.leads:
        if x["is_converted"] or not crm.unique(crm.cname(x)):
            continue
        accs = by_key.get(normalize_company(x["company"]), [])
        if len(accs) == 1 and accs[0]["name"] == x["company"]:
            cands.append((x, accs[0]))
    for x, acc in rng.sample(cands, len(cands)):
        name = crm.cname(x)
        opp_name = f"{company_base(acc['name'])} - {rng.choice(PRODUCTS)} {rng.choice(['Pilot', 'Rollout', 'First Order'])}"
        amount = rng.choice([25000, 40000, 60000, 85000, 120000, 150000])
        head = open_record(name) + [link("Convert")]
        tail = [fill("Opportunity Name", opp_name), button("Convert", within=DIALOG), link("Go to Opportunity", within=DIALOG),
                button("Edit"), fill("Amount", str(amount)), save_modal(), done()]
        solution = head + [{"click": {"role": "radio", "name": "Choose Existing Account", "exact": True}},
                           {"click": {"role": "radio", "name": acc["name"], "exact": True}}] + tail
        second = [link(acc["name"]), button("Show more actions"), menuitem("New Opportunity"),
                  fill("Opportunity Name", f"{opp_name} (2)"), fill("Amount", str(amount)), fill("Close Date", mdy(crm.q_end)),
                  save_modal()]
        yield {
            "goal": f"Convert the lead {name} ({x['company']}) into a new opportunity named \u201c{opp_name}\u201d with an amount of "
                    f"{money(amount)}. Attach it to the existing {acc['name']} account instead of creating a new account.",
            "start_path": "/lightning/o/Lead/list?filterName=AllOpenLeads",
            "verify": {
                "checks": [
                    {"table": "leads", "where": {"id": x["id"]}, "expect": {"is_converted": True, "status": "Closed - Converted",
                                                                           "converted_account_id": acc["id"],
                                                                           "converted_opportunity_id": {"$ne": None}}},
                    {"table": "opportunities", "in": "created", "where": {"name": opp_name},
                     "expect": {"account_id": acc["id"], "amount": amount, "stage": "Prospecting"}, "count": 1},
                    {"table": "contacts", "in": "created", "where": {"last_name": x["last_name"]},
                     "expect": {"account_id": acc["id"], "first_name": x["first_name"]}, "count": 1},
                    {"table": "accounts", "in": "created", "count": 0, "name": "no new account"},
                ],
                "unchanged_except": _lead_allowances(x) + [
                    allow_create("opportunities", {"account_id": acc["id"], "name": opp_name}),
                    allow_create("opportunity_contact_roles"),
                ],
            },
            "solution": solution,
            "near_misses": [head + tail],
            "harmless": [harmless("check_work", solution[:-1] + [link(acc["name"]), done()],
                                  f"opens {acc['name']} from the new opportunity to see the deal and the contact on the account",
                                  [find("Lead", name), find("Account", acc["name"]),
                                   call("convert_lead", lead_id=x["id"], opportunity_name=opp_name, existing_account_id=acc["id"]),
                                   call("update_record", object="Opportunity", record_id=next_id(crm, "opportunities"),
                                        fields={"amount": amount}),
                                   reread("Account", acc["id"])])],
            # The new opportunity's id is what convert_lead returns; the near-miss keeps the dialog's new account.
            "tools": tools(*[[find("Lead", name), find("Account", acc["name"]),
                              call("convert_lead", lead_id=x["id"], opportunity_name=opp_name, **existing),
                              call("update_record", object="Opportunity", record_id=next_id(crm, "opportunities"), fields={"amount": amount}),
                              finish()] for existing in ({"existing_account_id": acc["id"]}, {})]),
            "adversarial": [extra(solution, second, f"opens a second opportunity on {acc['name']} as well")],
        }


@template("crm", "convert-lead-no-opportunity", difficulty="medium", max_steps=20)
def convert_lead_no_opportunity(w: World, rng: random.Random):
    """Convert a lead into a new account and contact only."""
    crm = Crm(w)
    keys = {normalize_company(a["name"]) for a in crm.accounts}
    cands = [x for x in crm.leads if not x["is_converted"] and x["status"] == "Working - Contacted" and crm.unique(crm.cname(x))
             and normalize_company(x["company"]) not in keys]
    order = rng.sample(cands, len(cands))
    no_opp = {"click": {"role": "checkbox", "name": "Don't create an opportunity upon conversion", "exact": True}}
    for x in order:
        name = crm.cname(x)
        head = open_record(name) + [link("Convert")]
        other = neighbour(order, x, lambda y: y["company"] != x["company"])
        solution = head + [no_opp, button("Convert", within=DIALOG), done()]
        yield {
            "goal": f"{name} from {x['company']} is qualified. Convert the lead into a new account and contact, "
                    f"but don't create an opportunity yet.",
            "start_path": "/lightning/page/home",
            "verify": {
                "checks": [
                    {"table": "leads", "where": {"id": x["id"]}, "expect": {"is_converted": True, "converted_opportunity_id": None,
                                                                           "converted_account_id": {"$ne": None}}},
                    {"table": "accounts", "in": "created", "where": {"name": x["company"]}, "count": 1},
                    {"table": "contacts", "in": "created", "where": {"last_name": x["last_name"], "first_name": x["first_name"]}, "count": 1},
                    {"table": "opportunities", "in": "created", "count": 0, "name": "no opportunity created"},
                ],
                "unchanged_except": _lead_allowances(x) + [allow_create("accounts", {"name": x["company"]})],
            },
            "solution": solution,
            "adversarial": [extra(solution, [link("Go to Leads", within=DIALOG)] + open_record(crm.cname(other))
                                  + [link("Convert"), no_opp, button("Convert", within=DIALOG)],
                                  f"converts another lead, {crm.cname(other)} ({other['company']}), as well")],
            "near_misses": [head + [button("Convert", within=DIALOG), done()]],
            "harmless": [harmless("check_work", solution[:-1] + [link(x["company"], within=DIALOG), done()],
                                  "opens the new account from the conversion's summary to see it and its contact",
                                  [find("Lead", name), call("convert_lead", lead_id=x["id"], create_opportunity=False),
                                   reread("Account", next_id(crm, "accounts"))])],
            "tools": tools([find("Lead", name), call("convert_lead", lead_id=x["id"], create_opportunity=False), finish()],
                           [find("Lead", name), call("convert_lead", lead_id=x["id"]), finish()]),
        }


@template("crm", "opp-stage-amount", difficulty="medium", max_steps=25)
def opp_stage_amount(w: World, rng: random.Random):
    """Jump an opportunity to Negotiation on the Path (not one step) and update its amount."""
    crm = Crm(w)
    cands = [o for o in crm.opps if o["stage"] in ("Qualification", "Needs Analysis") and crm.unique(o["name"]) and o["amount"]]
    order = rng.sample(cands, len(cands))
    for o in order:
        new_amount = int(round(o["amount"] * rng.choice([0.8, 0.9, 1.1, 1.25]) / 1000) * 1000)
        head = open_record(o["name"])
        edit = [button("Edit"), fill("Amount", str(new_amount)), save_modal(), done()]
        other = neighbour(order, o, lambda y: y["amount"] != new_amount)
        solution = head + [{"click": {"role": "option", "name": "Negotiation", "exact": True}}, button("Mark as Current Stage")] + edit
        yield {
            "goal": f"Procurement is now negotiating \u201c{o['name']}\u201d. Move it to the Negotiation stage and change its amount "
                    f"to {money(new_amount)}.",
            "start_path": "/lightning/o/Opportunity/list",
            "verify": {
                "checks": [{"table": "opportunities", "where": {"id": o["id"]},
                            "expect": {"stage": "Negotiation", "probability": 80, "forecast_category": "Commit", "amount": new_amount}}],
                "unchanged_except": [allow_update("opportunities", {"id": o["id"]},
                                                  ["stage", "probability", "forecast_category", "amount"])],
            },
            "solution": solution,
            "adversarial": [extra(solution, open_record(other["name"]) + edit[:-1],
                                  f"also sets the amount of \u201c{other['name']}\u201d to {money(new_amount)}"),
                            wrong_record(open_record(other["name"]) + solution[len(head):],
                                         f"moves \u201c{other['name']}\u201d to Negotiation at {money(new_amount)} instead")],
            "near_misses": [head + [button("Mark Stage as Complete")] + edit],
            "harmless": [harmless("check_work", solution[:-1] + open_record(o["name"]) + [done()],
                                  "opens the opportunity again to see the stage and the amount took",
                                  [find("Opportunity", o["name"]),
                                   call("change_stage_or_status", object="Opportunity", record_id=o["id"], value="Negotiation"),
                                   call("update_record", object="Opportunity", record_id=o["id"], fields={"amount": new_amount}),
                                   reread("Opportunity", o["id"])])],
            "tools": tools(*[[find("Opportunity", o["name"]), call("change_stage_or_status", object="Opportunity", record_id=o["id"], value=st),
                              call("update_record", object="Opportunity", record_id=o["id"], fields={"amount": new_amount}), finish()]
                             for st in ("Negotiation", OPEN_STAGES[OPEN_STAGES.index(o["stage"]) + 1])]),
        }


@template("crm", "kanban-move", difficulty="medium", max_steps=12)
def kanban_move(w: World, rng: random.Random):
    """Drag an opportunity card to another stage column on the Kanban board."""
    crm = Crm(w)
    cands = [o for o in crm.opps if o["owner_id"] == ME and o["stage"] in ("Qualification", "Needs Analysis") and crm.unique(o["name"])]
    order = rng.sample(cands, len(cands))
    col = lambda st: {"role": "region", "name": f"{st} column", "exact": True}  # noqa: E731
    for o in order:
        card = {"role": "article", "name": o["name"], "exact": True}
        other = neighbour(order, o)
        solution = [{"drag": {"from": card, "to": col("Proposal")}}, done()]
        yield {
            "goal": f"On the Kanban board of your opportunities, drag \u201c{o['name']}\u201d to the Proposal stage.",
            "start_path": "/lightning/o/Opportunity/list?filterName=MyOpportunities&display=kanban",
            "verify": {
                "checks": [{"table": "opportunities", "where": {"id": o["id"]},
                            "expect": {"stage": "Proposal", "probability": 60, "forecast_category": "Best Case"}}],
                "unchanged_except": [allow_update("opportunities", {"id": o["id"]}, ["stage", "probability", "forecast_category"])],
            },
            "solution": solution,
            "adversarial": [extra(solution, [{"drag": {"from": {"role": "article", "name": other["name"], "exact": True},
                                                       "to": col("Proposal")}}],
                                  f"drags \u201c{other['name']}\u201d to Proposal too"),
                            wrong_record([{"drag": {"from": {"role": "article", "name": other["name"], "exact": True},
                                                    "to": col("Proposal")}}, done()],
                                         f"drags \u201c{other['name']}\u201d to Proposal instead")],
            "near_misses": [[{"drag": {"from": card, "to": col("Negotiation")}}, done()]],
            "harmless": [harmless("check_work", solution[:-1] + open_record(o["name"]) + [done()],
                                  "opens the opportunity after the drag to see its stage is Proposal",
                                  [call("list_records", object="Opportunity", list_view="MyOpportunities", search=o["name"]),
                                   call("change_stage_or_status", object="Opportunity", record_id=o["id"], value="Proposal"),
                                   reread("Opportunity", o["id"])])],
            "tools": tools(*[[call("list_records", object="Opportunity", list_view="MyOpportunities", search=o["name"]),
                              call("change_stage_or_status", object="Opportunity", record_id=o["id"], value=st), finish()]
                             for st in ("Proposal", "Negotiation")]),
        }


@template("crm", "new-case", difficulty="medium", max_steps=30)
def new_case(w: World, rng: random.Random):
    """Open a case from a contact's record (contact and account prefilled)."""
    crm = Crm(w)
    subjects = ["Export to CSV times out", "Cannot add new users", "Dashboard shows wrong totals", "SSO login loop",
                "Sensor data delayed by hours", "API rate limit errors"]
    cands = [c for c in crm.contacts if crm.unique(crm.cname(c)) and crm.acc[c["account_id"]]["type"].startswith("Customer")
             and not crm.has_duplicates("contacts", c)]
    for c in rng.sample(cands, len(cands)):
        name = crm.cname(c)
        acc = crm.acc[c["account_id"]]
        subject = rng.choice(subjects)
        origin = rng.choice(["Email", "Web"])
        path = open_record(name) + [button("Show more actions"), menuitem("New Case"), fill("Subject", subject)]
        solution = path + pick("Priority", "High") + pick("Case Origin", origin) + [save_modal()] + [done()]
        hedge = path + pick("Priority", "Medium") + pick("Case Origin", origin) + [save_modal()]
        yield {
            "goal": f"{name} from {acc['name']} reports a problem: \u201c{subject}\u201d. Open a new High priority case for them "
                    f"with that subject and case origin {origin}.",
            "start_path": "/lightning/page/home",
            "verify": {
                "checks": [{"table": "cases", "in": "created", "where": {"contact_id": c["id"]},
                            "expect": {"account_id": acc["id"], "subject": {"$ieq": subject}, "priority": "High", "origin": origin,
                                       "status": "New"}, "count": 1}],
                "unchanged_except": [allow_create("cases", {"contact_id": c["id"], "account_id": acc["id"]})],
            },
            "solution": solution,
            "adversarial": [extra(solution, hedge, "opens a second case for the same problem at Medium priority")],
            "near_misses": [path + pick("Case Origin", origin) + [save_modal(), done()]],
            # The near-miss leaves the dialog's default priority (Medium). The gold calls set the contact only: the
            # product fills the case's account from it (apps/crm/services/records.autofill_case_account), as the
            # dialog opened from the contact prefills it; setting it too is the harmless variant.
            "tools": tools(*[[find("Contact", name),
                              call("create_record", object="Case", fields={"subject": subject, "origin": origin, "contact_id": c["id"],
                                                                           **prio}), finish()]
                             for prio in ({"priority": "High"}, {})]),
            "harmless": [harmless(
                "autofilled", path + lookup("Account Name", acc["name"], acc["name"], clear=True) + solution[len(path):],
                "picks the case's account again, the one the product fills in from the contact",
                [find("Contact", name), call("create_record", object="Case", fields={
                    "subject": subject, "origin": origin, "contact_id": c["id"], "account_id": acc["id"], "priority": "High"})])],
        }


@template("crm", "opp-contact-role", difficulty="medium", max_steps=20)
def opp_contact_role(w: World, rng: random.Random):
    """Add a contact role to an opportunity."""
    crm = Crm(w)
    roles = ["Technical Buyer", "Economic Buyer", "Executive Sponsor", "Evaluator", "Influencer"]
    cands = []
    for o in crm.opps:
        if not crm.is_open(o) or not crm.unique(o["name"]):
            continue
        have = {r["contact_id"] for r in crm.roles_by_opp[o["id"]]}
        others = [c for c in crm.contacts_by_acc[o["account_id"]] if c["id"] not in have and crm.unique(crm.cname(c))]
        if others:
            cands.append((o, others[0]))
    for o, c in rng.sample(cands, len(cands)):
        role, wrong = rng.sample(roles, 2)
        name = crm.cname(c)
        head = open_record(o["name"]) + [button("Add Contact Roles")] + lookup("Contact", name, name)
        yield {
            "goal": f"Add {name} as a contact role on the opportunity \u201c{o['name']}\u201d with the role {role}.",
            "start_path": "/lightning/page/home",
            "verify": {
                "checks": [{"table": "opportunity_contact_roles", "in": "created", "where": {"opportunity_id": o["id"], "contact_id": c["id"]},
                            "expect": {"role": role}, "count": 1}],
                "unchanged_except": [allow_create("opportunity_contact_roles", {"opportunity_id": o["id"], "contact_id": c["id"]})],
            },
            "solution": head + pick("Role", role) + [save_modal(), done()],
            "adversarial": [extra(head + pick("Role", role) + [save_modal(), done()],
                                  [button("Add Contact Roles")] + lookup("Contact", name, name) + [save_modal()],
                                  f"adds {name} a second time (within the step budget, so without a role)")],
            "near_misses": [head + pick("Role", wrong) + [save_modal(), done()]],
            "harmless": [harmless("check_work", head + pick("Role", role) + [save_modal()] + open_record(o["name"]) + [done()],
                                  "opens the opportunity again to see the contact role in its list",
                                  [find("Opportunity", o["name"]), find("Contact", name),
                                   call("add_contact_role", opportunity_id=o["id"], contact_id=c["id"], role=role),
                                   reread("Opportunity", o["id"])])],
            "tools": tools(*[[find("Opportunity", o["name"]), find("Contact", name),
                              call("add_contact_role", opportunity_id=o["id"], contact_id=c["id"], role=rl), finish()]
                             for rl in (role, wrong)]),
        }


@template("crm", "change-owner-opportunity", difficulty="easy", max_steps=16)
def change_owner_opportunity(w: World, rng: random.Random):
    """Give an opportunity to another rep with Change Owner."""
    crm = Crm(w)
    reps = [7, 8, 9, 10, 14]
    cands = [o for o in crm.opps if crm.is_open(o) and crm.unique(o["name"]) and o["owner_id"] == ME]
    order = rng.sample(cands, len(cands))
    for o in order:
        uid, wrong = rng.sample(reps, 2)
        user, wrong_user = crm.uname(uid), crm.uname(wrong)
        head = open_record(o["name"]) + [button("Show more actions"), menuitem("Change Owner")]
        tail = lambda u: lookup("Owner", u.split()[0], u) + [button("Change Owner", within=DIALOG), done()]  # noqa: E731
        other = neighbour(order, o)
        yield {
            "goal": f"You're handing \u201c{o['name']}\u201d over to {user}. Make {user.split()[0]} the opportunity's owner.",
            "start_path": "/lightning/page/home",
            "verify": {
                "checks": [{"table": "opportunities", "where": {"id": o["id"]}, "expect": {"owner_id": uid}}],
                "unchanged_except": [allow_update("opportunities", {"id": o["id"]}, ["owner_id"])],
            },
            "solution": head + tail(user),
            "near_misses": [head + tail(wrong_user)],
            "harmless": [harmless("check_work", head + tail(user)[:-1] + open_record(o["name"]) + [done()],
                                  f"opens the opportunity again to see {user} as its owner",
                                  [find("Opportunity", o["name"]), call("list_users"),
                                   call("change_owner", object="Opportunity", record_id=o["id"], owner_id=uid),
                                   reread("Opportunity", o["id"])])],
            "tools": tools(*[[find("Opportunity", o["name"]), call("list_users"),
                              call("change_owner", object="Opportunity", record_id=o["id"], owner_id=u), finish()] for u in (uid, wrong)]),
            # The step budget (16, gold 12) has no room for a second owner change: the side effect that fits.
            "adversarial": [extra(head + tail(user), toggle_follow(crm, "Opportunity", o["id"]),
                                  "also (un)follows the opportunity on its way out"),
                            wrong_record(open_record(other["name"]) + head[len(open_record(o["name"])):] + tail(user),
                                         f"hands \u201c{other['name']}\u201d to {user} instead")],
        }


def _merge_allowances(orig: dict, dup: dict) -> list[dict]:
    """What merging `dup` into `orig` changes (apps/crm/views/merge.py): `dup` is deleted, the master takes
    the values the merge screen picks from `dup` by default (fields blank on the master), and whatever
    pointed at `dup` now points at the master."""
    from apps.crm.services.merge import DROPPED, MERGE_FIELDS, UNIQUE_PER_PARENT, children

    filled = [f for f in MERGE_FIELDS["Contact"] if f != "description" and not orig.get(f) and dup.get(f)
              and orig.get(f) != dup.get(f)]
    out = [{"table": "contacts", "ops": ["delete"], "where": {"id": dup["id"]}, "max": 1}]
    if filled:
        out.append(allow_update("contacts", {"id": orig["id"]}, filled))
    # Every reference to the duplicate (the merge's own list, services/merge.children) moves to the master; a
    # follow of it goes, and so does a file share the master already has.
    for model, col, type_col in children("Contact"):
        where = {col: dup["id"], **({type_col: "Contact"} if type_col else {})}
        table = model.__tablename__
        if (table, col) in DROPPED:
            out.append({"table": table, "ops": ["delete"], "where": where, "max": 5})
            continue
        out.append(allow_update(table, where, [col]))
        if table in UNIQUE_PER_PARENT:
            out.append({"table": table, "ops": ["delete"], "where": where, "max": 5})
    return out


def _merge_moved(w: World, orig: dict, dup: dict) -> list[dict]:
    """Checks that every row referring to `dup` when the task starts ends up referring to `orig` (the allowances
    of _merge_allowances let the reference take any value: a merge into a third contact would pass them). A
    dropped row (a follow) may go; a unique-per-parent one (a file share the master has too) may go or move."""
    from apps.crm.services.merge import DROPPED, UNIQUE_PER_PARENT, children

    out = []
    for model, col, type_col in children("Contact"):
        table = model.__tablename__
        if (table, col) in DROPPED:
            continue
        for r in w.table(table):
            if r.get(col) == dup["id"] and (not type_col or r.get(type_col) == "Contact"):
                chk = {"table": table, "where": {"id": r["id"]}, "expect": {col: orig["id"]},
                       "name": f"{table} {r['id']} moved to the master"}
                if table in UNIQUE_PER_PARENT:
                    chk["count"] = {"$lte": 1}
                out.append(chk)
    return out


def _other_master(crm: Crm, orig: dict, dup: dict) -> dict | None:
    """A third contact the duplicate also matches (apps/crm/records.duplicates_of: the name, or the email), so that
    merge_records would take it as the master: the wrong record to merge into. None when there is none."""
    for c in sorted(crm.contacts, key=lambda c: c["id"]):
        if c["id"] in (orig["id"], dup["id"]):
            continue
        same_name = (c["first_name"] or "").lower() == (dup["first_name"] or "").lower() \
            and c["last_name"].lower() == dup["last_name"].lower()
        if same_name or (c["email"] and dup["email"] and c["email"].lower() == dup["email"].lower()):
            return c
    return None


@template("crm", "merge-duplicate-contacts", difficulty="medium", max_steps=12)
def merge_duplicate_contacts(w: World, rng: random.Random):
    """Merge a contact entered twice, keeping the original record as the master."""
    crm = Crm(w)
    pairs = []
    for c in crm.contacts:
        dups = [d for d in crm.contacts if d["id"] > c["id"] and crm.cname(d) == crm.cname(c) and d["account_id"] == c["account_id"]]
        if len(dups) == 1 and c["title"]:
            pairs.append((c, dups[0]))
    order = rng.sample(pairs, len(pairs))
    for orig, dup in order:
        other_orig, other_dup = neighbour(order, (orig, dup))
        name = crm.cname(orig)
        acc = crm.acc[orig["account_id"]]["name"]
        head = [link("View Duplicates"), button("Next", within=DIALOG)]
        # check_work: the search finds the one contact left (the name was the two duplicates'), else its account.
        third = _other_master(crm, orig, dup)
        look = (open_record(name), "finds the contact with the search after the merge, to see one record left") \
            if crm.name_count[name.lower()] == 2 else (open_record(acc), f"opens {acc} after the merge, to see one {name} in its contacts")
        yield {
            "goal": f"{name} at {acc} was entered twice. Merge the duplicate contacts, keeping the original record "
                    f"(created {orig['created_at'].strftime('%B %-d, %Y')}, title {orig['title']}) as the master.",
            "start_path": f"/lightning/r/Contact/{orig['id']}/view",
            "verify": {
                "checks": [{"table": "contacts", "in": "deleted", "where": {"id": dup["id"]}, "count": 1},
                           {"table": "contacts", "where": {"id": orig["id"]}, "expect": {"title": orig["title"], "email": orig["email"]}}]
                + _merge_moved(w, orig, dup),
                "unchanged_except": _merge_allowances(orig, dup),
            },
            "adversarial": [extra(head + [button("Merge Contacts", within=DIALOG), done()],
                                  [button("Edit"), fill(*(("Phone", "(415) 555-0110") if not (not orig["phone"] and dup["phone"])
                                                          else ("Mobile", "(415) 555-0111"))), save_modal()],
                                  "after the merge, also rewrites a field of the kept contact the merge does not fill")],
            "solution": head + [button("Merge Contacts", within=DIALOG), done()],
            "harmless": [harmless("check_work", head + [button("Merge Contacts", within=DIALOG)] + look[0] + [done()], look[1],
                                  [call("get_record", object="Contact", record_id=orig["id"]),
                                   call("merge_records", object="Contact", master_id=orig["id"], duplicate_ids=[dup["id"]]),
                                   find("Contact", name), reread("Contact", orig["id"])])],
            "near_misses": [head + [{"click": {"role": "radio", "name": "Use Record 2 as master", "exact": True}},
                                    button("Merge Contacts", within=DIALOG), done()]],
            # get_record lists the contact's duplicates; the near-miss keeps the newer record.
            "tools": tools([call("get_record", object="Contact", record_id=orig["id"]),
                            call("merge_records", object="Contact", master_id=orig["id"], duplicate_ids=[dup["id"]]), finish()],
                           [call("get_record", object="Contact", record_id=orig["id"]),
                            call("merge_records", object="Contact", master_id=dup["id"], duplicate_ids=[orig["id"]]), finish()],
                           # Another pair of duplicates merged instead (the wrong record).
                           [call("get_record", object="Contact", record_id=other_orig["id"]),
                            call("merge_records", object="Contact", master_id=other_orig["id"], duplicate_ids=[other_dup["id"]]),
                            finish()],
                           # The duplicate merged into a third contact it also matches (the wrong master), where one exists.
                           *([[call("get_record", object="Contact", record_id=dup["id"]),
                               call("merge_records", object="Contact", master_id=third["id"], duplicate_ids=[dup["id"]]), finish()]]
                             if third else [])),
        }
