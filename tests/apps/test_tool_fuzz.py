"""No tool call makes the control API answer 5xx or the seam raise anything but a ToolError (issue 42), for
every tool of the three apps, fuzzed with hypothesis through the control API's Flask test client:

- calls generated from each tool's own JSON schema (hypothesis-jsonschema's `from_schema`): answered 200,
  or refused with a 4xx that left the world's database as it was;
- hostile calls no tool could take: integers beyond SQLite's range, nesting deeper than MAX_DEPTH (up to
  deeper than json.loads reads), strings holding a lone surrogate, not-JSON values, names that are path
  segments ('.', '..', 'a/../../health'), unicode, empty, over-long; each refused with a 4xx, the world
  unchanged (its database file byte for byte after each call, its whole state at the end);
- arbitrary JSON values under the tools' own argument names (wrong types, wrong shapes): never a 5xx.

Examples are derandomized (the default suite is deterministic); UIGYM_FUZZ_EXAMPLES raises them for a
longer hunt.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

from apps.tool_args import INT_MAX, INT_MIN, MAX_DEPTH, MAX_STRING, ToolError

APPS = ("mail", "food", "crm")
TOKEN = {"X-Gym-Token": "fuzz-token"}
WORLD = "toolfuzz"
EXAMPLES = int(os.environ.get("UIGYM_FUZZ_EXAMPLES", "2"))  # calls of each tool (146 of them)
HOSTILE_EXAMPLES = int(os.environ.get("UIGYM_FUZZ_EXAMPLES", "30"))  # per app


def toolset(app: str):
    return importlib.import_module(f"apps.{app}.tools").TOOLS


SETTINGS = dict(derandomize=True, database=None, deadline=None, print_blob=False,
                phases=[Phase.explicit, Phase.generate, Phase.shrink], suppress_health_check=list(HealthCheck))


class Served:
    """One app's page app, its control API's test client and one world."""

    def __init__(self, app: str, home: str):
        self.app = importlib.import_module(f"apps.{app}").create_app(
            {"TESTING": True, "GYM_TOKEN": TOKEN["X-Gym-Token"], "UIGYM_HOME": home})
        self.store = self.app.extensions["uigym_worlds"]
        self.store.reset(WORLD, 0, None, [])
        self.client = self.app.extensions["uigym_control"].test_client()
        self.tools = toolset(app)
        self._digest: str | None = None

    def digest(self) -> str:
        """The world's database, byte for byte: a refused call rolls back, so not one byte changes."""
        return hashlib.sha256(self.store.world_path(WORLD).read_bytes()).hexdigest()

    def known_digest(self) -> str:
        """The digest as the last call left it (computed again only after a call that was answered 200)."""
        if self._digest is None:
            self._digest = self.digest()
        return self._digest

    def post(self, name: str, body: bytes):
        return self.client.post(f"/worlds/{WORLD}/tools/{quote(name, safe='')}", data=body,
                                content_type="application/json", headers=TOKEN)

    def call(self, name: str, args) -> tuple[int, str]:
        """POST the call (JSON as a client writes it: a lone surrogate as its \\u escape); a refusal must be
        a 4xx with a message and leave the world as it was. Returns (status, error message)."""
        body = json.dumps(args, allow_nan=True).encode("ascii")
        before = self.known_digest()
        r = self.post(name, body)
        assert r.status_code < 500, (name, body[:300], r.status_code, r.get_data(as_text=True)[:500])
        if r.status_code == 200:
            self._digest = None
            return 200, ""
        assert 400 <= r.status_code < 500 and r.json.get("error"), (name, body[:300], r.status_code)
        assert self.digest() == before, ("a refused call changed the world", name, body[:300], r.json)
        return r.status_code, r.json["error"]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    home = str(tmp_path_factory.mktemp("toolfuzz"))
    made: dict[str, Served] = {}

    def get(app: str) -> Served:
        if app not in made:
            made[app] = Served(app, home)
        return made[app]

    return get


# ------------------------------------------------------------------------------------------- strategies

def nested(levels: int, leaf, as_dict: bool):
    v = leaf
    for _ in range(levels):
        v = {"k": v} if as_dict else [v]
    return v


JSON_SCALARS = st.none() | st.booleans() | st.integers(INT_MIN, INT_MAX) | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=30)
JSON_VALUES = st.recursive(JSON_SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                           max_leaves=12)
BEYOND_INT = (st.integers(min_value=INT_MAX + 1) | st.integers(max_value=INT_MIN - 1)
              | st.sampled_from([INT_MAX + 1, INT_MIN - 1, 2**64, 10**40, -(10**40)]))
SURROGATE = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
WITH_SURROGATE = st.builds(lambda a, s, b: a + s + b, st.text(max_size=10), SURROGATE, st.text(max_size=10))
TOO_DEEP = st.builds(nested, st.integers(MAX_DEPTH, 200) | st.integers(900, 3000), JSON_SCALARS, st.booleans())
# Values no tool can take, wherever they stand.
HOSTILE_VALUES = BEYOND_INT | WITH_SURROGATE | TOO_DEEP | st.characters().map(lambda c: c * (MAX_STRING + 1))
# Names that are no tool's: path segments, separators, unicode, empty, too long, a reserved word.
ODD_NAMES = (st.sampled_from([".", "..", "./star", "star/../../health", "../tools", "%2e%2e", "a/b", "", " ", "done",
                              "STAR", "star\x00", "tools", "health", "x" * 65, "ünïcode", "名前", "a%2Fb", "..%2F..%2Fhealth"])
             | st.text(max_size=70))


def _has_object(schema) -> bool:
    if isinstance(schema, dict):
        return schema.get("type") == "object" or any(_has_object(v) for v in schema.values())
    return isinstance(schema, list) and any(_has_object(v) for v in schema)


def from_tool_schema(schema: dict):
    """Instances of a tool's JSON schema: hypothesis-jsonschema's `from_schema` for every part but objects,
    which are composed here from their properties (its own object strategy calls a hypothesis internal,
    conjecture.utils.many's old `more()`, that the installed hypothesis no longer has)."""
    if not _has_object(schema):
        return from_schema(schema)
    if "anyOf" in schema:
        return st.one_of([from_tool_schema(s) for s in schema["anyOf"]])
    if schema.get("type") == "array":
        assert not schema.get("uniqueItems"), schema
        return st.lists(from_tool_schema(schema["items"]), min_size=schema.get("minItems", 0),
                        max_size=min(schema.get("maxItems", 5), 5))
    assert schema.get("type") == "object" and set(schema) <= {"type", "properties", "required", "additionalProperties",
                                                              "description", "default", "maxProperties"}, schema
    props, required = schema.get("properties", {}), set(schema.get("required", []))
    fixed = st.fixed_dictionaries({k: from_tool_schema(v) for k, v in props.items() if k in required},
                                  optional={k: from_tool_schema(v) for k, v in props.items() if k not in required})
    extra = schema.get("additionalProperties", True)
    if extra is False:
        return fixed
    values = from_tool_schema(extra) if isinstance(extra, dict) else JSON_VALUES
    more = st.dictionaries(st.text(max_size=20).filter(lambda k: k not in props), values,
                           max_size=min(4, max(0, schema.get("maxProperties", 4) - len(props))))
    return st.builds(lambda a, b: {**b, **a}, fixed, more)


def schema_args(app: str, name: str):
    return from_tool_schema(toolset(app).tools[name].schema())


@st.composite
def hostile_call(draw, app: str):
    """(name, args, must_refuse): a registered tool with a hostile value placed in its arguments, or an
    odd name; or arbitrary JSON under the tool's own argument names (may be valid: never a 5xx)."""
    tools = toolset(app)
    name = draw(st.sampled_from(sorted(tools.tools)))
    props = sorted(tools.tools[name].schema().get("properties", {})) or ["x"]
    key = draw(st.sampled_from(props) | st.text(max_size=8))
    kind = draw(st.sampled_from(["value", "list", "object", "key", "name", "arbitrary"]))
    if kind == "name":
        return draw(ODD_NAMES.filter(lambda n: n not in tools.tools)), draw(st.fixed_dictionaries({}) | JSON_VALUES), True
    if kind == "arbitrary":
        return name, draw(st.dictionaries(st.sampled_from(props), JSON_VALUES, max_size=len(props))), False
    if kind == "key":
        return name, {draw(WITH_SURROGATE): 1}, True
    bad = draw(HOSTILE_VALUES)
    bad = {"value": bad, "list": [bad], "object": {"k": bad}}[kind]
    return name, {key: bad}, True


# -------------------------------------------------------------------------------------------------- tests

@pytest.mark.parametrize("app", APPS)
def test_calls_from_each_tools_own_schema_never_answer_5xx(served, app):
    s = served(app)
    strategies = {name: schema_args(app, name) for name in s.tools.tools}
    calls: dict[str, int] = {}

    @settings(max_examples=EXAMPLES, **SETTINGS)
    @given(st.data())
    def fuzz(data):
        for name, strategy in strategies.items():  # every tool in each example
            s.call(name, data.draw(strategy, label=name))
            calls[name] = calls.get(name, 0) + 1

    fuzz()
    assert set(calls) == set(s.tools.tools) and min(calls.values()) >= EXAMPLES, calls


@pytest.mark.parametrize("app", APPS)
def test_hostile_calls_are_refused_and_change_nothing(served, app):
    s = served(app)
    start = s.store.state(WORLD)
    seen: dict[str, int] = {}

    @settings(max_examples=HOSTILE_EXAMPLES, **SETTINGS)
    @given(hostile_call(app))
    def fuzz(call):
        name, args, must_refuse = call
        try:  # the seam itself: a ToolError or the checked arguments, nothing else, whatever comes in
            s.tools.check(name, args)
        except ToolError:
            pass
        status, _error = s.call(name, args)
        if must_refuse:
            assert status in (400, 404, 405, 422), (name, status)
            seen["refused"] = seen.get("refused", 0) + 1

    fuzz()
    assert seen.get("refused", 0) > HOSTILE_EXAMPLES // 3  # the hostile kinds were really drawn
    assert s.store.state(WORLD) == start  # every call above was refused (or read only)


# Each case the issue found, on each app (plus their neighbours), with the status and message it must get.
def _cases(app: str) -> list[tuple[str, bytes, int, str]]:
    tools = toolset(app)
    name = next(n for n, t in tools.tools.items()
                if any(p.get("type") == "integer" for p in t.schema().get("properties", {}).values()))
    prop = next(k for k, p in tools.tools[name].schema()["properties"].items() if p.get("type") == "integer")
    deep = "[" * 100_000 + "]" * 100_000  # deeper than json.loads reads
    return [
        (name, json.dumps({prop: INT_MAX + 1}).encode(), 422, "out of range"),
        (name, json.dumps({prop: INT_MIN - 1}).encode(), 422, "out of range"),
        (name, json.dumps({prop: nested(MAX_DEPTH, 1, False)}).encode(), 422, "nested too deeply"),
        (name, ('{"%s": %s}' % (prop, deep)).encode(), 422, "nested too deeply"),
        (name, json.dumps({prop: "\ud800"}).encode(), 422, "lone surrogate"),
        (name, json.dumps({"\udfff": 1}).encode(), 422, "lone surrogate"),
        (name, b'{"x": NaN}', 422, "NaN"),
        ("..", b"{}", 422, "unknown tool"),  # (over HTTP, httpx would normalise it: the ControlClient never sends it)
        ("star/../../health", b"{}", 404, "not found"),
        ("no_such_tool", b"{}", 422, "unknown tool"),
    ]


@pytest.mark.parametrize("app", APPS)
def test_the_issues_cases_get_a_4xx_with_a_message(served, app):
    s = served(app)
    for name, body, status, phrase in _cases(app):
        before = s.digest()
        r = s.post(name, body)
        assert r.status_code == status and phrase in r.json["error"], (name, body[:80], r.status_code, r.json)
        assert s.digest() == before


@pytest.mark.parametrize("app", APPS)
def test_every_integer_in_a_published_schema_states_its_range(app):
    """minimum/maximum within SQLite's range on every integer (a tighter annotation's bound kept)."""
    def integers(node):
        if isinstance(node, dict):
            if node.get("type") == "integer" and "enum" not in node and "const" not in node:
                yield node
            for v in node.values():
                yield from integers(v)
        elif isinstance(node, list):
            for v in node:
                yield from integers(v)

    found = 0
    for tool in toolset(app).tools.values():
        for node in integers(tool.schema()):
            found += 1
            lo = node.get("minimum", node.get("exclusiveMinimum"))
            hi = node.get("maximum", node.get("exclusiveMaximum"))
            assert lo is not None and hi is not None and INT_MIN <= lo and hi <= INT_MAX, (tool.name, node)
    assert found > 5
