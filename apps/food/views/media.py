"""Generated images (deterministic, cached in memory). Nothing a user does changes them, so pages link
them at `start_image_url` and the browser keeps them for good (apps/_shared/caching.py)."""

from __future__ import annotations

import json
from functools import lru_cache

from flask import Response, abort
from sqlalchemy import select

from apps._shared import db
from apps._shared.caching import start_image
from apps.food import images
from apps.food.models import Cuisine, MenuItem, Store
from apps.food.views.blueprint import bp

SIZES = {"sq": (320, 320), "wide": (640, 320), "thumb": (160, 160)}


def _img(data: bytes, mime: str) -> Response:
    return start_image(data, mime)  # ids name other dishes in another world: the URL names the start


@bp.get("/img/dish/<int:item_id>-<size>.jpg")
def dish_img(item_id: int, size: str):
    it = db().get(MenuItem, item_id)
    if it is None or size not in SIZES:
        abort(404)
    w, h = SIZES[size]
    return _img(images.dish(it.name, it.emoji, w, h), "image/jpeg")


@bp.get("/img/store/<int:store_id>/hero.jpg")
def store_hero(store_id: int):
    s = db().get(Store, store_id)
    if s is None:
        abort(404)
    pops = db().scalars(select(MenuItem.emoji).where(MenuItem.store_id == s.id, MenuItem.popular.is_(True))
                        .order_by(MenuItem.id)).all()
    ems = tuple(dict.fromkeys(pops)) or (s.emoji,)
    return _img(images.store_hero(s.name, ems, s.color), "image/jpeg")


@bp.get("/img/store/<int:store_id>/banner.jpg")
def store_banner(store_id: int):
    s = db().get(Store, store_id)
    if s is None:
        abort(404)
    pops = db().scalars(select(MenuItem.emoji).where(MenuItem.store_id == s.id, MenuItem.popular.is_(True))
                        .order_by(MenuItem.id)).all()
    ems = tuple(dict.fromkeys(pops)) or (s.emoji,)
    return _img(images.store_hero(s.name + "/banner", ems, s.color, 1200, 300), "image/jpeg")


@bp.get("/img/store/<int:store_id>/logo.png")
def store_logo(store_id: int):
    s = db().get(Store, store_id)
    if s is None:
        abort(404)
    return _img(images.store_logo(s.name, s.emoji, s.color), "image/png")


@lru_cache(maxsize=1)
def _cuisine_bg() -> dict[str, str]:
    from seed_data.food import vocab

    return {slug: c.get("bg", "#F1F1F1") for slug, c in vocab("cuisines").items()}


@bp.get("/img/cuisine/<slug>.png")
def cuisine_img(slug: str):
    c = db().scalars(select(Cuisine).where(Cuisine.slug == slug)).first()
    if c is None:
        abort(404)
    return _img(images.cuisine_icon(c.emoji, _cuisine_bg().get(slug, "#F1F1F1")), "image/png")


@bp.get("/img/forkful.png")
def brand_logo():
    return _img(images.logo_mark(64), "image/png")


__all__ = ["json"]
