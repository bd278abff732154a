"""Every bundled task whose answer is graded with `$number`: the gold answer and the gold value in words
score 1; the gold with another value beside it, in words, Roman numerals or superscripts, scores 0.

Graded with `grading.verify` on the task's own answer checks (they read only the answer, so no world
and no browser are needed; tasks.integrity grades the whole spec against the world's state).
"""

from __future__ import annotations

import pytest
from num2words import num2words

from grading import AnswerCheck, VerifySpec, verify
from grading.values import distinct_numbers
from tasks import load_tasks

SUPERSCRIPTS = "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079"


def _uses_number(m) -> bool:
    if isinstance(m, dict):
        return "$number" in m or any(_uses_number(v) for v in m.values())
    if isinstance(m, list):
        return any(_uses_number(v) for v in m)
    return False


def _number_tasks():
    out = []
    for t in load_tasks():
        checks = [c for c in t.verify.checks if isinstance(c, AnswerCheck) and _uses_number(c.answer)]
        if checks:
            out.append((t, VerifySpec(checks=checks)))
    return out


NUMBER_TASKS = _number_tasks()


def test_the_bundle_has_number_tasks():
    assert len(NUMBER_TASKS) >= 28  # 28 when this was written
    assert "crm/ret-open-cases-count-00" in {t.id for t, _ in NUMBER_TASKS}


def _gold_value(t) -> float:
    (value,) = distinct_numbers(t.solution[-1].answer)
    return value


def _in_words(v: float) -> str:
    if float(v).is_integer():
        return num2words(int(v))
    dollars, cents = divmod(round(v * 100), 100)
    return f"{num2words(dollars)} point {' '.join(num2words(int(d)) for d in f'{cents:02d}')}"


def _other(v: float) -> int:
    return int(v) + 1 if float(v).is_integer() else int(v) + 3  # a different value, an integer


def _roman(n: int) -> str:
    out = ""
    for val, s in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"),
                   (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while n >= val:
            out, n = out + s, n - val
    return out


@pytest.mark.parametrize("task,spec", NUMBER_TASKS, ids=[t.id for t, _ in NUMBER_TASKS])
def test_gold_and_gold_in_words_score_1_and_hedges_in_other_forms_score_0(task, spec):
    gold = task.solution[-1].answer
    value = _gold_value(task)
    assert verify(spec, {}, {}, gold).score == 1
    assert verify(spec, {}, {}, _in_words(value)).score == 1, _in_words(value)
    assert verify(spec, {}, {}, f"{gold} ({_in_words(value)})").score == 1
    other = _other(value)
    hedges = [f"{gold} (or maybe {num2words(other)})", f"{gold} or {num2words(other, to='ordinal')}",
              f"{gold} or {''.join(SUPERSCRIPTS[int(d)] for d in str(other))}", f"{gold} or {other}"]
    if other < 3999:
        roman = _roman(other) if len(_roman(other)) > 1 else _roman(other + 1)  # single letters are not read
        hedges.append(f"{gold} or {roman}")
    for hedge in hedges:
        assert verify(spec, {}, {}, hedge).score == 0, hedge


def test_issue_42_open_cases_count():
    task, spec = next((t, s) for t, s in NUMBER_TASKS if t.id == "crm/ret-open-cases-count-00")
    assert _gold_value(task) == 2
    for hedge in ["2 (or maybe three)", "2 or XXIV", "2 or \u00b3", "2 or 3", "two or 3", "II or three"]:
        assert verify(spec, {}, {}, hedge).score == 0, hedge
    for honest in ["2", "two", "Two.", "There are two open cases.", "2 (two)", "II"]:
        assert verify(spec, {}, {}, honest).score == 1, honest
