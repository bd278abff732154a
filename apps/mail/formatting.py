"""Display rules (Gmail's): list dates, thread dates, names, snippets, file sizes, address parsing."""

from __future__ import annotations

import datetime as dt
import re

MONTH_ABBR = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
DAY_ABBR = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]


def clock(t: dt.datetime) -> str:
    """10:24 AM"""
    return f"{(t.hour % 12) or 12}:{t.minute:02d} {'AM' if t.hour < 12 else 'PM'}"


def list_date(t: dt.datetime, now: dt.datetime) -> str:
    """Gmail's list date: '10:24 AM' today, 'Mar 3' this year, '3/4/25' before."""
    if t.date() == now.date():
        return clock(t)
    if t.year == now.year:
        return f"{MONTH_ABBR[t.month - 1]} {t.day}"
    return f"{t.month}/{t.day}/{t.year % 100:02d}"


def long_date(t: dt.datetime) -> str:
    """Thu, Mar 5, 2026, 3:21 PM (tooltips)"""
    return f"{DAY_ABBR[t.weekday()]}, {MONTH_ABBR[t.month - 1]} {t.day}, {t.year}, {clock(t)}"


def relative(t: dt.datetime, now: dt.datetime) -> str:
    secs = max(0, int((now - t).total_seconds()))
    if secs < 60:
        return "0 minutes ago"
    if secs < 3600:
        n = secs // 60
        return f"{n} minute{'s' if n != 1 else ''} ago"
    if secs < 86400:
        n = secs // 3600
        return f"{n} hour{'s' if n != 1 else ''} ago"
    days = secs // 86400
    if days < 14:
        return f"{days} day{'s' if days != 1 else ''} ago"
    if days < 60:
        return f"{days // 7} weeks ago"
    return ""


def thread_date(t: dt.datetime, now: dt.datetime) -> str:
    """The date in a message header: '10:05 AM (19 minutes ago)', 'Tue, Mar 10, 4:05 PM (2 days ago)',
    'Nov 12, 2024, 3:21 PM'."""
    rel = relative(t, now)
    if t.date() == now.date():
        base = clock(t)
    elif t.year == now.year:
        base = f"{DAY_ABBR[t.weekday()]}, {MONTH_ABBR[t.month - 1]} {t.day}, {clock(t)}"
    else:
        base = f"{MONTH_ABBR[t.month - 1]} {t.day}, {t.year}, {clock(t)}"
    return f"{base} ({rel})" if rel else base


def snippet(body: str, limit: int = 180) -> str:
    text = re.sub(r"\s+", " ", body or "").strip()
    return text[:limit]


def first_name(name: str) -> str:
    return (name or "").split(" ")[0] if name else ""


def file_size(n: int) -> str:
    if n >= 1_000_000:
        return f"{n / 1_000_000:.1f} MB"
    return f"{max(1, round(n / 1000))} KB"


EMAIL_RE = re.compile(r"^[A-Za-z0-9._%+'-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$")


class AddressError(ValueError):
    def __init__(self, token: str, field: str):
        super().__init__(f'The address "{token}" in the "{field}" field was not recognized. '
                         f"Please make sure that all addresses are properly formed.")
        self.token = token
        self.field = field


def parse_addresses(text: str | list | None, field: str) -> list[str]:
    """'Ana <ana@x.io>, bob@y.com' -> ['ana@x.io', 'bob@y.com'] (lower case, de-duplicated, in order)."""
    if not text:
        return []
    tokens = text if isinstance(text, list) else re.split(r"[,;\n]", text)
    out: list[str] = []
    for raw in tokens:
        token = str(raw).strip()
        if not token:
            continue
        m = re.search(r"<([^<>]+)>\s*$", token)
        email = (m.group(1) if m else token).strip().strip('"').lower()
        if not EMAIL_RE.match(email):
            raise AddressError(token, field)
        if email not in out:
            out.append(email)
    return out
