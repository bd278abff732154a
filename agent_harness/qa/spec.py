"""What an app declares for QA (its `QA` dict), and the run's own settings.

A clone declares its QA inputs as plain data, so the app never imports the harness:

    # apps/<app>/qa.py  (or a `QA` attribute on the app module itself, as the test fixtures do)
    QA = {
        "start_pages": ["/inbox", "/starred"],
        "vocabulary": {
            "subject": ["invoice", "lunch"],                                   # literal queries
            "contact": {"table": "contacts", "field": "name", "sample": 8},   # drawn from the seeded world
        },
        "queries": [
            {"name": "search box", "vocab": "subject", "page": "/inbox",
             "steps": [{"fill": {"role": "searchbox", "name": "Search mail"}, "text": "{q}"}, {"press": ["Enter"]}],
             "results": "[role=row]", "match": "all"},
            {"name": "search url", "vocab": "contact", "url": "/search?q={q}", "results": "tr.thread"},
        ],
        "allow": [{"kind": "dead_control", "name": "^Help$", "reason": "opens the browser's help; out of scope"}],
    }

`AppQA.model_validate(QA)` checks it; docs/qa.md documents every field.
"""

from __future__ import annotations

import importlib
import re
from fnmatch import fnmatchcase
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from tasks.schema import SolutionStep

DEFECT_KINDS = (
    "dead_control",  # exercised like a user would; nothing happened
    "http_error",  # a link, form or start page that answers 4xx/5xx
    "js_error",  # an uncaught exception in the page
    "console_error",  # console.error (other than the browser's own "failed to load resource")
    "failed_request",  # a request that failed, was blocked (another origin), or answered 4xx/5xx
    "broken_image",  # an image that did not load, or that loaded blank (one flat colour)
    "text_overflow",  # text spilling out of its box, or cut off without an ellipsis
    "unreachable",  # a control outside the viewport that cannot be scrolled to, or covered by another element
    "unnamed",  # a control without an accessible name
    "empty_results",  # a declared query that returned no result in the UI
    "mismatched_results",  # results that do not match the query
    "query_error",  # a declared query whose recipe could not be played (its UI is missing)
    "task_invalid",  # a task whose oracle does not get 1, or noop / a near-miss does not get 0
    "goal_lint",  # a task goal naming something its world does not have, or a date its clock does not back
    "untranslated",  # a page in another language (a variant's lang) still showing English chrome
)

DefectKind = Literal[
    "dead_control", "http_error", "js_error", "console_error", "failed_request", "broken_image", "text_overflow",
    "unreachable", "unnamed", "empty_results", "mismatched_results", "query_error", "task_invalid", "goal_lint",
    "untranslated",
]


class VocabFromState(BaseModel):
    """Queries drawn from the seeded world: distinct values of `table.field`, `sample` of them spread evenly."""

    model_config = ConfigDict(extra="forbid")
    table: str
    field: str
    sample: int = Field(default=8, ge=1)
    where: dict[str, Any] = Field(default_factory=dict)  # equality filter on the rows
    words: int | None = Field(default=None, ge=1)  # keep only the first N words of each value


class QueryPath(BaseModel):
    """One search or filter path, tried once per vocabulary word (`{q}` is replaced by the word).

    Either `url` (a URL template opened directly) or `steps` (a UI recipe played from `page` with the
    oracle's semantic steps: click/fill/press... on role/name targets). Then the visible elements
    matching `results` (CSS) are the results: fewer than `min_results` is an empty result page;
    with `match` = "all" every result's text (or its `match_in` part) must contain `expect`
    (case- and accent-insensitive; with `tokens` every word of it, in any order); "any": at least one.
    """

    model_config = ConfigDict(extra="forbid")
    name: str
    vocab: str
    url: str | None = None
    page: str | None = None
    steps: list[dict[str, Any]] | None = None
    results: str
    match: Literal["all", "any", "none"] = "all"
    match_in: str | None = None
    expect: str = "{q}"
    tokens: bool = False
    min_results: int = Field(default=1, ge=0)
    max_queries: int | None = Field(default=None, ge=1)

    @model_validator(mode="after")
    def _url_or_steps(self):
        if bool(self.url) == bool(self.steps):
            raise ValueError(f"query {self.name!r}: give exactly one of 'url' or 'steps'")
        if self.url and not self.url.startswith("/"):
            raise ValueError(f"query {self.name!r}: 'url' must be an app path starting with '/'")
        if self.steps:
            for i, s in enumerate(self.steps):
                try:
                    SolutionStep.model_validate(s)
                except Exception as e:  # noqa: BLE001 - re-raised with the step's index
                    raise ValueError(f"query {self.name!r} step #{i}: {e}") from None
        return self

    def step_models(self, q: str) -> list[SolutionStep]:
        return [SolutionStep.model_validate(substitute(s, q)) for s in (self.steps or [])]


class Allow(BaseModel):
    """A known-benign finding, with its reason. Every given field must match (regexes search, `page` is a glob
    over the page's path or template)."""

    model_config = ConfigDict(extra="forbid")
    kind: str | list[str] = "*"
    page: str | None = None
    role: str | None = None
    name: str | None = None
    detail: str | None = None
    reason: str = Field(min_length=3)

    def matches(self, d: dict) -> bool:
        kinds = [self.kind] if isinstance(self.kind, str) else self.kind
        if "*" not in kinds and d.get("kind") not in kinds:
            return False
        el = d.get("element") or {}
        if self.page is not None:
            pages = [d.get("page") or "", d.get("template") or ""]
            if not any(fnmatchcase(p, self.page) for p in pages):
                return False
        if self.role is not None and not re.fullmatch(self.role, el.get("role") or ""):
            return False
        if self.name is not None and not re.search(self.name, el.get("name") or ""):
            return False
        if self.detail is not None and not re.search(self.detail, d.get("detail") or ""):
            return False
        return True


class AppQA(BaseModel):
    """An app's QA declaration."""

    model_config = ConfigDict(extra="forbid")
    start_pages: list[str] = Field(default_factory=list)  # default: the app's start_path
    seed: int = 0
    vocabulary: dict[str, list[str] | VocabFromState] = Field(default_factory=dict)
    queries: list[QueryPath] = Field(default_factory=list)
    allow: list[Allow] = Field(default_factory=list)
    exclude: list[str] = Field(default_factory=list)  # URL globs never crawled (e.g. "/logout*")
    skip: list[str] = Field(default_factory=list)  # regexes over "role name": controls never exercised
    type_text: str = "qa"  # what is typed into text inputs
    settle_ms: int = Field(default=60, ge=0, le=3000)  # extra wait after each action (timers, debounces)
    input_settle_ms: int = Field(default=250, ge=0, le=3000)  # after typing (debounced live search)
    # How long a query's results may take to show before it is judged empty: a person waits for a live search's
    # answer, and on a loaded machine a debounced fetch lands later than the settle waits above.
    results_timeout_ms: int = Field(default=4000, ge=0, le=20000)
    goal_terms: list[str] = Field(default_factory=list)  # UI words tasks may name that are not in the world state

    @field_validator("start_pages", "exclude")
    @classmethod
    def _paths(cls, v: list[str]) -> list[str]:
        for p in v:
            if not p.startswith("/") or p.startswith("/_gym"):
                raise ValueError(f"{p!r}: paths are app paths starting with '/' (never /_gym)")
        return v

    @model_validator(mode="after")
    def _vocab_known(self):
        for q in self.queries:
            if q.vocab not in self.vocabulary:
                raise ValueError(f"query {q.name!r} uses vocabulary {q.vocab!r}, which is not declared "
                                 f"(declared: {', '.join(sorted(self.vocabulary)) or 'none'})")
        return self

    def allowed(self, d: dict) -> Allow | None:
        return next((a for a in self.allow if a.matches(d)), None)

    def skipped(self, role: str, name: str) -> bool:
        s = f"{role} {name}"
        return any(re.search(p, s) for p in self.skip)

    def excluded(self, path: str) -> bool:
        return any(fnmatchcase(path, g) for g in self.exclude)


def substitute(obj: Any, q: str) -> Any:
    if isinstance(obj, str):
        return obj.replace("{q}", q)
    if isinstance(obj, list):
        return [substitute(x, q) for x in obj]
    if isinstance(obj, dict):
        return {k: substitute(v, q) for k, v in obj.items()}
    return obj


def load_declaration(app: str) -> tuple[AppQA, bool]:
    """The app's QA declaration and whether it declared one: a `QA` attribute on the app module, or on its
    `qa` submodule (apps/<app>/qa.py). Without one: crawl from the app's start_path, no queries."""
    from apps import load_app_module

    mod = load_app_module(app)
    raw = getattr(mod, "QA", None)
    if raw is None and hasattr(mod, "__path__"):
        try:
            sub = importlib.import_module(mod.__name__ + ".qa")
        except ModuleNotFoundError as e:
            if e.name != mod.__name__ + ".qa":
                raise
            sub = None
        raw = getattr(sub, "QA", None) if sub is not None else None
    declared = raw is not None
    qa = raw if isinstance(raw, AppQA) else AppQA.model_validate(raw or {})
    if not qa.start_pages:
        qa = qa.model_copy(update={"start_pages": [mod.SPEC.start_path or "/"]})
    return qa, declared


def resolve_vocabulary(qa: AppQA, state: dict) -> dict[str, list[str]]:
    """Each vocabulary list, with the state-drawn ones filled from the world's rows."""
    out: dict[str, list[str]] = {}
    for name, v in qa.vocabulary.items():
        if isinstance(v, list):
            out[name] = list(v)
            continue
        rows = state.get(v.table)
        if rows is None:
            raise ValueError(f"vocabulary {name!r}: the world has no table {v.table!r}")
        values: list[str] = []
        for r in rows:
            if any(r.get(k) != want for k, want in v.where.items()):
                continue
            val = r.get(v.field)
            if val is None or str(val).strip() == "":
                continue
            s = " ".join(str(val).split())
            if v.words:
                s = " ".join(s.split()[: v.words])
            if s not in values:
                values.append(s)
        if not values:
            raise ValueError(f"vocabulary {name!r}: no value in {v.table}.{v.field}")
        if len(values) > v.sample:  # spread evenly, first and last included
            n = len(values)
            values = [values[0]] if v.sample == 1 else [values[round(i * (n - 1) / (v.sample - 1))]
                                                         for i in range(v.sample)]
        out[name] = values
    return out
