"""Partial credit in task validation: a task with checkpoints (grading.Checkpoint) must not pay the do-nothing agent
(no milestone reached at the start) nor the gold plus a harmful extra (a guard fails, so 0), or
`uigym tasks validate` reports it. On the toy app (served as "mail")."""

from __future__ import annotations

import copy

from agent_harness.validate import validate_tasks
from tests.harness.toy_tasks import TASKS
from tests.harness.toy_tasks import toy_task as task

STAR = copy.deepcopy(TASKS[0])  # star Note 1-2, done
GOLD = STAR["solution"]
STARRED = {"table": "notes", "where": {"id": 2}, "expect": {"starred": True}, "name": "note 2 starred"}
EXTRA = {"kind": "extra", "why": "stars a second note",
         "steps": [GOLD[0], {"click": {"role": "button", "name": "Star Note 1-3"}}, {"done": True}]}


def _spec(*milestones: tuple[str, dict]) -> dict:
    checks = [STARRED, *(c for _, c in milestones if c is not STARRED)]
    return {"checks": checks, "unchanged_except": STAR["verify"]["unchanged_except"],
            "checkpoints": [{"name": n, "checks": [c["name"]]} for n, c in milestones]}


async def test_milestones_the_noop_and_the_harmful_extra_never_reach_pass(toy_runtime):
    t = task(STAR, id="mail/toy-star-partial", verify=_spec(("the note starred", STARRED)), adversarial=[EXTRA])
    r = (await validate_tasks([t], workers=1, runtime=toy_runtime, probe_timeout_s=60, near_misses=True))[0]
    p = {x.kind: x for x in r.probes}
    assert r.ok, r.failures()
    assert p["oracle"].partial == 1.0 and p["noop"].partial == 0.0
    assert p["adversarial[0]:extra"].partial == 0.0  # its first step reached the milestone; the guard took it back


async def test_a_milestone_true_at_the_start_is_reported(toy_runtime):
    free = {"table": "notes", "where": {"id": 2}, "count": 1, "name": "note 2 is there"}
    t = task(STAR, id="mail/toy-star-free", verify=_spec(("the note starred", STARRED), ("the note there", free)))
    r = (await validate_tasks([t], workers=1, runtime=toy_runtime, probe_timeout_s=60, near_misses=False))[0]
    noop = next(x for x in r.probes if x.kind == "noop")
    assert noop.reward == 0.0 and noop.partial == 0.5 and not noop.ok
    assert "partial credit 0.5 (expected 0)" in r.failures()
