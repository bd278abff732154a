"""The Lightning shell's live parts: lookups, search typeahead, navigation-tab menus, favourites,
notifications, display density, the app launcher, log out, and the generated images."""

from __future__ import annotations

from functools import lru_cache

from flask import abort, jsonify, make_response, redirect, render_template, request
from sqlalchemy import func, or_, select

from apps._shared import db, inputs, now
from apps._shared.actions import perform
from apps._shared.display import drop_variant_density
from apps._shared.caching import world_image
from apps._shared.i18n import gettext
from apps.crm import models as m
from apps.crm import records as R
from apps.crm.meta import APPS, OBJECTS, SEARCH_OBJECTS, TAB_ICONS, TAB_LABELS
from apps.crm.views.base import bp, done, fail, json_ok, rurl, tab_url
from seed_data.crm import logo_png


# ------------------------------------------------------------------------------ images
@lru_cache(maxsize=2048)
def _logo(name: str, size: int) -> bytes:
    return logo_png(name, size)


@bp.get("/crm/logo/<int:aid>.png")
def account_logo(aid: int):
    acc = db().get(m.Account, aid)
    if acc is None:
        abort(404)
    return world_image(_logo(acc.name, 96), "image/png")


@lru_cache(maxsize=256)
def _avatar(name: str, size: int) -> bytes:
    from seed_data.images import avatar_png

    return avatar_png(name, size)


@bp.get("/crm/avatar/<int:uid>.png")
def user_avatar(uid: int):
    u = db().get(m.User, uid)
    if u is None:
        abort(404)
    return world_image(_avatar(u.name, 96), "image/png")


# ------------------------------------------------------------------------------ lookups
def name_cond(obj: str, q: str):
    o = OBJECTS[obj]
    ql = f"%{q.lower()}%"
    if obj in ("Contact", "Lead"):
        return func.lower(o.model.first_name + " " + o.model.last_name).like(ql)
    return func.lower(getattr(o.model, o.name_field)).like(ql)


def lookup_meta(obj: str, rec, accounts: dict[int, str]) -> str:
    if obj == "Account":
        return " \u2022 ".join(x for x in [rec.billing_city, rec.billing_state] if x)
    if obj == "Contact":
        return " \u2022 ".join(x for x in [accounts.get(rec.account_id, ""), rec.title] if x)
    if obj == "Lead":
        return " \u2022 ".join(x for x in [rec.company, rec.title] if x)
    if obj == "Opportunity":
        return " \u2022 ".join(x for x in [accounts.get(rec.account_id, ""), rec.stage] if x)
    if obj == "Case":
        return rec.subject
    return ""


def lookup_records(obj: str, q: str, limit: int = 7) -> list:
    o = OBJECTS[obj]
    stmt = select(o.model)
    if obj == "Lead":
        stmt = stmt.where(m.Lead.is_converted.is_(False))
    if q:
        stmt = stmt.where(name_cond(obj, q))
        order = [func.length(getattr(o.model, "last_name" if obj in ("Contact", "Lead") else o.name_field)), o.model.id]
        if obj in ("Contact", "Lead"):
            order = [o.model.first_name, o.model.last_name, o.model.id]
        else:
            order = [func.lower(getattr(o.model, o.name_field)), o.model.id]
        stmt = stmt.order_by(*order)
    else:
        stmt = stmt.where(o.model.last_viewed_at.is_not(None)).order_by(o.model.last_viewed_at.desc(), o.model.id)
    return list(db().scalars(stmt.limit(limit)))


def account_names(recs) -> dict[int, str]:
    ids = sorted({r.account_id for r in recs if getattr(r, "account_id", None)})
    if not ids:
        return {}
    return dict(db().execute(select(m.Account.id, m.Account.name).where(m.Account.id.in_(ids))).all())


@bp.get("/crm/api/lookup")
def api_lookup():
    objs = [x for x in request.args.get("objects", "").split(",") if x in OBJECTS or x == "User"]
    q = request.args.get("q", "").strip()
    poly = len(objs) > 1
    out = []
    for obj in objs:
        if obj == "User":
            us = [u for u in R.users() if u.is_active and (not q or q.lower() in u.name.lower())]
            out += [{"value": f"User:{u.id}" if poly else str(u.id), "label": u.name, "meta": u.title,
                     "icon": "standard:user", "type": "User"} for u in us[:10]]
            continue
        recs = lookup_records(obj, q, 7 if not poly else 5)
        accs = account_names(recs)
        for r in recs:
            label = r.name if obj in ("Contact", "Lead") else R.record_name(obj, r)
            out.append({"value": f"{obj}:{r.id}" if poly else str(r.id), "label": label,
                        "meta": (OBJECTS[obj].label + " \u2022 " if poly else "") + lookup_meta(obj, r, accs),
                        "icon": OBJECTS[obj].icon, "type": obj})
    from apps.crm.icons import sicon

    for x in out:
        x["icon_html"] = str(sicon(x["icon"], "small"))
    return jsonify(results=out, heading=("Recent " + (OBJECTS[objs[0]].plural if objs and objs[0] in OBJECTS else "People")) if not q else "")


# -------------------------------------------------------------------------- search
def search_records(q: str, per_object: int = 5) -> dict[str, list]:
    from apps.crm.filters import search_condition

    out: dict[str, list] = {}
    for obj in SEARCH_OBJECTS:
        o = OBJECTS[obj]
        stmt = select(o.model).where(search_condition(o, q))
        if obj == "Lead":
            stmt = stmt.where(m.Lead.is_converted.is_(False))
        key = func.lower(o.model.first_name + " " + o.model.last_name) if obj in ("Contact", "Lead") else func.lower(getattr(o.model, o.name_field))
        exact = func.lower(key) == q.lower()
        prefix = key.like(f"{q.lower()}%")
        stmt = stmt.order_by(exact.desc(), prefix.desc(), key, o.model.id)
        out[obj] = list(db().scalars(stmt.limit(per_object)))
    return out


@bp.get("/crm/api/search")
def api_search():
    from apps.crm.icons import sicon

    q = request.args.get("q", "").strip()
    items = []
    if not q:
        for obj in ("Account", "Contact", "Opportunity", "Lead", "Case"):
            for r in lookup_records(obj, "", 3):
                items.append((r.last_viewed_at, obj, r))
        items.sort(key=lambda x: (x[0], x[1], x[2].id), reverse=True)
        items = [(o, r) for _, o, r in items[:8]]
    else:
        res = search_records(q, 4)
        for obj in SEARCH_OBJECTS:
            items += [(obj, r) for r in res[obj][:3]]
        items = items[:8]
    accs = account_names([r for _, r in items])
    out = [{"label": (r.name if obj in ("Contact", "Lead") else R.record_name(obj, r)),
            "meta": OBJECTS[obj].label + (" \u2022 " + lookup_meta(obj, r, accs) if lookup_meta(obj, r, accs) else ""),
            "url": rurl(obj, r.id), "icon_html": str(sicon(OBJECTS[obj].icon, "small"))} for obj, r in items]
    return jsonify(results=out, heading="Recent Items" if not q else "", q=q)


# ---------------------------------------------------------------------- nav tab menus
@bp.get("/crm/api/nav/<key>")
def api_nav(key: str):
    if key in OBJECTS:
        o = OBJECTS[key]
        recs = lookup_records(key, "", 5) if key in ("Lead", "Account", "Contact", "Opportunity", "Case", "Task") else []
        items = [{"label": r.name if key in ("Contact", "Lead") else R.record_name(key, r), "url": rurl(key, r.id)} for r in recs]
        views = list(db().scalars(select(m.ListView).where(m.ListView.object == key, or_(m.ListView.visibility == "all", m.ListView.owner_id == R.ME)).order_by(m.ListView.id).limit(4)))
        lists = [{"label": v.name, "url": f"/lightning/o/{key}/list?filterName={v.api_name}"} for v in views]
        return render_template("crm/_nav_menu.html", key=key, label=o.label, plural=o.plural, icon=o.icon,
                               items=items, lists=lists, new_url=f"/lightning/o/{key}/new")
    if key == "Report":
        reps = list(db().scalars(select(m.Report).where(m.Report.last_run_at.is_not(None)).order_by(m.Report.last_run_at.desc(), m.Report.id).limit(5)))
        return render_template("crm/_nav_menu.html", key=key, label="Report", plural="Reports", icon="standard:report",
                               items=[{"label": r.name, "url": f"/lightning/r/Report/{r.id}/view"} for r in reps], lists=[], new_url="")
    if key == "Dashboard":
        ds = list(db().scalars(select(m.Dashboard).order_by(m.Dashboard.id).limit(5)))
        return render_template("crm/_nav_menu.html", key=key, label="Dashboard", plural="Dashboards", icon="standard:dashboard",
                               items=[{"label": d.name, "url": f"/lightning/r/Dashboard/{d.id}/view"} for d in ds], lists=[], new_url="")
    abort(404)


# ------------------------------------------------------------------------- favourites
@bp.get("/crm/api/favorites")
def api_favorites():
    favs = list(db().scalars(select(m.Favorite).where(m.Favorite.user_id == R.ME).order_by(m.Favorite.sort_order, m.Favorite.id)))
    return render_template("crm/_favorites.html", favs=favs)


@bp.post("/crm/api/favorites/toggle")
def api_favorite_toggle():
    body = inputs.body()
    url = inputs.text(body, "url").strip()
    if not url.startswith("/") or url.startswith("/_gym"):
        return jsonify(ok=False, message=gettext("That page can't be a favorite.")), 400
    fav = db().scalar(select(m.Favorite).where(m.Favorite.user_id == R.ME, m.Favorite.url == url))
    if fav is not None:
        perform(db().delete, fav)
        return json_ok(favorite=False, toast=gettext("Removed from favorites."))
    label = inputs.text(body, "label").split(" | ")[0][:255] or "Page"
    icon = inputs.text(body, "icon") or "standard:home"
    if icon not in TAB_ICONS.values() and not any(icon == o.icon for o in OBJECTS.values()):
        icon = "standard:home"
    order = (db().scalar(select(func.max(m.Favorite.sort_order)).where(m.Favorite.user_id == R.ME)) or 0) + 1
    perform(db().add, m.Favorite(id=R.next_id(m.Favorite), user_id=R.ME, label=label, url=url, icon=icon,
                                 sort_order=order, created_at=now()))
    return json_ok(favorite=True, toast=gettext("\"%(label)s\" added to favorites.", label=label))


@bp.post("/crm/api/favorites/<int:fid>/remove")
def api_favorite_remove(fid: int):
    fav = db().get(m.Favorite, fid)
    if fav is None or fav.user_id != R.ME:
        abort(404)
    perform(db().delete, fav)
    return done(None, toast=gettext("\"%(label)s\" removed from favorites.", label=fav.label))


# ----------------------------------------------------------------------- notifications
@bp.get("/crm/api/notifications")
def api_notifications():
    ns = list(db().scalars(select(m.Notification).where(m.Notification.user_id == R.ME).order_by(m.Notification.created_at.desc(), m.Notification.id.desc())))
    return render_template("crm/_notifications.html", notes=ns)


@bp.post("/crm/api/notifications/<int:nid>/read")
def api_notification_read(nid: int):
    n = db().get(m.Notification, nid)
    if n is None or n.user_id != R.ME:
        abort(404)
    if not n.is_read:
        perform(_mark_read, [n])
    return done(n.url or None)


@bp.post("/crm/api/notifications/read-all")
def api_notifications_read_all():
    perform(_mark_read, db().scalars(select(m.Notification).where(m.Notification.user_id == R.ME,
                                                                  m.Notification.is_read.is_(False))))
    return done(None)


def _mark_read(notes) -> None:
    for n in notes:
        n.is_read = True


# ---------------------------------------------------------------------------- settings
@bp.post("/crm/api/density")
def api_density():
    val = request.values.get("value") or inputs.body().get("value")
    if val not in ("comfy", "compact"):
        return jsonify(ok=False), 400
    perform(_set_density, val)
    # The user's pick is the world's from now on, over the episode's variant (apps/_shared/display.py).
    return drop_variant_density(done(None))


def _set_density(val: str) -> None:
    db().get(m.User, R.ME).display_density = val


@bp.get("/lightning/app-launcher")
def app_launcher():
    from apps.crm.views.records import modal_response

    items = [{"key": k, "label": TAB_LABELS[k], "icon": TAB_ICONS[k], "url": tab_url(k)}
             for k in ("Account", "Contact", "Lead", "Opportunity", "Case", "Task", "Report", "Dashboard")]
    html = render_template("crm/modal_launcher.html", apps=APPS, items=items)
    return modal_response(html)


@bp.post("/crm/api/app")
def api_switch_app():
    name = request.values.get("name", "")
    if name not in APPS:
        abort(400)
    resp = make_response(done("/lightning/page/home"))
    resp.set_cookie("crm_app", name, samesite="Lax")
    return resp


@bp.get("/secur/logout")
def logout():
    return render_template("crm/logout.html")


@bp.get("/")
def root():
    return redirect("/lightning/page/home")
