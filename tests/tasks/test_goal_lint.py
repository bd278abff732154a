"""Goal lint (tasks/goal_lint.py): no literal in a goal is an answer its answer check accepts. It fails on
the delivery-fee template's old goal ("Answer with the amount, e.g. $1.99": the fee of 2 of its 5 bundled
stores), the generator refuses such a template, and every bundled goal is clean."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings, strategies as st

from tasks import Task
from tasks.goal_lint import goal_leaks, goal_literals
from tasks.loader import load_tasks
from tasks.templates import World
from tasks.templates.base import TEMPLATES, instances_of, load_templates

OLD_FEE_GOAL = "What is the delivery fee at {store}? Answer with the amount, e.g. $1.99."
OLD_CLOSING_GOAL = "What time does {store} close today? Answer like 9:00 PM."


def _state(app: str, seed: int) -> dict:
    w = World.build(app, seed)
    return {**w.rows, "_meta": {"app": app, "seed": seed}}


def test_every_bundled_goal_is_free_of_its_answer():
    states: dict = {}
    leaks = []
    for t in load_tasks():
        key = (t.app, t.seed)
        if key not in states:
            states[key] = _state(*key)
        leaks += [f"{t.id}: {leak}" for leak in goal_leaks(t, states[key])]
    assert not leaks, "\n".join(leaks)


def _with_old_goal(task: Task, old: str, store: str) -> Task:
    return task.model_copy(update={"goal": old.format(store=store)})


def test_the_old_delivery_fee_goal_leaks_its_answer_where_the_fee_is_the_example():
    tasks = [t for t in load_tasks() if t.template == "lookup-delivery-fee"]
    state = _state("food", 0)
    store = lambda t: t.goal.split(" at ", 1)[1].split("?", 1)[0]  # noqa: E731
    leaking = [t.id for t in tasks if goal_leaks(_with_old_goal(t, OLD_FEE_GOAL, store(t)), state)]
    # The fee is $1.99 at 2 of the 5 bundled stores: copying the example scored 1 there.
    assert sorted(leaking) == ["food/lookup-delivery-fee-01", "food/lookup-delivery-fee-04"]
    assert all(t.solution[-1].answer == "$1.99" for t in tasks if t.id in leaking)
    assert not any(goal_leaks(t, state) for t in tasks)  # the goal as it is now names no amount
    closing = [t.id for t in load_tasks() if t.template == "lookup-closing-time"
               and goal_leaks(_with_old_goal(t, OLD_CLOSING_GOAL, t.goal[len("What time does "):].split(" close")[0]),
                              state)]
    assert closing == ["food/lookup-closing-time-03"]  # the same defect, found by the lint: a 9 PM closing


def test_the_generator_refuses_a_template_whose_goal_leaks_and_fresh_worlds_leave_the_instance_out():
    load_templates("food")
    info = TEMPLATES["food/lookup-delivery-fee"]

    def old_goal(w, rng):
        for inst in info.fn(w, rng):
            store = inst["goal"].split(" at ", 1)[1].split("?", 1)[0]
            yield {**inst, "goal": OLD_FEE_GOAL.format(store=store)}

    old = dataclasses.replace(info, fn=old_goal)
    with pytest.raises(ValueError, match=r"lookup-delivery-fee-01: the goal's literal '\$1.99' is accepted as the answer"):
        instances_of(old)
    kept = instances_of(old, strict=False)
    assert [t["solution"][-1]["answer"] for t in kept] and all(t["solution"][-1]["answer"] != "$1.99" for t in kept)
    assert len(kept) == 3


def _task(goal: str, answer_check: dict) -> Task:
    return Task.model_validate({"id": "food/lint-probe", "app": "food", "difficulty": "easy", "goal": goal,
                                "verify": {"checks": [{"answer": answer_check}], "unchanged_except": []},
                                "solution": [{"done": True, "answer": "x"}]})


cents = st.integers(min_value=1, max_value=99_999)
hint = st.sampled_from(["e.g. {}", "like {}", "such as {}", "for example {}", "(say {})", "\u201c{}\u201d", "{}"])


@settings(max_examples=80, deadline=None)
@given(fee=cents, example=cents, form=hint)
def test_an_amount_in_the_goal_leaks_exactly_when_the_answer_check_accepts_it(fee, example, form):
    """Every way of writing an example amount into a goal is found, and flagged only when it is the answer."""
    amount = f"${example // 100}.{example % 100:02d}"
    goal = f"What is the delivery fee at Pho Saigon? Answer with the amount, {form.format(amount)}."
    assert amount in goal_literals(goal)
    t = _task(goal, {"$number": {"$approx": fee / 100, "$tol": 0.005}})
    assert bool(goal_leaks(t, {})) == (fee == example)


@settings(max_examples=60, deadline=None)
@given(hour=st.integers(1, 12), minute=st.sampled_from([0, 15, 30, 45]), pm=st.booleans(),
       other=st.integers(1, 12))
def test_a_time_example_leaks_when_it_is_the_answer(hour, minute, pm, other):
    ans = f"{hour}:{minute:02d} {'PM' if pm else 'AM'}"
    pat = rf"^\s*{hour}:{minute:02d}\s*{'PM' if pm else 'AM'}\s*$"
    t_same = _task(f"When does it close? Answer like {ans}.", {"$regex": pat, "$options": "i"})
    assert goal_leaks(t_same, {})
    if other != hour:
        t_other = _task(f"When does it close? Answer like {other}:{minute:02d} {'PM' if pm else 'AM'}.",
                        {"$regex": pat, "$options": "i"})
        assert not goal_leaks(t_other, {})


def test_a_goal_with_no_answer_to_give_has_nothing_to_leak():
    t = Task.model_validate({"id": "food/lint-probe", "app": "food", "difficulty": "easy",
                             "goal": "Add 2 Pad Thai to the cart, e.g. from Thai Basil.",
                             "verify": {"checks": [{"table": "cart_items", "count": 1}]},
                             "solution": [{"done": True}]})
    assert goal_leaks(t, {}) == []
