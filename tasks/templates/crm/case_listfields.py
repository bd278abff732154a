"""Issue 17: Close Case through its form (Case Reason, Internal Comments) and a list view's fields (List View
Controls > Select Fields to Display)."""

from __future__ import annotations

import random

from tasks.templates import World, template
from tasks.templates.harmless import harmless
from tasks.templates.crm._common import (
    Crm, allow_create, allow_update, button, call, done, dump, dump_text, extra, fill, find, finish, menuitem,
    neighbour, open_record, pick, reread, save_modal, tools, written, wrong_record)

COMMENTS = [
    "Customer confirmed the fix after the 2.4 patch.",
    "Replaced the faulty unit on site; working since Tuesday.",
    "Root cause was a bad config push; rolled back and verified.",
    "Walked the customer through the setup on a call; resolved.",
    "Duplicate of an earlier case; answered there.",
    "Firmware update applied remotely, customer signed off.",
    "Invoice corrected and resent; customer satisfied.",
]


def _close(reason: str, comment: str) -> list[dict]:
    return [button("Show more actions"), menuitem("Close Case"), *pick("Case Reason", reason),
            fill("Internal Comments", comment), save_modal()]


@template("crm", "case-close-with-comment", difficulty="medium", max_steps=24)
def case_close_with_comment(w: World, rng: random.Random):
    """Close a case through Close Case's form, with a case reason and an internal comment."""
    crm = Crm(w)
    numbers = [c["case_number"] for c in crm.cases]
    cands = [c for c in crm.cases if c["status"] in ("New", "Working", "Escalated") and numbers.count(c["case_number"]) == 1
             and c["account_id"]]
    order = rng.sample(cands, len(cands))
    reasons = ["Performance", "Breakdown", "Installation", "Equipment Design", "Feedback"]
    for n, c in enumerate(order[:5]):
        reason = next(r for r in reasons[n:] + reasons[:n] if r != c["reason"])
        comment = COMMENTS[n]
        acc = crm.acc[c["account_id"]]["name"]
        other = neighbour(order, c)
        solution = open_record(c["case_number"]) + _close(reason, comment) + [done()]
        no_comment = open_record(c["case_number"]) + [button("Show more actions"), menuitem("Close Case"),
                                                       *pick("Case Reason", reason), save_modal(), done()]
        yield {
            "goal": (f"Case {c['case_number']} from {acc} (\u201c{c['subject']}\u201d) is resolved. Close it with the case "
                     f"reason {reason} and this internal comment: {comment}"),
            "start_path": "/lightning/o/Case/list?filterName=AllOpenCases",
            "verify": {
                "checks": [
                    {"table": "cases", "where": {"id": c["id"]},
                     "expect": {"status": "Closed", "reason": reason, "closed_at": {"$ne": None}}},
                    {"table": "case_comments", "in": "created", "where": {"case_id": c["id"]}, "count": 1,
                     "expect": {"body": written(comment.rstrip("."), comment, COMMENTS), "is_published": False}},
                ],
                "unchanged_except": [allow_update("cases", {"id": c["id"]}, ["status", "closed_at", "reason"]),
                                     allow_create("case_comments", {"case_id": c["id"]})],
            },
            "solution": solution,
            "near_misses": [no_comment],
            "harmless": [harmless("check_work", solution[:-1] + open_record(c["case_number"]) + [done()],
                                  "opens the case again to see it closed, with its reason and comment",
                                  [find("Case", c["case_number"]), call("close_case", case_id=c["id"], reason=reason, comment=comment),
                                   reread("Case", c["id"])])],
            "adversarial": [
                extra(solution, open_record(other["case_number"]) + _close(reason, comment),
                      f"also closes case {other['case_number']} with the same comment"),
                wrong_record(open_record(other["case_number"]) + _close(reason, comment) + [done()],
                             f"closes case {other['case_number']} instead"),
                dump(open_record(c["case_number"]) + _close(reason, dump_text(comment, COMMENTS)) + [done()],
                     "every canned comment written into the case's comment"),
            ],
            "tools": tools([find("Case", c["case_number"]), call("close_case", case_id=c["id"], reason=reason, comment=comment),
                            finish()],
                           [find("Case", c["case_number"]), call("close_case", case_id=c["id"], reason=reason), finish()]),
        }


LV_CONTROLS = button("List View Controls")
PLURAL = {"Lead": "Leads", "Opportunity": "Opportunities", "Account": "Accounts", "Case": "Cases", "Contact": "Contacts"}
# (object, the target view: a seeded one by api name or a fixture (name, api, filters), fields added in order, removed)
COLUMN_PLANS = [
    ("Lead", "Hot_Web_Leads", ["lead_source", "rating"], ["phone"]),
    ("Opportunity", "My_Big_Deals", ["probability", "next_step"], ["account_id"]),
    ("Account", ("My Key Accounts", "My_Key_Accounts", [{"field": "type", "op": "equals", "value": "Customer - Direct"}]),
     ["annual_revenue", "rating"], ["billing_state"]),
    ("Case", ("My Priority Cases", "My_Priority_Cases", [{"field": "priority", "op": "equals", "value": "High"}]),
     ["origin", "reason"], ["created_at"]),
    ("Contact", ("My Champions", "My_Champions", [{"field": "title", "op": "contains", "value": "Director"}]),
     ["department", "mailing_city"], ["phone"]),
]


def _lv_row(crm: Crm, rid: int, obj: str, name: str, api: str, filters: list) -> dict:
    when = (crm.now.replace(microsecond=0)).isoformat()
    return {"id": rid, "object": obj, "name": name, "api_name": api, "kind": "filter", "scope": "mine",
            "filters": filters, "filter_logic": "", "visibility": "me", "is_standard": False, "owner_id": 1,
            "created_at": when, "updated_at": when}


def _fields_steps(labels: dict[str, str], add: list[str], remove: list[str]) -> list[dict]:
    steps = [LV_CONTROLS, menuitem("Select Fields to Display")]
    for f in add:
        steps += [{"click": {"role": "option", "name": labels[f], "exact": True,
                             "within": {"role": "listbox", "name": "Available Fields", "exact": True}}},
                  button("Move selection to Visible Fields")]
    for f in remove:
        steps += [{"click": {"role": "option", "name": labels[f], "exact": True,
                             "within": {"role": "listbox", "name": "Visible Fields", "exact": True}}},
                  button("Move selection to Available Fields")]
    return steps + [save_modal()]


@template("crm", "listview-select-fields", difficulty="medium", max_steps=24)
def listview_select_fields(w: World, rng: random.Random):
    """Choose a list view's columns (Select Fields to Display): add two fields at the end, remove one."""
    from apps.crm.meta import OBJECTS

    crm = Crm(w)
    views = {v["api_name"]: v for v in w.table("list_views")}
    plans = list(COLUMN_PLANS)
    rng.shuffle(plans)
    for obj, target, add, remove in plans:
        o = OBJECTS[obj]
        labels = {f.name: f.label for f in o.fields}
        fixtures = []
        if isinstance(target, str):
            lv = views[target]
        else:
            name, api, filters = target
            lv = _lv_row(crm, 900, obj, name, api, filters)
        decoy = _lv_row(crm, 901, obj, f"{lv['name']} (old)", f"{lv['api_name']}_old", lv["filters"])
        rows = [decoy] if isinstance(target, str) else [lv, decoy]
        fixtures.append({"op": "insert", "table": "list_views", "rows": rows})
        start = [c for c in o.list_columns]
        want = [c for c in start if c not in remove] + add
        names = " and ".join(labels[f] for f in add)
        head_start = f"/lightning/o/{obj}/list?filterName={lv['api_name']}"
        solution = _fields_steps(labels, add, remove) + [done()]
        only_add = _fields_steps(labels, add, []) + [done()]
        decoy_steps = [button(f"Select a List View: {PLURAL[obj]}"),
                       {"click": {"role": "menuitemradio", "name": decoy["name"], "exact": True}}]
        yield {
            "goal": (f"Your {obj.lower()} list view \u201c{lv['name']}\u201d should also show {names} (add them at the end, in that "
                     f"order) and no longer show {labels[remove[0]]}. Change the fields it displays."),
            "start_path": head_start,
            "fixtures": fixtures,
            "verify": {
                "checks": [{"table": "list_views", "where": {"id": lv["id"]}, "expect": {"columns": want, "filters": lv["filters"]}},
                           {"table": "list_views", "where": {"id": decoy["id"]}, "expect": {"columns": None}}],
                "unchanged_except": [allow_update("list_views", {"id": lv["id"]}, ["columns"])],
            },
            "solution": solution,
            "near_misses": [only_add],
            "harmless": [harmless("check_work", solution[:-1] + [button(f"Select a List View: {PLURAL[obj]}"),
                                                               {"click": {"role": "menuitemradio", "name": lv["name"], "exact": True}},
                                                               done()],
                                  "chooses the list view again from the picker to see its new columns",
                                  [call("list_list_views", object=obj), call("set_list_view_columns", list_view_id=lv["id"], columns=want),
                                   call("list_records", object=obj, list_view=lv["api_name"])])],
            "adversarial": [
                extra(solution, decoy_steps + _fields_steps(labels, add, remove),
                      f"also changes the fields of \u201c{decoy['name']}\u201d"),
                wrong_record(decoy_steps + _fields_steps(labels, add, remove) + [done()],
                             f"changes \u201c{decoy['name']}\u201d instead"),
            ],
            "tools": tools([call("list_list_views", object=obj), call("set_list_view_columns", list_view_id=lv["id"], columns=want),
                            finish()],
                           [call("list_list_views", object=obj),
                            call("set_list_view_columns", list_view_id=lv["id"], columns=start + add), finish()]),
        }
