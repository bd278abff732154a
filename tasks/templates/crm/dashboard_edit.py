"""Editing a dashboard (apps/crm/services/dashboards.py): Edit, + Component (a report as a chart / metric / table),
Remove <title>, Save."""

from __future__ import annotations

import random

from apps.crm.services.dashboards import CHARTS
from apps.crm.services.reports import MEASURE
from tasks.templates import World, template
from tasks.templates.harmless import harmless
from tasks.templates.crm._common import (
    Crm, allow_update, button, call, done, extra, fill, finish, link, neighbour, pick, tools, wrong_record)

HOME = "/lightning/o/Dashboard/home"
# Display As choices a goal asks for, each with the look-alike a careless pick takes instead.
CHOICES = [("donut", "bar"), ("bar", "column"), ("column", "line"), ("metric", "table"), ("table", "metric"), ("funnel", "donut")]


def _component(rep: dict, chart: str) -> dict:
    return {"title": rep["name"], "report_id": rep["id"], "chart": chart,
            "measure": "amount" if rep["report_type"] in MEASURE else "count"}


def _added(want: list[dict]) -> dict:
    """The dashboard's components are `want` (the old ones as they were, the new one last), except the new one's
    title, which the goal leaves to the agent."""
    *kept, new = want
    return {"components": {"$len": len(want)}, **{f"components.{i}": c for i, c in enumerate(kept)},
            **{f"components.{len(kept)}.{k}": v for k, v in new.items() if k != "title"}}


def _add(dash: dict, rep: dict, chart: str, title: str | None = None) -> list[dict]:
    steps = [link(dash["name"]), link("Edit"), button("+ Component"), *pick("Report", rep["name"]),
             *pick("Display As", CHARTS[chart])]
    if title:
        steps.append(fill("Title", title))
    return steps + [button("Add", within={"role": "dialog"}), button("Save")]


def _remove(dash: dict, title: str, reopen: bool = True) -> list[dict]:
    return ([link(dash["name"])] if reopen else []) + [link("Edit"), button(f"Remove {title}"), button("Save")]


@template("crm", "dashboard-add-component", difficulty="medium", max_steps=20)
def dashboard_add_component(w: World, rng: random.Random):
    """Add a report to a dashboard as a given kind of component (Display As) and save the dashboard."""
    crm = Crm(w)
    dashes = sorted(w.table("dashboards"), key=lambda d: d["id"])
    reports = sorted(w.table("reports"), key=lambda r: r["id"])
    cands = []
    for d in dashes:
        on = {c["report_id"] for c in d["components"]} | {c["title"] for c in d["components"]}
        cands += [(d, r) for r in reports if r["id"] not in on and r["name"] not in on]
    for d, rep in rng.sample(cands, len(cands)):
        chart, look_alike = rng.choice(CHOICES)
        other_d = neighbour(dashes, d, lambda x: rep["id"] not in {c["report_id"] for c in x["components"]})
        want = d["components"] + [_component(rep, chart)]
        solution = _add(d, rep, chart) + [done()]
        first = d["components"][0]["title"]
        yield {
            "goal": f"Add the report \u201c{rep['name']}\u201d to the dashboard \u201c{d['name']}\u201d as a {CHARTS[chart]}, "
                    f"and save the dashboard.",
            "start_path": HOME,
            "verify": {
                "checks": [{"table": "dashboards", "where": {"id": d["id"]}, "expect": _added(want)}],
                "unchanged_except": [allow_update("dashboards", {"id": d["id"]}, ["components"])],
            },
            "solution": solution,
            "near_misses": [_add(d, rep, look_alike) + [done()]],
            "harmless": [harmless("check_work", solution[:-1] + [link("Refresh"), done()],
                                  "refreshes the saved dashboard to see the new component",
                                  [call("list_dashboards"), call("list_reports", search=rep["name"]),
                                   call("add_dashboard_component", dashboard_id=d["id"], report_id=rep["id"], display_as=chart),
                                   call("list_dashboards", search=d["name"])]),
                         # The goal names no title: one of the agent's own is as good as the report's name.
                         harmless("phrasing", _add(d, rep, chart, title=f"{rep['name']} ({CHARTS[chart]})") + [done()],
                                  "gives the component a title of its own",
                                  [call("list_dashboards"), call("list_reports", search=rep["name"]),
                                   call("add_dashboard_component", dashboard_id=d["id"], report_id=rep["id"], display_as=chart,
                                        title=f"{rep['name']} ({CHARTS[chart]})")])],
            "adversarial": [
                extra(solution, _remove(d, first, reopen=False), f"also removes the \u201c{first}\u201d component"),
                wrong_record(_add(other_d, rep, chart) + [done()], f"adds it to \u201c{other_d['name']}\u201d instead"),
            ],
            "tools": tools(
                [call("list_dashboards"), call("list_reports", search=rep["name"]),
                 call("add_dashboard_component", dashboard_id=d["id"], report_id=rep["id"], display_as=chart), finish()],
                [call("list_dashboards"), call("list_reports", search=rep["name"]),
                 call("add_dashboard_component", dashboard_id=d["id"], report_id=rep["id"], display_as=look_alike), finish()],
            ),
        }


@template("crm", "dashboard-remove-component", difficulty="easy", max_steps=14)
def dashboard_remove_component(w: World, rng: random.Random):
    """Remove one component from a dashboard and save it."""
    crm = Crm(w)  # noqa: F841 - the world's index, as every crm template builds it
    dashes = sorted(w.table("dashboards"), key=lambda d: d["id"])
    cands = [(d, k) for d in dashes for k in range(len(d["components"])) if len(d["components"]) >= 2]
    for d, k in rng.sample(cands, len(cands)):
        title = d["components"][k]["title"]
        sib = d["components"][(k + 1) % len(d["components"])]["title"]
        want = d["components"][:k] + d["components"][k + 1:]
        other_d = neighbour(dashes, d)
        solution = _remove(d, title) + [done()]
        yield {
            "goal": f"The \u201c{title}\u201d component is no longer needed on the dashboard \u201c{d['name']}\u201d. Remove it "
                    f"and save the dashboard.",
            "start_path": HOME,
            "verify": {
                "checks": [{"table": "dashboards", "where": {"id": d["id"]}, "expect": {"components": want}}],
                "unchanged_except": [allow_update("dashboards", {"id": d["id"]}, ["components"])],
            },
            "solution": solution,
            "near_misses": [_remove(d, sib) + [done()]],
            "harmless": [harmless("check_work", solution[:-1] + [link("Refresh"), done()],
                                  "refreshes the saved dashboard to see the component gone",
                                  [call("list_dashboards", search=d["name"]),
                                   call("remove_dashboard_component", dashboard_id=d["id"], title=title),
                                   call("list_dashboards", search=d["name"])])],
            "adversarial": [
                extra(solution, _remove(d, sib, reopen=False), f"also removes \u201c{sib}\u201d"),
                wrong_record(_remove(other_d, other_d["components"][0]["title"]) + [done()],
                             f"removes \u201c{other_d['components'][0]['title']}\u201d from \u201c{other_d['name']}\u201d instead"),
            ],
            "tools": tools(
                [call("list_dashboards", search=d["name"]), call("remove_dashboard_component", dashboard_id=d["id"], title=title), finish()],
                [call("list_dashboards", search=d["name"]), call("remove_dashboard_component", dashboard_id=d["id"], title=sib), finish()],
            ),
        }
