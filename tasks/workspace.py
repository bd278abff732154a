"""Workspace tasks (README: "Workspace tasks"): one task over the three clones in tabs, graded on their joint state.

A workspace task's steps are each app's own steps, separated by `switch_tab` steps; the mail tab is in front at
the start. `segments` splits them by tab, so what reads steps per app (the surface check, a look's translation,
the oracle) takes each run of steps in its own app's terms.
"""

from __future__ import annotations

from typing import Any, Iterable

from tasks.schema import APPS, WORKSPACE

FIRST_TAB = APPS[0]  # the tab in front at reset (gym_core/workspace_env.py): mail


def step_tab(step: Any) -> str | None:
    """The tab a step brings to the front, or None (a SolutionStep or its dict)."""
    return step.get("switch_tab") if isinstance(step, dict) else getattr(step, "switch_tab", None)


def segments(steps: Iterable[Any], first: str = FIRST_TAB) -> list[tuple[str, list[tuple[int, Any]]]]:
    """[(app, [(index, step), ...]), ...]: the runs of steps taken in each tab, in order, each step with its index
    in `steps`; a switch_tab step is its own run, in the tab it leaves."""
    out: list[tuple[str, list[tuple[int, Any]]]] = [(first, [])]
    for i, s in enumerate(steps):
        tab = step_tab(s)
        out[-1][1].append((i, s))
        if tab is not None:
            out.append((tab, []))
    return [(app, run) for app, run in out if run]


def is_workspace(task: Any) -> bool:
    return getattr(task, "app", None) == WORKSPACE


__all__ = ["FIRST_TAB", "is_workspace", "segments", "step_tab"]
