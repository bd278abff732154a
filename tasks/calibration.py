"""Judge calibration: a judged task's labelled texts, run through its judge checks, against a judge.

Every judged task carries `calibration` examples: gold texts that must pass, and near-misses,
dumps, hedges, prompt injections, off-topic and over-long texts that must fail. `calibrate` grades
each example with each judge check of the task (the same path an episode's text takes: length bounds,
then the judge) and reports agreement, per task and in total. A judge that gives no verdict on an
example (timeout, malformed reply) disagrees: calibration counts it apart as ungraded.

`ExampleJudge` answers a judge request from a task's own labelled examples (unknown text: no
verdict). Browser validation uses it to prove the state-gated parts of a judged task (oracle 1, noop
0, near-misses and side-effect adversarials 0) with no model in the loop; the judge itself is proven
by calibration.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

from tasks.schema import Task
from grading import JudgeCheck
from grading.engine import judge_one
from grading.judge import CriterionVerdict, JudgeError, JudgeRequest, JudgeVerdict

__all__ = ["CalibrationReport", "ExampleJudge", "ExampleResult", "calibrate", "judged"]


def judged(tasks: list[Task]) -> list[Task]:
    return [t for t in tasks if t.verify.has_judge]


def _norm(s: str) -> str:
    return " ".join(s.split())


class ExampleJudge:
    """A judge that knows only the task's labelled texts: gold -> every criterion passes, others fail."""

    model = "labelled-examples"

    def __init__(self, task: Task) -> None:
        self.labels = {_norm(ex.text): ex for ex in task.calibration or []}

    def __call__(self, req: JudgeRequest) -> JudgeVerdict:
        ex = self.labels.get(_norm(req.text))
        if ex is None:
            raise JudgeError("the text is not one of the task's labelled examples (no real judge configured)")
        ok = ex.expect == "pass"
        return JudgeVerdict([CriterionVerdict(c, ok, f"labelled {ex.kind}") for c in req.criteria()], model=self.model)


@dataclass
class ExampleResult:
    task_id: str
    check: str
    kind: str
    expect: str
    outcome: str  # "pass" | "fail" | "ungraded"
    detail: str
    text: str

    @property
    def agrees(self) -> bool:
        return self.outcome == self.expect


@dataclass
class CalibrationReport:
    model: str
    results: list[ExampleResult] = field(default_factory=list)
    seconds: float = 0.0

    def _count(self, rs: list[ExampleResult]) -> dict[str, int]:
        gold = [r for r in rs if r.expect == "pass"]
        bad = [r for r in rs if r.expect == "fail"]
        return {"examples": len(rs), "agree": sum(r.agrees for r in rs),
                "gold": len(gold), "gold_passed": sum(r.outcome == "pass" for r in gold),
                "bad": len(bad), "bad_failed": sum(r.outcome == "fail" for r in bad),
                "false_passes": sum(r.outcome == "pass" for r in bad),
                "ungraded": sum(r.outcome == "ungraded" for r in rs)}

    def totals(self) -> dict[str, Any]:
        c = self._count(self.results)
        c["agreement"] = c["agree"] / c["examples"] if c["examples"] else 0.0
        c["by_kind"] = {k: {"examples": v, "agree": sum(r.agrees for r in self.results if r.kind == k)}
                        for k, v in sorted(Counter(r.kind for r in self.results).items())}
        return c

    @property
    def ok(self) -> bool:
        """Full agreement: every gold text passes, every bad text fails, nothing ungraded."""
        return bool(self.results) and all(r.agrees for r in self.results)

    def lines(self, max_disagreements: int = 20) -> list[str]:
        """The report as text: one row per task, a total, agreement by kind, then the disagreements."""
        tasks: dict[str, list[ExampleResult]] = {}
        for r in self.results:
            tasks.setdefault(r.task_id, []).append(r)
        head = f"{'task':<34} {'examples':>8} {'agree':>7} {'gold pass':>9} {'bad fail':>9} {'ungraded':>8}"
        out = [f"judge calibration against {self.model} ({self.seconds:.1f}s)", head]
        for tid, rs in tasks.items():
            c = self._count(rs)
            out.append(f"{tid:<34} {c['examples']:>8} {c['agree']:>3}/{c['examples']:<3} "
                       f"{c['gold_passed']:>4}/{c['gold']:<4} {c['bad_failed']:>4}/{c['bad']:<4} {c['ungraded']:>8}")
        t = self.totals()
        out.append(f"{'all':<34} {t['examples']:>8} {t['agree']:>3}/{t['examples']:<3} "
                   f"{t['gold_passed']:>4}/{t['gold']:<4} {t['bad_failed']:>4}/{t['bad']:<4} {t['ungraded']:>8}")
        out.append(f"agreement {t['agreement']:.1%}; false passes (a bad text passed) {t['false_passes']}; "
                   f"gold failed {t['gold'] - t['gold_passed']}; ungraded {t['ungraded']}")
        out.append("by kind: " + ", ".join(f"{k} {v['agree']}/{v['examples']}" for k, v in t["by_kind"].items()))
        bad = [r for r in self.results if not r.agrees]
        for r in bad[:max_disagreements]:
            out.append(f"  DISAGREE {r.task_id} [{r.kind}] expected {r.expect}, got {r.outcome}: "
                       f"{json.dumps(r.text[:70])} -- {r.detail[:160]}")
        if len(bad) > max_disagreements:
            out.append(f"  (+{len(bad) - max_disagreements} more disagreements)")
        return out

    def to_json(self) -> dict:
        return {"model": self.model, "seconds": round(self.seconds, 2), "totals": self.totals(),
                "results": [asdict(r) for r in self.results]}


def calibrate(tasks: list[Task], judge: Any, model: str | None = None) -> CalibrationReport:
    """Run every judged task's calibration examples through its judge checks with `judge`."""
    t0 = time.perf_counter()
    report = CalibrationReport(model=model or getattr(judge, "model", None) or type(judge).__name__)
    for task in judged(tasks):
        checks = [c for c in task.verify.checks if isinstance(c, JudgeCheck)]
        for ex in task.calibration or []:
            text = ex.text.strip()
            for check in checks:
                res = judge_one(check, text, judge, where=f"{ex.kind} example")
                outcome = "ungraded" if res.ungraded else ("pass" if res.passed else "fail")
                report.results.append(ExampleResult(task.id, check.label(), ex.kind, ex.expect, outcome,
                                                    res.detail, ex.text))
    report.seconds = time.perf_counter() - t0
    return report
