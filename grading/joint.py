"""The joint state of several worlds graded as one: `{app: state}` -> one state whose tables are `<app>.<table>`.

A cross-app task (the workspace: mail, food and crm over one cast) is graded by the same engine as a single-app
one: its checks name `crm.cases` or `mail.messages`, its `$ref`s reach across apps, and its one `unchanged_except`
list is each app's side-effect rule at once (a change in any app's table that no allowance covers fails it).
Pure JSON, like the rest of the package.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .diff import META

__all__ = ["SEP", "joint_state", "split_table"]

SEP = "."  # <app>.<table>: no app's table name has a dot


def joint_state(states: Mapping[str, Any]) -> dict[str, Any]:
    """`{app: state}` -> one state: every table as `<app>.<table>`, `_meta.volatile` likewise, and `_meta.apps`
    keeping each app's own `_meta`."""
    out: dict[str, Any] = {}
    volatile: dict[str, list[str]] = {}
    metas: dict[str, Any] = {}
    for app, state in states.items():
        if not isinstance(state, Mapping):
            continue
        meta = state.get(META) if isinstance(state.get(META), Mapping) else {}
        metas[app] = dict(meta)
        for table, fields in (meta.get("volatile") or {}).items():
            volatile[f"{app}{SEP}{table}"] = list(fields)
        for table, rows in state.items():
            if table != META and isinstance(table, str) and not table.startswith("_"):
                out[f"{app}{SEP}{table}"] = rows
    first = next(iter(metas.values()), {})
    out[META] = {"app": "workspace", "seed": first.get("seed"), "now": first.get("now"), "volatile": volatile,
                 "apps": metas}
    return out


def split_table(name: str) -> tuple[str, str]:
    """'crm.cases' -> ('crm', 'cases'); ValueError for a name without an app."""
    app, sep, table = name.partition(SEP)
    if not sep or not app or not table:
        raise ValueError(f"a joint state's table is named <app>{SEP}<table>, got {name!r}")
    return app, table
