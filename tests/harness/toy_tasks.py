"""Tasks on the toy fixture app (tests/fixture_apps/toy.py), served under the app name "mail" via
EvalConfig.app_modules / `uigym eval --app-module mail=tests.fixture_apps.toy`. They run in a
second and do not depend on the real clones."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from tasks import Task

TOY_MODULE = "tests.fixture_apps.toy"
APP_MODULES = {"mail": TOY_MODULE}

TASKS = [
    {
        "id": "mail/toy-star-note-2", "app": "mail", "seed": 1, "difficulty": "easy",
        "goal": "Star the note titled 'Note 1-2'.", "start_path": "/", "max_steps": 5, "template": "toy-star",
        "verify": {"checks": [{"table": "notes", "where": {"id": 2}, "expect": {"starred": True}}],
                   "unchanged_except": [{"table": "notes", "where": {"id": 2}, "fields": ["starred"]}]},
        "solution": [{"click": {"role": "button", "name": "Star Note 1-2"}}, {"done": True}],
        "tools": {"solution": [{"tool": "list_notes"}, {"tool": "star_note", "args": {"note_id": 2}}, {"tool": "done"}],
                  "near_misses": [[{"tool": "star_note", "args": {"note_id": 3}}, {"tool": "done"}]]},
    },
    {
        "id": "mail/toy-add-note", "app": "mail", "seed": 1, "difficulty": "medium",
        "goal": "Add a note titled 'Buy milk'.", "start_path": "/", "max_steps": 8, "template": "toy-add",
        "verify": {"checks": [{"table": "notes", "where": {"title": "Buy milk"}, "count": 1}]},
        "solution": [{"fill": {"role": "textbox", "name": "Title"}, "text": "Buy milk"},
                     {"click": {"role": "button", "name": "Add"}}, {"done": True}],
        "tools": {"solution": [{"tool": "add_notes", "args": {"titles": ["Buy milk"]}}, {"tool": "done"}],
                  "near_misses": [[{"tool": "add_notes", "args": {"titles": ["Buy mlik"]}}, {"tool": "done"}]]},
    },
    {
        "id": "mail/toy-third-title", "app": "mail", "seed": 2, "difficulty": "easy",
        "goal": "What is the title of the third note? Answer with the title.", "start_path": "/", "max_steps": 4,
        "template": "toy-answer",
        "verify": {"checks": [{"answer": {"$eq": "Note 2-3"}}]},
        "solution": [{"done": True, "answer": "Note 2-3"}],
        "tools": {"solution": [{"tool": "list_notes"}, {"tool": "done", "args": {"answer": "Note 2-3"}}],
                  "near_misses": [[{"tool": "list_notes"}, {"tool": "done", "args": {"answer": "Note 2-2"}}]]},
    },
]


def toy_tasks() -> list[Task]:
    return [Task.model_validate(t) for t in TASKS]


def write_tasks_dir(root: Path) -> Path:
    """The toy tasks as task files (root/mail/toy.json), for `uigym eval --tasks-dir`."""
    d = Path(root) / "mail"
    d.mkdir(parents=True, exist_ok=True)
    (d / "toy.json").write_text(json.dumps(TASKS, indent=1))
    return Path(root)


def toy_task(base: dict, **kw) -> Task:
    """A variant of one of TASKS (a copy with some fields replaced), validated as a Task."""
    t = copy.deepcopy(base)
    t.update(kw)
    return Task.model_validate(t)
