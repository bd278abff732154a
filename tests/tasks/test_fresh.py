"""Fresh worlds without a browser: ids that name their seed, generation on any seed, the held-out splits,
and the record of proven instances."""

from __future__ import annotations

import pytest

from tasks import load_task, select_tasks
from tasks.fresh import (HELDOUT_SEED_START, HELDOUT_TEMPLATES, ValidationCache, fresh_task, generalisation_split,
                         generate, parse_fresh_id, parse_seeds, templates_matching, validated_tasks)


def test_ids_name_their_seed_and_are_replayable():
    g = generate("mail/star-latest-from", 7, 2)
    assert g.ok and [t.id for t in g.tasks] == ["mail/star-latest-from-00.s7", "mail/star-latest-from-01.s7"]
    assert all(t.seed == 7 for t in g.tasks)
    assert parse_fresh_id("mail/star-latest-from-01.s7") == ("mail", "star-latest-from", 1, 7)
    assert parse_fresh_id("mail/star-latest-from-01") is None
    again = load_task("mail/star-latest-from-01.s7")  # from the id alone, as a replay would
    assert again == g.tasks[1] == fresh_task("mail/star-latest-from-01.s7")
    # another world, another task: not the bundled seed-0 instance
    assert again.goal != load_task("mail/star-latest-from-01").goal


def test_workspace_templates_draw_on_fresh_workspace_seeds():
    """A cross-app template on another workspace seed (the three worlds of that seed's one cast): its id names the
    seed, it is replayable from the id, and `--seeds` draws it (templates_matching)."""
    g = generate("workspace/office-lunch-confirm", 7, 2)
    assert g.ok and [t.id for t in g.tasks] == ["workspace/office-lunch-confirm-00.s7",
                                                 "workspace/office-lunch-confirm-01.s7"]
    assert all(t.seed == 7 and t.app == "workspace" for t in g.tasks)
    assert parse_fresh_id("workspace/office-lunch-confirm-01.s7") == ("workspace", "office-lunch-confirm", 1, 7)
    assert load_task("workspace/office-lunch-confirm-01.s7") == g.tasks[1]
    assert g.tasks[0].goal != load_task("workspace/office-lunch-confirm-00").goal
    assert "workspace/office-lunch-confirm" in templates_matching("workspace/*")


def test_a_template_that_cannot_fill_a_world_says_why():
    g = generate("food/cheapest-dish-nearby", 7)
    assert not g.ok and g.error == "the world yields 3 of 5 instances" and len(g.tasks) == 3
    with pytest.raises(ValueError, match="no such instance|yields"):
        fresh_task("food/cheapest-dish-nearby-04.s7")


def test_parse_seeds():
    assert parse_seeds("1-3,7,1000-1001") == [1, 2, 3, 7, 1000, 1001]
    for bad in ("", "a-b", "5-1", "1-999999"):
        with pytest.raises(ValueError):
            parse_seeds(bad)


def test_heldout_templates_and_seeds_are_never_training_material():
    assert len(HELDOUT_TEMPLATES) == 6 and set(HELDOUT_TEMPLATES) <= set(templates_matching("*"))
    train = select_tasks("*", split="train")
    assert train and not any(f"{t.app}/{t.template}" in HELDOUT_TEMPLATES for t in train)
    held = select_tasks("*", split="heldout-template")
    assert {f"{t.app}/{t.template}" for t in held} == set(HELDOUT_TEMPLATES)
    t = generate("mail/star-latest-from", HELDOUT_SEED_START, 1).tasks[0]
    assert generalisation_split(t) == "heldout-seed"


def test_only_proven_instances_are_served(tmp_path):
    cache = ValidationCache(tmp_path)
    a, b = generate("mail/star-latest-from", 3, 2).tasks
    held = generate("mail/star-latest-from", HELDOUT_SEED_START + 1, 1).tasks[0]
    assert validated_tasks("mail/star-latest-from", "3", instances=2, cache=cache) == []
    cache.put(a, True, probes=5)
    cache.put(b, False, "oracle got 0", probes=2)
    cache.put(held, True, probes=5)
    cache = ValidationCache(tmp_path)  # read back from disk
    assert cache.get(b)["reason"] == "oracle got 0"
    seeds = f"3,{HELDOUT_SEED_START + 1}"
    assert [t.id for t in validated_tasks("mail/star-latest-from", seeds, instances=2, cache=cache)] == [
        a.id, held.id]
    assert [t.id for t in validated_tasks("mail/star-latest-from", seeds, instances=2, split="train",
                                          cache=cache)] == [a.id]
    # a verdict is about the task's content: a changed template is proven again
    changed = a.model_copy(update={"goal": a.goal + " Now."})
    assert cache.get(changed) is None


def test_training_refuses_heldout_seeds_and_draws_proven_fresh_tasks(tmp_path, monkeypatch):
    monkeypatch.setenv("UIGYM_HOME", str(tmp_path))
    from agent_harness.train.grpo import fresh_training_tasks

    with pytest.raises(ValueError, match="held out"):
        fresh_training_tasks("mail/star-latest-from", f"1-2,{HELDOUT_SEED_START}")
    t = generate("mail/star-latest-from", 2, 1).tasks[0]
    ValidationCache().put(t, True, probes=5)
    got = fresh_training_tasks("mail/star-latest-from", "1-2", validate=False)
    assert [x.id for x in got] == [t.id]  # seed 1 is not proven yet: not served
