"""Global search results, grouped by object (Top Results, then one tab per object)."""

from __future__ import annotations

from flask import request

from apps._shared.i18n import gettext
from apps.crm.meta import OBJECTS, SEARCH_OBJECTS
from apps.crm.services.read import run_search
from apps.crm.views.base import bp, page
from apps.crm.views.lists import cells

COLUMNS = {
    "Account": ["name", "industry", "billing_city", "billing_country", "phone", "owner_id"],
    "Contact": ["name", "account_id", "title", "phone", "email", "owner_id"],
    "Lead": ["name", "title", "company", "phone", "email", "status", "owner_id"],
    "Opportunity": ["name", "account_id", "stage", "amount", "close_date", "owner_id"],
    "Case": ["case_number", "subject", "account_id", "status", "priority", "owner_id"],
}


@bp.get("/lightning/search")
def search_page():
    q = (request.args.get("q") or "").strip()
    scope = request.args.get("scope", "top")
    if scope not in SEARCH_OBJECTS:
        scope = "top"
    sections = []
    counts = {}
    if q:
        for obj in SEARCH_OBJECTS:
            limit = 5 if scope == "top" else (50 if obj == scope else 0)
            rows, total = run_search(obj, q, max(limit, 1))
            counts[obj] = total
            if (scope == "top" and rows) or obj == scope:
                heads = []
                for c in COLUMNS[obj]:
                    f = OBJECTS[obj].field(c)
                    label = f.label if c != "owner_id" else f"{OBJECTS[obj].label} Owner Alias"
                    heads.append(label)
                sections.append({"obj": obj, "o": OBJECTS[obj], "rows": cells(obj, rows[:limit] if limit else [], COLUMNS[obj]),
                                 "total": total, "heads": heads})
    return page("crm/search.html", active="", title=gettext("Search Results: %(q)s", q=q) if q else "Search",
                q=q, search_q=q,
                scope=scope, sections=sections, counts=counts, objects=SEARCH_OBJECTS, page_icon="standard:home")
