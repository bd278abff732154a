"""Products on opportunities (apps/crm/services/products.py): Add Products from a price book, with quantity and
sales price; the opportunity's Amount becomes the line items' total."""

from __future__ import annotations

import random

from tasks.templates import World, template
from tasks.templates.crm._common import (
    DIALOG, Crm, allow_create, allow_update, button, call, done, extra, fill, find, finish, money, neighbour, open_record,
    pick, save_modal, tools, wrong_record)

BOOK = {1: "Standard Price Book", 2: "Partner Price Book"}


def _catalogue(w: World) -> dict[int, dict[str, dict]]:
    """Price book id -> product name -> {entry, product, price}: active entries of active products."""
    products = {p["id"]: p for p in w.table("products") if p["is_active"]}
    out: dict[int, dict[str, dict]] = {}
    for e in w.table("price_book_entries"):
        p = products.get(e["product_id"])
        if p and e["is_active"]:
            out.setdefault(e["price_book_id"], {})[p["name"]] = {"entry": e["id"], "product": p["id"], "price": e["unit_price"]}
    return out


def _steps_add(opp_name: str, book: str, product: str, qty: int, price: int | None, choose_book: bool = True) -> list[dict]:
    """Add Products on the opportunity's page: the price book (first time), tick the product, Next, then its
    quantity (and sales price when one is given) and Save."""
    steps = open_record(opp_name) + [button("Add Products")]
    if choose_book:
        steps += pick("Price Book", book) + [save_modal()]
    steps += [{"click": {"role": "checkbox", "name": f"Select {product}", "exact": True}}, button("Next", within=DIALOG),
              fill(f"Quantity for {product}", str(qty))]
    if price is not None:
        steps.append(fill(f"Sales Price for {product}", str(price)))
    return steps + [save_modal()]


@template("crm", "opp-add-products", difficulty="medium", max_steps=30)
def opp_add_products(w: World, rng: random.Random):
    """Add a product to an opportunity with Add Products: price book, quantity, a negotiated sales price."""
    crm = Crm(w)
    cat = _catalogue(w)
    names = sorted(cat[1], key=len, reverse=True)
    cands = []
    for o in crm.opps:
        if not crm.is_open(o) or not crm.unique(o["name"]) or len(o["name"]) > 60:
            continue
        product = next((n for n in names if n in o["name"]), None)
        if product and product in cat[2]:  # in both books, so the other book is a real mistake
            cands.append((o, product))
    order = rng.sample(cands, len(cands))
    for o, product in order:
        book_id = rng.choice([1, 1, 2])
        book, other_book = BOOK[book_id], BOOK[3 - book_id]
        entry = cat[book_id][product]
        qty = rng.choice([2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 40, 50])
        discount = rng.choice([5, 10, 12, 15, 20])
        price = int(round(entry["price"] * (100 - discount) / 100 / 5) * 5)
        other, other_product = neighbour(order, (o, product), lambda x: x[0]["account_id"] != o["account_id"])
        second = next(n for n in sorted(cat[book_id]) if n != product)
        gold = _steps_add(o["name"], book, product, qty, price) + [done()]
        yield {
            "goal": (f"Add {qty} units of {product} from the {book} to the opportunity \u201c{o['name']}\u201d, at the "
                     f"negotiated sales price of {money(price)} per unit."),
            "start_path": "/lightning/page/home",
            "verify": {
                "checks": [
                    {"table": "opportunity_line_items", "in": "created", "where": {"opportunity_id": o["id"]}, "count": 1,
                     "expect": {"product_id": entry["product"], "price_book_entry_id": entry["entry"], "quantity": qty,
                                "unit_price": price, "list_price": entry["price"], "total_price": qty * price}},
                    {"table": "opportunities", "where": {"id": o["id"]}, "expect": {"price_book_id": book_id, "amount": qty * price}},
                ],
                "unchanged_except": [allow_create("opportunity_line_items", {"opportunity_id": o["id"]}),
                                     allow_update("opportunities", {"id": o["id"]}, ["price_book_id", "amount"])],
            },
            "solution": gold,
            "near_misses": [
                _steps_add(o["name"], book, product, qty, None) + [done()],  # left at the list price
                _steps_add(o["name"], other_book, product, qty, price) + [done()],  # the other price book
                _steps_add(o["name"], book, product, qty + 1, price) + [done()],  # the wrong quantity
            ],
            "adversarial": [
                extra(gold, [button("Add Products"), {"click": {"role": "checkbox", "name": f"Select {second}", "exact": True}},
                             button("Next", within=DIALOG), fill(f"Quantity for {second}", "1"), save_modal()],
                      f"adds one {second} as well"),
                wrong_record(_steps_add(other["name"], book, product, qty, price) + [done()],
                             f"adds the products to \u201c{other['name']}\u201d instead"),
            ],
            "tools": tools(
                [find("Opportunity", o["name"]), call("list_price_books"),
                 call("choose_price_book", opportunity_id=o["id"], price_book_id=book_id),
                 call("list_products", opportunity_id=o["id"], search=product),
                 call("add_products", opportunity_id=o["id"], products=[{"price_book_entry_id": entry["entry"], "quantity": qty,
                                                                         "sales_price": price}]), finish()],
                [find("Opportunity", o["name"]), call("choose_price_book", opportunity_id=o["id"], price_book_id=book_id),
                 call("add_products", opportunity_id=o["id"], products=[{"price_book_entry_id": entry["entry"], "quantity": qty}]),
                 finish()],
                [find("Opportunity", o["name"]), call("choose_price_book", opportunity_id=o["id"], price_book_id=3 - book_id),
                 call("add_products", opportunity_id=o["id"], products=[{"price_book_entry_id": cat[3 - book_id][product]["entry"],
                                                                         "quantity": qty, "sales_price": price}]), finish()],
            ),
        }
