"""Forkful's tools (apps/food/tools.py), in process: each tool's happy path, and for every tool the bad
inputs a model sends (wrong types, unknown ids, missing or extra arguments, oversized strings) refused with
a clear ToolError and the world unchanged; a failing multi-row write leaves nothing half-done; schemas."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import jsonschema
import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from apps._shared.tools import MAX_STRING, ToolError
from apps.food import models as m
from apps.food.tools import TOOLS

STORE, ITEM = 80, 2144  # "Ramen" (open at the default now) and its Tonkotsu Ramen (optional Add-ons)
BIG = 10**9  # no row has this id


@pytest.fixture()
def tw(app, world):
    """A world with 3 Tonkotsu Ramen in the cart, and helpers to call tools and read rows."""

    class TW:
        wid = world
        store = app.extensions["uigym_worlds"]

        def call(self, name, **args):
            return TOOLS.call(app, world, name, args)

        def state(self):
            return self.store.state(world)

        def digest(self):
            """The world's database file, byte for byte: a refused call rolls back, and a rolled-back SQLite
            transaction (rollback journal) leaves the file as it was; any commit changes it. Cheap (a state
            read costs ~0.2-0.7 s, so each test also compares the full state once, at its end)."""
            return hashlib.sha1(self.store.world_path(world).read_bytes()).hexdigest()

        def rows(self, model, *where):
            with Session(self.store.engine(world)) as s:
                return list(s.scalars(select(model).where(*where).order_by(model.id)))

    t = TW()
    t.call("add_to_cart", item_id=ITEM, quantity=3)
    return t


def valid_args(t) -> dict[str, dict]:
    """One accepted call of every tool in the `tw` world."""
    done = next(o for o in t.rows(m.Order) if o.status in ("delivered", "picked_up") and o.rating is None)
    scheduled = next(o for o in t.rows(m.Order) if o.status == "scheduled")
    line = t.rows(m.OrderItem, m.OrderItem.order_id == done.id)[0]
    delivered = next(o for o in t.rows(m.Order) if o.status == "delivered" and o.mode == "delivery")
    recent = max((o for o in t.rows(m.Order) if o.status == "delivered" and o.mode == "delivery"),
                 key=lambda o: o.completed_at)
    user = t.rows(m.User)[0]
    card = next(c for c in t.rows(m.PaymentMethod) if c.id != user.default_payment_id and c.exp_year >= 2027)
    saved = t.rows(m.SavedStore)[0].store_id
    gift = next(g for g in t.rows(m.GiftCard) if g.redeemed_at is None)
    promo = next(p for p in t.rows(m.Promo) if p.store_id is None and not p.members_only and p.featured
                 and p.min_subtotal_cents <= 5000 and p.kind != "delivery")
    zip_code = t.rows(m.Neighborhood)[0].zip
    cart_line = t.rows(m.CartItem)[0].id
    return {
        "search": {"query": "ramen"}, "list_stores": {"cuisine": "pizza", "sort": "rating"}, "list_cuisines": {},
        "get_store": {"store_id": STORE}, "get_menu_item": {"item_id": ITEM}, "list_offers": {}, "get_cart": {},
        "add_to_cart": {"item_id": ITEM, "quantity": 2}, "update_cart_item": {"cart_item_id": cart_line, "quantity": 4},
        "remove_cart_item": {"cart_item_id": cart_line}, "clear_cart": {},
        "edit_cart_item": {"cart_item_id": cart_line, "instructions": "extra napkins", "quantity": 2},
        "start_group_order": {"store_id": STORE, "limit_cents": 2500}, "end_group_order": {},
        "get_checkout": {}, "list_delivery_times": {}, "set_checkout_options": {"tip_percent": 20},
        "apply_promo": {"code": promo.code}, "remove_promo": {}, "place_order": {"dropoff": "hand"},
        "list_orders": {"status": "past"}, "get_order": {"order_id": done.id},
        "cancel_order": {"order_id": scheduled.id, "reason": "Changed my mind"},
        "rate_order": {"order_id": done.id, "stars": 4, "review": "Good"},
        "request_help": {"order_id": done.id, "issue": "missing", "order_item_ids": [line.id],
                         "reason": "Item was not in the bag", "resolution": "credit"},
        "change_tip": {"order_id": recent.id, "tip_percent": 25},
        "rate_dasher": {"order_id": delivered.id, "thumb": "up", "reasons": ["Friendly"], "comment": "Thanks!"},
        "reorder": {"order_id": done.id, "replace_cart": True}, "get_account": {},
        "set_delivery_mode": {"mode": "pickup"}, "select_address": {"address_id": 2},
        "add_address": {"street": "250 King St", "zip": zip_code, "label": "Gym"},
        "save_store": {"store_id": STORE}, "unsave_store": {"store_id": saved},
        "update_profile": {"phone": "415-555-0100"}, "set_notification": {"setting": "notify_sms_promos", "on": True},
        "add_card": {"number": "4111 1111 1111 1111", "expiration": "03/29", "cvc": "135", "billing_zip": "94107"},
        "set_default_card": {"card_id": card.id}, "remove_card": {"card_id": card.id},
        "subscribe_plus": {"plan": "monthly", "payment_method_id": card.id}, "cancel_plus": {},
        "redeem_gift_card": {"code": gift.code},
    }


def test_every_tool_has_a_valid_call(tw):
    assert set(valid_args(tw)) == set(TOOLS.tools)


@pytest.mark.parametrize("name", list(TOOLS.tools))
def test_happy_path_returns_json(tw, name):
    args = valid_args(tw)[name]
    if name == "cancel_plus":
        tw.call("subscribe_plus", **valid_args(tw)["subscribe_plus"])
    result = tw.call(name, **args)
    json.dumps(result)  # plain JSON
    assert len(json.dumps(result)) < 60_000  # bounded


def _refused(tw, name, args, *words):
    before = tw.digest()
    with pytest.raises(ToolError) as e:
        tw.call(name, **args)
    assert tw.digest() == before, f"{name}{args}: the world changed on a refused call"
    msg = str(e.value)
    assert msg and "Traceback" not in msg
    for w in words:
        assert w in msg, (w, msg)
    return msg


@pytest.mark.parametrize("name", list(TOOLS.tools))
def test_bad_inputs_are_refused_and_change_nothing(tw, name):
    start = tw.state()
    good = valid_args(tw)[name]
    schema = TOOLS.tools[name].schema()
    props = schema.get("properties", {})
    # an argument the tool does not have
    _refused(tw, name, {**good, "bogus": 1}, "bogus")
    # each argument with a value of the wrong type (an object fits none of them)
    for p in props:
        _refused(tw, name, {**good, p: {"x": 1}}, p)
    # a string over the limit, in the tool's first string argument (or as an unknown one)
    long_arg = next((p for p, s in props.items() if "string" in json.dumps(s)), "note")
    _refused(tw, name, {**good, long_arg: "x" * (MAX_STRING + 1)}, long_arg)
    # every required argument left out
    for p in schema.get("required", []):
        _refused(tw, name, {k: v for k, v in good.items() if k != p}, p)
    # an unknown id
    for p in props:
        if p.endswith("_id") and p in good:
            _refused(tw, name, {**good, p: BIG})
    # ids over the integer range
    for p in props:
        if p.endswith("_id") and p in good:
            _refused(tw, name, {**good, p: 2**70}, p)
    assert tw.state() == start  # and the whole world, as the state API shows it


def test_unknown_tool_and_non_object_arguments(app, tw):
    before = tw.state()
    with pytest.raises(ToolError, match="unknown tool"):
        TOOLS.call(app, tw.wid, "drop_tables", {})
    with pytest.raises(ToolError, match="JSON object"):
        TOOLS.call(app, tw.wid, "get_store", [80])
    assert tw.state() == before


# ---------------------------------------------------------------------- writes, asserted on the database
def test_cart_edits(tw):
    item = tw.call("get_menu_item", item_id=ITEM)
    addon = item["option_groups"][0]["options"][0]["option_id"]
    tw.call("add_to_cart", item_id=ITEM, option_ids=[addon], instructions="no onions")
    lines = tw.rows(m.CartItem)
    assert [(c.quantity, c.option_ids, c.instructions) for c in lines] == [(3, [], ""), (1, [addon], "no onions")]
    tw.call("update_cart_item", cart_item_id=lines[0].id, quantity=5)
    tw.call("remove_cart_item", cart_item_id=lines[1].id)
    assert [(c.id, c.quantity) for c in tw.rows(m.CartItem)] == [(lines[0].id, 5)]
    tw.call("clear_cart")
    assert tw.rows(m.Cart) == [] and tw.rows(m.CartItem) == []


def test_edit_cart_line_options_note_quantity(tw):
    """The drawer's line opened and saved: options re-checked, the line repriced by the one pricing rule, and a
    line that comes to match another merges into it."""
    from domain import food as logic

    groups = tw.call("get_menu_item", item_id=ITEM)["option_groups"]
    addons = [o["option_id"] for o in groups[0]["options"][:2]]
    line = tw.rows(m.CartItem)[0]
    cart = tw.call("edit_cart_item", cart_item_id=line.id, option_ids=addons, instructions="  no egg ")
    row = tw.rows(m.CartItem)[0]
    item = tw.rows(m.MenuItem, m.MenuItem.id == ITEM)[0]
    opts = tw.rows(m.Option, m.Option.id.in_(addons))
    assert (row.id, row.quantity, row.option_ids, row.instructions) == (line.id, 3, sorted(addons), "no egg")
    assert row.unit_price_cents == logic.item_unit_price(item, opts) > item.price_cents
    assert row.options_text == ", ".join(o.name for o in sorted(opts, key=lambda o: o.position))
    assert cart["items"][0]["option_ids"] == sorted(addons)
    tw.call("edit_cart_item", cart_item_id=line.id, quantity=1)  # the rest kept
    assert (tw.rows(m.CartItem)[0].quantity, tw.rows(m.CartItem)[0].instructions) == (1, "no egg")
    # a second plain line, then the first edited back to plain: one line of 1 + 2
    tw.call("add_to_cart", item_id=ITEM, quantity=2)
    tw.call("edit_cart_item", cart_item_id=line.id, option_ids=[], instructions="")
    assert [(c.quantity, c.option_ids, c.unit_price_cents) for c in tw.rows(m.CartItem)] == [(3, [], item.price_cents)]


def test_edit_cart_line_refusals_change_nothing(tw):
    pizza = next(i for i in tw.rows(m.MenuItem) if i.name == "Pepperoni Pizza")
    groups = tw.call("get_menu_item", item_id=pizza.id)["option_groups"]
    picks = [g["options"][0]["option_id"] for g in groups if g["required"]]
    tw.call("add_to_cart", item_id=pizza.id, option_ids=picks, replace_cart=True)
    line = tw.rows(m.CartItem)[0]
    before = tw.state()
    _refused(tw, "edit_cart_item", {"cart_item_id": line.id, "option_ids": []}, "Choose")  # a required group emptied
    ramen_addon = tw.call("get_menu_item", item_id=ITEM)["option_groups"][0]["options"][0]["option_id"]
    _refused(tw, "edit_cart_item", {"cart_item_id": line.id, "option_ids": picks + [ramen_addon]}, "not an option")
    _refused(tw, "edit_cart_item", {"cart_item_id": line.id, "option_ids": [BIG]}, "Unknown option")
    _refused(tw, "edit_cart_item", {"cart_item_id": line.id, "quantity": 0}, "quantity")
    _refused(tw, "edit_cart_item", {"cart_item_id": line.id, "quantity": "two"}, "quantity")
    _refused(tw, "edit_cart_item", {"cart_item_id": BIG, "quantity": 2}, "get_cart")
    assert tw.state() == before


def test_required_options_and_the_one_store_cart(tw):
    pizza = next(i for i in tw.rows(m.MenuItem) if i.name == "Pepperoni Pizza")
    before = tw.state()
    msg = _refused(tw, "add_to_cart", {"item_id": pizza.id}, "Choose")
    assert "Size" in msg or "Crust" in msg
    groups = tw.call("get_menu_item", item_id=pizza.id)["option_groups"]
    picks = [g["options"][0]["option_id"] for g in groups if g["required"]]
    _refused(tw, "add_to_cart", {"item_id": pizza.id, "option_ids": picks}, "replace_cart")
    assert tw.state() == before
    cart = tw.call("add_to_cart", item_id=pizza.id, option_ids=picks, replace_cart=True)
    assert cart["store_id"] == pizza.store_id and len(tw.rows(m.CartItem)) == 1


def test_checkout_and_place_order(tw):
    orders_before = len(tw.rows(m.Order))
    tw.call("set_checkout_options", tip_amount_cents=450, delivery_option="express")
    co = tw.call("get_checkout")
    o = tw.call("place_order", dropoff="hand", instructions="Gate 4321")
    row = tw.rows(m.Order, m.Order.id == o["order_id"])[0]
    assert (row.tip_cents, row.tip_percent, row.delivery_option, row.dropoff, row.instructions) == (450, None, "express", "hand", "Gate 4321")
    assert f"${row.total_cents / 100:,.2f}" == co["totals"]["total_cents"]
    assert len(tw.rows(m.Order)) == orders_before + 1 and tw.rows(m.Cart) == []
    assert [(i.item_id, i.quantity) for i in tw.rows(m.OrderItem, m.OrderItem.order_id == row.id)] == [(ITEM, 3)]


def test_schedule_needs_a_real_window(tw):
    _refused(tw, "set_checkout_options", {"delivery_option": "scheduled"}, "list_delivery_times")
    _refused(tw, "set_checkout_options", {"delivery_option": "scheduled", "scheduled_for": "2026-03-14T03:07"}, "window")
    slot = tw.call("list_delivery_times")["days"][1]["windows"][0]["scheduled_for"]
    tw.call("set_checkout_options", delivery_option="scheduled", scheduled_for=slot)
    o = tw.call("place_order")
    assert o["status"] == "scheduled" and o["scheduled_for"] == slot


def test_promo_refusals_name_the_reason(tw):
    msg = _refused(tw, "apply_promo", {"code": "NOPE"})
    assert "exist" in msg
    expired = next(p for p in tw.rows(m.Promo) if p.expires_at.year < 2026 or p.expires_at < __import__("datetime").datetime(2026, 3, 13, 18, 30))
    _refused(tw, "apply_promo", {"code": expired.code})


def test_a_failure_after_a_multi_row_write_rolls_everything_back(tw, monkeypatch):
    """place_order writes an order, its lines, deletes the cart and spends credits: if anything after that
    fails, the wrapper rolls the whole call back."""
    from apps.food.services import catalog

    def boom(order_id):
        raise ToolError("boom after the writes")

    monkeypatch.setattr(catalog, "get_order", boom)
    _refused(tw, "place_order", {}, "boom")
    monkeypatch.undo()
    assert len(tw.rows(m.CartItem)) == 1


def test_help_with_an_unknown_line_writes_no_request(tw):
    done = next(o for o in tw.rows(m.Order) if o.status == "delivered")
    line = tw.rows(m.OrderItem, m.OrderItem.order_id == done.id)[0]
    _refused(tw, "request_help", {"order_id": done.id, "issue": "wrong", "order_item_ids": [line.id, BIG],
                                  "reason": "Received a different item", "resolution": "credit"}, str(BIG))
    tw.call("request_help", order_id=done.id, issue="wrong", order_item_ids=[line.id],
            reason="Received a different item", resolution="credit")
    req = tw.rows(m.SupportRequest, m.SupportRequest.order_id == done.id)
    assert [(r.order_item_id, r.amount_cents) for r in req] == [(line.id, line.unit_price_cents * line.quantity)]


def test_orders_cancel_rate_reorder(tw):
    sched = next(o for o in tw.rows(m.Order) if o.status == "scheduled")
    tw.call("cancel_order", order_id=sched.id, reason="Wrong address")
    row = tw.rows(m.Order, m.Order.id == sched.id)[0]
    assert (row.status, row.cancel_reason) == ("cancelled", "Wrong address")
    _refused(tw, "cancel_order", {"order_id": sched.id}, "no longer")
    done = next(o for o in tw.rows(m.Order) if o.status == "delivered" and o.rating is None)
    tw.call("rate_order", order_id=done.id, stars=5, review="Great")
    assert tw.rows(m.Review, m.Review.order_id == done.id)[0].text == "Great"
    _refused(tw, "rate_order", {"order_id": done.id, "stars": 4}, "already")
    if done.store_id != STORE:
        _refused(tw, "reorder", {"order_id": done.id}, "replace_cart")
    tw.call("reorder", order_id=done.id, replace_cart=True)
    assert {c.item_id for c in tw.rows(m.CartItem)} == {i.item_id for i in tw.rows(m.OrderItem, m.OrderItem.order_id == done.id)}


def test_account_writes(tw):
    args = valid_args(tw)
    d = tw.digest()
    tw.call("save_store", store_id=STORE)
    assert tw.digest() != d  # the digest _refused relies on sees a committed write
    assert STORE in {r.store_id for r in tw.rows(m.SavedStore)}
    tw.call("unsave_store", store_id=STORE)
    assert STORE not in {r.store_id for r in tw.rows(m.SavedStore)}
    a = tw.call("add_address", **args["add_address"], dropoff="hand")
    user = tw.rows(m.User)[0]
    assert user.current_address_id == a["address_id"]
    _refused(tw, "add_address", {"street": "King St", "zip": "00000"}, "street", "zip")
    tw.call("update_profile", phone="415 555 0100")
    assert tw.rows(m.User)[0].phone == "(415) 555-0100"
    _refused(tw, "update_profile", {"email": "not-an-email"}, "email")
    tw.call("set_notification", setting="notify_sms_promos", on=True)
    assert tw.rows(m.User)[0].notify_sms_promos is True
    c = tw.call("add_card", **args["add_card"], make_default=True)
    assert tw.rows(m.User)[0].default_payment_id == c["card_id"]
    _refused(tw, "add_card", {**args["add_card"], "number": "4111 1111 1111 1112"})
    tw.call("subscribe_plus", plan="annual", payment_method_id=c["card_id"])
    assert tw.rows(m.User)[0].membership_status == "active"
    _refused(tw, "remove_card", {"card_id": c["card_id"]}, "Forkful Plus")
    tw.call("cancel_plus")
    assert tw.rows(m.User)[0].membership_status == "cancelled"
    _refused(tw, "cancel_plus", {}, "membership")
    credits = tw.rows(m.User)[0].credits_cents
    gift = next(g for g in tw.rows(m.GiftCard) if g.redeemed_at is None)
    tw.call("redeem_gift_card", code=gift.code.lower())
    assert tw.rows(m.User)[0].credits_cents == credits + gift.amount_cents
    _refused(tw, "redeem_gift_card", {"code": gift.code}, "already")


# ---------------------------------------------------------------------- schemas and docs
@pytest.mark.parametrize("name", list(TOOLS.tools))
def test_schema_is_valid_json_schema_with_descriptions(name):
    tool = TOOLS.tools[name]
    schema = tool.schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema.get("additionalProperties") is False
    assert len(tool.description) > 20
    for p, s in schema.get("properties", {}).items():
        assert s.get("description"), f"{name}.{p} has no description"
    json.dumps(tool.openai())


def test_every_tool_is_in_the_readme():
    readme = (Path(__file__).resolve().parents[3] / "apps" / "food" / "README.md").read_text()
    missing = [n for n in TOOLS.tools if f"`{n}`" not in readme]
    assert not missing, f"tools missing from apps/food/README.md: {missing}"


def test_served_by_the_control_api(app, tw):
    from tests.apps.food.conftest import TOKEN
    from tests.apps.world_fixtures import control

    ctl, h = control(app), {"X-Gym-Token": TOKEN}
    listed = ctl.get("/tools", headers=h).get_json()
    assert listed["app"] == "food" and [t["name"] for t in listed["tools"]] == list(TOOLS.tools)
    ok = ctl.post(f"/worlds/{tw.wid}/tools/save_store", json={"store_id": STORE}, headers=h)
    assert ok.status_code == 200 and ok.get_json()["result"]["saved"] is True
    assert STORE in {r.store_id for r in tw.rows(m.SavedStore)}
    before = tw.state()
    bad = ctl.post(f"/worlds/{tw.wid}/tools/add_to_cart", json={"item_id": BIG}, headers=h)
    assert bad.status_code == 422 and "no longer available" in bad.get_json()["error"]
    assert tw.state() == before
