"""The tool oracle, in process: play a task's tool calls against a world and grade the end state with the
task's verifier, the way tool mode does (a refused call is the model's feedback, not the episode's end).

    python -m tests.apps.food.tool_oracle [task-id-glob]     # every bundled food task: oracle 1, noop 0, near-misses 0
"""

from __future__ import annotations

import fnmatch
import sys

from apps._shared.tools import ToolError
from apps.food.tools import TOOLS
from tasks.schema import Task
from grading import verify


def play(app, wid: str, task: Task, calls) -> float:
    store = app.extensions["uigym_worlds"]
    fixtures = [fx if isinstance(fx, dict) else fx.model_dump(exclude_none=True) for fx in task.fixtures]
    store.reset(wid, task.seed, task.now, fixtures)
    start = store.state(wid)
    answer = None
    for c in calls:
        if c.tool == "done":
            answer = c.args.get("answer")
            break
        try:
            TOOLS.call(app, wid, c.tool, c.args)
        except ToolError:
            pass
    judge = None
    if task.verify.has_judge:
        from tasks.calibration import ExampleJudge

        judge = ExampleJudge(task)
    return verify(task.verify, start, store.state(wid), answer, judge=judge).score


def check(app, tasks: list[Task], wid: str = "tool-oracle") -> list[str]:
    """Problems: a task without a tool plan, an oracle under 1, a noop or near-miss above 0."""
    bad = []
    for t in tasks:
        if t.tools is None:
            bad.append(f"{t.id}: no tools plan")
            continue
        if t.tools.unsupported:
            continue
        if (s := play(app, wid, t, t.tools.solution)) != 1.0:
            bad.append(f"{t.id}: tool oracle {s}")
        if (s := play(app, wid, t, [])) != 0.0:
            bad.append(f"{t.id}: noop {s}")
        for i, nm in enumerate(t.tools.near_misses):
            if (s := play(app, wid, t, nm)) != 0.0:
                bad.append(f"{t.id}: near_miss[{i}] {s}")
    return bad


def main(argv: list[str]) -> int:
    from apps.food import create_app
    from tasks.loader import load_tasks

    pattern = argv[0] if argv else "food/*"
    tasks = [t for t in load_tasks() if t.app == "food" and fnmatch.fnmatch(t.id, pattern)]
    app = create_app({"TESTING": True, "GYM_TOKEN": "tool-oracle"})
    bad = check(app, tasks)
    n_nm = sum(len(t.tools.near_misses) for t in tasks if t.tools)
    print(f"{len(tasks)} tasks, {n_nm} tool near-misses: {len(bad)} problems")
    for b in bad:
        print(" ", b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
