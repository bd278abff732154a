"""Issue 46 (food) in a real browser, asserted on the world's state.

- Pickup: the header's Pickup switch; every store card home shows (each carousel, All stores) is a store that
  offers pickup and reads "Pickup"; the saved stores without pickup are not on home and read "No pickup" on
  Account > Saved stores; an order placed from a saved store's page in Pickup is a pickup order; a store without
  pickup cannot be checked out for pickup (no order is written).
- Typos: "burito" typed in the header search finds the burrito places ("Showing results for “burrito”"); a
  nonsense word answers "No results", never an error.
"""

from __future__ import annotations

import re

import pytest

from apps.food import SPEC
from domain import food as logic
from gym_core import AsyncUIEnv

pytestmark = pytest.mark.slow

CARDS_JS = """() => [...document.querySelectorAll('section[aria-label]')].map(s => [s.getAttribute('aria-label'),
  [...s.querySelectorAll('.store-card')].map(c => [Number(c.dataset.store), c.querySelector('.store-fee').textContent.trim()])])"""


async def _search(env, text: str) -> None:
    page = env.page
    await page.get_by_role("searchbox", name="Search Forkful").fill(text)
    async with page.expect_navigation():
        await page.get_by_role("searchbox", name="Search Forkful").press("Enter")


async def test_pickup_lists_only_pickup_stores_and_they_check_out(runtime):
    env = AsyncUIEnv("food", runtime=runtime)
    try:
        await env.reset(seed=0, start_path="/")
        page = env.page
        async with page.expect_navigation():
            await page.get_by_role("button", name="Pickup", exact=True).click()
        state = await env.state()
        assert state["users"][0]["mode"] == "pickup"
        stores = {s["id"]: s for s in state["stores"]}
        rows = dict(await page.evaluate(CARDS_JS))
        assert {"Your saved stores", "New on Forkful", "All stores"} <= {t for t, cards in rows.items() if cards}
        shown = {sid for cards in rows.values() for sid, _fee in cards}
        bad = {(t, sid) for t, cards in rows.items() for sid, fee in cards
               if not stores[sid]["offers_pickup"] or not fee.startswith("Pickup")}
        assert shown and not bad
        saved = [r["store_id"] for r in sorted(state["saved_stores"], key=lambda r: r["id"])]
        no_pickup = [i for i in saved if not stores[i]["offers_pickup"]]
        assert no_pickup and not set(no_pickup) & shown
        # Account > Saved stores lists them all, each labelled by what it can do in Pickup.
        await page.goto(f"{env.server.url}/account/saved")
        fees = dict(await page.evaluate(CARDS_JS.replace("section[aria-label]", "main")))
        labels = {sid: fee for cards in fees.values() for sid, fee in cards}
        assert {labels[i] for i in no_pickup} == {"No pickup"} and set(labels) == set(saved)

        # An open saved store from home's row: its page, an item without options, Place Order: a pickup order.
        saved_row = [sid for sid, _fee in rows["Your saved stores"]]
        items = sorted(state["menu_items"], key=lambda i: i["id"])
        sid, item = next((s, i) for s in saved_row if logic.is_open(stores[s], SPEC.default_now)
                         for i in items if i["store_id"] == s and not i["group_ids"])
        await page.goto(env.server.url + "/")
        async with page.expect_navigation():
            await page.get_by_role("region", name="Your saved stores").get_by_role("link", name=stores[sid]["name"], exact=True).click()
        await page.get_by_role("button", name=item["name"], exact=True).last.click()
        async with page.expect_response("**/api/cart/add"):
            await page.get_by_role("button", name=re.compile(r"^Add to cart")).click()
        await page.goto(f"{env.server.url}/checkout")
        await page.get_by_role("button", name="Place Order").click()
        await page.wait_for_url(re.compile(r".*/orders/\d+\?placed=1"), timeout=15_000)
        order_id = int(re.search(r"/orders/(\d+)", page.url)[1])
        order = next(o for o in (await env.state())["orders"] if o["id"] == order_id)
        assert (order["store_id"], order["mode"]) == (sid, "pickup")

        # A saved store without pickup: its page says so, and its cart cannot be placed for pickup.
        nid = no_pickup[0]
        await page.goto(f"{env.server.url}/store/{nid}")
        fee_box = await page.get_by_label("Fees and time").inner_text()
        assert "No pickup" in fee_box and "ready for pickup" not in fee_box
        before = len((await env.state())["orders"])
        nitem = next(i for i in items if i["store_id"] == nid and not i["group_ids"])
        await page.get_by_role("button", name=nitem["name"], exact=True).last.click()
        async with page.expect_response("**/api/cart/add"):
            await page.get_by_role("button", name=re.compile(r"^Add to cart")).click()
        await page.goto(f"{env.server.url}/checkout")
        assert await page.get_by_role("radio", name="Pickup").is_disabled()
        await page.get_by_role("button", name="Place Order").click()
        await page.get_by_text("doesn't offer pickup").first.wait_for(timeout=10_000)
        assert len((await env.state())["orders"]) == before
    finally:
        await env.close()


async def test_a_misspelt_dish_finds_it_and_nonsense_finds_nothing(runtime):
    env = AsyncUIEnv("food", runtime=runtime)
    try:
        await env.reset(seed=0, start_path="/")
        page = env.page
        await _search(env, "burito")
        await page.get_by_text("Showing results for “burrito”").wait_for(timeout=10_000)
        state = await env.state()
        with_burrito = {i["store_id"] for i in state["menu_items"] if "burrito" in i["name"].lower()}
        dishes = await page.get_by_role("region", name="Dishes").get_by_role("link").evaluate_all(
            "els => els.map(e => e.getAttribute('aria-label'))")
        assert dishes and all("burrito" in d.lower() for d in dishes)
        shown = {sid for cards in dict(await page.evaluate(CARDS_JS.replace("section[aria-label]", "main"))).values()
                 for sid, _fee in cards}
        assert shown == with_burrito

        await _search(env, "xqzjvk")
        assert await page.get_by_text("No results for “xqzjvk”").is_visible()
        assert await page.locator(".store-card").count() == 0
    finally:
        await env.close()


async def test_rate_your_dasher_dialog(runtime):
    """The order page's Rate your Dasher: thumbs down shows that thumb's reasons only; the rating is stored once
    and shown; the button is gone."""
    env = AsyncUIEnv("food", runtime=runtime)
    try:
        await env.reset(seed=0, start_path="/orders/40101")
        page = env.page
        await page.get_by_role("button", name="Rate your Dasher", exact=True).click()
        dlg = page.get_by_role("dialog", name="Rate your Dasher")
        assert not await dlg.get_by_role("checkbox", name="Late delivery").is_visible()
        await dlg.get_by_role("radio", name="Thumbs down", exact=True).click()
        assert not await dlg.get_by_role("checkbox", name="Friendly").is_visible()
        await dlg.get_by_role("checkbox", name="Late delivery", exact=True).click()
        await dlg.get_by_role("textbox", name="Comment for your Dasher").fill("Rang twice at midnight.")
        async with page.expect_navigation():
            await dlg.get_by_role("button", name="Submit rating", exact=True).click()
        o = next(o for o in (await env.state())["orders"] if o["id"] == 40101)
        assert (o["dasher_rating"], o["dasher_reasons"], o["dasher_comment"]) == ("down", "Late delivery",
                                                                                    "Rang twice at midnight.")
        assert await page.get_by_role("region", name="Dasher rating").is_visible()
        assert await page.get_by_role("button", name="Rate your Dasher").count() == 0
    finally:
        await env.close()


async def test_help_claim_for_one_of_two(runtime):
    """The help page: 1 of the 2 Miso Ramen reported missing is refunded for one (logic.refund_cents)."""
    env = AsyncUIEnv("food", runtime=runtime)
    try:
        await env.reset(seed=0, start_path="/orders/40102/help")
        page = env.page
        line = next(x for x in (await env.state())["order_items"] if x["order_id"] == 40102 and x["quantity"] == 2)
        await page.get_by_role("radio", name="Missing items", exact=True).click()
        await page.get_by_role("checkbox", name=line["name"], exact=True).click()
        group = page.get_by_role("radiogroup", name=f"How many {line['name']}", exact=True)
        await group.get_by_role("radio", name="1 of 2", exact=True).click()
        await page.get_by_role("radio", name="Only part of the item arrived", exact=True).click()
        await page.get_by_role("radio", name="Forkful credits", exact=True).click()
        async with page.expect_navigation():
            await page.get_by_role("button", name="Submit request", exact=True).click()
        state = await env.state()
        [req] = state["support_requests"]
        amount = logic.refund_cents(line["unit_price_cents"], 1)
        assert (req["order_item_id"], req["quantity"], req["amount_cents"]) == (line["id"], 1, amount)
        assert re.search(rf"1 of 2 × {re.escape(line['name'])}", await page.inner_text("main"))
    finally:
        await env.close()


async def test_adjust_tip_after_delivery(runtime):
    """Adjust tip on yesterday's delivered order: typing an amount picks Other; the tip and total follow."""
    env = AsyncUIEnv("food", runtime=runtime)
    try:
        await env.reset(seed=0, start_path="/")
        state = await env.state()
        o = max((x for x in state["orders"] if x["status"] == "delivered" and x["mode"] == "delivery"),
                key=lambda x: x["completed_at"])
        page = env.page
        await page.goto(f"{env.server.url}/orders/{o['id']}")
        await page.get_by_role("button", name="Adjust tip", exact=True).click()
        dlg = page.get_by_role("dialog", name="Adjust tip")
        await dlg.get_by_role("textbox", name="Custom tip amount").fill("9")
        assert await dlg.get_by_role("radio", name="Other tip amount").is_checked()
        async with page.expect_navigation():
            await dlg.get_by_role("button", name="Save tip", exact=True).click()
        after = next(x for x in (await env.state())["orders"] if x["id"] == o["id"])
        assert (after["tip_cents"], after["tip_percent"]) == (900, None)
        assert after["total_cents"] == o["total_cents"] - o["tip_cents"] + 900
        assert await page.get_by_role("status").filter(has_text="Your courier tip was updated").is_visible()
    finally:
        await env.close()
