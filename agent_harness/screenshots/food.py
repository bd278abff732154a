"""Screenshots of Forkful at 1280x720 into docs/screenshots/food/: `python -m agent_harness.screenshots.food`.

Serves the app in-process on a free port with a throw-away UIGYM_HOME, freezes the browser clock at
the world's now, and captures home, search, store, item dialog, cart, checkout, orders, order
status and account pages.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import threading
from pathlib import Path

from gym_core.browser import chromium_executable

OUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "food"
FREEZE = "*,*::before,*::after{transition:none!important;animation:none!important;caret-color:transparent!important}"




def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--out", type=Path, default=OUT)
    p.add_argument("--only", default="")
    args = p.parse_args(argv)
    os.environ.setdefault("UIGYM_HOME", tempfile.mkdtemp(prefix="forkful-shots-"))
    from playwright.sync_api import sync_playwright
    from werkzeug.serving import make_server

    from apps.food import SPEC, create_app

    app = create_app({"GYM_TOKEN": "shots"})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    c = app.test_client()
    binding = app.extensions["uigym_control"].test_client().post(
        "/worlds/shots/reset", json={"seed": 0}, headers={"X-Gym-Token": "shots"}).json["cookie"]
    args.out.mkdir(parents=True, exist_ok=True)

    import datetime as dt

    from sqlalchemy import select

    from apps.food.models import MenuItem, Order, Store

    with app.test_request_context():
        eng = app.extensions["uigym_worlds"].engine("shots")
        from sqlalchemy.orm import Session

        with Session(eng) as s:
            pizza = s.scalars(select(Store).where(Store.cuisine_id == 1).order_by(Store.rating.desc(), Store.id)).first()
            pep = s.scalars(select(MenuItem).where(MenuItem.store_id == pizza.id, MenuItem.name == "Pepperoni Pizza")).first()
            others = s.scalars(select(MenuItem).where(MenuItem.store_id == pizza.id, MenuItem.group_ids == "[]").order_by(MenuItem.id)).all()
            active = s.scalars(select(Order).where(Order.status == "preparing")).first()
            from apps.food.models import Option

            opts = s.scalars(select(Option).where(Option.group_id.in_(pep.group_ids))).all()
            pep_opts = [o.id for o in opts if o.name in ("Large", "Hand-tossed", "Mushrooms")]
            pizza_id, pep_id, other_ids, active_id = pizza.id, pep.id, [o.id for o in others[:2]], active.id

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_executable(pw.chromium.executable_path), headless=True)
        ctx = browser.new_context(viewport={"width": 1280, "height": 720}, device_scale_factor=1, locale="en-US",
                                  timezone_id="UTC", reduced_motion="reduce")
        ctx.add_cookies([{"name": binding["name"], "value": binding["value"], "url": base, "httpOnly": True}])
        ctx.clock.set_fixed_time(SPEC.default_now.replace(tzinfo=dt.timezone.utc))
        page = ctx.new_page()
        page.add_init_script(f"document.addEventListener('DOMContentLoaded',()=>{{const s=document.createElement('style');s.textContent={FREEZE!r};document.head.appendChild(s)}})")

        def shot(name: str, url: str | None = None, before=None):
            if args.only and name not in args.only.split(","):
                return
            if url:
                page.goto(base + url, wait_until="load")
            page.evaluate("document.fonts.ready.then(() => true)")
            if before:
                before()
            page.wait_for_load_state("networkidle")
            # Lazy pictures come after load: wait until every one in view is in (as the env does).
            page.wait_for_function("[...document.images].every(i => { const r = i.getBoundingClientRect();"
                                   " return i.complete || !r.width || r.top >= innerHeight || r.left >= innerWidth"
                                   " || r.bottom <= 0 || r.right <= 0; })")
            page.wait_for_timeout(150)
            page.screenshot(path=str(args.out / f"{name}.png"))
            print("wrote", args.out / f"{name}.png")

        shot("home", "/")
        shot("search", "/search?q=ramen")
        shot("store", f"/store/{pizza_id}")

        def pick_large():
            page.get_by_role("dialog").wait_for()
            page.get_by_role("radio", name="Large", exact=True).click()
            page.get_by_role("radio", name="Thin crust", exact=True).click()
            page.evaluate("document.getElementById('item-dialog').scrollTop = 0")
        shot("item-dialog", f"/store/{pizza_id}?item={pep_id}", pick_large)
        # fill a cart through the UI's own API
        c.set_cookie(binding["name"], binding["value"])
        c.post("/api/cart/clear")
        c.post("/api/cart/add", json={"item_id": pep_id, "quantity": 1, "option_ids": pep_opts, "replace": True})
        for o in other_ids:
            c.post("/api/cart/add", json={"item_id": o, "quantity": 2, "option_ids": []})

        def open_cart():
            page.get_by_role("button", name="Cart,").click()
            page.get_by_role("dialog", name="Your cart").wait_for()
        shot("cart", f"/store/{pizza_id}", open_cart)

        def edit_line():
            # the cart's pizza line opened: its dialog over the drawer, prefilled, one option changed
            open_cart()
            page.get_by_role("button", name="Edit Pepperoni Pizza").click()
            page.get_by_role("button", name="Update cart").wait_for()
            page.get_by_role("radio", name="Medium", exact=True).click()
            page.get_by_role("textbox", name="Special instructions").fill("Cut in half please")
            page.evaluate("document.getElementById('line-dialog').scrollTop = 1e6")  # the footer: quantity, Update cart
        shot("cart-edit-line", f"/store/{pizza_id}", edit_line)
        shot("checkout", "/checkout")
        shot("orders", "/orders")
        shot("order-status", f"/orders/{active_id}")
        shot("account", "/account/plus")
        browser.close()
    server.shutdown()


if __name__ == "__main__":
    main()
