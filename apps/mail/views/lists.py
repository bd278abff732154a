"""Conversation lists: the inbox tabs, folders, categories, labels, search results (with chips)."""

from __future__ import annotations

from urllib.parse import parse_qs, quote_plus, unquote, urlsplit

from flask import abort, redirect, request, url_for
from sqlalchemy import false, func, select

from apps._shared import db, now
from apps.mail import queries as Q
from apps.mail.models import Account, Message, Thread
from apps.mail.services.reading import search_conds
from apps.mail.views.blueprint import bp
from apps.mail.views.common import render_page

EMPTY = {
    "inbox": "Your inbox is empty.",
    "starred": "No starred messages. Stars let you give messages a special status to make them easier to find. "
               "To star a message, click on the star outline beside any message or conversation.",
    "snoozed": "Nothing snoozed. Snooze a conversation to have it come back to your inbox later.",
    "sent": "No sent messages! Send one now!",
    "drafts": "You don't have any saved drafts. Saving a draft allows you to keep a message you aren't ready to "
              "send yet.",
    "scheduled": "Nothing scheduled. Schedule a message to have it sent at a later time.",
    "important": "No important messages.",
    "all": "No messages.",
    "spam": "Hooray, no spam here!",
    "trash": "No conversations in the Trash.",
    "label": "There are no conversations with this label.",
    "category": "No conversations in this category.",
    "search": "No messages matched your search.",
}
TIME_CHIPS = [("", "Any time"), ("older_than:7d", "Older than a week"), ("older_than:1m", "Older than a month"),
              ("older_than:6m", "Older than 6 months"), ("older_than:1y", "Older than a year")]


def _page() -> int:
    try:
        return max(1, int(request.args.get("page", "1")))
    except ValueError:
        return 1


def _list_page(*, key: str, title: str, conds: list, visible: list, active: str | None, category: str | None = None,
               q: str = "", label=None, base_path: str, label_path: str = ""):
    session = db()
    account = session.get(Account, 1)
    page_size = account.page_size if account else 50
    page = _page()
    n = now()
    cat_cond = Q.inbox_category_cond(category, account) if category else None
    rows, total = Q.list_threads(session, conds, visible, n, page, page_size, category_cond=cat_cond, view=key,
                                 hide_label_id=label.id if label else None)
    if page > 1 and not rows and total:
        return redirect(_page_url(base_path, 1, q))
    first = (page - 1) * page_size + 1 if rows else 0
    last = first + len(rows) - 1 if rows else 0
    tabs = None
    if key == "inbox":
        info = Q.tab_info(session, n)
        off = Q.disabled_tabs(account)
        tabs = [{"key": k, "label": lbl, "icon": icon, "url": url_for("mail.inbox", tab=None if k == "primary" else k),
                 **info[k]} for k, lbl, icon in Q.CATEGORIES if k not in off]
        if len(tabs) == 1:
            tabs = None
    chips = _search_chips(q, rows) if key == "search" else None
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
        page_size=page_size,
        newer_url=_page_url(base_path, page - 1, q) if page > 1 else None,
        older_url=_page_url(base_path, page + 1, q) if last < total else None,
        tabs=tabs,
        category=category,
        empty_text=EMPTY.get("label" if label else key, "No messages."),
        label=label,
        label_path=label_path,
        chips=chips,
        list_path=request.full_path.rstrip("?"),
        back=request.full_path.rstrip("?"),
    )


def _search_chips(q: str, rows) -> dict:
    """Gmail's search chips under the search bar: From, Any time, Has attachment, To, Is unread."""
    low = f" {q.lower()} "
    senders: list[tuple[str, str]] = []
    if rows:
        session = db()
        ids = [r.id for r in rows]
        seen = set()
        for name, email in session.execute(select(Message.from_name, Message.from_email)
                                           .where(Message.thread_id.in_(ids), Message.is_sent.is_(False))
                                           .order_by(Message.sent_at.desc())):
            if email.lower() not in seen:
                seen.add(email.lower())
                senders.append((name or email, email.lower()))
            if len(senders) >= 8:
                break
    time_op = next((op for op, _l in TIME_CHIPS if op and f" {op} " in low), "")
    return {
        "senders": senders,
        "has_from": " from:" in low,
        "has_attachment": " has:attachment " in low,
        "is_unread": " is:unread " in low,
        "time": time_op,
        "time_label": dict(TIME_CHIPS).get(time_op, "Any time"),
        "time_options": TIME_CHIPS,
    }


def _page_url(base: str, page: int, q: str = "") -> str:
    params = []
    if q:
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
    account = db().get(Account, 1)
    if tab in Q.disabled_tabs(account):
        return redirect(url_for("mail.inbox"))
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


@bp.get("/snoozed")
def snoozed():
    return _folder_view("snoozed")


@bp.get("/sent")
def sent():
    return _folder_view("sent")


@bp.get("/drafts")
def drafts():
    return _folder_view("drafts")


@bp.get("/scheduled")
def scheduled():
    return _folder_view("scheduled")


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


@bp.get("/category/<cat>")
def category(cat: str):
    names = {k: t for k, t, _ in Q.RAIL_CATEGORIES}
    if cat not in names:
        abort(404)
    return _list_page(key="category", title=names[cat], conds=Q.folder_conds(f"category:{cat}", now()),
                      visible=Q.visible_conds("category"), active=f"category:{cat}", base_path=request.path)


@bp.get("/label/<path:name>")
def label(name: str):
    session = db()
    lab = Q.label_by_path(session, name)
    if lab is None:
        abort(404)
    ids = Q.label_descendants(session, lab)
    path = next(p for lb, _d, p in Q.labels_tree(session) if lb.id == lab.id)
    return _list_page(key="label", title=path, conds=Q.label_conds(ids), visible=Q.visible_conds("label"),
                      active=f"label:{lab.id}", label=lab, base_path=request.path, label_path=path)


def _search_conds(q: str) -> tuple[list, list]:
    return search_conds(db(), q)


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
        return [*Q.folder_conds("inbox", now()), Q.inbox_category_cond(tab or "primary", db().get(Account, 1))]
    for f in Q.FOLDERS:
        if p == f.path:
            return Q.folder_conds(f.key, now())
    if p.startswith("/category/"):
        return Q.folder_conds(f"category:{p[len('/category/'):]}", now())
    if p.startswith("/label/"):
        lab = Q.label_by_path(db(), unquote(p[len("/label/"):]))
        return Q.label_conds(Q.label_descendants(db(), lab)) if lab else [false()]
    if p == "/search":
        q = (parse_qs(parts.query).get("q") or [""])[0]
        return _search_conds(q)[0] if q else [false()]
    return [false()]


def thread_ids_for_path(path: str) -> list[int]:
    """Every conversation of the list at `path` (the 'Select all N conversations' banner)."""
    conds = conds_for_path(path)
    return sorted({tid for (tid,) in db().execute(select(Message.thread_id).where(*conds).distinct())})


def count_for_path(path: str) -> int:
    return db().scalar(select(func.count(func.distinct(Message.thread_id))).where(*conds_for_path(path))) or 0


__all__ = ["conds_for_path", "thread_ids_for_path", "count_for_path", "Thread"]


def list_for_path(path: str) -> dict | None:
    """The first rows of the list at `path` (the list a conversation was opened from), for a page that shows
    that list beside the conversation (a three-pane reading view); None where `path` is no conversation list."""
    parts = urlsplit(path)
    p = parts.path.rstrip("/") or "/inbox"
    session = db()
    n = now()
    label = None
    if p == "/inbox" or p.startswith("/inbox/"):
        key, title = "inbox", "Inbox"
    elif p in {f.path for f in Q.FOLDERS}:
        folder = next(f for f in Q.FOLDERS if f.path == p)
        key, title = folder.key, folder.title
    elif p.startswith("/category/"):
        key, title = "category", dict((k, t) for k, t, _ in Q.RAIL_CATEGORIES).get(p[len("/category/"):])
    elif p.startswith("/label/"):
        label = Q.label_by_path(session, unquote(p[len("/label/"):]))
        key, title = "label", unquote(p[len("/label/"):])
    elif p == "/search":
        key, title = "search", "Search results"
    else:
        return None
    if title is None or (key == "label" and label is None):
        return None
    if key == "search":
        q = (parse_qs(parts.query).get("q") or [""])[0]
        if not q:
            return None
        conds, visible = _search_conds(q)
    else:
        conds, visible = conds_for_path(path), Q.visible_conds(key)
    account = session.get(Account, 1)
    try:
        page = max(1, int((parse_qs(parts.query).get("page") or ["1"])[0]))
    except ValueError:
        page = 1
    rows, total = Q.list_threads(session, conds, visible, n, page, account.page_size if account else 50, view=key,
                                 hide_label_id=label.id if label else None)
    return {"rows": rows, "total": total, "view": key, "title": title, "path": path}
