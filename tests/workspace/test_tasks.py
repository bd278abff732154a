"""Workspace tasks (README "Workspace tasks"): one spec over the three worlds' joint state, each app's side-effect
rule kept, and the task schema's rules for them. No browser: the episodes are tests/tasks/test_task_validity.py's
(its `workspace` batch) and tests/tasks/test_tool_validity.py's."""

from __future__ import annotations

import copy

import pytest
from pydantic import ValidationError

from grading import joint_state, split_table, verify
from tasks import Task
from tasks.loader import select_tasks
from tasks.templates.base import World
from tasks.templates.workspace.common import scoped
from tasks.workspace import segments

MAIL = {"messages": [{"id": 1, "body": "hi", "seen_at": 1}], "_meta": {"app": "mail", "volatile": {"messages": ["seen_at"]}}}
CRM = {"cases": [{"id": 7, "status": "New"}, {"id": 8, "status": "New"}], "_meta": {"app": "crm"}}


def _end(**changes) -> dict:
    s = {"mail": copy.deepcopy(MAIL), "crm": copy.deepcopy(CRM)}
    for key, rows in changes.items():
        app, table = split_table(key.replace("__", "."))
        s[app][table] = rows
    return joint_state(s)


SPEC = {"checks": [{"table": "crm.cases", "where": {"id": 7}, "expect": {"status": "Escalated"}}],
        "unchanged_except": [{"table": "crm.cases", "where": {"id": 7}, "fields": ["status"]}]}


def test_joint_state_names_tables_by_app_and_keeps_volatile_fields():
    j = _end()
    assert set(j) == {"mail.messages", "crm.cases", "_meta"}
    assert j["_meta"]["volatile"] == {"mail.messages": ["seen_at"]} and set(j["_meta"]["apps"]) == {"mail", "crm"}
    with pytest.raises(ValueError):
        split_table("cases")


def test_one_spec_grades_every_apps_side_effects():
    start = _end()
    ok = _end(crm__cases=[{"id": 7, "status": "Escalated"}, {"id": 8, "status": "New"}])
    assert verify(SPEC, start, ok, None).passed
    # the same change plus a message written in the other app: no allowance there, so it fails
    mail_too = _end(crm__cases=ok["crm.cases"], mail__messages=[*MAIL["messages"], {"id": 2, "body": "x"}])
    r = verify(SPEC, start, mail_too, None)
    assert not r.passed and "mail.messages row 2 created" in r.summary()
    # a volatile field of one app changes nothing
    seen = _end(crm__cases=ok["crm.cases"], mail__messages=[{"id": 1, "body": "hi", "seen_at": 2}])
    assert verify(SPEC, start, seen, None).passed
    # the wrong record
    assert not verify(SPEC, start, _end(crm__cases=[{"id": 7, "status": "New"}, {"id": 8, "status": "Escalated"}]),
                      None).passed


def test_scoped_prefixes_every_table_key_refs_too():
    piece = {"table": "messages", "where": {"label_id": {"$ref": {"table": "labels", "field": "id"}}}}
    assert scoped("mail", piece) == {"table": "mail.messages",
                                     "where": {"label_id": {"$ref": {"table": "mail.labels", "field": "id"}}}}
    assert scoped("crm", [{"table": "crm.cases"}]) == [{"table": "crm.cases"}]  # already scoped: as it is


def test_schema_rules_for_workspace_tasks():
    base = {"id": "workspace/x-00", "app": "workspace", "difficulty": "long", "goal": "Do two things.",
            "verify": SPEC, "solution": [{"switch_tab": "crm"}, {"done": True}]}
    assert Task.model_validate(base).difficulty == "long"
    for bad in ({"verify": {"checks": SPEC["checks"]}},  # no unchanged_except: an app's side effects unchecked
                {"solution": [{"switch_tab": "calendar"}, {"done": True}]},
                {"now": "2026-03-12T10:00:00"}):
        with pytest.raises(ValidationError):
            Task.model_validate({**base, **bad})
    with pytest.raises(ValidationError, match="single-app task has one tab"):
        Task.model_validate({**base, "id": "crm/x-00", "app": "crm"})


def test_segments_split_steps_by_tab():
    steps = [{"click": {"role": "a"}}, {"switch_tab": "crm"}, {"click": {"role": "b"}}, {"done": True}]
    assert [(app, [i for i, _ in run]) for app, run in segments(steps)] == [("mail", [0, 1]), ("crm", [2, 3])]


def test_a_workspace_world_is_the_three_apps_tables():
    w = World.build("workspace", 0)
    assert {t.split(".")[0] for t in w.rows} == {"mail", "food", "crm"}
    assert w.of("crm").table("cases") == w.table("crm.cases")


def test_bundled_workspace_tasks_switch_tabs_and_carry_every_kind():
    tasks = select_tasks("workspace/*")
    assert tasks
    for t in tasks:
        assert any(s.switch_tab for s in t.solution), t.id
        kinds = {a.kind for a in t.adversarial}
        assert "extra" in kinds and kinds & {"wrong_record", "wrong_app"}, t.id
        assert t.harmless and t.near_misses and t.tools and t.tools.solution, t.id
