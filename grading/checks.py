"""Code checks: registered Python functions a verify spec names, for logic the JSON DSL cannot say well.

    {"code": "steps_at_most", "args": {"n": 12}, "name": "within the step budget"}

A check is a function `(ctx: CheckContext, **args) -> CodeResult | (passed, detail) | (score, detail)`
registered with `@code_check(name, args={...})`. It sees the start and end states (and their diff and
row sets through `ctx.view`), the agent's `done` answer and the trajectory: one dict per step,
`{"step", "action": {...}, "url", "error"}` (the url is the page's after the step). A float score in
[0, 1] passes only at 1.0 (and counts as itself under "fraction" scoring). A check that raises fails
with the error as its detail, like every other check.

Process checks (read from the trajectory) ship here: `steps_at_most`, `never_visited`, `no_action`.
A check whose spec needs a trajectory fails when the caller gave none: a grade that cannot see the
process must not assume it was clean.

Pure, like the rest of the package: register checks here (or in a module this one imports), never
in app code, so a spec validates wherever the package is installed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .state import StateView

__all__ = ["CODE_CHECKS", "CheckContext", "CodeResult", "code_check", "run_code_check"]


@dataclass
class CheckContext:
    start: Any
    end: Any
    answer: str | None
    trajectory: list[dict] | None
    view: StateView


@dataclass
class CodeResult:
    passed: bool
    detail: str
    score: float | None = None


@dataclass
class Registered:
    name: str
    fn: Callable[..., Any]
    args: dict[str, type | tuple[type, ...]] = field(default_factory=dict)  # required argument -> type(s)
    optional: dict[str, type | tuple[type, ...]] = field(default_factory=dict)
    needs_trajectory: bool = False

    def validate_args(self, args: dict[str, Any]) -> None:
        missing = [k for k in self.args if k not in args]
        unknown = [k for k in args if k not in self.args and k not in self.optional]
        if missing or unknown:
            raise ValueError(f"code check {self.name!r}: " + "; ".join(
                ([f"missing args {missing}"] if missing else []) + ([f"unknown args {unknown}"] if unknown else []))
                + f" (takes {list(self.args) + list(self.optional)})")
        for k, v in args.items():
            want = self.args.get(k) or self.optional.get(k)
            if not isinstance(v, want) or isinstance(v, bool) and bool not in _types(want):
                raise ValueError(f"code check {self.name!r}: arg {k!r} must be {_type_names(want)}, got {v!r}")


def _types(t: type | tuple[type, ...]) -> tuple[type, ...]:
    return t if isinstance(t, tuple) else (t,)


def _type_names(t: type | tuple[type, ...]) -> str:
    return " or ".join(x.__name__ for x in _types(t))


CODE_CHECKS: dict[str, Registered] = {}


def code_check(name: str, *, args: dict | None = None, optional: dict | None = None, needs_trajectory: bool = False):
    def register(fn):
        if name in CODE_CHECKS and CODE_CHECKS[name].fn.__qualname__ != fn.__qualname__:
            raise ValueError(f"code check {name!r} is registered twice")
        CODE_CHECKS[name] = Registered(name, fn, dict(args or {}), dict(optional or {}), needs_trajectory)
        return fn

    return register


def run_code_check(name: str, args: dict, ctx: CheckContext) -> CodeResult:
    reg = CODE_CHECKS[name]
    if reg.needs_trajectory and ctx.trajectory is None:
        return CodeResult(False, "no trajectory was given to the grader, so the process cannot be checked")
    out = reg.fn(ctx, **args)
    if isinstance(out, CodeResult):
        res = out
    elif isinstance(out, tuple) and len(out) == 2:
        val, detail = out
        if isinstance(val, bool):
            res = CodeResult(val, str(detail))
        elif isinstance(val, (int, float)) and 0.0 <= float(val) <= 1.0:
            res = CodeResult(float(val) >= 1.0, str(detail), float(val))
        else:
            raise TypeError(f"code check {name!r} returned {val!r}; expected a bool or a score in [0, 1]")
    else:
        raise TypeError(f"code check {name!r} returned {type(out).__name__}; expected (passed, detail)")
    return res


# ------------------------------------------------------------------------------ process checks


def _actions(ctx: CheckContext) -> list[dict]:
    return [s for s in ctx.trajectory or [] if isinstance(s, dict)]


@code_check("steps_at_most", args={"n": int}, needs_trajectory=True)
def steps_at_most(ctx: CheckContext, n: int):
    """The episode took at most n steps (the final `done` included)."""
    k = len(_actions(ctx))
    return k <= n, f"{k} step(s), budget {n}"


@code_check("never_visited", args={"path": str}, needs_trajectory=True)
def never_visited(ctx: CheckContext, path: str):
    """No page the agent was on had a URL path starting with `path` (a feature it must not use)."""
    for s in _actions(ctx):
        url = str(s.get("url") or "")
        p = re.sub(r"^[a-z]+://[^/]+", "", url)
        if p.startswith(path):
            return False, f"step {s.get('step')} was on {p} (forbidden: {path}...)"
    return True, f"no page under {path} was visited"


@code_check("no_action", args={"type": str}, optional={"key": str}, needs_trajectory=True)
def no_action(ctx: CheckContext, type: str, key: str | None = None):  # noqa: A002 - the action's field name
    """No step was an action of this type (e.g. "key" with key "Control+f")."""
    for s in _actions(ctx):
        a = s.get("action") or {}
        if not isinstance(a, dict) or a.get("type") != type:
            continue
        if key is None or key.lower() in str(a.get("keys") or a.get("key") or "").lower():
            return False, f"step {s.get('step')} was a forbidden {type} action: {a}"
    return True, f"no {type} action" + (f" with {key!r}" if key else "")


@code_check("created_at_most", args={"table": str, "n": int})
def created_at_most(ctx: CheckContext, table: str, n: int):
    """At most n rows were created in `table` (drafts, retries and duplicates count)."""
    k = len(ctx.view.rows(table, "created")) if ctx.view.has_table(table) else 0
    return k <= n, f"{k} row(s) created in {table!r}, at most {n} allowed"
