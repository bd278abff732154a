"""verify(): row checks over every row set, counts, $ref, answers, unchanged_except, scoring, reports."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from grading import VerifyResult, VerifySpec, verify


def msg(state: dict[str, Any], id_: int) -> dict[str, Any]:
    return next(r for r in state["messages"] if r["id"] == id_)


def one(spec_check: dict, start, end, answer=None):
    """Run a single check and return its CheckResult."""
    result = verify({"checks": [spec_check]}, start, end, answer)
    assert len(result.checks) == 1
    return result.checks[0]


def new_message(**kw) -> dict[str, Any]:
    row = {"id": 13, "thread_id": 4, "from_addr": "me@example.com", "to": ["ana@example.com"],
           "subject": "Lunch tomorrow", "body": "Noon?", "folder": "sent", "starred": False, "unread": False,
           "sent_at": "2026-03-12T10:25:00", "headers": {}, "last_opened_at": None}
    row.update(kw)
    return row


# ----------------------------------------------------------------------------- row checks, end set


class TestEndRows:
    CHECK = {"table": "messages", "where": {"id": 12}, "expect": {"starred": True}}

    def test_pass(self, start, end):
        msg(end, 12)["starred"] = True
        r = one(self.CHECK, start, end)
        assert r.passed and r.kind == "row"
        assert r.detail == "found 1 row in 'messages' matching {\"id\": 12}; all satisfy expect {\"starred\": true}"

    def test_fail_detail_names_row_field_expected_and_got(self, start, end):
        r = one(self.CHECK, start, end)
        assert not r.passed
        assert r.detail == 'messages where {"id": 12}: row 12 field \'starred\' expected True, got False'

    def test_expect_on_missing_row_fails(self, start, end):
        end["messages"] = [m for m in end["messages"] if m["id"] != 12]
        r = one(self.CHECK, start, end)
        assert not r.passed
        assert "expected at least one row in 'messages' matching {\"id\": 12}, found 0" in r.detail

    def test_expect_every_selected_row(self, start, end):
        check = {"table": "messages", "where": {"from_addr": "ana@example.com"}, "expect": {"folder": "archive"}}
        msg(end, 10)["folder"] = "archive"
        r = one(check, start, end)
        assert not r.passed
        assert "1 of 2 selected rows fail expect" in r.detail and "row 12 field 'folder'" in r.detail
        msg(end, 12)["folder"] = "archive"
        assert one(check, start, end).passed

    def test_no_where_no_expect_needs_a_row(self, start, end):
        assert one({"table": "labels"}, start, end).passed
        end["labels"] = []
        r = one({"table": "labels"}, start, end)
        assert not r.passed and "table 'labels' is empty" in r.detail

    def test_where_only_needs_a_row(self, start, end):
        assert not one({"table": "labels", "where": {"name": "Travel"}}, start, end).passed
        end["labels"].append({"id": 3, "name": "Travel", "color": "red"})
        assert one({"table": "labels", "where": {"name": "Travel"}}, start, end).passed

    def test_unknown_table_fails_clearly(self, start, end):
        r = one({"table": "mesages", "where": {"id": 12}}, start, end)
        assert not r.passed
        assert "unknown table 'mesages'" in r.detail and "messages" in r.detail

    def test_dotted_path_into_json_column(self, start, end):
        assert one({"table": "messages", "where": {"id": 10}, "expect": {"headers.x-prio": "high"}},
                   start, end).passed
        r = one({"table": "messages", "where": {"id": 10}, "expect": {"headers.size": {"$lt": 1000}}}, start, end)
        assert not r.passed and "expected < 1000, got 1200" in r.detail

    def test_dates_compare_as_iso_strings(self, start, end):
        check = {"table": "messages", "where": {"sent_at": {"$gte": "2026-03-11", "$lt": "2026-03-12"}},
                 "count": 1}
        assert one(check, start, end).passed


# ----------------------------------------------------------------------------- counts


class TestCounts:
    def test_int_count_is_exact(self, start, end):
        assert one({"table": "messages", "where": {"unread": True}, "count": 2}, start, end).passed
        r = one({"table": "messages", "where": {"unread": True}, "count": 1}, start, end)
        assert not r.passed
        assert "expected 1 row in 'messages' matching {\"unread\": true}, found 2 (rows 10, 12)" in r.detail

    def test_matcher_count(self, start, end):
        assert one({"table": "messages", "count": {"$gte": 3}}, start, end).passed
        r = one({"table": "messages", "count": {"$gt": 3}}, start, end)
        assert not r.passed and "expected > 3 rows in 'messages', found 3" in r.detail

    def test_count_zero_means_none_may_match(self, start, end):
        check = {"table": "messages", "where": {"folder": "trash"}, "count": 0}
        assert one(check, start, end).passed
        msg(end, 11)["folder"] = "trash"
        r = one(check, start, end)
        assert not r.passed and "found 1 (row 11)" in r.detail

    def test_count_zero_with_expect_passes_vacuously(self, start, end):
        check = {"table": "messages", "in": "deleted", "count": {"$lte": 1}, "expect": {"folder": "trash"}}
        assert one(check, start, end).passed

    def test_count_not_allowing_zero_with_expect_reports_once(self, start, end):
        check = {"table": "messages", "in": "created", "count": 1, "expect": {"subject": "x"}}
        r = one(check, start, end)
        assert not r.passed
        assert r.detail.count("found 0") == 1

    def test_count_and_expect_both_checked(self, start, end):
        end["messages"].append(new_message())
        check = {"table": "messages", "in": "created", "count": 1, "expect": {"subject": {"$icontains": "dinner"}}}
        r = one(check, start, end)
        assert not r.passed and "row 13 field 'subject' expected containing 'dinner'" in r.detail


# ----------------------------------------------------------------------------- the other row sets


class TestRowSets:
    def test_created(self, start, end):
        check = {"table": "messages", "in": "created", "where": {"to": {"$contains": "ana@example.com"}},
                 "expect": {"subject": {"$icontains": "lunch"}}, "count": 1}
        assert not one(check, start, end).passed  # do-nothing
        end["messages"].append(new_message())
        assert one(check, start, end).passed

    def test_created_near_miss_wrong_recipient(self, start, end):
        end["messages"].append(new_message(id=3015, to=["bob@example.com"]))
        check = {"table": "messages", "in": "created", "where": {"to": {"$contains": "ana@example.com"}},
                 "expect": {"subject": {"$icontains": "lunch"}}, "count": 1}
        r = one(check, start, end)
        assert not r.passed
        assert r.detail.startswith("expected 1 created row in 'messages' matching "
                                   "{\"to\": {\"$contains\": \"ana@example.com\"}}, found 0")
        assert ("closest candidate row 3015 differs in 'to': expected containing 'ana@example.com', "
                "got ['bob@example.com']") in r.detail

    def test_created_when_nothing_was_created(self, start, end):
        r = one({"table": "messages", "in": "created", "where": {"subject": "x"}}, start, end)
        assert not r.passed and "no rows were created in 'messages'" in r.detail

    def test_existing_row_is_not_created(self, start, end):
        # the row exists at the end, but it was there at the start too
        assert one({"table": "messages", "where": {"id": 10}}, start, end).passed
        assert not one({"table": "messages", "in": "created", "where": {"id": 10}}, start, end).passed

    def test_deleted(self, start, end):
        check = {"table": "messages", "in": "deleted", "where": {"id": 11}}
        assert not one(check, start, end).passed
        end["messages"] = [m for m in end["messages"] if m["id"] != 11]
        assert one(check, start, end).passed
        assert one({"table": "messages", "in": "deleted", "expect": {"subject": {"$startswith": "Invoice"}}},
                   start, end).passed

    def test_start(self, start, end):
        end["labels"] = []
        assert one({"table": "labels", "in": "start", "where": {"name": "Work"}}, start, end).passed
        assert not one({"table": "labels", "where": {"name": "Work"}}, start, end).passed

    def test_changed_with_before(self, start, end):
        msg(end, 12)["folder"] = "archive"
        check = {"table": "messages", "in": "changed", "where": {"_before.folder": "inbox", "folder": "archive"},
                 "count": 1}
        assert one(check, start, end).passed
        msg(end, 12)["folder"] = "trash"
        r = one(check, start, end)
        assert not r.passed and "closest candidate row 12 differs in 'folder': expected 'archive', got 'trash'" \
            in r.detail

    def test_changed_ignores_volatile_only_changes(self, start, end):
        msg(end, 10)["last_opened_at"] = "2026-03-12T10:30:00"
        r = one({"table": "messages", "in": "changed", "count": 0}, start, end)
        assert r.passed

    def test_changed_rows_keep_volatile_fields_visible(self, start, end):
        msg(end, 10)["unread"] = False
        msg(end, 10)["last_opened_at"] = "2026-03-12T10:30:00"
        check = {"table": "messages", "in": "changed", "where": {"id": 10},
                 "expect": {"last_opened_at": {"$gte": "2026-03-12"}, "_before.unread": True}}
        assert one(check, start, end).passed


# ----------------------------------------------------------------------------- $ref


class TestRef:
    CHECK = {"table": "message_labels", "where": {
        "message_id": 12,
        "label_id": {"$ref": {"table": "labels", "where": {"name": "Receipts"}, "field": "id"}}},
        "count": {"$gte": 1}}

    def test_label_applied(self, start, end):
        assert not one(self.CHECK, start, end).passed
        end["message_labels"].append({"message_id": 12, "label_id": 1})
        assert one(self.CHECK, start, end).passed

    def test_wrong_label_is_a_near_miss(self, start, end):
        end["message_labels"].append({"message_id": 12, "label_id": 2})
        r = one(self.CHECK, start, end)
        assert not r.passed
        assert "differs in 'label_id'" in r.detail and "resolved to [1]" in r.detail and "got 2" in r.detail

    def test_ref_to_created_row(self, start, end):
        end["labels"].append({"id": 7, "name": "Travel", "color": "red"})
        end["message_labels"].append({"message_id": 10, "label_id": 7})
        check = {"table": "message_labels", "in": "created", "where": {"label_id": {"$eq": {"$ref": {
            "table": "labels", "in": "created", "where": {"name": {"$ieq": "travel"}}, "field": "id"}}}}, "count": 1}
        assert one(check, start, end).passed

    def test_eq_ref_with_several_values_fails(self, start, end):
        check = {"table": "messages", "where": {"id": {"$eq": {"$ref": {
            "table": "messages", "where": {"from_addr": "ana@example.com"}, "field": "id"}}}}}
        r = one(check, start, end)
        assert not r.passed and "resolved to 2 values" in r.detail

    def test_nin_ref(self, start, end):
        check = {"table": "messages", "where": {"id": {"$nin": {"$ref": {
            "table": "message_labels", "field": "message_id"}}}}, "count": 2}
        assert one(check, start, end).passed

    def test_ref_to_empty_selection_matches_nothing(self, start, end):
        check = {"table": "message_labels", "where": {"label_id": {"$ref": {
            "table": "labels", "where": {"name": "Nope"}, "field": "id"}}}}
        assert not one(check, start, end).passed

    def test_ref_in_answer_check(self, start, end):
        check = {"answer": {"$eq": {"$ref": {"table": "messages", "where": {"id": 11}, "field": "subject"}}}}
        assert one(check, start, end, answer=" Invoice #4411 ").passed
        assert not one(check, start, end, answer="Invoice #4412").passed


# ----------------------------------------------------------------------------- answers


class TestAnswers:
    def test_icontains(self, start, end):
        check = {"answer": {"$icontains": "march 14"}}
        assert one(check, start, end, "It is on March 14.").passed
        r = one(check, start, end, "March 15")
        assert not r.passed and r.kind == "answer"
        assert r.detail == "answer 'March 15': expected containing 'march 14' (case-insensitive), got 'March 15'"

    def test_plain_string_is_exact_after_strip(self, start, end):
        assert one({"answer": "42"}, start, end, "  42\n").passed
        assert not one({"answer": "42"}, start, end, "42.").passed

    def test_number_approx(self, start, end):
        check = {"answer": {"$number": {"$approx": 1234.5, "$tol": 0.01}}, "name": "total pipeline"}
        assert one(check, start, end, "The total is $1,234.50").passed
        assert one(check, start, end, "1234.499").passed
        r = one(check, start, end, "$1,200")
        assert not r.passed and r.name == "total pipeline"
        assert "got 1200" in r.detail and "1234.5" in r.detail
        r = one(check, start, end, "I could not find it")
        assert not r.passed and "found no number" in r.detail

    def test_missing_answer_fails_every_matcher(self, start, end):
        for m in ["x", {"$icontains": "x"}, {"$not": {"$icontains": "yes"}}, {"$ne": "x"}, {"$exists": True},
                  {"$regex": ".*"}, {"$nin": ["a"]}]:
            r = one({"answer": m}, start, end, None)
            assert not r.passed, m
            assert "no answer was given" in r.detail

    def test_exists_false(self, start, end):
        assert one({"answer": {"$exists": False}}, start, end, None).passed
        r = one({"answer": {"$exists": False}}, start, end, "something")
        assert not r.passed and "expected absent" in r.detail

    def test_empty_answer_is_an_answer(self, start, end):
        assert one({"answer": {"$exists": True}}, start, end, "  ").passed
        assert not one({"answer": {"$exists": False}}, start, end, "").passed

    def test_ieq_and_regex(self, start, end):
        assert one({"answer": {"$ieq": "ana ruiz"}}, start, end, "  Ana   RUIZ ").passed
        assert one({"answer": {"$regex": "^\\d{3}$"}}, start, end, " 123 ").passed
        assert not one({"answer": {"$regex": "^\\d{3}$"}}, start, end, "1234").passed

    def test_non_string_answer_is_stringified(self, start, end):
        assert one({"answer": {"$number": 3}}, start, end, 3).passed


# ----------------------------------------------------------------------------- unchanged_except


def audit(allow: list | None, start, end, checks: list | None = None):
    spec = {"checks": checks or [], "unchanged_except": allow}
    result = verify(spec, start, end, None)
    return result.checks[-1]


class TestUnchangedExcept:
    def test_empty_list_nothing_may_change(self, start, end):
        r = audit([], start, end)
        assert r.passed and r.kind == "unchanged_except" and r.detail == "nothing changed"
        msg(end, 11)["unread"] = True
        r = audit([], start, end)
        assert not r.passed
        assert "messages row 11 updated fields ['unread'] (unread: False -> True)" in r.detail

    def test_volatile_fields_are_ignored(self, start, end):
        msg(end, 10)["last_opened_at"] = "2026-03-12T10:30:00"
        end["_meta"]["now"] = "2026-03-12T11:00:00"
        assert audit([], start, end).passed

    def test_allowed_field_update(self, start, end):
        allow = [{"table": "messages", "where": {"id": 12}, "fields": ["starred"]}]
        msg(end, 12)["starred"] = True
        assert audit(allow, start, end).passed

    def test_extra_field_on_allowed_row_is_reported(self, start, end):
        allow = [{"table": "messages", "where": {"id": 12}, "fields": ["starred"]}]
        msg(end, 12)["starred"] = True
        msg(end, 12)["folder"] = "trash"
        r = audit(allow, start, end)
        assert not r.passed
        assert "messages row 12 updated fields ['folder', 'starred']" in r.detail
        assert "folder: 'inbox' -> 'trash'" in r.detail
        assert "only ['starred'] may change there" in r.detail

    def test_other_row_is_reported(self, start, end):
        allow = [{"table": "messages", "where": {"id": 12}, "fields": ["starred"]}]
        msg(end, 10)["starred"] = True
        r = audit(allow, start, end)
        assert not r.passed and "messages row 10 updated fields ['starred']" in r.detail

    def test_fields_only_allowance_does_not_allow_delete(self, start, end):
        allow = [{"table": "messages", "where": {"id": 12}, "fields": ["starred"]}]
        end["messages"] = [m for m in end["messages"] if m["id"] != 12]
        r = audit(allow, start, end)
        assert not r.passed and "messages row 12 deleted" in r.detail

    def test_ops(self, start, end):
        end["messages"].append(new_message())
        assert audit([{"table": "messages", "ops": ["create"]}], start, end).passed
        assert not audit([{"table": "messages", "ops": ["update", "delete"]}], start, end).passed
        r = audit([{"table": "labels"}], start, end)
        assert not r.passed and "messages row 13 created:" in r.detail and "'Lunch tomorrow'" in r.detail

    def test_where_on_created_row(self, start, end):
        end["messages"].append(new_message())
        assert audit([{"table": "messages", "ops": ["create"], "where": {"folder": "sent"}}], start, end).passed
        assert not audit([{"table": "messages", "ops": ["create"], "where": {"folder": "drafts"}}],
                         start, end).passed

    def test_where_on_update_matches_before_or_after(self, start, end):
        msg(end, 12)["folder"] = "archive"
        assert audit([{"table": "messages", "where": {"folder": "inbox"}, "fields": ["folder"]}], start, end).passed
        assert audit([{"table": "messages", "where": {"folder": "archive"}, "fields": ["folder"]}],
                     start, end).passed
        assert not audit([{"table": "messages", "where": {"folder": "spam"}, "fields": ["folder"]}],
                         start, end).passed

    def test_where_on_deleted_row(self, start, end):
        end["messages"] = [m for m in end["messages"] if m["id"] != 11]
        assert audit([{"table": "messages", "ops": ["delete"], "where": {"id": 11}}], start, end).passed
        r = audit([{"table": "messages", "ops": ["delete"], "where": {"id": 10}}], start, end)
        assert not r.passed and "messages row 11 deleted" in r.detail

    def test_idless_table(self, start, end):
        end["message_labels"].append({"message_id": 12, "label_id": 1})
        r = audit([], start, end)
        assert not r.passed and "message_labels row created: {'message_id': 12, 'label_id': 1}" in r.detail
        allow = [{"table": "message_labels", "ops": ["create"], "where": {"message_id": 12}}]
        assert audit(allow, start, end).passed

    def test_lists_first_few_and_counts_the_rest(self, start, end):
        for m in end["messages"]:
            m["starred"] = True
        end["labels"] = []
        r = audit([], start, end)
        assert r.detail.startswith("5 unexpected change(s): ")
        assert "(+2 more)" in r.detail

    def test_absent_means_not_checked(self, start, end):
        msg(end, 10)["subject"] = "changed"
        result = verify({"checks": [{"table": "messages", "where": {"id": 12}}]}, start, end, None)
        assert result.passed and [c.kind for c in result.checks] == ["row"]

    def test_allowed_changes_reported_on_pass(self, start, end):
        msg(end, 12)["starred"] = True
        r = audit([{"table": "messages", "fields": ["starred"]}], start, end)
        assert r.passed and r.detail == "1 change(s), all allowed"


# ----------------------------------------------------------------------------- whole specs


FULL = {
    "checks": [
        {"table": "messages", "where": {"id": 12}, "expect": {"starred": True}},
        {"table": "messages", "in": "created", "where": {"to": {"$contains": "ana@example.com"}},
         "expect": {"subject": {"$icontains": "lunch"}}, "count": 1},
        {"table": "message_labels", "where": {"message_id": 12, "label_id": {
            "$ref": {"table": "labels", "where": {"name": "Receipts"}, "field": "id"}}}, "count": {"$gte": 1}},
        {"answer": {"$icontains": "march 14"}},
    ],
    "unchanged_except": [
        {"table": "messages", "where": {"id": 12}, "fields": ["starred"]},
        {"table": "messages", "ops": ["create"]},
        {"table": "message_labels", "ops": ["create"]},
    ],
}


def solve(end: dict) -> None:
    msg(end, 12)["starred"] = True
    end["messages"].append(new_message())
    end["message_labels"].append({"message_id": 12, "label_id": 1})


class TestWholeSpecs:
    def test_oracle_scores_one(self, start, end):
        solve(end)
        result = verify(FULL, start, end, "March 14")
        assert result.score == 1.0 and result.passed
        assert len(result.checks) == 5
        assert result.summary() == "PASS score=1.00 (5/5 checks passed)"

    def test_do_nothing_scores_zero(self, start, end):
        result = verify(FULL, start, end, None)
        assert result.score == 0.0 and not result.passed
        assert [c.passed for c in result.checks] == [False, False, False, False, True]

    def test_near_miss_wrong_recipient_scores_zero(self, start, end):
        solve(end)
        end["messages"][-1]["to"] = ["ann@example.com"]
        result = verify(FULL, start, end, "March 14")
        assert result.score == 0.0
        failed = [c for c in result.checks if not c.passed]
        assert len(failed) == 1 and "closest candidate row 13" in failed[0].detail

    def test_near_miss_collateral_change_scores_zero(self, start, end):
        solve(end)
        msg(end, 10)["folder"] = "trash"
        result = verify(FULL, start, end, "March 14")
        assert result.score == 0.0
        assert "messages row 10 updated fields ['folder']" in result.checks[-1].detail

    def test_fraction_scoring(self, start, end):
        msg(end, 12)["starred"] = True
        result = verify({**FULL, "scoring": "fraction"}, start, end, "March 14")
        assert result.score == pytest.approx(3 / 5)
        assert not result.passed

    def test_summary_and_report_mention_failures(self, start, end):
        result = verify(FULL, start, end, "March 15")
        s = result.summary()
        assert s.startswith("FAIL score=0.00 (1/5 checks passed); failed: ")
        assert "\n" not in s and "(+2 more)" in s
        report = result.report()
        assert report.count("\n") == 5 and "FAIL" in report and "got 'March 15'" in report

    def test_accepts_model_or_dict(self, start, end):
        solve(end)
        assert verify(VerifySpec.model_validate(FULL), start, end, "march 14").score == 1.0

    def test_invalid_spec_raises_validation_error(self, start, end):
        with pytest.raises(ValidationError):
            verify({"checks": [{"table": "m", "where": {"a": {"$bogus": 1}}}]}, start, end, None)

    def test_result_is_json_serialisable(self, start, end):
        result = verify(FULL, start, end, None)
        again = VerifyResult.model_validate_json(result.model_dump_json())
        assert again == result
        assert VerifyResult(score=0.0, passed=False, checks=[]).summary().startswith("FAIL")

    def test_weird_state_data_never_raises(self, start):
        weird_end = {"messages": [None, 5, "x", {"id": [1, 2], "starred": {"deep": True}},
                                  {"id": 12, "starred": "yes", "to": None, "subject": 7}],
                     "labels": {"not": "a list"}, "message_labels": "nope", "_meta": None}
        result = verify({**FULL, "checks": FULL["checks"] + [
            {"table": "messages", "where": {"to.0.x": {"$gt": 3}, "subject": {"$regex": "a"}}, "count": 0},
            {"table": "messages", "expect": {"starred": {"$len": {"$gt": 0}}}}]}, start, weird_end, None)
        assert result.score == 0.0
        assert all(c.detail for c in result.checks)
        assert "internal error" not in result.report()
        assert result.checks[0].detail.endswith("field 'starred' expected True, got 'yes'")

    def test_states_that_are_not_dicts(self):
        result = verify({"checks": [{"table": "t"}], "unchanged_except": []}, None, "garbage", None)
        assert not result.passed
        assert "unknown table 't'" in result.checks[0].detail
        assert result.checks[1].passed

    def test_internal_errors_become_failing_checks(self, start, end, monkeypatch):
        import grading.engine as engine

        def boom(*a, **k):
            raise RuntimeError("kaboom")

        monkeypatch.setattr(engine, "_check_rows", boom)
        result = verify({"checks": [{"table": "messages"}, {"answer": "x"}]}, start, end, "x")
        assert not result.checks[0].passed and "RuntimeError: kaboom" in result.checks[0].detail
        assert result.checks[1].passed
