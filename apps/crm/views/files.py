"""Files on records: the Files card's Upload Files (a real multipart upload) and Add Files (the library picker a
browser agent can use: it has no OS file dialog), the preview, download, and Remove from Record. The rules are
services/files.py's."""

from __future__ import annotations

import io

from flask import Response, abort, render_template, request, send_file

from apps._shared import db, inputs
from apps._shared.actions import perform
from apps._shared.i18n import gettext
from apps.crm import models as m
from apps.crm import records as R
from apps.crm.services import ServiceError
from apps.crm.services import files as svc
from apps.crm.views.base import bp, done, fail
from apps.crm.views.records import modal_response


def _parent_or_404(obj: str, rid: int):
    if obj not in svc.PARENTS:
        abort(404)
    return R.get_record(obj, rid)


def _add_modal(obj: str, rid: int, error: str = "") -> str:
    scope = "mine" if request.args.get("scope") == "mine" else "all"
    q = request.args.get("q", "")[:100]
    attached = {lk.file_id for lk, _ in svc.files_of(obj, rid)}
    base = f"/lightning/r/{obj}/{rid}/files/add"
    # Every file is listed and the scope and search narrow the list in place (hidden rows), so ticks survive both.
    shown = {f.id for f in svc.library(q, scope == "mine")}
    return render_template("crm/modal_files_add.html", base=base, action=base, scope=scope, q=q, error=error, attached=attached,
                           files=svc.library(), shown=shown, me=R.ME, search_key=svc.search_key, file_icon=svc.icon,
                           file_size=svc.size_text)


@bp.route("/lightning/r/<obj>/<int:rid>/files/add", methods=["GET", "POST"])
def files_add(obj: str, rid: int):
    _parent_or_404(obj, rid)
    if request.method == "GET":
        return modal_response(_add_modal(obj, rid), obj, rid)
    ids = []
    for raw in request.form.getlist("file_id"):
        n = inputs.id_text(raw)
        if n is None:
            abort(400, description="'file_id' must be file ids.")
        ids.append(n)
    links = perform(svc.attach, obj, rid, ids, errors={ServiceError: lambda e: (
        abort(404, description=str(e)) if e.status == 404 else fail(_add_modal(obj, rid, str(e).split(": ", 1)[-1])))})
    n = len(links)
    return done(f"/lightning/r/{obj}/{rid}/view", toast=f"{n} file{'s' if n != 1 else ''} added to the record.")


@bp.post("/lightning/r/<obj>/<int:rid>/files/upload")
def files_upload(obj: str, rid: int):
    _parent_or_404(obj, rid)
    up = request.files.get("file")
    f = perform(svc.upload, obj, rid, up.filename if up else "", up.read(svc.MAX_BYTES + 1) if up else b"",
                errors={ServiceError: lambda e: fail(message=next(iter(e.errors.values()), str(e)),
                                                     status=e.status if e.status >= 400 else 400)})
    return done(f"/lightning/r/{obj}/{rid}/view", toast=gettext("1 file was added to the %(lower)s: %(title)s.", lower=obj.lower(), title=f.title))


def _file_or_404(fid: int) -> m.File:
    f = db().get(m.File, fid)
    if f is None:
        abort(404)
    return f


@bp.get("/lightning/r/File/<int:fid>/preview")
def file_preview(fid: int):
    f = _file_or_404(fid)
    link = db().get(m.FileLink, inputs.id_text(request.args.get("link", "")) or 0)
    if link is not None and link.file_id != f.id:
        link = None
    owner = R.user_by_id(f.owner_id)
    html = render_template("crm/modal_file_preview.html", f=f, image=f.extension in svc.IMAGE_MIME,
                           file_type=svc.LABELS.get(f.extension, f.extension.upper() or "File"), file_size=svc.size_text,
                           owner=owner.name if owner else "", icon=svc.icon(f),
                           remove_url=f"/lightning/r/FileLink/{link.id}/delete" if link else None)
    if link is not None:
        return modal_response(html, link.parent_type, link.parent_id)
    return modal_response(html)


@bp.get("/crm/files/<int:fid>/content")
def file_content(fid: int):
    f = _file_or_404(fid)
    if f.extension in svc.IMAGE_MIME and f.data is None:
        # A seeded image has no stored bytes: draw its picture (deterministic, from its title and text).
        from seed_data.crm import file_png

        return Response(file_png(f.title, f.text), mimetype="image/png")
    data, mime = svc.content(f)
    return Response(data, mimetype=mime if f.extension in svc.IMAGE_MIME else "text/plain; charset=utf-8")


@bp.get("/crm/files/<int:fid>/download")
def file_download(fid: int):
    f = _file_or_404(fid)
    data, mime = svc.content(f)
    name = f"{f.title}.{f.extension}" if f.extension else f.title
    return send_file(io.BytesIO(data), mimetype=mime, as_attachment=True, download_name=name)


@bp.route("/lightning/r/FileLink/<int:lid>/delete", methods=["GET", "POST"])
def file_link_delete(lid: int):
    lk = db().get(m.FileLink, lid)
    if lk is None:
        abort(404)
    f = db().get(m.File, lk.file_id)
    if request.method == "GET":
        return modal_response(render_template("crm/modal_confirm.html", title="Remove from Record",
                                              message=f"Remove \u201c{f.title if f else 'this file'}\u201d from this record? "
                                                      "The file stays in Files.",
                                              action=f"/lightning/r/FileLink/{lid}/delete", button="Remove"),
                              lk.parent_type, lk.parent_id)
    perform(svc.remove, lid)
    return done(f"/lightning/r/{lk.parent_type}/{lk.parent_id}/view", toast=gettext("File was removed from the record."))
