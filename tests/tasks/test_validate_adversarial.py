"""`validate_tasks` plays the adversarial trajectories and demands 0 from each, on the toy app (served as
"mail"): a hack the verifier catches is valid, a hack it misses is reported, and an adversarial whose
steps cannot be played is an error (a 0 earned by a failed click proves nothing)."""

from __future__ import annotations

import copy

import pytest

from agent_harness.validate import validate_tasks
from tasks import Task
from tests.harness.toy_tasks import TASKS
from tests.harness.toy_tasks import toy_task as task

STAR, _, ANSWER = (copy.deepcopy(t) for t in TASKS)
STAR_NOTE_3 = {"click": {"role": "button", "name": "Star Note 1-3"}}


async def test_caught_hacks_are_valid_missed_hacks_and_unplayable_ones_are_not(toy_runtime):
    star = task(STAR, adversarial=[
        {"kind": "extra", "why": "the gold plus another note starred",
         "steps": [STAR["solution"][0], STAR_NOTE_3, {"done": True}]},
    ])
    # The same hack against a spec whose allowance covers every note: the verifier misses it.
    loose = task(STAR, id="mail/toy-star-loose", verify={
        "checks": STAR["verify"]["checks"], "unchanged_except": [{"table": "notes", "fields": ["starred"]}]},
        adversarial=star.model_dump()["adversarial"])
    unplayable = task(STAR, id="mail/toy-star-unplayable", adversarial=[
        {"kind": "wrong_record", "steps": [{"click": {"role": "button", "name": "Star Note 9-9"}}, {"done": True}]}])
    answer = task(ANSWER, adversarial=[
        {"kind": "hedge", "steps": [{"done": True, "answer": "Note 2-3 or Note 2-4"}]},
        {"kind": "shotgun", "steps": [{"done": True, "answer": "Note 2-1\nNote 2-2\nNote 2-3"}]}])

    results = {r.task_id: r for r in await validate_tasks([star, loose, unplayable, answer], workers=2,
                                                          runtime=toy_runtime, probe_timeout_s=60)}

    ok = results[star.id]
    assert ok.ok, ok.failures()
    assert {p.kind: p.reward for p in ok.probes} == {"oracle": 1.0, "noop": 0.0, "adversarial[0]:extra": 0.0}

    missed = results[loose.id]
    assert not missed.ok and "adversarial[0]:extra" in missed.failures() and "reward 1.0" in missed.failures()

    broken = results[unplayable.id]
    assert not broken.ok and "adversarial[0]:wrong_record" in broken.failures()

    # Answer-only adversarials ride on the oracle's episode: graded on its end state, not played again.
    ans = results[answer.id]
    assert ans.ok, ans.failures()
    kinds = {p.kind: (p.reward, p.steps) for p in ans.probes}
    assert kinds["oracle"] == (1.0, 1)
    assert kinds["adversarial[0]:hedge"] == (0.0, 1) and kinds["adversarial[1]:shotgun"] == (0.0, 1)
    assert len(ans.probes) == 4


async def test_tool_mode_validation_proves_tool_plans_and_reports_the_unsupported(toy_runtime):
    good = [Task.model_validate(t) for t in TASKS]
    wrong_gold = task(STAR, id="mail/toy-star-wrong-gold",
                      tools={"solution": [{"tool": "star_note", "args": {"note_id": 3}}, {"tool": "done"}]})
    loose_miss = task(STAR, id="mail/toy-star-loose-miss",
                      tools={"solution": STAR["tools"]["solution"], "near_misses": [STAR["tools"]["solution"]]})
    no_plan = task(STAR, id="mail/toy-star-no-plan", tools=None)
    unsupported = task(STAR, id="mail/toy-star-unsupported", tools={"unsupported": "the toy says so"})
    bad_call = task(STAR, id="mail/toy-star-bad-call",
                    tools={"solution": [{"tool": "star_note", "args": {"note_id": 99}}, {"tool": "done"}]})
    hedge = task(ANSWER, id="mail/toy-answer-hedge", adversarial=[
        {"kind": "hedge", "steps": [{"done": True, "answer": "Note 2-3 or Note 2-4"}]}])

    results = {r.task_id: r for r in await validate_tasks(
        [*good, wrong_gold, loose_miss, no_plan, unsupported, bad_call, hedge], workers=2, runtime=toy_runtime,
        probe_timeout_s=60, mode="tools")}

    for t in good:
        r = results[t.id]
        assert r.ok, r.failures()
        assert {p.kind: p.reward for p in r.probes} == {"oracle": 1.0, "noop": 0.0, "near_miss[0]": 0.0}
    assert "reward 0.0 (expected 1.0)" in results[wrong_gold.id].failures()
    assert "near_miss[0]" in results[loose_miss.id].failures()
    assert "no tool plan" in results[no_plan.id].failures()
    assert results[unsupported.id].ok and results[unsupported.id].unsupported == "the toy says so"
    assert "no note with id 99" in results[bad_call.id].failures()
    r = results[hedge.id]
    assert r.ok and {p.kind: p.reward for p in r.probes}["adversarial[0]:hedge"] == 0.0
    assert not toy_runtime._browsers  # no browser in tool mode


@pytest.mark.parametrize("crashes", [1, 2])
async def test_a_probe_the_browser_failed_is_played_once_more_and_a_second_failure_stands(
        toy_runtime, monkeypatch, crashes):
    """A tab that crashes under the gold solution says nothing about the verifier: the probe is replayed in a
    fresh context, the first failure kept on it; a crash on the replay too is a failure (never a third try)."""
    from gym_core import AsyncUIEnv

    real_act, left = AsyncUIEnv._act, [crashes]

    async def crashing_act(self, action):
        if left[0] and self.task is not None and self.task.id == STAR["id"] and self.steps == 1:
            left[0] -= 1
            await self.page.close()  # as if the tab crashed under the first click
        await real_act(self, action)

    monkeypatch.setattr(AsyncUIEnv, "_act", crashing_act)
    star = task(STAR, adversarial=[])
    [result] = await validate_tasks([star], workers=1, runtime=toy_runtime, probe_timeout_s=60)
    oracle = next(p for p in result.probes if p.kind == "oracle")
    assert left == [0] and "browser error" in oracle.retried
    if crashes == 1:
        assert result.ok and oracle.reward == 1.0 and oracle.error is None, result.failures()
    else:
        assert not result.ok and "browser error" in oracle.error
    assert all(not p.retried for p in result.probes if p.kind != "oracle")
