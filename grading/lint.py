"""Reward-integrity lint: the places in a verify spec that a hedging or dumping agent could exploit.

RL optimises exactly the reward it is given, so a spec that can be satisfied by a hedge ("23 or 8"),
a dump of every candidate, or an unbounded side effect will teach exactly that. `spec_holes` reads a
spec (no states needed) and names each such place:

- an answer check whose matcher is open: a substring (`$icontains`), a prefix, an unanchored `$regex`,
  a negation. Closed matchers read the answer as the value asked for: a literal, `$eq`, `$ieq`,
  `$number` (exactly one number), `$numbers`, `$phone`, `$set`, `$in`, an anchored `$regex`,
  `$refusal` (grading/refusal.py: a refusal in a declared form, nothing claimed, nothing hedged),
  `{"$exists": false}`;
- a substring test on what the agent wrote (rows it created or changed) with nothing bounding the
  rest of the text: the same field matcher needs `$excludes` (the world's competing facts) or a
  `$len` upper bound, or a dump of all candidates would pass;
- a judge check with no `max_chars` (a dump would reach the judge) or whose text is not one row the
  agent wrote or the answer;
- an allowance in `unchanged_except` that lets the agent create, delete or update without bound:
  creates and deletes need `max`, updates need `where` (which rows) and `fields` (which columns).

Pure over spec JSON, like the rest of the package.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .spec import Allowance, AnswerCheck, JudgeCheck, RowCheck, VerifySpec

__all__ = ["spec_holes"]

_CLOSED_ANSWER_OPS = {"$eq", "$ieq", "$number", "$numbers", "$phone", "$set", "$in", "$regex", "$refusal"}
# Operators that only narrow what a closed one accepts (every operator of a matcher must hold): beside a closed
# operator they keep it closed; alone they accept anything that avoids a few words.
_NARROWING_ANSWER_OPS = {"$excludes", "$nin", "$ne", "$not"}
_SUBSTRING_OPS = {"$contains", "$icontains", "$regex", "$startswith", "$istartswith", "$any"}
_UPPER_BOUNDS = {"$lte", "$lt", "$eq"}


def spec_holes(spec: VerifySpec | Mapping[str, Any]) -> list[str]:
    """Each way the spec could reward a dishonest trajectory, as a sentence; [] for none."""
    if not isinstance(spec, VerifySpec):
        spec = VerifySpec.model_validate(spec)
    holes: list[str] = []
    for check in spec.checks:
        if isinstance(check, AnswerCheck):
            why = _open_answer(check.answer)
            if why:
                holes.append(f"answer check {check.label()!r}: {why}")
        elif isinstance(check, RowCheck) and _about_agent_text(check):
            for part in ("where", "expect"):
                for field, why in _unbounded_text(getattr(check, part) or {}):
                    holes.append(f"row check {check.label()!r}: {part} field {field!r} {why}")
        elif isinstance(check, JudgeCheck):
            why = _loose_judge(check)
            if why:
                holes.append(f"judge check {check.label()!r}: {why}")
    for a in spec.unchanged_except or []:
        why = _loose_allowance(a)
        if why:
            holes.append(f"unchanged_except allowance on {a.table!r}: {why}")
    return holes


def _without_negative_lookarounds(pattern: str) -> str:
    """The pattern less its `(?!...)` and `(?<!...)` groups: an alternation inside one only refuses more."""
    out, i, depth = [], 0, 0
    while i < len(pattern):
        if pattern[i] == "\\":
            if not depth:
                out.append(pattern[i:i + 2])
            i += 2
            continue
        opens = pattern.startswith("(?!", i) or pattern.startswith("(?<!", i)
        if depth or opens:
            depth += pattern[i] == "("
            depth -= pattern[i] == ")"
        else:
            out.append(pattern[i])
        i += 1
    return "".join(out)


def _anchored(pattern: str) -> bool:
    return (pattern.startswith(("^", r"\A")) and pattern.endswith(("$", r"\Z"))
            and "|" not in _without_negative_lookarounds(pattern))


def _open_answer(m: Any) -> str | None:
    if isinstance(m, str):
        return None
    if m == {"$exists": False}:
        return None
    ops = set(m) - {"$options", "$tol"}
    bad = ops - _CLOSED_ANSWER_OPS - (_NARROWING_ANSWER_OPS if ops & _CLOSED_ANSWER_OPS else set())
    if bad:
        return (f"{sorted(bad)} accepts an answer that contains the value among others; use a closed matcher "
                "($ieq, $number, $numbers, $phone, $set, an anchored $regex)")
    if "$regex" in m and not _anchored(m["$regex"]):
        return "an unanchored (or alternating) $regex accepts a text that merely contains the value; anchor it ^...$"
    if "$in" in m and not all(isinstance(x, str) for x in m["$in"]):
        return "$in on an answer must list the accepted answers as strings"
    return None


def _about_agent_text(check: RowCheck) -> bool:
    """Rows the agent made or edited: created/changed sets, or end rows not pinned to an existing id."""
    if check.in_ in ("created", "changed"):
        return True
    return check.in_ == "end" and "id" not in (check.where or {})


def _unbounded_text(where: Mapping[str, Any]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for field, m in where.items():
        if field in ("$or", "$and"):
            for sub in m:
                out += _unbounded_text(sub)
            continue
        if field == "$not" or not isinstance(m, Mapping):
            continue
        ops = set(m)
        if not ops & _SUBSTRING_OPS:
            continue
        if "$regex" in ops and ops & _SUBSTRING_OPS == {"$regex"} and _anchored(m["$regex"]):
            continue
        if "$excludes" in ops or _bounded_len(m.get("$len")):
            continue
        out.append((field, f"tests {sorted(ops & _SUBSTRING_OPS)} with no $excludes or $len bound: "
                           "a text (or list) dumping every candidate would pass"))
    return out


def _bounded_len(m: Any) -> bool:
    if isinstance(m, int) and not isinstance(m, bool):
        return True
    return isinstance(m, Mapping) and bool(set(m) & _UPPER_BOUNDS)


def _loose_allowance(a: Allowance) -> str | None:
    ops = a.allowed_ops()
    problems = []
    if ops & {"create", "delete"} and a.max is None:
        problems.append(f"{'/'.join(sorted(ops & {'create', 'delete'}))} without 'max' (any number of rows)")
    if "update" in ops and (a.where is None or a.fields is None):
        problems.append("update without " + " and ".join(k for k, v in (("where", a.where), ("fields", a.fields))
                                                            if v is None) + " (any row, any column)")
    return "; ".join(problems) or None


def _loose_judge(check: JudgeCheck) -> str | None:
    j = check.judge
    problems = []
    if j.max_chars is None:
        problems.append("no max_chars: a text dumping every candidate would reach the judge")
    if not j.text.answer and j.text.in_ not in ("created", "changed"):
        problems.append(f"judges a row of {j.text.in_!r}: the text must be one the agent wrote (created/changed)")
    return "; ".join(problems) or None
