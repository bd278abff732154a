"""The template registry, the world view templates read, and the generator."""

from __future__ import annotations

import datetime as dt
import importlib
import json
import pkgutil
import random
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable

TASKS_DIR = Path(__file__).resolve().parent.parent


@dataclass
class TemplateInfo:
    app: str
    name: str
    difficulty: str
    fn: Callable[["World", random.Random], Iterable[dict]]
    max_steps: int = 30
    count: int = 5  # instances generated
    seed: int = 0  # the world the variants are drawn from
    test_every: int = 5  # every n-th instance goes to the test split
    tags: tuple[str, ...] = ()
    description: str = ""
    # A draft is written to tasks/_drafts/<app>/, outside the bundle: its instances have not yet been
    # proven (oracle 1 / noop 0 / near-miss 0) and no eval, test or training run draws them.
    draft: bool = False


TEMPLATES: dict[str, TemplateInfo] = {}


def template(app: str, name: str, *, difficulty: str, max_steps: int = 30, count: int = 5, seed: int = 0,
             tags: tuple[str, ...] = (), test_every: int = 5, draft: bool = False):
    def register(fn):
        key = f"{app}/{name}"
        if key in TEMPLATES and TEMPLATES[key].fn.__qualname__ != fn.__qualname__:
            raise ValueError(f"template {key} is defined twice")
        TEMPLATES[key] = TemplateInfo(app, name, difficulty, fn, max_steps, count, seed, test_every, tags,
                                      (fn.__doc__ or "").strip(), draft)
        return fn

    return register


@dataclass
class World:
    """The seeded rows of one world, exactly as the app's database holds them after reset."""

    app: str
    seed: int
    now: dt.datetime
    rows: dict[str, list[dict[str, Any]]]
    _index: dict[str, dict[Any, dict]] = field(default_factory=dict, repr=False)
    _apps: dict[str, "World"] = field(default_factory=dict, repr=False)  # a workspace world's parts (`of`)

    @classmethod
    def build(cls, app: str, seed: int = 0, now: dt.datetime | None = None) -> "World":
        return _build_world(app, seed, now)

    def table(self, name: str) -> list[dict[str, Any]]:
        return self.rows.get(name, [])

    def get(self, table: str, id_: Any) -> dict[str, Any]:
        if table not in self._index:
            self._index[table] = {r["id"]: r for r in self.table(table)}
        return self._index[table][id_]

    def where(self, table: str, **eq: Any) -> list[dict[str, Any]]:
        return [r for r in self.table(table) if all(r.get(k) == v for k, v in eq.items())]

    def of(self, app: str) -> "World":
        """A workspace world's one app, as that app's own templates see a world (tables without the `<app>.`
        prefix), so the app's helpers (Mailbox, Crm, FW) read it as they read their own."""
        from grading.joint import SEP

        if app not in self._apps:
            rows = {t.split(SEP, 1)[1]: r for t, r in self.rows.items() if t.startswith(app + SEP)}
            self._apps[app] = World(app=app, seed=self.seed, now=self.now, rows=rows)
        return self._apps[app]


@lru_cache(maxsize=8)
def _build_world(app: str, seed: int, now: dt.datetime | None) -> World:
    from apps import load_app_module
    from tasks.schema import WORKSPACE

    if app == WORKSPACE:  # the three worlds of a workspace seed, as one joint state's tables (<app>.<table>)
        from grading.joint import SEP
        from seed_data import workspace as ws

        now = now or ws.NOW
        worlds = ws.build(seed, now)
        return World(app=app, seed=seed, now=now,
                     rows={f"{a}{SEP}{t}": r for a, rows in worlds.items() for t, r in rows.items()})

    spec = load_app_module(app).SPEC
    now = now or spec.default_now
    return World(app=app, seed=seed, now=now, rows=spec.build_world(seed, now))


def load_templates(app: str) -> list[TemplateInfo]:
    """Import tasks/templates/<app>/*.py (registering their templates) and return them by name."""
    pkg_name = f"tasks.templates.{app}"
    try:
        pkg = importlib.import_module(pkg_name)
    except ModuleNotFoundError:
        return []
    for mod in pkgutil.iter_modules(pkg.__path__):
        importlib.import_module(f"{pkg_name}.{mod.name}")
    return sorted((t for t in TEMPLATES.values() if t.app == app), key=lambda t: t.name)


def instances_of(info: TemplateInfo, seed: int | None = None, *, strict: bool = True) -> list[dict]:
    """The template's tasks as validated dicts, with ids, seeds and splits assigned.

    `seed` draws the instances from another world than the template's own (a fresh world): their
    ids name the seed (`mail/star-latest-from-00.s7`, see tasks/fresh.py), so every episode can be
    replayed. `strict=False` returns however many instances the world yields instead of raising.

    Every instance goes through the goal lint (tasks/goal_lint.py): a goal with a literal the answer check
    accepts (a format example that is the answer) raises in strict mode; a fresh world's leaking instance is
    left out.

    An instance may carry `distractors` (the world's competing answers, used for the generated
    hedge and shotgun answers, not stored) and `adversarial` (the template's own dishonest
    trajectories); see tasks/templates/adversarial.py.
    """
    from tasks.goal_lint import goal_leaks
    from tasks.schema import Task
    from tasks.templates.adversarial import answer_adversarials

    seed = info.seed if seed is None else seed
    suffix = "" if seed == info.seed else f".s{seed}"
    world = World.build(info.app, seed)
    rng = random.Random(f"{info.app}/{info.name}/{seed}")
    out: list[dict] = []
    for i, inst in enumerate(info.fn(world, rng)):
        if i >= info.count:
            break
        task = {
            "id": f"{info.app}/{info.name}-{i:02d}{suffix}",
            "app": info.app,
            "seed": seed,
            "difficulty": info.difficulty,
            "max_steps": info.max_steps,
            "template": info.name,
            "split": "test" if (i % info.test_every) == info.test_every - 1 else "train",
            "tags": list(info.tags),
        }
        inst = dict(inst)
        distractors = inst.pop("distractors", [])
        task.update(inst)
        task["adversarial"] = answer_adversarials(task["solution"], task.get("near_misses", []), distractors) \
            + list(inst.get("adversarial", []))
        valid = Task.model_validate(task)
        check_surface(valid, f"template {info.app}/{info.name}: {task['id']}")
        leaks = goal_leaks(valid, {**world.rows, "_meta": {"app": info.app, "seed": seed}})
        if leaks:
            if strict:
                raise ValueError(f"template {info.app}/{info.name}: {task['id']}: {'; '.join(leaks)} "
                                 f"(goal: {valid.goal!r})")
            continue
        out.append(json.loads(valid.model_dump_json(exclude_defaults=False, exclude_none=True)))
    if len(out) < info.count and strict:
        raise ValueError(f"template {info.app}/{info.name} yielded {len(out)} instances, {info.count} wanted")
    return out


def check_surface(task, where: str) -> None:
    """Every target of every UI step the task holds (solution, near-misses, adversarial and harmless
    variants) is a control its app declares (apps/<app>/surface.py): a misspelt or renamed control fails here,
    when the template writes its tasks, not when a browser plays them (apps/_shared/surface.py)."""
    from apps import app_surface
    from tasks.looks import step_dicts
    from tasks.workspace import is_workspace, segments

    runs = [list(task.solution), *map(list, task.near_misses), *(list(v.steps) for v in [*task.adversarial,
                                                                                           *task.harmless])]
    for steps in runs:
        # A workspace task's steps are checked run by run, each in the app whose tab it is taken in.
        for app, run in (segments(steps) if is_workspace(task) else [(task.app, list(enumerate(steps)))]):
            surface = app_surface(app)
            if surface is not None:
                surface.check(where, step_dicts([s for _, s in run if s.switch_tab is None]))


def generate(app: str, write: bool = True) -> dict[str, list[dict]]:
    """Every template of the app -> tasks/<app>/<template>.json. Returns {path: tasks}."""
    out: dict[str, list[dict]] = {}
    for info in load_templates(app):
        path = (TASKS_DIR / "_drafts" if info.draft else TASKS_DIR) / app / f"{info.name}.json"
        tasks = instances_of(info)
        out[str(path)] = tasks
        if write:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(tasks, indent=1, ensure_ascii=False) + "\n")
            other = (TASKS_DIR if info.draft else TASKS_DIR / "_drafts") / app / f"{info.name}.json"
            other.unlink(missing_ok=True)  # a template that became (or stopped being) a draft moves
    return out
