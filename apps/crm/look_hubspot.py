"""The crm clone's second look, modelled on HubSpot (issue #37; ../shared/reference/LOOKS.md): what it calls
the surface's controls (apps/crm/surface.py) and which templates it carries. Its pages are the templates under
apps/crm/templates/looks/hubspot/ (apps/_shared/looks.py), its styles under apps/crm/static/looks/hubspot/."""

from __future__ import annotations

from apps._shared.surface import Look

LOOK = Look(
    id="hubspot",
    names={},
    covers=frozenset(),
)
