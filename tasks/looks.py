"""Tasks in a look: a task's UI steps as they are taken in another look of its app (issue #37).

The steps a template writes address the app's default look; the app's UI surface (`apps/<app>/surface.py`,
apps/_shared/surface.py) says what each other look calls those targets. The oracle, validation's probes and
QA's specs all take their steps through `steps_in_look`, so one task is one task in every look.
"""

from __future__ import annotations

from apps import app_surface as surface_of
from tasks.schema import SolutionStep


def step_dicts(steps) -> list[dict]:
    return [s.model_dump(exclude_none=True) if isinstance(s, SolutionStep) else dict(s) for s in steps]


def steps_in_look_by_step(app: str, steps, look: str | None, lang: str | None = None) -> list[tuple[int, SolutionStep]]:
    """Each step of `look` with the index of the task step it comes from (a look may take one step as
    several, or none)."""
    out = []
    for i, d in enumerate(step_dicts(steps)):
        out += [(i, s) for s in steps_in_look(app, [d], look, lang)]
    return out


def steps_in_look(app: str, steps, look: str | None, lang: str | None = None) -> list[SolutionStep]:
    """`steps` (SolutionSteps or their dicts) as they are taken in `look` of `app` and in the UI language `lang`
    (the variant's, apps/_shared/i18n.py): unchanged in the default look in English, or for an app without a
    surface."""
    surface = surface_of(app)
    dicts = step_dicts(steps)
    if surface is not None and (look or (lang and lang != "en")):
        dicts = surface.translate(dicts, look, lang)
    return [SolutionStep.model_validate(d) for d in dicts]
