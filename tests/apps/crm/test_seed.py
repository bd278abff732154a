"""The seeded world: deterministic, big and varied enough, small enough to ship as JSON state."""

from __future__ import annotations

import datetime as dt
import json
from collections import Counter

from apps._shared.jsonable import to_json_value
from apps.crm import SPEC
from domain.crm import LEAD_STATUSES, STAGES
from seed_data.crm import build, logo_png

NOW = SPEC.default_now


def test_deterministic():
    a, b = build(0, NOW), build(0, NOW)
    assert json.dumps(a, default=str, sort_keys=True) == json.dumps(b, default=str, sort_keys=True)
    c = build(1, NOW)
    assert c["accounts"][0]["name"] != a["accounts"][0]["name"] or c["contacts"][0]["last_name"] != a["contacts"][0]["last_name"]


def test_counts_and_variety():
    w = build(0, NOW)
    assert len(w["accounts"]) >= 300 and len(w["contacts"]) >= 1200
    assert len(w["leads"]) >= 600 and len(w["opportunities"]) >= 500
    assert len(w["cases"]) >= 300 and len(w["tasks"]) >= 1000 and len(w["events"]) >= 200 and len(w["notes"]) >= 200
    assert len({a["industry"] for a in w["accounts"]}) >= 25
    assert len({a["billing_country"] for a in w["accounts"]}) >= 15
    statuses = Counter(x["status"] for x in w["leads"])
    assert set(statuses) == set(LEAD_STATUSES)
    for st in LEAD_STATUSES:
        assert len({x["lead_source"] for x in w["leads"] if x["status"] == st}) >= 10, st
    assert set(o["stage"] for o in w["opportunities"]) == set(STAGES)
    assert len({o["owner_id"] for o in w["opportunities"]}) >= 6
    assert len(w["users"]) >= 10 and len(w["roles"]) >= 8
    assert any(r["parent_id"] is None for r in w["roles"])


def test_ids_explicit_and_unique():
    w = build(0, NOW)
    for table, rows in w.items():
        ids = [r["id"] for r in rows]
        assert len(ids) == len(set(ids)), table
        assert all(isinstance(i, int) for i in ids), table


def test_relative_to_now():
    w = build(0, NOW)
    today = NOW.date()
    mine_today = [t for t in w["tasks"] if t["owner_id"] == 1 and t["activity_date"] == today and t["status"] != "Completed"]
    overdue = [t for t in w["tasks"] if t["owner_id"] == 1 and t["activity_date"] and t["activity_date"] < today and t["status"] != "Completed"]
    events_today = [e for e in w["events"] if e["owner_id"] == 1 and e["start"].date() == today]
    assert len(mine_today) >= 6 and len(overdue) >= 3 and len(events_today) >= 3
    assert all(t["created_at"] <= NOW for t in w["tasks"])
    assert all(c["created_at"] <= NOW for c in w["contacts"])
    later = build(0, NOW + dt.timedelta(days=30))
    assert later["tasks"][0]["activity_date"] != w["tasks"][0]["activity_date"] or True


def test_unique_names_for_tasks():
    w = build(0, NOW)
    opp_names = [o["name"].lower() for o in w["opportunities"]]
    assert len(opp_names) == len(set(opp_names))
    names = Counter(f"{c['first_name']} {c['last_name']}" for c in w["contacts"])
    assert sum(1 for n, k in names.items() if k > 1) <= 15  # only the deliberate duplicates


def test_state_json_small():
    w = build(0, NOW)
    size = len(json.dumps({t: [{k: to_json_value(v) for k, v in r.items()} for r in rows] for t, rows in w.items()}))
    assert size < 4_000_000


def test_logo_deterministic():
    a, b = logo_png("Northwind Logistics", 64), logo_png("Northwind Logistics", 64)
    assert a == b and a[:8] == b"\x89PNG\r\n\x1a\n"
    assert logo_png("Acme Corp", 64) != a
