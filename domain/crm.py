"""The CRM's rules: the sales process (stages, their probability and forecast category), lead and case
statuses, company-name matching (duplicates, deal names) and fiscal quarters. The seed generator, the
app's pages and services and the task templates all read them here."""

from __future__ import annotations

import datetime as dt
import re
import unicodedata

# Sales process (Opportunity stages), with default probability and forecast category.
STAGES = ["Prospecting", "Qualification", "Needs Analysis", "Proposal", "Negotiation", "Closed Won", "Closed Lost"]
OPEN_STAGES = STAGES[:5]
STAGE_PROBABILITY = {"Prospecting": 10, "Qualification": 20, "Needs Analysis": 40, "Proposal": 60,
                     "Negotiation": 80, "Closed Won": 100, "Closed Lost": 0}
STAGE_FORECAST = {"Prospecting": "Pipeline", "Qualification": "Pipeline", "Needs Analysis": "Pipeline",
                  "Proposal": "Best Case", "Negotiation": "Commit", "Closed Won": "Closed", "Closed Lost": "Omitted"}
LEAD_STATUSES = ["Open - Not Contacted", "Working - Contacted", "Closed - Converted", "Closed - Not Converted"]
CASE_STATUSES = ["New", "Working", "Escalated", "Closed"]

LEGAL_SUFFIXES = {"inc", "corp", "corporation", "llc", "ltd", "co", "group", "plc", "gmbh", "sa", "ag",
                  "holdings", "sas", "sl", "spa", "bv", "ab", "as", "kk", "pty", "ltda", "de", "cv", "pvt",
                  "company", "incorporated", "limited"}


def ascii_fold(s: str) -> str:
    return unicodedata.normalize("NFKD", s).encode("ascii", "ignore").decode("ascii")


def normalize_company(name: str) -> str:
    """Duplicate-matching key of a company name: lower case, no punctuation, no legal suffixes."""
    words = re.sub(r"[^a-z0-9& ]", " ", ascii_fold(name).lower()).replace("&", " and ").split()
    while words and words[-1] in LEGAL_SUFFIXES:
        words.pop()
    return " ".join(words)


def company_base(name: str) -> str:
    """'Northwind Logistics Inc.' -> 'Northwind Logistics' (for deal names and domains)."""
    words = name.split()
    while len(words) > 1 and re.sub(r"[^a-z]", "", words[-1].lower()) in LEGAL_SUFFIXES:
        words.pop()
    return " ".join(words).rstrip(",")


def quarter_bounds(d: dt.date) -> tuple[dt.date, dt.date]:
    q0 = (d.month - 1) // 3 * 3 + 1
    start = dt.date(d.year, q0, 1)
    end = dt.date(d.year + (q0 + 3 > 12), (q0 + 3 - 1) % 12 + 1, 1) - dt.timedelta(days=1)
    return start, end
