"""One transaction per service call of a view, as `ToolSet.call` (apps/_shared/tools.py) gives each tool call.

    line = perform(cart_service.add_item, item_id, qty, errors=JSON_ERRORS)   # committed here
    return jsonify(ok=True, ...)

`perform` runs the call in the request's world session, commits when it returns, rolls back when it raises,
and answers a refused call (one of `errors`' classes, the first that matches in order) with that entry's
reply: the view stops there and the client gets the reply exactly as the view would have returned it (a
page, JSON with its status, a redirect). An error no entry names propagates, after the roll back, to the
app's error handlers (Inkbox's views map nothing: its blueprint answers every ServiceError). Each app keeps
its usual replies as such tables beside its views.

Two patterns keep their own semantics with the same helper:

- a commit under a lock (Inkbox's compose window: the draft it wrote is remembered under the same lock) is a
  `perform` inside the `with lock:` block: it has committed when it returns, still under the lock;
- a page that keeps what the user chose even when it refuses (Forkful's Place Order: the checkout choices and
  a promo taken off stay, the page shows why the order was not placed) passes `keep_refused=True`: a refused
  call commits what was written before the refusal, then answers its reply. An unmapped error still rolls
  everything back.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, NoReturn, TypeVar

from flask import abort, make_response

from apps._shared.db import db

T = TypeVar("T")
Errors = Mapping[type[BaseException], Callable[[Any], Any]]


def answer(rv: Any) -> NoReturn:
    """Stop the view here and send `rv` (anything a view may return) as the reply."""
    abort(make_response(rv))


def perform(call: Callable[..., T], *args: Any, errors: Errors | None = None, keep_refused: bool = False,
            **kwargs: Any) -> T:
    """`call(*args, **kwargs)` in one transaction of the world's session; a refused call answers `errors`' reply
    (after a roll back, or a commit of what was written before the refusal with `keep_refused`)."""
    session = db()
    try:
        result = call(*args, **kwargs)
        session.commit()
    except BaseException as e:
        reply = next((r for cls, r in (errors or {}).items() if isinstance(e, cls)), None)
        if reply is not None and keep_refused:
            session.commit()
        else:
            session.rollback()
        if reply is not None:
            answer(reply(e))
        raise
    return result


def not_found(_e: BaseException) -> NoReturn:
    """The reply for an unknown id: the app's 404 page."""
    abort(404)
