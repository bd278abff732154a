"""The record page's Feed tab (Chatter): Share a post, Comment, Like / Unlike (apps/crm/services/feed.py)."""

from __future__ import annotations

from flask import abort, request

from apps._shared.actions import perform
from apps._shared.i18n import gettext
from apps.crm.services import ServiceError, record
from apps.crm.services import feed as svc
from apps.crm.views.base import bp, done, fail

REFUSED = {ServiceError: lambda e: fail(message=str(e), status=getattr(e, "status", 400))}


def _feed_url(obj: str, rid: int) -> str:
    return f"/lightning/r/{obj}/{rid}/view?tab=feed"


def _check(obj: str, rid: int, fid: int | None = None) -> None:
    if obj not in svc.FEED_OBJECTS:
        abort(404)
    perform(record, obj, rid, svc.FEED_OBJECTS, errors={ServiceError: lambda e: abort(404)})
    if fid is not None:
        it = perform(svc.item, fid, errors={ServiceError: lambda e: abort(404)})
        if (it.parent_type, it.parent_id) != (obj, rid):
            abort(404)


@bp.post("/lightning/r/<obj>/<int:rid>/feed/post")
def feed_post(obj: str, rid: int):
    _check(obj, rid)
    perform(svc.post, obj, rid, request.form.get("body", ""), errors=REFUSED)
    return done(_feed_url(obj, rid), toast=gettext("Post was shared."))


@bp.post("/lightning/r/<obj>/<int:rid>/feed/<int:fid>/comment")
def feed_comment(obj: str, rid: int, fid: int):
    _check(obj, rid, fid)
    perform(svc.comment, fid, request.form.get("body", ""), errors=REFUSED)
    return done(_feed_url(obj, rid), toast=gettext("Comment was added."))


@bp.post("/lightning/r/<obj>/<int:rid>/feed/<int:fid>/like")
def feed_like(obj: str, rid: int, fid: int):
    _check(obj, rid, fid)
    liked = perform(svc.set_like, fid, request.form.get("liked", "1") != "0", errors=REFUSED)
    return done(_feed_url(obj, rid), toast=gettext("You liked this post.") if liked else gettext("You unliked this post."))
