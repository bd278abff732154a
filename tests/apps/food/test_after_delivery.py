"""Issue 46 (food): what a user does after a delivery: rate the Dasher, and report part of a line.

1. Rate your Dasher: a delivered delivery order, once; thumbs up or down, reasons from that thumb's list, a
   comment. The page's form and the `rate_dasher` tool run `orders.rate_dasher`. Property: over thumbs x reason
   subsets (some not the thumb's) x comments (some too long) x orders (delivered, picked up, in progress), the page
   and the tool accept exactly the same calls and leave the same row, and a second rating is refused.
2. Help claims for part of a line: `How many <item>` on the help page, `quantities` in `request_help`; the refund
   is `logic.refund_cents`. Property: over lines x claimed quantities (0, negative, more than ordered included),
   page and tool agree, a claim within the line refunds that part, anything else is a message (never a 500), and
   the same line cannot be claimed twice.

The dialog driven in a real browser: test_browser_issue46.py.
"""

from __future__ import annotations

import datetime as dt
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps._shared.tools import ToolError
from apps.food import models as m
from apps.food.tools import TOOLS
from domain import food as logic
from tests.apps.food.conftest import TOKEN
from tests.apps.world_fixtures import control

SETTINGS = settings(max_examples=30, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])
ALL_REASONS = sorted({r for rs in logic.DASHER_REASONS.values() for r in rs})


def _reset(app, world):
    r = control(app).post(f"/worlds/{world}/reset", json={"seed": 0}, headers={"X-Gym-Token": TOKEN})
    assert r.status_code == 200


def _dasher(o: m.Order) -> tuple:
    return o.dasher_rating, o.dasher_reasons, o.dasher_comment


def test_rate_dasher_page_flow(client, db):
    o = next(o for o in db.all(m.Order) if o.status == "delivered" and o.mode == "delivery")
    page = client.get(f"/orders/{o.id}").get_data(as_text=True)
    assert "Rate your Dasher" in page and 'aria-label="Thumbs down"' in page
    r = client.post(f"/orders/{o.id}/rate-dasher", data={"thumb": "down", "reason_down": ["Unprofessional", "Late delivery"],
                                                         "reason_up": "Friendly", "comment": " Left it at the wrong door "})
    assert r.status_code == 302 and "dasher=1" in r.location
    # the thumb's own reasons only, in the list's order; the other list's boxes are not read
    assert _dasher(db.get(m.Order, o.id)) == ("down", "Late delivery, Unprofessional", "Left it at the wrong door")
    page = client.get(f"/orders/{o.id}").get_data(as_text=True)
    assert "You gave your Dasher a thumbs down" in page and "Rate your Dasher" not in page
    r = client.post(f"/orders/{o.id}/rate-dasher", data={"thumb": "up"})
    assert "already+rated" in r.location or "already%20rated" in r.location
    assert _dasher(db.get(m.Order, o.id))[0] == "down"
    pickup = next(o for o in db.all(m.Order) if o.mode == "pickup")
    assert "Rate your Dasher" not in client.get(f"/orders/{pickup.id}").get_data(as_text=True)
    assert client.post(f"/orders/{pickup.id}/rate-dasher", json={"thumb": "up"}).json == {
        "ok": False, "error": "Pickup orders have no Dasher to rate."}
    assert client.post(f"/orders/{o.id}/rate-dasher", json={"thumb": "up", "reasons": "Friendly"}).status_code == 400


@SETTINGS
@given(data=st.data(), thumb=st.sampled_from(["up", "down", "sideways", ""]),
       reasons=st.lists(st.sampled_from(ALL_REASONS), max_size=4, unique=True),
       comment=st.sampled_from(["", "Thanks!", "  great  ", "x" * 300, "y" * 301]))
def test_rate_dasher_page_and_tool_agree(app, world, client, db, data, thumb, reasons, comment):
    """Every combination: the page (JSON) and the tool accept the same calls and write the same row."""
    orders = db.all(m.Order)
    o = data.draw(st.sampled_from(orders), label="order")
    rows = {}
    for via in ("page", "tool"):
        _reset(app, world)
        if via == "page":
            r = client.post(f"/orders/{o.id}/rate-dasher", json={"thumb": thumb, "reasons": reasons, "comment": comment})
            assert r.status_code == 200
            ok = r.json["ok"]
        else:
            try:
                TOOLS.call(app, world, "rate_dasher", {"order_id": o.id, "thumb": thumb, "reasons": reasons,
                                                      "comment": comment})
                ok = True
            except ToolError:
                ok = False
        rows[via] = (ok, _dasher(db.get(m.Order, o.id)))
    assert rows["page"] == rows["tool"]
    allowed = logic.DASHER_REASONS.get(thumb, ())
    want = (o.mode == "delivery" and o.status == "delivered" and thumb in ("up", "down")
            and set(reasons) <= set(allowed) and len(comment.strip()) <= logic.DASHER_COMMENT_MAX)
    assert rows["page"][0] is want
    if want:
        assert rows["page"][1] == (thumb, ", ".join(r for r in allowed if r in reasons), comment.strip())
        again = client.post(f"/orders/{o.id}/rate-dasher", json={"thumb": "up"}).json
        assert again == {"ok": False, "error": "You already rated your Dasher for this order."}
    else:
        assert rows["page"][1] == (None, "", "")


def _multi_lines(db):
    """Completed orders' lines of 2 or more."""
    done = {o.id for o in db.all(m.Order) if o.status in ("delivered", "picked_up")}
    return [oi for oi in db.all(m.OrderItem) if oi.order_id in done and oi.quantity >= 2]


def test_partial_claim_page_flow(app, world, client, db):
    oi = _multi_lines(db)[0]
    page = client.get(f"/orders/{oi.order_id}/help").get_data(as_text=True)
    assert f'aria-label="How many {oi.name}"' in page
    form = {"issue": "missing", f"item_{oi.id}": "1", f"qty_{oi.id}": "1", "reason": "Only part of the item arrived",
            "resolution": "credit"}
    credits = db.get(m.User, 1).credits_cents
    assert client.post(f"/orders/{oi.order_id}/help", data=form).status_code == 302
    req = db.one(m.SupportRequest)
    assert (req.order_item_id, req.quantity, req.amount_cents) == (oi.id, 1, oi.unit_price_cents)
    assert db.get(m.User, 1).credits_cents == credits + oi.unit_price_cents
    page = client.get(f"/orders/{oi.order_id}").get_data(as_text=True)
    assert f"1 of {oi.quantity} × {oi.name}" in page
    # the same line again: the page disables it; a forged post changes nothing; the tool says why
    help_page = client.get(f"/orders/{oi.order_id}/help").get_data(as_text=True)
    assert re.search(rf'name="item_{oi.id}"[^>]*disabled', help_page)
    assert b"Select the items" in client.post(f"/orders/{oi.order_id}/help", data=form).data
    try:
        TOOLS.call(app, world, "request_help",
                   {"order_id": oi.order_id, "issue": "missing", "order_item_ids": [oi.id],
                    "reason": "Only part of the item arrived", "resolution": "credit", "quantities": {str(oi.id): 1}})
        raise AssertionError("a line reported twice was accepted")
    except ToolError as e:
        assert "already reported" in str(e)
    assert len(db.all(m.SupportRequest)) == 1


@SETTINGS
@given(data=st.data(), qty=st.integers(-2, 5), resolution=st.sampled_from(["refund", "credit"]))
def test_partial_claim_page_and_tool_agree(app, world, client, db, data, qty, resolution):
    """Any claimed quantity of any line of 2+: within the line it refunds logic.refund_cents of that part
    (credits added at once); 0, negative or more than ordered is the same message from page and tool."""
    oi = data.draw(st.sampled_from(_multi_lines(db)), label="line")
    results = {}
    for via in ("page", "tool"):
        _reset(app, world)
        credits = db.get(m.User, 1).credits_cents
        if via == "page":
            r = client.post(f"/orders/{oi.order_id}/help", data={
                "issue": "quality", f"item_{oi.id}": "1", f"qty_{oi.id}": str(qty), "reason": "Food was cold",
                "resolution": resolution})
            assert r.status_code in (200, 302, 400)
            err = None if r.status_code == 302 else re.sub(r"\s+", " ", r.get_data(as_text=True))
        else:
            try:
                TOOLS.call(app, world, "request_help", {
                    "order_id": oi.order_id, "issue": "quality", "order_item_ids": [oi.id], "reason": "Food was cold",
                    "resolution": resolution, "quantities": {str(oi.id): qty}})
                err = None
            except ToolError as e:
                err = str(e)
        reqs = [(r.order_item_id, r.quantity, r.amount_cents, r.resolution) for r in db.all(m.SupportRequest)]
        results[via] = (err is None, reqs, db.get(m.User, 1).credits_cents - credits)
        if err is not None:
            assert logic.claim_refusal(oi.name, oi.quantity, qty) in err.replace("&#39;", "'").replace("&amp;", "&")
    assert results["page"] == results["tool"]
    ok = 1 <= qty <= oi.quantity
    assert results["page"][0] is ok
    if ok:
        amount = logic.refund_cents(oi.unit_price_cents, qty)
        assert results["page"][1] == [(oi.id, qty, amount, resolution)]
        assert results["page"][2] == (amount if resolution == "credit" else 0)
    else:
        assert results["page"][1:] == ([], 0)


def test_whole_line_is_the_default(app, world, db):
    """No quantity named: the whole line, as before (the existing help templates' amount)."""
    oi = _multi_lines(db)[0]
    TOOLS.call(app, world, "request_help", {"order_id": oi.order_id, "issue": "missing", "order_item_ids": [oi.id],
                                            "reason": "Item was not in the bag", "resolution": "refund"})
    req = db.one(m.SupportRequest)
    assert (req.quantity, req.amount_cents) == (oi.quantity, logic.refund_cents(oi.unit_price_cents, oi.quantity))
    try:
        TOOLS.call(app, world, "request_help", {"order_id": oi.order_id, "issue": "missing", "order_item_ids": [oi.id],
                                                "reason": "Item was not in the bag", "resolution": "refund",
                                                "quantities": {"999999": 1}})
        raise AssertionError("a quantity for a line not named was accepted")
    except ToolError as e:
        assert "not in order_item_ids" in str(e)


# ---------------------------------------------------------------------- Adjust tip after delivery
def test_adjust_tip_page_flow(client, db, now):
    o = next(o for o in db.all(m.Order) if o.status == "delivered" and o.mode == "delivery"
             and now - o.completed_at <= dt.timedelta(days=logic.TIP_CHANGE_DAYS))
    page = client.get(f"/orders/{o.id}").get_data(as_text=True)
    assert "Adjust tip" in page and 'aria-label="Custom tip amount"' in page
    r = client.post(f"/orders/{o.id}/tip", data={"tip": "other", "tip_custom": "$7.5"})
    assert r.status_code == 302 and "tip=1" in r.location
    after = db.get(m.Order, o.id)
    assert (after.tip_cents, after.tip_percent, after.total_cents) == (750, None, o.total_cents - o.tip_cents + 750)
    r = client.post(f"/orders/{o.id}/tip", data={"tip": "other", "tip_custom": "lots"})
    assert "Enter+a+tip" in r.location and db.get(m.Order, o.id).tip_cents == 750
    old = next(x for x in db.all(m.Order) if x.status == "delivered" and x.mode == "delivery"
               and now - x.completed_at > dt.timedelta(days=logic.TIP_CHANGE_DAYS))
    assert "Adjust tip" not in client.get(f"/orders/{old.id}").get_data(as_text=True)
    assert client.post(f"/orders/{old.id}/tip", json={"tip_percent": 20}).json == {
        "ok": False, "error": f"The tip can be changed up to {logic.TIP_CHANGE_DAYS} days after delivery."}


@SETTINGS
@given(data=st.data(), choice=st.one_of(st.sampled_from([15, 20, 25, 10]), st.integers(-5, 100_100)))
def test_adjust_tip_page_and_tool_agree(app, world, client, db, now, data, choice):
    """A preset (or a refused percent) or a custom amount in cents, on any order: the page (JSON) and the tool
    accept the same calls; an accepted one sets logic.tip_amount and moves the total by the difference."""
    o = data.draw(st.sampled_from(db.all(m.Order)), label="order")
    is_percent = choice in (15, 20, 25, 10)
    out = {}
    for via in ("page", "tool"):
        _reset(app, world)
        args = {"tip_percent": choice} if is_percent else {"tip_amount_cents": choice}
        if via == "page":
            r = client.post(f"/orders/{o.id}/tip", json=args)
            ok = r.status_code == 200 and r.json["ok"]
        else:
            try:
                TOOLS.call(app, world, "change_tip", {"order_id": o.id, **args})
                ok = True
            except ToolError:
                ok = False
        a = db.get(m.Order, o.id)
        out[via] = (ok, a.tip_cents, a.tip_percent, a.total_cents)
    assert out["page"] == out["tool"]
    want = (logic.tip_change_refusal(o, now) is None
            and (choice in logic.TIP_PRESETS if is_percent else 0 <= choice <= logic.TIP_MAX_CENTS))
    assert out["page"][0] is want
    if want:
        tip = logic.tip_amount(o.subtotal_cents, choice if is_percent else None, 0 if is_percent else choice, o.mode)
        assert out["page"][1:] == (tip, choice if is_percent else None, o.total_cents - o.tip_cents + tip)
    else:
        assert out["page"][1:] == (o.tip_cents, o.tip_percent, o.total_cents)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(raw=st.one_of(st.text(alphabet="0123456789.$ ", max_size=8), st.text(max_size=6)))
def test_parse_tip_dollars(raw):
    """Checkout's and Adjust tip's box: "5", "5.5", "$5.50" read as cents; anything else is None."""
    cents = logic.parse_tip_dollars(raw)
    s = raw.replace("$", "").strip()
    if re.fullmatch(r"\d{1,3}(\.\d{1,2})?", s):
        assert cents == round(float(s) * 100)
    else:
        assert cents is None
