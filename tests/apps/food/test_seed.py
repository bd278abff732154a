"""Seeding: deterministic, big and diverse enough, images never blank."""

from __future__ import annotations

import datetime as dt
import io
import json

from PIL import Image

from apps.food import SPEC, images
from domain import food as logic
from seed_data.food import build_world

NOW = SPEC.default_now


def test_deterministic():
    a = json.dumps(build_world(0, NOW), default=str, sort_keys=True)
    b = json.dumps(build_world(0, NOW), default=str, sort_keys=True)
    assert a == b
    c = json.dumps(build_world(1, NOW), default=str, sort_keys=True)
    assert a != c


def test_counts_and_shape():
    rows = build_world(0, NOW)
    assert len(rows["stores"]) >= 300
    assert len(rows["cuisines"]) >= 30
    assert len(rows["neighborhoods"]) >= 6
    per_store: dict[int, int] = {}
    for it in rows["menu_items"]:
        per_store[it["store_id"]] = per_store.get(it["store_id"], 0) + 1
    assert all(15 <= n <= 60 for n in per_store.values()), (min(per_store.values()), max(per_store.values()))
    assert len(per_store) == len(rows["stores"])
    assert sum(1 for it in rows["menu_items"] if it["group_ids"]) > 1000  # option groups where menus have them
    for table, rs in rows.items():
        ids = [r["id"] for r in rs]
        assert len(ids) == len(set(ids)), table
    assert len(rows["addresses"]) >= 3 and len(rows["payment_methods"]) >= 3 and len(rows["orders"]) >= 20
    states = {logic.store_status(s, NOW)["state"] for s in rows["stores"]}
    assert states == {"open", "closes_soon", "closed"}
    names = [s["name"] for s in rows["stores"]]
    assert len(set(names)) == len(names)
    # state JSON stays small
    assert len(json.dumps(rows, default=str)) < 5_000_000


def test_promos_cover_the_rules():
    rows = build_world(0, NOW)
    ps = rows["promos"]
    assert any(p["expires_at"] <= NOW for p in ps)
    assert any(p["store_id"] is not None for p in ps)
    assert any(p["min_subtotal_cents"] > 0 for p in ps)
    assert any(p["members_only"] for p in ps)
    assert len({p["code"] for p in ps}) == len(ps)


def test_images_are_deterministic_and_not_blank():
    a = images.dish("Pad Thai", "🍜", 320, 320)
    assert a == images.dish("Pad Thai", "🍜", 320, 320)
    for data in (a, images.store_hero("X", ("🍕", "🥗"), "#C8102E"), images.store_logo("X", "🍕", "#C8102E"),
                 images.cuisine_icon("🍣", "#E8DDD2")):
        im = Image.open(io.BytesIO(data)).convert("RGB")
        lo, hi = zip(*im.getextrema())
        assert max(hi) - min(lo) > 100  # real contrast, not a flat fill
    # every emoji the vocab uses has an asset
    rows = build_world(0, NOW)
    for e in {it["emoji"] for it in rows["menu_items"]} | {c["emoji"] for c in rows["cuisines"]}:
        assert (images.EMOJI_DIR / f"{images.emoji_key(e)}.png").exists(), e


def test_hours_and_slots():
    s = {"hours": [[660, 1320]] * 7, "prep_minutes": 10, "x": 0, "y": 0}
    fri = dt.datetime(2026, 3, 13, 18, 30)
    assert logic.store_status(s, fri)["state"] == "open"
    assert logic.store_status(s, fri.replace(hour=21, minute=30))["state"] == "closes_soon"
    assert logic.store_status(s, fri.replace(hour=23))["state"] == "closed"
    slots = logic.schedule_slots(s, fri, fri.date())
    assert slots[0] == fri.replace(hour=19, minute=30) and slots[-1] == fri.replace(hour=21, minute=30)
    late = {"hours": [[1020, 1500]] * 7}  # 5 PM to 1 AM
    assert logic.is_open(late, dt.datetime(2026, 3, 14, 0, 30))
