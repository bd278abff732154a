"""A fixed step budget per difficulty (`uigym eval --step-budget easy=15,medium=50,hard=100`, or `osworld`:
the 15/50/100 steps OSWorld-Verified reports at), and the budget every report shows.

The eval writes `OUT/step_budget.json`: the budget given (or none: each task's own max_steps, or
--max-steps for all) and the max_steps each difficulty ran with; `budget_line` is the line the terminal
summary and the HTML report print from it. Screen perturbations add the clicks that close their overlays
on top of any budget (gym_core/perturb.py).
"""

from __future__ import annotations

import json
from pathlib import Path

from tasks import Task

BUDGET_FILE = "step_budget.json"
PRESETS = {"osworld": {"easy": 15, "medium": 50, "hard": 100, "long": 100}}
DIFFICULTIES = ("easy", "medium", "hard", "long")  # tasks.schema.DIFFICULTIES


def most_steps() -> int:
    """The largest max_steps a task may have (the `le` bound of tasks.schema.Task.max_steps)."""
    return next(m.le for m in Task.model_fields["max_steps"].metadata if getattr(m, "le", None) is not None)


def parse_step_budget(text: str) -> dict[str, int]:
    """"easy=15,medium=50,hard=100" (or a preset name) -> {difficulty: steps}; ValueError saying what is wrong."""
    text = (text or "").strip()
    if text in PRESETS:
        return dict(PRESETS[text])
    out: dict[str, int] = {}
    for part in [p.strip() for p in text.split(",") if p.strip()]:
        name, sep, value = part.partition("=")
        name = name.strip()
        if not sep or name not in DIFFICULTIES:
            raise ValueError(f"--step-budget takes DIFFICULTY=STEPS pairs ({', '.join(DIFFICULTIES)}) or "
                             f"{' or '.join(PRESETS)}, got {part!r}")
        try:
            steps = int(value.strip())
        except ValueError:
            steps = 0
        if not 1 <= steps <= most_steps():
            raise ValueError(f"--step-budget: {name}'s steps must be a whole number from 1 to {most_steps()}, "
                             f"got {value.strip()!r}")
        out[name] = steps
    if not out:
        raise ValueError("--step-budget is empty: give e.g. easy=15,medium=50,hard=100 or osworld")
    return out


def apply_step_budget(tasks: list[Task], text: str | None, max_steps: int | None = None
                      ) -> tuple[list[Task], dict[str, int] | None]:
    """The tasks with max_steps set by their difficulty's budget (unchanged without one), and the budget."""
    if not text:
        return tasks, None
    if max_steps is not None:
        raise ValueError("--step-budget and --max-steps both set the steps: give one")
    budget = parse_step_budget(text)
    missing = sorted({t.difficulty for t in tasks} - set(budget))
    if missing:
        raise ValueError(f"--step-budget has no steps for {', '.join(missing)} (tasks of that difficulty are "
                         f"chosen): add e.g. {missing[0]}=50")
    return [t.model_copy(update={"max_steps": budget[t.difficulty]}) for t in tasks], budget


def write_budget(out: Path, budget: dict[str, int] | None, tasks: list[Task], max_steps: int | None = None) -> Path:
    """OUT/step_budget.json: the budget and the max_steps each difficulty ran with."""
    ran: dict[str, list[int]] = {}
    for t in tasks:
        ran.setdefault(t.difficulty, []).append(max_steps or t.max_steps)
    data = {"budget": budget, "max_steps_override": max_steps,
            "max_steps": {d: [min(v), max(v)] for d, v in ran.items()}}
    path = Path(out) / BUDGET_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1))
    return path


def _order(d: str) -> int:
    return DIFFICULTIES.index(d) if d in DIFFICULTIES else 9


def budget_line(out: Path | None) -> str:
    """"step budget: easy 15, medium 50, hard 100" or what the run used instead."""
    if out is None:
        return "step budget: not known (no run folder)"
    try:
        data = json.loads((Path(out) / BUDGET_FILE).read_text())
    except (OSError, ValueError):
        return "step budget: not recorded (a run from before step_budget.json)"
    if data.get("budget"):
        b = data["budget"]
        return "step budget: " + ", ".join(f"{d} {b[d]}" for d in sorted(b, key=_order)) + " steps (--step-budget)"
    if data.get("max_steps_override"):
        return f"step budget: {data['max_steps_override']} steps for every task (--max-steps)"
    ran = data.get("max_steps") or {}
    spans = ", ".join(f"{d} {lo}" + (f"-{hi}" if hi != lo else "") for d, (lo, hi) in
                      sorted(ran.items(), key=lambda kv: _order(kv[0])))
    return f"step budget: each task's own max_steps ({spans})"
