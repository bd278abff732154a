"""List views: create one with filters, rename one, and mass-change owners from a list."""

from __future__ import annotations

import random

from tasks.templates import World, template
from tasks.templates.harmless import harmless
from tasks.templates.crm._common import (
    DIALOG, ME, Crm, allow_create, allow_update, button, call, done, extra, fill, finish, lookup, menuitem, money, pick, open_record,
    reread, save_modal, tools)

LV_CONTROLS = button("List View Controls")


@template("crm", "listview-create-filters", difficulty="medium", max_steps=40)
def listview_create_filters(w: World, rng: random.Random):
    """Create a private Opportunity list view filtered by stage and a minimum amount."""
    new_id = max(v["id"] for v in w.table("list_views")) + 1  # what create_list_view returns
    names = ["Proposal Pipeline", "Big Proposals", "Late Stage Deals", "Negotiation Watch", "Qualified Big Deals",
             "Deals To Push", "Needs Analysis Focus"]
    seen = set()
    for _ in range(40):
        stage = rng.choice(["Qualification", "Needs Analysis", "Proposal", "Negotiation"])
        amount = rng.choice([50000, 75000, 100000, 150000, 250000])
        name = rng.choice([n for n in names if n not in seen])
        seen.add(name)
        head = [LV_CONTROLS, menuitem("New"), fill("List Name", name)]
        filters = [button("Add Filter"), *pick("Field", "Stage", within=None),
                   {"click": {"role": "checkbox", "name": stage, "exact": True}}, button("Done"),
                   button("Add Filter"), *pick("Field", "Amount", within=None), *pick("Operator", "greater than", within=None),
                   fill("Value", str(amount), within=None), button("Done"), button("Save"), done()]
        yield {
            "goal": f"Create a new Opportunity list view called \u201c{name}\u201d that only you can see, showing opportunities "
                    f"in the {stage} stage with an amount greater than {money(amount)}.",
            "start_path": "/lightning/o/Opportunity/list",
            "verify": {
                "checks": [{"table": "list_views", "in": "created", "where": {"name": {"$ieq": name}},
                            "expect": {"object": "Opportunity", "visibility": "me", "is_standard": False, "scope": "all",
                                       "$and": [{"filters": {"$len": 2, "$any": {"field": "stage", "op": "equals", "value": stage}}},
                                                {"filters": {"$len": 2,
                                                             "$any": {"field": "amount", "op": "greater", "value": str(amount)}}}]},
                            "count": 1}],
                "unchanged_except": [allow_create("list_views", {"object": "Opportunity", "name": {"$ieq": name}})],
            },
            "solution": head + [save_modal()] + filters,
            "harmless": [harmless("check_work", head + [save_modal()] + filters[:-1] + [
                button("Select a List View: Opportunities"), {"click": {"role": "menuitemradio", "name": name, "exact": True}}, done()],
                "chooses the new list view again from the picker to see its filters took",
                [call("create_list_view", object="Opportunity", name=name, visibility="me"),
                 call("set_list_view_filters", list_view_id=new_id,
                      filters=[{"field": "stage", "op": "equals", "value": stage},
                               {"field": "amount", "op": "greater", "value": str(amount)}]),
                 call("list_list_views", object="Opportunity"), call("list_records", object="Opportunity", list_view=name)])],
            "adversarial": [extra(head + [save_modal()] + filters,
                                  [LV_CONTROLS, menuitem("New"), fill("List Name", f"{name} (all users)"),
                                   {"click": {"role": "radio", "name": "All users can see this list view", "exact": True}},
                                   save_modal()],
                                  "creates a public twin of the list view as well")],
            "near_misses": [head + [{"click": {"role": "radio", "name": "All users can see this list view", "exact": True}}, save_modal()]
                            + filters],
            "tools": tools(*[[call("create_list_view", object="Opportunity", name=name, visibility=vis),
                              call("set_list_view_filters", list_view_id=new_id,
                                   filters=[{"field": "stage", "op": "equals", "value": stage},
                                            {"field": "amount", "op": "greater", "value": str(amount)}]), finish()]
                             for vis in ("me", "all")]),
        }


@template("crm", "listview-rename", difficulty="easy", max_steps=15)
def listview_rename(w: World, rng: random.Random):
    """Switch to one of your list views and rename it."""
    mine = [v for v in w.table("list_views") if not v["is_standard"]]
    new_names = {"Opportunity": ["Top Deals", "Key Opportunities", "Priority Pipeline", "Focus Deals", "Whales"],
                 "Lead": ["Hot Inbound Leads", "Web Leads to Call", "Best Leads", "Leads to Nurture", "Call List"]}
    for names in new_names.values():
        rng.shuffle(names)
    for i in range(8):
        lv = mine[i % len(mine)]
        new = new_names[lv["object"]][i % 5]
        plural = {"Opportunity": "Opportunities", "Lead": "Leads"}[lv["object"]]
        head = [button(f"Select a List View: {plural}"), {"click": {"role": "menuitemradio", "name": lv["name"], "exact": True}},
                LV_CONTROLS]
        others = [v for v in mine if v["object"] == lv["object"] and v["id"] != lv["id"]]
        if others:
            harm = [button(f"Select a List View: {plural}"), {"click": {"role": "menuitemradio", "name": others[0]["name"], "exact": True}},
                    LV_CONTROLS, menuitem("Rename"), fill("List Name", f"{new} 2"), save_modal()]
            why = f"also renames your other list view \u201c{others[0]['name']}\u201d"
        else:
            harm = [LV_CONTROLS, menuitem("Clone"), fill("List Name", f"{new} (copy)"), save_modal()]
            why = "also clones the list view"
        solution = head + [menuitem("Rename"), fill("List Name", new), save_modal(), done()]
        yield {
            "goal": f"Rename your {plural.lower()} list view \u201c{lv['name']}\u201d to \u201c{new}\u201d.",
            "start_path": f"/lightning/o/{lv['object']}/list",
            "verify": {
                "checks": [{"table": "list_views", "where": {"id": lv["id"]}, "expect": {"name": new, "filters": lv["filters"]}}],
                "unchanged_except": [allow_update("list_views", {"id": lv["id"]}, ["name", "api_name"])],
            },
            "solution": solution,
            "adversarial": [extra(solution, harm, why)],
            "near_misses": [head + [menuitem("Clone"), fill("List Name", new), save_modal(), done()]],
            "harmless": [harmless("check_work", solution[:-1] + [button(f"Select a List View: {plural}"),
                                                               {"click": {"role": "menuitemradio", "name": new, "exact": True}}, done()],
                                  "opens the list view picker after renaming, to see the new name there, and chooses it",
                                  [call("list_list_views", object=lv["object"]), call("rename_list_view", list_view_id=lv["id"], name=new),
                                   call("list_list_views", object=lv["object"])])],
            "tools": tools([call("list_list_views", object=lv["object"]), call("rename_list_view", list_view_id=lv["id"], name=new), finish()],
                           [call("list_list_views", object=lv["object"]),
                            call("create_list_view", object=lv["object"], name=new, clone_from_id=lv["id"]), finish()]),
        }


@template("crm", "mass-change-lead-owner", difficulty="medium", max_steps=16)
def mass_change_lead_owner(w: World, rng: random.Random):
    """Select two leads in a list view and change their owner in one action."""
    crm = Crm(w)
    rows = sorted([x for x in crm.leads if not x["is_converted"] and x["rating"] == "Hot" and x["lead_source"] == "Web"],
                  key=lambda x: (f"{x['first_name']} {x['last_name']}".lower(), x["id"]))[:40]
    reps = [7, 8, 9, 10, 14]
    pairs = [(a, b) for i, a in enumerate(rows) for b in rows[i + 1:] if crm.unique(crm.cname(a)) and crm.unique(crm.cname(b))]
    for a, b in rng.sample(pairs, len(pairs)):
        uid = rng.choice([r for r in reps if r not in (a["owner_id"], b["owner_id"])])
        third = next(x for x in rows if x["id"] not in (a["id"], b["id"]) and crm.unique(crm.cname(x)) and x["owner_id"] != uid)
        user = crm.uname(uid)
        sel = lambda x: {"click": {"role": "checkbox", "name": f"Select {crm.cname(x)}", "exact": True}}  # noqa: E731
        tail = [button("Change Owner")] + lookup("Owner", user.split()[0], user) + [save_modal(), done()]
        yield {
            "goal": f"In your Hot Web Leads list view, assign both {crm.cname(a)} and {crm.cname(b)} to {user} in one go.",
            "start_path": "/lightning/o/Lead/list?filterName=Hot_Web_Leads",
            "verify": {
                "checks": [{"table": "leads", "where": {"id": {"$in": [a["id"], b["id"]]}}, "expect": {"owner_id": uid}, "count": 2}],
                "unchanged_except": [allow_update("leads", {"id": {"$in": [a["id"], b["id"]]}}, ["owner_id"])],
            },
            "solution": [sel(a), sel(b)] + tail,
            "adversarial": [{"kind": "extra", "steps": [sel(a), sel(b), sel(third)] + tail,
                             "why": f"selects a third lead, {crm.cname(third)}, too"}],
            "near_misses": [[sel(a)] + tail],
            "harmless": [harmless("check_work", [sel(a), sel(b)] + tail[:-1] + open_record(crm.cname(a)) + [done()],
                                  f"opens {crm.cname(a)}'s record afterwards to see the new owner",
                                  [call("list_records", object="Lead", list_view="Hot_Web_Leads", limit=50), call("list_users"),
                                   call("mass_change_owner", object="Lead", record_ids=[a["id"], b["id"]], owner_id=uid),
                                   reread("Lead", a["id"])])],
            "tools": tools(*[[call("list_records", object="Lead", list_view="Hot_Web_Leads", limit=50), call("list_users"),
                              call("mass_change_owner", object="Lead", record_ids=ids, owner_id=uid), finish()]
                             for ids in ([a["id"], b["id"]], [a["id"]])]),
        }
