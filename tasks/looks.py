"""Tasks in a look: a task's UI steps as they are taken in another look of its app (issue #37).

The steps a template writes address the app's default look; the app's UI surface (`apps/<app>/surface.py`,
apps/_shared/surface.py) says what each other look calls those targets. The oracle, validation's probes and
QA's specs all take their steps through `steps_in_look`, so one task is one task in every look.
"""

from __future__ import annotations

import importlib
from functools import lru_cache

from tasks.schema import SolutionStep


@lru_cache(maxsize=None)
def surface_of(app: str):
    """The app's declared UI surface (apps._shared.surface.Surface), or None for an app without one (a test
    fixture app)."""
    try:
        mod = importlib.import_module(f"apps.{app}.surface")
    except ModuleNotFoundError as e:
        if e.name and f"apps.{app}.surface".startswith(e.name):
            return None
        raise
    return mod.SURFACE


def step_dicts(steps) -> list[dict]:
    return [s.model_dump(exclude_none=True) if isinstance(s, SolutionStep) else dict(s) for s in steps]


def steps_in_look(app: str, steps, look: str | None) -> list[SolutionStep]:
    """`steps` (SolutionSteps or their dicts) as they are taken in `look` of `app` (unchanged in the default
    look, or for an app without a surface)."""
    surface = surface_of(app)
    dicts = step_dicts(steps)
    if surface is not None and look:
        dicts = surface.translate(dicts, look)
    return [SolutionStep.model_validate(d) for d in dicts]


def carries(app: str, template: str | None, look: str | None) -> bool:
    """Whether `look` of `app` carries the template's tasks (every look carries every template of an app
    without a surface, and the default look carries them all)."""
    surface = surface_of(app)
    if surface is None or not look or look not in surface.looks:
        return True
    return surface.looks[look].carries(template)
