"""A tiny clone for testing the env and the control API without a real app: a list of notes with
in-place star toggles (fetch), a link to a second page, a form that creates a note, and a badge
image per note whose colour depends on the world (for the browser-cache tests)."""

from __future__ import annotations

import datetime as dt
import hashlib
import io

from flask import Blueprint, redirect, render_template_string, request
from sqlalchemy import select
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from apps._shared import AppSpec, create_app as _create_app, db, now
from apps._shared.caching import world_image


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

    @bp.post("/notes/<int:nid>/star")
    def star(nid: int):
        n = db().get(Note, nid)
        n.starred = not n.starred
        db().commit()
        return {"starred": n.starred}

    @bp.post("/notes")
    def add():
        db().add(Note(title=request.form.get("title", ""), created_at=now()))
        db().commit()
        return redirect("/")

    return [bp]


SPEC = AppSpec(name="toy", title="Toy", import_name=__name__, base=Base, build_world=build, views=__name__,
               default_now=dt.datetime(2026, 3, 12, 10, 24), fingerprint_modules=[__name__])


def create_app(config=None):
    return _create_app(SPEC, config)
