"""The bundled mail tasks' tool plans, played in-process (tests/apps/mail/tool_oracle.py): the gold calls grade 1
and run without a refused call, doing nothing grades 0, every tool near-miss grades 0. The default run plays the
first task of every template; `-m slow` plays them all (`uigym tasks validate --mode tools` does the same
through the control API)."""

from __future__ import annotations

import pytest

from tasks.loader import load_tasks
from tests.apps.mail.tool_oracle import check

TASKS = [t for t in load_tasks() if t.app == "mail"]
FIRSTS = [t for t in TASKS if t.id.endswith("-00")]
OTHERS = [t for t in TASKS if not t.id.endswith("-00")]


def _prove(app, task):
    assert task.tools is not None and not task.tools.unsupported, f"{task.id} has no tool plan"
    bad = [f"[{p.kind}] score {p.score} (expected {p.expected}) {p.errors}\n{p.report}" for p in check(app, task) if not p.ok]
    assert not bad, "\n".join(bad)


def test_every_template_has_a_first_task():
    assert {t.template for t in TASKS} == {t.template for t in FIRSTS}


# In process; the default suite proves every task's plan through the tools env (tests/tasks/test_tool_validity.py).
@pytest.mark.slow
@pytest.mark.parametrize("task", FIRSTS, ids=lambda t: t.id)
def test_tool_plan(task, app):
    _prove(app, task)


@pytest.mark.slow
@pytest.mark.parametrize("task", OTHERS, ids=lambda t: t.id)
def test_tool_plan_all(task, app):
    _prove(app, task)
