"""The mail clone's tools: its everyday operations as typed function calls (see apps/_shared/tools.py)."""

from __future__ import annotations

from apps._shared.tools import ToolSet

TOOLS = ToolSet("mail")
