"""The verifier's side of reward integrity: bounded allowances, the spec lint, answers that cannot be hedged."""

from __future__ import annotations

import copy

import pytest

from grading import verify
from grading.lint import spec_holes

START = {
    "cases": [{"id": 1, "subject": "Printer jam", "status": "New"}, {"id": 2, "subject": "VPN down", "status": "New"}],
    "messages": [{"id": i, "subject": f"m{i}", "is_read": False} for i in range(1, 11)],
    "_meta": {"app": "crm"},
}


def with_new_cases(n: int) -> dict:
    end = copy.deepcopy(START)
    end["cases"] += [{"id": 100 + i, "subject": f"Extra {i}", "status": "New"} for i in range(n)]
    return end


def allowance_check(end: dict, allow: list[dict]):
    return verify({"unchanged_except": allow}, START, end, None).checks[-1]


class TestAllowanceMax:
    ALLOW = [{"table": "cases", "ops": ["create"], "max": 1}]

    def test_one_create_is_allowed(self):
        assert allowance_check(with_new_cases(1), self.ALLOW).passed

    def test_an_extra_create_is_caught(self):
        r = allowance_check(with_new_cases(2), self.ALLOW)
        assert not r.passed
        assert "more than allowed" in r.detail and "at most 1 create in 'cases'" in r.detail

    def test_without_max_any_number_passes(self):
        # the hole the lint names: an unbounded allowance
        assert allowance_check(with_new_cases(5), [{"table": "cases", "ops": ["create"]}]).passed

    def test_budget_goes_to_the_first_allowance_in_order(self):
        allow = [{"table": "cases", "ops": ["create"], "max": 1},
                 {"table": "cases", "ops": ["create"], "where": {"subject": {"$istartswith": "extra"}}, "max": 1}]
        assert allowance_check(with_new_cases(2), allow).passed
        assert not allowance_check(with_new_cases(3), allow).passed

    def test_reading_budget_on_updates(self):
        allow = [{"table": "messages", "fields": ["is_read"], "where": {"is_read": True}, "max": 3}]
        end = copy.deepcopy(START)
        for m in end["messages"][:3]:
            m["is_read"] = True
        assert allowance_check(end, allow).passed
        for m in end["messages"]:  # "mark all as read"
            m["is_read"] = True
        r = allowance_check(end, allow)
        assert not r.passed and "7 change(s) more than allowed" in r.detail


class TestHedges:
    def grade(self, matcher, answer):
        return verify({"checks": [{"answer": matcher}], "unchanged_except": []}, START, START, answer).score

    @pytest.mark.parametrize("answer", ["23", "23 conversations", "There are 23."])
    def test_one_number_passes(self, answer):
        assert self.grade({"$number": {"$eq": 23}}, answer) == 1.0

    @pytest.mark.parametrize("answer", ["Either 23 or 8", "8 or 23", "23, 24", "between 20 and 25"])
    def test_two_numbers_fail(self, answer):
        assert self.grade({"$number": {"$eq": 23}}, answer) == 0.0

    def test_phone_dump_fails(self):
        phones = ["(509) 555-8054", "(509) 555-1215", "(613) 555-6038"]
        m = {"$phone": "(509) 555-8054"}
        assert self.grade(m, "509-555-8054") == 1.0
        assert self.grade(m, "\n".join(phones)) == 0.0
        assert self.grade(m, "(509) 555-8054 or (509) 555-1215") == 0.0

    def test_set_is_exact(self):
        m = {"$set": ["Ana Ruiz", "Bo Li"]}
        assert self.grade(m, "Bo Li and Ana Ruiz") == 1.0
        assert self.grade(m, "Ana Ruiz, Bo Li, Cy Young") == 0.0
        assert self.grade(m, "Ana Ruiz") == 0.0


class TestLint:
    def test_closed_spec_has_no_holes(self):
        spec = {"checks": [{"answer": {"$ieq": "Ana Ruiz"}},
                           {"table": "messages", "in": "created",
                            "expect": {"body": {"$icontains": "April 15", "$excludes": ["April 16"]},
                                       "to": {"$len": 1, "$contains": "ana@x.com"}}}],
                "unchanged_except": [{"table": "messages", "ops": ["create"], "max": 1},
                                     {"table": "messages", "where": {"id": 3}, "fields": ["starred"]}]}
        assert spec_holes(spec) == []

    @pytest.mark.parametrize("matcher,word", [
        ({"$icontains": "ana"}, "$icontains"),
        ({"$regex": "5\\D*0\\D*9"}, "unanchored"),
        ({"$regex": "^(10|11) PM$"}, "unanchored"),
        ({"$not": {"$ieq": "x"}}, "$not"),
    ])
    def test_open_answers(self, matcher, word):
        holes = spec_holes({"checks": [{"answer": matcher}]})
        assert len(holes) == 1 and word in holes[0]

    def test_unbounded_written_text(self):
        holes = spec_holes({"checks": [{"table": "messages", "in": "created",
                                        "expect": {"body": {"$icontains": "April 15"}}}]})
        assert len(holes) == 1 and "'body'" in holes[0]

    def test_substring_on_a_pinned_existing_row_is_not_agent_text(self):
        assert spec_holes({"checks": [{"table": "messages", "where": {"id": 3, "subject": {"$icontains": "x"}},
                                       "expect": {"starred": True}}]}) == []

    def test_loose_allowances(self):
        holes = spec_holes({"unchanged_except": [{"table": "cases", "ops": ["create"]},
                                                 {"table": "users", "fields": ["phone"]},
                                                 {"table": "carts"}]})
        assert len(holes) == 3
        assert "create without 'max'" in holes[0]
        assert "update without where" in holes[1]
        assert "create/delete without 'max'" in holes[2] and "update without where and fields" in holes[2]
