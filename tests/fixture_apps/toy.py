"""A tiny clone for testing the env and the control API without a real app: a list of notes with
in-place star toggles (fetch), a link to a second page, a form that creates a note, and a badge
image per note whose colour depends on the world (for the browser-cache tests)."""

from __future__ import annotations

import datetime as dt
import hashlib
import io

from typing import Annotated

from flask import Blueprint, redirect, render_template_string, request
from pydantic import Field
from sqlalchemy import select
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from apps._shared import AppSpec, create_app as _create_app, db, now
from apps._shared.caching import world_image
from apps._shared.tools import ToolError, ToolSet


class Base(DeclarativeBase):
    pass


class Note(Base):
    __tablename__ = "notes"
    id: Mapped[int] = mapped_column(primary_key=True)
    title: Mapped[str]
    starred: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[dt.datetime]


def build(seed: int, now: dt.datetime) -> dict:
    return {"notes": [{"id": i, "title": f"Note {seed}-{i}", "starred": False,
                       "created_at": now - dt.timedelta(hours=i)} for i in range(1, 6)]}


PAGE = """<!doctype html><html><head><style>
body{font:16px sans-serif;margin:20px} li{height:40px} button{width:90px;height:30px} button:hover{background:#fc0}
</style></head><body>
<h1>Notes <span id="clock"></span></h1>
<p>now: {{ now }}</p>
<ul>{% for n in notes %}<li><img src="/badge/{{ n.id }}.png" alt="" width="40" height="20"> {{ n.title }}
 <button class="star" aria-label="{{ 'Unstar' if n.starred else 'Star' }} {{ n.title }}" data-id="{{ n.id }}">{{ '★' if n.starred else '☆' }}</button></li>{% endfor %}</ul>
<a href="/second">Second page</a>
<button id="freeze">Freeze</button>
<form method="post" action="/notes"><input aria-label="Title" name="title"><button type="submit">Add</button></form>
<script nonce="{{ csp_nonce() }}">
document.getElementById('clock').textContent = new Date().toISOString();
async function toggle(b) {
  const r = await fetch('/notes/' + b.dataset.id + '/star', {method: 'POST'});
  const j = await r.json();
  b.textContent = j.starred ? '★' : '☆';
}
for (const b of document.querySelectorAll('button.star')) b.addEventListener('click', () => toggle(b));
document.getElementById('freeze').addEventListener('click', () => setTimeout(() => { while (true) {} }, 0));
</script></body></html>"""


def blueprints():
    bp = Blueprint("toy", __name__)

    @bp.get("/")
    def index():
        notes = db().scalars(select(Note).order_by(Note.id)).all()
        return render_template_string(PAGE, notes=notes, now=now().isoformat())

    @bp.get("/badge/<int:nid>.png")
    def badge(nid: int):
        from PIL import Image

        n = db().get(Note, nid)
        rgb = tuple(hashlib.sha256(n.title.encode()).digest()[:3])
        buf = io.BytesIO()
        Image.new("RGB", (40, 20), rgb).save(buf, "PNG")
        return world_image(buf.getvalue(), "image/png")

    @bp.get("/long")
    def long():  # a tall page with a scroll box in it, for the scroll action
        rows = "".join(f"<p style='margin:0;height:40px'>Row {i}</p>" for i in range(60))
        return ("<!doctype html><html><body style='margin:0'><div id='box' style='height:200px;overflow:auto'>"
                + rows + "</div><div style='height:3000px'>Tall</div></body></html>")

    @bp.get("/second")
    def second():
        return "<!doctype html><html><body><h1>Second</h1><a href='/'>Back</a></body></html>"

    @bp.get("/broken")
    def broken():  # links whose loads fail in the browser: its error page, not the app's
        return ("<!doctype html><html><body><h1>Broken links</h1>"
                "<p><a href='/huge-header'>Huge header</a></p>"
                "<p><a href='http://127.0.0.1:9/elsewhere'>Another origin</a></p></body></html>")

    @bp.get("/huge-header")
    def huge_header():  # a header past Chromium's 256 KiB limit: net::ERR_RESPONSE_HEADERS_TOO_BIG
        return "never shown", 200, {"X-Huge": "a" * 300_000}

    @bp.post("/notes/<int:nid>/star")
    def star(nid: int):
        n = db().get(Note, nid)
        result = set_star(nid, not n.starred)
        db().commit()
        return {"starred": result["starred"]}

    @bp.post("/notes")
    def add():
        db().add(Note(title=request.form.get("title", ""), created_at=now()))
        db().commit()
        return redirect("/")

    return [bp]


# The service layer (what the views and the tools share) and the tools, for the tool-mode tests.
TOOLS = ToolSet("toy")


def set_star(note_id: int, starred: bool) -> dict:
    n = db().get(Note, note_id)
    if n is None:
        raise ToolError(f"no note with id {note_id}; list_notes gives the ids")
    n.starred = starred
    return {"id": n.id, "starred": n.starred}


@TOOLS.tool
def list_notes() -> dict:
    """Every note: id, title, starred."""
    notes = db().scalars(select(Note).order_by(Note.id)).all()
    return {"notes": [{"id": n.id, "title": n.title, "starred": n.starred} for n in notes]}


@TOOLS.tool
def star_note(note_id: Annotated[int, Field(description="the note's id (list_notes)")], starred: bool = True) -> dict:
    """Star (or, with starred=false, unstar) a note."""
    return set_star(note_id, starred)


@TOOLS.tool
def add_notes(titles: Annotated[list[str], Field(min_length=1, max_length=20, description="one title per note")]) -> dict:
    """Add notes, all or none: an empty title refuses the whole call."""
    for t in titles:
        if not t.strip():
            raise ToolError("a note's title cannot be empty; nothing was added")
        db().add(Note(title=t, created_at=now()))
        db().flush()  # written (in the transaction) before the next title is checked: rollback must undo it
    return {"added": len(titles)}


SPEC = AppSpec(name="toy", title="Toy", import_name=__name__, base=Base, build_world=build, views=__name__,
               default_now=dt.datetime(2026, 3, 12, 10, 24), fingerprint_modules=[__name__], tools=__name__)


def create_app(config=None):
    return _create_app(SPEC, config)
