"""Deterministic world for the Forkful food-ordering clone: `build(seed, now) -> {table: [row, ...]}`.

Curated vocab (seed_data/vocab/food/): cuisines.json (cuisine -> menu categories -> dishes with
price, emoji, description, option-group keys, dietary tags; store-name parts; price band),
options.json (modifier groups: Size, Add-ons, Spice level...), common.json (neighbourhoods,
streets, drinks, review phrases, colours). A local Faker and random.Random seeded with `seed` pick
everything else. All dates are relative to `now`. Same (seed, now) -> identical rows.
"""

from __future__ import annotations

import datetime as dt
import math
import random
from typing import Any

from faker import Faker

from domain import food as logic

from seed_data.common import vocab_dir, vocab_reader

VOCAB_DIR = vocab_dir("food")
vocab = vocab_reader("food")
MORNING = {"breakfast", "bakery", "coffee", "donuts"}
DRINK_MENUS = {"coffee", "bubble-tea", "smoothies", "ice-cream"}
ORDER_ID_START = 40101


def parse_dish(s: str) -> dict[str, Any]:
    name, price, emoji, desc, groups, tags = s.split("|")
    return {"name": name, "price": round(float(price) * 100), "emoji": emoji, "desc": desc,
            "groups": [x for x in groups.split(",") if x], "tags": [x for x in tags.split(",") if x]}


def _hours(rng: random.Random, slug: str, special: str) -> list[Any]:
    if slug in MORNING:
        o = rng.choice([390, 420, 450])
        c = rng.choice([840, 900, 960]) if slug != "coffee" else rng.choice([900, 1020, 1080, 1140])
    elif slug in ("desserts", "ice-cream", "bubble-tea"):
        o, c = rng.choice([660, 720]), rng.choice([1260, 1320, 1380])
    else:
        o = rng.choice([600, 660, 660, 690, 720])
        c = rng.choice([1260, 1290, 1320, 1320, 1350, 1380, 1440, 1500])
    week: list[Any] = [[o, c] for _ in range(7)]
    if rng.random() < 0.25:
        week[0] = None  # closed Mondays
    if slug not in MORNING and rng.random() < 0.4:
        week[4] = [o, c + 60]  # later on Friday
        week[5] = [o, c + 60]
    if special == "closes_soon":
        week[4] = [o, rng.choice([1140, 1155, 1170])]  # closes 7:00-7:30 PM on Fridays
    elif special == "dinner_only":
        week = [[1020, 1320] if d is not None else None for d in week]
        week[4] = [1140, 1380]  # opens 7 PM on Fridays
    elif special == "closed_today":
        week[4] = None
    return week


def build(seed: int, now: dt.datetime) -> dict[str, list[dict[str, Any]]]:
    rng = random.Random(seed)
    fake = Faker("en_US")
    fake.seed_instance(seed)
    cuisines_v = vocab("cuisines")
    options_v = vocab("options")
    common = vocab("common")
    rows: dict[str, list[dict[str, Any]]] = {t: [] for t in (
        "users", "neighborhoods", "addresses", "cuisines", "stores", "menu_categories", "menu_items",
        "option_groups", "options", "reviews", "promos", "payment_methods", "gift_cards", "saved_stores",
        "carts", "cart_items", "orders", "order_items", "support_requests")}

    # ------------------------------------------------------------- geography
    nbs = []
    for i, nb in enumerate(common["neighborhoods"], 1):
        row = {"id": i, "name": nb["name"], "zip": nb["zip"], "x": nb["x"], "y": nb["y"]}
        nbs.append(row)
    rows["neighborhoods"] = nbs
    city, state = common["city"], common["state"]

    # ------------------------------------------------------------- user
    first, last = fake.first_name(), fake.last_name()
    rows["users"].append({
        "id": 1, "first_name": first, "last_name": last,
        "email": f"{first.lower()}.{last.lower()}@example.com", "phone": f"(415) 555-{rng.randint(1000, 9999)}",
        "mode": "delivery", "current_address_id": 1, "default_payment_id": 1, "credits_cents": 0,
        "membership_status": "none", "membership_plan": None, "membership_ends_on": None,
        "membership_payment_id": None,
        "notify_push_orders": True, "notify_sms_orders": True, "notify_email_receipts": True,
        "notify_push_promos": True, "notify_email_promos": True, "notify_sms_promos": False,
    })
    streets = common["streets"]
    addr_plan = [("Home", 2, "Apt 4B", "door", "Buzzer 4B. Leave by the blue door."),
                 ("Work", 1, "Floor 12", "hand", "Check in at the front desk."),
                 ("Parents", 7, "", "door", "")]
    for i, (label, nb_id, apt, dropoff, instr) in enumerate(addr_plan, 1):
        nb = nbs[nb_id - 1]
        rows["addresses"].append({
            "id": i, "label": label, "street": f"{rng.randint(100, 2999)} {streets[rng.randrange(len(streets))]}",
            "apt": apt, "city": city, "state": state, "zip": nb["zip"], "neighborhood_id": nb_id,
            "x": round(nb["x"] + rng.uniform(-0.3, 0.3), 2), "y": round(nb["y"] + rng.uniform(-0.3, 0.3), 2),
            "dropoff": dropoff, "instructions": instr, "created_at": now - dt.timedelta(days=400 - i * 50),
        })

    # ------------------------------------------------------------- cuisines, stores, menus
    group_seq = option_seq = item_seq = cat_seq = review_seq = 0
    store_id = 0
    used_names: set[str] = set()
    colors = common["brand_colors"]
    drinks = [parse_dish(d) for d in common["drinks"]]
    specials_cycle = ["closes_soon", "dinner_only", "closed_today"]
    for ci, (slug, cz) in enumerate(cuisines_v.items(), 1):
        rows["cuisines"].append({"id": ci, "slug": slug, "name": cz["name"], "emoji": cz["emoji"], "position": ci})
        menu = {cat: [parse_dish(d) for d in dishes] for cat, dishes in cz["menu"].items()}
        n1, n2 = cz["n1"], cz["n2"]
        for k in range(cz["stores"]):
            store_id += 1
            # a unique name: walk the first parts, pair with a suffix
            name = ""
            for attempt in range(400):
                a = n1[(k + attempt) % len(n1)]
                b = n2[(k // len(n1) + attempt // len(n1) + rng.randrange(len(n2))) % len(n2)]
                name = a if b.split()[0] in a.split() else f"{a} {b}"
                if name not in used_names:
                    break
            used_names.add(name)
            nb = nbs[rng.randrange(len(nbs))]
            roll = rng.random()
            special = ""
            if slug not in MORNING and roll < 0.12:
                special = specials_cycle[store_id % 3]
            lo, hi = cz["price"]
            rating = round(min(4.9, max(3.4, rng.gauss(4.45, 0.28))), 1)
            reviews = int(math.exp(rng.uniform(math.log(15), math.log(6000))))
            tags: list[str] = []
            if any("halal" in d["tags"] for ds in menu.values() for d in ds):
                tags.append("halal")
            store = {
                "id": store_id, "name": name, "cuisine_id": ci, "tags": tags,
                "description": f"{cz['name']} · {rng.choice(['Family owned', 'Local favorite', 'Made from scratch', 'Neighborhood spot', 'Fresh daily', 'Fast and friendly'])}",
                "price_level": rng.randint(lo, hi), "rating": rating, "review_count": reviews,
                "street": f"{rng.randint(100, 3999)} {streets[rng.randrange(len(streets))]}",
                "neighborhood_id": nb["id"],
                "x": round(nb["x"] + rng.gauss(0, 0.55), 2), "y": round(nb["y"] + rng.gauss(0, 0.55), 2),
                "prep_minutes": rng.randint(6, 22),
                "delivery_fee_cents": rng.choice([0, 0, 99, 199, 199, 299, 299, 399, 499]),
                "plus_eligible": rng.random() < 0.8, "offers_pickup": rng.random() < 0.88,
                "opened_on": (now - dt.timedelta(days=rng.randint(3, 25))).date() if rng.random() < 0.07
                else (now - dt.timedelta(days=rng.randint(120, 3000))).date(),
                "hours": _hours(rng, slug, special), "color": colors[rng.randrange(len(colors))],
                "emoji": cz["emoji"], "phone": f"(415) 555-{rng.randint(1000, 9999)}",
            }
            # groups used by this store
            keep_p = 0.92 if sum(len(v) for v in menu.values()) < 22 else 0.82
            chosen: dict[str, list[dict]] = {}
            for cat, dishes in menu.items():
                picked = [d for d in dishes if rng.random() < keep_p] or dishes[:1]
                chosen[cat] = picked
            if slug not in DRINK_MENUS and "Drinks" not in chosen:
                chosen["Drinks"] = [d for d in drinks if rng.random() < 0.6] or drinks[:2]
            total = sum(len(v) for v in chosen.values())
            if total < 15:  # top up from the full menu
                for cat, dishes in menu.items():
                    for d in dishes:
                        if total >= 15:
                            break
                        if d not in chosen[cat]:
                            chosen[cat].append(d)
                            total += 1
            if total < 15:
                have = {d["name"] for ds in chosen.values() for d in ds}
                extra = [d for d in drinks if d["name"] not in have][: 15 - total]
                chosen.setdefault("Beverages" if "Drinks" in chosen else "Drinks", []).extend(extra)
            group_ids: dict[str, int] = {}
            for ds in chosen.values():
                for d in ds:
                    for key in d["groups"]:
                        if key in group_ids:
                            continue
                        gv = options_v[key]
                        group_seq += 1
                        group_ids[key] = group_seq
                        rows["option_groups"].append({"id": group_seq, "store_id": store_id, "name": gv["name"],
                                                      "min_select": gv["min"], "max_select": gv["max"]})
                        for pos, (oname, oprice) in enumerate(gv["options"]):
                            option_seq += 1
                            rows["options"].append({"id": option_seq, "group_id": group_seq, "name": oname,
                                                    "price_cents": oprice, "position": pos})
            store_items = []
            for pos, (cat, ds) in enumerate(chosen.items()):
                cat_seq += 1
                rows["menu_categories"].append({"id": cat_seq, "store_id": store_id, "name": cat, "position": pos})
                for ipos, d in enumerate(ds):
                    item_seq += 1
                    jitter = rng.choice([-100, -50, 0, 0, 0, 0, 50, 100]) if d["price"] > 600 else 0
                    it = {"id": item_seq, "store_id": store_id, "category_id": cat_seq, "name": d["name"],
                          "description": d["desc"], "price_cents": d["price"] + jitter, "emoji": d["emoji"],
                          "tags": d["tags"], "group_ids": [group_ids[k] for k in d["groups"]], "popular": False,
                          "position": ipos}
                    rows["menu_items"].append(it)
                    store_items.append((cat, it))
            mains = [it for cat, it in store_items if cat not in ("Drinks", "Sides", "Desserts")] or [it for _, it in store_items]
            for it in rng.sample(mains, min(5, len(mains))):
                it["popular"] = True
            if any("vg" in it["tags"] for _, it in store_items) and sum("vg" in it["tags"] for _, it in store_items) >= 5:
                store["tags"].append("vegan options")
            if slug == "vegan":
                store["tags"].append("vegan")
            rows["stores"].append(store)
            # reviews
            for r in range(6):
                review_seq += 1
                roll = rng.random()
                if roll < rating - 3.6:
                    stars, pool = rng.choice([5, 5, 4]), common["review_good"]
                elif roll < 0.9:
                    stars, pool = rng.choice([3, 4]), common["review_ok"]
                else:
                    stars, pool = rng.choice([1, 2]), common["review_bad"]
                dish = rng.choice(mains)["name"]
                rows["reviews"].append({
                    "id": review_seq, "store_id": store_id,
                    "author": f"{fake.first_name()} {fake.last_name()[0]}.", "rating": stars,
                    "text": rng.choice(pool).replace("{dish}", dish),
                    "created_at": now - dt.timedelta(days=rng.randint(1, 200), minutes=rng.randint(0, 1400)),
                    "order_id": None,
                })
    stores = rows["stores"]

    # ------------------------------------------------------------- promos
    promo_id = 0

    def promo(code, title, kind, value, *, cap=None, min_sub=0, store_id=None, members=False, days=30, featured=True):
        nonlocal promo_id
        promo_id += 1
        rows["promos"].append({
            "id": promo_id, "code": code, "title": title, "kind": kind, "value": value, "max_discount_cents": cap,
            "min_subtotal_cents": min_sub, "store_id": store_id, "members_only": members,
            "expires_at": now + dt.timedelta(days=days, hours=5, minutes=30) if days > 0 else now + dt.timedelta(days=days),
            "featured": featured,
        })

    promo("SAVE5", "$5 off your order", "amount", 500, min_sub=2500)
    promo("TAKE20", "20% off your order", "percent", 20, cap=800, min_sub=1500)
    promo("FREEDEL", "Free delivery", "delivery", 0, min_sub=1000, days=14)
    promo("SPRING15", "15% off spring treats", "percent", 15, cap=1000, min_sub=3000, days=20)
    promo("WEEKEND7", "$7 off weekend orders", "amount", 700, min_sub=3500, days=3)
    promo("BIGORDER", "$12 off large orders", "amount", 1200, min_sub=6000, days=45)
    promo("PLUS8", "$8 off for Plus members", "amount", 800, min_sub=3000, members=True, days=30)
    promo("WINTER10", "10% off winter warmers", "percent", 10, cap=1000, min_sub=0, days=-12, featured=False)
    promo("HOLIDAY5", "$5 off holiday orders", "amount", 500, min_sub=1500, days=-70, featured=False)
    promo("LUNCH3", "$3 off lunch", "amount", 300, min_sub=1200, days=-2, featured=False)
    deal_stores = rng.sample(stores, 28)
    for s in deal_stores:
        base = "".join(ch for ch in s["name"].split()[0].upper() if ch.isalpha())[:8] or "STORE"
        kind = rng.choice(["percent", "amount", "amount", "delivery"])
        if kind == "percent":
            pct = rng.choice([15, 20, 25, 30])
            promo(f"{base}{pct}", f"{pct}% off at {s['name']}", "percent", pct, cap=rng.choice([500, 600, 800, 1000]),
                  min_sub=rng.choice([1500, 2000, 2500]), store_id=s["id"], days=rng.randint(5, 40))
        elif kind == "amount":
            off = rng.choice([300, 400, 500, 600])
            promo(f"{base}{off // 100}OFF", f"{logic.money(off)} off at {s['name']}", "amount", off,
                  min_sub=off * 5, store_id=s["id"], days=rng.randint(5, 40))
        else:
            promo(f"{base}FREE", f"$0 delivery at {s['name']}", "delivery", 0, min_sub=1500, store_id=s["id"],
                  days=rng.randint(5, 40))
    # unique codes
    seen: dict[str, int] = {}
    for p in rows["promos"]:
        if p["code"] in seen:
            seen[p["code"]] += 1
            p["code"] = f"{p['code']}{seen[p['code']]}"
        else:
            seen[p["code"]] = 1

    # ------------------------------------------------------------- payment, gift cards, saved
    cards = [("Visa", "4242", 8, 2028), ("Mastercard", "5454", 11, 2027), ("Amex", "1005", 4, 2029),
             ("Visa", "0119", 2, 2026)]
    for i, (brand, last4, m, y) in enumerate(cards, 1):
        rows["payment_methods"].append({"id": i, "brand": brand, "last4": last4, "exp_month": m, "exp_year": y,
                                        "name_on_card": f"{first} {last}", "zip": rows["addresses"][0]["zip"],
                                        "created_at": now - dt.timedelta(days=500 - i * 60)})
    for i, amt in enumerate([2500, 1000, 5000, 1500], 1):
        code = "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(12))
        rows["gift_cards"].append({"id": i, "code": f"{code[:4]}-{code[4:8]}-{code[8:]}", "amount_cents": amt,
                                   "redeemed_at": now - dt.timedelta(days=90) if i == 4 else None})
    for i, s in enumerate(rng.sample(stores, 6), 1):
        rows["saved_stores"].append({"id": i, "store_id": s["id"], "saved_at": now - dt.timedelta(days=10 * i)})

    # ------------------------------------------------------------- order history
    items_by_store: dict[int, list[dict]] = {}
    for it in rows["menu_items"]:
        items_by_store.setdefault(it["store_id"], []).append(it)
    options_by_group: dict[int, list[dict]] = {}
    for o in rows["options"]:
        options_by_group.setdefault(o["group_id"], []).append(o)
    groups = {gr["id"]: gr for gr in rows["option_groups"]}
    user = rows["users"][0]
    home = rows["addresses"][0]
    favourites = rng.sample([s for s in stores if s["cuisine_id"] not in (5,)], 14)

    def pick_options(it: dict) -> list[dict]:
        chosen = []
        for gid in it["group_ids"]:
            gr = groups[gid]
            opts = options_by_group[gid]
            n = gr["min_select"] if gr["min_select"] else (1 if rng.random() < 0.3 else 0)
            chosen += rng.sample(opts, min(n, len(opts)))
        return chosen

    order_id = ORDER_ID_START - 1
    oi_seq = 0
    last_friday = now - dt.timedelta(days=7)
    plan: list[tuple[dt.datetime, str]] = []
    for k in range(26):
        days_ago = 9 + k * 3 + rng.randint(0, 2)
        t = (now - dt.timedelta(days=days_ago)).replace(hour=rng.choice([12, 13, 18, 19, 19, 20]), minute=rng.randint(0, 59))
        plan.append((t, "delivered"))
    plan.append((last_friday.replace(hour=19, minute=12), "delivered"))  # last Friday's dinner
    plan.append(((now - dt.timedelta(days=3)).replace(hour=12, minute=41), "delivered"))
    plan.append(((now - dt.timedelta(days=1)).replace(hour=20, minute=5), "delivered"))
    plan.sort()
    plan.append((now - dt.timedelta(minutes=24), "preparing"))
    plan.append((now - dt.timedelta(minutes=50), "scheduled"))
    for n, (placed, status) in enumerate(plan):
        order_id += 1
        s = favourites[n % len(favourites)] if n % 4 else rng.choice(stores)
        if placed.date() == last_friday.date():
            s = next(st for st in stores if st["cuisine_id"] == 1 and st["hours"][4])  # a pizza night
        its = items_by_store[s["id"]]
        mains = [i for i in its if i["popular"]] or its
        drinks_here = [i for i in its if "Drinks" in _cat_name(rows, i)]
        lines = [(rng.choice(mains), rng.choice([1, 1, 2]))]
        extra = [i for i in its if i["id"] != lines[0][0]["id"] and i not in drinks_here]
        if rng.random() < 0.75 and extra:
            lines.append((rng.choice(extra), 1))
        if drinks_here and (rng.random() < 0.5 or placed.date() == last_friday.date()):
            lines.append((rng.choice(drinks_here), rng.choice([1, 2])))
        mode = "pickup" if rng.random() < 0.12 and s["offers_pickup"] and status == "delivered" else "delivery"
        subtotal = 0
        order_lines = []
        for it, qty in lines:
            opts = pick_options(it)
            unit = logic.item_unit_price(it, opts)
            subtotal += unit * qty
            oi_seq += 1
            order_lines.append({"id": oi_seq, "order_id": order_id, "item_id": it["id"], "name": it["name"],
                                "quantity": qty, "option_ids": sorted(o["id"] for o in opts),
                                "options_text": ", ".join(o["name"] for o in opts), "instructions": "",
                                "unit_price_cents": unit})
        tip_pct = rng.choice([15, 20, 20, 25]) if mode == "delivery" else None
        t = logic.totals(store=s, user=user, subtotal=subtotal, mode=mode, delivery_option="standard",
                         tip_percent=tip_pct, tip_custom_cents=0, promo=None, use_credits=False, now=placed)
        eta = logic.eta_minutes(s, home, mode)
        sched = None
        if status == "scheduled":
            sched = (now + dt.timedelta(days=1)).replace(hour=12, minute=30)
        rows["orders"].append({
            "id": order_id, "store_id": s["id"], "status": status if mode == "delivery" or status != "delivered" else "picked_up",
            "mode": mode, "placed_at": placed,
            "completed_at": placed + dt.timedelta(minutes=eta) if status == "delivered" else None,
            "delivery_option": "scheduled" if sched else "standard", "scheduled_for": sched,
            "address_id": home["id"] if mode == "delivery" else None,
            "address_text": logic.address_full(home) if mode == "delivery" else "",
            "dropoff": home["dropoff"], "instructions": home["instructions"] if mode == "delivery" else "",
            "payment_method_id": 1 if n % 5 else 2, "tip_percent": tip_pct, "promo_id": None, "eta_minutes": eta,
            "rating": rng.choice([None, None, 5, 4, 5]) if status == "delivered" and n < len(plan) - 4 else None,
            "cancel_reason": "", **t,
        })
        rows["order_items"] += order_lines
    return rows


def _cat_name(rows: dict, item: dict) -> str:
    cache = rows.setdefault("_catnames", {})  # type: ignore[arg-type]
    if not cache:
        for c in rows["menu_categories"]:
            cache[c["id"]] = c["name"]
    return cache.get(item["category_id"], "")



def build_world(seed: int, now: dt.datetime) -> dict[str, list[dict[str, Any]]]:
    rows = build(seed, now)
    rows.pop("_catnames", None)
    return rows
