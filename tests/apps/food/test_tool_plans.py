"""Every bundled Forkful task has a tool plan whose calls are well-formed (fast: no world); the slow test
plays them all in process (tool oracle 1, noop 0, near-misses 0; `uigym tasks validate --mode tools` does
the same through the tools env)."""

from __future__ import annotations

import pytest

from apps.food.tools import TOOLS
from tasks.loader import load_tasks

TASKS = [t for t in load_tasks() if t.app == "food"]


def test_every_task_has_a_checked_tool_plan():
    assert TASKS
    for t in TASKS:
        assert t.tools is not None and not t.tools.unsupported, t.id
        if t.near_misses:
            assert t.tools.near_misses, f"{t.id}: UI near-misses but no tool near-miss"
        for calls in [t.tools.solution, *t.tools.near_misses]:
            for c in calls[:-1]:
                TOOLS.check(c.tool, c.args)  # a known tool, arguments of the right names and types


@pytest.mark.slow
def test_tool_oracle_noop_and_near_misses(app):
    from tests.apps.food.tool_oracle import check

    assert check(app, TASKS) == []
