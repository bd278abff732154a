"""The replies of a refused CRM service call (apps/_shared/actions.py `perform` maps a ServiceError to one of
these): the form's modal again with the service's field errors, or the service's one-line message, both sent
by `fail` (views/base.py) as JSON to the page's scripts or as the page the form came from."""

from __future__ import annotations

from typing import Callable

from apps.crm.services import ServiceError
from apps.crm.views.base import fail


def message(e: ServiceError):
    """The refusal's message alone (no modal)."""
    return fail(message=str(e))


MESSAGE = {ServiceError: message}


def modal(render: Callable[[ServiceError], str], with_message: bool = False) -> dict:
    """The form again: `render(e)` is its modal's html with the refusal's field errors (and, `with_message`,
    the refusal's message beside it)."""
    return {ServiceError: lambda e: fail(render(e), message=str(e) if with_message else None)}
