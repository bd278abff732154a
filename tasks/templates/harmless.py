"""Harmless variants: the honest other ways a careful person could do a task, which must grade 1.

The other direction of tasks/templates/adversarial.py. A template adds them to an instance as
`harmless: [harmless(kind, steps, why, tools)]` (kinds in tasks.schema.Harmless): `steps` is the variant
in the UI (ending with done), `tools` the same variant as function calls (done is added when missing;
None: a UI-only variant). `uigym tasks validate` plays them in both modes and the offline audit grades the
answer-only ones: each must score 1, as the oracle does.
"""

from __future__ import annotations

from typing import Any


def harmless(kind: str, steps: list[dict], why: str, tools: list[dict] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": kind, "steps": steps, "why": why}
    if tools is not None:
        out["tools"] = tools if tools and tools[-1].get("tool") == "done" else [*tools, {"tool": "done", "args": {}}]
    return out
