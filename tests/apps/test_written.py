"""Grading reads only the tables an episode wrote (apps/_shared/written.py): proven equal to reading the whole
world. Hypothesis draws bundled tasks of every app and plays one of their tool plans (the gold solution or a
near-miss, real writes of every kind) through the control API; the start state with the written tables read
again must be exactly the whole end state."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps import load_app_module
from tasks import load_tasks

TOKEN = "written-test-token"
H = {"X-Gym-Token": TOKEN}
# One app's tasks: a workspace task's plan writes in three worlds, graded over their joint state (its written tables
# per app are rescored in tests/eval/test_rescore.py).
TASKS = [t for t in load_tasks() if t.tools is not None and not t.tools.unsupported and t.app != "workspace"]


@pytest.fixture(scope="module")
def apps(tmp_path_factory):
    home = str(tmp_path_factory.mktemp("home"))
    return {name: load_app_module(name).create_app({"TESTING": True, "GYM_TOKEN": TOKEN, "UIGYM_HOME": home})
            for name in ("mail", "food", "crm")}


def _reset(ctl, world: str, task) -> None:
    body = {"seed": task.seed, "fixtures": task.fixtures}
    if task.now:
        body["now"] = task.now.isoformat()
    r = ctl.post(f"/worlds/{world}/reset", json=body, headers=H)
    assert r.status_code == 200, r.json


def _merged(start: dict, part: dict) -> dict:
    written = part.pop("_written")
    assert written is not None
    return {**start, **part}


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(task=st.sampled_from(TASKS), which=st.integers(min_value=0, max_value=3))
def test_the_written_tables_with_the_start_state_are_the_whole_world(apps, task, which):
    ctl = apps[task.app].extensions["uigym_control"].test_client()
    _reset(ctl, "w", task)
    start = ctl.get("/worlds/w/state", headers=H).json
    plans = [task.tools.solution] + list(task.tools.near_misses)
    for call in plans[which % len(plans)]:
        if call.tool == "done":
            break
        ctl.post(f"/worlds/w/tools/{call.tool}", json=call.args, headers=H)  # a refusal (422) writes nothing
    whole = ctl.get("/worlds/w/state", headers=H).json
    part = ctl.get("/worlds/w/state?written=1", headers=H).json
    written = list(part["_written"])
    assert _merged(start, part) == whole
    # and it is no trivial "everything": a plan writes a few tables, not the world
    assert len(written) < len([k for k in whole if not k.startswith("_")])


def test_a_fresh_reset_has_written_nothing_and_a_write_is_named(apps):
    ctl = apps["mail"].extensions["uigym_control"].test_client()
    ctl.post("/worlds/w2/reset", json={}, headers=H)
    assert ctl.get("/worlds/w2/state?written=1", headers=H).json["_written"] == []
    tid = ctl.get("/worlds/w2/state", headers=H).json["threads"][0]["id"]
    assert ctl.post("/worlds/w2/tools/star", json={"thread_ids": [tid]}, headers=H).status_code == 200
    assert "messages" in ctl.get("/worlds/w2/state?written=1", headers=H).json["_written"]
    ctl.post("/worlds/w2/reset", json={}, headers=H)  # a reset starts the record again
    assert ctl.get("/worlds/w2/state?written=1", headers=H).json["_written"] == []
    assert ctl.get("/worlds/w2/state?written=2", headers=H).status_code == 400


def test_unknown_after_a_server_restart_means_the_whole_world(apps, tmp_path):
    """An app server started after the world's reset (a restarted server) does not know what was written:
    it sends the whole world, never an empty change."""
    ctl = apps["mail"].extensions["uigym_control"].test_client()
    ctl.post("/worlds/w3/reset", json={}, headers=H)
    home = apps["mail"].config["UIGYM_HOME"]
    again = load_app_module("mail").create_app({"TESTING": True, "GYM_TOKEN": TOKEN, "UIGYM_HOME": home})
    part = again.extensions["uigym_control"].test_client().get("/worlds/w3/state?written=1", headers=H).json
    assert part["_written"] is None and "messages" in part and "contacts" in part


def test_a_statement_sqlite_had_prepared_before_is_still_counted(apps):
    """sqlite3 reuses a prepared statement without asking the authorizer again: the tables a statement text
    writes are remembered, so its second run (next episode, same connection) is counted too."""
    ctl = apps["mail"].extensions["uigym_control"].test_client()
    for _ in range(3):
        ctl.post("/worlds/w4/reset", json={}, headers=H)
        tid = ctl.get("/worlds/w4/state", headers=H).json["threads"][1]["id"]
        ctl.post("/worlds/w4/tools/archive", json={"thread_ids": [tid]}, headers=H)
        assert "messages" in ctl.get("/worlds/w4/state?written=1", headers=H).json["_written"]
