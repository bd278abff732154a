"""The Forkful templates' reward-integrity helpers (tasks/templates/food/_common.py): allowances that
admit the honest change and nothing next to it, distractor lists, adversarial trajectory builders.
Offline and fast: small hand-made states, no browser."""

from __future__ import annotations

import copy

import pytest

from tasks.templates.food._common import (
    collateral, creates, deletes, distinct, extra, new_cart, new_lines, order_allow, updates, user_update,
    wrong_record,
)
from tasks.templates.food._lib import click, done
from grading import verify
from grading.lint import spec_holes


def _start() -> dict:
    return {
        "users": [{"id": 1, "mode": "delivery", "phone": "(415) 555-0100", "credits_cents": 0, "notify_sms_promos": False}],
        "carts": [], "cart_items": [], "orders": [], "order_items": [],
        "saved_stores": [{"id": 1, "store_id": 7}, {"id": 2, "store_id": 8}],
    }


def _grade(allow: list[dict], end: dict, start: dict | None = None) -> float:
    return verify({"checks": [], "unchanged_except": allow}, start or _start(), end, None).score


def _order(end: dict, oid: int, store: int, items: list[int]) -> dict:
    end["orders"].append({"id": oid, "store_id": store})
    for i, it in enumerate(items):
        end["order_items"].append({"id": oid * 10 + i, "order_id": oid, "item_id": it})
    return end


def test_allowance_helpers_have_no_holes():
    allow = [user_update("phone"), creates("saved_stores", {"store_id": 7}), deletes("saved_stores", {"store_id": 7}),
             updates("cart_items", {"id": 901}, ["quantity"]), new_cart(3), new_cart(3, group=True),
             new_lines("cart_items", [4, 5], 2), *order_allow(3, [4], 1, user_update("mode"))]
    assert spec_holes({"checks": [], "unchanged_except": allow}) == []
    with pytest.raises(ValueError):
        user_update()


def test_order_allowance_admits_the_order_and_nothing_next_to_it():
    allow = order_allow(3, [4, 5], 2)
    assert _grade(allow, _order(_start(), 100, 3, [4, 5])) == 1.0
    # a second order, an order elsewhere, a line of another item
    assert _grade(allow, _order(_order(_start(), 100, 3, [4, 5]), 101, 3, [])) == 0.0
    assert _grade(allow, _order(_start(), 100, 9, [4, 5])) == 0.0
    assert _grade(allow, _order(_start(), 100, 3, [4, 6])) == 0.0
    # a cart left behind (Reorder right after placing): the order's own cart leaves no trace, this one does
    end = _order(_start(), 100, 3, [4, 5])
    end["carts"].append({"id": 1, "store_id": 3, "group_order": False})
    end["cart_items"].append({"id": 1, "cart_id": 1, "item_id": 4})
    assert _grade(allow, end) == 0.0


def test_user_update_is_the_task_field_only():
    end = _start()
    end["users"][0]["phone"] = "(415) 555-0199"
    assert _grade([user_update("phone")], end) == 1.0
    end["users"][0]["mode"] = "pickup"  # the same row, a field nobody asked for
    assert _grade([user_update("phone")], end) == 0.0
    assert _grade([user_update("phone", "mode")], end) == 1.0


def test_new_cart_is_one_cart_of_that_shape():
    end = _start()
    end["carts"].append({"id": 1, "store_id": 3, "group_order": False})
    end["cart_items"].append({"id": 1, "cart_id": 1, "item_id": 4})
    allow = [new_cart(3), new_lines("cart_items", [4], 1)]
    assert _grade(allow, end) == 1.0
    assert _grade([new_cart(3, group=True), new_lines("cart_items", [4], 1)], end) == 0.0
    more = copy.deepcopy(end)
    more["cart_items"].append({"id": 2, "cart_id": 1, "item_id": 4})
    assert _grade(allow, more) == 0.0  # max 1 line


def test_saved_store_creates_and_deletes_are_bounded():
    end = _start()
    end["saved_stores"].append({"id": 3, "store_id": 9})
    assert _grade([creates("saved_stores", {"store_id": 9})], end) == 1.0
    end["saved_stores"].append({"id": 4, "store_id": 10})
    assert _grade([creates("saved_stores", {"store_id": 9})], end) == 0.0
    gone = _start()
    gone["saved_stores"] = gone["saved_stores"][1:]
    assert _grade([deletes("saved_stores", {"store_id": 7})], gone) == 1.0
    assert _grade([deletes("saved_stores", {"store_id": 8})], gone) == 0.0


def test_distinct_drops_the_gold_and_repeats():
    assert distinct(["$1.99", "$2.49", " $1.99", "$2.49", "", "$0.99"], gold="$1.99") == ["$2.49", "$0.99"]
    assert distinct(["Taco Town", "taco  town", "Pho Real"], gold="TACO TOWN") == ["Pho Real"]
    assert distinct([str(i) for i in range(50)], gold="x", limit=5) == ["0", "1", "2", "3", "4"]


def test_extra_keeps_the_gold_and_ends_with_its_done():
    sol = [click("button", "A"), done("42")]
    adv = extra(sol, [click("button", "B")], "why")
    assert adv["kind"] == "extra" and adv["steps"] == [click("button", "A"), click("button", "B"), done("42")]
    assert sol == [click("button", "A"), done("42")]  # the gold is not modified
    wr = wrong_record([click("button", "C"), done()], "why")
    assert wr["kind"] == "wrong_record" and wr["steps"][-1] == done()
    col = collateral([click("button", "A"), done()], avoid="Promotions and offers: Text messages")
    assert col["steps"][-2] == click("switch", "Order updates: Email receipts", exact=True)
