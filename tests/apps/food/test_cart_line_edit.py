"""A cart line opened from the drawer (issue 17): its dialog comes prefilled, Update cart saves options, note and
quantity repriced by the one pricing rule; a bad choice is the dialog's message and changes nothing."""

from __future__ import annotations

from domain import food as logic
from apps.food.models import CartItem, MenuItem, Option, OptionGroup


def _pizza(db):
    """A Pepperoni Pizza (required Size and Crust) and its options by name."""
    it = next(i for i in db.all(MenuItem) if i.name == "Pepperoni Pizza")
    groups = {g.id: g.name for g in db.all(OptionGroup, OptionGroup.id.in_(it.group_ids))}
    opts = {(groups[o.group_id], o.name): o for o in db.all(Option, Option.group_id.in_(it.group_ids))}
    return it, opts


def test_line_dialog_prefilled_and_saved(client, db):
    it, opts = _pizza(db)
    med, hand, large, thin = (opts[("Size", "Medium")], opts[("Crust", "Hand-tossed")], opts[("Size", "Large")],
                              opts[("Crust", "Thin crust")])
    assert client.post("/api/cart/add", json={"item_id": it.id, "option_ids": [med.id, hand.id], "replace": True}).json["ok"]
    ci = db.one(CartItem)
    drawer = client.get("/cart/drawer").get_data(as_text=True)
    assert f'data-ci-edit="{ci.id}"' in drawer and "Edit Pepperoni Pizza (Medium, Hand-tossed)" in drawer
    html = client.get(f"/cart/item/{ci.id}/edit").get_data(as_text=True)
    assert f'value="{med.id}" data-price="{med.price_cents}" aria-label="Medium" checked' in html
    assert f'aria-label="Large" checked' not in html and "Update cart" in html and "Remove from cart" in html
    r = client.post(f"/api/cart/item/{ci.id}/edit", json={"option_ids": [large.id, thin.id], "instructions": "Cut in half",
                                                          "quantity": 2})
    assert r.json["ok"] and r.json["count"] == 2 and "Cut in half" in r.json["drawer"]
    row = db.one(CartItem)
    assert (row.id, row.option_ids, row.quantity, row.instructions) == (ci.id, sorted([large.id, thin.id]), 2, "Cut in half")
    assert row.unit_price_cents == logic.item_unit_price(it, [large, thin])
    assert row.options_text == "Large, Thin crust"
    html = client.get(f"/cart/item/{ci.id}/edit").get_data(as_text=True)
    assert ">Cut in half</textarea>" in html and 'data-qty0="2"' in html
    assert client.post(f"/api/cart/item/{ci.id}/edit", json={"quantity": 3}).json["ok"]  # the rest kept
    row = db.one(CartItem)
    assert (row.option_ids, row.quantity, row.instructions) == (sorted([large.id, thin.id]), 3, "Cut in half")


def test_line_dialog_refusals(client, db):
    it, opts = _pizza(db)
    med, hand = opts[("Size", "Medium")], opts[("Crust", "Hand-tossed")]
    client.post("/api/cart/add", json={"item_id": it.id, "option_ids": [med.id, hand.id], "replace": True})
    ci = db.one(CartItem)
    before = (ci.option_ids, ci.quantity, ci.unit_price_cents)
    r = client.post(f"/api/cart/item/{ci.id}/edit", json={"option_ids": [med.id]})
    assert r.json["ok"] is False and "Crust" in r.json["error"]
    r = client.post(f"/api/cart/item/{ci.id}/edit", json={"option_ids": [med.id, hand.id], "quantity": 0})
    assert r.json["ok"] is False and "Quantity" in r.json["error"]
    assert client.post(f"/api/cart/item/{ci.id}/edit", json={"option_ids": "large"}).status_code == 400
    assert client.post(f"/api/cart/item/{ci.id}/edit", json={"quantity": "two"}).status_code == 400
    assert client.post("/api/cart/item/987654/edit", json={"quantity": 1}).status_code == 404
    assert client.get("/cart/item/987654/edit").status_code == 404
    row = db.one(CartItem)
    assert (row.option_ids, row.quantity, row.unit_price_cents) == before
