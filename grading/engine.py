"""Grade an episode: run a VerifySpec over (start state, end state, done answer).

Each check yields a CheckResult whose `detail` says exactly what was looked for and what was found,
because a failing grade is only useful if a person (or a trainer's log) can see why without
re-running the episode. Weird state data never raises: at worst a check fails with a detail
saying what went wrong.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel

from .checks import CheckContext, run_code_check
from .matchers import describe, explain, explain_where, match, match_where, where_score
from .spec import Allowance, AnswerCheck, CodeCheck, JudgeCheck, RowCheck, VerifySpec
from .state import StateView
from .values import render

__all__ = ["CheckResult", "CheckpointResult", "VerifyResult", "verify"]

MAX_LISTED = 3  # failing rows / uncovered changes spelled out in a detail


class CheckResult(BaseModel):
    name: str
    kind: Literal["row", "answer", "unchanged_except", "code", "judge"]
    passed: bool
    detail: str
    score: float | None = None  # a code check's partial score (counts under "fraction" scoring)
    ungraded: bool = False  # a judge check that got no verdict (no judge, timeout, malformed reply)


class CheckpointResult(BaseModel):
    name: str
    reached: bool


class VerifyResult(BaseModel):
    score: float
    passed: bool
    checks: list[CheckResult]
    # A spec with checkpoints: each milestone reached or not, and their share (0 when a guard failed): the partial
    # credit, which is the score only under `partial_credit`; `passed` stays the binary pass either way.
    checkpoints: list[CheckpointResult] | None = None
    partial: float | None = None
    # "ungraded": every state check passed but a judge check got no verdict. The score is 0 and
    # `passed` False, but the episode is neither a success nor a failure: eval reports it apart and
    # RL must drop it (or retry the grade), never learn from it.
    status: Literal["graded", "ungraded"] = "graded"
    ungraded_reason: str | None = None

    @property
    def graded(self) -> bool:
        return self.status == "graded"

    def summary(self) -> str:
        """One line: score, how many checks passed, and the first failures."""
        n_ok = sum(c.passed for c in self.checks)
        if self.status == "ungraded":
            return (f"UNGRADED ({n_ok}/{len(self.checks)} checks passed; no judge verdict: "
                    f"{_cut(self.ungraded_reason or '', 160)})")
        head = f"{'PASS' if self.passed else 'FAIL'} score={self.score:.2f} ({n_ok}/{len(self.checks)} checks passed)"
        failed = [c for c in self.checks if not c.passed]
        if not failed:
            return head
        parts = [f"[{c.name}] {_cut(c.detail, 160)}" for c in failed[:2]]
        more = f" (+{len(failed) - 2} more)" if len(failed) > 2 else ""
        return f"{head}; failed: " + " | ".join(parts) + more

    def report(self) -> str:
        """Multi-line report: one line per check."""
        lines = [self.summary()]
        lines += [f"  {'ok  ' if c.passed else '??  ' if c.ungraded else 'FAIL'} {c.kind:<16} {c.name}: {c.detail}"
                  for c in self.checks]
        return "\n".join(lines)


def verify(spec: VerifySpec | Mapping[str, Any], start: Any, end: Any, answer: str | None, *,
           trajectory: list[dict] | None = None, judge: Any = None, partial_credit: bool = False) -> VerifyResult:
    """Grade one episode. Raises only for an invalid spec (pydantic ValidationError).

    `trajectory`: the episode's steps for code (process) checks, `[{"step", "action", "url", "error"}]`.
    `judge`: a callable `grading.judge.JudgeRequest -> JudgeVerdict` (raising `JudgeError` when it
    cannot judge) for judge checks. Judge checks run last and only when every other check passed (a
    state failure is a graded 0 at no judge cost); with no judge, or a judge that fails, the result is
    `status="ungraded"` with score 0, never a pass.
    `partial_credit`: a spec with checkpoints scores the share of them reached (`_partial`), not 0 or 1; off by
    default, and `passed` is the same either way.
    """
    if not isinstance(spec, VerifySpec):
        spec = VerifySpec.model_validate(spec)
    view = StateView(start, end)
    if answer is not None and not isinstance(answer, str):
        answer = str(answer)
    ctx = CheckContext(start, end, answer, trajectory, view)
    results: list[CheckResult] = []
    judged: list[tuple[int, JudgeCheck]] = []
    for check in spec.checks:
        if isinstance(check, JudgeCheck):
            judged.append((len(results), check))
            results.append(CheckResult(name=check.label(), kind="judge", passed=False, detail="pending"))
        elif isinstance(check, CodeCheck):
            results.append(_code(check, ctx))
        else:
            results.append(_guarded(check.label(), check.kind, lambda c=check: _run_check(c, view, answer)))
    if spec.unchanged_except is not None:
        allow = spec.unchanged_except
        results.append(_guarded("unchanged_except", "unchanged_except", lambda: _check_unchanged(allow, view)))
    gate_ok = all(r.passed for i, r in enumerate(results) if i not in {j for j, _ in judged})
    ungraded: list[str] = []
    for i, check in judged:
        if not gate_ok:
            results[i] = CheckResult(name=check.label(), kind="judge", passed=False,
                                     detail="not judged: a state check failed")
            continue
        results[i] = _judge(check, view, answer, judge)
        if results[i].ungraded:
            ungraded.append(results[i].detail)
    n_ok = sum(r.passed for r in results)
    passed = n_ok == len(results)
    if ungraded:
        return VerifyResult(score=0.0, passed=False, checks=results, status="ungraded",
                            ungraded_reason="; ".join(ungraded))
    if spec.scoring == "fraction":
        score = sum(r.score if r.score is not None else float(r.passed) for r in results) / len(results) \
            if results else 0.0
    else:
        score = 1.0 if passed else 0.0
    if spec.checkpoints is None:
        return VerifyResult(score=score, passed=passed, checks=results)
    reached, partial = _partial(spec, results)
    return VerifyResult(score=partial if partial_credit else score, passed=passed, checks=results,
                        checkpoints=reached, partial=partial)


def _partial(spec: VerifySpec, results: list[CheckResult]) -> tuple[list[CheckpointResult], float]:
    """Each checkpoint reached or not, and the partial credit: the share reached, or 0 when a guard (a check no
    checkpoint names, `unchanged_except` among them) failed. It is 1 exactly when every check passed."""
    by_label = {c.label(): r for c, r in zip(spec.checks, results)}
    reached = [CheckpointResult(name=cp.name, reached=all(by_label[label].passed for label in cp.checks))
               for cp in spec.checkpoints]
    named = {label for cp in spec.checkpoints for label in cp.checks}
    guards_ok = all(r.passed for c, r in zip(spec.checks, results) if c.label() not in named) \
        and all(r.passed for r in results[len(spec.checks):])  # unchanged_except comes after the checks
    share = sum(cp.reached for cp in reached) / len(reached)
    return reached, share if guards_ok else 0.0


def _code(check: CodeCheck, ctx: CheckContext) -> CheckResult:
    try:
        res = run_code_check(check.code, check.args, ctx)
    except Exception as e:  # noqa: BLE001 - a buggy check fails, never crashes the grade
        return CheckResult(name=check.label(), kind="code", passed=False,
                           detail=f"internal error in code check {check.code!r}: {type(e).__name__}: {e}")
    return CheckResult(name=check.label(), kind="code", passed=res.passed, detail=res.detail, score=res.score)


def judge_text(check: JudgeCheck, view: StateView, answer: str | None) -> tuple[str | None, str]:
    """The text a judge check grades, or (None, why not): the answer, or one row's field(s)."""
    src = check.judge.text
    if src.answer:
        if answer is None or not answer.strip():
            return None, "no answer was given (done had no answer)"
        return answer.strip(), "the answer"
    t = src.table or ""
    if not view.has_table(t):
        return None, f"unknown table {t!r}"
    rows = [r for r in view.rows(t, src.in_) if match_where(r, src.where, view)]
    where = f" matching {_json(src.where)}" if src.where else ""
    if len(rows) != 1:
        return None, (f"expected exactly 1 {_SET_WORD[src.in_]}row in {t!r}{where} to judge, found {len(rows)}"
                      + (f" ({_ids(rows)})" if rows else ""))
    fields = [src.field] if isinstance(src.field, str) else list(src.field or [])
    parts = []
    for f in fields:
        v = rows[0].get(f)
        if v is None:
            continue
        v = v if isinstance(v, str) else _json(v)
        parts.append(v if len(fields) == 1 else f"{f}: {v}")
    text = "\n".join(parts).strip()
    if not text:
        return None, f"{_row_label(rows[0])} of {t!r} has no text in {fields}"
    return text, f"{t} {_row_label(rows[0])} {'/'.join(fields)}"


def _judge(check: JudgeCheck, view: StateView, answer: str | None, judge: Any) -> CheckResult:
    name = check.label()
    try:
        text, where = judge_text(check, view, answer)
    except Exception as e:  # noqa: BLE001
        text, where = None, f"internal error while reading the text: {type(e).__name__}: {e}"
    if text is None:
        return CheckResult(name=name, kind="judge", passed=False, detail=f"nothing to judge: {where}")
    return judge_one(check, text, judge, where)


def judge_one(check: JudgeCheck, text: str, judge: Any, where: str = "the text") -> CheckResult:
    """Grade one text with a judge check: the length bounds, then the judge (calibration calls this)."""
    from .judge import JudgeError, JudgeRequest

    name, spec = check.label(), check.judge
    n = len(text)
    if spec.max_chars is not None and n > spec.max_chars:
        return CheckResult(name=name, kind="judge", passed=False,
                           detail=f"{where}: {n} characters, more than the {spec.max_chars} allowed (not sent to the judge)")
    if n < spec.min_chars:
        return CheckResult(name=name, kind="judge", passed=False,
                           detail=f"{where}: {n} characters, fewer than the {spec.min_chars} required")
    if judge is None:
        from .judge import JUDGE_ENV_HELP

        return CheckResult(name=name, kind="judge", passed=False, ungraded=True, detail=JUDGE_ENV_HELP)
    req = JudgeRequest(tuple(spec.rubric), text, spec.context)
    try:
        verdict = judge(req)
    except JudgeError as e:
        return CheckResult(name=name, kind="judge", passed=False, ungraded=True, detail=str(e))
    except Exception as e:  # noqa: BLE001 - a broken judge is no verdict, never a pass
        return CheckResult(name=name, kind="judge", passed=False, ungraded=True,
                           detail=f"judge failed: {type(e).__name__}: {e}")
    return CheckResult(name=name, kind="judge", passed=verdict.passed, detail=f"{where}: {verdict.detail()}")


def _guarded(name: str, kind: str, run: Any) -> CheckResult:
    try:
        ok, detail = run()
    except Exception as e:  # the engine must grade, never crash an episode
        ok, detail = False, f"internal error while checking: {type(e).__name__}: {e}"
    return CheckResult(name=name, kind=kind, passed=ok, detail=detail)


def _run_check(check: RowCheck | AnswerCheck, view: StateView, answer: str | None) -> tuple[bool, str]:
    if isinstance(check, AnswerCheck):
        return _check_answer(check, view, answer)
    return _check_rows(check, view)


# ----------------------------------------------------------------------------- answer checks


def _check_answer(check: AnswerCheck, view: StateView, answer: str | None) -> tuple[bool, str]:
    m = check.answer
    if answer is None:
        # Only an explicit "no answer expected" passes: a do-nothing agent must never be rewarded
        # by a negated matcher like {"$not": {"$icontains": "yes"}}.
        if isinstance(m, dict) and m.get("$exists") is False:
            return True, "no answer given, as expected"
        return False, f"no answer was given (done had no answer); expected {describe(m)}"
    text = answer.strip()
    why = explain(text, m, view)
    if why is None:
        return True, f"answer {render(text)} matches {describe(m)}"
    return False, f"answer {render(text)}: {why}"


# ----------------------------------------------------------------------------- row checks


_SET_WORD = {"end": "", "start": "start-state ", "created": "created ", "deleted": "deleted ", "changed": "changed "}
_SET_EMPTY = {
    "end": "table '{t}' is empty",
    "start": "table '{t}' was empty at the start",
    "created": "no rows were created in '{t}'",
    "deleted": "no rows were deleted from '{t}'",
    "changed": "no rows were changed in '{t}'",
}


def _check_rows(check: RowCheck, view: StateView) -> tuple[bool, str]:
    t = check.table
    if not view.has_table(t):
        tables = ", ".join(view.tables()) or "none"
        return False, f"unknown table {t!r} (tables in the state: {tables})"
    rows = view.rows(t, check.in_)
    selected = [r for r in rows if match_where(r, check.where, view)]
    n = len(selected)
    matching = f" matching {_json(check.where)}" if check.where else ""
    rows_phrase = f"{_SET_WORD[check.in_]}rows in {t!r}{matching}"
    problems: list[str] = []

    if check.count is not None:
        if not match(n, check.count, view):
            if isinstance(check.count, int):
                noun = "row" if check.count == 1 else "rows"
                msg = f"expected {check.count} {_SET_WORD[check.in_]}{noun} in {t!r}{matching}, found {n}"
            else:
                msg = f"expected {describe(check.count)} {rows_phrase}, found {n}"
            if n:
                msg += f" ({_ids(selected)})"
            else:
                msg += _closest(rows, check, view)
            problems.append(msg)

    if check.expect is not None and n:
        problems += _expect_failures(check, selected, view)

    if n == 0 and check.count is None:
        # With no count to say otherwise, a check needs at least one row (with or without expect).
        problems.append(f"expected at least one {_SET_WORD[check.in_]}row in {t!r}{matching}, found 0"
                        + _closest(rows, check, view))

    if problems:
        return False, "; ".join(problems)
    detail = f"found {n} {_SET_WORD[check.in_]}{'row' if n == 1 else 'rows'} in {t!r}{matching}"
    if check.expect is not None and n:
        detail += f"; all satisfy expect {_json(check.expect)}"
    return True, detail


def _expect_failures(check: RowCheck, selected: list[dict], view: StateView) -> list[str]:
    """The selected rows that fail `expect`, each with the fields that fail and why."""
    bad = [(r, why) for r in selected if (why := explain_where(r, check.expect, view))]
    if not bad:
        return []
    t, n = check.table, len(selected)
    prefix = f"{_SET_WORD[check.in_]}{t}" + (f" where {_json(check.where)}" if check.where else "")
    lines = [f"{_row_label(r)} " + "; ".join(f"field {f!r} {w}" if not f.startswith("$") else w for f, w in why)
             for r, why in bad[:MAX_LISTED]]
    more = f" (+{len(bad) - MAX_LISTED} more rows)" if len(bad) > MAX_LISTED else ""
    head = f"{prefix}: " if n == 1 else f"{prefix}: {len(bad)} of {n} selected rows fail expect: "
    return [head + "; ".join(lines) + more]


def _closest(rows: list[dict], check: RowCheck, view: StateView) -> str:
    """Why the most similar row did not qualify: the near miss a task author wants to see."""
    if not rows:
        return "; " + _SET_EMPTY[check.in_].format(t=check.table)
    conds = {**(check.where or {})}
    expect = check.expect or {}
    best = max(rows, key=lambda r: where_score(r, conds, view) + where_score(r, expect, view))
    why = explain_where(best, conds, view) + explain_where(best, expect, view)
    if not why:
        return ""
    parts = [f"in {f!r}: {w}" if not f.startswith("$") else w for f, w in why[:MAX_LISTED]]
    return f"; closest candidate {_row_label(best)} differs " + "; ".join(parts)


# ----------------------------------------------------------------------------- unchanged_except


def _check_unchanged(allowances: list[Allowance], view: StateView) -> tuple[bool, str]:
    changes: list[tuple[str, str, dict | None, dict | None, list[str]]] = []
    for table, d in view.diff.items():
        changes += [(table, "create", None, r, []) for r in d["created"]]
        changes += [(table, "delete", r, None, []) for r in d["deleted"]]
        changes += [(table, "update", c["before"], c["after"], c["fields"]) for c in d["changed"]]
    if not changes:
        return True, "nothing changed"
    # Each change uses the first allowance (in spec order) that covers it and has budget left.
    budget = [a.max for a in allowances]
    uncovered, over = [], []
    for c in changes:
        fits = [i for i, a in enumerate(allowances) if _covers(a, *c, view)]
        free = [i for i in fits if budget[i] is None or budget[i] > 0]
        if free:
            if budget[free[0]] is not None:
                budget[free[0]] -= 1
        elif fits:
            over.append((c, fits[0]))
        else:
            uncovered.append(c)
    if not uncovered and not over:
        return True, f"{len(changes)} change(s), all allowed"
    parts = []
    if uncovered:
        listed = "; ".join(_describe_change(*c, allowances, view) for c in uncovered[:MAX_LISTED])
        more = f" (+{len(uncovered) - MAX_LISTED} more)" if len(uncovered) > MAX_LISTED else ""
        parts.append(f"{len(uncovered)} unexpected change(s): {listed}{more}")
    if over:
        by_allowance: dict[int, int] = {}
        for _, i in over:
            by_allowance[i] = by_allowance.get(i, 0) + 1
        for i, n in by_allowance.items():
            a = allowances[i]
            first = _describe_change(*next(c for c, j in over if j == i), [], view)
            parts.append(f"{n} change(s) more than allowed: at most {a.max} {'/'.join(sorted(a.allowed_ops()))} "
                         f"in {a.table!r}" + (f" where {_json(a.where)}" if a.where else "") + f" (e.g. {first})")
    return False, "; ".join(parts)


def _covers(a: Allowance, table: str, op: str, before: dict | None, after: dict | None,
            fields: list[str], view: StateView, *, check_fields: bool = True) -> bool:
    if a.table != table or op not in a.allowed_ops():
        return False
    rows = [r for r in (before, after) if r is not None]
    if a.where is not None and not any(match_where(r, a.where, view) for r in rows):
        return False
    return not (check_fields and op == "update" and a.fields is not None and not set(fields) <= set(a.fields))


def _describe_change(table: str, op: str, before: dict | None, after: dict | None, fields: list[str],
                     allowances: list[Allowance], view: StateView) -> str:
    row = after if after is not None else before
    label = f"{table} {_row_label(row)}" if isinstance(row, dict) and "id" in row else f"{table} row"
    if op == "create":
        return f"{label} created: {render(after, 160)}"
    if op == "delete":
        return f"{label} deleted: {render(before, 160)}"
    vals = ", ".join(f"{f}: {render((before or {}).get(f), 40)} -> {render((after or {}).get(f), 40)}"
                     for f in fields[:6])
    text = f"{label} updated fields {fields} ({vals})"
    near = [a for a in allowances if _covers(a, table, op, before, after, fields, view, check_fields=False)]
    if near:
        allowed = sorted({f for a in near for f in (a.fields or [])})
        text += f"; only {allowed} may change there"
    return text


# ----------------------------------------------------------------------------- formatting


def _row_label(row: Any) -> str:
    if isinstance(row, dict) and "id" in row:
        return f"row {render(row['id'], 40)}"
    return f"row {render(row, 100)}"


def _ids(rows: list[dict]) -> str:
    ids = [render(r.get("id"), 20) if "id" in r else "?" for r in rows[:8]]
    more = f", +{len(rows) - 8} more" if len(rows) > 8 else ""
    return ("rows " if len(rows) > 1 else "row ") + ", ".join(ids) + more


def _json(v: Any) -> str:
    try:
        return json.dumps(v, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return repr(v)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"
