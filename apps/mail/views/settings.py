"""Settings pages (General, Labels, Inbox, Filters and Blocked Addresses)."""

from __future__ import annotations

from flask import abort, redirect, url_for
from sqlalchemy import func, select

from apps._shared import db
from apps._shared.i18n import gettext
from apps.mail import queries as Q
from apps.mail.models import BlockedSender, Filter, Message, MessageLabel
from apps.mail.services.filters import filter_actions
from apps.mail.views.blueprint import bp
from apps.mail.views.common import render_page
from apps.mail.views.manage import filter_query

TABS = [("general", "General"), ("labels", "Labels"), ("inbox", "Inbox"), ("filters", "Filters and Blocked Addresses")]


@bp.get("/settings")
def settings_home():
    return redirect(url_for("mail.settings_page", tab="general"))


@bp.get("/settings/<tab>")
def settings_page(tab: str):
    if tab not in dict(TABS):
        abort(404)
    session = db()
    ctx: dict = {}
    if tab == "labels":
        counts = dict(session.execute(
            select(MessageLabel.label_id, func.count(func.distinct(Message.thread_id)))
            .join(Message, Message.id == MessageLabel.message_id)
            .where(*Q.not_trashed_or_spam()).group_by(MessageLabel.label_id)).all())
        ctx["label_rows"] = [(lab, depth, path, counts.get(lab.id, 0)) for lab, depth, path in Q.labels_tree(session)]
    if tab == "filters":
        filters = list(session.scalars(select(Filter).order_by(Filter.id)))
        ctx["filters"] = [(f, filter_query(f), [gettext(m, **{k: gettext(v) if k == "category" else v for k, v in kw.items()})
                                                    for m, kw in filter_actions(session, f)])
                          for f in filters]
        ctx["blocked"] = list(session.scalars(select(BlockedSender).order_by(BlockedSender.email)))
    return render_page("mail/settings.html", active="settings" if tab == "labels" else None, tab=tab, tabs=TABS, **ctx)
