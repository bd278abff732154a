"""The CRM templates' reward-integrity helpers (tasks/templates/crm/_common.py): no browser, fast."""

from tasks.templates.crm._common import (
    allow_create, allow_update, competing, dump_text, extra, neighbour, text_limit, written)
from grading import verify
from grading.lint import spec_holes
from grading.matchers import match

CALLS = ["Discussed rollout timeline; they want to start in May.", "Left a voicemail about the renewal.",
         "Walked through pricing tiers; waiting on budget approval.", "Agreed on next steps for the pilot."]


def test_written_accepts_the_gold_text_and_a_light_rewording():
    gold = CALLS[2]
    m = written(gold.rstrip("."), gold, CALLS)
    assert match(gold, m)
    assert match(f"Call with Ana. {gold} Follow up next week.", m)


def test_written_rejects_a_dump_of_every_candidate_and_a_padded_text():
    gold = CALLS[2]
    m = written(gold.rstrip("."), gold, CALLS)
    assert not match(dump_text(gold, CALLS), m)
    assert not match(gold + " " + CALLS[0], m)  # one competing fact is enough to fail
    assert not match(gold + " " + "x" * text_limit(gold), m)  # too long, even with no competing fact


def test_competing_never_excludes_the_gold_text_itself():
    pool = ["Budget update", "Budget update approved", "Reorg"]
    assert competing("Budget update approved", pool) == ["Reorg"]
    assert competing("Reorg", pool) == ["Budget update", "Budget update approved"]


def test_dump_text_puts_the_gold_among_the_others():
    text = dump_text(CALLS[0], CALLS)
    assert all(c in text for c in CALLS) and not text.startswith(CALLS[0])


def test_allowances_are_bounded_for_the_lint():
    spec = {"checks": [{"table": "notes", "in": "created", "count": 1,
                        "expect": {"body": written("Budget approved", "Budget approved.", ["Reorg."])}}],
            "unchanged_except": [allow_create("notes", {"parent_id": 3}), allow_update("accounts", {"id": 3}, ["industry"])]}
    assert spec_holes(spec) == []


def test_allow_create_counts_its_rows():
    spec = {"checks": [], "unchanged_except": [allow_create("notes", {"parent_id": 3})]}
    start = {"notes": [{"id": 1, "parent_id": 3}], "_meta": {}}
    one = {"notes": start["notes"] + [{"id": 2, "parent_id": 3}], "_meta": {}}
    two = {"notes": one["notes"] + [{"id": 3, "parent_id": 3}], "_meta": {}}
    elsewhere = {"notes": start["notes"] + [{"id": 2, "parent_id": 4}], "_meta": {}}
    assert verify(spec, start, one, None).passed
    assert not verify(spec, start, two, None).passed
    assert not verify(spec, start, elsewhere, None).passed


def test_allow_update_limits_rows_and_fields():
    spec = {"checks": [], "unchanged_except": [allow_update("accounts", {"id": 1}, ["industry"])]}
    start = {"accounts": [{"id": 1, "industry": "Media", "phone": "1"}, {"id": 2, "industry": "Media", "phone": "2"}]}
    ok = {"accounts": [{"id": 1, "industry": "Retail", "phone": "1"}, start["accounts"][1]]}
    other_row = {"accounts": [ok["accounts"][0], {"id": 2, "industry": "Retail", "phone": "2"}]}
    other_field = {"accounts": [{"id": 1, "industry": "Retail", "phone": "9"}, start["accounts"][1]]}
    assert verify(spec, start, ok, None).passed
    assert not verify(spec, start, other_row, None).passed
    assert not verify(spec, start, other_field, None).passed


def test_extra_inserts_the_harm_before_done():
    sol = [{"click": {"role": "button", "name": "Follow"}}, {"done": True}]
    adv = extra(sol, [{"click": {"role": "button", "name": "Edit"}}], "why")
    assert adv["kind"] == "extra" and adv["steps"][-1] == {"done": True} and len(adv["steps"]) == 3


def test_neighbour_is_cyclic_and_skips_rejected():
    assert neighbour([1, 2, 3], 3) == 1
    assert neighbour([1, 2, 3], 1, lambda x: x != 2) == 3
