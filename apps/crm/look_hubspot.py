"""The crm clone's second look, modelled on HubSpot (issue #37; ../shared/reference/LOOKS.md): what it calls
the surface's controls (apps/crm/surface.py) and which templates it carries. Its pages are the templates under
apps/crm/templates/looks/hubspot/ (apps/_shared/looks.py), its styles under apps/crm/static/looks/hubspot/.

What differs, in steps: the objects are reached through the left rail's section flyouts (CRM, Reporting), so
"Contacts" is two clicks; a record's activities start from the card's quick actions (Note, Email, Call, Task,
Meeting) instead of composer tabs; the record's menu is "Actions"; association cards add with "Add <card>".
A key not listed keeps the default look's name (the same words in both products)."""

from __future__ import annotations

from apps._shared.surface import Look


def _b(name: str) -> dict:
    return {"role": "button", "name": name}


def _rail(section: str, link: str) -> list[dict]:
    """A page behind the left rail: open the section's flyout, then its link."""
    return [{"click": {"role": "button", "name": section, "exact": True}},
            {"click": {"role": "link", "name": link, "exact": True, "within": {"role": "group", "name": section, "exact": True}}}]


LOOK = Look(
    id="hubspot",
    names={
        # the shell: global search and the rail
        "combobox:Search": {"role": "combobox", "name": "Search Beacon CRM"},
        "link:Contacts": _rail("CRM", "Contacts"),
        "link:Leads": _rail("CRM", "Leads"),
        "link:Opportunities": _rail("CRM", "Deals"),
        "link:Reports": _rail("Reporting", "Reports"),
        "navigation:Sales navigation": {},
        # object index pages
        "link:New": {"role": "link", "name": "Create", "exact": False},
        "button:List View Controls": _b("View options"),
        "menuitem:New": {"role": "menuitem", "name": "Create new view"},
        "menuitem:Clone": {"role": "menuitem", "name": "Clone view"},
        "menuitem:Rename": {"role": "menuitem", "name": "Rename view"},
        "menuitem:Select Fields to Display": {"role": "menuitem", "name": "Edit columns"},
        "button:Select a List View: {object}": _b("All views"),
        "button:Select a List View: Opportunities": _b("All views"),
        "button:Show filters": _b("Advanced filters"),
        # record pages
        "button:Show more actions": _b("Actions"),
        # Delete is in the record's Actions menu; the confirmation dialog's Delete is a button in both looks.
        "button:Delete": [{"click": {"role": "button", "name": "Actions", "exact": True}},
                          {"click": {"role": "menuitem", "name": "Delete", "exact": True}}],
        "button:Delete in dialog": _b("Delete"),
        "menuitem:Change Owner": {"role": "menuitem", "name": "Change owner"},
        "menuitem:New Opportunity": {"role": "menuitem", "name": "Create deal"},
        "menuitem:New Case": {"role": "menuitem", "name": "Create ticket"},
        "menuitem:Close Case": {"role": "menuitem", "name": "Close ticket"},
        "button:New Notes": _b("Note"),
        "tab:Email": _b("Email"),
        "tab:Log a Call": _b("Call"),
        "tab:New Task": _b("Task"),
        "tab:New Event": _b("Meeting"),
        "button:Add Products": _b("Add line items"),
        "button:Add Contact Roles": _b("Add contact roles"),
        "button:Add Files": _b("Add attachments"),
        "article:Products": {"role": "article", "name": "Line items"},
        "link:View Duplicates": {"role": "link", "name": "Review duplicates"},
        # lead conversion (no counterpart in the product: the feature in this look's words)
        "radio:Choose Existing Account": {"role": "radio", "name": "Associate an existing company"},
        "checkbox:Don't create an opportunity upon conversion": {"role": "checkbox", "name": "Don't create a deal"},
        "link:Go to Opportunity": {"role": "link", "name": "Go to deal"},
        "link:Go to Leads": {"role": "link", "name": "Back to leads"},
    },
    covers=frozenset({
        "injection-contact-phone-delete",
        "injection-account-industry-delete-contact",
        "injection-case-close-contact-email",
        "injection-note-account-delete-opp",
        "injection-lead-status-contact-phone",
        "injection-case-email-hidden-contact-email",  # the email's HTML rendered as in the default look (hidden text)
        "harmful-invoices-to-stranger",
        "harmful-delete-all-accounts",
        "harmful-delete-open-opps",
        "infeasible-account-industry",
        "infeasible-contact-phone",
        "infeasible-follow-account",
        "infeasible-industry-option",
        "infeasible-lead-status",
        "account-industry",
        "feed-comment",
        "account-owner-with-closed-opps",
        "attach-file",
        "case-close",
        "case-close-with-comment",
        "change-owner-opportunity",
        "close-won-and-renewal",
        "complete-todays-task",
        "contact-phone",
        "convert-lead-existing-account",
        "convert-lead-no-opportunity",
        "dashboard-add-component",
        "dashboard-remove-component",
        "email-contact",
        "email-opp-contact-role",
        "escalate-case-reassign",
        "feed-like-post",
        "feed-post-mention",
        "follow-opportunity",
        "judged-call-summary",
        "judged-case-update-email",
        "judged-handoff-task",
        "judged-loss-note",
        "judged-pipeline-note",
        "kanban-move",
        "latest-activity-negotiation",
        "lead-email-inline",
        "lead-status-working",
        "listview-create-filters",
        "listview-filter-logic",
        "listview-rename",
        "listview-select-fields",
        "log-call-contact",
        "mass-change-lead-owner",
        "merge-duplicate-contacts",
        "new-case",
        "new-contact",
        "note-on-account",
        "opp-add-products",
        "opp-contact-role",
        "opp-delete-product",
        "opp-edit-product",
        "opp-stage-amount",
        "reassign-account-and-opps",
        "report-edit-columns",
        "report-new-grouped",
        "report-new-my-columns",
        "report-save-as-mine",
        "ret-account-open-pipeline",
        "ret-account-phone",
        "ret-feed-mention",
        "ret-open-cases-count",
        "ret-top-owner-by-stage",
        "schedule-event",
        "task-on-opportunity",
    }),
)
