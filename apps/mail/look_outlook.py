"""The mail clone's second look, modelled on Outlook on the web (issue #37; ../shared/reference/LOOKS.md): what it calls
the surface's controls (apps/mail/surface.py) and which templates it carries. Its pages are the templates under
apps/mail/templates/looks/outlook/ (apps/_shared/looks.py), its styles under apps/mail/static/looks/outlook/."""

from __future__ import annotations

from apps._shared.surface import Look

LOOK = Look(
    id="outlook",
    names={},
    covers=frozenset(),
)
