"""Fuzzing every route of a clone: which routes there are, what values reach their code, which keys they read.

- Routes: every rule of the app's url_map but the control API (/_gym, fuzzed with it) and static files.
- Path values: harvested by crawling the app's own pages from its start page (each href and form action
  matched back to its rule), so a fuzzed request reaches a real record's code, not only the 404 branch;
  plus adversarial ones per converter (a 23-digit id, 2**63, 0, long and odd strings).
- Parameter names: recorded while the app runs. The request's args/form MultiDicts and its JSON objects
  note every key a view asks for, per endpoint, so the fuzzer learns each route's parameters (including
  the ones behind a branch, as probes with filled-in values reach it) without a list kept by hand.
- Values for them: the page's own values for that name (option values, hidden inputs), small and huge
  integers, non-finite floats, empty, long, unicode and wrong-typed values, repeated keys, JSON of any type.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any
from urllib.parse import quote, urlsplit, parse_qsl

from flask import Flask, Request, request
from hypothesis import strategies as st
from werkzeug.datastructures import ImmutableMultiDict, MultiDict
from werkzeug.exceptions import HTTPException

from tests.apps.world_fixtures import bind

SKIP_PREFIXES = ("/_gym", "/static", "/_shared/static")

ADVERSARIAL = [
    "", " ", "0", "1", "2", "-1", "-0", "007", "1.5", "-2.5", "1e3", "1e309", "-1e309", "1e-400", "nan", "NaN", "inf",
    "-inf", "Infinity", "9" * 23, "-" + "9" * 23, str(2**63), str(2**63 - 1), str(-(2**63) - 1), str(2**31), "0x10",
    "１２", "²", "abc", "true", "false", "null", "None", "[]", "{}", "[1,2]", "a,b", "1,2,3", ",", "%", "%00", "\x00",
    "é", "🙂", "\u202e", "'", '"', "<b>", "../..", "/", "2026-02-30", "2026-13-01", "2026-03-13T25:00", "9999-12-31",
    "0000-00-00", "12/31/1999", "$1,000.00", "$", "-$5", "x" * 5000, " padded ", "\n", "\t",
]
JSON_ODD = [None, True, False, 0, -1, 2**63, 10**22, -(10**22), 1.5, float("inf"), float("-inf"), float("nan"),
            [], [1, 2], ["a"], [None], {}, {"a": 1}, "x" * 5000]


class _Keys:
    """Keys a view asked for, per endpoint (filled while the app serves the fuzzer's requests)."""

    def __init__(self):
        self.by_endpoint: dict[str, set[str]] = defaultdict(set)

    def note(self, key: Any) -> None:
        try:
            ep = request.endpoint
        except RuntimeError:  # outside a request
            return
        if ep and isinstance(key, str):
            self.by_endpoint[ep].add(key)


KEYS = _Keys()


class RecordingMultiDict(ImmutableMultiDict):
    def __getitem__(self, key):
        KEYS.note(key)
        return super().__getitem__(key)

    def get(self, key, default=None, type=None):  # noqa: A002 - werkzeug's signature
        KEYS.note(key)
        return super().get(key, default, type)

    def getlist(self, key, type=None):  # noqa: A002
        KEYS.note(key)
        return super().getlist(key, type)

    def __contains__(self, key):
        KEYS.note(key)
        return super().__contains__(key)


class RecordingDict(dict):
    def __getitem__(self, key):
        KEYS.note(key)
        return super().__getitem__(key)

    def get(self, key, default=None):
        KEYS.note(key)
        return super().get(key, default)

    def __contains__(self, key):
        KEYS.note(key)
        return super().__contains__(key)


def _wrap(v):
    if isinstance(v, dict):
        return RecordingDict({k: _wrap(x) for k, x in v.items()})
    if isinstance(v, list):
        return [_wrap(x) for x in v]
    return v


class RecordingRequest(Request):
    parameter_storage_class = RecordingMultiDict

    def get_json(self, force=False, silent=False, cache=True):
        return _wrap(super().get_json(force=force, silent=silent, cache=cache))


def instrument(app: Flask) -> None:
    app.request_class = RecordingRequest


# ----------------------------------------------------------------------------- crawling the app's own pages
class _Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.forms: list[tuple[str, str]] = []  # (action, method)
        self.fields: list[tuple[str, str, str | None]] = []  # (form action or "", name, value)
        self._action: str = ""

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])
        if tag == "img" and a.get("src"):
            self.links.append(a["src"])
        for k in ("data-href", "data-url", "hx-get", "hx-post", "formaction"):
            if a.get(k):
                self.links.append(a[k])
        if tag == "form":
            self._action = a.get("action") or ""
            self.forms.append((self._action, (a.get("method") or "get").lower()))
        if tag in ("input", "select", "textarea", "button") and a.get("name"):
            self.fields.append((self._action, a["name"], a.get("value")))
        if tag == "option" and a.get("value") is not None:
            self.fields.append((self._action, "", a["value"]))

    def handle_endtag(self, tag):
        if tag == "form":
            self._action = ""


@dataclass
class Harvest:
    path_values: dict[tuple[str, str], list[str]] = field(default_factory=lambda: defaultdict(list))
    by_arg: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    field_values: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    form_keys: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    pages: int = 0


def _add(lst: list, v: str, cap: int = 12) -> None:
    if v not in lst and len(lst) < cap:
        lst.append(v)


def tag_page(endpoint: str) -> bool:
    return not any(x in endpoint for x in ("img", "logo", "avatar", "preview", "download"))


def crawl(app: Flask, client, starts: list[str], max_pages: int = 120, per_endpoint: int = 3) -> Harvest:
    h = Harvest()
    adapter = app.url_map.bind("localhost")
    seen, queue, per_ep = set(), list(starts), defaultdict(int)
    JS_URL = re.compile(r"""["'`](/(?:api|crm/api|lightning|orders|checkout|account|store|thread|contacts|attachments)[^"'`\s<>${}]*)""")
    while queue and h.pages < max_pages:
        url = queue.pop(0)
        if url in seen:
            continue
        seen.add(url)
        r = client.get(url)
        h.pages += 1
        if r.status_code != 200 or "html" not in (r.content_type or ""):
            continue
        text = r.get_data(as_text=True)
        p = _Page()
        p.feed(text)
        urls = [(u, "get") for u in p.links] + [(a, m) for a, m in p.forms] + [(u, "any") for u in JS_URL.findall(text)]
        for u, method in urls:
            parts = urlsplit(u)
            if parts.netloc or not parts.path.startswith("/") or parts.path.startswith(SKIP_PREFIXES):
                continue
            for meth in (("GET", "POST") if method == "any" else (method.upper(),)):
                try:
                    ep, args = adapter.match(parts.path, method=meth)
                except HTTPException:
                    continue
                for k, v in args.items():
                    _add(h.path_values[(ep, k)], str(v))
                    _add(h.by_arg[k], str(v), 30)
                for k, v in parse_qsl(parts.query, keep_blank_values=True):
                    _add(h.field_values[k], v)
                    h.form_keys[ep].add(k)
                if meth == "GET" and per_ep[ep] < per_endpoint and u not in seen and tag_page(ep):
                    per_ep[ep] += 1
                    queue.append(u)
                break
        for action, name, value in p.fields:
            if name and value is not None:
                _add(h.field_values[name], value)
            if name and action:
                try:
                    ep, _ = adapter.match(urlsplit(action).path, method="POST")
                    h.form_keys[ep].add(name)
                except HTTPException:
                    pass
    return h


# ----------------------------------------------------------------------------- requests
@dataclass(frozen=True)
class Route:
    app: str
    rule: str
    endpoint: str
    methods: tuple[str, ...]
    args: tuple[tuple[str, str], ...]  # (name, converter kind)


def routes(app_name: str, app: Flask) -> list[Route]:
    out = []
    for r in app.url_map.iter_rules():
        if r.rule.startswith(SKIP_PREFIXES) or r.endpoint == "static":
            continue
        args = tuple((name, type(conv).__name__) for name, conv in r._converters.items())
        out.append(Route(app_name, r.rule, r.endpoint, tuple(sorted(r.methods - {"HEAD", "OPTIONS"})), args))
    return out


_ARG = re.compile(r"<(?:([a-zA-Z_]+)(?:\(([^)]*)\))?:)?([a-zA-Z_]+)>")


def build_path(rule: str, values: dict[str, str], path_args: set[str]) -> str:
    def sub(m):
        name = m.group(3)
        return quote(values[name], safe="/" if name in path_args else "")

    return _ARG.sub(sub, rule)


def any_items(rule: str, name: str) -> list[str]:
    for m in _ARG.finditer(rule):
        if m.group(3) == name and m.group(1) == "any":
            return [x.strip().strip("'\"") for x in m.group(2).split(",")]
    return []


def path_value(route: Route, name: str, kind: str, harvest: Harvest) -> st.SearchStrategy[str]:
    known = harvest.path_values.get((route.endpoint, name)) or harvest.by_arg.get(name) or []
    if kind in ("IntegerConverter", "BoundedIntConverter"):
        odd = st.sampled_from(["0", "1", "3", "999999", str(2**31), str(2**63 - 1), str(2**63), "9" * 23, "9" * 80])
        return st.one_of(st.sampled_from(known), odd) if known else st.one_of(odd, st.integers(1, 50).map(str))
    if kind == "AnyConverter":
        items = any_items(route.rule, name) or known or ["x"]
        return st.sampled_from(items)
    odd = st.sampled_from([s for s in ADVERSARIAL if s and "/" not in s and "\x00" not in s] + ["x" * 300])
    text = st.text(st.characters(exclude_characters="/\x00", codec="utf-8"), min_size=1, max_size=20)
    return st.one_of(st.sampled_from(known), odd, text) if known else st.one_of(odd, text)


def scalar(values: list[str]) -> st.SearchStrategy[str]:
    base = st.one_of(st.sampled_from(ADVERSARIAL), st.integers().map(str),
                     st.floats(allow_nan=True, allow_infinity=True).map(repr),
                     st.text(st.characters(codec="utf-8", exclude_characters="\x00"), max_size=30))
    return st.one_of(st.sampled_from(values), base) if values else base


INTS = st.one_of(st.integers(0, 60), st.sampled_from([0, -1, 2**31, 2**63, 10**22, -(10**22)]))


def json_value(values: list[str], keys: list[str] = ()) -> st.SearchStrategy[Any]:
    """Any JSON: adversarial scalars, ints small and huge, lists of ids and of pairs, objects whose keys are
    the route's own (a nested object's keys are recorded too: {"filters": [{"field", "op", "value"}]})."""
    leaf = st.one_of(scalar(values), st.sampled_from(JSON_ODD), INTS, st.floats())
    key = st.one_of(st.sampled_from(list(keys)), st.text(max_size=5)) if keys else st.text(max_size=5)
    return st.recursive(leaf, lambda c: st.one_of(
        st.lists(c, max_size=3), st.dictionaries(key, c, max_size=4), st.lists(INTS, max_size=3),
        st.lists(st.tuples(INTS, INTS).map(list), max_size=2)), max_leaves=8)


def dump_json(body: Any) -> str:
    # Python's json writes NaN/Infinity, which Python's json (and so Flask's) reads back: a real input.
    return json.dumps(body)


# ----------------------------------------------------------------------------- one app under fuzz
class ServerError(AssertionError):
    pass


class AppFuzz:
    """One clone, one world (reset before each route), its harvest, and how to send a fuzzed request."""

    def __init__(self, name: str, create_app, home: str, setup=None, starts: list[str] = ()):
        self.name = name
        self.app = create_app({"UIGYM_HOME": home, "GYM_TOKEN": "t", "TESTING": True})
        instrument(self.app)
        self.spec = self.app.extensions["uigym_spec"]
        self.store = self.app.extensions["uigym_worlds"]
        self.world = f"fuzz-{name}"
        self.setup = setup  # requests that give the fresh world what deeper routes need (food: a cart)
        self.client = self.app.test_client()
        self.reset()
        self.harvest = crawl(self.app, self.client, [self.spec.start_path, *starts])
        self.pool = sorted(set(self.harvest.field_values) | {k for ks in self.harvest.form_keys.values() for k in ks})

    def reset(self) -> None:
        self.store.reset(self.world, 0, None, [])
        self.client = self.app.test_client()
        bind(self.client, self.app, self.world)  # the signed world binding, as the gym's browser holds it
        if self.setup:
            self.setup(self.client)

    def keys(self, route: Route) -> tuple[list[str], list[str]]:
        """The route's own keys (recorded, or its forms' fields), then a few of the app's other field names:
        a JSON endpoint takes the fields of a form it serves (checkout/update, checkout/place's)."""
        own = KEYS.by_endpoint.get(route.endpoint, set()) | self.harvest.form_keys.get(route.endpoint, set())
        return sorted(own), [k for k in self.pool if k not in own]

    def values(self, key: str) -> list[str]:
        return self.harvest.field_values.get(key) or self.harvest.by_arg.get(key) or []

    def send(self, method: str, path: str, *, query=None, form=None, json_body=None, raw=None) -> int:
        desc = f"{method} {path} query={query!r:.300} form={form!r:.300} json={json_body!r:.300}"
        kw: dict[str, Any] = {"query_string": MultiDict(query or [])}
        if form is not None:
            kw["data"] = MultiDict(form)
        elif json_body is not None:
            kw["data"], kw["content_type"] = dump_json(json_body), "application/json"
        elif raw is not None:
            kw["data"], kw["content_type"] = raw
        try:
            r = self.client.open(path, method=method, **kw)
        except Exception as e:  # noqa: BLE001 - TESTING propagates a view's exception: that is a 500
            import traceback

            tb = traceback.extract_tb(e.__traceback__)
            where = next((f"{f.filename.split('/apps/')[-1]}:{f.lineno}" for f in reversed(tb)
                          if "/apps/" in f.filename and "/tests/" not in f.filename), "?")
            raise ServerError(f"500 {type(e).__name__}: {e!s:.200} at {where}\n  {desc}") from e
        if r.status_code >= 500:
            raise ServerError(f"{r.status_code}\n  {desc}")
        return r.status_code

    def probe(self, route: Route) -> None:
        """Plain requests first (no parameters, then each known key with a value the pages use), so the keys
        read behind a branch are recorded before the fuzzing draws from them."""
        vals = {n: (self.harvest.path_values.get((route.endpoint, n)) or self.harvest.by_arg.get(n)
                    or any_items(route.rule, n) or ["1"])[0] for n, _ in route.args}
        path = build_path(route.rule, vals, {n for n, k in route.args if k == "PathConverter"})
        for rnd, plain in enumerate(["", "1", "ann@example.com", "1"]):
            # a key's value from the pages, else a plain one (a number, then an address: compose reads past `to`)
            filled = [(k, (self.values(k) or [plain])[0]) for k in self.keys(route)[0]] if rnd else []
            for m in route.methods:
                if m == "GET":
                    self.send("GET", path, query=filled)
                else:
                    self.send(m, path, form=filled)
                    self.send(m, path, json_body=dict(filled))

    def example(self, route: Route, keys: tuple[list[str], list[str]], data) -> None:
        """One drawn request. `keys` is fixed for a route's run (hypothesis replays draws: they must not
        depend on what earlier examples taught the recorder)."""
        method = data.draw(st.sampled_from(route.methods), label="method")
        pvals = {n: data.draw(path_value(route, n, k, self.harvest), label=n) for n, k in route.args}
        path = build_path(route.rule, pvals, {n for n, k in route.args if k == "PathConverter"})
        own = st.sampled_from(keys[0] + ["_x"])
        key = st.one_of(own, own, own, st.sampled_from(keys[1])) if keys[1] else own
        chosen = data.draw(st.lists(key, max_size=8), label="keys")  # repeated keys too
        enc = data.draw(st.sampled_from(["query"] if method == "GET" else ["form", "json", "raw", "query"]), label="enc")
        if enc == "json":
            if data.draw(st.booleans(), label="object"):
                body = {k: data.draw(json_value(self.values(k), keys[0]), label=k) for k in chosen}
            else:
                body = data.draw(json_value([], keys[0]), label="body")
            self.send(method, path, json_body=body)
        elif enc == "raw":
            raw = data.draw(st.sampled_from([("{", "application/json"), ("[1,", "application/json"), ('"x"', "application/json"),
                                             ("\xff\xfe", "application/x-www-form-urlencoded"), ("a=%zz&b", "application/x-www-form-urlencoded"),
                                             ("--x\r\n", "multipart/form-data; boundary=x"), ("1e309", "application/json")]), label="raw")
            self.send(method, path, raw=raw)
        else:
            pairs = [(k, data.draw(scalar(self.values(k)), label=k)) for k in chosen]
            if enc == "query":
                self.send(method, path, query=pairs)
            else:
                self.send(method, path, form=pairs)
