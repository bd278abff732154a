"""No template filter the apps add is folded at compile time unless its output is the same for every request: Jinja
evaluates a plain filter over a constant once, when it compiles the template (`{{ 0|money_whole }}` kept the first
request's locale for every later one), so each filter that reads the request (its look, locale, language) is
registered through apps/_shared/request_filters.per_request, and the rest are named here as pure."""

from __future__ import annotations

import importlib

import jinja2
import pytest
from flask import Flask

# Filters whose output depends on their argument only.
PURE = {"count_label", "price_sign", "tojson_attr"}


@pytest.mark.parametrize("name", ["mail", "food", "crm"])
def test_each_filter_is_pure_or_evaluated_per_request(name):
    app = importlib.import_module(f"apps.{name}").create_app({"TESTING": True})
    stock = set(jinja2.Environment().filters) | set(Flask(__name__).jinja_env.filters)
    added = {k: v for k, v in app.jinja_env.filters.items() if k not in stock}
    assert added, "the app adds filters"
    folded = sorted(k for k, v in added.items() if k not in PURE and getattr(v, "jinja_pass_arg", None) is None)
    assert not folded, f"{name}: filters Jinja would fold at compile time: {folded} (register them with per_request)"


def test_a_per_request_filter_over_a_constant_follows_the_request():
    from flask import g

    from apps._shared.request_filters import per_request

    app = Flask(__name__)
    app.jinja_env.filters["shout"] = per_request(lambda v: f"{v}{g.get('mark', '')}")
    app.jinja_env.filters["folded"] = lambda v: f"{v}{g.get('mark', '')}"
    tpl = "{{ 0|shout }} {{ 0|folded }}"
    seen, compiled = [], None
    for mark in ("", "!"):
        with app.test_request_context():
            g.mark = mark
            compiled = compiled or app.jinja_env.from_string(tpl)  # compiled once, in the first request, as Flask does
            seen.append(compiled.render())
    assert seen == ["0 0", "0! 0"]  # the plain filter kept the first render's value; per_request did not
