"""Template filters whose output depends on the request: its look, its locale, its language.

Jinja folds a filter over a constant when it compiles the template (`{{ 0|money_whole }}` becomes the text of the
first request's locale, for every later request in any locale), unless the filter takes the render's context. Each
such filter is registered through `per_request`, which marks it so (jinja2.pass_context) and otherwise calls it as
it is."""

from __future__ import annotations

import functools
from typing import Any, Callable

from jinja2 import pass_context


def per_request(fn: Callable[..., Any]) -> Callable[..., Any]:
    """`fn` as a filter Jinja evaluates at each render, never at compile time."""

    @pass_context
    @functools.wraps(fn)
    def _filter(_context, *args, **kwargs):
        return fn(*args, **kwargs)

    return _filter


__all__ = ["per_request"]
