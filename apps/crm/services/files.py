"""Files on records (Salesforce Files: ContentDocument + ContentDocumentLink): the library you pick from (Add
Files), attaching a file to a record, uploading one (the Files card's Upload Files), removing a file from a
record. A file is shared to a record at most once."""

from __future__ import annotations

import base64
import hashlib
from pathlib import PurePath
from typing import Any

from sqlalchemy import select

from apps._shared import db, now
from apps.crm import models as m
from apps.crm import records as R
from apps.crm.services import ServiceError, record

PARENTS = ("Account", "Contact", "Opportunity", "Lead", "Case")
MAX_BYTES = 900_000  # under the request limit (1 MB), with room for the form around it
TITLE_MAX = 255
LABELS = {"pdf": "PDF", "png": "PNG", "jpg": "JPG", "jpeg": "JPG", "gif": "GIF", "csv": "CSV", "txt": "Text", "docx": "Word",
          "doc": "Word", "xlsx": "Excel", "xls": "Excel", "pptx": "PowerPoint"}
ICONS = {"pdf": "doctype:pdf", "png": "doctype:image", "jpg": "doctype:image", "jpeg": "doctype:image", "gif": "doctype:image",
         "csv": "doctype:csv", "txt": "doctype:txt", "docx": "doctype:word", "doc": "doctype:word", "xlsx": "doctype:excel",
         "xls": "doctype:excel"}
IMAGE_MIME = {"png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif"}


def icon(f: m.File) -> str:
    return ICONS.get(f.extension, "doctype:unknown")


def size_text(n: int) -> str:
    return f"{n / 1_000_000:.1f} MB" if n >= 1_000_000 else f"{max(1, round(n / 1000))} KB"


def as_dict(f: m.File) -> dict[str, Any]:
    return {"id": f.id, "title": f.title, "extension": f.extension, "type": LABELS.get(f.extension, f.extension.upper() or "File"),
            "size": f.size, "owner_id": f.owner_id, "created_at": f.created_at}


def file(fid) -> m.File:
    f = db().get(m.File, fid) if isinstance(fid, int) and not isinstance(fid, bool) else None
    if f is None:
        raise ServiceError(f"there is no file with id {fid} (see list_files)", status=404)
    return f


def library(search: str = "", owned_by_me: bool = False) -> list[m.File]:
    """Add Files' list: every file (or yours), newest first, narrowed by title."""
    q = select(m.File).order_by(m.File.created_at.desc(), m.File.id.desc())
    if owned_by_me:
        q = q.where(m.File.owner_id == R.ME)
    rows = list(db().scalars(q))
    s = search.strip().lower()
    return [f for f in rows if s in search_key(f)] if s else rows


def search_key(f: m.File) -> str:
    """What Search Files matches a typed text against (in `library`, and in the picker's in-place narrowing)."""
    return f"{f.title}.{f.extension}".lower()


def files_of(obj: str, rid: int) -> list[tuple[m.FileLink, m.File]]:
    """A record's Files related list, the latest shared first."""
    q = (select(m.FileLink, m.File).join(m.File, m.File.id == m.FileLink.file_id)
         .where(m.FileLink.parent_type == obj, m.FileLink.parent_id == rid).order_by(m.FileLink.created_at.desc(), m.FileLink.id.desc()))
    return [(lk, f) for lk, f in db().execute(q).all()]


def _parent(obj: str, rid: int):
    if obj not in PARENTS:
        raise ServiceError(f"files can't be added to a {obj}; one of {', '.join(PARENTS)}", status=404)
    return record(obj, rid, PARENTS)


def attach(obj: str, rid: int, file_ids: list[int]) -> list[m.FileLink]:
    """Add Files: share each chosen file to the record (the same file twice is refused, as is one already there)."""
    _parent(obj, rid)
    if not file_ids:
        raise ServiceError("Add Files: select at least one file.", {"files": "Select at least one file."})
    if len(set(file_ids)) != len(file_ids):
        raise ServiceError("Add Files: each file can be chosen once.", {"files": "Each file can be chosen once."})
    have = {lk.file_id for lk, _ in files_of(obj, rid)}
    out = []
    nid = R.next_id(m.FileLink)
    for fid in file_ids:
        f = file(fid)
        if f.id in have:
            raise ServiceError(f"Add Files: \u201c{f.title}\u201d is already attached to this record.",
                               {"files": f"\u201c{f.title}\u201d is already attached to this record."})
        lk = m.FileLink(id=nid, file_id=f.id, parent_type=obj, parent_id=rid, created_at=now())
        db().add(lk)
        out.append(lk)
        nid += 1
    return out


def upload(obj: str, rid: int, filename: str, data: bytes) -> m.File:
    """Upload Files: a new file of yours (title = the name without its extension), shared to the record."""
    _parent(obj, rid)
    name = PurePath(str(filename or "").replace("\\", "/")).name.strip()
    if not name:
        raise ServiceError("Upload Files: choose a file to upload.", {"file": "Choose a file to upload."})
    if not data:
        raise ServiceError("Upload Files: the file is empty.", {"file": "The file is empty."})
    if len(data) > MAX_BYTES:
        raise ServiceError(f"Upload Files: the file is larger than {size_text(MAX_BYTES)}.", {"file": "The file is too large."},
                           status=413)
    stem, dot, ext = name.rpartition(".")
    title, ext = (stem, ext.lower()) if dot and stem else (name, "")
    if len(title) > TITLE_MAX or len(ext) > 10:
        raise ServiceError("Upload Files: the file name is too long.", {"file": "The file name is too long."})
    text = ""
    if ext in ("txt", "csv"):
        try:
            text = data.decode("utf-8")[:20_000]
        except UnicodeDecodeError:
            text = ""
    f = m.File(id=R.next_id(m.File), title=title, extension=ext, size=len(data), description="", text=text,
               data=base64.b64encode(data).decode("ascii"), sha256=hashlib.sha256(data).hexdigest(), owner_id=R.ME,
               created_at=now())
    db().add(f)
    db().flush()
    db().add(m.FileLink(id=R.next_id(m.FileLink), file_id=f.id, parent_type=obj, parent_id=rid, created_at=now()))
    return f


def remove(link_id) -> m.FileLink:
    """Remove from Record: the link goes, the file stays in the library."""
    lk = db().get(m.FileLink, link_id) if isinstance(link_id, int) and not isinstance(link_id, bool) else None
    if lk is None:
        raise ServiceError(f"there is no file link with id {link_id} (a record's files are in get_record)", status=404)
    db().delete(lk)
    return lk


def content(f: m.File) -> tuple[bytes, str]:
    """The bytes to download (uploads: what was uploaded; seeded files: their text) and a MIME type."""
    if f.data is not None:
        return base64.b64decode(f.data), IMAGE_MIME.get(f.extension, "application/octet-stream")
    return f.text.encode("utf-8"), "text/plain; charset=utf-8"
