"""What the browser may cache, and for how long.

The gym keeps one browser context per env across episodes (a fresh one costs ~0.3 s), so the
browser's HTTP cache outlives a world: anything whose bytes depend on the world must never be
served from cache without asking.
  - static files (CSS, JS, fonts, icons): cached for a day (Flask's SEND_FILE_MAX_AGE_DEFAULT);
  - generated images keyed by a database id (a logo, a dish photo, an avatar): `world_image`,
    revalidated on every use by ETag, so a 304 costs one round trip and a new world never shows
    the last world's picture;
  - everything else (pages, JSON): `no-store`, so Back/Forward refetch the page as it is now
    instead of showing a copy from before the agent changed the world.
"""

from __future__ import annotations

import hashlib

from flask import Flask, Response, request


def world_image(data: bytes, mimetype: str) -> Response:
    resp = Response(data, mimetype=mimetype)
    resp.set_etag(hashlib.blake2b(data, digest_size=12).hexdigest())
    resp.headers["Cache-Control"] = "no-cache"
    return resp.make_conditional(request)


def init_caching(app: Flask) -> None:
    @app.after_request
    def _no_store_by_default(resp: Response) -> Response:
        if "Cache-Control" not in resp.headers:
            resp.headers["Cache-Control"] = "no-store"
        return resp
