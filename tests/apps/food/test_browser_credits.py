"""Issue 25 in a real browser: redeem a gift card, check out with "Use Forkful credits" as the page has it (on
by default, then switched off and on again), place the order; the order's credits and total and the balance
left are the numbers the order summary showed."""

from __future__ import annotations

import re

import pytest

from apps.food import SPEC
from domain import food as logic
from gym_core import AsyncUIEnv
from tests.apps.food.checkout_page import summary

pytestmark = pytest.mark.slow


async def _redeem(env, code: str) -> None:
    page = env.page
    await page.goto(f"{env.server.url}/account/credits")
    await page.get_by_role("textbox", name="Gift card code").fill(code)
    await page.get_by_role("button", name="Redeem", exact=True).click()
    await page.get_by_text("was added to your credits").wait_for(timeout=10_000)


async def _fill_cart(env, state) -> None:
    """Three of an open store's item without options, added as the store page's script adds them."""
    stores = {s["id"]: s for s in state["stores"]}
    item = next(i for i in sorted(state["menu_items"], key=lambda i: i["id"])
                if not i["group_ids"] and logic.is_open(stores[i["store_id"]], SPEC.default_now))
    r = await env.page.evaluate(
        "async (id) => (await fetch('/api/cart/add', {method: 'POST', headers: {'Content-Type': 'application/json'},"
        " body: JSON.stringify({item_id: id, quantity: 3})})).json()", item["id"])
    assert r["ok"], r


async def _checkout_and_place(env, toggle: bool):
    page = env.page
    await page.goto(f"{env.server.url}/checkout")
    switch = page.get_by_role("switch", name="Use Forkful credits")
    assert await switch.is_checked()  # on by default
    if toggle:
        for want in (False, True):
            async with page.expect_response("**/checkout/update"):
                await switch.click()
            assert await switch.is_checked() is want
            await page.wait_for_function(
                "(want) => document.querySelector('#co-summary').textContent.includes('Forkful credits') === want", arg=want)
    shown = summary(await page.content())
    await page.get_by_role("button", name="Place Order").click()
    await page.wait_for_url(re.compile(r".*/orders/\d+\?placed=1"), timeout=15_000)
    return shown, int(re.search(r"/orders/(\d+)", page.url)[1])


@pytest.mark.parametrize("toggle", [False, True], ids=["switch-on-by-default", "switched-off-and-on"])
async def test_credits_shown_are_applied(runtime, toggle):
    env = AsyncUIEnv("food", runtime=runtime)
    try:
        await env.reset(seed=0, start_path="/")
        state = await env.state()
        gift = next(g for g in sorted(state["gift_cards"], key=lambda g: g["id"]) if g["redeemed_at"] is None)
        await _redeem(env, gift["code"])
        await _fill_cart(env, state)
        shown, order_id = await _checkout_and_place(env, toggle)
        after = await env.state()
        order = next(o for o in after["orders"] if o["id"] == order_id)
        balance = next(u for u in after["users"] if u["id"] == 1)["credits_cents"]
        assert shown["credits_applied_cents"] == min(gift["amount_cents"], shown["total_cents"] + shown["credits_applied_cents"]) > 0
        assert {k: order[k] for k in shown} == shown
        assert balance == gift["amount_cents"] - shown["credits_applied_cents"]
    finally:
        await env.close()
