"""Conversation lists: Inbox (with category tabs), Starred, Sent, Important, All Mail, Spam, Trash,
labels and search results."""

from __future__ import annotations

from urllib.parse import parse_qs, unquote, urlsplit

from flask import abort, redirect, request, url_for
from sqlalchemy import false, select

from apps._shared import db, now
from apps.mail import queries as Q
from apps.mail.models import Account, Message, Thread
from apps.mail.views import bp
from apps.mail.views.common import render_page

EMPTY = {
    "inbox": "Your inbox is empty.",
    "starred": "No starred messages. Stars let you give messages a special status to make them easier to find. "
               "To star a message, click on the star outline beside any message or conversation.",
    "sent": "No sent messages! Send one now!",
    "important": "No important messages.",
    "all": "No messages.",
    "spam": "Hooray, no spam here!",
    "trash": "No conversations in the Trash.",
    "label": "There are no conversations with this label.",
    "search": "No messages matched your search.",
}


def _page() -> int:
    try:
        return max(1, int(request.args.get("page", "1")))
    except ValueError:
        return 1


def _list_page(*, key: str, title: str, conds: list, visible: list, active: str | None, category: str | None = None,
               q: str = "", label=None, base_path: str):
    session = db()
    account = session.get(Account, 1)
    page_size = account.page_size if account else 50
    page = _page()
    rows, total = Q.list_threads(session, conds, visible, now(), page, page_size, category=category,
                                 sent_view=key == "sent", hide_label_id=label.id if label else None)
    if page > 1 and not rows and total:
        return redirect(_page_url(base_path, 1, q))
    first = (page - 1) * page_size + 1 if rows else 0
    last = first + len(rows) - 1 if rows else 0
    tabs = None
    if key == "inbox":
        info = Q.tab_info(session, now())
        tabs = [{"key": k, "label": lbl, "icon": icon, "url": url_for("mail.inbox", tab=None if k == "primary" else k),
                 **info[k]} for k, lbl, icon in Q.CATEGORIES]
    return render_page(
        "mail/list.html",
        active=active,
        q=q,
        view=key,
        title=title,
        rows=rows,
        total=total,
        first=first,
        last=last,
        newer_url=_page_url(base_path, page - 1, q) if page > 1 else None,
        older_url=_page_url(base_path, page + 1, q) if last < total else None,
        tabs=tabs,
        category=category,
        empty_text=EMPTY.get("label" if label else key, "No messages."),
        label=label,
        back=request.full_path.rstrip("?"),
    )


def _page_url(base: str, page: int, q: str = "") -> str:
    params = []
    if q:
        from urllib.parse import quote_plus

        params.append(f"q={quote_plus(q)}")
    if page > 1:
        params.append(f"page={page}")
    return base + ("?" + "&".join(params) if params else "")


@bp.get("/")
def index():
    return redirect(url_for("mail.inbox"))


@bp.get("/inbox", defaults={"tab": None})
@bp.get("/inbox/<tab>")
def inbox(tab: str | None):
    keys = [k for k, _, _ in Q.CATEGORIES]
    if tab is not None and (tab not in keys or tab == "primary"):
        if tab == "primary":
            return redirect(url_for("mail.inbox"))
        abort(404)
    category = tab or "primary"
    return _list_page(key="inbox", title="Inbox", conds=Q.folder_conds("inbox", now()), visible=Q.visible_conds("inbox"),
                      active="inbox", category=category, base_path=request.path)


def _folder_view(key: str):
    folder = Q.FOLDER_BY_KEY[key]
    return _list_page(key=key, title=folder.title, conds=Q.folder_conds(key, now()), visible=Q.visible_conds(key),
                      active=key, base_path=folder.path)


@bp.get("/starred")
def starred():
    return _folder_view("starred")


@bp.get("/sent")
def sent():
    return _folder_view("sent")


@bp.get("/important")
def important():
    return _folder_view("important")


@bp.get("/all")
def all_mail():
    return _folder_view("all")


@bp.get("/spam")
def spam():
    return _folder_view("spam")


@bp.get("/trash")
def trash():
    return _folder_view("trash")


@bp.get("/label/<path:name>")
def label(name: str):
    session = db()
    lab = Q.label_by_path(session, name)
    if lab is None:
        abort(404)
    ids = Q.label_descendants(session, lab)
    return _list_page(key="label", title=name, conds=Q.label_conds(ids), visible=Q.visible_conds("label"),
                      active=f"label:{lab.id}", label=lab, base_path=request.path)


def _search_conds(q: str) -> tuple[list, list]:
    sq = Q.parse_search(db(), q, now())
    if sq.scope in ("trash", "spam"):
        return sq.conds, Q.visible_conds(sq.scope)
    if sq.scope == "anywhere":
        return sq.conds, [Message.is_draft == false()]
    return sq.conds, Q.visible_conds("all")


@bp.get("/search")
def search():
    q = (request.args.get("q") or "").strip()
    if not q:
        return redirect(url_for("mail.inbox"))
    conds, visible = _search_conds(q)
    return _list_page(key="search", title="Search results", conds=conds, visible=visible, active=None, q=q,
                      base_path="/search")


def conds_for_path(path: str) -> list:
    """The message conditions of the list at `path` (e.g. '/inbox/social?page=2', '/search?q=x')."""
    parts = urlsplit(path)
    p = parts.path.rstrip("/") or "/inbox"
    if p == "/inbox" or p.startswith("/inbox/"):
        tab = p[len("/inbox/"):] if p.startswith("/inbox/") else "primary"
        return [*Q.folder_conds("inbox", now()),
                Message.thread_id.in_(select(Thread.id).where(Thread.category == (tab or "primary")))]
    for f in Q.FOLDERS:
        if p == f.path:
            return Q.folder_conds(f.key, now())
    if p.startswith("/label/"):
        lab = Q.label_by_path(db(), unquote(p[len("/label/"):]))
        return Q.label_conds(Q.label_descendants(db(), lab)) if lab else [false()]
    if p == "/search":
        q = (parse_qs(parts.query).get("q") or [""])[0]
        return _search_conds(q)[0] if q else [false()]
    return [false()]
