"""Proving fresh-world instances before anyone sees them, and the pass-rate report across seeds.

`supply(pattern, seeds, mode=...)` generates the instances of every matching template on every seed, proves
the ones the cache has no verdict on in the mode they are drawn for, records every verdict with its reason,
and returns only the proven instances. The proof is the one `uigym tasks validate` runs (the offline audit,
then agent_harness.validate): a screen draw (mode ui or hybrid) in real browsers (oracle 1, noop 0,
near-misses 0, adversarials 0); a tool-mode draw through the tools env, never a browser (the tool plan's
gold calls 1, noop 0, tool near-misses 0, answer hacks 0; a task whose plan says it is unsupported through
tools is not served in tool mode). Verdicts are keyed by (content, proof mode). Generation failures (a world that yields fewer instances than the template wants, a
template that raises on that world) are recorded beside validation failures, so a template that only
works on seed 0 shows up in `uigym tasks validate --seeds 1-20`.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from tasks import Task
from tasks.fresh import (Generated, ValidationCache, generalisation_split, generate, parse_seeds, proof_mode,
                         templates_matching)

__all__ = ["FreshSupply", "UNPROVEN", "supply"]

UNPROVEN = "not yet proven"


@dataclass
class FreshSupply:
    served: list[Task] = field(default_factory=list)
    generated: list[Generated] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)  # task id -> why it is not served
    proven_now: int = 0  # verdicts reached in this call (the rest came from the cache)

    def by_template(self) -> list[dict]:
        """Per template: (template, seed) pairs, pairs that yielded their instances, instances, served."""
        rows: dict[str, dict] = defaultdict(lambda: Counter())
        served = {t.id for t in self.served}
        for g in self.generated:
            r = rows[g.template]
            r["pairs"] += 1
            r["yielded"] += g.ok
            r["instances"] += len(g.tasks)
            r["served"] += sum(t.id in served for t in g.tasks)
        return [{"template": k, **v} for k, v in sorted(rows.items())]

    def by_app(self) -> list[dict]:
        """Per app: pairs, pairs yielding, instances, validated, and failures counted by reason."""
        out = []
        served = {t.id for t in self.served}
        for app in sorted({g.template.split("/")[0] for g in self.generated}):
            gens = [g for g in self.generated if g.template.startswith(app + "/")]
            reasons: Counter = Counter()
            for g in gens:
                if g.error:
                    reasons[_reason_kind(g.error)] += 1
            for tid, why in self.failed.items():
                if tid.startswith(app + "/") and not why.startswith("generation"):
                    reasons[_reason_kind(why)] += 1
            n = sum(len(g.tasks) for g in gens)
            out.append({"app": app, "pairs": len(gens), "pairs_yielding": sum(g.ok for g in gens), "instances": n,
                        "validated": sum(t.id in served for g in gens for t in g.tasks),
                        "failures": dict(reasons)})
        return out


def _reason_kind(why: str) -> str:
    if why.startswith(UNPROVEN):
        return "unproven"
    if why.startswith("unsupported"):
        return "unsupported in tool mode"
    if why.startswith("audit"):
        return "audit"
    if "yields" in why:
        return "fewer instances"
    if "raised" in why:
        return "template error"
    for kind in ("oracle", "noop", "near_miss", "adversarial"):
        if f"[{kind}" in why or why.startswith(kind):
            return kind
    return "other"


async def supply(pattern: str, seeds: str | list[int], *, instances: int = 1, split: str | None = None,
                 workers: int = 2, cache: ValidationCache | None = None, runtime=None,
                 validate: bool = True, mode: str = "ui", chunk: int = 40) -> FreshSupply:
    """Proven fresh instances of the templates matching `pattern` on `seeds` (see module doc).

    `mode`: the env mode the instances are drawn for (ui, hybrid: proven in browsers; tools: in the tools
    env, no browser). `split="train"` refuses held-out seeds outright (a training run must never see one)
    and leaves out held-out templates and test instances; `validate=False` serves only what the cache has
    proven. Unproven instances are proven `chunk` at a time, each verdict cached as soon as its chunk is
    done, so a long sweep cut off part-way keeps what it proved.
    """
    from agent_harness.validate import validate_tasks
    from tasks.fresh import HELDOUT_SEED_START
    from tasks.integrity import audit_tasks

    proof = proof_mode(mode)
    seed_list = parse_seeds(seeds)
    if split == "train" and any(s >= HELDOUT_SEED_START for s in seed_list):
        bad = [s for s in seed_list if s >= HELDOUT_SEED_START]
        raise ValueError(f"seeds {bad[:5]} are held out (>= {HELDOUT_SEED_START}): never training material")
    cache = cache or ValidationCache()
    out = FreshSupply()
    todo: list[Task] = []
    # Seed-major order: the world of a seed is built once for all templates (World.build is cached).
    templates = templates_matching(pattern)
    for seed in seed_list:
        for template in templates:
            g = generate(template, seed, instances)
            out.generated.append(g)
            for t in g.tasks:
                if split is not None and generalisation_split(t) != split:
                    continue
                verdict = cache.get(t, proof)
                if verdict is None:
                    todo.append(t)
                elif verdict["ok"]:
                    out.served.append(t)
                else:
                    out.failed[t.id] = verdict["reason"]
    if todo and validate:
        states: dict = {}  # (app, seed) -> world state, shared by the audit's chunks
        for start in range(0, len(todo), max(1, chunk)):
            part = todo[start:start + max(1, chunk)]
            audit = audit_tasks(part, states)
            results = await validate_tasks(part, workers=workers, runtime=runtime, mode=proof)
            for t, r in zip(part, results):
                problems = [p for p in audit.problems if p.startswith(t.id + ":")]
                if r.unsupported:
                    reason = f"unsupported through tools: {r.unsupported}"
                elif problems:
                    reason = "audit: " + "\n".join(problems)
                else:
                    reason = "" if r.ok else r.failures()
                ok = not reason
                cache.put(t, ok, reason, len(r.probes), mode=proof)
                out.proven_now += 1
                if ok:
                    out.served.append(t)
                else:
                    out.failed[t.id] = reason
    elif todo:
        for t in todo:
            out.failed[t.id] = UNPROVEN + (" (run `uigym tasks validate --seeds ...`)" if proof == "ui" else
                                           " (run `uigym tasks validate --mode tools --seeds ...`)")
    out.served.sort(key=lambda t: t.id)
    return out
