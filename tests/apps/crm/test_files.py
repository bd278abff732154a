"""Files on records: the seeded library, Add Files (the in-app picker), Upload Files (a real multipart upload),
the preview and download, Remove from Record, the cascade of a delete, and bad input (a clear 4xx or form error,
nothing written)."""

from __future__ import annotations

import io

from sqlalchemy import func, select

from apps.crm import models as m
from apps.crm.tools import TOOLS

from .conftest import fresh

ACC = 1


def _links(dbs, obj="Account", rid=ACC) -> list[m.FileLink]:
    dbs.expire_all()
    return list(dbs.scalars(select(m.FileLink).where(m.FileLink.parent_type == obj, m.FileLink.parent_id == rid)))


def _file(dbs, title: str) -> m.File:
    return dbs.scalars(select(m.File).where(m.File.title == title)).one()


def _row_hidden(html: bytes, title: str) -> bool:
    """Whether the Select Files row of this file is rendered hidden."""
    text = html.decode()
    at = text.index(f">Select {title}<")
    row = text[text.rindex("<li", 0, at):at]
    return " hidden>" in row


def test_seeded_library(dbs):
    assert dbs.scalar(select(func.count()).select_from(m.File)) == 14
    assert _file(dbs, "Q1 Pricing Sheet").extension == "pdf" and _file(dbs, "Q1 Pricing Sheet (draft)").owner_id == 1
    assert dbs.scalar(select(func.count()).select_from(m.FileLink)) == 10


def test_add_files_preview_and_remove(client, dbs):
    page = client.get(f"/lightning/r/Account/{ACC}/view").data
    assert b'aria-label="Files"' in page and b"Add Files" in page and b'type="file"' in page
    r = client.get(f"/lightning/r/Account/{ACC}/files/add")
    assert b"Select Files" in r.data and b"Select Q1 Pricing Sheet" in r.data
    # Every file is listed; the scope and the search hide the others in place (so ticks survive narrowing).
    assert _row_hidden(client.get(f"/lightning/r/Account/{ACC}/files/add?scope=mine").data, "Master Services Agreement - Redline")
    r = client.get(f"/lightning/r/Account/{ACC}/files/add?q=pricing").data
    assert _row_hidden(r, "ROI Calculator") and not _row_hidden(r, "Q1 Pricing Sheet")
    pricing, msa = _file(dbs, "Q1 Pricing Sheet"), _file(dbs, "Master Services Agreement")
    r = client.post(f"/lightning/r/Account/{ACC}/files/add", data={"file_id": [str(pricing.id), str(msa.id)]})
    assert r.status_code == 303 and {lk.file_id for lk in _links(dbs)} == {pricing.id, msa.id}
    # The same file again is refused, and nothing is written.
    r = client.post(f"/lightning/r/Account/{ACC}/files/add", data={"file_id": str(pricing.id)})
    assert r.status_code == 200 and b"already attached" in r.data and len(_links(dbs)) == 2
    page = client.get(f"/lightning/r/Account/{ACC}/view").data
    assert b"Files (2)" in page and b"Q1 Pricing Sheet" in page
    link = next(lk for lk in _links(dbs) if lk.file_id == pricing.id)
    r = client.get(f"/lightning/r/File/{pricing.id}/preview?link={link.id}")
    assert b"Stratus price list" in r.data and b"Remove from Record" in r.data
    assert client.get(f"/crm/files/{pricing.id}/download").data.startswith(b"Stratus price list")
    diagram = _file(dbs, "Architecture Diagram")
    assert client.get(f"/crm/files/{diagram.id}/content").data[:8] == b"\x89PNG\r\n\x1a\n"
    r = client.post(f"/lightning/r/FileLink/{link.id}/delete")
    assert r.status_code == 303 and [lk.file_id for lk in _links(dbs)] == [msa.id] and fresh(dbs, m.File, pricing.id)


def test_upload_and_delete_cascade(client, dbs):
    r = client.post(f"/lightning/r/Account/{ACC}/files/upload", data={"file": (io.BytesIO(b"Visit notes\nCFO joined."), "visit notes.txt")},
                    content_type="multipart/form-data")
    assert r.status_code == 303
    f = _file(dbs, "visit notes")
    assert (f.extension, f.size, f.owner_id, f.text) == ("txt", 23, 1, "Visit notes\nCFO joined.")
    assert [lk.file_id for lk in _links(dbs)] == [f.id]
    assert client.get(f"/crm/files/{f.id}/download").data == b"Visit notes\nCFO joined."
    client.post(f"/lightning/r/Account/{ACC}/delete")
    assert _links(dbs) == [] and fresh(dbs, m.File, f.id) is not None


def test_bad_input(client, dbs):
    before = dbs.scalar(select(func.count()).select_from(m.FileLink))
    assert client.post(f"/lightning/r/Account/{ACC}/files/add", data={"file_id": "x"}).status_code == 400
    assert client.post(f"/lightning/r/Account/{ACC}/files/add", data={"file_id": "987654"}).status_code == 404
    r = client.post(f"/lightning/r/Account/{ACC}/files/add", data={})
    assert r.status_code == 200 and b"select at least one file" in r.data.lower()
    assert client.get("/lightning/r/Task/1/files/add").status_code == 404
    assert client.get("/lightning/r/Account/987654/files/add").status_code == 404
    r = client.post(f"/lightning/r/Account/{ACC}/files/upload", data={}, content_type="multipart/form-data")
    assert r.status_code == 200 and b"Choose a file to upload" in r.data
    r = client.post(f"/lightning/r/Account/{ACC}/files/upload", data={"file": (io.BytesIO(b""), "empty.txt")},
                    content_type="multipart/form-data", headers={"X-Requested-With": "fetch"})
    assert r.status_code == 400 and r.json["message"] == "The file is empty."
    assert client.get("/lightning/r/File/987654/preview").status_code == 404
    assert client.post("/lightning/r/FileLink/987654/delete").status_code == 404
    assert dbs.scalar(select(func.count()).select_from(m.FileLink)) == before


def test_tools(app, dbs):
    def call(tool, **args):
        return TOOLS.call(app, app.config["TEST_WORLD"], tool, args)

    titles = [f["title"] for f in call("list_files", search="pricing")]
    assert titles == ["Q1 Pricing Sheet (draft)", "Q1 Pricing Sheet"]
    fid = _file(dbs, "Q1 Pricing Sheet").id
    r = call("attach_files", object="Account", record_id=ACC, file_ids=[fid])
    assert call("get_record", object="Account", record_id=ACC)["related"]["files"]["records"][0]["id"] == fid
    up = call("upload_file", object="Account", record_id=ACC, file_name="agenda.txt", text="1. Pricing")
    assert up["extension"] == "txt" and len(_links(dbs)) == 2
    call("remove_file", link_id=r["added"][0]["link_id"])
    assert [lk.file_id for lk in _links(dbs)] == [up["id"]]
