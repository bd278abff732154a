"""Home's "Order again" row (issue 17): the stores of your completed orders, the latest first, each once; a
cancelled or still-running order does not put its store there."""

from __future__ import annotations

import html as htmllib
import re

from apps.food.models import Order, Store


def test_order_again_row(client, db):
    html = client.get("/").get_data(as_text=True)
    row = html.split('aria-label="Order again"', 1)[1].split("</section>", 1)[0]
    shown = [htmllib.unescape(n) for n in (re.findall(r'class="sc-name">([^<]+)<', row) or re.findall(r'aria-label="Save ([^"]+)"', row))]
    done = sorted((o for o in db.all(Order) if o.status in ("delivered", "picked_up")),
                  key=lambda o: (o.placed_at, o.id), reverse=True)
    want = []
    for o in done:
        name = db.get(Store, o.store_id).name
        if name not in want:
            want.append(name)
    assert shown and shown == want[:len(shown)] and len(shown) == min(12, len(want))
    others = {db.get(Store, o.store_id).name for o in db.all(Order) if o.status not in ("delivered", "picked_up")}
    assert not (others - set(want)) & set(shown)
