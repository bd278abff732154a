"""apps/_shared/actions.py `perform(..., keep_refused=True)`: a refused call (one `errors` maps) commits what was
written before the refusal and answers its reply; an error no entry maps still rolls everything back. Forkful's
Place Order relies on it: a refused order keeps the checkout choices the form carried."""

from __future__ import annotations

from flask import g, jsonify
from hypothesis import HealthCheck, given, settings, strategies as st
from werkzeug.exceptions import HTTPException

from apps._shared.actions import perform
from apps.food.models import Cart, MenuItem, OptionGroup, Order, User
from apps.food.services import Invalid
from apps.food.services.state import user


def outcome(app, world, call) -> object:
    """What `perform(call, keep_refused=True)` did: its result, the refusal's status, or the error that got out."""
    with app.test_request_context("/"):
        g.uigym_world = world
        try:
            return perform(call, errors={Invalid: lambda e: (jsonify(ok=False, error=str(e)), 409)}, keep_refused=True)
        except HTTPException as e:
            return e.get_response().status_code
        except KeyError:
            return "KeyError"


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.text(min_size=1, max_size=20), refuse=st.sampled_from([None, Invalid, KeyError]))
def test_a_refusal_keeps_what_was_written_an_unmapped_error_does_not(app, world, db, name, refuse):
    before = db.get(User, 1).first_name

    def rename():
        user().first_name = name
        if refuse is not None:
            raise refuse("no")
        return "renamed"

    assert outcome(app, world, rename) == {None: "renamed", Invalid: 409, KeyError: "KeyError"}[refuse]
    assert db.get(User, 1).first_name == (before if refuse is KeyError else name)


def test_a_refused_order_keeps_the_tip_the_form_chose(client, db):
    """Place Order with a mistyped custom tip: the page says why (no order is placed), and the tip it reset stays."""
    required = {grp.id for grp in db.all(OptionGroup) if grp.min_select >= 1}
    item = next(i for i in db.all(MenuItem) if not set(i.group_ids or []) & required)
    assert client.post("/api/cart/add", json={"item_id": item.id, "quantity": 2, "replace": True}).get_json()["ok"]
    assert client.post("/checkout/update", json={"tip": "20"}).status_code == 200
    assert db.one(Cart).tip_percent == 20
    orders = len(db.all(Order))
    r = client.post("/checkout/place", data={"tip": "other", "tip_custom": "x1"})
    assert r.status_code == 200 and "Enter a tip amount like 5 or 5.50." in r.get_data(as_text=True)
    assert db.one(Cart).tip_percent is None and len(db.all(Order)) == orders
