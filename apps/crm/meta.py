"""What the CRM knows about its objects: fields, picklists, page layouts, list columns, icons.

Every page (record detail, edit modal, list view, filters, reports) is rendered from this metadata,
the way Salesforce renders from its object model. Field types:

    text, textarea, email, phone, url, number, currency (whole dollars), percent, date, datetime,
    checkbox, picklist (options), lookup (ref: one object, or several for Name / Related To),
    user (lookup to User), name (virtual: salutation + first + last), address (virtual: 5 columns),
    formula (read-only, computed)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from apps.crm import models as m
from domain.crm import LEAD_STATUSES, STAGE_FORECAST, STAGE_PROBABILITY, STAGES
from seed_data.crm import vocab

_SALES = vocab("sales")
_COMP = vocab("companies")

INDUSTRIES = sorted(_COMP["industries"])
ACCOUNT_TYPES = ["Prospect", "Customer - Direct", "Customer - Channel", "Channel Partner / Reseller",
                 "Installation Partner", "Technology Partner", "Other"]
RATINGS = ["Hot", "Warm", "Cold"]
OWNERSHIP = ["Public", "Private", "Subsidiary", "Other"]
SALUTATIONS = ["Mr.", "Ms.", "Mrs.", "Dr.", "Prof."]
LEAD_SOURCES = ["Web", "Phone Inquiry", "Partner Referral", "Purchased List", "Trade Show", "Advertisement",
                "Employee Referral", "External Referral", "Webinar", "Other"]
OPP_TYPES = ["New Customer", "Existing Customer - Upgrade", "Existing Customer - Replacement",
             "Existing Customer - Downgrade"]
FORECAST = ["Pipeline", "Best Case", "Commit", "Closed", "Omitted"]
LOSS_REASONS = _SALES["loss_reasons"]
CASE_STATUSES = ["New", "Working", "Escalated", "Closed"]
CASE_PRIORITIES = ["High", "Medium", "Low"]
CASE_ORIGINS = ["Phone", "Email", "Web"]
CASE_TYPES = ["Problem", "Question", "Feature Request"]
CASE_REASONS = _SALES["case_reasons"]
TASK_STATUSES = ["Not Started", "In Progress", "Completed", "Waiting on someone else", "Deferred"]
TASK_PRIORITIES = ["High", "Normal", "Low"]
CONTACT_ROLES = _SALES["contact_roles"]
GUIDANCE = _SALES["guidance"]


@dataclass
class Field:
    name: str
    label: str
    type: str = "text"
    required: bool = False
    options: list[str] | None = None
    ref: tuple[str, ...] = ()  # lookup target object(s)
    readonly: bool = False
    max_length: int = 255
    help: str = ""
    sortable: bool = True
    filterable: bool = True
    # The column(s) behind the field (name/address fields span several).
    columns: tuple[str, ...] = ()

    @property
    def cols(self) -> tuple[str, ...]:
        return self.columns or (self.name,)

    def rank(self, value) -> int:
        """A picklist value's place in its picklist: the sort key of every list view, related list and report
        that sorts or groups by the field (Salesforce sorts picklists by their defined order, not A-Z). Blank
        comes first, a value the picklist does not (or no longer) define after the defined ones."""
        opts = self.options or []
        if value is None or value == "":
            return -1
        return opts.index(value) if value in opts else len(opts)


@dataclass
class ObjectMeta:
    api: str  # Lead
    label: str  # Lead
    plural: str  # Leads
    model: Any
    icon: str  # standard:lead
    fields: list[Field]
    layout: list[tuple[str, list[str | None]]]  # (section, fields row-major, two columns)
    list_columns: list[str]
    highlights: list[str]
    name_field: str = "name"  # the field shown as the record's name
    search_fields: tuple[str, ...] = ()
    default_list: str = ""
    path_field: str | None = None
    related: list[str] = field(default_factory=list)
    color: str = ""

    def field(self, name: str) -> Field:
        return self.by_name[name]

    @property
    def by_name(self) -> dict[str, Field]:
        if not hasattr(self, "_by_name"):
            self._by_name = {f.name: f for f in self.fields}
        return self._by_name

    @property
    def table(self) -> str:
        return self.model.__tablename__


def F(name, label, type="text", **kw) -> Field:
    return Field(name, label, type, **kw)


NAME = lambda: F("name", "Name", "name", required=True, columns=("salutation", "first_name", "last_name"))  # noqa: E731
OWNER = lambda label: F("owner_id", label, "user", required=True, ref=("User",))  # noqa: E731
SYSTEM = [
    F("created_by_id", "Created By", "user", readonly=True, ref=("User",), filterable=False),
    F("created_at", "Created Date", "datetime", readonly=True),
    F("last_modified_by_id", "Last Modified By", "user", readonly=True, ref=("User",), filterable=False),
    F("updated_at", "Last Modified Date", "datetime", readonly=True),
]

LEAD = ObjectMeta(
    api="Lead", label="Lead", plural="Leads", model=m.Lead, icon="standard:lead",
    fields=[
        NAME(), F("salutation", "Salutation", "picklist", options=SALUTATIONS, filterable=False),
        F("first_name", "First Name", max_length=40), F("last_name", "Last Name", required=True, max_length=80),
        F("company", "Company", required=True), F("title", "Title", max_length=120),
        F("email", "Email", "email"), F("phone", "Phone", "phone"), F("mobile", "Mobile", "phone"),
        F("website", "Website", "url"),
        F("status", "Lead Status", "picklist", required=True, options=LEAD_STATUSES),
        F("lead_source", "Lead Source", "picklist", options=LEAD_SOURCES),
        F("industry", "Industry", "picklist", options=INDUSTRIES), F("rating", "Rating", "picklist", options=RATINGS),
        F("annual_revenue", "Annual Revenue", "currency"), F("employees", "No. of Employees", "number"),
        F("address", "Address", "address", columns=("street", "city", "state", "postal_code", "country"), sortable=False, filterable=False),
        F("street", "Street"), F("city", "City"), F("state", "State/Province"), F("postal_code", "Zip/Postal Code"),
        F("country", "Country"), F("description", "Description", "textarea", max_length=32000),
        OWNER("Lead Owner"), F("is_converted", "Converted", "checkbox", readonly=True),
        F("converted_date", "Converted Date", "date", readonly=True), *SYSTEM,
    ],
    layout=[
        ("Lead Information", ["owner_id", "phone", "name", "mobile", "company", "email", "title", "website",
                              "lead_source", "status", "industry", "rating", "annual_revenue", "employees"]),
        ("Address Information", ["address", None]),
        ("Additional Information", ["description", None]),
    ],
    list_columns=["name", "title", "company", "phone", "email", "status", "created_at", "owner_id"],
    highlights=["title", "company", "phone", "email"],
    search_fields=("first_name", "last_name", "company", "email", "phone", "city", "state", "country", "industry", "title"),
    default_list="RecentlyViewedLeads", path_field="status",
    related=["Task:who", "Event:who", "Note", "File"],
)

ACCOUNT = ObjectMeta(
    api="Account", label="Account", plural="Accounts", model=m.Account, icon="standard:account",
    fields=[
        F("name", "Account Name", required=True), F("account_number", "Account Number", max_length=40),
        F("type", "Type", "picklist", options=ACCOUNT_TYPES), F("industry", "Industry", "picklist", options=INDUSTRIES),
        F("rating", "Rating", "picklist", options=RATINGS), F("phone", "Phone", "phone"),
        F("website", "Website", "url"), F("annual_revenue", "Annual Revenue", "currency"),
        F("employees", "Employees", "number"), F("ownership", "Ownership", "picklist", options=OWNERSHIP),
        F("parent_id", "Parent Account", "lookup", ref=("Account",)),
        F("billing_address", "Billing Address", "address", sortable=False, filterable=False,
          columns=("billing_street", "billing_city", "billing_state", "billing_postal_code", "billing_country")),
        F("billing_street", "Billing Street"), F("billing_city", "Billing City"),
        F("billing_state", "Billing State/Province"), F("billing_postal_code", "Billing Zip/Postal Code"),
        F("billing_country", "Billing Country"),
        F("description", "Description", "textarea", max_length=32000), OWNER("Account Owner"), *SYSTEM,
    ],
    layout=[
        ("Account Information", ["owner_id", "rating", "name", "phone", "parent_id", "website", "account_number",
                                 "type", "industry", "ownership", "annual_revenue", "employees"]),
        ("Address Information", ["billing_address", None]),
        ("Description Information", ["description", None]),
    ],
    list_columns=["name", "billing_city", "billing_state", "phone", "type", "industry", "owner_id"],
    highlights=["type", "phone", "website", "industry", "owner_id"],
    search_fields=("name", "phone", "website", "industry", "billing_city", "billing_state", "billing_country", "account_number"),
    default_list="RecentlyViewedAccounts",
    related=["Contact", "Opportunity", "Case", "Task:what", "Event:what", "Note", "File"],
)

CONTACT = ObjectMeta(
    api="Contact", label="Contact", plural="Contacts", model=m.Contact, icon="standard:contact",
    fields=[
        NAME(), F("salutation", "Salutation", "picklist", options=SALUTATIONS, filterable=False),
        F("first_name", "First Name", max_length=40), F("last_name", "Last Name", required=True, max_length=80),
        F("account_id", "Account Name", "lookup", ref=("Account",)), F("title", "Title", max_length=120),
        F("department", "Department", max_length=80), F("email", "Email", "email"), F("phone", "Phone", "phone"),
        F("mobile", "Mobile", "phone"), F("reports_to_id", "Reports To", "lookup", ref=("Contact",)),
        F("lead_source", "Lead Source", "picklist", options=LEAD_SOURCES), F("birthdate", "Birthdate", "date"),
        F("mailing_address", "Mailing Address", "address", sortable=False, filterable=False,
          columns=("mailing_street", "mailing_city", "mailing_state", "mailing_postal_code", "mailing_country")),
        F("mailing_street", "Mailing Street"), F("mailing_city", "Mailing City"),
        F("mailing_state", "Mailing State/Province"), F("mailing_postal_code", "Mailing Zip/Postal Code"),
        F("mailing_country", "Mailing Country"),
        F("description", "Description", "textarea", max_length=32000), OWNER("Contact Owner"), *SYSTEM,
    ],
    layout=[
        ("Contact Information", ["owner_id", "phone", "name", "mobile", "account_id", "email", "title",
                                 "reports_to_id", "department", "birthdate", "lead_source", None]),
        ("Address Information", ["mailing_address", None]),
        ("Additional Information", ["description", None]),
    ],
    list_columns=["name", "account_id", "title", "phone", "email", "owner_id"],
    highlights=["title", "account_id", "phone", "email", "owner_id"],
    search_fields=("first_name", "last_name", "email", "phone", "mobile", "title", "mailing_city", "mailing_state", "mailing_country"),
    default_list="RecentlyViewedContacts",
    related=["Opportunity:role", "Case", "Task:who", "Event:who", "Note", "File"],
)

OPPORTUNITY = ObjectMeta(
    api="Opportunity", label="Opportunity", plural="Opportunities", model=m.Opportunity, icon="standard:opportunity",
    fields=[
        F("name", "Opportunity Name", required=True, max_length=120),
        F("account_id", "Account Name", "lookup", ref=("Account",)), F("amount", "Amount", "currency"),
        F("close_date", "Close Date", "date", required=True),
        F("stage", "Stage", "picklist", required=True, options=STAGES),
        F("probability", "Probability (%)", "percent"),
        F("forecast_category", "Forecast Category", "picklist", options=FORECAST),
        F("type", "Type", "picklist", options=OPP_TYPES), F("lead_source", "Lead Source", "picklist", options=LEAD_SOURCES),
        F("next_step", "Next Step"), F("loss_reason", "Loss Reason", "picklist", options=LOSS_REASONS),
        F("description", "Description", "textarea", max_length=32000), OWNER("Opportunity Owner"),
        F("last_activity", "Last Activity", "formula", readonly=True, sortable=False, filterable=False),
        F("account.industry", "Account: Industry", "formula", readonly=True, sortable=False, filterable=False),
        F("close_month", "Close Month", "formula", readonly=True, sortable=False, filterable=False),
        *SYSTEM,
    ],
    layout=[
        ("Opportunity Information", ["owner_id", "amount", "name", "close_date", "account_id", "next_step", "type",
                                     "stage", "lead_source", "probability", None, "forecast_category", None, "loss_reason"]),
        ("Additional Information", ["description", "last_activity"]),
    ],
    list_columns=["name", "account_id", "amount", "close_date", "stage", "owner_id"],
    highlights=["account_id", "close_date", "amount", "owner_id"],
    search_fields=("name", "stage", "next_step"),
    default_list="RecentlyViewedOpportunities", path_field="stage",
    related=["OpportunityLineItem", "OpportunityContactRole", "Task:what", "Event:what", "Note", "File"],
)

CASE = ObjectMeta(
    api="Case", label="Case", plural="Cases", model=m.Case, icon="standard:case", name_field="case_number",
    fields=[
        F("case_number", "Case Number", readonly=True), F("subject", "Subject", required=True),
        F("account_id", "Account Name", "lookup", ref=("Account",)), F("contact_id", "Contact Name", "lookup", ref=("Contact",)),
        F("status", "Status", "picklist", required=True, options=CASE_STATUSES),
        F("priority", "Priority", "picklist", required=True, options=CASE_PRIORITIES),
        F("origin", "Case Origin", "picklist", required=True, options=CASE_ORIGINS),
        F("type", "Type", "picklist", options=CASE_TYPES), F("reason", "Case Reason", "picklist", options=CASE_REASONS),
        F("description", "Description", "textarea", max_length=32000), OWNER("Case Owner"),
        F("closed_at", "Date/Time Closed", "datetime", readonly=True),
        F("created_at", "Date/Time Opened", "datetime", readonly=True),
        F("created_by_id", "Created By", "user", readonly=True, ref=("User",), filterable=False),
        F("last_modified_by_id", "Last Modified By", "user", readonly=True, ref=("User",), filterable=False),
        F("updated_at", "Last Modified Date", "datetime", readonly=True),
    ],
    layout=[
        ("Case Information", ["owner_id", "status", "case_number", "priority", "contact_id", "origin", "account_id",
                              "type", None, "reason"]),
        ("Description Information", ["subject", None, "description", None]),
    ],
    list_columns=["case_number", "subject", "contact_id", "account_id", "status", "priority", "created_at", "owner_id"],
    highlights=["priority", "status", "case_number", "account_id"],
    search_fields=("case_number", "subject", "status"),
    default_list="RecentlyViewedCases", path_field="status",
    related=["CaseComment", "Task:what", "Event:what", "File"],
)

TASK = ObjectMeta(
    api="Task", label="Task", plural="Tasks", model=m.Task, icon="standard:task", name_field="subject",
    fields=[
        F("subject", "Subject", required=True), F("activity_date", "Due Date", "date"),
        F("status", "Status", "picklist", required=True, options=TASK_STATUSES),
        F("priority", "Priority", "picklist", required=True, options=TASK_PRIORITIES),
        F("description", "Comments", "textarea", max_length=32000),
        F("who", "Name", "lookup", ref=("Contact", "Lead"), columns=("who_type", "who_id"), sortable=False, filterable=False),
        F("what", "Related To", "lookup", ref=("Account", "Opportunity", "Case"), columns=("what_type", "what_id"),
          sortable=False, filterable=False),
        F("owner_id", "Assigned To", "user", required=True, ref=("User",)),
        F("task_subtype", "Task Subtype", "picklist", options=["Task", "Call", "Email"], readonly=True),
        F("completed_at", "Completed Date", "datetime", readonly=True), *SYSTEM,
    ],
    layout=[
        ("Task Information", ["subject", "owner_id", "activity_date", "status", "who", "priority", "what", None]),
        ("Description Information", ["description", None]),
    ],
    list_columns=["subject", "who", "what", "activity_date", "status", "priority", "owner_id"],
    highlights=["activity_date", "status", "priority", "owner_id"],
    search_fields=("subject",),
    default_list="MyTasks",
)

EVENT = ObjectMeta(
    api="Event", label="Event", plural="Events", model=m.Event, icon="standard:event", name_field="subject",
    fields=[
        F("subject", "Subject", required=True), F("start", "Start", "datetime", required=True),
        F("end", "End", "datetime", required=True), F("all_day", "All-Day Event", "checkbox"),
        F("location", "Location"), F("description", "Description", "textarea", max_length=32000),
        F("who", "Name", "lookup", ref=("Contact", "Lead"), columns=("who_type", "who_id"), sortable=False, filterable=False),
        F("what", "Related To", "lookup", ref=("Account", "Opportunity", "Case"), columns=("what_type", "what_id"),
          sortable=False, filterable=False),
        F("owner_id", "Assigned To", "user", required=True, ref=("User",)), *SYSTEM,
    ],
    layout=[
        ("Calendar Details", ["subject", "owner_id", "start", "location", "end", "all_day", "who", None, "what", None]),
        ("Description Information", ["description", None]),
    ],
    list_columns=["subject", "who", "what", "start", "end", "owner_id"],
    highlights=["start", "end", "location", "owner_id"],
    search_fields=("subject", "location"),
)

OBJECTS: dict[str, ObjectMeta] = {o.api: o for o in (LEAD, ACCOUNT, CONTACT, OPPORTUNITY, CASE, TASK, EVENT)}
LIST_OBJECTS = ["Lead", "Account", "Contact", "Opportunity", "Case", "Task"]
SEARCH_OBJECTS = ["Account", "Contact", "Lead", "Opportunity", "Case"]
OBJECT_BY_TABLE = {o.table: o for o in OBJECTS.values()}
REPORT_TYPES = ["Opportunity", "Lead", "Account", "Contact", "Case", "Task"]

# The Sales app's navigation bar (object tabs); Service has its own.
APPS = {
    "Sales": {"tabs": ["Home", "Opportunity", "Lead", "Task", "Account", "Contact", "Case", "Report", "Dashboard"],
              "description": "Manage your sales process with accounts, leads, opportunities, and more"},
    "Service": {"tabs": ["Home", "Case", "Account", "Contact", "Task", "Report", "Dashboard"],
                "description": "Manage customer service with accounts, contacts, cases, and more"},
    "Marketing": {"tabs": ["Home", "Lead", "Contact", "Report", "Dashboard"],
                  "description": "Track leads and campaigns from first touch to conversion"},
}
TAB_LABELS = {"Home": "Home", "Report": "Reports", "Dashboard": "Dashboards", **{k: o.plural for k, o in OBJECTS.items()}}
TAB_ICONS = {"Home": "standard:home", "Report": "standard:report", "Dashboard": "standard:dashboard",
             **{k: o.icon for k, o in OBJECTS.items()}}

PATHS = {
    "Opportunity": ["Prospecting", "Qualification", "Needs Analysis", "Proposal", "Negotiation", "Closed"],
    "Lead": ["Open - Not Contacted", "Working - Contacted", "Closed"],
    "Case": ["New", "Working", "Escalated", "Closed"],
}
KEY_FIELDS = {
    "Opportunity": ["amount", "close_date", "next_step", "probability"],
    "Lead": ["phone", "email", "lead_source", "rating"],
    "Case": ["priority", "origin", "contact_id", "type"],
}

__all__ = ["OBJECTS", "Field", "ObjectMeta", "STAGES", "STAGE_PROBABILITY", "STAGE_FORECAST", "LEAD_STATUSES"]
