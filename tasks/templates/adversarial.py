"""Adversarial trajectories every answer task gets for free: hedged and shotgun answers.

A template's instance may declare `distractors`: the world's competing answers to its question (the
other accounts' phone numbers, the other dates in the thread, the other restaurants' closing times).
With the near-misses' wrong answers they make the hedges ("gold or wrong", "wrong, gold") and the
shotgun (every candidate at once) that must all grade 0. Templates add their own kinds (a dump of
content, the gold plus a harmful extra, the right action on the wrong record) in `adversarial`.
"""

from __future__ import annotations

from typing import Any

MAX_SHOTGUN = 60  # candidates in one shotgun answer: enough to stand for "all of them"


def answer_adversarials(solution: list[dict], near_misses: list[list[dict]], distractors: list[Any]) -> list[dict]:
    """Hedge and shotgun variants of the gold solution's final answer; [] when it gives none."""
    last = solution[-1] if solution else {}
    gold = last.get("answer") if last.get("done") else None
    if gold is None or not str(gold).strip():
        return []
    gold = str(gold)
    wrong: list[str] = []
    for nm in near_misses:
        a = nm[-1].get("answer") if nm and nm[-1].get("done") else None
        if a is not None:
            wrong.append(str(a))
    wrong += [str(d) for d in distractors]
    wrong = [w for i, w in enumerate(wrong) if w.strip() and _norm(w) != _norm(gold) and w not in wrong[:i]]
    if not wrong:
        return []
    prefix = solution[:-1]

    def variant(kind: str, answer: str, why: str) -> dict:
        return {"kind": kind, "steps": prefix + [{"done": True, "answer": answer}], "why": why}

    w = wrong[0]
    out = [
        variant("hedge", f"{gold} or {w}", "the right answer beside a wrong one"),
        variant("hedge", f"Either {w} or {gold}", "a wrong answer first, then the right one"),
        variant("hedge", f"{w}, {gold}", "two candidates as a list"),
    ]
    if len(wrong) > 1:
        every = [gold] + wrong[: MAX_SHOTGUN - 1]
        every = every[len(every) // 2:] + every[: len(every) // 2]  # the gold neither first nor last
        out.append(variant("shotgun", "\n".join(every), f"every candidate of the world ({len(every)})"))
    return out


def _norm(s: str) -> str:
    return " ".join(s.split()).casefold()
