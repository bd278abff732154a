"""What every Inkbox page shares: the layout context (account, rail counts, labels) and helpers."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, render_template, request, url_for

from apps._shared import db, now
from apps.mail import formatting as fmt
from apps.mail import queries as Q
from apps.mail.models import Account
from seed_data.images import avatar_color, initial


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
    counts = Q.rail_counts(session, now())
    labels = Q.labels_tree(session)
    more_open = active in {f.key for f in Q.FOLDERS if f.more}
    return render_template(
        template,
        account=account,
        counts=counts,
        folders=Q.FOLDERS,
        rail_labels=labels,
        active=active,
        more_open=more_open,
        q=q,
        current_url=request.full_path.rstrip("?"),
        **ctx,
    )


def register_template_helpers(app: Flask) -> None:
    app.jinja_env.globals.update(
        avatar_color=avatar_color,
        initial=initial,
        file_size=fmt.file_size,
    )

    @app.template_global()
    def avatar_url(name: str, size: int = 80) -> str:
        return url_for("mail.avatar", name=name or "?", s=size)

    @app.template_global()
    def vendor(path: str) -> str:
        return url_for("shared.static", filename=f"vendor/{path}")
