"""What every Inkbox page shares: the layout context (account, rail counts, labels, menus' presets) and helpers."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, render_template, request, url_for

from apps._shared import db, now
from apps.mail import formatting as fmt
from apps.mail import queries as Q
from apps.mail.models import Account
from seed_data.images import avatar_color, initial

from apps.mail.services.labels import LABEL_COLORS  # one palette, kept with the label rules


def safe_back(value: str | None, default: str = "/inbox") -> str:
    """A local path to go back to (never another host)."""
    if not value:
        return default
    parts = urlsplit(value)
    if parts.scheme or parts.netloc or not value.startswith("/") or value.startswith("//"):
        return default
    return value


def render_page(template: str, *, active: str | None = None, q: str = "", **ctx):
    session = db()
    account = session.get(Account, 1)
    n = now()
    counts = Q.rail_counts(session, n)
    labels = Q.labels_tree(session)
    more_keys = {f.key for f in Q.FOLDERS if f.more} | {f"category:{k}" for k, _, _ in Q.RAIL_CATEGORIES} | {"settings"}
    more_open = active in more_keys
    cats_open = bool(active and active.startswith("category:"))
    return render_template(
        template,
        account=account,
        counts=counts,
        folders=Q.FOLDERS,
        rail_categories=Q.RAIL_CATEGORIES,
        rail_labels=labels,
        label_paths=[(lab, path) for lab, _d, path in labels],
        label_colors=LABEL_COLORS,
        active=active,
        more_open=more_open,
        cats_open=cats_open,
        q=q,
        now=n,
        snooze_options=fmt.snooze_options(n),
        schedule_options=fmt.schedule_options(n),
        current_url=request.full_path.rstrip("?"),
        **ctx,
    )


def register_template_helpers(app: Flask) -> None:
    app.jinja_env.globals.update(
        avatar_color=avatar_color,
        initial=initial,
        file_size=fmt.file_size,
        long_date=fmt.long_date,
        month_day_time=fmt.month_day_time,
        long_day=fmt.long_day,
    )

    @app.template_global()
    def avatar_url(name: str, size: int = 80, email: str = "") -> str:
        if email:
            return url_for("mail.avatar", name=name or "?", s=size, email=email.lower())
        return url_for("mail.avatar", name=name or "?", s=size)

    @app.template_global()
    def label_paths_options(label_paths) -> list[tuple[str, str]]:
        return [(str(lab.id), path) for lab, path in label_paths]

    @app.template_global()
    def label_scope_options(label_paths) -> list[tuple[str, str]]:
        return [("label:" + path.lower().replace(" ", "-").replace("/", "-"), path) for _lab, path in label_paths]

    @app.template_global()
    def vendor(path: str) -> str:
        return url_for("shared.static", filename=f"vendor/{path}")
