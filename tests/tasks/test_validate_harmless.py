"""Harmless variants, the other direction of the adversarial ones: an honest other way a careful person
could do the task must grade 1. On the toy app (served as "mail"): `validate_tasks` plays each variant in
the UI and in tool mode (an answer-only one rides on the oracle's episode) and reports one that an
over-strict grader scores 0; the offline audit grades the answer-only ones; the schema refuses a variant
that does not end with done."""

from __future__ import annotations

import copy

import pytest
from pydantic import ValidationError

from agent_harness.validate import validate_tasks
from tasks import Task
from tasks.integrity import audit_tasks
from tests.harness.toy_tasks import TASKS
from tests.harness.toy_tasks import toy_task as task

STAR, _, ANSWER = (copy.deepcopy(t) for t in TASKS)
# The careful person also leaves a note saying what they did: the UI's Add form, or the add_notes tool.
WITH_NOTE = {"kind": "comment", "why": "stars the note and records that it did",
             "steps": [STAR["solution"][0], {"fill": {"role": "textbox", "name": "Title"}, "text": "Starred 1-2"},
                       {"click": {"role": "button", "name": "Add"}}, {"done": True}],
             "tools": [{"tool": "star_note", "args": {"note_id": 2}},
                       {"tool": "add_notes", "args": {"titles": ["Starred 1-2"]}}, {"tool": "done"}]}
# A grader that allows the note (one new row) beside the star, and the over-strict one that does not.
TOLERANT = {"checks": STAR["verify"]["checks"],
            "unchanged_except": [*STAR["verify"]["unchanged_except"], {"table": "notes", "ops": ["create"], "max": 1}]}


def _tasks() -> tuple[Task, Task, Task, Task]:
    tolerant = task(STAR, id="mail/toy-star-tolerant", verify=TOLERANT, harmless=[WITH_NOTE])
    strict = task(STAR, id="mail/toy-star-strict", harmless=[WITH_NOTE])
    answer = task(ANSWER, verify={"checks": [{"answer": {"$regex": r"\bNote 2-3\.?$"}}]}, harmless=[
        {"kind": "phrasing", "steps": [{"done": True, "answer": "The third note is Note 2-3."}], "why": "in a sentence"}])
    strict_answer = task(ANSWER, id="mail/toy-third-title-strict", harmless=[
        {"kind": "phrasing", "steps": [{"done": True, "answer": "The third note is Note 2-3."}], "why": "in a sentence"}])
    return tolerant, strict, answer, strict_answer


@pytest.mark.parametrize("mode", ["ui", "tools"])
async def test_harmless_variants_must_grade_1_and_an_over_strict_grader_is_reported(toy_runtime, mode):
    tolerant, strict, answer, strict_answer = _tasks()
    results = {r.task_id: r for r in await validate_tasks([tolerant, strict, answer, strict_answer], workers=2,
                                                          runtime=toy_runtime, probe_timeout_s=60, mode=mode)}
    ok = results[tolerant.id]
    assert ok.ok, ok.failures()
    assert {p.kind: p.reward for p in ok.probes}["harmless[0]:comment"] == 1.0

    over_strict = results[strict.id]
    assert not over_strict.ok
    assert "harmless[0]:comment]: reward 0.0 (expected 1.0)" in over_strict.failures()
    assert [p.kind for p in over_strict.probes if not p.ok] == ["harmless[0]:comment"]

    # Answer-only variants ride on the oracle's episode (graded on its end state, not played again).
    ans = results[answer.id]
    assert ans.ok, ans.failures()
    rider = next(p for p in ans.probes if p.kind == "harmless[0]:phrasing")
    assert rider.reward == 1.0 and rider.steps == next(p for p in ans.probes if p.kind == "oracle").steps
    assert "harmless[0]:phrasing]: reward 0.0 (expected 1.0)" in results[strict_answer.id].failures()


async def test_harmless_variants_are_skipped_with_the_other_trajectories(toy_runtime):
    """Validation of a template's later instances (near_misses=False) plays the oracle and noop only."""
    tolerant, strict, *_ = _tasks()
    results = await validate_tasks([strict], workers=1, runtime=toy_runtime, probe_timeout_s=60, mode="tools",
                                   near_misses=False)
    assert results[0].ok and {p.kind for p in results[0].probes} == {"oracle", "noop"}


def test_the_offline_audit_grades_harmless_answers():
    _, _, answer, strict_answer = _tasks()
    state = {("mail", 2): {"notes": []}}
    ok = audit_tasks([answer.model_copy(update={"adversarial": []})], state)
    assert ok.harmless_graded["mail"] == 1
    assert not [p for p in ok.problems if "harmless" in p]
    bad = audit_tasks([strict_answer], state)
    assert any("harmless phrasing answer 'The third note is Note 2-3.' scores 0.0, not 1" in p for p in bad.problems)


@pytest.mark.parametrize("bad", [
    {"kind": "comment", "steps": [STAR["solution"][0]], "why": "no done at the end"},
    {"kind": "comment", "steps": STAR["solution"], "why": "tools without done", "tools": [{"tool": "list_notes"}]},
    {"kind": "comment", "steps": STAR["solution"], "why": "done twice",
     "tools": [{"tool": "done"}, {"tool": "done"}]},
    {"kind": "bribe", "steps": STAR["solution"], "why": "an unknown kind"},
    {"kind": "comment", "steps": STAR["solution"], "why": ""},
])
def test_the_schema_refuses_a_malformed_harmless_variant(bad):
    with pytest.raises(ValidationError):
        task(STAR, harmless=[bad])


def test_the_validate_summary_counts_both_sides_per_app():
    """`uigym tasks validate`'s per-app line: adversarials that scored > 0 and harmless variants that scored 1,
    a harmless variant that failed (a 0, or an error) counted as not kept."""
    from agent_harness.validate import Probe, TaskValidation, side_counts

    a = TaskValidation("mail/x-00", [Probe("mail/x-00", "oracle", 1.0, reward=1.0),
                                     Probe("mail/x-00", "adversarial[0]:hedge", 0.0, reward=0.0),
                                     Probe("mail/x-00", "adversarial[1]:dump", 0.0, reward=1.0),
                                     Probe("mail/x-00", "harmless[0]:check_work", 1.0, reward=1.0),
                                     Probe("mail/x-00", "harmless[1]:courtesy", 1.0, reward=0.0)])
    b = TaskValidation("mail/y-00", [Probe("mail/y-00", "harmless[0]:phrasing", 1.0, error="ungraded: no judge")])
    other = TaskValidation("crm/z-00", [Probe("crm/z-00", "harmless[0]:check_work", 1.0, reward=1.0)])
    assert side_counts([a, b, other], "mail") == ("mail: 2 adversarial trajectories played or graded, 1 scored > 0; "
                                                  "3 harmless variants, 1 scored 1")
    assert side_counts([a, b, other], "crm").endswith("0 scored > 0; 1 harmless variants, 1 scored 1")
