"""apps/_shared/actions.py `perform`: a view's service call commits when it returns, rolls back when it raises,
and a refused call answers its mapped reply (here through Forkful's views and directly)."""

from __future__ import annotations

import pytest
from flask import g, jsonify
from hypothesis import HealthCheck, given, settings, strategies as st
from werkzeug.exceptions import HTTPException

from apps._shared.actions import perform
from apps.food.models import User
from apps.food.services import Invalid, NotFound
from apps.food.services.state import user


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.text(min_size=1, max_size=20), refuse=st.sampled_from([None, Invalid, NotFound, KeyError]))
def test_commit_on_success_rollback_and_the_mapped_reply_on_refusal(app, world, db, name, refuse):
    before = db.get(User, 1).first_name

    def rename():
        user().first_name = name
        if refuse is not None:
            raise refuse("no")
        return "done"

    with app.test_request_context("/"):
        g.uigym_world = world
        errors = {NotFound: lambda e: (jsonify(error=str(e)), 404), Invalid: lambda e: jsonify(ok=False, error=str(e))}
        if refuse is None:
            assert perform(rename, errors=errors) == "done"
        elif refuse is KeyError:  # an error no entry names propagates
            with pytest.raises(KeyError):
                perform(rename, errors=errors)
        else:
            with pytest.raises(HTTPException) as info:
                perform(rename, errors=errors)
            reply = info.value.get_response()
            assert reply.status_code == (404 if refuse is NotFound else 200)
            assert reply.get_json()["error"] == "no"
    assert db.get(User, 1).first_name == (name if refuse is None else before)


def test_refusals_through_the_views(client):
    assert client.post("/api/cards/999999/delete", json={}).status_code == 404  # the 404 page
    r = client.post("/api/address/select", json={"address_id": 999999})
    assert (r.status_code, r.get_json()) == (404, {"error": r.get_json()["error"]}) and r.get_json()["error"]
    r = client.post("/api/mode", json={"mode": "teleport"})
    assert r.status_code == 200 and r.get_json()["ok"] is False and r.get_json()["error"]
    r = client.post("/api/address", json={"street": ""})
    assert r.status_code == 200 and r.get_json()["ok"] is False and r.get_json()["errors"]
