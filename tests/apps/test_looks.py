"""Looks (apps/_shared/looks.py): the look is signed into the world binding, chosen at the control API's
reset, and answers each template name with the look's own file where it has one; the pick of an episode's
look is deterministic and refuses what the app does not have."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from apps import app_looks, episode_look, look_carries
from apps._shared.looks import UnknownLook, pick_look
from apps._shared.session import WORLD_COOKIE, sign_world, verified_world
from tests.fixture_apps import looked

TOKEN = "looks-test-token"
H = {"X-Gym-Token": TOKEN}


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return looked.create_app({"TESTING": True, "GYM_TOKEN": TOKEN, "UIGYM_HOME": str(tmp_path_factory.mktemp("home"))})


def _page(app, cookie: str, path: str = "/") -> str:
    c = app.test_client()
    c.set_cookie(WORLD_COOKIE, cookie)
    r = c.get(path)
    assert r.status_code == 200, r.data[:200]
    return r.get_data(as_text=True)


def test_the_reset_signs_the_look_and_the_pages_answer_in_it(app):
    ctl = app.extensions["uigym_control"].test_client()
    plain = ctl.post("/worlds/w1/reset", json={}, headers=H).json
    fancy = ctl.post("/worlds/w2/reset", json={"look": "fancy"}, headers=H).json
    assert (plain["look"], fancy["look"]) == ("plain", "fancy")
    html = _page(app, plain["cookie"]["value"])
    assert "PLAIN CHROME plain" in html and "PAGE BODY" in html and "<title>Plain Co" in html
    html = _page(app, fancy["cookie"]["value"])
    # The look overrides its base only: the default page's body, in the look's chrome and brand.
    assert "FANCY RAIL fancy" in html and "PAGE BODY" in html and "<title>Fancy Co" in html
    assert "PLAIN CHROME" not in html
    # includes resolve per look too; and the two looks never share a cached template.
    assert "fancy part" in _page(app, fancy["cookie"]["value"], "/other")
    assert "plain part" in _page(app, plain["cookie"]["value"], "/other")
    assert "PLAIN CHROME" in _page(app, plain["cookie"]["value"])


def test_an_unknown_look_is_a_400_naming_the_looks(app):
    ctl = app.extensions["uigym_control"].test_client()
    for look in ("nope", "", "FANCY", 5, ["fancy"]):
        r = ctl.post("/worlds/w3/reset", json={"look": look}, headers=H)
        assert r.status_code == 400, look
        assert "look" in r.json["error"]


def test_a_page_cannot_switch_its_look(app):
    """The look is inside the signed value: a cookie naming another look without the key is refused."""
    from itsdangerous import URLSafeSerializer

    ctl = app.extensions["uigym_control"].test_client()
    ctl.post("/worlds/w4/reset", json={}, headers=H)
    forged = URLSafeSerializer("not-the-key", salt="uigym-world/looked").dumps(["w4", "fancy"])
    c = app.test_client()
    c.set_cookie(WORLD_COOKIE, forged)
    assert c.get("/").status_code == 403
    assert verified_world(app, sign_world(app, "w4", "fancy")) == ("w4", "fancy")
    assert verified_world(app, sign_world(app, "w4")) == ("w4", None)


@settings(max_examples=60, deadline=None)
@given(payload=st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                            lambda c: st.lists(c, max_size=3), max_leaves=6))
def test_any_signed_payload_binds_a_valid_world_or_nothing(app, payload):
    """Whatever a (validly signed) cookie holds, the binding is a (world id, look or None) or None: never an
    exception, never a malformed id."""
    from apps._shared.session import _serializer

    got = verified_world(app, _serializer(app).dumps(payload))
    assert got is None or (isinstance(got[0], str) and (got[1] is None or isinstance(got[1], str)))


@settings(max_examples=100, deadline=None)
@given(want=st.one_of(st.none(), st.text(max_size=12), st.lists(st.sampled_from(["gmail", "outlook", "x"]), max_size=3)),
       draw=st.integers())
def test_pick_look_is_a_look_of_the_app_or_unknown_look(want, draw):
    looks = ["gmail", "outlook"]
    try:
        got = pick_look("mail", looks, want, draw)
    except UnknownLook as e:
        assert "mail" in str(e)
        return
    assert got in looks
    assert got == pick_look("mail", looks, want, draw)  # the same draw, the same look
    if want is None:
        assert got == "gmail"


def test_random_draws_every_look_and_repeats_per_seed():
    got = {pick_look("mail", ["gmail", "outlook"], "random", i) for i in range(40)}
    assert got == {"gmail", "outlook"}


def test_every_app_lists_its_default_first():
    assert app_looks("mail")[0] == "gmail" and app_looks("food")[0] == "doordash" and app_looks("crm")[0] == "salesforce"
    for app in ("mail", "food", "crm"):
        assert len(app_looks(app)) >= 2


def test_a_look_that_does_not_carry_a_template_refuses_it():
    """An episode in a look gets only templates that look proved; random draws among those that carry it."""
    from apps import app_surface
    from apps._shared.surface import Look

    surface = app_surface("mail")
    saved = surface.looks.get("outlook")
    surface.looks["outlook"] = Look("outlook", covers=frozenset({"star-latest-from"}))
    try:
        assert look_carries("mail", "outlook", "star-latest-from")
        assert not look_carries("mail", "outlook", "archive-conversation")
        assert look_carries("mail", "gmail", "archive-conversation")
        with pytest.raises(UnknownLook, match="does not carry template 'archive-conversation'"):
            episode_look("mail", "outlook", 0, "archive-conversation")
        assert {episode_look("mail", "random", i, "archive-conversation") for i in range(20)} == {"gmail"}
        assert {episode_look("mail", "random", i, "star-latest-from") for i in range(40)} == {"gmail", "outlook"}
        with pytest.raises(UnknownLook):
            episode_look("mail", ["outlook"], 0, "archive-conversation")
    finally:
        surface.looks["outlook"] = saved


def test_training_refuses_a_held_out_look_unless_asked():
    """The held-out-look split: each app's second look is evaluated on, never trained on unless asked."""
    from apps import held_out_looks, training_looks

    assert held_out_looks("mail") == ["outlook"]
    with pytest.raises(ValueError, match="held out"):
        training_looks("outlook")
    with pytest.raises(ValueError, match="held out"):
        training_looks("gmail,hubspot")
    assert training_looks("outlook", allow_held_out=True) == ["outlook"]
    drawn = training_looks("random")
    assert set(drawn) == {"gmail", "doordash", "salesforce"}  # random never draws a held-out look in training
    assert training_looks(None) is None


def test_grpo_config_refuses_a_held_out_look_before_loading_anything(tmp_path):
    from agent_harness.train.config import GRPORunConfig

    with pytest.raises(ValueError, match="held out"):
        GRPORunConfig(model="x", out=tmp_path, look="ubereats").resolved()
    assert GRPORunConfig(model="x", out=tmp_path, look="ubereats", allow_heldout_look=True).resolved().look == "ubereats"


def test_heldout_names_each_apps_held_out_looks():
    """`--look heldout` (and `--split heldout-look`): each app's held-out look, whatever its id."""
    assert episode_look("crm", "heldout", 0, None) == "hubspot"
    assert episode_look("food", "heldout", 1, None) == "ubereats"
    assert {episode_look("mail", ["heldout"], i, None) for i in range(5)} == {"outlook"}


def test_free_play_is_at_home_in_every_look():
    """No task, no template to carry: free play (and QA's crawl) may open any look."""
    assert look_carries("mail", "outlook", None)
    assert episode_look("mail", "outlook", 0, None) == "outlook"


def _render_in(app, look: str | None, name: str) -> str:
    from flask import g, render_template

    with app.test_request_context("/"):
        if look is not None:
            g.uigym_look = look
        return render_template(name)


def test_a_look_page_extends_the_default_page_of_the_same_name(app):
    """`default/<name>` answers the default's template in every look, so a look's page can extend the default
    page it changes in parts (overriding blocks) instead of copying it; the default page's own extends and
    includes still resolve in the current look."""
    plain = _render_in(app, "plain", "looked/framed.html")
    assert "[DEFAULT INNER] FRAME plain part" in plain and "PLAIN CHROME" in plain and "FANCY" not in plain
    fancy = _render_in(app, "fancy", "looked/framed.html")
    assert "[FANCY INNER, DEFAULT INNER] FRAME fancy part" in fancy and "FANCY RAIL fancy" in fancy
    assert "PLAIN CHROME" not in fancy
    # the prefix names the default's file in any look, and outside a request too
    assert _render_in(app, "fancy", "default/looked/part.html").strip() == "plain part"
    assert _render_in(app, "fancy", "looked/part.html").strip() == "fancy part"
    with app.app_context():
        assert app.jinja_env.get_template("default/looked/part.html").render().strip() == "plain part"


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_default_prefix_answers_the_default_file_in_every_look(app, data):
    """`default/<name>` is the default look's file for any template name, whichever look the request has."""
    from flask import g

    names = sorted(n for n in app.jinja_env.list_templates() if not n.startswith("looks/"))
    name = data.draw(st.sampled_from(names))
    look = data.draw(st.sampled_from(["plain", "fancy", None]))
    with app.test_request_context("/"):
        plain = app.jinja_env.get_template(name).filename  # outside any look: the default's file
        if look is not None:
            g.uigym_look = look
        assert app.jinja_env.get_template("default/" + name).filename == plain


def test_a_look_page_extends_only_the_default_page_of_its_own_name():
    """A look's template that extends a default page (`{% extends "default/..." %}`) extends the one of its own
    name, which exists: the look overrides that page's blocks, it does not borrow another page's."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "apps"
    seen = 0
    for path in sorted(root.glob("*/templates/looks/*/**/*.html")):
        m = re.search(r'{%-?\s*extends\s+"default/([^"]+)"', path.read_text())
        if not m:
            continue
        seen += 1
        rel = path.relative_to(root).parts  # app, "templates", "looks", look, *name
        own = "/".join(rel[4:])
        assert m.group(1) == own, f"{path}: extends default/{m.group(1)}, not default/{own}"
        assert (root / rel[0] / "templates" / own).is_file(), f"{path}: no default {own}"
    assert seen >= 8  # food and crm's looks extend 8 default pages


def test_a_look_words_file_defines_every_name_the_default_one_does():
    """A look's `_look.html` (its words and small parts, imported by the default pages) defines the same names as
    the default's: a name it left out would render as nothing in its pages, silently."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "apps"
    names = re.compile(r"{%-?\s*(?:set|macro)\s+(\w+)")
    seen = 0
    for look_file in sorted(root.glob("*/templates/looks/*/*/_look.html")):
        rel = look_file.relative_to(root).parts  # app, "templates", "looks", look, app, "_look.html"
        default = root / rel[0] / "templates" / rel[4] / "_look.html"
        assert default.is_file(), f"{look_file}: no default {default}"
        want = set(names.findall(default.read_text()))
        have = set(names.findall(look_file.read_text()))
        assert want <= have, f"{look_file} lacks {sorted(want - have)}"
        seen += 1
    assert seen >= 2  # food's ubereats and crm's hubspot
