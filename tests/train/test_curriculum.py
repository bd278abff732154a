"""Curriculum: difficulty schedule, zero-advantage down-weighting and dropping, the sampler's layout."""

from __future__ import annotations

from collections import Counter

import pytest

pytest.importorskip("torch")

from agent_harness.train.config import CurriculumConfig
from agent_harness.train.curriculum import Curriculum, CurriculumSampler, chunks_needed

ROWS = [{"task_id": f"mail/t{i}", "template": f"tpl{i % 3}", "difficulty": d}
        for i, d in enumerate(["easy", "easy", "medium", "medium", "hard", "hard"])]


def test_difficulties_enter_on_schedule():
    c = Curriculum(ROWS, CurriculumConfig(start={"easy": 0.0, "medium": 0.3, "hard": 0.6}, ramp=0.2))
    w0 = c.weights(0.0)
    assert all(w > 0 for w in w0[:2]) and w0[2:] == [0, 0, 0, 0]
    w = c.weights(0.45)
    assert w[2] > 0 and w[4] == 0
    assert c.weights(0.9)[4] == pytest.approx(1.0, abs=0.01)
    only_hard = Curriculum([ROWS[4]], CurriculumConfig())
    assert only_hard.weights(0.0) == [1.0]  # nothing open yet: every task may be drawn


def test_zero_advantage_groups_down_weight_then_drop_a_template():
    c = Curriculum(ROWS, CurriculumConfig(zero_advantage_decay=0.5, min_weight=0.1, drop_after=3))
    c.update([("tpl0", 1.0, True), ("tpl0", 1.0, True), ("tpl1", 0.0, False), ("tpl1", 1.0, True)], group_size=2)
    assert c.stats["tpl0"].weight == 0.5 and c.stats["tpl1"].weight == 1.0
    assert c.stats["tpl0"].success_rate == 1.0 and c.stats["tpl1"].success_rate == 0.5
    c.update([("tpl0", 1.0, True)] * 2, group_size=2)
    assert c.stats["tpl0"].weight == 0.25 and not c.stats["tpl0"].dropped
    c.update([("tpl0", 0.0, False)] * 2, group_size=2)
    assert c.stats["tpl0"].dropped
    assert all(w == 0 for w, t in zip(c.weights(0.0), c.templates) if t == "tpl0")
    m = c.metrics()
    assert m["curriculum/tpl0/weight"] == 0.0 and m["curriculum/dropped_templates"] == 1.0
    c.update([("tpl1", 0.0, False)] * 2, group_size=2)
    assert c.stats["tpl1"].weight == 0.5
    c.update([("tpl1", 0.0, False), ("tpl1", 1.0, True)], group_size=2)
    assert c.stats["tpl1"].zero_streak == 0 and c.stats["tpl1"].weight == 1.0  # a group with signal restores it


def test_sampler_has_trl_repeat_layout_and_follows_the_weights():
    c = Curriculum(ROWS, CurriculumConfig(start={"easy": 0.0, "medium": 0.0, "hard": 0.0}))
    s = CurriculumSampler(c, mini_repeat_count=2, batch_size=3, repeat_count=2, num_chunks=4, seed=1)
    idx = list(s)
    assert len(idx) == len(s) == 4 * 2 * 3 * 2
    for k in range(4):
        chunk = idx[k * 12:(k + 1) * 12]
        assert chunk[:6] == chunk[6:]  # each chunk repeated for the steps that reuse a generation
        assert all(chunk[j] == chunk[j + 1] for j in range(0, 6, 2))  # each prompt num_generations times
        assert len(set(chunk[:6])) == 3  # distinct prompts within a generation batch
    for t in ("tpl1", "tpl2"):
        c.stats[t].dropped = True
    drawn = Counter(c.templates[i] for i in CurriculumSampler(c, mini_repeat_count=1, batch_size=1, repeat_count=1,
                                                              num_chunks=30, seed=2))
    assert set(drawn) == {"tpl0"}
    assert chunks_needed(10, 2, 2, 1) == 12
