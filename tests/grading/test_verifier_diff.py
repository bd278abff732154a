"""diff_states: pairing by id, content matching for id-less tables, volatile fields, odd data."""

from __future__ import annotations

from grading import diff_states


def test_identical_states_have_no_diff(start, end):
    assert diff_states(start, end) == {}


def test_update_reports_fields_before_and_after(start, end):
    end["messages"][0]["starred"] = True
    end["messages"][0]["folder"] = "archive"
    d = diff_states(start, end)
    assert list(d) == ["messages"]
    (c,) = d["messages"]["changed"]
    assert c["id"] == 10
    assert c["fields"] == ["folder", "starred"]
    assert c["before"]["starred"] is False and c["after"]["starred"] is True
    assert d["messages"]["created"] == [] and d["messages"]["deleted"] == []


def test_create_and_delete_by_id(start, end):
    gone = end["messages"].pop(1)
    end["messages"].append({"id": 99, "subject": "new"})
    d = diff_states(start, end)["messages"]
    assert d["created"] == [{"id": 99, "subject": "new"}]
    assert d["deleted"] == [gone]
    assert d["changed"] == []


def test_reordering_rows_is_not_a_change(start, end):
    end["messages"].reverse()
    assert diff_states(start, end) == {}


def test_int_and_float_ids_pair(start, end):
    end["labels"][0]["id"] = 1.0
    assert diff_states(start, end) == {}


def test_bool_vs_int_value_is_a_change(start, end):
    end["settings"][0]["theme"] = 1
    start["settings"][0]["theme"] = True
    assert diff_states(start, end)["settings"]["changed"][0]["fields"] == ["theme"]


def test_added_or_removed_field_is_a_change(start, end):
    del end["labels"][0]["color"]
    end["labels"][1]["extra"] = None
    changed = diff_states(start, end)["labels"]["changed"]
    assert [(c["id"], c["fields"]) for c in changed] == [(1, ["color"]), (2, ["extra"])]


def test_volatile_fields_from_meta_are_ignored(start, end):
    end["messages"][0]["last_opened_at"] = "2026-03-12T10:30:00"
    assert diff_states(start, end) == {}
    # ...but not when told otherwise
    assert diff_states(start, end, volatile={})["messages"]["changed"][0]["fields"] == ["last_opened_at"]


def test_volatile_argument_overrides_meta(start, end):
    end["settings"][0]["theme"] = "dark"
    assert diff_states(start, end, volatile={"settings": ["theme"]}) == {}
    assert "settings" in diff_states(start, end)


def test_volatile_change_alongside_real_change_lists_only_real_fields(start, end):
    end["messages"][0]["last_opened_at"] = "2026-03-12T10:30:00"
    end["messages"][0]["unread"] = False
    assert diff_states(start, end)["messages"]["changed"][0]["fields"] == ["unread"]


def test_meta_is_never_diffed(start, end):
    end["_meta"]["now"] = "2030-01-01T00:00:00"
    end["_meta"]["seed"] = 5
    assert diff_states(start, end) == {}


def test_table_without_id_is_matched_by_content(start, end):
    end["message_labels"].append({"message_id": 12, "label_id": 1})
    d = diff_states(start, end)["message_labels"]
    assert d == {"created": [{"message_id": 12, "label_id": 1}], "deleted": [], "changed": []}

    end["message_labels"] = [{"message_id": 12, "label_id": 1}]
    d = diff_states(start, end)["message_labels"]
    assert d["created"] == [{"message_id": 12, "label_id": 1}]
    assert d["deleted"] == [{"message_id": 11, "label_id": 2}]


def test_content_matching_counts_duplicates(start, end):
    end["message_labels"].append({"message_id": 11, "label_id": 2})
    d = diff_states(start, end)["message_labels"]
    assert d["created"] == [{"message_id": 11, "label_id": 2}]


def test_new_and_dropped_tables(start, end):
    end["drafts"] = [{"id": 1, "body": "x"}]
    del end["settings"]
    d = diff_states(start, end)
    assert d["drafts"]["created"] == [{"id": 1, "body": "x"}]
    assert d["settings"]["deleted"] == start["settings"]


def test_malformed_data_never_raises(start):
    weird = {"messages": "not a list", "labels": [1, "x", None, {"id": 1, "name": "Receipts", "color": "green"}],
             "settings": [{"id": {"nested": True}}], "_meta": "junk"}
    d = diff_states(start, weird)
    assert len(d["messages"]["deleted"]) == 3
    assert d["labels"]["deleted"] == [start["labels"][1]]
    assert d["settings"]["created"] == [{"id": {"nested": True}}]
    assert diff_states(None, None) == {}
    assert diff_states({}, {"t": [{"id": 1}]}) == {"t": {"created": [{"id": 1}], "deleted": [], "changed": []}}


def test_duplicate_ids_pair_in_order():
    a = {"t": [{"id": 1, "v": "a"}, {"id": 1, "v": "b"}]}
    b = {"t": [{"id": 1, "v": "a"}]}
    assert diff_states(a, b)["t"]["deleted"] == [{"id": 1, "v": "b"}]
