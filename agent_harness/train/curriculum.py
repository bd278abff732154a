"""Curriculum: which tasks the next generation batch draws.

A task's weight = its difficulty's weight at this point of training x its template's weight.

- Difficulty schedule: each difficulty enters at a fraction of training (`CurriculumConfig.start`, e.g. easy
  at 0, medium at 0.15, hard at 0.4) and ramps to full weight over `ramp`.
- Zero advantage: a GRPO group whose rollouts all succeed or all fail teaches nothing. Each such group
  multiplies its template's weight by `zero_advantage_decay` (down to `min_weight`); a group with signal
  restores it. With `drop_after`, a template is taken out after that many such groups in a row.
- Per-template success (attempts, successes, recent success rate) is tracked and logged.

`CurriculumSampler` is a drop-in for TRL's RepeatSampler (the same layout: each chosen prompt repeated
`num_generations` times, each chunk repeated for the steps that reuse a generation), drawing by the live
weights. Every process must draw the same indices, so the sampler is seeded identically everywhere and the
statistics are updated from rollouts gathered over all processes.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from typing import Callable, Iterator

import torch
from torch.utils.data import Sampler

from agent_harness.train.config import CurriculumConfig


@dataclass
class TemplateStats:
    attempts: int = 0
    successes: int = 0
    recent: float | None = None  # exponential moving average of success
    zero_streak: int = 0  # zero-advantage groups in a row
    groups: int = 0
    zero_groups: int = 0
    weight: float = 1.0
    dropped: bool = False

    @property
    def success_rate(self) -> float:
        return self.successes / self.attempts if self.attempts else 0.0


class Curriculum:
    def __init__(self, rows: list[dict], cfg: CurriculumConfig | None = None):
        self.cfg = cfg or CurriculumConfig()
        self.rows = rows
        self.templates = [r.get("template") or r["task_id"] for r in rows]
        self.difficulties = [r.get("difficulty") or "easy" for r in rows]
        self.stats: dict[str, TemplateStats] = defaultdict(TemplateStats)
        for t in self.templates:
            self.stats[t]
        self.progress = 0.0

    # ---------------------------------------------------------------- weights
    def difficulty_weight(self, difficulty: str, progress: float | None = None) -> float:
        if not self.cfg.enabled:
            return 1.0
        p = self.progress if progress is None else progress
        start = self.cfg.start.get(difficulty, 0.0)
        if p < start:
            return 0.0
        return 1.0 if self.cfg.ramp <= 0 else min(1.0, (p - start) / self.cfg.ramp + 1e-3)

    def weights(self, progress: float | None = None) -> list[float]:
        out = []
        for t, d in zip(self.templates, self.difficulties):
            st = self.stats[t]
            w = 0.0 if st.dropped else self.difficulty_weight(d, progress) * (st.weight if self.cfg.enabled else 1.0)
            out.append(w)
        if sum(out) <= 0:  # nothing is open yet (or everything was dropped): draw from every task
            out = [1.0] * len(self.rows)
        return out

    # ---------------------------------------------------------------- feedback
    def update(self, results: list[tuple[str, float, bool]], group_size: int) -> None:
        """`results`: (template, reward, success) per rollout, in generation order (consecutive groups). A reward
        of None is an ungraded rollout (a judge gave no verdict): it counts for nothing, as it does in training."""
        for t, reward, ok in results:
            if reward is None:
                continue
            st = self.stats[t]
            st.attempts += 1
            st.successes += int(ok)
            st.recent = float(ok) if st.recent is None else 0.8 * st.recent + 0.2 * float(ok)
        for g in range(0, len(results) - group_size + 1, group_size):
            group = results[g:g + group_size]
            t = group[0][0]
            rewards = [r for _, r, _ in group if r is not None]
            if len(rewards) < 2:
                continue  # too few graded rollouts to say anything of the group's advantage
            st = self.stats[t]
            st.groups += 1
            if max(rewards) - min(rewards) < 1e-6:  # all equal: zero advantage
                st.zero_groups += 1
                st.zero_streak += 1
                st.weight = max(self.cfg.min_weight, st.weight * self.cfg.zero_advantage_decay)
                if self.cfg.drop_after and st.zero_streak >= self.cfg.drop_after:
                    st.dropped = True
            else:
                st.zero_streak = 0
                st.weight = 1.0

    def metrics(self) -> dict[str, float]:
        out: dict[str, float] = {}
        for t, st in sorted(self.stats.items()):
            key = t.replace("/", "_")
            out[f"curriculum/{key}/success"] = st.success_rate
            out[f"curriculum/{key}/weight"] = 0.0 if st.dropped else st.weight
            out[f"curriculum/{key}/zero_adv_groups"] = float(st.zero_groups)
        opened = {d: self.difficulty_weight(d) for d in sorted(set(self.difficulties))}
        for d, w in opened.items():
            out[f"curriculum/difficulty_weight/{d}"] = w
        out["curriculum/dropped_templates"] = float(sum(st.dropped for st in self.stats.values()))
        return out


class CurriculumSampler(Sampler):
    """RepeatSampler's layout, drawing the prompts of each chunk by the curriculum's live weights."""

    def __init__(self, curriculum: Curriculum, *, mini_repeat_count: int, batch_size: int, repeat_count: int,
                 num_chunks: int, seed: int = 0, progress: Callable[[], float] | None = None):
        self.curriculum = curriculum
        self.mini_repeat_count = mini_repeat_count
        self.batch_size = batch_size
        self.repeat_count = repeat_count
        self.num_chunks = num_chunks
        self.progress = progress or (lambda: 0.0)
        self.generator = torch.Generator()
        self.generator.manual_seed(seed)

    def _chunk(self) -> list[int]:
        self.curriculum.progress = self.progress()
        w = torch.tensor(self.curriculum.weights(), dtype=torch.float64)
        open_ = int((w > 0).sum())
        replace = open_ < self.batch_size
        return torch.multinomial(w, self.batch_size, replacement=replace, generator=self.generator).tolist()

    def __iter__(self) -> Iterator[int]:
        for _ in range(self.num_chunks):
            chunk = self._chunk()
            for _ in range(self.repeat_count):
                for index in chunk:
                    for _ in range(self.mini_repeat_count):
                        yield index

    def __len__(self) -> int:
        return self.num_chunks * self.repeat_count * self.batch_size * self.mini_repeat_count


def chunks_needed(max_steps: int, gradient_accumulation_steps: int, steps_per_generation: int,
                  num_iterations: int) -> int:
    """Generation chunks a run of `max_steps` optimizer steps consumes (plus slack for the loader's look-ahead)."""
    micro = max_steps * gradient_accumulation_steps
    return math.ceil(micro / (steps_per_generation * num_iterations)) + 2
