"""Every bundled task template is trustworthy: its oracle (the gold solution, played as clicks and keys
through env.step) gets reward 1, the do-nothing agent 0, its near-misses 0, and its adversarial
trajectories (hedged and shotgun answers, dumped content, the gold plus a harmful extra, the right action
on the wrong record) 0, and its harmless variants (the honest other ways a careful person could take: the
matching RSVP, a confirming comment, a new rule applied to existing mail) 1. The harmless variants are more
probes of the same per-app batch (the same browser and worker worlds), not cases of their own.

In the default suite (CI): every template's first instance with all its probes. UIGYM_VALIDATE=all
proves every instance (oracle and noop; near-misses and adversarials on the first), as does
`uigym tasks validate --tasks '*'`. Episodes run in parallel over one Chromium; results are computed
once per app and reported per task. The offline half (every task, no browser) is
tests/tasks/test_reward_integrity.py.
"""

from __future__ import annotations

import asyncio
import os

import pytest

from agent_harness.validate import validate_tasks
from tasks import select_tasks
from tasks.loader import load_tasks
from tests.batch import validate_workers

WORKERS = validate_workers()
ALL = load_tasks()
SCOPE = os.environ.get("UIGYM_VALIDATE", "first")  # "first": each template's first instance; "all"
APPS = sorted({t.app for t in ALL})
_results: dict[str, dict] = {}


def _first_of_template(task) -> bool:
    return task.template is None or task.id.endswith("-00")


def _validate_app(app: str) -> dict:
    if app not in _results:
        tasks = [t for t in select_tasks("*", app=app) if t.id in CHOSEN]
        with_nm = [t for t in tasks if _first_of_template(t)]
        without_nm = [t for t in tasks if not _first_of_template(t)]

        async def run():
            from gym_core.runtime import Runtime

            rt = Runtime.current()
            try:
                a = await validate_tasks(with_nm, workers=WORKERS, near_misses=True)
                b = await validate_tasks(without_nm, workers=WORKERS, near_misses=False)
                return a + b
            finally:
                await rt.close()

        _results[app] = {r.task_id: r for r in asyncio.run(run())}
    return _results[app]


CHOSEN = {t.id for t in ALL if SCOPE == "all" or _first_of_template(t)}


# The first task of an app runs the whole app's batch (every probe of every chosen task of that app, ~10
# minutes for food on 2 cores), so the per-test default of 600 s is too short for it.
@pytest.mark.timeout(2700)
@pytest.mark.parametrize("task_id", sorted(CHOSEN))
def test_task_oracle_1_noop_0_near_miss_0_adversarial_0_harmless_1(task_id):
    app = task_id.split("/")[0]
    result = _validate_app(app)[task_id]
    kinds = [p.kind for p in result.probes]
    assert "oracle" in kinds and "noop" in kinds
    if _first_of_template(next(t for t in ALL if t.id == task_id)):
        task = next(t for t in ALL if t.id == task_id)
        assert sum(k.startswith("adversarial") for k in kinds) == len(task.adversarial)
        assert sum(k.startswith("harmless") for k in kinds) == len(task.harmless)
    assert result.ok, result.failures()


def test_every_template_has_near_misses():
    templates: dict[str, list] = {}
    for t in ALL:
        if t.template:
            templates.setdefault(f"{t.app}/{t.template}", []).append(t)
    missing = [name for name, ts in templates.items() if not any(t.near_misses for t in ts)]
    assert not missing, f"templates without a near-miss: {missing}"


def test_every_template_has_harmless_variants():
    """#48: every bundled task carries at least one harmless variant, the honest extra a careful person
    takes: proven 1 by the batch above on each template's first instance (every instance with
    UIGYM_VALIDATE=all), and offline where it only changes the answer (test_reward_integrity)."""
    missing = sorted(t.id for t in ALL if not t.harmless)
    assert not missing, f"tasks without a harmless variant: {missing}"
