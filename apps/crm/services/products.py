"""Products on opportunities (Salesforce's Pricebook2 / PricebookEntry / OpportunityLineItem): choosing the
opportunity's price book, Add Products (pick entries, then quantity and sales price), editing and deleting a
line item. Whenever an opportunity's line items change, `sync_amount` makes its Amount their total; while it
has line items the Amount can't be typed (`check_amount_edit`, called by the Edit save)."""

from __future__ import annotations

import datetime as dt
from typing import Any, Iterable, Mapping

from sqlalchemy import func, select

from apps._shared import db, inputs, now
from apps.crm import models as m
from apps.crm import records as R
from apps.crm.services import ServiceError, record

MAX_QUANTITY = 1_000_000
MAX_PRICE = 100_000_000  # dollars per unit: far beyond any catalogue price, far inside SQLite's integers


# ------------------------------------------------------------------------------ reading
def price_books() -> list[m.PriceBook]:
    """The active price books, the standard one first (the Choose Price Book picklist)."""
    return list(db().scalars(select(m.PriceBook).where(m.PriceBook.is_active.is_(True))
                             .order_by(m.PriceBook.is_standard.desc(), m.PriceBook.name)))


def price_book(pbid) -> m.PriceBook:
    pb = db().get(m.PriceBook, pbid) if isinstance(pbid, int) and not isinstance(pbid, bool) else None
    if pb is None or not pb.is_active:
        names = ", ".join(f"{p.name} (id {p.id})" for p in price_books())
        raise ServiceError(f"there is no active price book with id {pbid}; choose one of: {names}",
                           {"price_book_id": "Select a price book."}, status=404 if pb is None else 400)
    return pb


def entries(pbid: int, search: str = "") -> list[tuple[m.PriceBookEntry, m.Product]]:
    """A price book's active entries of active products, by product name (the Add Products table)."""
    q = (select(m.PriceBookEntry, m.Product).join(m.Product, m.Product.id == m.PriceBookEntry.product_id)
         .where(m.PriceBookEntry.price_book_id == pbid, m.PriceBookEntry.is_active.is_(True), m.Product.is_active.is_(True))
         .order_by(m.Product.name))
    s = search.strip().lower()
    rows = [(e, p) for e, p in db().execute(q).all()]
    if s:
        rows = [(e, p) for e, p in rows if s in p.name.lower() or s in p.product_code.lower() or s in p.family.lower()]
    return rows


def line_items(opp_id: int) -> list[tuple[m.OpportunityLineItem, m.Product]]:
    q = (select(m.OpportunityLineItem, m.Product).join(m.Product, m.Product.id == m.OpportunityLineItem.product_id)
         .where(m.OpportunityLineItem.opportunity_id == opp_id).order_by(m.OpportunityLineItem.id))
    return [(li, p) for li, p in db().execute(q).all()]


def line_item_dict(li: m.OpportunityLineItem, p: m.Product) -> dict[str, Any]:
    return {"id": li.id, "product_id": p.id, "product": p.name, "product_code": p.product_code, "quantity": li.quantity,
            "list_price": li.list_price, "sales_price": li.unit_price, "total_price": li.total_price,
            "service_date": li.service_date.isoformat() if li.service_date else None, "description": li.description}


def catalogue(opp_id: int, search: str = "") -> dict[str, Any]:
    """What Add Products shows for an opportunity: its price book (or the books to choose from) and the entries."""
    opp = record("Opportunity", opp_id)
    out: dict[str, Any] = {"opportunity_id": opp.id, "price_book_id": opp.price_book_id,
                           "price_books": [{"id": p.id, "name": p.name, "is_standard": p.is_standard} for p in price_books()]}
    if opp.price_book_id:
        out["products"] = [{"price_book_entry_id": e.id, "product_id": p.id, "name": p.name, "product_code": p.product_code,
                            "family": p.family, "list_price": e.unit_price} for e, p in entries(opp.price_book_id, search)]
    else:
        out["note"] = "choose the opportunity's price book first (choose_price_book)"
    return out


# ------------------------------------------------------------------------------ the amount
def sync_amount(opp: m.Opportunity) -> None:
    """The one place an opportunity's Amount follows its products: the sum of its line items' totals."""
    db().flush()
    total = db().scalar(select(func.coalesce(func.sum(m.OpportunityLineItem.total_price), 0))
                        .where(m.OpportunityLineItem.opportunity_id == opp.id))
    if opp.amount != total:
        opp.amount = int(total)
        R.touch(opp)


# ------------------------------------------------------------------------------ writing
def choose_price_book(opp_id: int, pbid) -> m.PriceBook:
    """Choose Price Book. Refused while the opportunity has products from another book."""
    opp = record("Opportunity", opp_id)
    pb = price_book(pbid)
    if opp.price_book_id != pb.id and R.has_products(opp.id):
        raise ServiceError("Choose Price Book: this opportunity already has products from another price book; "
                           "delete them first.", {"price_book_id": "Delete the opportunity's products first."})
    if opp.price_book_id != pb.id:
        opp.price_book_id = pb.id
        R.touch(opp)
    return pb


def _quantity(v, label: str) -> int:
    n = v if isinstance(v, (int, float)) and not isinstance(v, bool) else inputs.number(v) if isinstance(v, str) else None
    if n is None or n != int(n) or not 1 <= n <= MAX_QUANTITY:
        raise ValueError(f"{label}: enter a whole number from 1 to {MAX_QUANTITY:,}.")
    return int(n)


def _price(v, label: str) -> int:
    n = v if isinstance(v, (int, float)) and not isinstance(v, bool) else inputs.number(v) if isinstance(v, str) else None
    if n is None or n != int(n) or not 0 <= n <= MAX_PRICE:
        raise ValueError(f"{label}: enter an amount in whole dollars from 0 to {MAX_PRICE:,}.")
    return int(n)


def _date(v, label: str) -> dt.date | None:
    if v in (None, ""):
        return None
    if isinstance(v, dt.date):
        return v
    try:
        return R.parse_date(str(v))
    except ValueError:
        raise ValueError(f"{label}: enter a date as M/D/YYYY.") from None


def add_products(opp_id: int, items: Iterable[Mapping[str, Any]]) -> list[m.OpportunityLineItem]:
    """Add Products' Save: each item is {"price_book_entry_id", "quantity", "sales_price" (omitted or "" = the
    list price), "service_date", "description"}. Every entry must be an active one of the opportunity's price book."""
    opp = record("Opportunity", opp_id)
    items = list(items)
    if opp.price_book_id is None:
        raise ServiceError("Add Products: choose the opportunity's price book first.", {"price_book_id": "Select a price book."})
    if not items:
        raise ServiceError("Add Products: select at least one product.", {"products": "Select at least one product."})
    valid = {e.id: (e, p) for e, p in entries(opp.price_book_id)}
    errors: dict[str, str] = {}
    parsed = []
    for k, it in enumerate(items):
        eid = it.get("price_book_entry_id")
        if not isinstance(eid, int) or isinstance(eid, bool) or eid not in valid:
            pb = db().get(m.PriceBook, opp.price_book_id)
            errors[f"entry_{k}"] = (f"price book entry {eid!r} is not an active product of {pb.name if pb else 'this price book'} "
                                    "(see list_products)")
            continue
        e, p = valid[eid]
        try:
            qty = _quantity(it.get("quantity"), f"Quantity ({p.name})")
            raw = it.get("sales_price")
            price = e.unit_price if raw in (None, "") else _price(raw, f"Sales Price ({p.name})")
            when = _date(it.get("service_date"), f"Date ({p.name})")
        except ValueError as err:
            errors[f"entry_{eid}"] = str(err)
            continue
        desc = str(it.get("description") or "").strip()
        if len(desc) > 255:
            errors[f"entry_{eid}"] = f"Line Description ({p.name}): at most 255 characters."
            continue
        parsed.append((e, p, qty, price, when, desc))
    if errors:
        raise ServiceError("Add Products: We hit a snag. " + "; ".join(errors.values()), errors)
    out = []
    nid = R.next_id(m.OpportunityLineItem)
    for e, p, qty, price, when, desc in parsed:
        li = m.OpportunityLineItem(id=nid, opportunity_id=opp.id, price_book_entry_id=e.id, product_id=p.id, quantity=qty,
                                   list_price=e.unit_price, unit_price=price, total_price=qty * price, service_date=when,
                                   description=desc, created_at=now())
        db().add(li)
        out.append(li)
        nid += 1
    sync_amount(opp)
    return out


def line_item(lid) -> m.OpportunityLineItem:
    li = db().get(m.OpportunityLineItem, lid) if isinstance(lid, int) and not isinstance(lid, bool) else None
    if li is None:
        raise ServiceError(f"there is no opportunity product with id {lid} (an opportunity's products are in get_record)",
                           status=404)
    return li


def update_line_item(lid: int, quantity=None, sales_price=None, service_date=..., description=None) -> m.OpportunityLineItem:
    """Edit an opportunity product: quantity, sales price, date, line description (omitted = unchanged)."""
    li = line_item(lid)
    try:
        qty = li.quantity if quantity in (None, "") else _quantity(quantity, "Quantity")
        price = li.unit_price if sales_price in (None, "") else _price(sales_price, "Sales Price")
        when = li.service_date if service_date is ... else _date(service_date, "Date")
    except ValueError as err:
        field = str(err).split(":")[0].lower().replace(" ", "_")
        raise ServiceError(f"Edit product: {err}", {field: str(err).split(": ", 1)[1]}) from None
    desc = li.description if description is None else str(description).strip()
    if len(desc) > 255:
        raise ServiceError("Edit product: Line Description: at most 255 characters.", {"description": "At most 255 characters."})
    li.quantity, li.unit_price, li.service_date, li.description = qty, price, when, desc
    li.total_price = qty * price
    sync_amount(record("Opportunity", li.opportunity_id))
    return li


def delete_line_item(lid: int) -> str:
    li = line_item(lid)
    p = db().get(m.Product, li.product_id)
    opp = record("Opportunity", li.opportunity_id)
    db().delete(li)
    sync_amount(opp)
    return p.name if p else "Product"

