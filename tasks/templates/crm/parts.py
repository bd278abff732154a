"""The CRM template helpers other template packages use (the workspace's cross-app templates): the public face of
`_common`, so a helper has one definition and its users a public name."""

from tasks.templates.crm._common import (  # noqa: F401
    DIALOG, ME, Crm, allow_create, allow_update, button, call, fill, find, iso, lookup, mdy, menuitem, money, open_record,
    pick, save_modal, tab,
)

__all__ = ["DIALOG", "ME", "Crm", "allow_create", "allow_update", "button", "call", "close_as", "email_composer", "fill", "find", "iso",
           "lookup", "mdy", "menuitem", "money", "open_record", "pick", "save_modal", "tab"]


def close_as(stage: str) -> list[dict]:
    """On an opportunity's page: the Closed step of the path, Select Closed Stage, the closed stage (Closed Won or
    Closed Lost) picked and saved."""
    return [{"click": {"role": "option", "name": "Closed", "exact": True}}, button("Select Closed Stage"),
            *pick("Stage", stage), save_modal()]


def email_composer(subject: str, body: str) -> list[dict]:
    """On a record's page: the Email composer's tab, the subject and body, Send (the email logged as the record's
    activity; nothing goes through the mailbox)."""
    return [tab("Email"), fill("Subject", subject, within=None), fill("Body", body, within=None), button("Send")]
