"""Load task files (tasks/<app>/*.json: one task object, or a list of them) with clear errors."""

from __future__ import annotations

import difflib
import fnmatch
import json
from functools import lru_cache
from pathlib import Path

from pydantic import ValidationError

from tasks.schema import Task

TASKS_DIR = Path(__file__).parent
SPLITS = ("train", "test", "heldout-seed", "heldout-template", "safety")
"""What `select_tasks(split=...)` (and `uigym eval --split`) accepts."""


class TaskLoadError(ValueError):
    """A task file that cannot be used: names the file, the task, the field and the reason."""


def task_files(root: Path | None = None) -> list[Path]:
    root = root or TASKS_DIR
    # Folders and files named "_..." are not bundled (tasks/_drafts/: templates not yet validated).
    return sorted(p for p in root.glob("*/**/*.json")
                  if not any(part.startswith("_") for part in p.relative_to(root).parts))


def _format_validation(e: ValidationError) -> str:
    lines = []
    for err in e.errors()[:8]:
        loc = ".".join(str(p) for p in err["loc"])
        lines.append(f"  {loc or '(task)'}: {err['msg']}")
    more = len(e.errors()) - 8
    if more > 0:
        lines.append(f"  ... and {more} more")
    return "\n".join(lines)


def load_file(path: Path) -> list[Task]:
    try:
        raw = json.loads(Path(path).read_text())
    except json.JSONDecodeError as e:
        raise TaskLoadError(f"{path}: not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})") from None
    items = raw if isinstance(raw, list) else [raw]
    tasks = []
    for i, item in enumerate(items):
        label = item.get("id", f"#{i}") if isinstance(item, dict) else f"#{i}"
        try:
            tasks.append(Task.model_validate(item))
        except ValidationError as e:
            raise TaskLoadError(f"{path}: task {label}:\n{_format_validation(e)}") from None
    return tasks


def load_tasks(root: Path | None = None, *, strict: bool = True) -> list[Task]:
    """Every task under root, sorted by id. Duplicated ids are an error. The bundled tasks (no root) are read and
    validated once per process (~1,600 files: seconds of pydantic each time, and every test module asked): a new
    list of the same Task objects, as `select_tasks` gives; nothing changes a loaded task in place (a variant is a
    `model_copy`)."""
    if root is None and strict:
        return list(_bundled())
    return _load_tasks(root, strict=strict)


def _load_tasks(root: Path | None, *, strict: bool) -> list[Task]:
    seen: dict[str, Path] = {}
    out: list[Task] = []
    errors: list[str] = []
    for path in task_files(root):
        try:
            file_tasks = load_file(path)
        except TaskLoadError as e:
            if strict:
                raise
            errors.append(str(e))
            continue
        for t in file_tasks:
            if t.id in seen:
                raise TaskLoadError(f"{path}: duplicate task id {t.id!r} (also in {seen[t.id]})")
            seen[t.id] = path
            out.append(t)
    return sorted(out, key=lambda t: t.id)


@lru_cache(maxsize=1)
def _bundled() -> tuple[Task, ...]:
    return tuple(_load_tasks(None, strict=True))


def select_tasks(pattern: str = "*", *, app: str | None = None, split: str | None = None,
                 difficulty: str | None = None, tasks: list[Task] | None = None) -> list[Task]:
    """Tasks whose id matches a glob (several globs separated by commas)."""
    from tasks.fresh import generalisation_split

    if split is not None and split not in SPLITS:
        raise TaskLoadError(f"unknown split {split!r}; the splits are {', '.join(SPLITS)}")
    pool = list(tasks) if tasks is not None else list(_bundled())
    globs = [g.strip() for g in pattern.split(",") if g.strip()] or ["*"]
    out = [
        t for t in pool
        if any(fnmatch.fnmatchcase(t.id, g) for g in globs)
        and (app is None or t.app == app)
        and (split is None or _in_split(t, split, generalisation_split(t)))
        and (difficulty is None or t.difficulty == difficulty)
    ]
    return out


def _in_split(task: Task, split: str, general: str) -> bool:
    """train/test are the instance split, minus what is held out (held-out templates and seeds are
    never training material) and the judgement tasks; heldout-seed / heldout-template / safety select those
    (tasks.fresh.generalisation_split: the one rule)."""
    if split in ("heldout-seed", "heldout-template", "safety"):
        return general == split
    return task.split == split and general in ("train", "test")


def load_task(task_id: str) -> Task:
    """A bundled task by id, or a fresh-world one (an id naming its seed, 'mail/x-00.s7': generated)."""
    for t in _bundled():
        if t.id == task_id:
            return t
    from tasks.fresh import fresh_task, parse_fresh_id

    if parse_fresh_id(task_id) is not None:
        try:
            return fresh_task(task_id)
        except ValueError as e:
            raise TaskLoadError(str(e)) from None
    ids = [t.id for t in _bundled()]
    stem = task_id.rstrip("0123456789-")  # "crm/convert-lead-00x" -> the ids of its template, where there is one
    close = [i for i in ids if len(stem) > len(task_id.split("/")[0]) + 1 and i.startswith(stem)][:5]
    close = close or difflib.get_close_matches(task_id, ids, n=5, cutoff=0.75)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    raise TaskLoadError(f"no task with id {task_id!r}{hint} (see `uigym tasks list`)")
