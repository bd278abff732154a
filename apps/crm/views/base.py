"""The CRM's blueprint and what every page's view uses: record and list URLs, the Lightning shell
(`page`), form replies (`done`, `fail`, JSON), and the Jinja helpers (`init_app`)."""

from __future__ import annotations

import json
from urllib.parse import quote, unquote, urlencode, urlsplit

from flask import Blueprint, Flask, current_app, g, jsonify, redirect, render_template, request
from werkzeug.test import EnvironBuilder
from markupsafe import Markup
from sqlalchemy import func, select

from apps._shared import db, now
from apps._shared.headers import bounded_path, short_text
from apps.crm import models as m
from apps.crm import records as R
from apps.crm.icons import sicon, uicon
from apps.crm.meta import APPS, OBJECTS, TAB_ICONS, TAB_LABELS

bp = Blueprint("crm", __name__)


def rurl(obj: str, rid: int | None, action: str = "view") -> str:
    if rid is None:
        return ""
    return f"/lightning/r/{obj}/{rid}/{action}"


def lurl(obj: str, **params) -> str:
    params = {k: v for k, v in params.items() if v not in (None, "")}
    return f"/lightning/o/{obj}/list" + (f"?{urlencode(params)}" if params else "")


def tab_url(key: str) -> str:
    if key == "Home":
        return "/lightning/page/home"
    if key == "Report":
        return "/lightning/o/Report/home"
    if key == "Dashboard":
        return "/lightning/o/Dashboard/home"
    if key == "Task":
        return "/lightning/o/Task/home"
    return f"/lightning/o/{key}/list"


def current_app_name() -> str:
    name = request.cookies.get("crm_app", "Sales")
    return name if name in APPS else "Sales"


def nav_tabs(active: str) -> list[dict]:
    return [{"key": k, "label": TAB_LABELS[k], "url": tab_url(k), "active": k == active, "icon": TAB_ICONS[k],
             "has_menu": k in OBJECTS or k in ("Report", "Dashboard")}
            for k in APPS[current_app_name()]["tabs"]]


def page(template: str, active: str = "", title: str = "", **ctx):
    """Render a full page inside the Lightning shell (header + navigation bar)."""
    if not ctx.get("modal_html"):
        ctx["modal_html"] = request.environ.get("crm.modal_html") or g.get("crm_modal_html", "")
    ctx.setdefault("toast", unquote(request.cookies.get("crm_toast", "")) if request.method == "GET" else "")
    ctx.setdefault("toast_kind", request.environ.get("crm.toast_kind", ""))
    if request.environ.get("crm.toast"):
        ctx["toast"] = request.environ["crm.toast"]
    if ctx["toast"] and request.cookies.get("crm_toast"):
        g.crm_clear_toast = True
    unread = db().scalar(select(func.count()).select_from(m.Notification).where(
        m.Notification.user_id == R.ME, m.Notification.is_read.is_(False))) or 0
    fav_urls = set(db().scalars(select(m.Favorite.url).where(m.Favorite.user_id == R.ME)))
    here = request.full_path.rstrip("?")
    return render_template(template, active_tab=active, page_title=title, tabs=nav_tabs(active),
                           app_name=current_app_name(), unread=unread, is_favorite=here in fav_urls,
                           here=here, **ctx)


def json_ok(redirect: str | None = None, toast: str | None = None, **extra):
    return jsonify(ok=True, redirect=redirect, toast=toast, **extra)


def wants_json() -> bool:
    return request.headers.get("X-Requested-With") == "fetch" or request.is_json


def safe_path(p: str | None) -> str | None:
    if not bounded_path(p):  # none, or too long to send back in a Location header
        return None
    parts = urlsplit(p)
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    if not path.startswith("/") or path.startswith("//") or path.startswith("/_gym"):
        return None
    return path


def back_url() -> str:
    return safe_path(request.form.get("_back")) or safe_path(request.referrer) or "/lightning/page/home"


def done(redirect_to: str | None = None, toast: str | None = None, **extra):
    """A state change succeeded: JSON for fetch callers; otherwise a 303 to the target page (or back), the
    toast riding in a cookie. The toast is cut to a bounded length (it quotes what the user typed)."""
    toast = short_text(toast) if toast else toast
    if wants_json():
        return json_ok(redirect=redirect_to, reload=redirect_to is None, toast=toast, **extra)
    resp = redirect(redirect_to or back_url(), code=303)
    if toast:
        resp.set_cookie("crm_toast", quote(toast), path="/", samesite="Lax")
    return resp


def fail(html: str | None = None, message: str | None = None, status: int = 200):
    """A state change was refused: the modal (with its errors) over the page the form came from."""
    if wants_json():
        return json_error(html=html, message=message, status=status)
    return render_back(html or "", message)


def render_back(modal_html: str, toast: str | None = None):
    """Render the page named by _back / Referer with `modal_html` open over it (a nested GET dispatch)."""
    path = back_url()
    parts = urlsplit(path)
    builder = EnvironBuilder(path=parts.path, query_string=parts.query, method="GET",
                             headers={"Cookie": request.headers.get("Cookie", "")},
                             base_url=request.host_url)
    environ = builder.get_environ()
    environ["crm.modal_html"] = modal_html
    environ["crm.back"] = path
    if toast:
        environ["crm.toast"] = toast
        environ["crm.toast_kind"] = "error"
    app = current_app._get_current_object()
    with app.request_context(environ):
        try:
            rv = app.preprocess_request()
            if rv is None:
                rv = app.dispatch_request()
        except Exception as e:  # noqa: BLE001 - e.g. the page itself is a 404
            rv = app.handle_user_exception(e)
        resp = app.make_response(rv)
        resp = app.process_response(resp)
    return resp


def json_error(html: str | None = None, message: str | None = None, status: int = 200):
    return jsonify(ok=False, html=html, message=message), status


def lookup_placeholder(objects) -> str:
    from apps._shared.i18n import gettext, ui
    if objects and objects[0] == "User":
        return gettext("Search People...")
    return gettext("Search %(objects)s...", objects=" / ".join(ui(OBJECTS[x].plural) for x in objects))


def _fmt_field(f, rec):
    return R.fmt_value(f, getattr(rec, f.name, None))


def init_app(app: Flask) -> None:
    app.jinja_env.globals.update(
        sicon=sicon, uicon=uicon, rurl=rurl, lurl=lurl, tab_url=tab_url, OBJECTS=OBJECTS,
        # the page's locale (apps/_shared/locale.py): the app's own formats in en-US
        fmt_money=R.shown_money, fmt_money_short=R.shown_money_short, fmt_date=R.shown_date,
        fmt_datetime=R.shown_datetime, fmt_time=R.shown_time, fmt_value=R.shown_value, ago=R.ago,
        # what a form field holds and the app reads back (and names a task addresses): the app's own format in
        # every locale, so a save of an untouched field never fails or changes in another locale
        input_date=R.fmt_date, input_time=R.fmt_time, input_money=R.fmt_money,
        relative_day=R.relative_day, ME=R.ME, lookup_placeholder=lookup_placeholder,
    )
    app.jinja_env.filters["tojson_attr"] = lambda v: Markup(json.dumps(v)).replace('"', "&quot;")
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True

    @app.after_request
    def _clear_toast(resp):
        if g.get("crm_clear_toast"):
            resp.delete_cookie("crm_toast", path="/")
        return resp

    @app.context_processor
    def _crm_context():
        if not hasattr(g, "uigym_world"):
            return {}
        return {"me": R.me(), "now": now(), "users": R.users}
