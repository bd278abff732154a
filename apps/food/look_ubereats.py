"""The food clone's second look, modelled on Uber Eats (issue #37; ../shared/reference/LOOKS.md): what it calls
the surface's controls (apps/food/surface.py) and which templates it carries. Its pages are the templates under
apps/food/templates/looks/ubereats/ (apps/_shared/looks.py), its styles under apps/food/static/looks/ubereats/."""

from __future__ import annotations

from apps._shared.surface import Look

LOOK = Look(
    id="ubereats",
    names={},
    covers=frozenset(),
)
