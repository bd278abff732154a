"""The report builder (the run page's Edit): add and remove columns, group rows, then save."""

from __future__ import annotations

import random

from apps.crm.services.reports import DEFAULT_COLUMNS, col_label, column_choices
from tasks.templates import World, template
from tasks.templates.harmless import harmless
from tasks.templates.crm._common import (
    DIALOG, allow_create, allow_update, button, call, done, extra, fill, finish, link, pick, save_modal, tools, wrong_record)

PLURAL = {"Lead": "Leads", "Opportunity": "Opportunities", "Case": "Cases", "Account": "Accounts"}
# Columns worth adding and grouping by (picklists a manager slices a report by).
ADD = {"Lead": ["rating", "industry", "country", "title"], "Opportunity": ["type", "lead_source", "forecast_category"],
       "Case": ["type", "reason"], "Account": ["rating", "ownership", "type"]}


def _open(r: dict) -> list[dict]:
    return [link("Reports"), {"fill": {"role": "searchbox", "name": "Search all reports"}, "text": r["name"]}, {"press": ["Enter"]},
            link(r["name"])]


def _edit(r: dict, add: str, remove: str, group: str, finish_with: str = "Save & Run") -> list[dict]:
    t = r["report_type"]
    steps = _open(r) + [link("Edit")] + pick("Add column", col_label(t, add), within=None) + [button("Add Column"),
                                                                                            link(f"Remove column {col_label(t, remove)}")]
    if r["group_by"]:
        steps.append(link(f"Remove group {col_label(t, r['group_by'])}"))
    steps += pick("Add group", col_label(t, group), within=None) + [button("Group")]
    return steps + [button(finish_with) if finish_with != "Run" else link("Run")]


@template("crm", "report-edit-columns", difficulty="medium", max_steps=30)
def report_edit_columns(w: World, rng: random.Random):
    """Edit a report in the builder: add a column, remove one, group the rows by the new column, save."""
    reps = [r for r in w.table("reports") if r["report_type"] in ADD and r["columns"] and "account.industry" not in r["columns"]]
    order = rng.sample(reps, len(reps))
    for r in order:
        t = r["report_type"]
        cols = list(r["columns"] or DEFAULT_COLUMNS[t])
        adds = [c for c in ADD[t] if c in column_choices(t) and c not in cols]
        removable = [c for c in cols[1:] if c != r["group_by"] and c != r["sort_by"]]
        if not adds or len(removable) < 2:
            continue
        add = rng.choice(adds)
        remove, wrong = rng.sample(removable, 2)
        want = [c for c in cols if c != remove] + [add]
        others = [x for x in order if x is not r and x["report_type"] == t and x["columns"] == r["columns"]
                  and x["group_by"] and remove in x["columns"] and x["group_by"] != remove]
        la, lr = col_label(t, add), col_label(t, remove)
        gold = _edit(r, add, remove, add) + [done()]
        plural = PLURAL[t]
        item = {
            "goal": (f"Edit the report \u201c{r['name']}\u201d: add the {la} column, remove the {lr} column, group the rows by "
                     f"{la}, and save it."),
            "start_path": "/lightning/page/home",
            "verify": {
                "checks": [{"table": "reports", "where": {"id": r["id"]},
                            "expect": {"columns": want, "group_by": add, "filters": r["filters"], "scope": r["scope"]}}],
                "unchanged_except": [allow_update("reports", {"id": r["id"]}, ["columns", "group_by"])],
            },
            "solution": gold,
            "near_misses": [
                _edit(r, add, wrong, add) + [done()],  # removes the wrong column
                _edit(r, add, remove, add, finish_with="Run") + [done()],  # runs it without saving
            ],
            # Opening a report runs it (its last_run_at stamp): the check_work reopening must not count as a change.
            "harmless": [harmless("check_work", gold[:-1] + _open(r) + [done()],
                                  "opens the report again from Reports to see the saved columns and grouping",
                                  [call("list_reports", search=r["name"]),
                                   call("save_report", report_id=r["id"], columns=want, group_by=add),
                                   call("run_report", report_id=r["id"])])],
            "adversarial": [
                extra(gold, [link("Edit")] + pick("Show Me", f"{'All' if r['scope'] == 'mine' else 'My'} {plural}", within=None) + [button("Apply Show Me"), button("Save & Run")],
                      "also flips its Show Me (your records / all records) and saves that too"),
            ],
            "tools": tools(
                [call("list_reports", search=r["name"]), call("save_report", report_id=r["id"], columns=want, group_by=add), finish()],
                [call("list_reports", search=r["name"]),
                 call("save_report", report_id=r["id"], columns=[c for c in cols if c != wrong] + [add], group_by=add), finish()],
            ),
        }
        if others:
            o = others[0]
            item["adversarial"].append(wrong_record(_edit(o, add, remove, add) + [done()], f"edits \u201c{o['name']}\u201d instead"))
        yield item


# --------------------------------------------------------------- New Report: type, builder, Save & Run
FOLDERS = {"Opportunity": "Sales Reports", "Lead": "Marketing Reports", "Case": "Service Reports", "Account": "Sales Reports"}


def _new_report(t: str, name: str, add: str, folder: str, scope_mine: bool = True, save: bool = True) -> list[dict]:
    """Lightning's New Report: Create Report's type, Start Report, then the builder (Show Me, a column), Save & Run
    (name and folder)."""
    plural = PLURAL[t]
    steps = [link("Reports"), button("New Report"), {"click": {"role": "radio", "name": plural, "exact": True}},
             button("Start Report", within=DIALOG)]
    if scope_mine:
        steps += pick("Show Me", f"My {plural}", within=None) + [button("Apply Show Me")]
    steps += pick("Add column", col_label(t, add), within=None) + [button("Add Column")]
    if save:
        steps += [button("Save & Run"), fill("Report Name", name), *pick("Folder", folder), button("Save", within=DIALOG)]
    return steps


@template("crm", "report-new-my-columns", difficulty="hard", max_steps=30)
def report_new_my_columns(w: World, rng: random.Random):
    """Create a report with New Report's flow: choose the type, show only your records, add a column, save it
    into a shared folder."""
    plans = [(t, c) for t in ("Opportunity", "Lead", "Case", "Account") for c in ADD[t] if c in column_choices(t)]
    rng.shuffle(plans)
    # A column the type already shows cannot be added (Account's Type): dropped after the shuffle, so the draws
    # that never met it (seed 0's bundled tasks) stay as they were.
    plans = [(t, c) for t, c in plans if c not in DEFAULT_COLUMNS[t]]
    new_id = max(r["id"] for r in w.table("reports")) + 1  # what create_report returns
    seen: set[str] = set()
    firsts = [x for x in plans if not (x[0] in seen or seen.add(x[0]))]  # one of each type first, then the rest
    for t, add in firsts + [x for x in plans if x not in firsts]:
        plural, label, folder = PLURAL[t], col_label(t, add), FOLDERS[t]
        name = f"My {plural} with {label}"
        wrong_t = next(x for x in PLURAL if x != t and add in column_choices(x)) if any(
            x != t and add in column_choices(x) for x in PLURAL) else None
        gold = _new_report(t, name, add, folder) + [done()]
        want = {"report_type": t, "folder": folder, "scope": "mine", "columns": DEFAULT_COLUMNS[t] + [add], "filters": [],
                "group_by": None}
        item = {
            "goal": (f"Create a new {plural} report named \u201c{name}\u201d in the {folder} folder. It should show only your own "
                     f"{plural.lower()} (Show Me) and add the {label} column to the standard ones. Save it."),
            "start_path": "/lightning/page/home",
            "verify": {
                "checks": [{"table": "reports", "in": "created", "where": {"name": {"$ieq": name}}, "expect": want, "count": 1}],
                "unchanged_except": [allow_create("reports", {"name": {"$ieq": name}, "report_type": t})],
            },
            "solution": gold,
            "near_misses": [
                _new_report(t, name, add, folder, scope_mine=False) + [done()],  # Show Me left at all records
                _new_report(t, name, add, "Private Reports") + [done()],  # the default folder kept
                _new_report(t, name, add, folder, save=False) + [done()],  # built, never saved
            ],
            "harmless": [harmless("check_work", gold[:-1] + _open({"name": name}) + [done()],
                                  "opens the new report again from Reports to see it saved",
                                  [call("create_report", name=name, report_type=t, folder=folder),
                                   call("save_report", report_id=new_id, scope="mine", columns=DEFAULT_COLUMNS[t] + [add]),
                                   call("list_reports", search=name), call("run_report", report_id=new_id)])],
            "adversarial": [
                extra(gold, [button("Save As"), fill("Report Name", f"{name} (2)"), save_modal()],
                      "saves a second copy of the report under another name"),
            ],
            "tools": tools(
                [call("create_report", name=name, report_type=t, folder=folder),
                 call("save_report", report_id=new_id, scope="mine", columns=DEFAULT_COLUMNS[t] + [add]), finish()],
                [call("create_report", name=name, report_type=t, folder=folder),
                 call("save_report", report_id=new_id, columns=DEFAULT_COLUMNS[t] + [add]), finish()],
            ),
        }
        if wrong_t:
            item["adversarial"].append(wrong_record(_new_report(wrong_t, name, add, FOLDERS[wrong_t]) + [done()],
                                                    f"builds it as a {PLURAL[wrong_t]} report instead"))
        yield item
