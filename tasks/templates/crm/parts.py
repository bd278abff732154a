"""The CRM template helpers other template packages use (the workspace's cross-app templates): the public face of
`_common`, so a helper has one definition and its users a public name."""

from tasks.templates.crm._common import (  # noqa: F401
    DIALOG, ME, Crm, allow_create, allow_update, button, call, fill, find, lookup, menuitem, open_record, pick, save_modal,
    tab,
)

__all__ = ["DIALOG", "ME", "Crm", "allow_create", "allow_update", "button", "call", "fill", "find", "lookup", "menuitem",
           "open_record", "pick", "save_modal", "tab"]
