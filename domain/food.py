"""Forkful's business rules as pure functions over rows (ORM objects or plain dicts alike).

The views, the seed code and the task templates all call these, so a grader's expected value is
computed by exactly the code the app runs: distances, ETAs, hours, fees, tips, promos, schedules.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from typing import Any

TAX_RATE = 0.0875
EXPRESS_FEE = 299
SMALL_ORDER_FEE = 250
SMALL_ORDER_UNDER = 1000
PLUS_MIN_SUBTOTAL = 1200
PLUS_PRICES = {"monthly": 999, "annual": 9600}
TIP_PRESETS = (15, 20, 25)
DEFAULT_TIP = 15
CLOSES_SOON_MIN = 60
SLOT_MIN = 30
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def g(o: Any, k: str, default: Any = None) -> Any:
    if isinstance(o, dict):
        return o.get(k, default)
    return getattr(o, k, default)


def money(cents: int | None) -> str:
    cents = int(cents or 0)
    sign = "-" if cents < 0 else ""
    return f"{sign}${abs(cents) // 100:,}.{abs(cents) % 100:02d}"


def price_sign(level: int) -> str:
    return "$" * int(level or 1)


def count_label(n: int) -> str:
    """DoorDash-style review counts: 87, 1.2k+, 12k+."""
    if n < 1000:
        return str(n)
    if n < 10000:
        return f"{math.floor(n / 100) / 10:.1f}k+".replace(".0k", "k")
    return f"{n // 1000}k+"


def fmt_time(minutes_or_dt: int | dt.datetime) -> str:
    if isinstance(minutes_or_dt, dt.datetime):
        h, m = minutes_or_dt.hour, minutes_or_dt.minute
    else:
        t = int(minutes_or_dt) % 1440
        h, m = divmod(t, 60)
    return f"{(h % 12) or 12}:{m:02d} {'AM' if h < 12 else 'PM'}"


def fmt_hour(d: dt.datetime) -> str:
    """'7 PM' or '7:30 PM'."""
    s = fmt_time(d)
    return s.replace(":00 ", " ")


# ----------------------------------------------------------------------------- geography
def distance_mi(store: Any, addr: Any) -> float:
    if addr is None:
        return 1.0
    d = math.hypot(g(store, "x") - g(addr, "x"), g(store, "y") - g(addr, "y")) * 1.25
    return max(0.2, round(d, 1))


def eta_minutes(store: Any, addr: Any, mode: str = "delivery") -> int:
    prep = int(g(store, "prep_minutes"))
    if mode == "pickup":
        return prep
    return prep + int(round(distance_mi(store, addr) * 3.2)) + 6


def express_eta(eta: int) -> int:
    return max(10, eta - 8)


# ----------------------------------------------------------------------------- fulfilment mode
MODES = ("delivery", "pickup")


def mode_refusal(store: Any, mode: str) -> str | None:
    """Why `store` cannot serve an order in `mode` (checkout's message), or None when it can.

    The one rule "this store can serve this fulfilment mode": every store list (home carousels, all stores,
    search, cuisine pages, the typeahead, the tools' list_stores/search), the store cards' and store page's
    labels and Place Order ask it, so a store a list shows in a mode is one that checks out in that mode."""
    if mode == "pickup" and not g(store, "offers_pickup"):
        return f"{g(store, 'name')} doesn't offer pickup. Switch to delivery."
    return None


def serves_mode(store: Any, mode: str) -> bool:
    return mode_refusal(store, mode) is None


# ----------------------------------------------------------------------------- hours
def _intervals(store: Any, day: dt.date) -> list[tuple[dt.datetime, dt.datetime]]:
    """Open intervals touching `day` (including the previous day's past-midnight tail)."""
    hours = g(store, "hours") or []
    out = []
    for offset in (-1, 0):
        d = day + dt.timedelta(days=offset)
        h = hours[d.weekday()] if len(hours) == 7 else None
        if not h:
            continue
        start = dt.datetime.combine(d, dt.time()) + dt.timedelta(minutes=h[0])
        end = dt.datetime.combine(d, dt.time()) + dt.timedelta(minutes=h[1])
        if end.date() >= day or offset == 0:
            out.append((start, end))
    return out


def open_interval(store: Any, now: dt.datetime) -> tuple[dt.datetime, dt.datetime] | None:
    for start, end in _intervals(store, now.date()):
        if start <= now < end:
            return start, end
    return None


def next_open(store: Any, now: dt.datetime) -> dt.datetime | None:
    for i in range(0, 8):
        day = now.date() + dt.timedelta(days=i)
        for start, _end in _intervals(store, day):
            if start > now:
                return start
    return None


def store_status(store: Any, now: dt.datetime) -> dict[str, Any]:
    """{'state': open|closes_soon|closed, 'label': ..., 'closes_at'/'opens_at': datetime}."""
    iv = open_interval(store, now)
    if iv:
        end = iv[1]
        mins = (end - now).total_seconds() / 60
        if mins <= CLOSES_SOON_MIN:
            return {"state": "closes_soon", "closes_at": end, "label": f"Closes soon at {fmt_time(end)}"}
        return {"state": "open", "closes_at": end, "label": f"Open until {fmt_time(end)}"}
    nxt = next_open(store, now)
    if nxt is None:
        return {"state": "closed", "opens_at": None, "label": "Closed"}
    when = fmt_time(nxt)
    if nxt.date() == now.date():
        label = f"Closed · Opens at {when}"
    elif nxt.date() == now.date() + dt.timedelta(days=1):
        label = f"Closed · Opens tomorrow at {when}"
    else:
        label = f"Closed · Opens {WEEKDAYS[nxt.weekday()]} at {when}"
    return {"state": "closed", "opens_at": nxt, "label": label}


def is_open(store: Any, now: dt.datetime) -> bool:
    return open_interval(store, now) is not None


def hours_rows(store: Any) -> list[tuple[str, str]]:
    hours = g(store, "hours") or []
    rows = []
    for i, day in enumerate(WEEKDAYS):
        h = hours[i] if i < len(hours) else None
        rows.append((day, f"{fmt_time(h[0])} – {fmt_time(h[1])}" if h else "Closed"))
    return rows


def slot_days(now: dt.datetime, n: int = 4) -> list[dt.date]:
    return [now.date() + dt.timedelta(days=i) for i in range(n)]


def schedule_slots(store: Any, now: dt.datetime, day: dt.date) -> list[dt.datetime]:
    """Start times of the 30-minute delivery windows on `day`: inside opening hours (the window must
    end by closing time), at least 45 minutes from now."""
    earliest = now + dt.timedelta(minutes=45)
    out: list[dt.datetime] = []
    for start, end in _intervals(store, day):
        t = start + dt.timedelta(minutes=30)  # first delivery half an hour after opening
        # align to :00 / :30
        if t.minute % SLOT_MIN:
            t += dt.timedelta(minutes=SLOT_MIN - t.minute % SLOT_MIN)
        while t + dt.timedelta(minutes=SLOT_MIN) <= end:
            if t >= earliest and t.date() == day:
                out.append(t)
            t += dt.timedelta(minutes=SLOT_MIN)
    return sorted(set(out))


def slot_label(t: dt.datetime) -> str:
    return f"{fmt_time(t)} – {fmt_time(t + dt.timedelta(minutes=SLOT_MIN))}"


def day_label(d: dt.date, today: dt.date) -> str:
    if d == today:
        return "Today"
    if d == today + dt.timedelta(days=1):
        return "Tomorrow"
    return d.strftime("%a, %b ") + str(d.day)


# ----------------------------------------------------------------------------- membership, fees
def is_member(user: Any, now: dt.datetime) -> bool:
    status = g(user, "membership_status")
    if status == "active":
        return True
    ends = g(user, "membership_ends_on")
    if isinstance(ends, str):
        ends = dt.date.fromisoformat(ends)
    return status == "cancelled" and ends is not None and ends > now.date()


def delivery_fee(store: Any, user: Any, subtotal: int, mode: str, now: dt.datetime) -> int:
    if mode == "pickup":
        return 0
    if is_member(user, now) and g(store, "plus_eligible") and subtotal >= PLUS_MIN_SUBTOTAL:
        return 0
    return int(g(store, "delivery_fee_cents"))


def service_fee(store: Any, user: Any, subtotal: int, mode: str, now: dt.datetime) -> int:
    if mode == "pickup" or subtotal <= 0:
        return 0
    if is_member(user, now) and g(store, "plus_eligible") and subtotal >= PLUS_MIN_SUBTOTAL:
        return round(subtotal * 0.05)
    return min(1500, max(200, round(subtotal * 0.15)))


def tip_amount(subtotal: int, tip_percent: int | None, custom_cents: int, mode: str) -> int:
    if mode == "pickup":
        return 0
    if tip_percent is None:
        return max(0, int(custom_cents or 0))
    return round(subtotal * tip_percent / 100)


def promo_discount(promo: Any, subtotal: int, delivery_fee_cents: int) -> int:
    kind, value = g(promo, "kind"), int(g(promo, "value"))
    if kind == "percent":
        d = round(subtotal * value / 100)
        cap = g(promo, "max_discount_cents")
        return min(d, cap) if cap else d
    if kind == "amount":
        return min(value, subtotal)
    if kind == "delivery":
        return delivery_fee_cents
    return 0


def _dt(v: Any) -> dt.datetime:
    return dt.datetime.fromisoformat(v) if isinstance(v, str) else v


def promo_error(promo: Any, store: Any, user: Any, subtotal: int, mode: str, now: dt.datetime,
                store_name: str = "") -> str | None:
    """Why `promo` cannot be used on this cart, or None when it can."""
    if promo is None:
        return "This promo code doesn't exist. Check the code and try again."
    if _dt(g(promo, "expires_at")) <= now:
        return f"Promo code {g(promo, 'code')} has expired."
    sid = g(promo, "store_id")
    if sid is not None and sid != g(store, "id"):
        return f"Promo code {g(promo, 'code')} is only valid at {store_name or 'another store'}."
    if g(promo, "members_only") and not is_member(user, now):
        return f"Promo code {g(promo, 'code')} is only for Forkful Plus members."
    if g(promo, "kind") == "delivery" and mode == "pickup":
        return f"Promo code {g(promo, 'code')} is only valid on delivery orders."
    need = int(g(promo, "min_subtotal_cents") or 0)
    if subtotal < need:
        return (f"Add {money(need - subtotal)} more to use {g(promo, 'code')} "
                f"(minimum subtotal {money(need)}).")
    return None


def money_whole(cents: int | None) -> str:
    """Whole dollars the app's way, in its own copy: "$0", "$12"."""
    return f"${int(cents or 0) // 100:,}"


def promo_summary(promo: Any, money_fn: Any = money, whole_fn: Any = money_whole) -> str:
    """"20% off, up to $10.00 on orders $25.00+". The amounts through `money_fn` / `whole_fn` (a page in another
    locale passes its own: apps/food/views/common.py); the tools and the world read the app's own."""
    kind, value = g(promo, "kind"), int(g(promo, "value"))
    if kind == "percent":
        s = f"{value}% off"
        if g(promo, "max_discount_cents"):
            s += f", up to {money_fn(g(promo, 'max_discount_cents'))}"
    elif kind == "amount":
        s = f"{money_fn(value)} off"
    else:
        s = f"{whole_fn(0)} delivery fee"
    if g(promo, "min_subtotal_cents"):
        s += f" on orders {money_fn(g(promo, 'min_subtotal_cents'))}+"
    return s


def totals(*, store: Any, user: Any, subtotal: int, mode: str, delivery_option: str, tip_percent: int | None,
           tip_custom_cents: int, promo: Any | None, use_credits: bool, now: dt.datetime) -> dict[str, int]:
    """The price breakdown of a cart, exactly as an order row stores it."""
    dfee = delivery_fee(store, user, subtotal, mode, now)
    sfee = service_fee(store, user, subtotal, mode, now)
    small = SMALL_ORDER_FEE if (mode == "delivery" and 0 < subtotal < SMALL_ORDER_UNDER) else 0
    express = EXPRESS_FEE if (mode == "delivery" and delivery_option == "express") else 0
    tax = round(subtotal * TAX_RATE)
    tip = tip_amount(subtotal, tip_percent, tip_custom_cents, mode)
    discount = promo_discount(promo, subtotal, dfee) if promo is not None else 0
    before = subtotal + dfee + sfee + small + express + tax + tip - discount
    credits = min(int(g(user, "credits_cents") or 0), max(0, before)) if use_credits else 0
    return {
        "subtotal_cents": subtotal, "delivery_fee_cents": dfee, "service_fee_cents": sfee,
        "small_order_fee_cents": small, "express_fee_cents": express, "tax_cents": tax, "tip_cents": tip,
        "discount_cents": discount, "credits_applied_cents": credits, "total_cents": before - credits,
    }


def best_promo(promos: list[Any], *, store: Any, user: Any, subtotal: int, mode: str, now: dt.datetime) -> Any | None:
    """The valid promo with the largest discount (ties: the lowest id)."""
    dfee = delivery_fee(store, user, subtotal, mode, now)
    best, best_d = None, 0
    for p in sorted(promos, key=lambda p: g(p, "id")):
        if promo_error(p, store, user, subtotal, mode, now) is None:
            d = promo_discount(p, subtotal, dfee)
            if d > best_d:
                best, best_d = p, d
    return best


# ----------------------------------------------------------------------------- cards
def luhn_ok(number: str) -> bool:
    digits = [int(c) for c in number]
    total = 0
    for i, d in enumerate(reversed(digits)):
        if i % 2:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def card_brand(number: str) -> str | None:
    if number.startswith("4"):
        return "Visa"
    if number[:2] in {"51", "52", "53", "54", "55"} or (number[:4].isdecimal() and 2221 <= int(number[:4]) <= 2720):
        return "Mastercard"
    if number[:2] in {"34", "37"}:
        return "Amex"
    if number.startswith("6011") or number.startswith("65"):
        return "Discover"
    return None


def validate_card(number: str, exp: str, cvc: str, zip_code: str, now: dt.datetime) -> tuple[dict[str, str], dict]:
    """(errors by field, parsed card). Field keys: number, exp, cvc, zip."""
    errors: dict[str, str] = {}
    num = "".join(c for c in (number or "") if not c.isspace() and c != "-")
    brand = card_brand(num) if num.isdecimal() else None
    if not num:
        errors["number"] = "Enter a card number."
    elif not num.isdecimal() or not (13 <= len(num) <= 19) or brand is None:
        errors["number"] = "Enter a valid card number."
    elif (brand == "Amex" and len(num) != 15) or (brand != "Amex" and len(num) not in (16, 19)):
        errors["number"] = "Enter a valid card number."
    elif not luhn_ok(num):
        errors["number"] = "Your card number is invalid."
    month = year = 0
    e = (exp or "").replace(" ", "")
    if not e:
        errors["exp"] = "Enter an expiration date."
    else:
        parts = e.split("/")
        if len(parts) != 2 or not all(p.isdecimal() for p in parts) or not 1 <= int(parts[0]) <= 12:
            errors["exp"] = "Enter a valid expiration date (MM/YY)."
        else:
            month, year = int(parts[0]), int(parts[1])
            year = year + 2000 if year < 100 else year
            if (year, month) < (now.year, now.month):
                errors["exp"] = "Your card has expired."
            elif year > now.year + 20:
                errors["exp"] = "Enter a valid expiration date (MM/YY)."
    c = (cvc or "").strip()
    want = 4 if brand == "Amex" else 3
    if not c:
        errors["cvc"] = "Enter the security code."
    elif not c.isdecimal() or len(c) != want:
        errors["cvc"] = f"Enter the {want}-digit security code."
    z = (zip_code or "").strip()
    if not (z.isdecimal() and len(z) == 5):
        errors["zip"] = "Enter a valid 5-digit ZIP code."
    return errors, {"brand": brand, "last4": num[-4:], "exp_month": month, "exp_year": year, "zip": z}


def card_expired(card: Any, now: dt.datetime) -> bool:
    return (int(g(card, "exp_year")), int(g(card, "exp_month"))) < (now.year, now.month)


def card_label(card: Any) -> str:
    return f"{g(card, 'brand')} •••• {g(card, 'last4')}"


def address_line(addr: Any) -> str:
    s = g(addr, "street")
    if g(addr, "apt"):
        s += f", {g(addr, 'apt')}"
    return s


def address_full(addr: Any) -> str:
    return f"{address_line(addr)}, {g(addr, 'city')}, {g(addr, 'state')} {g(addr, 'zip')}"


def item_unit_price(item: Any, options: list[Any]) -> int:
    return int(g(item, "price_cents")) + sum(int(g(o, "price_cents")) for o in options)


# ---------------------------------------------------------------- after delivery: help claims, Dasher ratings
def refund_cents(unit_price_cents: int, quantity: int) -> int:
    """What a help claim for `quantity` of an order line gives back: that part of the line's price (the page's
    amounts, the help service, the tools and the task templates all call this)."""
    return unit_price_cents * quantity


def claim_refusal(name: str, ordered: int, quantity: Any) -> str | None:
    """Why `quantity` of a line of `ordered` cannot be claimed (None: it can): a whole number from 1 to what
    was ordered."""
    if isinstance(quantity, bool) or not isinstance(quantity, int) or not 1 <= quantity <= ordered:
        return f"You can report 1 to {ordered} of {name}." if ordered > 1 else f"You can report only 1 of {name}."
    return None


THUMBS = {"up": "Thumbs up", "down": "Thumbs down"}
DASHER_REASONS = {
    "up": ("Friendly", "Followed instructions", "Fast delivery", "Handled with care"),
    "down": ("Late delivery", "Didn't follow instructions", "Unprofessional", "Food was damaged"),
}
DASHER_COMMENT_MAX = 300
TIP_CHANGE_DAYS = 7  # after delivery, the courier tip can be changed for this many days
TIP_MAX_CENTS = 99_999


def parse_tip_dollars(raw: Any) -> int | None:
    """A typed tip ("5", "5.50", "$5.5") in cents; None when it is not an amount like that (checkout and the
    order page's Adjust tip read the box with this)."""
    s = str(raw if raw is not None else "").replace("$", "").strip()
    if not re.fullmatch(r"\d{1,3}(\.\d{1,2})?", s):
        return None
    whole, _, frac = s.partition(".")
    return int(whole) * 100 + int((frac + "00")[:2])


def tip_change_refusal(order: Any, now: dt.datetime) -> str | None:
    """Why the courier tip of `order` cannot be changed now (None: it can): delivered delivery orders, for
    TIP_CHANGE_DAYS days after delivery."""
    if g(order, "mode") != "delivery":
        return "Pickup orders have no courier tip."
    if g(order, "status") != "delivered":
        return "You can change the tip once your order is delivered."
    done_at = g(order, "completed_at")
    if done_at is not None and now - _dt(done_at) > dt.timedelta(days=TIP_CHANGE_DAYS):
        return f"The tip can be changed up to {TIP_CHANGE_DAYS} days after delivery."
    return None
