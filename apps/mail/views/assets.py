"""Generated images: letter avatars and attachment previews/downloads (Pillow, deterministic, cached)."""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

from flask import abort, request, send_file
from PIL import Image
from sqlalchemy import select

from apps._shared import db
from apps._shared.caching import world_image
from apps.mail.models import Attachment, Contact, Message
from apps.mail.views.blueprint import bp
from apps.mail.views.common import render_page, safe_back
from seed_data.images import attachment_bytes, attachment_preview, avatar_png, photo_avatar_png

FONT = Path(__file__).resolve().parents[2] / "_shared" / "static" / "vendor" / "fontsource-google-sans" / \
    "google-sans-latin-500-normal.woff2"
DOWNLOADABLE = {"application/pdf", "image/jpeg", "text/plain"}


@lru_cache(maxsize=1024)
def _avatar(name: str, size: int, photo_key: str) -> bytes:
    if photo_key:
        return photo_avatar_png(photo_key, size, name)
    return avatar_png(name, size, str(FONT))


@bp.get("/avatar")
def avatar():
    """A contact's avatar: their photo when they have one (`email` names them), else a letter avatar."""
    name = (request.args.get("name") or "?")[:120]
    email = (request.args.get("email") or "").strip().lower()[:200]
    try:
        size = int(request.args.get("s", "80"))
    except ValueError:
        size = 80
    photo = ""
    contact = db().execute(select(Contact.has_photo, Contact.name).where(Contact.email == email).limit(1)).first() \
        if email else None
    if contact and contact.has_photo:
        # The photo is the contact's: keyed by their email, drawn for their own name (not the caller's label).
        photo, name = email, contact.name
    return world_image(_avatar(name, max(16, min(size, 256)), photo), "image/png")


def _attachment(aid: int) -> tuple[Attachment, Message]:
    session = db()
    a = session.get(Attachment, aid)
    if a is None:
        abort(404)
    return a, session.get(Message, a.message_id)


@lru_cache(maxsize=128)
def _preview_png(key: str, filename: str, mime: str, width: int) -> bytes:
    img = attachment_preview(filename, mime, key, width=640, font_path=str(FONT))
    if width != 640:
        img = img.resize((width, round(img.height * width / 640)), Image.LANCZOS)
    buf = io.BytesIO()
    img.save(buf, "PNG", optimize=True)
    return buf.getvalue()


@bp.get("/attachments/<int:aid>/preview.png")
def attachment_preview_png(aid: int):
    a, _m = _attachment(aid)
    width = 240 if request.args.get("thumb") else 640
    return world_image(_preview_png(f"{a.message_id}:{a.id}", a.filename, a.mime, width), "image/png")


@lru_cache(maxsize=64)
def _download_bytes(key: str, filename: str, mime: str) -> tuple[bytes, str]:
    return attachment_bytes(filename, mime, key, font_path=str(FONT))


@bp.get("/attachments/<int:aid>/download")
def attachment_download(aid: int):
    a, _m = _attachment(aid)
    if a.mime not in DOWNLOADABLE:
        abort(404)
    data, mime = _download_bytes(f"{a.message_id}:{a.id}", a.filename, a.mime)
    return send_file(io.BytesIO(data), mimetype=mime, as_attachment=True, download_name=a.filename)


@bp.get("/attachments/<int:aid>")
def attachment_view(aid: int):
    a, m = _attachment(aid)
    siblings = list(db().scalars(select(Attachment).where(Attachment.message_id == a.message_id).order_by(Attachment.id)))
    back = safe_back(request.args.get("back"), f"/thread/{m.thread_id}")
    return render_page("mail/attachment.html", att=a, message=m, siblings=siblings, back=back,
                       downloadable=a.mime in DOWNLOADABLE, inert_app=True)
