"""VerifySpec validation: good specs load and round-trip, bad ones fail naming the culprit."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from grading import AnswerCheck, RowCheck, VerifySpec

FULL = {
    "checks": [
        {"table": "messages", "where": {"id": 12}, "expect": {"starred": True}},
        {"table": "messages", "in": "created", "where": {"to": {"$contains": "ana@example.com"}},
         "expect": {"subject": {"$icontains": "lunch"}}, "count": 1},
        {"table": "message_labels", "where": {"message_id": 12, "label_id": {
            "$ref": {"table": "labels", "where": {"name": "Receipts"}, "field": "id"}}}, "count": {"$gte": 1}},
        {"answer": {"$icontains": "march 14"}},
        {"answer": {"$number": {"$approx": 1234.5, "$tol": 0.01}}, "name": "total pipeline"},
    ],
    "unchanged_except": [
        {"table": "messages", "where": {"id": 12}, "fields": ["starred"]},
        {"table": "messages", "ops": ["create"]},
    ],
    "scoring": "all",
}


def test_full_example_loads():
    spec = VerifySpec.model_validate(FULL)
    assert [type(c) for c in spec.checks] == [RowCheck, RowCheck, RowCheck, AnswerCheck, AnswerCheck]
    assert spec.checks[1].in_ == "created"
    assert spec.checks[0].in_ == "end"
    assert spec.unchanged_except[0].fields == ["starred"]


def test_round_trips_through_json():
    spec = VerifySpec.model_validate(FULL)
    dumped = spec.model_dump(exclude_none=True)
    assert dumped["checks"][1]["in"] == "created"  # the alias, not the attribute name
    assert VerifySpec.model_validate(dumped) == spec
    assert VerifySpec.model_validate_json(spec.model_dump_json()) == spec
    assert VerifySpec.model_validate(json.loads(json.dumps(spec.model_dump()))) == spec


def test_default_names():
    spec = VerifySpec.model_validate(FULL)
    assert spec.checks[0].label() == 'messages where {"id": 12} expect {"starred": true}'
    assert spec.checks[1].label().startswith("created messages where ")
    assert spec.checks[3].label() == 'answer {"$icontains": "march 14"}'
    assert spec.checks[4].label() == "total pipeline"
    long = RowCheck.model_validate({"table": "t", "where": {"x": "y" * 300}})
    assert len(long.label()) <= 120


def test_fields_without_ops_means_updates_only():
    spec = VerifySpec.model_validate(FULL)
    assert spec.unchanged_except[0].allowed_ops() == {"update"}
    assert spec.unchanged_except[1].allowed_ops() == {"create"}
    assert VerifySpec.model_validate({"unchanged_except": [{"table": "t"}]}).unchanged_except[0].allowed_ops() == {
        "create", "delete", "update"}


def test_empty_unchanged_except_is_kept_distinct_from_absent():
    assert VerifySpec.model_validate({"unchanged_except": []}).unchanged_except == []
    assert VerifySpec.model_validate({"checks": [{"answer": "x"}]}).unchanged_except is None


@pytest.mark.parametrize("spec,loc,needle", [
    ({"checks": [{"table": "m", "where": {"to": {"$containz": "x"}}}]}, "checks.0.row.where",
     "unknown matcher operator '$containz' (did you mean '$contains'?)"),
    ({"checks": [{"table": "m", "expect": {"n": {"$gte": None}}}]}, "checks.0.row.expect", "where.n.$gte"),
    ({"checks": [{"table": "m", "expected": {"a": 1}}]}, "checks.0.row.expected", "Extra inputs"),
    ({"checks": [{"foo": 1}]}, "checks.0", "exactly one of 'table'"),
    ({"checks": [{"table": "m", "answer": "x"}]}, "checks.0", "exactly one of 'table'"),
    ({"checks": ["messages"]}, "checks.0", "exactly one of 'table'"),
    ({"checks": [{"answer": 42}]}, "checks.0.answer.answer", "use {\"$number\""),
    ({"checks": [{"answer": None}]}, "checks.0.answer.answer", "$exists"),
    ({"checks": [{"answer": {"$regex": "["}}]}, "checks.0.answer.answer", "invalid regular expression"),
    ({"checks": [{"table": "m", "count": True}]}, "checks.0.row.count", "non-negative integer"),
    ({"checks": [{"table": "m", "count": -1}]}, "checks.0.row.count", ">= 0"),
    ({"checks": [{"table": "m", "count": "1"}]}, "checks.0.row.count", "non-negative integer"),
    ({"checks": [{"table": "m", "count": {"n": 1}}]}, "checks.0.row.count", "operator matcher"),
    ({"checks": [{"table": "m", "count": {"$gtee": 1}}]}, "checks.0.row.count", "'$gtee'"),
    ({"checks": [{"table": "m", "in": "added"}]}, "checks.0.row.in", "'created'"),
    ({"checks": [{"table": ""}]}, "checks.0.row.table", "at least 1 character"),
    ({"checks": [{"table": "m", "where": {"$nor": []}}]}, "checks.0.row.where", "unknown where operator '$nor'"),
    ({"checks": [{"table": "m", "where": {"a": {"$eq": 1, "b": 2}}}]}, "checks.0.row.where", "mixes operators"),
    ({"checks": [{"table": "m", "where": {"a": {"$ref": {"table": "x"}}}}]}, "checks.0.row.where", "'field'"),
    ({"checks": []}, "", "at least one check"),
    ({}, "", "at least one check"),
    ({"checks": [{"answer": "x"}], "scoring": "some"}, "scoring", "'fraction'"),
    ({"checks": [{"answer": "x"}], "extra": 1}, "extra", "Extra inputs"),
    ({"unchanged_except": [{"table": "m", "ops": ["upsert"]}]}, "unchanged_except.0.ops.0", "'update'"),
    ({"unchanged_except": [{"table": "m", "ops": []}]}, "unchanged_except.0", "ops must not be empty"),
    ({"unchanged_except": [{"table": "m", "fields": []}]}, "unchanged_except.0", "fields must not be empty"),
    ({"unchanged_except": [{"table": "m", "ops": ["create"], "fields": ["a"]}]}, "unchanged_except.0",
     "fields only apply to updates"),
    ({"unchanged_except": [{"table": "m", "where": {"a": {"$bad": 1}}}]}, "unchanged_except.0.where", "'$bad'"),
    ({"unchanged_except": [{"table": "m", "field": ["a"]}]}, "unchanged_except.0.field", "Extra inputs"),
])
def test_bad_specs_name_the_problem(spec, loc, needle):
    with pytest.raises(ValidationError) as e:
        VerifySpec.model_validate(spec)
    errors = e.value.errors()
    assert len(errors) == 1, errors
    assert ".".join(str(p) for p in errors[0]["loc"]) == loc
    assert needle in errors[0]["msg"]


def test_literal_dict_matchers_are_allowed():
    spec = VerifySpec.model_validate({"checks": [{"table": "m", "where": {"headers": {"x-prio": "high"}}}]})
    assert spec.checks[0].where == {"headers": {"x-prio": "high"}}


def test_readme_example_spec_is_valid():
    """The spec in grading/README.md is the one people copy; keep it loadable."""
    import pathlib
    import re

    readme = (pathlib.Path(__file__).parents[2] / "grading" / "README.md").read_text()
    block = re.search(r"## A spec\s+```json\n(.*?)```", readme, re.S).group(1)
    spec = VerifySpec.model_validate(json.loads(block))
    assert len(spec.checks) == 5 and len(spec.unchanged_except) == 3
