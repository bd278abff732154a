"""No input makes a clone answer 5xx (issue 15): every route of the three apps, fuzzed with hypothesis.

Each route gets a fresh seed-0 world, plain probes, then derandomized examples (fixed, so the default suite
is deterministic): adversarial path values, the keys the route reads, each with adversarial or real values,
as a query string, a form, a JSON body of any shape or a malformed body. A 5xx or an exception fails the
test with the request that caused it. UIGYM_FUZZ_EXAMPLES raises the examples per route for a longer hunt.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from apps.crm import create_app as crm_app
from apps.food import create_app as food_app
from apps.mail import create_app as mail_app
from tests.apps.route_fuzz import AppFuzz, routes

CREATE = {"mail": mail_app, "food": food_app, "crm": crm_app}


def _food_cart(client) -> None:
    """A cart with an open store's item: checkout's routes return early without one."""
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from apps.food.models import MenuItem, Store
    from domain import food as logic

    app = client.application
    with Session(app.extensions["uigym_worlds"].engine("fuzz-food")) as s:
        now = app.extensions["uigym_worlds"].now("fuzz-food")
        store = next(x for x in s.scalars(select(Store).order_by(Store.id)) if logic.is_open(x, now))
        item = next(i for i in s.scalars(select(MenuItem).where(MenuItem.store_id == store.id)) if not i.group_ids)
    assert client.post("/api/cart/add", json={"item_id": item.id, "quantity": 2}).json["ok"]


SETUP = {"food": (_food_cart, ["/checkout"]), "mail": (None, []), "crm": (None, [])}
EXAMPLES = int(os.environ.get("UIGYM_FUZZ_EXAMPLES", "12"))
ROUTES = [r for name, create in CREATE.items() for r in routes(name, create({"TESTING": True}))]


@pytest.fixture(scope="module")
def fuzzers(tmp_path_factory):
    home = str(tmp_path_factory.mktemp("fuzz"))
    made: dict[str, AppFuzz] = {}

    def get(name: str) -> AppFuzz:
        if name not in made:
            made[name] = AppFuzz(name, CREATE[name], home, *SETUP[name])
        return made[name]

    return get


@pytest.mark.parametrize("route", ROUTES, ids=lambda r: f"{r.app}:{r.rule}")
def test_no_server_error(fuzzers, route):
    fz = fuzzers(route.app)
    fz.reset()
    fz.probe(route)
    keys = fz.keys(route)

    @settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None, print_blob=False,
              phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))
    @given(st.data())
    def fuzz(data):
        fz.example(route, keys, data)

    fuzz()
