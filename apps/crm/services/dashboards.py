"""Editing a dashboard: its components (a report shown as a chart, a metric or a table), added, removed and saved.

A component is {"title", "report_id", "chart", "measure"} (models.Dashboard). One rule, `component`, makes
and checks a component for the dashboard builder (views/dashboards.py: + Component's Add, the draft it keeps
until Save) and for the tools (add_dashboard_component, remove_dashboard_component); `save` checks them all
again and writes.
"""

from __future__ import annotations

import json
from typing import Any

from apps._shared import db, now
from apps.crm import models as m
from apps.crm.services import ServiceError
from apps.crm.services.reports import MEASURE

# Display As, in the builder's order: the stored value and its label.
CHARTS = {"bar": "Horizontal Bar Chart", "column": "Vertical Bar Chart", "line": "Line Chart",
          "donut": "Donut Chart", "funnel": "Funnel Chart", "metric": "Metric", "table": "Lightning Table"}
MAX_COMPONENTS = 20
MAX_TITLE = 80


def dashboard(did: int) -> m.Dashboard:
    d = db().get(m.Dashboard, did)
    if d is None:
        raise ServiceError(f"there is no dashboard with id {did} (see list_dashboards)", status=404)
    return d


def chart_value(chart) -> str:
    """A Display As choice by its value ("donut") or its label ("Donut Chart"), or a ServiceError."""
    if isinstance(chart, str):
        c = chart.strip()
        if c in CHARTS:
            return c
        by_label = {v.casefold(): k for k, v in CHARTS.items()}
        if c.casefold() in by_label:
            return by_label[c.casefold()]
    raise ServiceError("Choose how to display the component: " + ", ".join(f"{k} ({v})" for k, v in CHARTS.items()) + ".",
                       {"chart": "Select an option."})


def component(report_id, chart, title="") -> dict[str, Any]:
    """A checked component: the report exists, Display As is one of CHARTS, the title (blank: the report's name)
    has at most MAX_TITLE characters; the measure is the report's amount where it has one, else the count."""
    errors: dict[str, str] = {}
    rep = None
    rid = report_id
    if isinstance(rid, str):
        rid = int(rid) if rid.strip().isdigit() and len(rid.strip()) < 19 else None
    if isinstance(rid, bool) or not isinstance(rid, int) or (rep := db().get(m.Report, rid)) is None:
        errors["report_id"] = "Select a report."
    try:
        c = chart_value(chart)
    except ServiceError:
        errors["chart"] = "Select an option."
        c = ""
    t = " ".join(str(title or "").split())
    if not t and rep is not None:
        t = rep.name[:MAX_TITLE]
    if len(t) > MAX_TITLE:
        errors["title"] = f"At most {MAX_TITLE} characters."
    if errors:
        what = {"report_id": "Report", "chart": "Display As", "title": "Title"}
        said = dict(errors)
        if "report_id" in said and report_id not in (None, ""):
            said["report_id"] += f" (there is no report with id {str(report_id)[:40]!s}; see list_reports)"
        raise ServiceError("Add Component: " + "; ".join(f"{what[k]}: {v}" for k, v in said.items())
                           + (f" ({', '.join(CHARTS)})" if "chart" in errors else ""), errors)
    return {"title": t, "report_id": rep.id, "chart": c, "measure": "amount" if rep.report_type in MEASURE else "count"}


def check(components) -> list[dict[str, Any]]:
    """A whole component list, each checked (a stored one keeps its measure), at most MAX_COMPONENTS."""
    if not isinstance(components, list):
        raise ServiceError("The dashboard's components could not be read.")
    if len(components) > MAX_COMPONENTS:
        raise ServiceError(f"A dashboard can have at most {MAX_COMPONENTS} components.")
    out = []
    for c in components:
        if not isinstance(c, dict):
            raise ServiceError("The dashboard's components could not be read.")
        got = component(c.get("report_id"), c.get("chart"), c.get("title", ""))
        if c.get("measure") in ("amount", "count"):
            got["measure"] = c["measure"]
        out.append(got)
    return out


def parse_draft(raw: str) -> list[dict[str, Any]]:
    """The builder's unsaved components (a JSON list in the page's form), checked."""
    try:
        data = json.loads(raw or "[]")
    except (ValueError, RecursionError):
        raise ServiceError("The dashboard's components could not be read.") from None
    return check(data)


def add(components: list[dict], report_id, chart, title="") -> list[dict[str, Any]]:
    if len(components) >= MAX_COMPONENTS:
        raise ServiceError(f"A dashboard can have at most {MAX_COMPONENTS} components.")
    return [*components, component(report_id, chart, title)]


def position(components: list[dict], title: str) -> int:
    """The index of the component titled `title` (case and spaces aside), or a ServiceError naming the titles."""
    want = " ".join(str(title or "").split()).casefold()
    hits = [i for i, c in enumerate(components) if " ".join(c["title"].split()).casefold() == want]
    if not hits:
        raise ServiceError(f"This dashboard has no component titled {title!r}; its components: "
                           + "; ".join(c["title"] for c in components), status=404)
    return hits[0]


def remove(components: list[dict], index: int) -> list[dict[str, Any]]:
    if not 0 <= index < len(components):
        raise ServiceError("That component is not on this dashboard.", status=404)
    return components[:index] + components[index + 1:]


def save(d: m.Dashboard, components) -> m.Dashboard:
    """Save: the dashboard shows these components (checked again), in this order."""
    comps = check(components)
    if comps != (d.components or []):
        d.components = comps
        d.updated_at = now()
    return d


def as_dict(d: m.Dashboard) -> dict:
    names = {r.id: r.name for r in db().query(m.Report).all()}
    return {"dashboard_id": d.id, "name": d.name, "folder": d.folder,
            "components": [{"position": k, "title": c["title"], "report_id": c["report_id"],
                            "report": names.get(c["report_id"], ""), "display_as": CHARTS.get(c["chart"], c["chart"])}
                           for k, c in enumerate(d.components or [], start=1)]}
