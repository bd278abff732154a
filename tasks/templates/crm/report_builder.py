"""The report builder (the run page's Edit): add and remove columns, group rows, then save."""

from __future__ import annotations

import random

from apps.crm.services.reports import DEFAULT_COLUMNS, col_label, column_choices
from tasks.templates import World, template
from tasks.templates.crm._common import allow_update, call, done, finish, link, pick, tools, wrong_record, extra, button

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
