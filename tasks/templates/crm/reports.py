"""Reports: save a filtered copy of a report; build a new grouped report."""

from __future__ import annotations

import random

from tasks.templates import World, template
from tasks.templates.harmless import harmless
from tasks.templates.crm._common import (
    DIALOG, ME, allow_create, button, call, done, extra, fill, finish, link, pick, save_modal, tools)

PLURAL = {"Opportunity": "opportunities", "Lead": "leads", "Case": "cases", "Account": "accounts", "Contact": "contacts",
          "Task": "tasks"}


def _find_report(name: str) -> list[dict]:
    """check_work: the Reports tab's search, then the report's link (opening a report runs it)."""
    return [link("Reports"), {"fill": {"role": "searchbox", "name": "Search all reports"}, "text": name}, {"press": ["Enter"]}, link(name)]


@template("crm", "report-save-as-mine", difficulty="medium", max_steps=20)
def report_save_as_mine(w: World, rng: random.Random):
    """Run a report, switch Show Me to My records, and Save As a new private report."""
    reps = [r for r in w.table("reports") if r["scope"] == "all" and r["report_type"] in ("Opportunity", "Lead", "Case", "Account")]
    names = ["My {x}", "{x} - Mine", "Personal {x}"]
    new_id = max(r["id"] for r in w.table("reports")) + 1  # what save_report_as returns
    for r in rng.sample(reps, len(reps)):
        new = rng.choice(names).format(x=r["name"])
        plural = PLURAL[r["report_type"]]
        head = [link("Reports"), {"fill": {"role": "searchbox", "name": "Search all reports"}, "text": r["name"]}, {"press": ["Enter"]},
                link(r["name"])]
        scope = [button(f"Show Me: All {plural}"), {"click": {"role": "radio", "name": f"My {plural}", "exact": True}}, button("Apply")]
        tail = [button("Save As"), fill("Report Name", new), save_modal(), done()]
        yield {
            "goal": f"Open the report \u201c{r['name']}\u201d, change it to show only your own {plural} (Show Me), and save it as a new "
                    f"private report named \u201c{new}\u201d.",
            "start_path": "/lightning/page/home",
            "verify": {
                "checks": [{"table": "reports", "in": "created", "where": {"name": {"$ieq": new}},
                            "expect": {"scope": "mine", "report_type": r["report_type"], "folder": "Private Reports",
                                       "filters": r["filters"], "group_by": r["group_by"], "owner_id": ME}, "count": 1}],
                "unchanged_except": [allow_create("reports", {"name": {"$ieq": new}, "report_type": r["report_type"]})],
            },
            "solution": head + scope + tail,
            "adversarial": [extra(head + scope + tail, [button("Save As"), fill("Report Name", f"{new} (2)"), save_modal()],
                                  "saves a second copy under another name")],
            "near_misses": [head + tail],
            "harmless": [harmless("check_work", head + scope + tail[:-1] + _find_report(new) + [done()],
                                  "finds the new report in Reports afterwards and opens it, to see it saved",
                                  [call("list_reports", search=r["name"]),
                                   call("save_report_as", report_id=r["id"], name=new, folder="Private Reports", scope="mine"),
                                   call("list_reports", search=new), call("run_report", report_id=new_id)])],
            "tools": tools([call("list_reports", search=r["name"]),
                            call("save_report_as", report_id=r["id"], name=new, folder="Private Reports", scope="mine"), finish()],
                           [call("list_reports", search=r["name"]),
                            call("save_report_as", report_id=r["id"], name=new, folder="Private Reports"), finish()]),
        }


@template("crm", "report-new-grouped", difficulty="hard", max_steps=35)
def report_new_grouped(w: World, rng: random.Random):
    """Create a Leads report, filter it by lead source, group it by status and save it."""
    sources = ["Web", "Trade Show", "Partner Referral", "Webinar", "Advertisement", "Phone Inquiry", "Purchased List"]
    rng.shuffle(sources)
    new_id = max(r["id"] for r in w.table("reports")) + 1  # what create_report returns
    for src in sources:
        name = f"{src} Leads by Status"
        # Lightning's flow: Create Report (choose the type), Start Report, build it, then Save & Run names and files it.
        start = [link("Reports"), button("New Report"), {"click": {"role": "radio", "name": "Leads", "exact": True}},
                 button("Start Report", within=DIALOG)]
        filt = [*pick("Filter field", "Lead Source", within=None), fill("Value", src, within=None), button("Add Filter")]
        group = [*pick("Add group", "Lead Status", within=None), button("Group")]
        head = start + filt + group

        def save(folder: str = "Marketing Reports", name: str = name) -> list[dict]:
            return [button("Save & Run"), fill("Report Name", name), *pick("Folder", folder), button("Save", within=DIALOG)]
        yield {
            "goal": f"Create a new Leads report named \u201c{name}\u201d in the Marketing Reports folder that shows only leads whose "
                    f"lead source is {src}, grouped by lead status. Save it.",
            "start_path": "/lightning/page/home",
            "verify": {
                "checks": [{"table": "reports", "in": "created", "where": {"name": {"$ieq": name}},
                            "expect": {"report_type": "Lead", "folder": "Marketing Reports", "group_by": "status",
                                       "filters": [{"field": "lead_source", "op": "equals", "value": src}]}, "count": 1}],
                "unchanged_except": [allow_create("reports", {"name": {"$ieq": name}, "report_type": "Lead"})],
            },
            "solution": head + save() + [done()],
            "adversarial": [extra(head + save() + [done()], [button("Save As"), fill("Report Name", f"{name} (2)"), save_modal()],
                                  "saves a second copy of the report under another name")],
            "near_misses": [head + [done()], start + filt + save() + [done()], head + save("Private Reports") + [done()]],
            "harmless": [harmless("check_work", head + save() + _find_report(name) + [done()],
                                  "finds the new report in Reports afterwards and opens it, to see it saved",
                                  [call("create_report", name=name, report_type="Lead", folder="Marketing Reports"),
                                   call("save_report", report_id=new_id, filters=[{"field": "lead_source", "op": "equals", "value": src}],
                                        group_by="status"),
                                   call("list_reports", search=name), call("run_report", report_id=new_id)])],
            # The near-misses build the report but never save it, save it without the grouping, or leave it in Private Reports.
            "tools": tools([call("create_report", name=name, report_type="Lead", folder="Marketing Reports"),
                            call("save_report", report_id=new_id, filters=[{"field": "lead_source", "op": "equals", "value": src}],
                                 group_by="status"), finish()],
                           [call("create_report", name=name, report_type="Lead", folder="Marketing Reports"),
                            call("run_report", report_id=new_id, filters=[{"field": "lead_source", "op": "equals", "value": src}],
                                 group_by="status"), finish()]),
        }
