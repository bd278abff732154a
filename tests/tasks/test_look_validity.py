"""Every template a second look carries is proven in that look (issue #37): each covered template's first
instance, played in the look's own names and steps (tasks/looks.py), gets oracle 1, noop 0, near-misses 0 and
adversarial trajectories 0, as tests/tasks/test_task_validity.py proves them in the default look. One batch
per (app, look), over one Chromium. The harmless variants (the grader's allowances, which read the end state
and not the look) are proven in the default look here, and in every look by the slow sweep:
`uigym tasks validate --look all --tasks '*'` proves every instance in every look."""

from __future__ import annotations

import asyncio
import os

import pytest

from agent_harness.validate import validate_tasks
from apps import app_looks, app_surface
from tasks.loader import load_tasks
from tests.batch import validate_workers

WORKERS = validate_workers()
ALL = load_tasks()
SECOND_LOOKS = [(app, look) for app in sorted({t.app for t in ALL}) for look in app_looks(app)[1:]]


def _carried(app: str, look: str) -> list:
    lk = app_surface(app).looks.get(look)
    return [t for t in ALL if t.app == app and t.id.endswith("-00") and lk is not None and lk.carries(t.template)]


CASES = [(look, t.id) for app, look in SECOND_LOOKS for t in _carried(app, look)]
_results: dict[tuple[str, str], dict] = {}


def _validate(app: str, look: str) -> dict:
    if (app, look) not in _results:
        async def run():
            from gym_core.runtime import Runtime

            rt = Runtime.current()
            try:
                return await validate_tasks(_carried(app, look), workers=WORKERS, near_misses=True, harmless=False,
                                            look=look)
            finally:
                await rt.close()

        _results[(app, look)] = {r.task_id: r for r in asyncio.run(run())}
    return _results[(app, look)]


@pytest.mark.timeout(2700)
@pytest.mark.parametrize("look,task_id", CASES)
def test_task_in_look_oracle_1_noop_0_near_miss_0_adversarial_0(look, task_id):
    app = task_id.split("/")[0]
    result = _validate(app, look)[task_id]
    assert not result.unsupported, result.unsupported
    task = next(t for t in ALL if t.id == task_id)
    kinds = [p.kind for p in result.probes]
    assert "oracle" in kinds and "noop" in kinds
    assert sum(k.startswith("adversarial") for k in kinds) == len(task.adversarial)
    assert sum(k.startswith("near_miss") for k in kinds) == len(task.near_misses)
    assert result.ok, result.failures()


def test_covers_name_only_real_templates():
    """A look's `covers` lists templates that exist (a typo would silently carry nothing)."""
    for app, look in SECOND_LOOKS:
        lk = app_surface(app).looks[look]
        known = {t.template for t in ALL if t.app == app}
        assert lk.covers is not None and set(lk.covers) <= known, (app, look, sorted(set(lk.covers or ()) - known))
