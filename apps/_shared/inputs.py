"""What the clones accept from a request, and how they refuse the rest (issue 15: no input answers 5xx).

One place per rule, every clone the same:
- size: an app request's body is at most MAX_BODY_BYTES, one form field too; more is a 413 page (the
  control API under /_gym keeps its own limits);
- ids in paths: the `int` converter is bounded to SQLite's INTEGER range, so a 23-digit id is an unknown
  page (404), not an OverflowError deep in a query;
- numbers in JSON: a body with an integer outside that range, a float beyond it, NaN or Infinity (which
  Python's json reads) is not valid JSON for the apps, so a view's `isinstance(v, int)` is a usable id;
- bodies: `body()` is the request's JSON object or its form; a JSON body that is malformed or not an
  object is a 400 that says so (it was silently read as empty, or crashed on `.get`);
- values: `text`, `integer`, `id_list` read one parameter of either kind, and `number` reads an amount
  a user typed ("$1,200", "12%"): finite and within ±NUMBER_MAX, or None (1e309 is not an amount);
- refusals: a 4xx is the shared error page for a page request and `{"ok": false, "error": ...}` for a
  JSON one, always with a sentence a user (or an agent) can act on.
"""

from __future__ import annotations

import math
import re
from typing import Any

from flask import Flask, abort, current_app, has_request_context, jsonify, render_template, request
from flask.json.provider import DefaultJSONProvider
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import BadRequestKeyError, HTTPException
from werkzeug.routing import IntegerConverter

MAX_BODY_BYTES = 1024 * 1024  # a long email is ~100 KB; nothing a person types into these apps is 1 MB
SQL_INT_MAX = 2**63 - 1
NUMBER_MAX = 10**15  # amounts, counts: exact in a float and in SQLite's INTEGER, beyond any real record


class BoundedIntConverter(IntegerConverter):
    """`<int:id>` that only matches what an INTEGER column can hold (werkzeug's has no upper bound)."""

    def __init__(self, map, fixed_digits=0, min=None, max=SQL_INT_MAX, signed=False):  # noqa: A002 - werkzeug's names
        super().__init__(map, fixed_digits=fixed_digits, min=min, max=max, signed=signed)


def _bounded_int(s: str) -> int:
    n = int(s)
    if not -SQL_INT_MAX - 1 <= n <= SQL_INT_MAX:
        raise ValueError(f"integer out of range: {s[:30]}")
    return n


def _bounded_float(s: str) -> float:
    n = float(s)
    if not (math.isfinite(n) and abs(n) <= SQL_INT_MAX):
        raise ValueError(f"number out of range: {s[:30]}")
    return n


def _no_constant(s: str):
    raise ValueError(f"{s} is not a number")


class BoundedJSONProvider(DefaultJSONProvider):
    """Flask's JSON, reading only numbers the apps can store (see the module's docstring)."""

    def loads(self, s, **kwargs):
        if has_request_context() and request.path.startswith("/_gym/"):
            return super().loads(s, **kwargs)  # the control API keeps its own rules
        kwargs.setdefault("parse_int", _bounded_int)
        kwargs.setdefault("parse_float", _bounded_float)
        kwargs.setdefault("parse_constant", _no_constant)
        return super().loads(s, **kwargs)


def bad_request(message: str):
    """Stop the request with a 400 carrying `message` (rendered as a page or JSON, see `_error`)."""
    abort(400, description=message)


def body(form_json: str | None = None) -> MultiDict | dict:
    """The request's JSON object, or its form when it has no JSON body. With `form_json`, a form's field of
    that name carries the JSON object instead (CRM forms post {"payload": "{...}"} without script)."""
    if not request.is_json:
        if form_json and request.form.get(form_json):
            try:
                return _object(current_app.json.loads(request.form[form_json]))
            except ValueError:
                bad_request("The request body is not valid JSON.")
        return request.form
    if not request.get_data(cache=True):
        return {}  # fetch() with a JSON content type and no body: nothing was sent
    data = request.get_json(silent=True)
    if data is None:
        bad_request("The request body is not valid JSON.")
    return _object(data)


def _object(data: Any) -> dict:
    if not isinstance(data, dict):
        bad_request("The request body must be a JSON object.")
    return data


def _value(data: Any, key: str) -> Any:
    return data.get(key) if hasattr(data, "get") else None


def text(data: Any, key: str, default: str = "", max_len: int | None = None) -> str:
    """A text parameter. JSON numbers read as their digits; a list or object is a 400."""
    v = _value(data, key)
    if v is None:
        return default
    if isinstance(v, bool) or not isinstance(v, (str, int, float)):
        bad_request(f"'{key}' must be text.")
    s = v if isinstance(v, str) else str(v)
    return s[:max_len] if max_len is not None else s


def integer(data: Any, key: str, default: int | None = None, lo: int = -SQL_INT_MAX, hi: int = SQL_INT_MAX) -> int | None:
    """A whole-number parameter ("3" or 3) within [lo, hi]; missing or empty is `default`; anything else a 400."""
    v = _value(data, key)
    if v is None or v == "":
        return default
    if isinstance(v, str) and re.fullmatch(r"\s*-?\d{1,19}\s*", v):
        n = int(v)
    elif isinstance(v, int) and not isinstance(v, bool):
        n = v
    else:
        bad_request(f"'{key}' must be a whole number.")
    if not lo <= n <= hi:
        bad_request(f"'{key}' must be between {lo} and {hi}.")
    return n


def id_list(data: Any, key: str) -> list[int]:
    """A list of ids: a JSON list of numbers (or digit strings), or a form's repeated or comma-separated key."""
    if hasattr(data, "getlist"):
        raw: list[Any] = [p for v in data.getlist(key) for p in str(v).split(",") if p.strip()]
    else:
        raw = _value(data, key) or []
        if not isinstance(raw, list):
            bad_request(f"'{key}' must be a list of ids.")
    out = []
    for x in raw:
        if isinstance(x, bool) or not (isinstance(x, int) or (isinstance(x, str) and x.strip().isdecimal())):
            bad_request(f"'{key}' must be a list of ids.")
        n = int(x)
        if not 0 <= n <= SQL_INT_MAX:
            bad_request(f"'{key}' must be a list of ids.")
        out.append(n)
    return out


def id_text(s: Any) -> int | None:
    """An id typed as text (a form's lookup field, an owner): ASCII digits that fit an INTEGER column, or None.
    (`"²".isdigit()` is true and `int("²")` fails; 30 digits pass `int` and overflow SQLite.)"""
    s = str(s).strip()
    if not (s.isascii() and s.isdecimal()):
        return None
    n = int(s)
    return n if n <= SQL_INT_MAX else None


def objects(data: Any, key: str) -> list[dict]:
    """A JSON list of objects (`edits`, `filters`); missing is empty; anything else a 400."""
    v = _value(data, key) or []
    if not isinstance(v, list) or not all(isinstance(x, dict) for x in v):
        bad_request(f"'{key}' must be a list of objects.")
    return v


def number(typed: str) -> float | None:
    """An amount as a person types it ("1,200", "$5.50", "12%", "-3", ".5"): a float within ±NUMBER_MAX, or None
    when it is not one ("abc", "nan", "inf", a 30-digit number, and exponents: "1e309" is no one's amount)."""
    t = str(typed).strip().replace(",", "").replace("$", "").replace("%", "").strip()
    if not re.fullmatch(r"[-+]?(\d+(\.\d*)?|\.\d+)", t):
        return None
    n = float(t)
    return n if abs(n) <= NUMBER_MAX else None


def wants_json() -> bool:
    if request.is_json or "/api/" in request.path or request.headers.get("X-Requested-With") == "fetch":
        return True
    best = request.accept_mimetypes.best_match(["text/html", "application/json"])
    return best == "application/json" and request.accept_mimetypes[best] > request.accept_mimetypes["text/html"]


MESSAGES = {
    400: "The request could not be understood.",
    405: "This page can't be used that way.",
    413: f"The request is too large (the limit is {MAX_BODY_BYTES // 1024 // 1024} MB). Nothing was saved.",
}


def _error(e: HTTPException):
    code = e.code or 500
    if code >= 500:
        return e
    generic = type(e).description  # werkzeug's stock sentence: replace it with ours
    message = e.description if e.description and e.description != generic else MESSAGES.get(code, e.name + ".")
    if isinstance(e, BadRequestKeyError):
        message = f"The request is missing '{e.args[0]}'." if e.args else MESSAGES[400]
    if wants_json():
        # mail's and food's scripts show `error`, the CRM's `message`
        return jsonify(ok=False, error=message, message=message), code
    return render_template("_shared/error.html", code=code, message=message), code


def init_app(app: Flask) -> None:
    """Called by the factory before the views register their rules (the converter must be in place then)."""
    app.url_map.converters["int"] = BoundedIntConverter
    app.json_provider_class = BoundedJSONProvider
    app.json = BoundedJSONProvider(app)
    app.register_error_handler(HTTPException, _error)

    @app.before_request
    def _limit_body():
        if not request.path.startswith("/_gym/"):
            request.max_content_length = MAX_BODY_BYTES
            request.max_form_memory_size = MAX_BODY_BYTES
