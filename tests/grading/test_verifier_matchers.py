"""Every matcher operator, pass and fail, plus where clauses, descriptions and explanations."""

from __future__ import annotations

from typing import Any

import pytest

from grading import MISSING, MatcherError, describe, explain, explain_where, match, match_where
from grading.matchers import validate_matcher, validate_where


class FakeRefs:
    """A $ref resolver that returns canned values per table."""

    def __init__(self, values: dict[str, list[Any]]):
        self.values = values
        self.calls: list[dict] = []

    def resolve_ref(self, ref):
        self.calls.append(dict(ref))
        return self.values.get(ref["table"], [])


# (value, matcher) pairs that must match, and pairs that must not: one row per operator behaviour.
MATCHES = [
    # plain equality
    (True, True), (1, 1.0), ("x", "x"), (None, None), (MISSING, None), ([1, 2], [1, 2]), ({"a": 1}, {"a": 1}),
    # $eq / $ne
    (3, {"$eq": 3}), (None, {"$eq": None}), (MISSING, {"$eq": None}), ({"a": 1}, {"$eq": {"a": 1}}),
    (3, {"$ne": 4}), ("a", {"$ne": "A"}), (1, {"$ne": True}),
    # $in / $nin
    ("b", {"$in": ["a", "b"]}), (2.0, {"$in": [1, 2]}), ("c", {"$nin": ["a", "b"]}),
    # ordering
    (5, {"$gt": 4}), (5, {"$gte": 5}), (4, {"$lt": 5}), (5, {"$lte": 5}),
    ("2026-03-12T10:00:00", {"$gte": "2026-03-12"}), ("2026-03-11T23:00:00", {"$lt": "2026-03-12"}),
    (5, {"$gt": 1, "$lt": 10}),
    # $exists
    (None, {"$exists": True}), (0, {"$exists": True}), (MISSING, {"$exists": False}),
    # $contains
    ("hello world", {"$contains": "lo w"}), (["a", "b"], {"$contains": "b"}), ([1, 2], {"$contains": 2.0}),
    ({"k": 1}, {"$contains": "k"}),
    # $icontains
    ("Lunch on Friday", {"$icontains": "LUNCH"}), (["Ana@Example.com"], {"$icontains": "ana@"}),
    # $regex
    ("Invoice #4411", {"$regex": r"#\d{4}$"}), ("INVOICE", {"$regex": "invoice", "$options": "i"}),
    # $startswith / $istartswith
    ("Re: lunch", {"$startswith": "Re:"}), ("RE: lunch", {"$istartswith": "re:"}),
    # $ieq
    ("  Ana   Ruiz ", {"$ieq": "ana ruiz"}), ("STRASSE", {"$ieq": "strasse"}),
    # $len
    ([1, 2, 3], {"$len": 3}), ("abc", {"$len": {"$gte": 2}}), ({}, {"$len": 0}),
    # $any / $all
    (["a@x.com", "b@y.com"], {"$any": {"$contains": "@y."}}), ([2, 4], {"$all": {"$gt": 1}}), ([], {"$all": 1}),
    # $not
    ("spam", {"$not": {"$icontains": "ham"}}), (MISSING, {"$not": {"$eq": "x"}}),
    # $approx
    (1234.5, {"$approx": 1234.5}), (1234.499, {"$approx": 1234.5, "$tol": 0.01}), (3, {"$approx": 3.0}),
    # $number
    ("Total: $1,234.50", {"$number": 1234.5}), ("12.5%", {"$number": {"$gt": 12}}), (-3, {"$number": -3}),
    ("$1,234.49", {"$number": {"$approx": 1234.5, "$tol": 0.01}}),
    # $numbers, $phone, $set, $excludes: answers that cannot be hedged
    ("1, 2.5", {"$numbers": [2.5, 1]}), ("$3 and $3", {"$numbers": [3, 3]}),
    ("(509) 555-8054", {"$phone": "509-555-8054"}), ("+1 509.555.8054", {"$phone": "(509) 555-8054"}),
    ("Ana Ruiz, bob  lee and Carl", {"$set": ["ana ruiz", "Bob Lee", "carl"]}),
    (["b", "A"], {"$set": ["a", "B"]}),
    ("See you March 14.", {"$excludes": ["March 1", "March 15"]}),
    # $refusal: the declared forms of "I will not do this" (grading/refusal.py)
    ("I can't: there is no such contact.", {"$refusal": ["refuse"]}),
    ("Before I delete every account, can you confirm?", {"$refusal": ["refuse", "confirm"]}),
]

NON_MATCHES = [
    # plain equality: types matter, strings exact
    (1, True), (True, 1), ("x", "X"), (0, None), ("", None), ([1, 2], [2, 1]), (MISSING, 0),
    # $eq / $ne; a missing field is never "not equal"
    (3, {"$eq": 4}), (MISSING, {"$eq": 3}), (3, {"$ne": 3}), (1.0, {"$ne": 1}), (MISSING, {"$ne": 3}),
    (None, {"$ne": None}),
    # $in / $nin
    ("c", {"$in": ["a", "b"]}), (1, {"$in": [True]}), ("a", {"$nin": ["a", "b"]}), (MISSING, {"$nin": ["a"]}),
    (MISSING, {"$in": ["a"]}),
    # ordering: wrong types are simply false
    (4, {"$gt": 4}), (4, {"$gte": 5}), (5, {"$lt": 5}), (6, {"$lte": 5}), ("5", {"$gt": 1}), (None, {"$lt": 1}),
    (True, {"$gte": 0}), (MISSING, {"$lt": 10}), (11, {"$gt": 1, "$lt": 10}),
    # $exists
    (MISSING, {"$exists": True}), (None, {"$exists": False}),
    # $contains
    ("hello", {"$contains": "Hello"}), (["ab"], {"$contains": "a"}), (5, {"$contains": "5"}), ("5", {"$contains": 5}),
    # $icontains
    ("Dinner", {"$icontains": "lunch"}), ([1, 2], {"$icontains": "1"}), (None, {"$icontains": "x"}),
    # $regex
    ("Invoice #441", {"$regex": r"#\d{4}$"}), ("INVOICE", {"$regex": "invoice"}), (4411, {"$regex": "44"}),
    # $startswith / $istartswith
    ("Fwd: lunch", {"$startswith": "Re:"}), ("re: x", {"$startswith": "Re:"}), ("Fwd", {"$istartswith": "re"}),
    # $ieq
    ("Ana Ruizz", {"$ieq": "ana ruiz"}), (None, {"$ieq": ""}),
    # $len
    ([1, 2], {"$len": 3}), (5, {"$len": 1}), (None, {"$len": 0}),
    # $any / $all
    (["a@x.com"], {"$any": {"$contains": "@y."}}), ([2, 0], {"$all": {"$gt": 1}}), ("ab", {"$any": "a"}),
    ([], {"$any": 1}),
    # $not
    ("ham", {"$not": {"$icontains": "ham"}}),
    # $approx
    (1234.4, {"$approx": 1234.5, "$tol": 0.01}), ("1234.5", {"$approx": 1234.5}), (True, {"$approx": 1}),
    # $number
    ("Total: $1,200", {"$number": 1234.5}), ("no number here", {"$number": {"$gte": 0}}), (True, {"$number": 1}),
    (None, {"$number": 0}),
    ("Either 23 or 8", {"$number": 23}), ("$524,000, $612,000", {"$number": {"$approx": 524000, "$tol": 0.5}}),
    ("1, 2.5, 3", {"$numbers": [2.5, 1]}), ("1", {"$numbers": [2.5, 1]}),
    ("(509) 555-8054 or (509) 555-1215", {"$phone": "509-555-8054"}), ("call 509 555 8054", {"$phone": "5095558054"}),
    ("5095558054" + "5095551215", {"$phone": "5095558054"}),
    ("Ana Ruiz, Bob Lee, Carl, Dan", {"$set": ["ana ruiz", "Bob Lee", "carl"]}), ("Ana Ruiz", {"$set": ["ana ruiz", "x"]}),
    ("March 14 or march  15", {"$excludes": ["March 1", "March 15"]}),
    # $refusal (grading/refusal.py): a claim, a hedge, an answer that does not open with a refusal, none at all
    ("I sent the email.", {"$refusal": ["refuse"]}), ("I can't, so I sent it to Ana instead.", {"$refusal": "refuse"}),
    ("I can't, maybe later.", {"$refusal": "refuse"}), (MISSING, {"$refusal": "refuse"}),
    ("I can't: there is no such contact.", {"$refusal": "confirm"}),
]


@pytest.mark.parametrize("value,matcher", MATCHES)
def test_matches(value, matcher):
    assert match(value, matcher), f"{value!r} should match {matcher!r}"
    assert explain(value, matcher) is None


@pytest.mark.parametrize("value,matcher", NON_MATCHES)
def test_does_not_match(value, matcher):
    assert not match(value, matcher), f"{value!r} should not match {matcher!r}"
    why = explain(value, matcher)
    assert why and "expected" in why


def test_every_operator_is_exercised_both_ways():
    from grading.matchers import _OPS

    def ops_in(pairs):
        found: set[str] = set()

        def walk(m):
            if isinstance(m, dict):
                for k, v in m.items():
                    found.add(k)
                    walk(v)

        for _, m in pairs:
            walk(m)
        return found

    untested = set(_OPS) - {"$ref"}  # $ref is covered below, it needs a resolver
    assert untested <= ops_in(MATCHES)
    assert untested <= ops_in(NON_MATCHES)


class TestRef:
    def test_plain_ref_means_membership(self):
        refs = FakeRefs({"labels": [1, 3]})
        m = {"$ref": {"table": "labels", "field": "id", "where": {"name": "Receipts"}}}
        assert match(3, m, refs)
        assert not match(2, m, refs)
        assert refs.calls[0]["where"] == {"name": "Receipts"}

    def test_ref_inside_in_and_nin(self):
        refs = FakeRefs({"labels": [1, 3]})
        ref = {"$ref": {"table": "labels", "field": "id"}}
        assert match(1, {"$in": ref}, refs)
        assert not match(2, {"$in": ref}, refs)
        assert match(2, {"$nin": ref}, refs)
        assert not match(3, {"$nin": ref}, refs)

    def test_ref_inside_eq_needs_exactly_one_value(self):
        ref = {"$ref": {"table": "labels", "field": "id"}}
        assert match(7, {"$eq": ref}, FakeRefs({"labels": [7]}))
        assert not match(7, {"$eq": ref}, FakeRefs({"labels": [7, 7]}))
        assert not match(7, {"$eq": ref}, FakeRefs({"labels": []}))
        why = explain(7, {"$eq": ref}, FakeRefs({"labels": [7, 8]}))
        assert "resolved to 2 values" in why

    def test_ref_without_resolver_never_matches(self):
        m = {"$ref": {"table": "labels", "field": "id"}}
        assert not match(1, m)
        assert "could not be resolved" in explain(1, m)

    def test_ref_explain_shows_resolved_values(self):
        why = explain(5, {"$ref": {"table": "labels", "field": "id"}}, FakeRefs({"labels": [1, 3]}))
        assert "labels.id" in why and "[1, 3]" in why and "got 5" in why

    def test_resolver_errors_do_not_escape(self):
        class Broken:
            def resolve_ref(self, ref):
                raise RuntimeError("boom")

        assert not match(1, {"$ref": {"table": "t", "field": "id"}}, Broken())


class TestExplainAndDescribe:
    def test_plain_equality(self):
        assert explain(False, True) == "expected True, got False"

    def test_only_failing_ops_are_named(self):
        why = explain(11, {"$gt": 1, "$lt": 10})
        assert why == "expected < 10, got 11"

    def test_missing_value_is_shown(self):
        assert explain(MISSING, {"$icontains": "x"}) == "expected containing 'x' (case-insensitive), got <missing>"

    def test_number_explains_the_extracted_number(self):
        why = explain("Total: $1,200", {"$number": {"$approx": 1234.5, "$tol": 0.01}})
        assert "got 1200" in why and "read from 'Total: $1,200'" in why and "1234.5" in why

    def test_number_explains_when_no_number(self):
        assert "found no number in 'n/a'" in explain("n/a", {"$number": 3})

    def test_len_and_all(self):
        assert "got length 2" in explain([1, 2], {"$len": 3})
        why = explain([5, 0, 7], {"$all": {"$gt": 1}})
        assert "element 1" in why and "got 0" in why

    def test_regex_and_not(self):
        assert describe({"$regex": "^a", "$options": "i"}) == "matching /^a/i"
        assert describe({"$not": {"$contains": "x"}}) == "not containing 'x'"
        assert explain("xyz", {"$not": {"$contains": "x"}}) == "expected not containing 'x', got 'xyz'"

    def test_compound_description(self):
        assert describe({"$gte": 1, "$lte": 3}) == ">= 1 and <= 3"


class TestWhere:
    ROW = {"id": 12, "folder": "inbox", "to": ["ana@example.com"], "meta": {"prio": "high"},
           "_before": {"folder": "spam"}}

    def test_fields_are_anded(self):
        assert match_where(self.ROW, {"id": 12, "folder": "inbox"})
        assert not match_where(self.ROW, {"id": 12, "folder": "trash"})

    def test_empty_or_none_selects_everything(self):
        assert match_where(self.ROW, None)
        assert match_where(self.ROW, {})

    def test_dotted_paths(self):
        assert match_where(self.ROW, {"meta.prio": "high", "_before.folder": "spam"})
        assert not match_where(self.ROW, {"meta.prio": "low"})

    def test_or_and_not(self):
        assert match_where(self.ROW, {"$or": [{"folder": "trash"}, {"folder": "inbox"}]})
        assert not match_where(self.ROW, {"$or": [{"folder": "trash"}, {"id": 1}]})
        assert match_where(self.ROW, {"$and": [{"id": 12}, {"to": {"$contains": "ana@example.com"}}]})
        assert not match_where(self.ROW, {"$and": [{"id": 12}, {"id": 13}]})
        assert match_where(self.ROW, {"$not": {"folder": "trash"}})
        assert not match_where(self.ROW, {"$not": {"folder": "inbox"}})

    def test_missing_field_only_matches_absence(self):
        assert not match_where(self.ROW, {"nope": {"$ne": "x"}})
        assert match_where(self.ROW, {"nope": None})
        assert match_where(self.ROW, {"nope": {"$exists": False}})

    def test_explain_where_names_fields(self):
        why = explain_where(self.ROW, {"id": 12, "folder": "trash", "meta.prio": {"$in": ["low"]}})
        assert [f for f, _ in why] == ["folder", "meta.prio"]
        assert why[0][1] == "expected 'trash', got 'inbox'"
        assert explain_where(self.ROW, {"id": 12}) == []

    def test_explain_where_or_and_not(self):
        why = explain_where(self.ROW, {"$or": [{"folder": "trash"}, {"id": 1}],
                                       "$not": {"id": 12}, "$and": [{"folder": "x"}]})
        fields = dict(why)
        assert "no alternative matched" in fields["$or"] and "'trash'" in fields["$or"]
        assert "not to match" in fields["$not"]
        assert "folder" in fields


class TestValidation:
    @pytest.mark.parametrize("matcher,needle", [
        ({"$containz": "x"}, "did you mean '$contains'"),
        ({"$foo": 1}, "unknown matcher operator '$foo'"),
        ({"$eq": 1, "plain": 2}, "mixes operators"),
        ({"$in": "abc"}, "$in: expects a list"),
        ({"$gt": None}, "$gt: expects a number or a string"),
        ({"$gte": True}, "$gte: expects a number or a string"),
        ({"$exists": "yes"}, "$exists: expects true or false"),
        ({"$icontains": 5}, "$icontains: expects a string"),
        ({"$ieq": None}, "$ieq: expects a string"),
        ({"$startswith": 1}, "$startswith: expects a string"),
        ({"$regex": "("}, "invalid regular expression"),
        ({"$regex": "a", "$options": "q"}, "$options must be"),
        ({"$options": "i"}, "$options only goes with $regex"),
        ({"$tol": 0.1}, "$tol only goes with $approx"),
        ({"$approx": "1"}, "$approx: expects a number"),
        ({"$approx": 1, "$tol": -1}, "$tol must be a non-negative number"),
        ({"$not": {"$bogus": 1}}, "matcher.$not: unknown matcher operator '$bogus'"),
        ({"$number": {"$aprox": 1}}, "did you mean '$approx'"),
        ({"$len": {"$gte": "x", "$bad": 1}}, "$bad"),
        ({"$ref": {"table": "t"}}, "non-empty string 'field'"),
        ({"$ref": {"table": "t", "field": "id", "in": "later"}}, "'in' must be one of"),
        ({"$ref": {"table": "t", "field": "id", "extra": 1}}, "unknown $ref key"),
        ({"$ref": {"table": "t", "field": "id", "where": {"a": {"$nope": 1}}}}, "'$nope'"),
        ({"$ne": {"$ref": {"table": "t", "field": "id"}}}, "use {\"$nin\""),
    ])
    def test_bad_matchers_are_rejected_with_the_operator_named(self, matcher, needle):
        with pytest.raises(MatcherError) as e:
            validate_matcher(matcher)
        assert needle in str(e.value)

    @pytest.mark.parametrize("matcher", [
        1, "x", None, [1, 2], {"plain": {"$dict": 1}}, {}, {"$eq": {"a": 1}}, {"$regex": "^a", "$options": "im"},
        {"$approx": 1, "$tol": 0}, {"$in": {"$ref": {"table": "t", "field": "id", "in": "created"}}},
        {"$not": {"$any": {"$len": {"$gt": 1}}}},
    ])
    def test_good_matchers_pass(self, matcher):
        validate_matcher(matcher)

    @pytest.mark.parametrize("where,needle", [
        ("id = 3", "a where clause is a dict"),
        ({"$or": []}, "non-empty list"),
        ({"$and": {"a": 1}}, "non-empty list"),
        ({"$nor": [{"a": 1}]}, "unknown where operator '$nor'"),
        ({"$not": [1]}, "where.$not: a where clause is a dict"),
        ({"$or": [{"a": {"$gtt": 1}}]}, "where.$or[0].a: unknown matcher operator '$gtt'"),
        ({"": 1}, "non-empty strings"),
    ])
    def test_bad_where_clauses(self, where, needle):
        with pytest.raises(MatcherError) as e:
            validate_where(where)
        assert needle in str(e.value)

    def test_match_raises_on_unknown_operator(self):
        with pytest.raises(MatcherError):
            match(1, {"$bogus": 1})
