"""The tool oracle, in process: play a task's tool solution, its near-misses and the do-nothing agent through
`TOOLS.call` on a fresh world and grade each with the task's verifier (judged tasks answered from their
labelled calibration texts, as `tasks validate` does). Until `tasks validate --mode tools` plays them through
the control API, this is the proof that every crm task's gold calls grade 1 and the rest 0.

    python -m tests.apps.crm.tool_oracle [TEMPLATE ...]     # prints each task's grades and any failure
"""

from __future__ import annotations

import itertools
import sys
from dataclasses import dataclass, field

from apps.crm.tools import TOOLS
from tasks.calibration import ExampleJudge
from tasks.schema import Task
from grading.engine import verify

_n = itertools.count()


@dataclass
class Played:
    kind: str
    expected: float
    score: float = 0.0
    error: str | None = None
    report: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.error is None and abs(self.score - self.expected) < 1e-9


def _start_state(app, store, wid: str, task: Task) -> dict:
    """The world as reset for `task`: the same for every task of one seed, now and fixtures, so read once."""
    import json

    cache = app.extensions.setdefault("crm_tool_oracle_starts", {})
    key = json.dumps([task.seed, str(task.now), [f.model_dump() if hasattr(f, "model_dump") else f for f in task.fixtures]],
                     sort_keys=True, default=str)
    if key not in cache:
        cache[key] = store.state(wid)
    return cache[key]


def play(app, task: Task, calls: list) -> tuple[float, list[str]]:
    """Reset a world for `task`, run `calls` (the last one is done), grade. A failing call raises."""
    store = app.extensions["uigym_worlds"]
    wid = f"tools-{next(_n)}"
    store.reset(wid, task.seed, task.now, [f.model_dump() if hasattr(f, "model_dump") else f for f in task.fixtures])
    try:
        start = _start_state(app, store, wid, task)
        answer = None
        acted = False
        for c in calls:
            if c.tool == "done":
                answer = c.args.get("answer")
                break
            TOOLS.call(app, wid, c.tool, c.args)
            acted = True
        end = store.state(wid) if acted else start
        judge = ExampleJudge(task) if task.verify.has_judge else None
        res = verify(task.verify, start, end, answer, judge=judge)
        return res.score, [f"{'ok' if ch.passed else 'FAIL'} {ch.name}: {ch.detail}" for ch in res.checks]
    finally:
        store.drop(wid)


def check_task(app, task: Task) -> list[Played]:
    plan = task.tools
    if plan is None or plan.unsupported:
        return []
    runs = [("oracle", 1.0, plan.solution), ("noop", 0.0, [])]
    runs += [(f"near_miss[{i}]", 0.0, nm) for i, nm in enumerate(plan.near_misses)]
    out = []
    for kind, expected, calls in runs:
        p = Played(kind, expected)
        try:
            p.score, p.report = play(app, task, list(calls))
        except Exception as e:  # noqa: BLE001 - a failing run is a result
            p.error = f"{type(e).__name__}: {e}"
        out.append(p)
    return out


def crm_tasks(templates: list[str] | None = None) -> list[Task]:
    """The bundled crm tasks (tasks/crm/*.json), or those of the named templates."""
    from tasks.loader import load_file
    from tasks.templates.base import TASKS_DIR

    out = []
    for path in sorted((TASKS_DIR / "crm").glob("*.json")):
        if templates and path.stem not in templates:
            continue
        out += load_file(path)
    return out


def main(argv: list[str]) -> int:
    import tempfile

    from apps.crm import create_app

    app = create_app({"UIGYM_HOME": tempfile.mkdtemp(prefix="uigym-crm-tools-"), "GYM_TOKEN": "t", "TESTING": True})
    bad = 0
    tasks = crm_tasks(argv or None)
    counts = {"oracle": 0, "noop": 0, "nm": 0, "nm_total": 0, "covered": 0}
    for t in tasks:
        played = check_task(app, t)
        if not played:
            print(f"{t.id}: no tool plan" + (f" (unsupported: {t.tools.unsupported})" if t.tools else ""))
            bad += 1 if t.tools is None else 0
            continue
        counts["covered"] += 1
        for p in played:
            if p.kind == "oracle":
                counts["oracle"] += p.ok
            elif p.kind == "noop":
                counts["noop"] += p.ok
            else:
                counts["nm_total"] += 1
                counts["nm"] += p.ok
            if not p.ok:
                bad += 1
                print(f"{t.id} [{p.kind}] expected {p.expected}, got {p.score} {p.error or ''}")
                for line in p.report:
                    print("    " + line)
    print(f"{len(tasks)} tasks, {counts['covered']} with tool plans: oracle 1 in {counts['oracle']}, noop 0 in {counts['noop']}, "
          f"near-misses 0 in {counts['nm']}/{counts['nm_total']}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
