"""Value helpers: paths, equality, ordering, number extraction."""

from __future__ import annotations

import math

import pytest

from grading.values import MISSING, canonical, compare, extract_number, get_path, render, values_equal


class TestGetPath:
    def test_plain_key(self):
        assert get_path({"a": 1}, "a") == 1

    def test_missing_key_is_missing_not_none(self):
        assert get_path({"a": None}, "a") is None
        assert get_path({"a": 1}, "b") is MISSING

    def test_dotted_into_dicts(self):
        assert get_path({"_before": {"folder": "inbox"}}, "_before.folder") == "inbox"
        assert get_path({"_before": {"folder": "inbox"}}, "_before.nope") is MISSING

    def test_literal_dotted_key_wins(self):
        assert get_path({"a.b": 1, "a": {"b": 2}}, "a.b") == 1

    def test_list_index(self):
        assert get_path({"to": ["x", "y"]}, "to.1") == "y"
        assert get_path({"to": ["x", "y"]}, "to.-1") == "y"
        assert get_path({"to": ["x", "y"]}, "to.5") is MISSING

    def test_through_a_scalar_is_missing(self):
        assert get_path({"a": 3}, "a.b") is MISSING
        assert get_path("not a row", "a") is MISSING

    def test_missing_is_falsy_singleton(self):
        assert not MISSING
        assert repr(MISSING) == "<missing>"
        assert type(MISSING)() is MISSING


class TestValuesEqual:
    @pytest.mark.parametrize("a,b", [(1, 1.0), ("x", "x"), (None, None), ([1, "a"], [1.0, "a"]),
                                     ({"k": [1]}, {"k": [1.0]}), (True, True)])
    def test_equal(self, a, b):
        assert values_equal(a, b)

    @pytest.mark.parametrize("a,b", [(True, 1), (False, 0), (1, "1"), ("a", "A"), (None, 0), (None, ""),
                                     ([1], [1, 2]), ({"k": 1}, {"k": 1, "j": 2}), (MISSING, None)])
    def test_not_equal(self, a, b):
        assert not values_equal(a, b)

    def test_missing_equals_only_itself(self):
        assert values_equal(MISSING, MISSING)


class TestCompare:
    def test_numbers(self):
        assert compare(2, 1.5) == 1
        assert compare(1, 1.0) == 0
        assert compare(-1, 0) == -1

    def test_iso_dates_lexicographic(self):
        assert compare("2026-03-12T10:00:00", "2026-03-12") == 1
        assert compare("2026-03-11T23:59:59", "2026-03-12") == -1

    @pytest.mark.parametrize("a,b", [(1, "1"), (True, 0), (None, 1), ([1], [2]), (math.nan, 1)])
    def test_incompatible_is_none(self, a, b):
        assert compare(a, b) is None


class TestExtractNumber:
    @pytest.mark.parametrize("text,expected", [
        ("$1,234.50", 1234.5), ("-3", -3), ("12.5%", 12.5), ("The total is $1,234.50.", 1234.5),
        ("about 42 deals", 42), ("-$5.00", -5.0), ("$-5", -5), ("item-3", 3), (".5", 0.5),
        ("12,345,678", 12345678), ("1,2", 1), ("\u22127", -7),
    ])
    def test_strings(self, text, expected):
        assert extract_number(text) == expected

    def test_numbers_pass_through(self):
        assert extract_number(7) == 7
        assert extract_number(2.5) == 2.5

    @pytest.mark.parametrize("v", ["no digits", "", None, True, [1], {"a": 1}])
    def test_no_number(self, v):
        assert extract_number(v) is None

    def test_int_kept_as_int(self):
        assert isinstance(extract_number("14 items"), int)


def test_render_truncates_and_quotes():
    assert render("x") == "'x'"
    assert render(True) == "True"
    long = render("a" * 500, limit=20)
    assert len(long) == 20 and long.endswith("\u2026")


def test_canonical_is_order_independent():
    assert canonical({"a": 1, "b": 2}) == canonical({"b": 2, "a": 1})
    assert canonical({"a": 1}) != canonical({"a": 2})
