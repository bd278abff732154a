"""Products on opportunities (apps/crm/services/products.py): Add Products from a price book, with quantity and
sales price; the opportunity's Amount becomes the line items' total."""

from __future__ import annotations

import random

from tasks.templates import World, template
from tasks.templates.harmless import harmless
from tasks.templates.crm._common import (
    DIALOG, Crm, allow_create, allow_update, button, call, done, extra, fill, find, finish, money, neighbour, open_record,
    pick, reread, save_modal, tools, wrong_record)

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
            "harmless": [harmless("check_work", gold[:-1] + open_record(o["name"]) + [done()],
                                  "opens the opportunity again to see the product line and the new amount",
                                  [find("Opportunity", o["name"]), call("list_price_books"),
                                   call("choose_price_book", opportunity_id=o["id"], price_book_id=book_id),
                                   call("list_products", opportunity_id=o["id"], search=product),
                                   call("add_products", opportunity_id=o["id"],
                                        products=[{"price_book_entry_id": entry["entry"], "quantity": qty, "sales_price": price}]),
                                   reread("Opportunity", o["id"])])],
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


# ------------------------------------------------------------------ a line item's own dialog: edit, delete
LINE_ID = 9001  # fixture line items' ids (no seeded opportunity has products)


def _with_products(crm: Crm, w: World, cat: dict, rng: random.Random) -> list[tuple[dict, list[str], dict, list[str]]]:
    """Open opportunities (unique names, each with a product in its name) paired with a second opportunity of
    another account that gets the same two products: (opportunity, its two products, the other, its two)."""
    names = sorted(cat[1], key=len, reverse=True)
    cands = []
    for o in crm.opps:
        if not crm.is_open(o) or not crm.unique(o["name"]) or len(o["name"]) > 60:
            continue
        product = next((n for n in names if n in o["name"]), None)
        if product:
            cands.append((o, product))
    order = rng.sample(cands, len(cands))
    out = []
    for o, product in order:
        second = rng.choice([n for n in sorted(cat[1]) if n != product and n not in o["name"] and product not in n])
        other, _ = neighbour(order, (o, product), lambda x, acc=o["account_id"]: x[0]["account_id"] != acc)
        out.append((o, [product, second], other, [product, second]))
    return out


def _line_fixtures(crm: Crm, cat: dict, opps: list[tuple[dict, list[tuple[str, int, int]]]]) -> tuple[list[dict], dict]:
    """Fixtures giving each opportunity its line items [(product, quantity, sales price)] from the Standard Price
    Book, its Amount their total (services/products.sync_amount's rule); and {(opp id, product): line item row}."""
    rows, lines, fx = [], {}, []
    lid = LINE_ID
    for o, items in opps:
        for product, qty, price in items:
            e = cat[1][product]
            row = {"id": lid, "opportunity_id": o["id"], "price_book_entry_id": e["entry"], "product_id": e["product"],
                   "quantity": qty, "list_price": e["price"], "unit_price": price, "total_price": qty * price,
                   "service_date": None, "description": "", "created_at": crm.now.replace(hour=8, minute=0).isoformat()}
            rows.append(row)
            lines[(o["id"], product)] = row
            lid += 1
        fx.append({"op": "update", "table": "opportunities", "where": {"id": o["id"]},
                   "set": {"price_book_id": 1, "amount": sum(q * p for _, q, p in items)}})
    return [{"op": "insert", "table": "opportunity_line_items", "rows": rows}, *fx], lines


def _open_line(opp_name: str, product: str) -> list[dict]:
    """The opportunity's Products card: the product's row opens its own dialog."""
    return open_record(opp_name) + [{"click": {"role": "link", "name": product, "exact": True,
                                               "within": {"role": "article", "name": "Products"}}}]


def _edit_line(opp_name: str, product: str, field: str, value: int) -> list[dict]:
    return _open_line(opp_name, product) + [fill(field, str(value)), save_modal()]


def _delete_line(opp_name: str, product: str) -> list[dict]:
    return _open_line(opp_name, product) + [button("Delete", within=DIALOG), button("Delete", within=DIALOG)]


def _priced(cat: dict, product: str, rng: random.Random) -> tuple[int, int]:
    qty = rng.choice([2, 3, 4, 5, 6, 8, 10, 12, 20])
    return qty, int(round(cat[1][product]["price"] * rng.choice([85, 90, 95, 100]) / 100 / 5) * 5)


@template("crm", "opp-edit-product", difficulty="medium", max_steps=25)
def opp_edit_product(w: World, rng: random.Random):
    """Change a product line's quantity or sales price in its own dialog; the opportunity's Amount follows."""
    crm = Crm(w)
    cat = _catalogue(w)
    for o, (product, second), other, _ in _with_products(crm, w, cat, rng):
        (q1, p1), (q2, p2) = _priced(cat, product, rng), _priced(cat, second, rng)
        fixtures, lines = _line_fixtures(crm, cat, [(o, [(product, q1, p1), (second, q2, p2)]),
                                                    (other, [(product, q1, p1), (second, q2, p2)])])
        li, li2 = lines[(o["id"], product)], lines[(o["id"], second)]
        if rng.random() < 0.5:
            field, new = "Quantity", q1 + rng.choice([2, 3, 5, 10])
            want = {"quantity": new, "unit_price": p1, "total_price": new * p1}
            goal = (f"The customer on \u201c{o['name']}\u201d now wants {new} units of {product} instead of {q1}. "
                    f"Update that product's quantity on the opportunity.")
            args = {"quantity": new}
        else:
            field, new = "Sales Price", p1 - rng.choice([5, 10, 15]) * max(1, p1 // 500)
            want = {"quantity": q1, "unit_price": new, "total_price": q1 * new}
            goal = (f"You agreed a sales price of {money(new)} per unit for {product} on the opportunity "
                    f"\u201c{o['name']}\u201d. Update the product's sales price.")
            args = {"sales_price": new}
        amount = want["total_price"] + q2 * p2
        gold = _edit_line(o["name"], product, field, new) + [done()]
        yield {
            "goal": goal,
            "start_path": "/lightning/page/home",
            "fixtures": fixtures,
            "verify": {
                "checks": [
                    {"table": "opportunity_line_items", "where": {"id": li["id"]}, "expect": want},
                    {"table": "opportunity_line_items", "where": {"id": li2["id"]},
                     "expect": {"quantity": q2, "unit_price": p2, "total_price": q2 * p2}},
                    {"table": "opportunities", "where": {"id": o["id"]}, "expect": {"amount": amount, "price_book_id": 1}},
                ],
                "unchanged_except": [allow_update("opportunity_line_items", {"id": li["id"]}, ["quantity", "unit_price", "total_price"]),
                                     allow_update("opportunities", {"id": o["id"]}, ["amount"])],
            },
            "solution": gold,
            "near_misses": [
                _edit_line(o["name"], second, field, new) + [done()],  # the other product on the opportunity
                _edit_line(o["name"], product, field, new + (1 if field == "Quantity" else 5)) + [done()],  # the wrong value
            ],
            "harmless": [harmless("check_work", gold[:-1] + open_record(o["name"]) + [done()],
                                  "opens the opportunity again to see the product line and the amount it moved",
                                  [find("Opportunity", o["name"]), call("get_record", object="Opportunity", record_id=o["id"]),
                                   call("update_opportunity_product", line_item_id=li["id"], **args), reread("Opportunity", o["id"])])],
            "adversarial": [
                wrong_record(_edit_line(other["name"], product, field, new) + [done()],
                             f"edits {product} on \u201c{other['name']}\u201d, which has the same products"),
                extra(gold, _delete_line(o["name"], second), f"also deletes {second} from the opportunity"),
            ],
            "tools": tools(
                [find("Opportunity", o["name"]), call("get_record", object="Opportunity", record_id=o["id"]),
                 call("update_opportunity_product", line_item_id=li["id"], **args), finish()],
                [find("Opportunity", o["name"]), call("update_opportunity_product", line_item_id=li2["id"], **args), finish()],
                [find("Opportunity", other["name"]),
                 call("update_opportunity_product", line_item_id=lines[(other["id"], product)]["id"], **args), finish()],
            ),
        }


@template("crm", "opp-delete-product", difficulty="easy", max_steps=20)
def opp_delete_product(w: World, rng: random.Random):
    """Delete a product line from an opportunity; its Amount drops to the remaining lines' total."""
    crm = Crm(w)
    cat = _catalogue(w)
    for o, (product, second), other, _ in _with_products(crm, w, cat, rng):
        (q1, p1), (q2, p2) = _priced(cat, product, rng), _priced(cat, second, rng)
        fixtures, lines = _line_fixtures(crm, cat, [(o, [(product, q1, p1), (second, q2, p2)]),
                                                    (other, [(product, q1, p1), (second, q2, p2)])])
        li, li2 = lines[(o["id"], second)], lines[(o["id"], product)]
        gold = _delete_line(o["name"], second) + [done()]
        yield {
            "goal": (f"The customer dropped {second} from the deal \u201c{o['name']}\u201d. Remove that product from the "
                     f"opportunity and keep {product}."),
            "start_path": "/lightning/page/home",
            "fixtures": fixtures,
            "verify": {
                "checks": [
                    {"table": "opportunity_line_items", "where": {"id": li["id"]}, "count": 0},
                    {"table": "opportunity_line_items", "where": {"id": li2["id"]},
                     "expect": {"quantity": q1, "unit_price": p1, "total_price": q1 * p1}},
                    {"table": "opportunities", "where": {"id": o["id"]}, "expect": {"amount": q1 * p1, "price_book_id": 1}},
                ],
                "unchanged_except": [{"table": "opportunity_line_items", "ops": ["delete"], "where": {"id": li["id"]}, "max": 1},
                                     allow_update("opportunities", {"id": o["id"]}, ["amount"])],
            },
            "solution": gold,
            "near_misses": [
                _delete_line(o["name"], product) + [done()],  # the product to keep
                _edit_line(o["name"], second, "Quantity", 0) + [done()],  # a zero quantity is refused: nothing changes
            ],
            "harmless": [harmless("check_work", gold[:-1] + open_record(o["name"]) + [done()],
                                  f"opens the opportunity again to see only {product} left and the new amount",
                                  [find("Opportunity", o["name"]), call("get_record", object="Opportunity", record_id=o["id"]),
                                   call("delete_opportunity_product", line_item_id=li["id"]), reread("Opportunity", o["id"])])],
            "adversarial": [
                wrong_record(_delete_line(other["name"], second) + [done()],
                             f"deletes {second} from \u201c{other['name']}\u201d, which has the same products"),
                extra(gold, _delete_line(o["name"], product), f"deletes {product} too"),
            ],
            "tools": tools(
                [find("Opportunity", o["name"]), call("get_record", object="Opportunity", record_id=o["id"]),
                 call("delete_opportunity_product", line_item_id=li["id"]), finish()],
                [find("Opportunity", o["name"]), call("delete_opportunity_product", line_item_id=li2["id"]), finish()],
                [find("Opportunity", other["name"]),
                 call("delete_opportunity_product", line_item_id=lines[(other["id"], second)]["id"]), finish()],
            ),
        }
