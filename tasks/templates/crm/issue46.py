"""The behaviours issue 46 fixed, as tasks: Change Account Owner's "Transfer closed opportunities" checkbox
(services/records.account_transfer) and an email to a non-primary contact role logged on who it went to
(services/activities.email_recipients)."""

from __future__ import annotations

import random

from domain.crm import OPEN_STAGES
from tasks.templates import World, template
from tasks.templates.harmless import harmless
from tasks.templates.crm._common import (
    DIALOG, Crm, allow_create, allow_update, button, call, contacts_went_to, done, dump, dump_text, extra, fill, find, finish,
    give_contact, link, lookup, menuitem, neighbour, open_record, reread, stray_contact, tab, tools, wrong_record, written)

NOAH = 7
CLOSED_BOX = {"click": {"role": "checkbox", "name": "Transfer closed opportunities", "exact": True, "within": DIALOG}}


def _change(closed: bool) -> list[dict]:
    return ([button("Show more actions"), menuitem("Change Owner"), *lookup("Owner", "Noah", "Noah Patel")]
            + ([CLOSED_BOX] if closed else []) + [button("Change Owner", within=DIALOG)])


@template("crm", "account-owner-with-closed-opps", difficulty="medium", max_steps=16)
def account_owner_with_closed_opps(w: World, rng: random.Random):
    """Change an account's owner so that its closed opportunities go along too (the dialog's checkbox)."""
    crm = Crm(w)
    cands = []
    for a in sorted(crm.accounts, key=lambda a: a["id"]):
        opps = crm.opps_by_acc.get(a["id"], [])
        closed = [o for o in opps if o["stage"] not in OPEN_STAGES and o["owner_id"] == a["owner_id"]]
        if a["owner_id"] != NOAH and crm.unique(a["name"]) and closed and len(a["name"]) < 40:
            cands.append(a)
    for a in rng.sample(cands, len(cands)):
        opps = crm.opps_by_acc.get(a["id"], [])
        moving = [o for o in opps if o["owner_id"] == a["owner_id"]]  # open ones by default, closed ones by the box
        other = neighbour(cands, a)
        solution = open_record(a["name"]) + _change(True) + [done()]
        gold_calls = [find("Account", a["name"]), call("list_users"),
                      call("change_owner", object="Account", record_id=a["id"], owner_id=NOAH, transfer_closed_opportunities=True)]
        stray = stray_contact(crm, a["id"], (NOAH, a["owner_id"]))
        yield {
            "goal": f"Noah Patel is taking over the account {a['name']}, including the history of its closed deals. Change the "
                    f"account's owner to Noah so that its opportunities owned by the current owner, the closed ones too, "
                    f"move to him; opportunities other reps own stay theirs.",
            "start_path": "/lightning/page/home",
            "verify": {
                "checks": [{"table": "accounts", "where": {"id": a["id"]}, "expect": {"owner_id": NOAH}}]
                + [{"table": "opportunities", "where": {"id": o["id"]}, "expect": {"owner_id": NOAH}} for o in moving]
                + [contacts_went_to(a["id"], NOAH)],
                "unchanged_except": [allow_update("accounts", {"id": a["id"]}, ["owner_id"]),
                                     allow_update("contacts", {"account_id": a["id"]}, ["owner_id"])]
                + [allow_update("opportunities", {"id": o["id"]}, ["owner_id"]) for o in moving],
            },
            "solution": solution,
            "near_misses": [open_record(a["name"]) + _change(False) + [done()]],  # the closed ones stay behind
            "harmless": [harmless("check_work", solution[:-1] + open_record(a["name"]) + [done()],
                                  "opens the account again to see Noah on it and on its opportunities",
                                  [find("Account", a["name"]), call("list_users"),
                                   call("change_owner", object="Account", record_id=a["id"], owner_id=NOAH,
                                        transfer_closed_opportunities=True), reread("Account", a["id"])])],
            "adversarial": [
                extra(solution, open_record(other["name"]) + _change(True), f"also hands Noah the account {other['name']}"),
                wrong_record(open_record(other["name"]) + _change(True) + [done()], f"changes {other['name']}'s owner instead"),
            ] + ([extra(solution, give_contact(crm, stray[0], stray[1]),
                        f"also gives the account's contact {crm.cname(stray[0])} to {crm.uname(stray[1])}")] if stray else []),
            "tools": tools(
                gold_calls + [finish()],
                [find("Account", a["name"]), call("list_users"),
                 call("change_owner", object="Account", record_id=a["id"], owner_id=NOAH), finish()],
                *([gold_calls + [call("change_owner", object="Contact", record_id=stray[0]["id"], owner_id=stray[1]), finish()]]
                  if stray else []),
            ),
        }


MAILS = [("Security questionnaire", "Hi, here is the completed security questionnaire you asked for."),
         ("Technical deep dive", "Thanks for joining today. I will share the architecture diagram by Friday."),
         ("Pilot success criteria", "Attached are the pilot success criteria we agreed on."),
         ("Reference call", "I can set up a reference call with a customer in your industry next week.")]


@template("crm", "email-opp-contact-role", difficulty="medium", max_steps=18)
def email_opp_contact_role(w: World, rng: random.Random):
    """From an opportunity's Email composer, email one of its contact roles who is not the primary contact (the email
    is logged on that person)."""
    crm = Crm(w)
    bodies = [b for _, b in MAILS]
    cands = []
    for o in sorted(crm.opps, key=lambda o: o["id"]):
        roles = sorted(crm.roles_by_opp.get(o["id"], []), key=lambda r: (not r["is_primary"], r["id"]))
        if len(roles) < 2 or not roles[0]["is_primary"] or not crm.unique(o["name"]) or len(o["name"]) > 60:
            continue
        primary = crm.con[roles[0]["contact_id"]]
        for r in roles[1:]:
            c = crm.con[r["contact_id"]]
            if c["email"] and c["email"].lower() != (primary["email"] or "").lower() and c["id"] != primary["id"]:
                cands.append((o, c, primary))
                break
    for o, c, primary in rng.sample(cands, len(cands)):
        subj, body = rng.choice(MAILS)
        name = crm.cname(c)
        other_o, other_c, _ = neighbour(cands, (o, c, primary))

        def steps(opp: dict, to: str | None, text: str = body) -> list[dict]:
            s = open_record(opp["name"]) + [tab("Email")]
            if to is not None:
                s.append(fill("To", to, within=None))
            return s + [fill("Subject", subj, within=None), fill("Body", text, within=None), button("Send"), done()]

        where = {"what_type": "Opportunity", "what_id": o["id"]}
        solution = steps(o, c["email"])
        yield {
            "goal": f"From the opportunity \u201c{o['name']}\u201d, email {name} ({c['email']}), one of its contact roles, with the "
                    f"subject \u201c{subj}\u201d and this message: {body}",
            "start_path": "/lightning/page/home",
            "verify": {
                "checks": [{"table": "tasks", "in": "created", "where": where, "count": 1,
                            "expect": {"task_subtype": "Email", "status": "Completed", "who_type": "Contact", "who_id": c["id"],
                                       "subject": {"$ieq": f"Email: {subj}"},
                                       "description": written(body.rstrip("."), f"To: {c['email']}\n\n{body}", bodies)}}],
                "unchanged_except": [allow_create("tasks", where)],
            },
            "solution": solution,
            "near_misses": [steps(o, None)],  # sent to the prefilled primary contact
            "harmless": [harmless("check_work", solution[:-1] + open_record(o["name"]) + [done()],
                                  "opens the opportunity again to see the email on its timeline",
                                  [find("Opportunity", o["name"]), call("get_record", object="Opportunity", record_id=o["id"]),
                                   call("send_email", object="Opportunity", record_id=o["id"], subject=subj, body=body, to=c["email"]),
                                   reread("Opportunity", o["id"])])],
            "adversarial": [
                extra(solution, [tab("Email"), fill("Subject", subj, within=None), fill("Body", body, within=None), button("Send")],
                      f"also sends it to the primary contact {crm.cname(primary)}"),
                wrong_record(steps(other_o, other_c["email"]), f"sends it from \u201c{other_o['name']}\u201d instead"),
                dump(steps(o, c["email"], dump_text(body, bodies)), "the body pastes every message the template could ask for"),
            ],
            "tools": tools(
                [find("Opportunity", o["name"]), call("get_record", object="Opportunity", record_id=o["id"]),
                 call("send_email", object="Opportunity", record_id=o["id"], subject=subj, body=body, to=c["email"]), finish()],
                [find("Opportunity", o["name"]), call("get_record", object="Opportunity", record_id=o["id"]),
                 call("send_email", object="Opportunity", record_id=o["id"], subject=subj, body=body), finish()],
            ),
        }


@template("crm", "listview-filter-logic", difficulty="medium", max_steps=12, count=2)
def listview_filter_logic(w: World, rng: random.Random):
    """Make one of your two-filter list views show records matching either filter (Add Filter Logic: 1 OR 2)."""
    crm = Crm(w)
    views = [v for v in sorted(w.table("list_views"), key=lambda v: v["id"])
             if not v["is_standard"] and v["owner_id"] == 1 and len(v["filters"]) == 2 and not v["filter_logic"]]
    plural = {"Lead": "leads", "Opportunity": "opportunities", "Account": "accounts", "Contact": "contacts", "Case": "cases"}
    from apps.crm.meta import OBJECTS
    for v in rng.sample(views, len(views)):
        other = neighbour(views, v)
        labels = [OBJECTS[v["object"]].field(f["field"]).label for f in v["filters"]]

        def logic(view: dict, text: str) -> list[dict]:
            return [*link_to(view), button("Show filters"), button("Add Filter Logic"),
                    fill("Filter Logic", text, within=None), button("Save")]

        solution = logic(v, "1 OR 2") + [done()]
        start = len(link_to(v))  # the task starts on the list view itself
        yield {
            "goal": f"Your list view \u201c{v['name']}\u201d shows only {plural[v['object']]} that match both of its filters "
                    f"({labels[0]} and {labels[1]}). Change it to show the ones that match either filter, keeping both "
                    f"filters as they are, and save it.",
            "start_path": f"/lightning/o/{v['object']}/list?filterName={v['api_name']}",
            "verify": {
                "checks": [{"table": "list_views", "where": {"id": v["id"]},
                            "expect": {"filter_logic": {"$in": ["1 OR 2", "2 OR 1"]}, "filters": v["filters"],
                                       "scope": v["scope"]}}],
                "unchanged_except": [allow_update("list_views", {"id": v["id"]}, ["filter_logic"])],
            },
            "solution": solution[start:],
            "near_misses": [[button("Show filters"), button(f"Remove filter {labels[1]}"), button("Save"), done()]],
            "harmless": [harmless("check_work", solution[start:-1] + [button("Show filters"), done()],
                                  "opens the filters panel again to see the filter logic saved",
                                  [call("list_list_views", object=v["object"]),
                                   call("set_list_view_filters", list_view_id=v["id"], filters=v["filters"], filter_logic="1 OR 2"),
                                   call("list_list_views", object=v["object"])]),
                         # Either order says "match either filter".
                         harmless("phrasing", logic(v, "2 OR 1")[start:] + [done()], "writes the logic as 2 OR 1",
                                  [call("list_list_views", object=v["object"]),
                                   call("set_list_view_filters", list_view_id=v["id"], filters=v["filters"], filter_logic="2 OR 1")])],
            "adversarial": [
                extra(solution[start:], logic(other, "1 OR 2"), f"gives \u201c{other['name']}\u201d the same logic as well"),
                wrong_record(logic(other, "1 OR 2") + [done()], f"changes \u201c{other['name']}\u201d instead"),
            ],
            "tools": tools(
                [call("list_list_views", object=v["object"]),
                 call("set_list_view_filters", list_view_id=v["id"], filters=v["filters"], filter_logic="1 OR 2"), finish()],
                [call("list_list_views", object=v["object"]),
                 call("set_list_view_filters", list_view_id=v["id"], filters=v["filters"][:1]), finish()],
            ),
        }


PLURAL = {"Lead": "Leads", "Opportunity": "Opportunities", "Account": "Accounts", "Case": "Cases", "Contact": "Contacts"}


def link_to(view: dict) -> list[dict]:
    """Open a list view: the object's tab in the navigation bar, then the list view picker."""
    nav = {"role": "navigation", "name": "Sales navigation", "exact": True}
    return [link(PLURAL[view["object"]], within=nav), button(f"Select a List View: {PLURAL[view['object']]}"),
            {"click": {"role": "menuitemradio", "name": view["name"], "exact": True}}]
