"""What the browser may cache, and for how long.

The gym keeps one browser context per env across episodes (a fresh one costs ~0.3 s), so the
browser's HTTP cache outlives a world: anything whose bytes depend on the world must never be
served from cache without asking.
  - static files (CSS, JS, fonts, icons): cached for a day (Flask's SEND_FILE_MAX_AGE_DEFAULT);
  - generated images keyed by a database id (a logo, a dish photo, an avatar): `world_image`,
    revalidated on every use by ETag, so a 304 costs one round trip and a new world never shows
    the last world's picture;
  - generated images that only the world's start decides (nothing the agent does can change them,
    as food's store and dish pictures): `start_image`, at a URL carrying the world's `start`
    (`start_image_url`), cached for good: the next episode from the same start asks for nothing
    (food's home page shows ~60 of them; revalidating each one cost ~0.25 s per page load);
  - everything else (pages, JSON): `no-store`, so Back/Forward refetch the page as it is now
    instead of showing a copy from before the agent changed the world.
"""

from __future__ import annotations

import hashlib

from flask import Flask, Response, request, url_for

from apps._shared.db import world_meta

IMMUTABLE = "public, max-age=31536000, immutable"


def world_image(data: bytes, mimetype: str) -> Response:
    resp = Response(data, mimetype=mimetype)
    resp.set_etag(hashlib.blake2b(data, digest_size=12).hexdigest())
    resp.headers["Cache-Control"] = "no-cache"
    return resp.make_conditional(request)


def world_start() -> str:
    """What the current world started from (apps/_shared/worlds.py), read once per request."""
    return world_meta().get("start", "")


def start_image_url(endpoint: str, **values) -> str:
    """The URL of an image only the world's start decides: it names the start, so no other start's
    picture can be served from the browser's cache for it."""
    return url_for(endpoint, v=world_start(), **values)


def start_image(data: bytes, mimetype: str) -> Response:
    """Asked for at this world's `start_image_url`: cached for good. At any other URL (an old page, a
    hand-typed one), the revalidated `world_image` answer."""
    resp = world_image(data, mimetype)
    if request.args.get("v") == world_start() != "":
        resp.headers["Cache-Control"] = IMMUTABLE
    return resp


def init_caching(app: Flask) -> None:
    app.jinja_env.globals["start_image_url"] = start_image_url

    @app.after_request
    def _no_store_by_default(resp: Response) -> Response:
        if "Cache-Control" not in resp.headers:
            resp.headers["Cache-Control"] = "no-store"
        return resp
