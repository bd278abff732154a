"""A small app with no defect at all, for `uigym qa` to pass: navigation, a list with per-row star toggles
(fetch), detail pages, a search, tabs, a menu, a modal dialog that creates an item, a disclosure, a
checkbox, a generated image, and an info icon with a title tooltip."""

from __future__ import annotations

import datetime as dt
import io

from flask import Blueprint, Response, abort, redirect, render_template_string, request
from sqlalchemy import select
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from apps._shared import AppSpec, db, now
from apps._shared import create_app as _create_app


class Base(DeclarativeBase):
    pass


class Item(Base):
    __tablename__ = "items"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str]
    kind: Mapped[str]
    starred: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[dt.datetime]


NAMES = [("Pizza Margherita", "dish"), ("Green Curry", "dish"), ("Pad Thai", "dish"), ("Caesar Salad", "dish"),
         ("Lemon Tart", "dessert"), ("Tiramisu", "dessert"), ("Mango Lassi", "drink"), ("Iced Tea", "drink"),
         ("Pizza Diavola", "dish"), ("Curry Puff", "snack")]


def build(seed: int, now: dt.datetime) -> dict:
    return {"items": [{"id": i + 1, "name": n, "kind": k, "starred": False, "created_at": now - dt.timedelta(hours=i)}
                      for i, (n, k) in enumerate(NAMES)]}


LAYOUT = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Clean</title>
<link rel="icon" href="data:,">
<style>
body{font:15px/1.4 sans-serif;margin:0;color:#222}
header{display:flex;gap:16px;align-items:center;padding:10px 24px;border-bottom:1px solid #ddd}
main{padding:8px 24px}
button{font:inherit;padding:4px 10px}
.bar{display:flex;gap:8px;align-items:center;margin:10px 0}
table{border-collapse:collapse} td{padding:3px 10px 3px 0}
[role=tablist] button[aria-selected=true]{font-weight:bold}
.menu{position:absolute;border:1px solid #888;background:#fff;padding:4px;margin-top:4px}
.menu a{display:block;padding:4px 8px}
.backdrop{position:fixed;inset:0;background:rgba(0,0,0,.3);display:flex;align-items:center;justify-content:center}
[hidden]{display:none!important}
.dialog{background:#fff;padding:16px;border-radius:6px;min-width:320px}
.archived .kind{color:#999}
.info{cursor:help;border:1px solid #999;border-radius:50%;padding:0 6px;font-size:12px}
</style></head><body>
<header>
  <img src="/logo.png" width="28" height="28" alt="Clean logo">
  <nav aria-label="Main"><a href="/">Items</a> · <a href="/about">About</a></nav>
  <form role="search" action="/search" method="get"><input type="search" name="q" aria-label="Search items" placeholder="Search items"></form>
</header>
<main>{{ body|safe }}</main>
</body></html>"""

INDEX = """
<h1>Items <span class="info" tabindex="0" title="Newest first">i</span></h1>
<div class="bar">
  <button type="button" id="new" aria-haspopup="dialog">New item</button>
  <span style="position:relative">
    <button type="button" id="sort" aria-haspopup="menu" aria-expanded="false" aria-controls="sortmenu">Sort</button>
    <div class="menu" id="sortmenu" role="menu" hidden>
      <a role="menuitem" href="/?sort=name">By name</a>
      <a role="menuitem" href="/?sort=new">Newest first</a>
    </div>
  </span>
  <label><input type="checkbox" id="dim"> Dim desserts</label>
</div>
<div role="tablist" aria-label="Views" class="bar">
  <button role="tab" id="t-all" aria-selected="true" aria-controls="p-all">All</button>
  <button role="tab" id="t-starred" aria-selected="false" aria-controls="p-starred">Starred</button>
</div>
<div role="tabpanel" id="p-all" aria-labelledby="t-all">
<table id="list"><tbody>
{% for it in items %}<tr class="{{ it.kind }}">
  <td><button type="button" class="star" aria-label="{{ 'Unstar' if it.starred else 'Star' }} {{ it.name }}" aria-pressed="{{ 'true' if it.starred else 'false' }}" data-id="{{ it.id }}">{{ '★' if it.starred else '☆' }}</button></td>
  <td><a href="/item/{{ it.id }}">{{ it.name }}</a></td><td class="kind">{{ it.kind }}</td></tr>
{% endfor %}</tbody></table>
</div>
<div role="tabpanel" id="p-starred" aria-labelledby="t-starred" hidden><p>{{ starred }} starred items.</p></div>
<details><summary>Advanced</summary><p>Items are kept for 30 days.</p></details>
<div class="backdrop" id="dlg" hidden>
  <div class="dialog" role="dialog" aria-modal="true" aria-label="New item">
    <h2>New item</h2>
    <p><input id="title" aria-label="Title" placeholder="Title"></p>
    <p id="err" role="alert"></p>
    <button type="button" id="create">Create</button> <button type="button" id="cancel">Cancel</button>
  </div>
</div>
<script>
const $ = id => document.getElementById(id);
$('new').onclick = () => { $('dlg').hidden = false; $('title').focus(); };
$('cancel').onclick = () => { $('dlg').hidden = true; };
$('create').onclick = async () => {
  const t = $('title').value.trim();
  if (!t) { $('err').textContent = 'Give the item a title.'; return; }
  await fetch('/api/items', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({name: t})});
  location.reload();
};
$('sort').onclick = () => { const m = $('sortmenu'); m.hidden = !m.hidden; $('sort').setAttribute('aria-expanded', String(!m.hidden)); };
$('dim').onchange = () => document.getElementById('list').classList.toggle('archived', $('dim').checked);
for (const tab of document.querySelectorAll('[role=tab]')) tab.onclick = () => {
  for (const t of document.querySelectorAll('[role=tab]')) {
    t.setAttribute('aria-selected', String(t === tab)); $(t.getAttribute('aria-controls')).hidden = t !== tab;
  }
};
for (const b of document.querySelectorAll('button.star')) b.onclick = async () => {
  const r = await fetch('/api/items/' + b.dataset.id + '/star', {method: 'POST'});
  const j = await r.json();
  b.textContent = j.starred ? '★' : '☆'; b.setAttribute('aria-pressed', String(j.starred));
  b.setAttribute('aria-label', (j.starred ? 'Unstar ' : 'Star ') + j.name);
};
</script>
"""

ITEM = """
<p><a href="/">Back to items</a></p>
<h1>{{ it.name }}</h1>
<p>A {{ it.kind }}, added {{ it.created_at.strftime('%b %d') }}.</p>
<!-- A link wrapped over two lines: its bounding box's centre is beside both of its line boxes. -->
<p style="width:260px;font:16px/20px sans-serif">Related to this item, see <a href="/about" class="related">the about page of the app</a></p>
<form method="post" action="/item/{{ it.id }}/rename" class="bar">
  <input name="name" aria-label="New name" value="{{ it.name }}"><button type="submit">Rename</button>
</form>
<form method="post" action="/item/{{ it.id }}/delete"><button type="submit">Delete</button></form>
"""


def blueprints():
    bp = Blueprint("qa_clean", __name__)

    def page(body: str, **kw):
        return render_template_string(LAYOUT, body=render_template_string(body, **kw))

    def items(order=None):
        q = select(Item)
        q = q.order_by(Item.name) if order == "name" else q.order_by(Item.created_at.desc())
        return db().scalars(q).all()

    @bp.get("/")
    def index():
        its = items(request.args.get("sort"))
        return page(INDEX, items=its, starred=sum(1 for i in its if i.starred))

    @bp.get("/about")
    def about():
        return page("<h1>About</h1><p>A clean little app, {{ year }}.</p>", year=now().year)

    @bp.get("/search")
    def search():
        q = request.args.get("q", "").strip().lower()
        found = [i for i in items() if q and q in i.name.lower()]
        rows = "".join(f"<li class='result'><a href='/item/{i.id}'>{i.name}</a></li>" for i in found)
        return page("<h1>Search</h1><ul>" + rows + "</ul>" + ("" if found else "<p>Nothing matches.</p>"))

    @bp.get("/item/<int:iid>")
    def item(iid: int):
        it = db().get(Item, iid) or abort(404)
        return page(ITEM, it=it)

    @bp.post("/item/<int:iid>/rename")
    def rename(iid: int):
        it = db().get(Item, iid) or abort(404)
        it.name = request.form.get("name", it.name).strip() or it.name
        db().commit()
        return redirect(f"/item/{iid}")

    @bp.post("/item/<int:iid>/delete")
    def delete(iid: int):
        it = db().get(Item, iid) or abort(404)
        db().delete(it)
        db().commit()
        return redirect("/")

    @bp.post("/api/items")
    def create():
        db().add(Item(name=(request.get_json() or {}).get("name", "Untitled"), kind="dish", created_at=now()))
        db().commit()
        return {"ok": True}

    @bp.post("/api/items/<int:iid>/star")
    def star(iid: int):
        it = db().get(Item, iid) or abort(404)
        it.starred = not it.starred
        db().commit()
        return {"starred": it.starred, "name": it.name}

    @bp.get("/logo.png")
    def logo():
        from PIL import Image, ImageDraw

        im = Image.new("RGB", (28, 28), (30, 90, 200))
        ImageDraw.Draw(im).rectangle([7, 7, 20, 20], fill=(255, 255, 255))
        buf = io.BytesIO()
        im.save(buf, format="PNG")
        return Response(buf.getvalue(), mimetype="image/png")

    return [bp]


SPEC = AppSpec(name="qa_clean", title="Clean", import_name=__name__, base=Base, build_world=build,
               views=__name__, default_now=dt.datetime(2026, 3, 12, 10, 24), fingerprint_modules=[__name__],
               inline_scripts=True)  # written with inline scripts and on* handlers

QA = {
    "start_pages": ["/"],
    "vocabulary": {
        "word": ["pizza", "curry"],
        "item": {"table": "items", "field": "name", "sample": 2},
    },
    "queries": [
        {"name": "search", "vocab": "word", "url": "/search?q={q}", "results": "li.result"},
        {"name": "search box", "vocab": "item", "page": "/about",
         "steps": [{"fill": {"role": "searchbox", "name": "Search items"}, "text": "{q}"}, {"press": ["Enter"]}],
         "results": "li.result"},
    ],
}


def create_app(config=None):
    return _create_app(SPEC, config)
