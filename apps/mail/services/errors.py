"""The one error class of the service layer."""

from __future__ import annotations

from apps._shared.tools import ToolError


class ServiceError(ToolError):
    """An operation refused (unknown id, invalid value). A ToolError, so tools pass its message to the model;
    `status` is the HTTP status a view answers with."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


def plural(n: int, one: str, many: str) -> str:
    """The message for `n` things, in the page's UI language where a page asks (apps/_shared/i18n.py; a tool's
    answer, outside a page's request, stays English)."""
    from apps._shared.i18n import gettext

    return gettext(one) if n == 1 else gettext(many).replace("{n}", f"{n:,}")
