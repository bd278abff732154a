"""A probe whose steps are the first steps of a longer probe's is graded on the way of that longer episode
(agent_harness/validate.py `_fold`), where its own `done` would come: it must grade exactly as when it is
played on its own (reward, steps, the trajectory the process checks read), and one whose point is never
reached is played on its own. On the toy app (served as "mail")."""

from __future__ import annotations

import copy

from agent_harness.validate import validate_tasks
from tests.harness.toy_tasks import TASKS
from tests.harness.toy_tasks import toy_task as task

STAR = copy.deepcopy(TASKS[0])
GOLD = STAR["solution"]  # star Note 1-2, done
# The gold, then a look at the note again: the oracle is its first step.
CHECK = {"kind": "check_work", "why": "looks at the starred note again",
         "steps": [GOLD[0], {"hover": {"role": "button", "name": "Star Note 1-2"}}, {"done": True}]}
# The gold plus a harmful extra (starring another note too): must score 0, and carries the oracle too.
EXTRA = {"kind": "extra", "why": "stars a second note",
         "steps": [GOLD[0], {"click": {"role": "button", "name": "Star Note 1-3"}}, {"done": True}]}
# The process check counts the done: the oracle takes exactly 2 steps, so a grade at the fold point that
# forgot its done (or counted the carrier's later steps) would differ.
EXACT = {"checks": [*STAR["verify"]["checks"], {"code": "steps_at_most", "args": {"n": 2}}],
         "unchanged_except": STAR["verify"]["unchanged_except"]}


def _by_kind(result):
    return {p.kind: p for p in result.probes}


async def test_a_prefix_probe_grades_as_its_own_episode(toy_runtime):
    folded = task(STAR, id="mail/toy-star-fold", verify=EXACT, harmless=[CHECK], adversarial=[EXTRA])
    alone = task(STAR, id="mail/toy-star-alone", verify=EXACT)
    res = {r.task_id: r for r in await validate_tasks([folded, alone], workers=2, runtime=toy_runtime,
                                                      probe_timeout_s=60, near_misses=True)}
    f, a = _by_kind(res[folded.id]), _by_kind(res[alone.id])
    assert {k for k in f} == {"oracle", "noop", "harmless[0]:check_work", "adversarial[0]:extra"}
    # The oracle and the noop rode on a longer episode, and grade as the lone task's did.
    assert f["oracle"].played_in and f["noop"].played_in
    assert not a["oracle"].played_in  # nothing longer to ride on
    for kind in ("oracle", "noop"):
        assert (f[kind].reward, f[kind].steps) == (a[kind].reward, a[kind].steps), kind
    assert f["oracle"].reward == 1.0 and f["oracle"].steps == 2 and f["noop"].reward == 0.0
    assert f["adversarial[0]:extra"].reward == 0.0
    # The check_work variant takes 3 steps: the steps_at_most(2) check fails it, so it is reported.
    assert f["harmless[0]:check_work"].reward == 0.0 and not res[folded.id].ok
    assert "steps_at_most" in f["harmless[0]:check_work"].report


async def test_a_carrier_that_fails_after_the_point_still_grades_the_prefix(toy_runtime):
    # The carrier's second step finds nothing: the world is as the gold's first step left it, so the oracle
    # (which ends there) is graded on the way before the carrier's failure is reported; the noop too.
    stuck = {"kind": "check_work", "why": "the gold, then a control that is not there",
             "steps": [GOLD[0], {"click": {"role": "button", "name": "No such control"}}, {"done": True}]}
    t = task(STAR, id="mail/toy-star-stuck", harmless=[stuck])
    r = (await validate_tasks([t], workers=1, runtime=toy_runtime, probe_timeout_s=60, near_misses=True))[0]
    p = _by_kind(r)
    assert p["oracle"].played_in == "harmless[0]:check_work"
    assert (p["oracle"].reward, p["oracle"].steps, p["oracle"].error) == (1.0, 2, None)
    assert "No such control" in p["harmless[0]:check_work"].error
    assert p["noop"].reward == 0.0 and p["noop"].error is None


async def test_a_prefix_past_its_budget_at_its_point_is_played_on_its_own(toy_runtime):
    # The near-miss ends after 2 actions, at its task's budget (max_steps 2): alone it is cut off there and
    # graded without a done, which a grade on the way cannot copy, so it is played on its own.
    wrong = {"click": {"role": "button", "name": "Star Note 1-3"}}
    look = {"hover": {"role": "button", "name": "Star Note 1-2"}}
    t = task(STAR, id="mail/toy-star-budget", max_steps=2, near_misses=[[wrong, look, {"done": True}]],
             adversarial=[{"kind": "wrong_record", "why": "the wrong note, looked at, then the right one too",
                           "steps": [wrong, look, look, {"done": True}]}])
    r = (await validate_tasks([t], workers=1, runtime=toy_runtime, probe_timeout_s=60, near_misses=True))[0]
    p = _by_kind(r)
    assert p["near_miss[0]"].played_in == "" and p["near_miss[0]"].reward == 0.0 and p["near_miss[0]"].steps == 2
    assert p["adversarial[0]:wrong_record"].reward == 0.0


async def test_only_a_true_prefix_rides(toy_runtime):
    early = {"kind": "check_work", "why": "hovers the note first, then the gold",
             "steps": [{"hover": {"role": "button", "name": "Star Note 1-2"}}, GOLD[0], {"done": True}]}
    t = task(STAR, id="mail/toy-star-early", harmless=[early],
             near_misses=[[{"hover": {"role": "button", "name": "Star Note 1-2"}}, {"done": True}]])
    r = (await validate_tasks([t], workers=1, runtime=toy_runtime, probe_timeout_s=60, near_misses=True))[0]
    p = _by_kind(r)
    assert r.ok, r.failures()
    assert p["oracle"].played_in == ""  # the variant starts elsewhere: the oracle is played on its own
    assert p["near_miss[0]"].played_in == "harmless[0]:check_work" and p["near_miss[0]"].reward == 0.0
    assert p["harmless[0]:check_work"].reward == 1.0
