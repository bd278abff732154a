"""Forkful's service layer: the operations a user performs, as functions over the world's session.

The UI's views and the tools (apps/food/tools.py) call the same functions, so a rule (a validation, a fee,
a side effect) lives once. A service validates before it writes and never commits: the caller does (a view
after the call, the tool wrapper automatically), and on an `Invalid` the caller decides: a view shows the
message (and may keep what it already applied, as the checkout page does), a tool call rolls back.

Modules: `state` (the user, the cart: per-request lookups), `cart`, `checkout`, `orders`, `account`
(profile, addresses, cards, Plus, gift cards, notifications, saved stores), `catalog` (read-only search,
stores, menus, offers: what the tools read; imported by tools only).
"""

from __future__ import annotations

from apps._shared.tools import ToolError


class Invalid(ToolError):
    """A mistake the UI shows as a message and a tool returns as its error; the caller commits nothing."""


class NotFound(Invalid):
    """An unknown id (the UI answers 404)."""


class Conflict(Invalid):
    """The cart holds another store's items (the UI asks "Start a new cart?")."""

    def __init__(self, msg: str, current_store: str, new_store: str = ""):
        super().__init__(msg)
        self.current_store = current_store
        self.new_store = new_store


class FormInvalid(Invalid):
    """Several fields are wrong at once (a card, an address, the profile): `errors` maps field -> message."""

    def __init__(self, errors: dict[str, str]):
        super().__init__(" ".join(f"{k}: {v}" for k, v in errors.items()))
        self.errors = errors
