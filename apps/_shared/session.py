"""The world binding: which world a page request reads and writes.

The gym asks the control API to reset a world and gets back a signed session value for it; it sets that
value in its browser as an HttpOnly, SameSite=Strict cookie. The page app serves a request only if its
cookie carries a valid signature (made with a key derived from the control token, which no page holds) for
a world that exists. So page JS can neither read the binding (HttpOnly) nor forge one for another world,
and a made-up id never creates a world file.

One exception, for a person browsing an app served by hand (`python -m apps.serve APP --browse`) and the
docs' screenshot scripts: with OPEN_DEFAULT_WORLD a request without any cookie uses the `default` world.
A forged or unknown cookie is refused there too.
"""

from __future__ import annotations

from flask import Flask
from itsdangerous import BadSignature, URLSafeSerializer

from apps._shared.worlds import valid_world_id

WORLD_COOKIE = "uigym_world"


def _serializer(app: Flask) -> URLSafeSerializer:
    # The salt names the app: a mail session is not a CRM session (cookies do not isolate ports).
    return URLSafeSerializer(app.config["GYM_TOKEN"], salt=f"uigym-world/{app.extensions['uigym_spec'].name}")


def sign_world(app: Flask, world_id: str, look: str | None = None) -> str:
    """The cookie value that binds a browser to `world_id` of this app, seen in `look` (None: the app's
    default look). The look is signed with the world: a page cannot switch it."""
    return _serializer(app).dumps([world_id, look] if look else world_id)


def verified_world(app: Flask, value: str | None) -> tuple[str, str | None] | None:
    """(world, look) a cookie value binds to, or None if it is missing, forged or malformed."""
    if not value:
        return None
    try:
        payload = _serializer(app).loads(value)
    except BadSignature:
        return None
    wid, look = (payload, None) if isinstance(payload, str) else (payload + [None, None])[:2] \
        if isinstance(payload, list) else (None, None)
    if not isinstance(wid, str) or not valid_world_id(wid) or not (look is None or isinstance(look, str)):
        return None
    return wid, look
