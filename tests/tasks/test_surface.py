"""The apps' UI surfaces (apps/_shared/surface.py, apps/<app>/surface.py): every target of every bundled task
is declared; an undeclared one fails generation with its template named; a look's translation replaces what
it renames and nothing else."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from apps import app_surface
from apps._shared.surface import Control, Look, Surface, SurfaceError
from tasks import load_tasks
from tasks.looks import step_dicts, steps_in_look_by_step
from tasks.templates.base import check_surface


@pytest.mark.parametrize("app", ["mail", "food", "crm"])
def test_every_bundled_task_addresses_only_declared_controls(app):
    surface = app_surface(app)
    tasks = [t for t in load_tasks() if t.app == app]
    assert tasks
    for t in tasks:
        check_surface(t, t.id)  # raises SurfaceError naming the task
    # and the declaration is not a catch-all: a made-up control of a fixed role is not declared
    assert surface.match({"role": "button", "name": "Frobnicate the widget"}) is None or app == "food"
    assert surface.match({"role": "searchbox", "name": "Frobnicate"}) is None


def test_an_undeclared_control_fails_with_the_template_named():
    task = next(t for t in load_tasks() if t.template == "archive-conversation")
    bad = task.model_copy(deep=True)
    bad.solution[-2].click.name = "Archve"  # a typo in the toolbar button's name
    with pytest.raises(SurfaceError, match=r"template mail/archive-conversation.*button 'Archve'"):
        check_surface(bad, "template mail/archive-conversation: " + task.id)


def test_each_looks_names_are_declared_controls():
    for app in ("mail", "food", "crm"):
        surface = app_surface(app)
        keys = {c.key for c in surface.controls}
        for look in surface.looks.values():
            # a key may name its container too ("button:Delete in dialog"): both parts are declared controls
            assert {part for k in look.names for part in k.split(" in ", 1)} <= keys, (app, look.id)
    with pytest.raises(SurfaceError, match="does not declare"):
        Surface("x", [Control("button", "Save")], [Look("y", names={"button:Sav": {"role": "button", "name": "S"}})])
    with pytest.raises(SurfaceError, match="does not declare"):
        Surface("x", [Control("button", "Save")], [Look("y", names={"button:Save in dialog": {}})])


def test_a_key_with_its_container_wins_inside_that_container_only():
    """The record page's Delete is a menu item in the look, the confirmation dialog's Delete a button in both."""
    surf = Surface("t", [Control("button", "Delete"), Control("dialog", None), Control("button", "Actions")],
                   [Look("alt", names={"button:Delete": [{"click": {"role": "button", "name": "Actions"}},
                                                         {"click": {"role": "menuitem", "name": "Delete"}}],
                                       "button:Delete in dialog": {"role": "button", "name": "Delete"}})])
    dialog = {"role": "dialog"}
    out = surf.translate([{"click": {"role": "button", "name": "Delete"}},
                          {"click": {"role": "button", "name": "Delete", "exact": True, "within": dialog}}], "alt")
    assert out == [{"click": {"role": "button", "name": "Actions"}}, {"click": {"role": "menuitem", "name": "Delete"}},
                   {"click": {"role": "button", "name": "Delete", "exact": True, "nth": 0, "within": dialog}}]


SURF = Surface("t", [Control("button", "Star"), Control("button", "Archive"), Control("toolbar", "Actions"),
                     Control("button", "Remove {item}"), Control("row", "{name}"), Control("button", "More"),
                     Control("menuitem", "Snooze")],
               [Look("alt", names={"button:Star": {"role": "button", "name": "Flag"},
                                   "toolbar:Actions": {},
                                   "button:Remove {item}": {"role": "button", "name": "Delete {item} from cart"},
                                   "button:More": [],
                                   "menuitem:Snooze": [{"click": {"role": "button", "name": "More actions"}},
                                                       {"click": {"role": "menuitem", "name": "Snooze"}}]})])

TARGETS = st.sampled_from([
    {"role": "button", "name": "Star"}, {"role": "button", "name": "Archive"},
    {"role": "button", "name": "Archive", "within": {"role": "toolbar", "name": "Actions"}},
    {"role": "button", "name": "Remove Fries"}, {"role": "row", "name": "Lunch on Friday?"},
    {"role": "button", "name": "More"}, {"role": "menuitem", "name": "Snooze"}])
STEPS = st.lists(st.one_of(TARGETS.map(lambda t: {"click": t}), TARGETS.map(lambda t: {"hover": t}),
                           st.just({"press": ["Enter"]}), st.just({"done": True})), max_size=8)


@settings(max_examples=150, deadline=None)
@given(steps=STEPS)
def test_translation_renames_exactly_what_the_look_names(steps):
    before = copy.deepcopy(steps)
    assert SURF.translate(steps, None) == steps and SURF.translate(steps, "nope") == steps
    out = SURF.translate(steps, "alt")
    assert steps == before  # the task's own steps are never mutated
    names = [s[k]["name"] for s in out for k in ("click", "hover") if k in s]
    assert "Star" not in names and not any(n.startswith("Remove ") for n in names)
    assert not any("within" in s.get(k, {}) for s in out for k in ("click", "hover"))  # the toolbar is gone
    # a dropped click is gone, an expanded one is two; every other step is one
    # a dropped step ("More") is gone, a step this look takes as two ("Snooze") is two, any other is one
    more = sum(1 for s in steps for k in ("click", "hover") if s.get(k, {}).get("name") == "More")
    snooze = sum(1 for s in steps for k in ("click", "hover") if s.get(k, {}).get("name") == "Snooze")
    assert len(out) == len(steps) - more + snooze
    hover_snooze = sum(1 for s in steps if s.get("hover", {}).get("name") == "Snooze")
    assert sum(1 for s in out if s.get("hover", {}).get("name") == "Snooze") == hover_snooze


def test_slots_carry_the_data_into_the_looks_name():
    out = SURF.translate([{"click": {"role": "button", "name": "Remove Sweet Potato Fries"}}], "alt")
    assert out[0]["click"]["name"] == "Delete Sweet Potato Fries from cart"
    # a fill on a control reached by steps: the steps that lead there, then the fill on the last target
    out = SURF.translate([{"fill": {"role": "menuitem", "name": "Snooze"}, "text": "x"}], "alt")
    assert out == [{"click": {"role": "button", "name": "More actions"}},
                   {"fill": {"role": "menuitem", "name": "Snooze"}, "text": "x"}]


def test_the_oracle_counts_task_steps_through_an_expanding_look():
    """A look that takes one step as two (or none) keeps each step's task index: validation's folded probes
    are graded after the right task step (agent_harness/validate.py)."""
    from apps._shared import surface as surface_mod  # noqa: F401

    mail = app_surface("mail")
    saved = mail.looks.get("outlook")
    mail.looks["outlook"] = Look("outlook", names={
        "button:Star": [{"click": {"role": "button", "name": "More actions"}}, {"click": {"role": "menuitem", "name": "Flag"}}],
        "button:Compose": []})
    try:
        steps = [{"click": {"role": "button", "name": "Compose"}}, {"click": {"role": "button", "name": "Star"}},
                 {"press": ["Enter"]}, {"done": True}]
        pairs = steps_in_look_by_step("mail", steps, "outlook")
        assert [i for i, _ in pairs] == [1, 1, 2, 3]
        assert step_dicts([s for _, s in pairs])[0]["click"]["name"] == "More actions"
    finally:
        mail.looks["outlook"] = saved


@pytest.mark.parametrize("app", ["mail", "food", "crm"])
def test_the_qa_specs_steps_address_declared_controls(app):
    """QA's scripted searches (apps/<app>/qa.py) take their steps through the surface too (the oracle agent
    translates them into the crawled look), so their targets must be declared."""
    import importlib

    qa = importlib.import_module(f"apps.{app}.qa").QA
    steps = [s for q in qa.get("queries", []) for s in (q.get("steps") or [])]
    assert steps, "no scripted query to check"
    assert app_surface(app).undeclared(steps) == []
