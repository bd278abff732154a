"""What the crawler works on: its config, the states it reaches (a URL plus the actions that open a dialog
or menu there), the actions themselves, and the small pure functions that group controls and compare worlds
and pixels."""

from __future__ import annotations

import hashlib
import json
import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import numpy as np

from gym_core.env import png_to_array

# Controls whose job is an action: a tooltip on hover does not excuse a click that does nothing.

ACTION_ROLES = {
    "button", "link", "menuitem", "menuitemcheckbox", "menuitemradio", "tab", "checkbox", "radio", "switch",
    "option", "combobox", "searchbox", "textbox", "slider", "spinbutton", "treeitem", "row", "listbox",
}
# Roles whose accessible name never comes from their content (a textbox's text is its value).
NO_CONTENT_NAME = {"textbox", "searchbox", "combobox", "listbox", "slider", "spinbutton", "tree", "grid", "menu",
                   "menubar", "radiogroup", "tablist", "toolbar", "dialog"}
CLOSE_NAME = re.compile(r"^(close|cancel|dismiss|discard|no thanks|not now|got it|ok|okay|done|back|hide|keep|×|✕|x)\b",
                        re.IGNORECASE)
# What is typed into inputs that do not take free text (digits fill a date input segment by segment).
TYPE_TEXT = {"number": "7", "date": "03122026", "time": "1030A", "datetime-local": "031220261030A",
             "month": "032026", "week": "112026"}
FREE_TEXT_PARAMS = {"q", "query", "search", "s", "term", "keyword", "keywords", "text"}

class ReplayError(RuntimeError):
    pass


@dataclass
class QAConfig:
    pages: int = 40  # page and dialog states crawled beyond the start pages, at most
    per_template: int = 2  # pages crawled per URL template (/thread/{n})
    max_elements: int = 60  # new control groups exercised per state
    samples: int = 2  # instances exercised per group (rows of a list, ...)
    depth: int = 2  # actions chained to reach a dialog/menu state
    workers: int = 2
    time_limit_s: float = 0.0  # 0: none; else stop starting jobs after this long (reported)
    # 0: none; else start at most this many jobs (crawls, probes, queries; what is left is reported). Unlike the time
    # limit, the same crawl on a busy machine as on an idle one: with an order_seed, a deterministic sample.
    max_jobs: int = 0
    job_timeout_s: float = 45.0
    queries: bool = True
    max_queries: int = 6  # per query path (the declaration's max_queries wins)
    tasks: bool = True  # validate tasks: oracle 1 / noop 0 / near-misses 0 (a browser episode each)
    lint: bool = True  # goal-text lint of the tasks (no browser)
    task_glob: str = "*"
    near_misses: bool = True
    seed: int | None = None  # default: the declaration's
    verbose: bool = False  # one line per job on stderr
    rep: int = 8  # siblings that make a list (their controls are sampled, not all exercised)
    look: str | None = None  # the app's look crawled (apps/_shared/looks.py); None: its default
    # The screen variant crawled (gym_core/variant.py: "lang=de", "theme=dark,density=compact"...); None: the default.
    # A page language other than English adds the check that no page shows English chrome
    # (agent_harness/qa/language.py).
    variant: str | None = None
    # None: jobs in the order they were found; a number: in an order drawn from it (agent_harness/qa/jobqueue.py), so
    # a crawl capped by max_jobs or time_limit_s covers another part of the app under each seed.
    order_seed: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items()}


@dataclass(frozen=True)
class Act:
    """A user action on one element, replayable in a fresh world."""

    op: str  # click | type | select | hover
    path: str
    role: str
    name: str
    text: str = ""

    def describe(self) -> str:
        what = f"{self.role} {self.name!r}" if self.name else f"{self.role} (no name)"
        return {"click": f"click {what}", "hover": f"hover {what}", "type": f"type {self.text!r} into {what}",
                "select": f"choose the next option of {what}", "slide": f"move {what} one step"}[self.op]


@dataclass
class State:
    id: int
    url: str  # path and query
    prefix: tuple[Act, ...]
    template: str
    parent: State | None = None
    start: bool = False
    via: dict | None = None  # the link that leads here, when its target was queued without clicking it
    digest: str = ""
    world_hash: str = ""
    known: set = field(default_factory=set)
    elements: int = 0
    groups: int = 0
    exercised: int = 0
    not_exercised: int = 0
    disabled: int = 0
    defects: int = 0

    def label(self) -> str:
        return " → ".join(a.describe() for a in self.prefix)

    def row(self) -> dict:
        return {"url": self.url, "template": self.template, "prefix": [a.describe() for a in self.prefix],
                "elements": self.elements, "groups": self.groups, "exercised": self.exercised,
                "not_exercised": self.not_exercised, "disabled": self.disabled, "defects": self.defects}

# ------------------------------------------------------------------------ helpers
class Templates:
    """URL -> template: numeric/hex segments become {n}; a segment with many (> 12) values under the same
    parent becomes {s} (slugs: /store/pizza-palace); free-text query values become {q}, numeric ones {n}."""

    def __init__(self, slug_after: int = 12):
        self.children: dict[str, set[str]] = defaultdict(set)
        self.slug_after = slug_after  # distinct values under one parent before a segment counts as a slug

    def __call__(self, url: str) -> str:
        parts = urlsplit(url)
        segs = parts.path.split("/")
        out: list[str] = []
        for s in segs:
            parent = "/".join(out)
            if re.fullmatch(r"[0-9][0-9a-zA-Z_-]*|[0-9a-f]{8,}|[0-9a-f-]{32,36}", s) or re.search(r"\d{2,}", s):
                out.append("{n}")
                continue
            if s:
                self.children[parent].add(s)
                if len(self.children[parent]) > self.slug_after and parent:
                    out.append("{s}")
                    continue
            out.append(s)
        path = "/".join(out) or "/"
        q = []
        for k, v in parse_qsl(parts.query, keep_blank_values=True):
            if k in FREE_TEXT_PARAMS:
                v = "{q}"
            elif v.startswith("/"):
                v = "{url}"  # a return address (?back=/inbox): the same page wherever it returns to
            elif re.fullmatch(r"-?\d+", v):
                v = "{n}"
            q.append(f"{k}={v}")
        return path + ("?" + "&".join(q) if q else "")


def name_shape(name: str) -> str:
    return re.sub(r"\d+", "#", (name or "").lower())[:60]


def group_key(el: dict, templates: Templates) -> tuple:
    """Controls that are the same component share a key: one of them (a few, for lists) is exercised."""
    if el.get("rep"):  # a control of a repeated item (a list row, a card, a long menu): sampled
        return ("R", el["role"], el["rep"]["list"], el["rep"]["inner"])
    if el["role"] == "link" and el.get("href"):
        href = el.get("raw_href") or ""
        if href.startswith(("#", "javascript:")) or href == "":
            return ("L", el["struct"], href[:1], name_shape(el["name"]))
        parts = urlsplit(el["href"])
        target = templates(parts.path + ("?" + parts.query if parts.query else ""))
        return ("L", el["struct"], target, "")
    return ("E", el["role"], el["struct"], name_shape(el["name"]), el["act"])


def world_hash(state: dict) -> str:
    vol = (state.get("_meta") or {}).get("volatile") or {}
    h = hashlib.sha1()
    for table in sorted(k for k in state if k != "_meta"):
        drop = set(vol.get(table, ()))
        rows = state[table]
        if drop:
            rows = [{k: v for k, v in r.items() if k not in drop} for r in rows]
        h.update(table.encode())
        h.update(json.dumps(rows, sort_keys=True, default=str).encode())
    return h.hexdigest()


def pixels_changed(a: bytes, b: bytes, box: list | None, pad: int = 6) -> int:
    """How many pixels differ between two screenshots, outside the element's own box (focus rings,
    pressed looks and hover styles of the control itself do not count)."""
    x, y = png_to_array(a), png_to_array(b)
    if x.shape != y.shape:
        return x.shape[0] * x.shape[1]
    diff = np.any(x != y, axis=2)
    if box:
        bx, by, bw, bh = [int(v) for v in box]
        diff[max(0, by - pad): max(0, by + bh + pad), max(0, bx - pad): max(0, bx + bw + pad)] = False
    return int(diff.sum())

async def quiet(coro) -> None:
    try:
        await coro
    except Exception:  # noqa: BLE001
        pass


def path_of(url: str) -> str:
    p = urlsplit(url)
    return (p.path or "/") + ("?" + p.query if p.query else "")

