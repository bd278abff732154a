"""Looks: one app, several products' faces over the same world (issue #37).

A look is chosen per world binding (the signed cookie carries it, apps/_shared/session.py) or, for a person
browsing by hand, by the server's `UIGYM_LOOK` (`python -m apps.serve mail --browse --look outlook`). Views
do not know about looks: they render their templates by their usual names, and the app's Jinja environment
(`LookEnvironment`) answers each name with the look's own file where the look has one,
`templates/looks/<look>/<name>`, else the default's. So a look overrides its base layout (and with it
every page's chrome) and the pages whose layout differs, and nothing else. Its static files live under
`static/looks/<look>/`.

A look's page that differs from the default's in parts only does not copy it: it extends the default's page
of the same name through the `default/` prefix, which always answers the default's file (`{% extends
"default/food/order.html" %}`), and overrides the blocks the default page puts around those parts. So a
feature added to a default page reaches every look.
"""

from __future__ import annotations

import random
import re

from flask import Flask, current_app, g, has_request_context
from flask.templating import Environment
from apps._shared.request_filters import per_request

LOOK_DIR = "looks"
DEFAULT_PREFIX = "default/"  # "default/<name>": the default look's template <name>, whatever the current look


class UnknownLook(ValueError):
    """A look the app does not have (a 4xx where a caller named it)."""


def check_look(app_name: str, looks: list[str], look: str | None) -> str | None:
    """`look` if the app has it (None stays None: the default), else UnknownLook naming the app's looks."""
    if look is None or look in looks:
        return look
    raise UnknownLook(f"{app_name} has no look {look!r}; its looks: {', '.join(looks)}")


def pick_look(app_name: str, looks: list[str], want, draw: int | str | None) -> str:
    """The look an episode gets: `want` None -> the default (first); a look id; a list of ids, or "random"
    for all of them, drawn with `draw` (the episode's seed: the same seed, the same look)."""
    if want is None:
        return looks[0]
    if isinstance(want, str) and want != "random":
        want = [w for w in want.split(",") if w] if "," in want else want
    if isinstance(want, str) and want != "random":
        return check_look(app_name, looks, want)
    pool = looks if want == "random" else [check_look(app_name, looks, w) for w in want]
    if not pool:
        raise UnknownLook(f"no look to draw from for {app_name}: {want!r}")
    return pool[random.Random(f"look:{draw}").randrange(len(pool))]


def current_look() -> str:
    """The look of the current request (the app's default outside a request)."""
    spec = current_app.extensions["uigym_spec"]
    if has_request_context():
        return g.get("uigym_look") or current_app.config.get("UIGYM_LOOK") or spec.default_look
    return current_app.config.get("UIGYM_LOOK") or spec.default_look


def say(text: str) -> str:
    """`text`, a message the server writes for the page, in the current look's words (AppSpec.look_words): the
    longest phrase first, so "Forkful Plus" becomes its look's name before "Forkful" does. Outside a request, or
    in a look with no words of its own, the text as it is."""
    if not text or not has_request_context():
        return text
    words = current_app.extensions["uigym_spec"].look_words.get(current_look())
    if not words:
        return text
    pattern = re.compile("|".join(re.escape(k) for k in sorted(words, key=len, reverse=True)))
    return pattern.sub(lambda m: words[m.group(0)], str(text))


class LookEnvironment(Environment):
    """Flask's Jinja environment, answering a template name with the current look's file where it has one.

    Jinja caches templates by the name it loads, and the look's file has its own name, so the looks never
    share a cache entry. `extends` and `include` go through `get_template` too: a default page extending
    "mail/base.html" gets the look's base. "default/<name>" answers the default's <name> in any look (a look's
    page extends the default page it changes in parts)."""

    _look_names: frozenset[str] | None = None

    def _looked(self, name):
        if isinstance(name, str) and name.startswith(DEFAULT_PREFIX):
            return name[len(DEFAULT_PREFIX):]
        if not isinstance(name, str) or name.startswith(LOOK_DIR + "/") or not has_request_context():
            return name
        spec = current_app.extensions.get("uigym_spec")
        look = current_look()
        if spec is None or look == spec.default_look:
            return name
        if self._look_names is None:
            self._look_names = frozenset(n for n in self.list_templates() if n.startswith(LOOK_DIR + "/"))
        alt = f"{LOOK_DIR}/{look}/{name}"
        return alt if alt in self._look_names else name

    def get_template(self, name, parent=None, globals=None):
        return super().get_template(self._looked(name), parent, globals)


def init_looks(app: Flask) -> None:
    """Templates see `look` (the current look's id) and `brand` (the name that look shows)."""
    spec = app.extensions["uigym_spec"]

    app.jinja_env.filters["say"] = per_request(say)  # the look's words: never folded at compile time

    @app.context_processor
    def _look_context():
        look = current_look()
        return {"look": look, "brand": spec.looks.get(look, spec.title)}
