"""A small app with planted defects that `uigym qa` must each catch (tests/qa/test_qa_fixtures.py):

- dead_control: the "Archive" button does nothing; the "Print" item of the "More" menu only closes the menu
- http_error: the "Reports" link leads to a page that answers 500
- js_error: the "Refresh" button calls a function that does not exist
- console_error: the gallery logs console.error when it loads
- failed_request: the "Sync" button's fetch answers 500
- broken_image: the gallery has an image whose file is missing, and one that is a flat grey square
- empty_results: searching the dishes for "Thai" finds nothing (the world has no Thai dish)
- mismatched_results: the cuisine filter ignores its value and lists every dish
- unnamed: an icon-only button without an accessible name; a clickable <div> without a role
- text_overflow: a fixed-width badge whose text spills out of it
- unreachable: a "Hidden settings" button placed off-screen inside a box that cannot scroll
"""

from __future__ import annotations

import datetime as dt
import io

from flask import Blueprint, Response, abort, render_template_string, request
from sqlalchemy import select
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from apps._shared import AppSpec, db
from apps._shared import create_app as _create_app


class Base(DeclarativeBase):
    pass


class Dish(Base):
    __tablename__ = "dishes"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str]
    cuisine: Mapped[str]
    likes: Mapped[int] = mapped_column(default=0)


DISHES = [("Margherita Pizza", "Italian"), ("Pepperoni Pizza", "Italian"), ("Salmon Nigiri", "Japanese"),
          ("Chicken Tacos", "Mexican"), ("Beef Burrito", "Mexican"), ("Miso Soup", "Japanese")]


def build(seed: int, now: dt.datetime) -> dict:
    return {"dishes": [{"id": i + 1, "name": n, "cuisine": c, "likes": 0} for i, (n, c) in enumerate(DISHES)]}


LAYOUT = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Defects</title>
<link rel="icon" href="data:,">
<style>
body{font:15px/1.4 sans-serif;margin:0;padding:16px 24px;color:#222}
nav a{margin-right:16px} .bar{margin:12px 0;display:flex;gap:8px;align-items:center}
button{font:inherit;padding:4px 10px}
.badge{display:inline-block;width:60px;white-space:nowrap;border:1px solid #c00;margin-left:12px}
.clip{position:relative;width:200px;height:40px;overflow:hidden;border:1px solid #ccc}
.clip button{position:absolute;left:1400px;top:4px}
.fake{display:inline-block;cursor:pointer;padding:4px 8px;background:#eef}
.menu{border:1px solid #888;padding:4px;width:140px;background:#fff}
.menu [role=menuitem]{display:block;padding:4px;cursor:pointer}
ul{padding-left:20px}
</style></head><body>
<nav aria-label="Main"><a href="/">Home</a><a href="/reports">Reports</a><a href="/gallery">Gallery</a></nav>
{{ body|safe }}
</body></html>"""

HOME = """
<h1>Dishes</h1>
<form class="bar" action="/search" method="get" role="search">
  <input type="search" name="q" aria-label="Search dishes" placeholder="Search dishes">
  <button type="submit">Search</button>
</form>
<div class="bar">
  <button type="button" id="archive">Archive</button>
  <button type="button" onclick="refreshFeed()">Refresh</button>
  <button type="button" id="sync" onclick="sync()">Sync</button>
  <button type="button" class="icon" onclick="document.getElementById('st').textContent = 'Saved';"><svg width="16" height="16" aria-hidden="true"><circle cx="8" cy="8" r="6" fill="#c80"></circle></svg></button>
  <span class="fake" onmouseup="document.getElementById('st').textContent='Fake clicked'">Fancy</span>
  <span class="badge">Limited time offer for everyone</span>
  <span id="st" role="status"></span>
</div>
<div class="bar">
  <button type="button" id="more" aria-haspopup="menu" aria-expanded="false">More</button>
</div>
<div class="menu" id="menu" role="menu" hidden>
  <a role="menuitem" href="/export">Export</a>
  <div role="menuitem" tabindex="0">Print</div>
</div>
<div class="clip"><button type="button" onclick="document.getElementById('st').textContent='x'">Hidden settings</button></div>
<ul>{% for d in dishes %}<li>{{ d.name }} ({{ d.cuisine }}) <button type="button" onclick="like({{ d.id }}, this)" aria-label="Like {{ d.name }}">{{ d.likes }} likes</button></li>{% endfor %}</ul>
<p><a href="/?cuisine=Japanese">Japanese dishes</a></p>
<script>
const more = document.getElementById('more'), menu = document.getElementById('menu');
function setMenu(open) { menu.hidden = !open; more.setAttribute('aria-expanded', String(open)); }
document.addEventListener('click', e => { setMenu(more.contains(e.target) ? menu.hidden : false); });
async function sync() {
  const r = await fetch('/api/sync', {method: 'POST'});
  document.getElementById('st').textContent = r.ok ? 'Synced' : 'Sync failed';
}
async function like(id, b) {
  const r = await fetch('/api/like/' + id, {method: 'POST'});
  const j = await r.json();
  b.textContent = j.likes + ' likes';
}
</script>
"""

GALLERY = """
<h1>Gallery</h1>
<img src="/img/ok.png" width="80" height="80" alt="A dish">
<img src="/img/missing.png" width="80" height="80" alt="Missing dish">
<img src="/img/blank.png" width="80" height="80" alt="Blank dish">
<script>console.error('gallery: could not load the carousel');</script>
"""


def _png(kind: str) -> bytes:
    from PIL import Image, ImageDraw

    im = Image.new("RGB", (80, 80), (200, 200, 200))
    if kind == "ok":
        d = ImageDraw.Draw(im)
        d.ellipse([10, 10, 70, 70], fill=(220, 120, 40))
    buf = io.BytesIO()
    im.save(buf, format="PNG")
    return buf.getvalue()


def blueprints():
    bp = Blueprint("qa_defects", __name__)

    def page(body: str, **kw):
        return render_template_string(LAYOUT, body=render_template_string(body, **kw))

    @bp.get("/")
    def index():
        # Planted: the cuisine filter is ignored (every dish is listed).
        dishes = db().scalars(select(Dish).order_by(Dish.id)).all()
        return page(HOME, dishes=dishes)

    @bp.get("/search")
    def search():
        q = request.args.get("q", "")
        dishes = [d for d in db().scalars(select(Dish).order_by(Dish.id)) if q.lower() in d.name.lower()]
        body = ("<h1>Results</h1><ul>" + "".join(f"<li class='result'>{d.name}</li>" for d in dishes) + "</ul>"
                + ("" if dishes else "<p>No dishes found.</p>"))
        return page(body)

    @bp.get("/reports")
    def reports():
        raise RuntimeError("planted: the reports page crashes")

    @bp.get("/export")
    def export():
        return page("<h1>Export</h1><p>Your export is ready.</p>")

    @bp.get("/gallery")
    def gallery():
        return page(GALLERY)

    @bp.get("/img/<name>.png")
    def img(name: str):
        if name not in ("ok", "blank"):
            abort(404)
        return Response(_png(name), mimetype="image/png")

    @bp.post("/api/sync")
    def sync():
        return {"error": "planted: sync is broken"}, 500

    @bp.post("/api/like/<int:did>")
    def like(did: int):
        d = db().get(Dish, did)
        d.likes += 1
        db().commit()
        return {"likes": d.likes}

    return [bp]


SPEC = AppSpec(name="qa_defects", title="Defects", import_name=__name__, base=Base, build_world=build,
               views=__name__, default_now=dt.datetime(2026, 3, 12, 10, 24), fingerprint_modules=[__name__],
               inline_scripts=True)  # written with inline scripts and on* handlers

QA = {
    "start_pages": ["/"],
    "vocabulary": {
        "dish": ["pizza", "Thai"],
        "cuisine": {"table": "dishes", "field": "cuisine", "sample": 1},
    },
    "queries": [
        {"name": "search", "vocab": "dish", "url": "/search?q={q}", "results": "li.result"},
        {"name": "cuisine filter", "vocab": "cuisine", "url": "/?cuisine={q}", "results": "ul > li"},
    ],
}


def create_app(config=None):
    return _create_app(SPEC, config)
