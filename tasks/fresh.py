"""Fresh worlds: instances of any template on any seed, their ids, the generalisation splits, and the
record of which instances have been proven.

The bundled tasks all come from each template's own world (seed 0). A policy trained on them alone can
learn that world (the same inbox, the same restaurants) instead of the skill. Every template computes
its goal, gold solution and verify spec from the world's rows, so it can draw instances from any seed:

    mail/star-latest-from-00.s7      template star-latest-from, instance 0, world seed 7

The id names the seed, so the task is a pure function of its id (`fresh_task`) and every episode can be
replayed. An instance is served only once it has been proven in the mode it is drawn for (agent_harness.fresh
does the proving): a screen draw (ui, hybrid) in a real browser (oracle 1, noop 0, near-misses 0, adversarial
trajectories 0), a tool-mode draw through the tools env, no browser (its tool plan's gold calls 1, noop 0, tool
near-misses 0, answer hacks 0). `ValidationCache` records each verdict (with the reason for a failure) under
$UIGYM_HOME/fresh/, keyed by (the task's content, the proof mode), so a changed template is proven again and
a browser verdict never stands in for a tool-mode one (or the other way round).

Generalisation splits, beside the bundled instance split (`Task.split`, train/test):
- held-out seeds: worlds with seed >= HELDOUT_SEED_START are never drawn for training;
- held-out templates: HELDOUT_TEMPLATES are never trained on, on any seed (their bundled instances
  included), so an eval on them measures skills the policy never practised;
- safety: judgement tasks (tagged `infeasible`, `harmful` or `injection`: tasks.schema.JUDGEMENT_TAGS) are
  their own split on every seed below the held-out ones: selected by `--split safety`, counted apart in
  results and reports, never drawn by `--split train` / `test`.
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

from tasks.schema import TASK_APPS, Task, is_judgement

__all__ = [
    "HELDOUT_SEED_START", "HELDOUT_TEMPLATES", "PROOF_MODES", "Generated", "ValidationCache", "fresh_id",
    "fresh_task", "proof_mode",
    "generalisation_split", "generate", "is_heldout", "parse_fresh_id", "parse_seeds", "templates_matching",
    "uigym_home", "validated_tasks",
]

HELDOUT_SEED_START = 1000
"""Worlds with this seed or above are held out: evaluation only, never a training draw."""

HELDOUT_TEMPLATES = frozenset({
    # Two per app, one medium and one hard, chosen so each held-out skill has trained neighbours
    # (another template of the same area) but is itself never practised.
    "mail/forward-invoice-amount", "mail/move-domain-to-label",
    "food/order-express-to-work", "food/reorder-swap-drink",
    "crm/escalate-case-reassign", "crm/convert-lead-no-opportunity",
})

# The whole id: fullmatch (a `$` would let "mail/x-00.s1\n" through).
# Every app's templates and the workspace's (cross-app: its seed is the workspace family's, one cast over the three).
_FRESH_ID = re.compile(rf"(?P<app>{'|'.join(TASK_APPS)})/(?P<template>[a-z0-9][a-z0-9._-]*?)-(?P<index>\d{{2}})"
                       rf"\.s(?P<seed>\d+)")

VALIDATION_VERSION = 1  # bump when what "proven" means changes (new probe kinds), to prove everything again


def uigym_home() -> Path:
    """Where uigym keeps caches: $UIGYM_HOME, else ~/.cache/uigym."""
    return Path(os.environ.get("UIGYM_HOME") or Path.home() / ".cache" / "uigym")


def parse_seeds(text: str | int | list[int] | range) -> list[int]:
    """'1-20', '3,7,1000-1004', 5, [1, 2] -> sorted distinct seeds. Clear ValueError on anything else."""
    if isinstance(text, int):
        return [text]
    if isinstance(text, (list, range, tuple)):
        return sorted({int(s) for s in text})
    seeds: set[int] = set()
    for part in str(text).split(","):
        part = part.strip()
        m = re.fullmatch(r"(\d+)(?:\s*-\s*(\d+))?", part)
        if not m:
            raise ValueError(f"bad seed range {part!r}: use e.g. '1-20' or '3,7,1000-1004'")
        lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
        if hi < lo:
            raise ValueError(f"bad seed range {part!r}: {hi} < {lo}")
        if hi - lo > 100_000:
            raise ValueError(f"seed range {part!r} is too large (at most 100,000 seeds)")
        seeds.update(range(lo, hi + 1))
    if not seeds:
        raise ValueError("no seeds given")
    return sorted(seeds)


def fresh_id(app: str, template: str, index: int, seed: int) -> str:
    return f"{app}/{template}-{index:02d}.s{seed}"


def parse_fresh_id(task_id: str) -> tuple[str, str, int, int] | None:
    """(app, template, index, seed) of a fresh-world task id, or None for a bundled id."""
    m = _FRESH_ID.fullmatch(task_id)
    if not m:
        return None
    return m["app"], m["template"], int(m["index"]), int(m["seed"])


def is_heldout(task: Task) -> bool:
    """Never trained on: a held-out world or a held-out template."""
    return generalisation_split(task) in ("heldout-seed", "heldout-template")


def generalisation_split(task: Task) -> str:
    """heldout-template, heldout-seed, safety (a judgement task), or the task's own instance split (train / test)."""
    if task.template and f"{task.app}/{task.template}" in HELDOUT_TEMPLATES:
        return "heldout-template"
    if task.seed >= HELDOUT_SEED_START:
        return "heldout-seed"
    if is_judgement(task):
        return "safety"
    return task.split


def templates_matching(pattern: str) -> list[str]:
    """Template keys ('mail/star-latest-from') matched by glob(s) over task ids or template keys."""
    from tasks.templates.base import TEMPLATES, load_templates

    for app in TASK_APPS:
        load_templates(app)
    globs = [g.strip() for g in pattern.split(",") if g.strip()] or ["*"]
    out = []
    for key, info in sorted(TEMPLATES.items()):
        if info.draft:
            continue
        probe = f"{key}-00"
        if any(fnmatch.fnmatchcase(key, g) or fnmatch.fnmatchcase(probe, g) for g in globs):
            out.append(key)
    return out


@dataclass
class Generated:
    template: str
    seed: int
    tasks: list[Task]
    wanted: int
    error: str | None = None  # why the world yielded fewer instances than wanted (or none)

    @property
    def ok(self) -> bool:
        return self.error is None


def generate(template: str, seed: int, instances: int | None = None) -> Generated:
    """The first `instances` instances (default: the template's count) of a template on a world seed.

    Never raises for a template that cannot work on that world: the reason is in `.error`.
    """
    from tasks.templates.base import TEMPLATES, instances_of, load_templates

    app = template.split("/", 1)[0]
    load_templates(app)
    info = TEMPLATES.get(template)
    if info is None:
        raise ValueError(f"no template {template!r} (see `uigym tasks list`)")
    wanted = info.count if instances is None else min(instances, info.count)
    try:
        dicts = instances_of(info, seed, strict=False)[:wanted]
        tasks = [Task.model_validate(d) for d in dicts]
    except Exception as e:  # noqa: BLE001 - a template that breaks on a world is a finding, not a crash
        return Generated(template, seed, [], wanted, f"the template raised {type(e).__name__}: {e}")
    error = None if len(tasks) >= wanted else f"the world yields {len(tasks)} of {wanted} instances"
    return Generated(template, seed, tasks, wanted, error)


def fresh_task(task_id: str) -> Task:
    """The task a fresh-world id names (generated from its template and seed)."""
    parsed = parse_fresh_id(task_id)
    if parsed is None:
        raise ValueError(f"{task_id!r} is not a fresh-world task id (like 'mail/star-latest-from-00.s7')")
    app, template, index, seed = parsed
    gen = generate(f"{app}/{template}", seed, index + 1)
    for t in gen.tasks:
        if t.id == task_id:
            return t
    raise ValueError(f"{task_id}: {gen.error or 'no such instance'}")


PROOF_MODES = ("ui", "tools")


def proof_mode(mode: str) -> str:
    """The proof a draw in env mode `mode` needs: "tools" for tool mode, "ui" (browsers) for the screen
    modes (ui, hybrid: the agent sees the screen, so the screen solution must hold)."""
    if mode not in ("ui", "tools", "hybrid"):
        raise ValueError(f"mode must be ui, tools or hybrid, got {mode!r}")
    return "tools" if mode == "tools" else "ui"


def content_key(task: Task, mode: str = "ui") -> str:
    """What a verdict is about: the task as generated, what proving means (VALIDATION_VERSION), and the
    proof mode. A ui key is the one verdicts had before proofs were mode-aware, so they stay valid."""
    mode = proof_mode(mode)
    payload = [VALIDATION_VERSION, task.model_dump(mode="json")] + ([] if mode == "ui" else [mode])
    blob = json.dumps(payload, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:24]


class ValidationCache:
    """Verdicts on fresh instances, one JSON line each, appended (several processes may share it)."""

    def __init__(self, root: Path | None = None):
        self.path = Path(root or uigym_home() / "fresh") / "validation.jsonl"
        self._rows: dict[str, dict] | None = None

    def _load(self) -> dict[str, dict]:
        if self._rows is None:
            self._rows = {}
            if self.path.exists():
                for line in self.path.read_text().splitlines():
                    try:
                        row = json.loads(line)
                        self._rows[row["key"]] = row
                    except (json.JSONDecodeError, KeyError, TypeError):
                        continue  # a line cut short by a crash: that instance is proven again
        return self._rows

    def get(self, task: Task, mode: str = "ui") -> dict | None:
        """The verdict on `task` proven in `mode`'s proof (see `proof_mode`), or None."""
        return self._load().get(content_key(task, mode))

    def put(self, task: Task, ok: bool, reason: str = "", probes: int = 0, mode: str = "ui") -> dict:
        row = {"key": content_key(task, mode), "task_id": task.id, "mode": proof_mode(mode), "ok": bool(ok),
               "reason": reason[:2000], "probes": probes, "at": time.strftime("%Y-%m-%dT%H:%M:%S")}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a") as f:
            f.write(json.dumps(row) + "\n")
        self._load()[row["key"]] = row
        return row


def validated_tasks(pattern: str, seeds: str | list[int], *, instances: int = 1, split: str | None = None,
                    cache: ValidationCache | None = None, mode: str = "ui") -> list[Task]:
    """The fresh instances already proven (cache verdict ok) for templates matching `pattern` on `seeds`,
    in the proof `mode` needs (a tool-mode env is served tool-proven instances; a screen env browser-proven).

    `split`: "train" keeps training material only (no held-out seed, no held-out template, instance
    split train); "heldout-seed", "heldout-template", "test" keep that split. Unproven instances are
    never returned: prove them with `uigym tasks validate --seeds ...` (or agent_harness.fresh).
    """
    cache = cache or ValidationCache()
    out = []
    for template in templates_matching(pattern):
        for seed in parse_seeds(seeds):
            for t in generate(template, seed, instances).tasks:
                verdict = cache.get(t, mode)
                if verdict and verdict["ok"] and (split is None or generalisation_split(t) == split):
                    out.append(t)
    return out
