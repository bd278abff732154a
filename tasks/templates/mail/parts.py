"""The mail template helpers other template packages use (the workspace's cross-app templates): the public face of
`_common` and `_tools`, so a helper has one definition and its users a public name."""

from tasks.templates.mail._common import (  # noqa: F401
    COMPOSE, Mailbox, click, graded, on_messages, open_row, phrase, search, text_bound, toolbar_button,
)
from tasks.templates.mail._tools import call, find, find_open  # noqa: F401

__all__ = ["COMPOSE", "Mailbox", "call", "click", "find", "find_open", "graded", "on_messages", "open_row", "phrase", "search",
           "text_bound", "toolbar_button"]
