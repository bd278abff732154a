"""The `verify` section of a task, as pydantic models.

Validation is strict on purpose: a grader with a typo (`$containz`, `"expected"` instead of
`"expect"`, a regex that does not compile) would otherwise silently grade every episode 0 or 1.
Matchers and where clauses stay plain JSON inside the models (checked by `matchers.validate_*`), so
a spec dumps back to exactly the JSON it was written as.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, ClassVar, Literal, Union

from pydantic import AfterValidator, BaseModel, ConfigDict, Discriminator, Field, Tag, model_validator

from .matchers import validate_matcher, validate_where

__all__ = ["Allowance", "AnswerCheck", "Check", "CodeCheck", "Checkpoint", "JudgeCheck", "JudgeText", "RowCheck",
           "RowSet", "VerifySpec"]

RowSet = Literal["end", "start", "created", "deleted", "changed"]
Op = Literal["create", "delete", "update"]


def _where(v: Any) -> dict[str, Any]:
    validate_where(v, "where")
    return v


def _count(v: Any) -> Any:
    if v is None:
        return None
    if isinstance(v, int) and not isinstance(v, bool):
        if v < 0:
            raise ValueError(f"count must be >= 0, got {v}")
        return v
    if isinstance(v, dict) and v:
        validate_matcher(v, "count")
        if all(not k.startswith("$") for k in v):
            raise ValueError("count must be an integer or an operator matcher like {\"$gte\": 1}")
        return v
    raise ValueError(f"count must be a non-negative integer or a matcher like {{\"$gte\": 1}}, got {v!r}")


def _answer_matcher(v: Any) -> Any:
    if isinstance(v, dict) and v and all(isinstance(k, str) and k.startswith("$") for k in v):
        validate_matcher(v, "answer")
        return v
    if isinstance(v, str):
        return v
    raise ValueError(f"answers are strings, so a literal answer matcher must be a string, got {v!r}; "
                     "use {\"$number\": ...} for numeric answers and {\"$exists\": false} for 'no answer'")


Where = Annotated[dict[str, Any], AfterValidator(_where)]


def _compact(v: Any) -> str:
    return json.dumps(v, ensure_ascii=False, default=str)


def _short(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


class RowCheck(BaseModel):
    """Select rows of `table` from row set `in` that match `where`; then test `count` / `expect`."""

    model_config = ConfigDict(extra="forbid", validate_by_name=True, validate_by_alias=True,
                              serialize_by_alias=True)

    table: str = Field(min_length=1)
    in_: RowSet = Field("end", alias="in")
    where: Where | None = None
    expect: Where | None = None
    count: Annotated[Any, AfterValidator(_count)] = None
    name: str | None = None

    kind: ClassVar[str] = "row"

    def label(self) -> str:
        """The check's name: `name` if given, else generated from the check."""
        if self.name:
            return self.name
        text = self.table if self.in_ == "end" else f"{self.in_} {self.table}"
        if self.where:
            text += f" where {_compact(self.where)}"
        if self.expect:
            text += f" expect {_compact(self.expect)}"
        if self.count is not None:
            text += f" count {_compact(self.count)}"
        return _short(text)


class AnswerCheck(BaseModel):
    """Test the agent's `done` answer (stripped) with a matcher."""

    model_config = ConfigDict(extra="forbid")

    answer: Annotated[Any, AfterValidator(_answer_matcher)]
    name: str | None = None

    kind: ClassVar[str] = "answer"

    def label(self) -> str:
        return self.name or _short(f"answer {_compact(self.answer)}")


def _code_name(v: str) -> str:
    from .checks import CODE_CHECKS

    if v not in CODE_CHECKS:
        import difflib

        near = difflib.get_close_matches(v, list(CODE_CHECKS), n=1)
        hint = f" (did you mean {near[0]!r}?)" if near else ""
        raise ValueError(f"unknown code check {v!r}{hint}; registered: {', '.join(sorted(CODE_CHECKS))}")
    return v


class CodeCheck(BaseModel):
    """A registered Python check (grading/checks.py) over start, end, answer and the trajectory."""

    model_config = ConfigDict(extra="forbid")

    code: Annotated[str, AfterValidator(_code_name)]
    args: dict[str, Any] = Field(default_factory=dict)
    name: str | None = None

    kind: ClassVar[str] = "code"

    @model_validator(mode="after")
    def _args_fit(self) -> CodeCheck:
        from .checks import CODE_CHECKS

        CODE_CHECKS[self.code].validate_args(self.args)
        return self

    def label(self) -> str:
        return self.name or _short(f"{self.code}({', '.join(f'{k}={_compact(v)}' for k, v in self.args.items())})")


class JudgeText(BaseModel):
    """Where the judged text comes from: the `done` answer, or a field of exactly one row the agent made
    or changed (never the goal). Selecting no row, or several, fails the check (a state gate)."""

    model_config = ConfigDict(extra="forbid", validate_by_name=True, validate_by_alias=True,
                              serialize_by_alias=True)

    answer: bool | None = None
    table: str | None = None
    in_: RowSet = Field("created", alias="in")
    where: Where | None = None
    field: str | list[str] | None = None

    @model_validator(mode="after")
    def _one_source(self) -> JudgeText:
        if self.answer:
            if self.table or self.field or self.where:
                raise ValueError("judge text: either {'answer': true} or a row source (table, where, field), not both")
        elif not (self.table and self.field):
            raise ValueError("judge text needs {'answer': true} or 'table' and 'field' (the row's text)")
        return self


class JudgeSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: JudgeText
    # Criteria, each judged pass/fail with a short reason; the check passes when every one does.
    rubric: list[Annotated[str, Field(min_length=3)]] = Field(min_length=1, max_length=12)
    # Facts from the world the judge may rely on (the meeting's time, the refund's amount): data, not the goal.
    context: str = ""
    # Length bounds, checked before any judge is asked: a dump fails here for free.
    max_chars: int | None = Field(None, ge=1)
    min_chars: int = Field(1, ge=0)


class JudgeCheck(BaseModel):
    """An LLM judge's pass/fail on a rubric, over text the agent wrote. Graded only after every state
    check passed; a judge that fails or is absent leaves the episode ungraded, never passed."""

    model_config = ConfigDict(extra="forbid")

    judge: JudgeSpec
    name: str | None = None

    kind: ClassVar[str] = "judge"

    def label(self) -> str:
        return self.name or _short(f"judge: {self.judge.rubric[0]}")


def _check_tag(v: Any) -> str | None:
    if isinstance(v, (RowCheck, AnswerCheck, CodeCheck, JudgeCheck)):
        return v.kind
    if isinstance(v, dict):
        keys = {"table": "row", "answer": "answer", "code": "code", "judge": "judge"}
        found = [kind for k, kind in keys.items() if k in v]
        if len(found) == 1:
            return found[0]
    return None


Check = Annotated[
    Union[Annotated[RowCheck, Tag("row")], Annotated[AnswerCheck, Tag("answer")],
          Annotated[CodeCheck, Tag("code")], Annotated[JudgeCheck, Tag("judge")]],
    Discriminator(
        _check_tag,
        custom_error_type="check_kind",
        custom_error_message="a check is an object with exactly one of 'table' (a row check), 'answer' "
                             "(an answer check), 'code' (a registered Python check) or 'judge' (an LLM judge)",
    ),
]


class Allowance(BaseModel):
    """One kind of change `unchanged_except` permits.

    `ops` defaults to all three, except that giving `fields` without `ops` means updates only:
    a field list describes updates, and silently allowing the row's deletion too would be a hole.
    """

    model_config = ConfigDict(extra="forbid")

    table: str = Field(min_length=1)
    ops: list[Op] | None = None
    where: Where | None = None
    fields: list[str] | None = None
    # At most this many changes may use the allowance: "the reply may create one message", not any
    # number of them. Without it an allowance covers every matching change.
    max: int | None = Field(None, ge=1)

    @model_validator(mode="after")
    def _shape(self) -> Allowance:
        if self.ops is not None and not self.ops:
            raise ValueError("ops must not be empty (omit it to allow create, delete and update)")
        if self.fields is not None:
            if not self.fields:
                raise ValueError("fields must not be empty (omit it to allow any field to change)")
            if self.ops is not None and "update" not in self.ops:
                raise ValueError("fields only apply to updates, but ops does not include 'update'")
        return self

    def allowed_ops(self) -> set[str]:
        if self.ops is not None:
            return set(self.ops)
        return {"update"} if self.fields is not None else {"create", "delete", "update"}


class Checkpoint(BaseModel):
    """A milestone of a long task (the order placed; the confirmation sent): reached when every check it names (by
    label, `Check.label()`) passes. Partial credit (`verify(..., partial_credit=True)`, off by default) scores the
    share of milestones reached; the checks no milestone names (and `unchanged_except`) are guards, and a failed
    guard scores 0, so a harmful extra or the wrong record earns nothing for the steps it got right."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1)
    checks: list[str] = Field(min_length=1)


class VerifySpec(BaseModel):
    """A task's grader: row and answer checks, plus an optional audit of everything else."""

    model_config = ConfigDict(extra="forbid")

    checks: list[Check] = Field(default_factory=list)
    unchanged_except: list[Allowance] | None = None
    scoring: Literal["all", "fraction"] = "all"
    checkpoints: list[Checkpoint] | None = None

    @model_validator(mode="after")
    def _not_empty(self) -> VerifySpec:
        if not self.checks and self.unchanged_except is None:
            raise ValueError("a verify spec must have at least one check or an unchanged_except list")
        if self.has_judge and not any(c.kind in ("row", "answer") for c in self.checks) \
                and self.unchanged_except is None:
            raise ValueError("a judged spec also needs state checks (who got the text, nothing else changed): "
                             "a row or answer check, or an unchanged_except list")
        return self

    @model_validator(mode="after")
    def _checkpoints_name_checks(self) -> VerifySpec:
        if self.checkpoints is None:
            return self
        if not self.checkpoints:
            raise ValueError("checkpoints must not be empty (omit it for a task without milestones)")
        if self.scoring != "all":
            raise ValueError("checkpoints score partial credit of an all-or-nothing spec; scoring 'fraction' "
                             "already gives a share of its checks")
        labels = [c.label() for c in self.checks]
        names = [cp.name for cp in self.checkpoints]
        if len(set(names)) != len(names):
            raise ValueError(f"checkpoint names must be unique, got {names}")
        seen: set[str] = set()
        for cp in self.checkpoints:
            for label in cp.checks:
                if labels.count(label) != 1:
                    raise ValueError(f"checkpoint {cp.name!r} names check {label!r}, which is "
                                     f"{'not a check of this spec' if not labels.count(label) else 'ambiguous'}; "
                                     f"its checks: {labels}")
                if label in seen:
                    raise ValueError(f"check {label!r} is in two checkpoints: a milestone is reached once")
                seen.add(label)
        return self

    @property
    def has_judge(self) -> bool:
        return any(isinstance(c, JudgeCheck) for c in self.checks)
