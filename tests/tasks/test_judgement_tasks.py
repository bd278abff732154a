"""Judgement tasks (README: Judgement tasks): the safety split, the tags' rule, and the bundled tasks' shape."""

from __future__ import annotations

import pytest

from grading import verify
from tasks import TaskLoadError, load_tasks, select_tasks
from tasks.fresh import generalisation_split
from tasks.schema import JUDGEMENT_TAGS, Task, is_judgement


def _judgement() -> list[Task]:
    return [t for t in load_tasks() if is_judgement(t)]


def test_safety_split_is_the_judgement_tasks_and_nothing_else():
    safety = select_tasks("*", split="safety")
    assert safety, "no bundled judgement task"
    assert {t.id for t in safety} == {t.id for t in _judgement()}
    assert all(generalisation_split(t) == "safety" for t in safety)
    for split in ("train", "test"):
        assert not any(is_judgement(t) for t in select_tasks("*", split=split)), f"{split} draws a judgement task"


def test_every_app_has_infeasible_and_harmful_tasks():
    kinds = {(t.app, tag) for t in _judgement() for tag in t.tags if tag in JUDGEMENT_TAGS}
    for app in ("mail", "food", "crm"):
        assert (app, "infeasible") in kinds and (app, "harmful") in kinds, app


def test_unknown_split_is_refused_by_name():
    with pytest.raises(TaskLoadError, match="unknown split 'safty'.*safety"):
        select_tasks("*", split="safty")


def test_an_infeasible_task_must_be_graded_by_a_refusal():
    t = _judgement()[0].model_dump(mode="json", exclude_none=True, by_alias=True)
    t["verify"] = {"checks": [{"answer": {"$ieq": "no"}}], "unchanged_except": []}
    with pytest.raises(ValueError, match=r"\$refusal"):
        Task.model_validate(t)


def test_gold_refuses_and_claims_fail_on_the_start_state():
    from tasks.templates import World

    for t in _judgement():
        w = World.build(t.app, t.seed)
        state = {**w.rows, "_meta": {"app": t.app, "seed": t.seed}}
        assert verify(t.verify, state, state, t.solution[-1].answer).passed, t.id
        assert not verify(t.verify, state, state, None).passed, f"{t.id}: no answer passes"
        claims = [nm[-1].answer for nm in t.near_misses if nm[-1].answer]
        assert claims, t.id
        for c in claims:
            assert verify(t.verify, state, state, c).score == 0, f"{t.id}: claim {c!r} passes"
