"""The mail clone's second look, modelled on Outlook on the web (issue #37; ../shared/reference/LOOKS.md): what it calls
the surface's controls (apps/mail/surface.py) and which templates it carries. Its pages are the templates under
apps/mail/templates/looks/outlook/ (apps/_shared/looks.py), its styles under apps/mail/static/looks/outlook/.

Outlook's words where they differ from the default look's: "New mail" for Compose, "Search" for the search box,
folders named Sent Items / Junk Email / Deleted Items, "Report junk" / "Not junk", "Permanently delete", a flag for
the star, "Categorize" (categories are the world's labels: a conversation may carry several), the ribbon's "More
options" overflow and the folder pane's "More options" (the less used folders), an invitation's Accept / Tentative /
Decline, and rules for filters ("Create rule" in the search options opens Outlook's "Create a rule" editor)."""

from __future__ import annotations

from apps._shared.surface import Look


def _t(role: str, name: str, exact: bool = True) -> dict:
    return {"role": role, "name": name, "exact": exact}


LOOK = Look(
    id="outlook",
    names={
        # app bar
        "searchbox:Search mail": _t("searchbox", "Search"),
        "button:Advanced search options": _t("button", "Search options"),
        "button:Inkbox apps": _t("button", "App launcher"),
        "menuitem:Contacts": _t("menuitem", "People"),
        "link:See all settings": _t("link", "View all settings"),
        # ribbon
        "button:Compose": _t("button", "New mail"),
        "button:Report spam": _t("button", "Report junk"),
        "button:Not spam": _t("button", "Not junk"),
        "button:Delete forever": _t("button", "Permanently delete"),
        "button:Labels": _t("button", "Categorize"),
        "button:More": _t("button", "More options"),
        "menuitem:Mark as important": _t("menuitem", "Mark as high importance"),
        "menuitem:Mute": _t("menuitem", "Ignore conversation"),
        "menuitem:Unmute": _t("menuitem", "Stop ignoring"),
        "menuitem:Add star": _t("menuitem", "Flag"),
        # the message list
        "button:Star": _t("button", "Flag this message"),
        "button:Empty Trash now": _t("button", "Empty folder"),
        "button:Delete all spam messages now": _t("button", "Empty folder"),
        # the search options' "Create a rule" editor (Outlook's rules; the default look's filters)
        "button:Create filter": _t("button", "Create rule"),
        "checkbox:Skip the Inbox (Archive it)": _t("checkbox", "Move to Archive"),
        "checkbox:Star it": _t("checkbox", "Flag it"),
        "checkbox:Delete it": _t("checkbox", "Delete"),
        "checkbox:Also apply filter to": _t("checkbox", "Run rule now"),
        "button:Choose label": _t("button", "Choose category", exact=False),
        "textbox:Forward it to address": _t("textbox", "Forward to address"),
        # an invitation's response bar in the reading pane
        "group:Going?": _t("group", "Respond to this invitation"),
        "button:Yes": _t("button", "Accept"),
        "button:Maybe": _t("button", "Tentative"),
        "button:No": _t("button", "Decline"),
        # the folder pane
        "navigation:Mailboxes": _t("navigation", "Folders"),
        "link:Sent": _t("link", "Sent Items", exact=False),
        "link:Spam": _t("link", "Junk Email", exact=False),
        "link:Trash": _t("link", "Deleted Items", exact=False),
        "button:Create new label": _t("button", "Create new category"),
        "button:Options for label {lid}": _t("button", "Options for category {lid}"),
        "menuitem:Label color": _t("menuitem", "Category color"),
        "menuitem:Remove label": _t("menuitem", "Delete category"),
    },
    # Proven in this look: `uigym tasks validate --tasks 'mail/<template>-*' --look outlook` (every task: oracle 1,
    # noop 0, near-misses 0, adversarial variants 0, harmless variants 1).
    covers=frozenset({
        "injection-reply-invoice-phish",
        "injection-reply-trash-thread",
        "injection-reply-hidden-forward",
        "injection-reply-contact-email",
        "injection-reply-contacts-outside",
        # issue #39, judgement tasks (the first instance of each validated in the look)
        "harmful-contacts-to-outside",
        "harmful-delete-inbox",
        "harmful-forward-invoices-outside",
        "infeasible-email-unknown-contact",
        "infeasible-forward-missing-invoice",
        "infeasible-reply-missing-thread",
        "infeasible-star-missing-subject",
        "infeasible-unsend-old",
        # issue #37, second looks: Outlook's response bar, the ribbon's Reply, the notification under the menus, the
        # "Create a rule" editor (every instance of each validated in the look)
        "rsvp-invite",
        "reply-bold-phrase",
        "reply-bcc",
        "delete-label",
        "create-filter",
        "filter-unless-words",
        "cleanup-sender",
        # the default look's pieces, in this chrome: the compose (its commands now on top), the Undo notification,
        # the vacation responder in Settings > General, and the five judged compositions
        "send-with-attachment",
        "undo-send-fix-recipient",
        "vacation-responder",
        "judged-introduction",
        "judged-thank-you",
        "judged-answer-question",
        "judged-vacation-message",
        "judged-decline-invite",
        "unblock",
        "flight-seat",
        "trip-question",
        "latest-attachment-name",
        "inbox-settings",
        "snooze-custom",
        "vendor-contract-invoice",
        "move-domain-to-label",
        "delete-large-inbox",
        "add-contact",
        "apply-label",
        "archive-all-from-sender",
        "archive-conversation",
        "archive-from-either",
        "archive-newest-in-label",
        "block-sender",
        "bulk-mark-read-label",
        "cancel-scheduled",
        "contact-phone",
        "create-nested-label",
        "delete-conversation",
        "delete-one-message",
        "edit-contact",
        "empty-folder",
        "find-and-restore",
        "forward-invoice-amount",
        "general-settings",
        "invoice-amount",
        "label-color",
        "mark-important",
        "mark-unread",
        "mute-conversation",
        "not-spam",
        "rename-label",
        "reply-all-with-attachment",
        "reply-with-date",
        "reply-with-text",
        "report-spam",
        "restore-from-trash",
        "save-draft",
        "schedule-send",
        "send-draft",
        "send-new-email",
        "signature",
        "snooze-preset",
        "star-latest-from",
        "unmute-from-sender",
        "unread-count",
        "unsnooze",
        "who-sent-subject",
    }),
)
