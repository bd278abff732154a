"""The task schema and loader: good files load, bad ones are refused with the file, task, field and reason."""

from __future__ import annotations

import json

import pytest

from tasks import TaskLoadError, load_tasks, select_tasks
from tasks.loader import load_file
from tasks.schema import SolutionStep, Task

GOOD = {
    "id": "mail/star-something",
    "app": "mail",
    "difficulty": "easy",
    "goal": "Star the email from Ana.",
    "start_path": "/inbox",
    "verify": {"checks": [{"table": "messages", "where": {"id": 3}, "expect": {"is_starred": True}}]},
    "solution": [{"click": {"role": "button", "name": "Star"}}, {"done": True}],
}


def write(tmp_path, name, data):
    d = tmp_path / "mail"
    d.mkdir(exist_ok=True)
    p = d / name
    p.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return p


def test_good_file_loads_single_and_list(tmp_path):
    write(tmp_path, "a.json", GOOD)
    write(tmp_path, "b.json", [dict(GOOD, id="mail/other-1"), dict(GOOD, id="mail/other-2")])
    tasks = load_tasks(tmp_path)
    assert [t.id for t in tasks] == ["mail/other-1", "mail/other-2", "mail/star-something"]
    assert tasks[0].solution[0].kind == "click" and tasks[0].solution[-1].kind == "done"


@pytest.mark.parametrize("patch, needle", [
    ({"difficulty": "trivial"}, "difficulty"),
    ({"id": "Mail/Bad Id"}, "must look like '<app>/<lowercase-name>'"),
    ({"id": "food/x", "app": "mail"}, "must start with its app 'mail/'"),
    ({"start_path": "/_gym/health"}, "start_path"),
    ({"solution": [{"click": {"role": "button", "name": "Star"}}]}, "must end with a 'done' step"),
    ({"solution": [{"click": {"name": "Star"}}, {"done": True}]}, "a target needs one of role"),
    ({"solution": [{"click": {"role": "button"}, "press": ["Enter"]}, {"done": True}]}, "exactly one of"),
    ({"verify": {"checks": [{"table": "messages", "expect": {"x": {"$nearly": 3}}}]}}, "$nearly"),
    ({"goal": ""}, "goal"),
    ({"surprise": 1}, "surprise"),
])
def test_bad_task_is_refused_with_file_task_field_and_reason(tmp_path, patch, needle):
    bad = dict(GOOD, **patch)
    path = write(tmp_path, "bad.json", bad)
    with pytest.raises(TaskLoadError) as e:
        load_file(path)
    msg = str(e.value)
    assert str(path) in msg and needle in msg


def test_invalid_json_names_line_and_column(tmp_path):
    path = write(tmp_path, "broken.json", '{"id": "mail/x",\n  "app": }')
    with pytest.raises(TaskLoadError, match=r"broken.json: not valid JSON \(line 2, column"):
        load_file(path)


def test_duplicate_ids_are_refused(tmp_path):
    write(tmp_path, "a.json", GOOD)
    write(tmp_path, "b.json", GOOD)
    with pytest.raises(TaskLoadError, match="duplicate task id 'mail/star-something'"):
        load_tasks(tmp_path)


def test_select_by_glob_split_and_app(tmp_path):
    write(tmp_path, "a.json", [dict(GOOD, id="mail/a-1"), dict(GOOD, id="mail/b-1", split="test")])
    pool = load_tasks(tmp_path)
    assert [t.id for t in select_tasks("mail/a-*", tasks=pool)] == ["mail/a-1"]
    assert [t.id for t in select_tasks("mail/*", split="test", tasks=pool)] == ["mail/b-1"]
    assert [t.id for t in select_tasks("mail/a-*,mail/b-*", tasks=pool)] == ["mail/a-1", "mail/b-1"]
    assert select_tasks("*", app="food", tasks=pool) == []


def test_solution_step_kinds():
    assert SolutionStep.model_validate({"fill": {"label": "To"}, "text": "a@b.c"}).kind == "fill"
    assert SolutionStep.model_validate({"scroll": None, "dy": 300}).kind == "scroll"
    assert SolutionStep.model_validate({"done": True, "answer": "42"}).answer == "42"
    with pytest.raises(ValueError, match="needs 'text'"):
        SolutionStep.model_validate({"fill": {"label": "To"}})
    with pytest.raises(ValueError, match="'answer' goes with 'done'"):
        SolutionStep.model_validate({"press": ["Enter"], "answer": "x"})


def test_bundled_tasks_are_valid():
    """Every committed task file passes the schema (the CLI's `uigym tasks check`)."""
    tasks = load_tasks()
    assert len({t.id for t in tasks}) == len(tasks)
    for t in tasks:
        assert isinstance(t, Task)


@pytest.mark.parametrize("wrong,suggested", [
    ("food/reorder", "food/reorder-swap-drink-00"),          # a template's stem: its instances
    ("food/rate-order-9", "food/rate-order-00"),             # an instance it does not have
    ("crm/convert-lead-", "crm/convert-lead-existing-account-00"),
    ("nope/x", None),                                        # nothing like it: no guess
    ("mail/", None),
])
def test_an_unknown_task_id_suggests_only_ids_like_it(wrong, suggested):
    from tasks import load_task

    with pytest.raises(TaskLoadError) as e:
        load_task(wrong)
    msg = str(e.value)
    if suggested is None:
        assert "did you mean" not in msg, msg
    else:
        assert suggested in msg.split("did you mean", 1)[1], msg
