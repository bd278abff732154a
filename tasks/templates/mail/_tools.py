"""Tool mode for mail templates: the calls a tool-using agent makes (apps/mail/tools.py), as a task's `tools`
plan (tasks/schema.py ToolPlan): the gold calls, then near-misses that make the UI near-misses' mistakes."""

from __future__ import annotations

from typing import Any

from tasks.templates.mail._common import phrase


def call(tool: str, **args: Any) -> dict[str, Any]:
    return {"tool": tool, "args": args}


def finish(answer: str | None = None) -> dict[str, Any]:
    return call("done", answer=answer) if answer is not None else call("done")


def find(query: str, **opts: Any) -> dict[str, Any]:
    return call("search_mail", query=query, **opts)


def find_open(subject: str, tid: int, scope: str = "") -> list[dict[str, Any]]:
    """Search a conversation by its subject (within `scope`, e.g. 'in:trash') and open it."""
    return [find(f"{scope} {phrase(subject)}".strip()), call("read_conversation", thread_id=tid)]


def plan(solution: list[dict], *near_misses: list[dict]) -> dict[str, Any]:
    """A ToolPlan: each trajectory ends with `done` (added when missing)."""
    def ended(calls: list[dict]) -> list[dict]:
        return calls if calls and calls[-1]["tool"] == "done" else [*calls, finish()]

    return {"solution": ended(solution), "near_misses": [ended(n) for n in near_misses]}
