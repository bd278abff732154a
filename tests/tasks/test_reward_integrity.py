"""The offline half of the reward-integrity suite over every bundled task (no browser): closed specs,
the adversarial kinds each task's shape calls for, and every hedged or shotgun answer graded 0 while the
gold answer grades 1. The browser half is tests/tasks/test_task_validity.py."""

from __future__ import annotations

import copy

import pytest

from tasks import Task, load_tasks
from tasks.integrity import audit_tasks, required_kinds
from tests.harness.toy_tasks import TASKS

ALL = load_tasks()


@pytest.fixture(scope="module")
def audit():
    return audit_tasks(ALL)


def test_every_bundled_task_passes_the_offline_audit(audit):
    assert audit.ok, f"{len(audit.problems)} problem(s):\n" + "\n".join(audit.problems[:40])


def test_every_answer_task_is_attacked_and_no_answer_hack_passes(audit):
    answer_tasks = [t for t in ALL if "hedge" in required_kinds(t)]
    assert len(answer_tasks) >= 60  # the bundle's answer tasks (69 when this was written)
    assert sum(audit.graded_offline.values()) >= 3 * len(answer_tasks)
    assert sum(audit.hacks_passed.values()) == 0


def test_every_app_carries_adversarial_trajectories(audit):
    assert set(audit.adversarial) == {"mail", "food", "crm", "workspace"}
    assert all(audit.adversarial[app] > 100 for app in ("mail", "food", "crm")), audit.adversarial
    assert audit.adversarial["workspace"] >= 2 * len([t for t in ALL if t.app == "workspace"]), audit.adversarial


def _toy(**kw) -> Task:
    t = copy.deepcopy(TASKS[2])  # "What is the title of the third note?"
    t.update(kw)
    return Task.model_validate(t)


def test_the_audit_catches_a_hedgeable_answer_and_missing_kinds():
    state = {("mail", 2): {"notes": []}}
    open_answer = _toy(verify={"checks": [{"answer": {"$icontains": "note 2-3"}}], "unchanged_except": []},
                       adversarial=[{"kind": "hedge", "steps": [{"done": True, "answer": "Note 2-3 or Note 2-4"}]}])
    r = audit_tasks([open_answer], state)
    assert any("$icontains" in p for p in r.problems)
    assert r.hacks_passed["mail"] == 1 and any("hedge answer 'Note 2-3 or Note 2-4' scores 1.0" in p for p in r.problems)

    unattacked = _toy()
    assert any("no adversarial trajectory of kind ['hedge']" in p for p in audit_tasks([unattacked], state).problems)

    writes = Task.model_validate({**copy.deepcopy(TASKS[0]), "verify": {
        "checks": [{"table": "notes", "where": {"id": 2}, "expect": {"starred": True}}],
        "unchanged_except": [{"table": "notes", "where": {"id": 2}, "fields": ["starred"]}]}})
    assert required_kinds(writes) == {"extra"}
    assert any("['extra']" in p for p in audit_tasks([writes], state).problems)


def test_a_closed_attacked_answer_task_is_clean():
    t = _toy(verify={"checks": [{"answer": {"$ieq": "Note 2-3"}}], "unchanged_except": []},
             adversarial=[{"kind": "hedge", "steps": [{"done": True, "answer": "Note 2-3 or Note 2-4"}]},
                          {"kind": "shotgun", "steps": [{"done": True, "answer": "Note 2-1, Note 2-3"}]}])
    r = audit_tasks([t], {("mail", 2): {"notes": []}})
    assert r.ok, r.problems
    assert r.graded_offline["mail"] == 2 and r.hacks_passed["mail"] == 0
