"""Play mail tasks' tool plans in-process (no browser, no server): reset a world with the task's fixtures, run
the calls with TOOLS.call, grade the end state with the task's verifier (a judged task's judge answers from its
labelled calibration texts, as `uigym tasks validate` does). Used by test_tool_oracle.py and, by hand:

    python -m tests.apps.mail.tool_oracle [template ...]     # from templates, without writing task files
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

from apps._shared.tools import ToolError
from tasks.schema import Task
from grading import verify


@dataclass
class Played:
    kind: str  # solution | noop | near_miss[i]
    expected: float
    score: float = 0.0
    errors: list[str] = field(default_factory=list)
    report: str = ""

    @property
    def ok(self) -> bool:
        # The gold must also play cleanly: a ToolError in it is a broken solution even when it grades 1.
        return self.score == self.expected and not (self.kind == "solution" and self.errors)


def play(app, task: Task, calls: list | None, world: str = "tool-oracle") -> Played:
    from apps.mail.tools import TOOLS

    store = app.extensions["uigym_worlds"]
    store.reset(world, task.seed, task.now.isoformat() if task.now else None, task.fixtures)
    start = store.state(world)
    answer = None
    errors = []
    for c in calls or []:
        if c.tool == "done":
            answer = c.args.get("answer")
            break
        try:
            TOOLS.call(app, world, c.tool, c.args)
        except ToolError as e:
            errors.append(f"{c.tool}: {e}")
    judge = None
    if task.verify.has_judge:
        from tasks.calibration import ExampleJudge

        judge = ExampleJudge(task)
    result = verify(task.verify, start, store.state(world), answer, judge=judge)
    report = "\n".join(f"   {'ok' if ch.passed else 'XX'} {ch.name}: {ch.detail}" for ch in result.checks)
    return Played("", 0.0, float(result.score), errors, report)


def check(app, task: Task) -> list[Played]:
    """The task's tool solution (expected 1), the do-nothing run (0) and every tool near-miss (0)."""
    plan = task.tools
    out = []
    for kind, calls, expected in [("solution", plan.solution, 1.0), ("noop", [], 0.0),
                                  *[(f"near_miss[{i}]", nm, 0.0) for i, nm in enumerate(plan.near_misses)]]:
        p = play(app, task, calls)
        p.kind, p.expected = kind, expected
        out.append(p)
    return out


def _main(names: list[str]) -> int:
    import tempfile

    from apps.mail import create_app
    from tasks.templates.base import instances_of, load_templates

    app = create_app({"UIGYM_HOME": tempfile.mkdtemp(prefix="uigym-tools-"), "GYM_TOKEN": "t", "TESTING": True})
    bad = total = 0
    for info in load_templates("mail"):
        if names and info.name not in names:
            continue
        for t in instances_of(info):
            task = Task.model_validate(t)
            if task.tools is None or task.tools.unsupported:
                print(f"{task.id}: no tool plan ({task.tools.unsupported if task.tools else 'missing'})")
                bad += task.tools is None
                continue
            for p in check(app, task):
                total += 1
                if not p.ok:
                    bad += 1
                    print(f"FAIL {task.id} [{p.kind}] score {p.score} (expected {p.expected}) {p.errors}\n{p.report}")
    print(f"{total - bad}/{total} tool probes as expected")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
