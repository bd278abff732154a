"""Every bundled template in tool mode: its tool plan's gold calls get reward 1, the do-nothing agent 0, every
tool near-miss 0, its answer hacks 0 and its harmless variants' tool calls 1, played through the tools env (the
control API's tool routes, the path a function-calling agent takes; no browser). A task whose plan says it
cannot be done through tools is listed with its reason, and may not be a template's only way in.

In the default suite (CI): each template's first instance, like tests/tasks/test_task_validity.py, as one batch
per app (tests/conftest.py keeps an app's tests in one xdist worker). UIGYM_VALIDATE=all plays every bundled
task, as does `uigym tasks validate --mode tools --tasks '*'`."""

from __future__ import annotations

import asyncio
import os

import pytest

from agent_harness.validate import validate_tasks
from tasks.integrity import answer_only
from tasks.loader import load_tasks
from tests.batch import validate_workers

ALL = load_tasks()
WORKERS = validate_workers()
SCOPE = os.environ.get("UIGYM_VALIDATE", "first")  # "first": each template's first instance; "all"
CHOSEN = [t for t in ALL if SCOPE == "all" or t.template is None or t.id.endswith("-00")]
_results: dict[str, dict] = {}


def _results_of(app: str) -> dict:
    if app not in _results:
        async def run():
            from gym_core.runtime import Runtime

            rt = Runtime.current()
            try:
                return await validate_tasks([t for t in CHOSEN if t.app == app], workers=WORKERS, mode="tools")
            finally:
                await rt.close()

        _results[app] = {r.task_id: r for r in asyncio.run(run())}
    return _results[app]


def test_every_bundled_task_has_a_tool_plan():
    missing = [t.id for t in ALL if t.tools is None]
    assert not missing, f"{len(missing)} tasks without a tool plan, e.g. {missing[:5]}"


@pytest.mark.timeout(2400)
@pytest.mark.parametrize("app", sorted({t.app for t in ALL}))
def test_tool_oracle_1_noop_0_near_miss_0_harmless_1(app):
    results = list(_results_of(app).values())
    bad = [r for r in results if not r.ok]
    assert not bad, "\n".join(r.failures() for r in bad[:10])
    played = [r for r in results if not r.unsupported]
    assert played and all({"oracle", "noop"} <= {p.kind for p in r.probes} for r in played)
    by_id = {t.id: t for t in ALL}
    for r in played:  # every harmless variant with tool calls (or another answer) was played and graded 1
        t = by_id[r.task_id]
        want = sum(h.tools is not None or answer_only(t, h.steps) is not None for h in t.harmless)
        assert sum(p.kind.startswith("harmless") for p in r.probes) == want, r.task_id
    templates_with_nm = {t.template for t in ALL if t.app == app and t.tools and t.tools.near_misses}
    templates = {t.template for t in ALL if t.app == app and t.tools and not t.tools.unsupported}
    assert templates <= templates_with_nm, f"templates with no tool near-miss: {sorted(templates - templates_with_nm)}"
