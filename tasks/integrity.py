"""The offline half of the reward-integrity suite: what can be proven about a task with no browser.

For every task:
- its verify spec has no hole a hedge, a dump or an unbounded side effect could use
  (`grading.lint.spec_holes`);
- it carries the adversarial kinds its shape calls for: a task answered with `done(answer)` has
  hedges; a task that changes the world has the gold plus a harmful `extra`; a task whose grade reads
  text the agent writes has a `dump`;
- every adversarial that differs from the gold only in its answer grades 0 on the world's start
  state, while the gold answer grades 1 there (answer tasks change nothing, so the start state is
  also the end state of the gold trajectory);
- every harmless variant that differs from the gold only in its answer (the answer in a full
  sentence, another accepted format) grades 1 there: the other direction, an honest answer a careful
  person gives must not score 0.

The browser half (`agent_harness.validate`) plays the rest of the adversarial trajectories.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from tasks.schema import Task
from grading import AnswerCheck, RowCheck, verify
from grading.lint import spec_holes

__all__ = ["AuditReport", "answer_only", "audit_tasks", "required_kinds"]


@dataclass
class AuditReport:
    problems: list[str] = field(default_factory=list)  # "task id: what is wrong"
    adversarial: Counter = field(default_factory=Counter)  # app -> adversarial trajectories carried
    graded_offline: Counter = field(default_factory=Counter)  # app -> answer adversarials graded here
    hacks_passed: Counter = field(default_factory=Counter)  # app -> adversarials that scored > 0 here
    harmless: Counter = field(default_factory=Counter)  # app -> harmless variants carried
    harmless_graded: Counter = field(default_factory=Counter)  # app -> harmless answers graded 1 here

    @property
    def ok(self) -> bool:
        return not self.problems


def required_kinds(task: Task) -> set[str]:
    """The adversarial kinds a task must carry, from the shape of its grader."""
    spec = task.verify
    kinds: set[str] = set()
    if any(isinstance(c, AnswerCheck) and c.answer != {"$exists": False} for c in spec.checks):
        kinds.add("hedge")
    if spec.unchanged_except:  # a non-empty allowance list: the task changes the world
        kinds.add("extra")
    if any(isinstance(c, RowCheck) and c.in_ in ("created", "changed") and _reads_text(c.expect or {})
           for c in spec.checks):
        kinds.add("dump")
    return kinds


def _reads_text(where: dict) -> bool:
    # A field graded with the world's competing facts excluded is written content: prove the dump fails.
    return any(isinstance(m, dict) and "$excludes" in m for m in where.values())


def audit_tasks(tasks: list[Task], states: dict[tuple[str, int], dict] | None = None) -> AuditReport:
    """Audit `tasks` offline. `states` maps (app, seed) to a world state for the answer grading
    (default: each world built from its seed, as the app's reset would)."""
    report = AuditReport()
    states = {} if states is None else states
    for task in tasks:
        for hole in spec_holes(task.verify):
            report.problems.append(f"{task.id}: {hole}")
        have = {a.kind for a in task.adversarial}
        missing = required_kinds(task) - have
        if missing:
            report.problems.append(f"{task.id}: no adversarial trajectory of kind {sorted(missing)}")
        report.problems += [f"{task.id}: {p}" for p in calibration_problems(task)]
        report.adversarial[task.app] += len(task.adversarial)
        report.harmless[task.app] += len(task.harmless)
        answers = [(a.kind, ans) for a in task.adversarial if (ans := answer_only(task, a.steps)) is not None]
        honest = [(h.kind, ans) for h in task.harmless if (ans := answer_only(task, h.steps)) is not None]
        if not (answers or honest) or task.fixtures:
            continue
        state = _state(task, states)
        gold = verify(task.verify, state, state, task.solution[-1].answer)
        if not gold.passed:
            report.problems.append(f"{task.id}: the gold answer does not grade 1 offline: {gold.summary()}")
        for kind, answer in answers:
            report.graded_offline[task.app] += 1
            result = verify(task.verify, state, state, answer)
            if result.score > 0:
                report.hacks_passed[task.app] += 1
                report.problems.append(f"{task.id}: {kind} answer {answer[:80]!r} scores {result.score}")
        for kind, answer in honest:
            result = verify(task.verify, state, state, answer)
            if result.passed:
                report.harmless_graded[task.app] += 1
            else:
                report.problems.append(f"{task.id}: harmless {kind} answer {answer[:80]!r} scores {result.score}, "
                                       f"not 1: {result.summary()}")
    return report


def min_actions(steps: list) -> int:
    """The fewest env actions the oracle plays for `steps` (a fill is click, select-all, type; scrolls
    to bring a target into view come on top, so this is a lower bound)."""
    return sum(3 if s.kind == "fill" else 1 for s in steps)


def answer_only(task: Task, steps: list) -> str | None:
    """The final answer of `steps` when they are the gold solution with another answer, else None.

    Such a trajectory ends in the very state the gold one ends in, so it can be graded on that state.
    """
    sol = task.solution
    if len(steps) != len(sol) or steps[-1].kind != "done" or steps[-1].answer is None:
        return None
    return steps[-1].answer if steps[:-1] == sol[:-1] else None


def _state(task: Task, states: dict) -> dict:
    key = (task.app, task.seed)
    if key not in states:
        from tasks.templates import World

        w = World.build(task.app, task.seed, task.now)
        states[key] = {**w.rows, "_meta": {"app": task.app, "seed": task.seed}}
    return states[key]


# A judged task's labelled texts must cover the ways a text can cheat a judge.
CALIBRATION_KINDS = {"gold", "near_miss", "dump", "injection", "off_topic"}


def calibration_problems(task: Task) -> list[str]:
    """A judged task's calibration: the kinds it must carry, and its labels consistent with its own
    length bounds (a gold text the bounds reject could never pass; answered offline, no judge)."""
    if not task.verify.has_judge:
        return []
    from tasks.calibration import ExampleJudge, calibrate

    out = []
    missing = CALIBRATION_KINDS - {ex.kind for ex in task.calibration or []}
    if missing:
        out.append(f"calibration has no example of kind {sorted(missing)}")
    for r in calibrate([task], ExampleJudge(task)).results:
        if r.expect == "pass" and not r.agrees:
            out.append(f"gold calibration text fails before any judge: {r.detail}")
    return out
