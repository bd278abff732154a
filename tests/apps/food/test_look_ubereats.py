"""The food clone's Uber Eats-like look (`ubereats`, apps/food/look_ubereats.py; issue #37): its pages render in
its own structure and names, the default look's pages are unchanged, and its names for the surface's controls
are declared controls that its pages really show."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps._shared.session import WORLD_COOKIE, sign_world
from apps._shared.surface import Look, Surface, SurfaceError
from apps.food import SPEC
from apps.food.look_ubereats import LOOK
from apps.food.models import CartItem, MenuItem
from apps.food.surface import CONTROLS, SURFACE
from tasks.looks import steps_in_look

BRAND = SPEC.looks["ubereats"]
TASKS = Path(__file__).resolve().parents[3] / "tasks" / "food"
# The pages every template starts from or passes through (images and JSON left out: they have no look).
PAGES = ["/", "/?sort=distance&fast=1", "/search?q=ramen", "/cuisine/pizza", "/offers", "/store/1",
         "/store/1?item=1", "/store/1/item/1", "/cart/drawer", "/checkout", "/orders", "/orders/40101",
         "/orders/40101/help", "/account/profile", "/account/addresses", "/account/payment", "/account/saved",
         "/account/plus", "/account/credits", "/account/notifications"]


@pytest.fixture()
def ue(app, world):
    """A test client bound to the test world in the ubereats look (the look is signed into the binding)."""
    c = app.test_client()
    c.set_cookie(WORLD_COOKIE, sign_world(app, world, "ubereats"))
    return c


def _html(c, path: str) -> str:
    r = c.get(path)
    assert r.status_code == 200, (path, r.data[:300])
    return r.get_data(as_text=True)


def _simple_item(db) -> MenuItem:
    """A dish without option groups (one click adds it)."""
    return next(it for it in db.all(MenuItem) if not it.group_ids)


@pytest.mark.parametrize("path", PAGES)
def test_every_page_renders_in_the_look_chrome(ue, path):
    html = _html(ue, path)
    if path in ("/store/1/item/1", "/cart/drawer"):  # fragments: the look's own partials
        assert "ue-" in html
        return
    assert re.search(r'<body class="ue( [a-z-]+)?"', html) and "looks/ubereats/ue.css" in html and "looks/ubereats/ue.js" in html
    assert f"| {BRAND}</title>" in html
    if path != "/checkout":
        # No avatar menu: the hamburger ("Main menu") holds the account's pages; the black "Cart • N" pill.
        assert 'aria-label="Main menu"' in html and 'aria-label="Account menu"' not in html
        assert f'aria-label="Search {BRAND}"' in html and 'aria-label="Cart • ' in html
        for link in ("Manage account", "Orders", "Favorites", "Wallet", f"{BRAND} One"):
            assert re.search(rf">(\s*<svg[^>]*>.*?</svg>\s*)?{re.escape(link)}</a>", html, re.S), link


def test_home_has_the_category_row_pills_and_wide_cards(ue):
    html = _html(ue, "/")
    assert 'class="ue-cats"' in html and 'class="store-card ue-card' in html
    assert ">Best overall " in html and f"{BRAND} One</a>" in html
    assert 'class="ue-rating"' in html and "Forkful" not in html


def test_store_page_has_a_horizontal_category_bar_and_a_grid_of_cards(ue):
    html = _html(ue, "/store/17")
    assert 'class="ue-menu-bar"' in html and 'class="ue-item-grid"' in html
    assert 'class="store-nav"' not in html  # the default look's left list of categories
    assert ">Info</button>" in html and "Group order</button>" in html and "Group Order" not in html
    assert "Featured items" in html


def test_item_dialog_adds_n_to_order(ue):
    html = _html(ue, "/store/17/item/513")
    assert re.search(r"Add <span data-add-n>1</span> to order • <span data-total>\$\d+\.\d\d</span>", html)
    assert "Add to cart" not in html
    assert 'class="ue-im-grid"' in html and 'class="ue-im-photo"' in html


def test_cart_drawer_and_checkout(ue, db):
    assert "Add items to start a cart" in _html(ue, "/cart/drawer")
    it = _simple_item(db)
    assert ue.post("/api/cart/add", json={"item_id": it.id, "quantity": 2}).json["ok"]
    drawer = _html(ue, "/cart/drawer")
    assert ">Go to checkout</a>" in drawer and ">Checkout</a>" not in drawer
    assert 'aria-label="Cart • 2 items"' in _html(ue, "/")
    page = _html(ue, "/checkout")
    assert ">Place order</button>" in page and "Place Order" not in page
    # "Place order" heads the right column, before the items and the total.
    assert page.index(">Place order</button>") < page.index("sum-items") < page.index("sum-total")
    assert 'aria-label="Priority"' in page and 'aria-label="Express"' not in page
    assert ">Delivery details</h2>" in page and f"{BRAND} terms" in page and "Forkful" not in page


@pytest.mark.parametrize("path", ["/", "/store/17", "/store/17/item/513", "/checkout"])
def test_the_default_look_is_unchanged(client, path):
    html = _html(client, path)
    assert "looks/ubereats" not in html and 'class="ue' not in html
    if path == "/store/17/item/513":
        assert "Add to cart - <span data-total>" in html
    elif path == "/checkout":
        assert "checkout" in html.lower()
    else:
        assert 'aria-label="Account menu"' in html and 'aria-label="Search Forkful"' in html
        assert 'aria-label="Open menu"' in html and 'aria-label="Cart, ' in html


def test_no_page_of_the_look_shows_the_default_brand_or_its_words(ue):
    """The look's pages never show the default look's brand ("Forkful") or DoorDash's words ("Dasher")."""
    for path in PAGES + ["/orders/40107", "/account/plus", "/account/credits", "/orders/40101/receipt"]:
        html = _html(ue, path)
        assert "Forkful" not in html and "FORKFUL" not in html and "Dasher" not in html, path


def test_every_name_is_a_declared_control():
    # SURFACE holds this look: building it checked every key (Surface raises on an undeclared one) ...
    assert SURFACE.looks["ubereats"] is LOOK
    keys = {c.key for c in CONTROLS}
    assert set(LOOK.names) <= keys
    # ... and it does raise: a look naming a control the surface does not declare is refused.
    with pytest.raises(SurfaceError):
        Surface("food", CONTROLS, looks=[Look(id="x", names={"button:No such control": {"role": "button"}})])
    assert LOOK.names["menuitem:Forkful Plus"]["name"] == f"{BRAND} One"
    assert LOOK.names["searchbox:Search Forkful"]["name"] == f"Search {BRAND}"


def test_every_renamed_target_is_on_the_look_pages(ue, db):
    """Each fixed name the look maps a control to is a name its pages show (a renamed template or a typo in
    look_ubereats.py fails here, before a browser plays it)."""
    it = _simple_item(db)
    ue.post("/api/cart/add", json={"item_id": it.id, "quantity": 1})
    line = db.one(CartItem)
    html = "".join(_html(ue, p) for p in ("/", "/store/17", "/store/17/item/513", "/cart/drawer", "/checkout",
                                          f"/cart/item/{line.id}/edit", "/account/profile", "/orders/40107",
                                          "/orders/40101/help"))
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))
    for key, target in LOOK.names.items():
        name = target["name"]
        shown = f'aria-label="{name}' in html or name in text
        assert shown, (key, name)


def _covered_steps() -> list[tuple[str, list]]:
    out = []
    for f in sorted(TASKS.glob("*.json")):
        for t in json.loads(f.read_text()):
            if not LOOK.carries(t.get("template")):
                continue
            seqs = [t["solution"], *t.get("near_misses", []), *[a["steps"] for a in t.get("adversarial", [])],
                    *[h["steps"] for h in t.get("harmless", [])]]
            out.extend((t["id"], s) for s in seqs)
    return out


COVERED = _covered_steps()


def test_the_look_carries_templates():
    assert LOOK.covers and COVERED


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pick=st.integers(min_value=0))
def test_translated_steps_never_address_a_renamed_default_name(pick):
    """Any step list of any covered task, taken in this look, addresses no control by the default name this
    look renames, and keeps its length (this look renames; it takes no other steps)."""
    tid, steps = COVERED[pick % len(COVERED)]
    got = [s.model_dump(exclude_none=True) for s in steps_in_look("food", steps, "ubereats")]
    assert len(got) == len(steps), tid
    for s in got:
        t = next((s[k] for k in ("click", "fill", "hover") if k in s), None)
        while isinstance(t, dict):
            hit = SURFACE.match(t)
            if hit is not None and hit[0].key in LOOK.names:
                assert LOOK.names[hit[0].key]["name"] == t["name"], (tid, t)
            t = t.get("within")


def test_server_messages_are_in_the_looks_words(ue, client, db):
    """What the server writes for the page (a notice after joining, a refusal) names the product's things as the
    look does: "Munchr One" in this look, "Forkful Plus" in the default one; the URL carries the look's words too."""
    from apps.food.models import PaymentMethod

    card = max(db.all(PaymentMethod), key=lambda pm: (pm.exp_year, pm.exp_month))  # one not expired
    for c, member, other in ((ue, f"{BRAND} One", "Forkful"), (client, "Forkful Plus", BRAND)):
        r = c.post("/account/plus/subscribe", data={"plan": "monthly", "payment_method_id": card.id})
        assert r.status_code == 302 and other not in r.headers["Location"], r.headers["Location"]
        page = _html(c, r.headers["Location"])
        assert f"Welcome to {member}!" in page
        refused = c.post(f"/api/cards/{card.id}/delete").get_json()  # the card pays for the membership
        assert refused["ok"] is False and member in refused["error"] and other not in refused["error"], refused
        c.post("/account/plus/cancel")


@given(st.lists(st.sampled_from(["Forkful Plus", "Forkful credits", "Forkful", "Dasher", "Dashers", " your ", "!",
                                 "order", "x"]), max_size=8))
@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
def test_say_leaves_no_default_word_in_the_look_and_changes_nothing_in_the_default(app, words):
    from flask import g

    from apps._shared.looks import say

    text = "".join(words)
    with app.test_request_context("/"):
        assert say(text) == text  # the default look: as written
        g.uigym_look = "ubereats"
        out = say(text)
        assert "Forkful" not in out and "Dasher" not in out, (text, out)
        assert say(out) == out  # saying it twice changes nothing
