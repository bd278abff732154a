"""Grading reads only the tables an episode wrote (apps/_shared/written.py): proven equal to reading the whole
world. Hypothesis draws bundled tasks of every app and plays one of their tool plans (the gold solution or a
near-miss, real writes of every kind) through the control API; the start state with the written tables read
again must be exactly the whole end state."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps import load_app_module
from grading.written import merge_written
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
    rows = ctl.get("/worlds/w/state?written=1&rows=1", headers=H).json
    written = list(part["_written"])
    assert _merged(start, part) == whole
    # The rows that differ from the start, put back into the start state by the gym's one merge, are the whole
    # world too; the tables keyed by id come as changed rows only.
    assert rows["_written"] == written
    assert merge_written(start, rows) == whole
    assert set(rows["_rows"]) | {k for k in rows if not k.startswith("_")} == set(written)
    for table, d in rows["_rows"].items():
        assert len(d["upsert"]) + len(d["deleted"]) <= len(start[table]) + len(whole[table])
    # and it is no trivial "everything": a plan writes a few tables, not the world
    assert len(written) < len([k for k in whole if not k.startswith("_")])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_the_changed_rows_rebuild_any_end_the_tools_reach(apps, data):
    """Any sequence of the bundled plans' calls (several tasks' steps in one world: writes, rewrites of a row
    written before, deletions, a refusal), read back as the rows that differ from the start, rebuilds exactly
    the whole world: rows=1 never drops, invents or reorders a row."""
    app = data.draw(st.sampled_from(["mail", "food", "crm"]))
    mine = [t for t in TASKS if t.app == app]
    ctl = apps[app].extensions["uigym_control"].test_client()
    task = data.draw(st.sampled_from(mine))
    _reset(ctl, "wr", task)
    start = ctl.get("/worlds/wr/state", headers=H).json
    calls = [c for t in mine[:40] for plan in [t.tools.solution, *t.tools.near_misses] for c in plan
             if c.tool != "done"]
    for call in data.draw(st.lists(st.sampled_from(calls), max_size=8)):
        ctl.post(f"/worlds/wr/tools/{call.tool}", json=call.args, headers=H)
    whole = ctl.get("/worlds/wr/state", headers=H).json
    assert merge_written(start, ctl.get("/worlds/wr/state?written=1&rows=1", headers=H).json) == whole


def test_rows_needs_written_and_takes_0_or_1(apps):
    ctl = apps["mail"].extensions["uigym_control"].test_client()
    ctl.post("/worlds/w5/reset", json={}, headers=H)
    assert ctl.get("/worlds/w5/state?rows=1", headers=H).status_code == 400
    assert ctl.get("/worlds/w5/state?written=1&rows=yes", headers=H).status_code == 400
    assert ctl.get("/worlds/w5/state?written=1&rows=1", headers=H).json["_rows"] == {}


def test_changed_rows_are_read_against_the_start_after_the_fixtures(apps):
    """A world reset with fixtures starts from them, not from its snapshot: a fixture row is no change."""
    task = next(t for t in TASKS if t.fixtures and t.app == "mail")
    ctl = apps["mail"].extensions["uigym_control"].test_client()
    _reset(ctl, "w6", task)
    start = ctl.get("/worlds/w6/state", headers=H).json
    tid = start["threads"][0]["id"]
    assert ctl.post("/worlds/w6/tools/star", json={"thread_ids": [tid]}, headers=H).status_code == 200
    rows = ctl.get("/worlds/w6/state?written=1&rows=1", headers=H).json
    assert merge_written(start, rows) == ctl.get("/worlds/w6/state", headers=H).json
    changed = rows["_rows"]["messages"]["upsert"]
    assert changed and all(r["thread_id"] == tid for r in changed)


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
