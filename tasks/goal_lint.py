"""Goal lint: no literal in a task's goal may be its answer.

A goal's format hint ("Answer with the amount, e.g. $1.99"), an example, a date, a number or a name is
copied by a policy that has learned to echo the prompt; when one of them is the graded answer (or any text
the answer check would accept), copying it scores 1 without looking at the world. `goal_leaks` takes every
literal of the goal (quoted text, examples after "e.g."/"like"/"such as", amounts, numbers, times, dates,
phone numbers, email addresses and capitalised names) and grades each as the task's answer with the task's
own answer checks (grading's matchers, `$ref`s resolved against the world): any that passes is a leak.

The generator runs it on every instance (`tasks.templates.base.instances_of`): a bundled template that
leaks fails generation; a fresh world's instance that leaks is left out. A fast test runs it over every
bundled task (tests/tasks/test_goal_lint.py).
"""

from __future__ import annotations

import re
from typing import Any

from grading import AnswerCheck, VerifySpec, verify

__all__ = ["goal_leaks", "goal_literals"]

_MONTH = (r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|Jun(?:e)?|Jul(?:y)?|Aug(?:ust)?|"
          r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)")
_PATTERNS = [
    r"[\u201c\"]([^\u201d\"]{1,200})[\u201d\"]",  # “quoted” or "quoted"
    r"(?<![\w])'([^'\n]{1,200})'(?![\w])",  # 'quoted' (not an apostrophe)
    r"\b(?:e\.g\.,?|i\.e\.,?|for example,?|for instance,?|such as|like)\s+([^,;:?!()\n]{1,80}?)(?=[,;:?!()\n]|\.(?:\s|$)|$)",
    r"[$€£]\s?\d[\d,]*(?:\.\d+)?",  # amounts
    r"\b\d{1,2}(?::\d{2})?\s*(?:[AaPp]\.?[Mm]\.?)",  # times
    rf"\b(?:(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day,?\s+)?{_MONTH}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?",
    r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b",  # ISO and m/d dates
    r"(?:\+?1[\s.-]?)?(?:\(\d{3}\)\s?|\b\d{3}[\s.-])\d{3}[\s.-]\d{4}\b",  # phone numbers
    r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+",  # email addresses
    r"(?<![\w.])-?\d(?:[\d,]*\d)?(?:\.\d+)?%?",  # numbers
    r"\b[A-Z][\w'&.-]*(?:\s+(?:of|the|and|&|de|van|von)?\s*[A-Z0-9][\w'&.-]*)*",  # capitalised names
]
_RE = [re.compile(p) for p in _PATTERNS]


def goal_literals(goal: str) -> list[str]:
    """Every literal of `goal` a policy could copy as its answer, each once, in order of appearance."""
    found: list[tuple[int, str]] = []
    for rx in _RE:
        for m in rx.finditer(goal):
            text = (m.group(1) if m.groups() else m.group(0)).strip().rstrip(".")
            if text:
                found.append((m.start(), text))
    out: list[str] = []
    for _pos, text in sorted(found):
        if text not in out:
            out.append(text)
    return out


def goal_leaks(task: Any, state: dict) -> list[str]:
    """The goal's literals that the task's answer checks accept as the answer, with what each is; [] for a
    task with no answer to give. `state`: the world's rows (for `$ref` matchers)."""
    checks = [c for c in task.verify.checks if isinstance(c, AnswerCheck) and c.answer != {"$exists": False}]
    if not checks:
        return []
    spec = VerifySpec(checks=checks)
    return [f"the goal's literal {lit!r} is accepted as the answer" for lit in goal_literals(task.goal)
            if verify(spec, state, state, lit).passed]
