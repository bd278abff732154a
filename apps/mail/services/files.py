"""Attachments: my files (compose's "Insert from Files", Gmail's Drive insert), uploads from the computer, and
attaching them to a draft or to a message being sent. Never commits.

An attachment is a copy of the file's metadata on the message (`attachments` row: filename, mime, size), as
the seeded attachments are, so Sent, the thread, search `has:attachment` / `filename:` and the state JSON
see it like any other."""

from __future__ import annotations

import mimetypes
from typing import Any

from sqlalchemy import func, select

from apps._shared import now
from apps.mail.models import Attachment, File, Message
from apps.mail.services.errors import ServiceError

# Gmail refuses attachments over 25 MB in total on one message.
MAX_TOTAL_BYTES = 25 * 1024 * 1024
MAX_FILES = 20
MAX_NAME = 200


def file_dict(f: File) -> dict:
    return {"file_id": f.id, "name": f.name, "mime": f.mime, "size": f.size,
            "modified_at": f.modified_at.isoformat(), "uploaded": f.uploaded}


def attachment_dict(a: Attachment) -> dict:
    return {"attachment_id": a.id, "filename": a.filename, "mime": a.mime, "size": a.size}


def list_files(session, query: Any = "") -> list[File]:
    """My files, newest first; `query` keeps those whose name contains it (case-insensitive)."""
    if query is not None and not isinstance(query, str):
        raise ServiceError("'query' must be text")
    stmt = select(File).order_by(File.modified_at.desc(), File.id.desc())
    q = (query or "").strip()
    if q:
        stmt = stmt.where(func.lower(File.name).contains(q.lower()))
    return list(session.scalars(stmt))


def _file_ids(file_ids: Any) -> list[int]:
    if file_ids is None:
        return []
    if not isinstance(file_ids, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in file_ids):
        raise ServiceError("'file_ids' must be a list of file ids")
    if len(file_ids) > MAX_FILES:
        raise ServiceError(f"at most {MAX_FILES} files at once")
    return list(dict.fromkeys(file_ids))


def files_by_id(session, file_ids: Any) -> list[File]:
    """The files `file_ids` (validated; every id must exist), in the order given, without repeats."""
    ids = _file_ids(file_ids)
    out = []
    for fid in ids:
        f = session.get(File, fid)
        if f is None:
            raise ServiceError(f"file {fid} does not exist", 404)
        out.append(f)
    return out


def attachments_of(session, message_id: int) -> list[Attachment]:
    return list(session.scalars(select(Attachment).where(Attachment.message_id == message_id).order_by(Attachment.id)))


def attach(session, msg: Message, files: list[File]) -> list[Attachment]:
    """Attach `files` to `msg` (a draft, or a message being sent). A file already attached (same name) is not
    attached twice; the total stays within Gmail's 25 MB."""
    have = attachments_of(session, msg.id) if msg.id is not None else []
    names = {a.filename for a in have}
    new = [f for f in files if f.name not in names]
    total = sum(a.size for a in have) + sum(f.size for f in new)
    if total > MAX_TOTAL_BYTES:
        raise ServiceError("The files you are trying to send exceed the 25 MB attachment limit.")
    out = []
    for f in new:
        a = Attachment(message_id=msg.id, filename=f.name, mime=f.mime, size=f.size)
        session.add(a)
        out.append(a)
    session.flush()
    return out


def upload(session, filename: Any, size: Any, mime: Any = None) -> File:
    """A file chosen on the computer (the paperclip's file dialog): kept in my files, then attached like them."""
    name = str(filename or "").replace("\\", "/").rsplit("/", 1)[-1].strip()
    if not name:
        raise ServiceError("the file has no name")
    if len(name) > MAX_NAME:
        raise ServiceError(f"file names are at most {MAX_NAME} characters")
    if not isinstance(size, int) or isinstance(size, bool) or size < 0:
        raise ServiceError("'size' must be a number of bytes")
    if size > MAX_TOTAL_BYTES:
        raise ServiceError("The file you are trying to send exceeds the 25 MB attachment limit.")
    kind = mime if isinstance(mime, str) and "/" in mime and len(mime) <= 100 else None
    kind = kind or mimetypes.guess_type(name)[0] or "application/octet-stream"
    f = File(name=name, mime=kind, size=size, modified_at=now(), uploaded=True)
    session.add(f)
    session.flush()
    return f



def size_label(size: int) -> str:
    """Gmail's chip size: "245 KB", "1.2 MB"."""
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):.1f} MB"
    return f"{max(1, round(size / 1024))} KB"
