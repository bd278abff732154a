"""The uigym env on the real clones: a sample of every app (each app's first task, first instance) run by
verifiers' eval loop. The gold replies are uigym's oracle's own actions (played once by `uigym eval --agent
oracle`, then written in the json format, one per turn: the worlds are seeded, so the same pixels do the
same): 1.0 from the verifier, as `uigym eval` gives the same replies; nonsense: 0, no crash, nothing leaked.
Tools mode: each app's first task with a tool plan, the plan as function calls (apps whose tools have not
arrived yet are skipped, saying so)."""

from __future__ import annotations

import pytest

import uigym_env  # noqa: F401
from agent_harness.formats import render
from agent_harness.runner import EvalConfig, run_eval
from agent_harness.trajectory import Trajectory
from tasks.loader import select_tasks
from tests.harness.fake_openai import FakeOpenAI, texts_in
from tests.hub.test_uigym_env import turns, vf_eval
from uigym_env.harness import close_runtimes
from uigym_env.loader import env_config

pytestmark = pytest.mark.slow
APPS = ("mail", "food", "crm")


def sample_tasks():
    """Each app's first task, and the workspace's first (its tab switches written as the format's Ctrl+N)."""
    return [select_tasks("*", app=app)[0] for app in (*APPS, "workspace")]


@pytest.fixture
async def cleanup():
    yield
    await close_runtimes()


async def test_oracle_actions_as_replies_earn_1_on_every_app(tmp_path, cleanup):
    tasks = sample_tasks()
    rows = await run_eval(EvalConfig(agent="oracle", tasks=tasks, out=tmp_path / "oracle", workers=1,
                                     save_screenshots=False))
    plans = {}
    for row in rows:
        assert row["reward"] == 1.0, row
        traj = Trajectory.load(tmp_path / "oracle" / row["episode_dir"] / "trajectory.json")
        plans[row["task_id"]] = [s.action for s in traj.steps]
    goals = {t.goal: t.id for t in tasks}

    def gold(body: dict) -> dict:
        text = texts_in(body)
        tid = next(i for goal, i in goals.items() if goal in text)
        return render("json", plans[tid][turns(body)]).message()

    cfg = env_config(tasks=",".join(t.id for t in tasks))
    with FakeOpenAI([gold] * 200) as api:
        traces = await vf_eval(tmp_path / "vf", api, cfg)
    assert {tid: (tr.ok, tr.reward) for tid, tr in traces.items()} == {t.id: (True, 1.0) for t in tasks}
    assert all(tr.state.world_closed and tr.state.verify["passed"] for tr in traces.values())

    with FakeOpenAI([gold] * 200) as api:
        same = await run_eval(EvalConfig(agent="openai", tasks=tasks, out=tmp_path / "uigym", workers=1,
                                         agent_kwargs={"base_url": api.base_url, "format": "json"}))
    assert {r["task_id"]: r["reward"] for r in same} == {tid: tr.reward for tid, tr in traces.items()}

    with FakeOpenAI(["no idea"] * 200) as api:
        bad = await vf_eval(tmp_path / "bad", api, env_config(tasks=cfg.taskset.tasks, max_turns=2))
    assert {tid: (tr.ok, tr.reward, tr.state.world_closed) for tid, tr in bad.items()} == \
        {t.id: (True, 0.0, True) for t in tasks}


@pytest.mark.parametrize("app", [*APPS, "workspace"])  # the workspace: its three apps' tools, app-prefixed
async def test_tool_plans_as_function_calls_earn_1_in_tools_mode(tmp_path, cleanup, app):
    """Tools mode on a clone: its first task's tool plan, one call per turn, as the model's function calls:
    1.0 from the verifier, as `uigym eval --mode tools` gives the same replies. Skipped for an app whose
    tools have not arrived yet (apps/<app>/tools.py, the tool-mode work)."""
    import json

    planned = [t for t in select_tasks("*", app=app) if t.tools and t.tools.solution]
    if not planned:
        pytest.skip(f"no {app} task has a tool plan yet")
    task = planned[0]
    plan = [s.model_dump(mode="json") if hasattr(s, "model_dump") else s for s in task.tools.solution]

    def gold(body: dict) -> dict:
        step = plan[turns(body)]
        return {"role": "assistant", "content": "", "tool_calls": [{
            "id": f"c{turns(body)}", "type": "function",
            "function": {"name": step["tool"], "arguments": json.dumps(step.get("args") or {})}}]}

    with FakeOpenAI([gold] * 100) as api:
        traces = await vf_eval(tmp_path / "vf", api, env_config(mode="tools", tasks=task.id))
    (tr,) = traces.values()
    assert tr.ok and tr.reward == 1.0 and tr.state.verify["passed"] and tr.state.world_closed, tr.last_error
    with FakeOpenAI([gold] * 100) as api:
        (row,) = await run_eval(EvalConfig(agent="openai", mode="tools", tasks=[task], out=tmp_path / "uigym",
                                           workers=1, agent_kwargs={"base_url": api.base_url}))
    assert row["reward"] == tr.reward
