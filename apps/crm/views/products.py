"""Products on an opportunity, as Lightning's flow: Add Products asks for the price book when the opportunity has
none (Choose Price Book), then lists the book's products to pick (a GET: nothing changes yet), then Edit
Selected Products takes each one's quantity and sales price and saves. A line item's own modal edits or
deletes it. The rules (and the Amount that follows the products) are services/products.py's."""

from __future__ import annotations

from urllib.parse import urlencode

from flask import abort, render_template, request

from apps._shared import db, inputs
from apps._shared.actions import perform
from apps._shared.i18n import gettext
from apps.crm import records as R
from apps.crm.services import ServiceError
from apps.crm.services import products as svc
from apps.crm.views.base import bp, done
from apps.crm.views.records import modal_response
from apps.crm.views.refusals import modal


def _base(rid: int) -> str:
    return f"/lightning/r/Opportunity/{rid}/products"


def _chosen_ids() -> list[int]:
    out = []
    for raw in request.values.getlist("entry"):
        n = inputs.id_text(raw)
        if n is None:
            abort(400, description="'entry' must be price book entry ids.")
        if n not in out:
            out.append(n)
    return out


def _pricebook_modal(opp, errors: dict, value: str = "") -> str:
    books = svc.price_books()
    return render_template("crm/modal_pricebook.html", action=f"{_base(opp.id)}/pricebook", errors=errors,
                           options=[str(b.id) for b in books], labels={str(b.id): b.name for b in books},
                           value=value or str(opp.price_book_id or ""))


@bp.route("/lightning/r/Opportunity/<int:rid>/products/pricebook", methods=["GET", "POST"])
def products_pricebook(rid: int):
    opp = R.get_record("Opportunity", rid)
    if request.method == "GET":
        return modal_response(_pricebook_modal(opp, {}), "Opportunity", rid)
    raw = request.form.get("price_book_id", "")
    perform(svc.choose_price_book, rid, inputs.id_text(raw), errors=modal(lambda e: _pricebook_modal(opp, e.errors, raw)))
    # Lightning goes straight on to Add Products once the book is chosen.
    return done(f"{_base(rid)}/add")


@bp.get("/lightning/r/Opportunity/<int:rid>/products/add")
def products_add(rid: int):
    opp = R.get_record("Opportunity", rid)
    if opp.price_book_id is None:
        return modal_response(_pricebook_modal(opp, {}), "Opportunity", rid)
    pb = svc.price_book(opp.price_book_id)
    html = render_template("crm/modal_products_add.html", action=f"{_base(rid)}/edit", pb=pb, rows=svc.entries(pb.id),
                           chosen=_chosen_ids(), error=request.args.get("error", ""))
    return modal_response(html, "Opportunity", rid)


def _edit_modal(opp, ids: list[int], errors: dict, values: dict) -> str:
    valid = {e.id: (e, p) for e, p in svc.entries(opp.price_book_id)}
    rows = [valid[i] for i in ids if i in valid]
    labels = {f"entry_{e.id}": p.name for e, p in rows}
    back = f"{_base(opp.id)}/add?" + urlencode([("entry", i) for i in ids])
    return render_template("crm/modal_products_edit.html", action=f"{_base(opp.id)}/save", rows=rows, errors=errors,
                           values=values, labels=labels, back=back)


@bp.get("/lightning/r/Opportunity/<int:rid>/products/edit")
def products_edit(rid: int):
    opp = R.get_record("Opportunity", rid)
    if opp.price_book_id is None:
        return modal_response(_pricebook_modal(opp, {}), "Opportunity", rid)
    ids = _chosen_ids()
    valid = {e.id for e, _ in svc.entries(opp.price_book_id)}
    if not [i for i in ids if i in valid]:
        # As Lightning: Next with nothing selected stays on the list and says so.
        pb = svc.price_book(opp.price_book_id)
        html = render_template("crm/modal_products_add.html", action=f"{_base(rid)}/edit", pb=pb, rows=svc.entries(pb.id),
                               chosen=[], error=gettext("Select at least one product."))
        return modal_response(html, "Opportunity", rid)
    return modal_response(_edit_modal(opp, ids, {}, {}), "Opportunity", rid)


@bp.post("/lightning/r/Opportunity/<int:rid>/products/save")
def products_save(rid: int):
    opp = R.get_record("Opportunity", rid)
    ids = _chosen_ids()
    f = request.form
    items, values = [], {}
    for i in ids:
        v = {"quantity": f.get(f"quantity-{i}", ""), "sales_price": f.get(f"price-{i}", ""),
             "service_date": f.get(f"date-{i}", ""), "description": f.get(f"description-{i}", "")}
        values[i] = v
        items.append({"price_book_entry_id": i, **v})
    added = perform(svc.add_products, rid, items, errors=modal(lambda e: (
        _pricebook_modal(opp, e.errors) if opp.price_book_id is None else _edit_modal(opp, ids, e.errors, values))))
    n = len(added)
    return done(f"/lightning/r/Opportunity/{rid}/view", toast=f"{n} product{'s' if n != 1 else ''} added to the opportunity.")


# ------------------------------------------------------------------------------ one line item
def _line_item_or_404(lid: int):
    try:
        return svc.line_item(lid)
    except ServiceError:
        abort(404)


@bp.route("/lightning/r/OpportunityLineItem/<int:lid>/edit", methods=["GET", "POST"])
def line_item_edit(lid: int):
    li = _line_item_or_404(lid)
    product = db().get(svc.m.Product, li.product_id)
    action = f"/lightning/r/OpportunityLineItem/{lid}/edit"
    delete_url = f"/lightning/r/OpportunityLineItem/{lid}/delete"

    def line_modal(errors: dict, v: dict) -> str:
        return render_template("crm/modal_line_item.html", li=li, product=product, action=action, delete_url=delete_url,
                               errors=errors, v=v)

    if request.method == "GET":
        v = {"quantity": li.quantity, "sales_price": R.fmt_money(li.unit_price), "service_date": R.fmt_date(li.service_date),
             "description": li.description}
        return modal_response(line_modal({}, v), "Opportunity", li.opportunity_id)
    v = {k: request.form.get(k, "") for k in ("quantity", "sales_price", "service_date", "description")}
    perform(svc.update_line_item, lid, v["quantity"] or "0", v["sales_price"] or "-1", v["service_date"], v["description"],
            errors=modal(lambda e: line_modal(e.errors, v)))
    return done(None, toast=f"{product.name if product else 'Product'} was saved.")


@bp.route("/lightning/r/OpportunityLineItem/<int:lid>/delete", methods=["GET", "POST"])
def line_item_delete(lid: int):
    li = _line_item_or_404(lid)
    if request.method == "GET":
        return modal_response(render_template("crm/modal_confirm.html", title="Delete Opportunity Product",
                                              message=gettext("Are you sure you want to delete this opportunity product?"),
                                              action=f"/lightning/r/OpportunityLineItem/{lid}/delete", button="Delete"),
                              "Opportunity", li.opportunity_id)
    name = perform(svc.delete_line_item, lid)
    return done(f"/lightning/r/Opportunity/{li.opportunity_id}/view", toast=gettext("Opportunity Product \"%(name)s\" was deleted.", name=name))
