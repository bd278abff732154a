"""Products on opportunities: the seeded catalogue, Lightning's Add Products flow through the Flask app
(Choose Price Book, pick, Edit Selected Products, Save), the Amount that follows the line items, editing and
deleting a line item, and bad input (a clear 4xx or a form error, nothing written)."""

from __future__ import annotations

from sqlalchemy import func, select

from apps.crm import models as m
from apps.crm.tools import TOOLS

from .conftest import fresh

OPP = 2  # seed 0: an open opportunity with no price book and no products


def _count(dbs, model, *where) -> int:
    dbs.expire_all()
    return dbs.scalar(select(func.count()).select_from(model).where(*where))


def _entry(dbs, book: int, product: str) -> m.PriceBookEntry:
    return dbs.scalars(select(m.PriceBookEntry).join(m.Product, m.Product.id == m.PriceBookEntry.product_id)
                       .where(m.PriceBookEntry.price_book_id == book, m.Product.name == product)).one()


def test_seeded_catalogue(dbs):
    books = {b.name: b for b in dbs.scalars(select(m.PriceBook))}
    assert books["Standard Price Book"].is_standard and not books["Partner Price Book"].is_standard
    assert _entry(dbs, 1, "Analytics Cloud").unit_price == 1500 and _entry(dbs, 2, "Analytics Cloud").unit_price == 1275
    # No seeded opportunity has products (their amounts are typed), so none has a price book yet.
    assert _count(dbs, m.OpportunityLineItem) == 0
    assert _count(dbs, m.Opportunity, m.Opportunity.price_book_id.is_not(None)) == 0


def test_add_products_flow_builds_the_amount(client, dbs):
    base = f"/lightning/r/Opportunity/{OPP}/products"
    r = client.get(f"{base}/add")
    assert r.status_code == 200 and b"Choose Price Book" in r.data and b"Partner Price Book" in r.data
    r = client.post(f"{base}/pricebook", data={"price_book_id": "1"})
    assert r.status_code == 303 and r.headers["Location"].endswith(f"{base}/add")
    assert fresh(dbs, m.Opportunity, OPP).price_book_id == 1
    r = client.get(f"{base}/add")
    assert b"Add Products" in r.data and b"Select Analytics Cloud" in r.data and b"Legacy Connector" not in r.data  # inactive
    ac, ih = _entry(dbs, 1, "Analytics Cloud"), _entry(dbs, 1, "Integration Hub")
    r = client.get(f"{base}/edit?entry={ac.id}&entry={ih.id}")
    assert b"Edit Selected Products" in r.data and b"Quantity for Integration Hub" in r.data
    r = client.post(f"{base}/save", data={"entry": [str(ac.id), str(ih.id)], f"quantity-{ac.id}": "10",
                                          f"price-{ac.id}": "$1,400.00", f"quantity-{ih.id}": "2", f"price-{ih.id}": "$2,400.00"})
    assert r.status_code == 303
    opp = fresh(dbs, m.Opportunity, OPP)
    assert opp.amount == 10 * 1400 + 2 * 2400
    page = client.get(f"/lightning/r/Opportunity/{OPP}/view").data
    assert b"Products (2)" in page and b"Add Products" in page
    # The Amount is calculated now: an Edit (or inline edit) can't change it...
    r = client.post(f"/lightning/r/Opportunity/{OPP}/edit", data={"name": opp.name, "amount": "5"})
    assert r.status_code == 200 and b"Edit the products instead" in r.data and fresh(dbs, m.Opportunity, OPP).amount == 18800
    # ...while editing and deleting a line item moves it.
    li = dbs.scalars(select(m.OpportunityLineItem).where(m.OpportunityLineItem.product_id == ac.product_id)).one()
    r = client.post(f"/lightning/r/OpportunityLineItem/{li.id}/edit", data={"quantity": "5", "sales_price": "1400"})
    assert r.status_code == 303 and fresh(dbs, m.Opportunity, OPP).amount == 5 * 1400 + 4800
    r = client.post(f"/lightning/r/OpportunityLineItem/{li.id}/delete")
    assert r.status_code == 303 and fresh(dbs, m.Opportunity, OPP).amount == 4800
    # Another book can't be chosen while products from this one are on the opportunity.
    r = client.post(f"{base}/pricebook", data={"price_book_id": "2"})
    assert b"delete the opportunity&#39;s products first" in r.data.lower() or b"products first" in r.data
    assert fresh(dbs, m.Opportunity, OPP).price_book_id == 1


def test_bad_input_is_refused_and_writes_nothing(client, dbs):
    base = f"/lightning/r/Opportunity/{OPP}/products"
    client.post(f"{base}/pricebook", data={"price_book_id": "1"})
    ac = _entry(dbs, 1, "Analytics Cloud")
    partner = _entry(dbs, 2, "Integration Hub")
    for data in ({"entry": str(ac.id), f"quantity-{ac.id}": "0"}, {"entry": str(ac.id), f"quantity-{ac.id}": "1.5"},
                 {"entry": str(ac.id), f"quantity-{ac.id}": "3", f"price-{ac.id}": "lots"},
                 {"entry": str(partner.id), f"quantity-{partner.id}": "1"}, {}):
        r = client.post(f"{base}/save", data=data)
        assert r.status_code == 200 and b"snag" in r.data.lower(), data
    assert _count(dbs, m.OpportunityLineItem) == 0 and fresh(dbs, m.Opportunity, OPP).amount != 0
    assert client.post(f"{base}/save", data={"entry": "x"}).status_code == 400
    assert client.get(f"{base}/edit?entry=abc").status_code == 400
    assert client.get("/lightning/r/Opportunity/987654/products/add").status_code == 404
    assert client.get("/lightning/r/OpportunityLineItem/987654/edit").status_code == 404
    r = client.post(f"{base}/pricebook", data={"price_book_id": "99"})
    assert r.status_code == 200 and b"Select a price book." in r.data


def test_tools(app, dbs):
    def call(tool, **args):
        return TOOLS.call(app, app.config["TEST_WORLD"], tool, args)

    assert [b["name"] for b in call("list_price_books")][0] == "Standard Price Book"
    assert "note" in call("list_products", opportunity_id=OPP)
    call("choose_price_book", opportunity_id=OPP, price_book_id=2)
    cat = call("list_products", opportunity_id=OPP, search="hub")
    assert [p["name"] for p in cat["products"]] == ["Integration Hub"] and cat["products"][0]["list_price"] == 2040
    r = call("add_products", opportunity_id=OPP, products=[{"price_book_entry_id": cat["products"][0]["price_book_entry_id"], "quantity": 3}])
    assert r["amount"] == 3 * 2040 and r["added"][0]["sales_price"] == 2040
    lid = r["added"][0]["id"]
    rec = call("get_record", object="Opportunity", record_id=OPP)
    assert rec["related"]["products"]["records"][0]["id"] == lid
    assert call("update_opportunity_product", line_item_id=lid, sales_price=2000)["opportunity_amount"] == 6000
    assert call("delete_opportunity_product", line_item_id=lid)["opportunity_amount"] == 0
    assert fresh(dbs, m.Opportunity, OPP).amount == 0
