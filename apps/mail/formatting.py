"""Display rules (Gmail's): list dates, thread dates, names, snippets, file sizes, address parsing."""

from __future__ import annotations

import datetime as dt
import re

from apps._shared import locale as L
from apps._shared.display import current_locale

MONTH_ABBR = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
DAY_ABBR = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]


def clock(t: dt.datetime) -> str:
    """10:24 AM"""
    return f"{(t.hour % 12) or 12}:{t.minute:02d} {'AM' if t.hour < 12 else 'PM'}"


def list_date(t: dt.datetime, now: dt.datetime) -> str:
    """Gmail's list date: '10:24 AM' today, 'Mar 3' this year, '3/4/25' before (in the page's locale where it is
    not en-US: '10:24', '3 Mar', '04/03/2025' in en-GB)."""
    loc = current_locale()
    if loc != L.DEFAULT_LOCALE:
        if t.date() == now.date():
            return L.time(t, loc)
        return L.skeleton(t, "MMMd", loc) if t.year == now.year else L.date_short(t, loc)
    if t.date() == now.date():
        return clock(t)
    if t.year == now.year:
        return f"{MONTH_ABBR[t.month - 1]} {t.day}"
    return f"{t.month}/{t.day}/{t.year % 100:02d}"


def long_date(t: dt.datetime) -> str:
    """Thu, Mar 5, 2026, 3:21 PM (tooltips), in the page's locale."""
    loc = current_locale()
    if loc != L.DEFAULT_LOCALE:
        return f"{L.skeleton(t, 'yMMMEd', loc)}, {L.time(t, loc)}"
    return long_date_written(t)


def long_date_written(t: dt.datetime) -> str:
    """Thu, Mar 5, 2026, 3:21 PM in what the app writes into the world (a forwarded message's header): the same in
    every locale, so the world never depends on how the page was shown."""
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
    loc = current_locale()
    if loc != L.DEFAULT_LOCALE:
        if t.date() == now.date():
            base = L.time(t, loc)
        else:
            base = f"{L.skeleton(t, 'MMMEd' if t.year == now.year else 'yMMMd', loc)}, {L.time(t, loc)}"
        return f"{base} ({rel})" if rel else base
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


EMAIL_RE = re.compile(r"[A-Za-z0-9._%+'-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")  # the whole text: use is_email


def is_email(text: str) -> bool:
    """Whether `text`, all of it, is an email address (fullmatch: `$` would let a trailing newline in)."""
    return EMAIL_RE.fullmatch(text) is not None


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
    if not isinstance(text, (str, list)):
        raise AddressError(str(text)[:80], field)
    tokens = text if isinstance(text, list) else re.split(r"[,;\n]", text)
    out: list[str] = []
    for raw in tokens:
        token = str(raw).strip()
        if not token:
            continue
        m = re.search(r"<([^<>]+)>\s*$", token)
        email = (m.group(1) if m else token).strip().strip('"').lower()
        if not is_email(email):
            raise AddressError(token, field)
        if email not in out:
            out.append(email)
    return out


# ------------------------------------------------------------------ snooze / schedule / dates
def at(day: dt.date, hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(hour, minute))


def short_day_time(t: dt.datetime) -> str:
    """Fri, 8:00 AM"""
    return f"{DAY_ABBR[t.weekday()]}, {clock(t)}"


def month_day_time(t: dt.datetime) -> str:
    """Mar 13, 8:00 AM"""
    return f"{MONTH_ABBR[t.month - 1]} {t.day}, {clock(t)}"


def snooze_options(now: dt.datetime) -> list[dict]:
    """Gmail's snooze presets for this moment: key, label, detail, when (ISO)."""
    today = now.date()
    out = []
    if now.hour < 17:
        t = at(today, 18)
        out.append({"key": "later_today", "label": "Later today", "detail": clock(t), "at": t})
    t = at(today + dt.timedelta(days=1), 8)
    out.append({"key": "tomorrow", "label": "Tomorrow", "detail": short_day_time(t), "at": t})
    if now.weekday() <= 2:
        t = at(today + dt.timedelta(days=2), 8)
        out.append({"key": "later_this_week", "label": "Later this week", "detail": short_day_time(t), "at": t})
    if now.weekday() <= 4:
        t = at(today + dt.timedelta(days=5 - now.weekday()), 8)
        out.append({"key": "this_weekend", "label": "This weekend", "detail": short_day_time(t), "at": t})
    t = at(today + dt.timedelta(days=7 - now.weekday()), 8)
    out.append({"key": "next_week", "label": "Next week", "detail": short_day_time(t), "at": t})
    return out


def schedule_options(now: dt.datetime) -> list[dict]:
    """Gmail's schedule-send presets."""
    tomorrow = now.date() + dt.timedelta(days=1)
    out = [
        {"key": "tomorrow_morning", "label": "Tomorrow morning", "at": at(tomorrow, 8)},
        {"key": "tomorrow_afternoon", "label": "Tomorrow afternoon", "at": at(tomorrow, 13)},
    ]
    monday = now.date() + dt.timedelta(days=7 - now.weekday())
    if monday != tomorrow:
        out.append({"key": "monday_morning", "label": "Monday morning", "at": at(monday, 8)})
    for o in out:
        o["detail"] = month_day_time(o["at"])
    return out


def snooze_label(t: dt.datetime, now: dt.datetime) -> str:
    """The date column of the Snoozed list: when it comes back."""
    if t.date() == now.date():
        return clock(t)
    if t.date() == now.date() + dt.timedelta(days=1):
        return f"Tomorrow, {clock(t)}"
    return f"{MONTH_ABBR[t.month - 1]} {t.day}, {clock(t)}"


MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
               "November", "December"]


def parse_user_date(text: str, now: dt.datetime) -> dt.date | None:
    """Dates as people type them: 'Mar 20, 2026', 'March 20', '3/20/2026', '3/20/26', '2026-03-20'."""
    s = (text or "").strip().replace(",", " ").replace(".", " ")
    s = re.sub(r"\s+", " ", s)
    if not s:
        return None
    m = re.fullmatch(r"(\d{4})-(\d{1,2})-(\d{1,2})", s)
    if m:
        y, mo, d = map(int, m.groups())
        return _date(y, mo, d)
    m = re.fullmatch(r"(\d{1,2})/(\d{1,2})(?:/(\d{2,4}))?", s)
    if m:
        mo, d = int(m.group(1)), int(m.group(2))
        y = int(m.group(3)) if m.group(3) else now.year
        y = y + 2000 if y < 100 else y
        return _date(y, mo, d)
    m = re.fullmatch(r"(?:[A-Za-z]+ )?([A-Za-z]+) (\d{1,2})(?: (\d{4}))?", s)  # optional weekday first
    if m:
        mon = m.group(1).lower()
        idx = next((i for i, n in enumerate(MONTH_NAMES) if n.lower().startswith(mon[:3]) and n.lower().startswith(mon)), None)
        if idx is None:
            return None
        y = int(m.group(3)) if m.group(3) else now.year
        return _date(y, idx + 1, int(m.group(2)))
    m = re.fullmatch(r"(\d{1,2}) ([A-Za-z]+)(?: (\d{4}))?", s)
    if m:
        mon = m.group(2).lower()
        idx = next((i for i, n in enumerate(MONTH_NAMES) if n.lower().startswith(mon)), None)
        if idx is None:
            return None
        y = int(m.group(3)) if m.group(3) else now.year
        return _date(y, idx + 1, int(m.group(1)))
    return None


def _date(y: int, m: int, d: int) -> dt.date | None:
    try:
        return dt.date(y, m, d)
    except ValueError:
        return None


def parse_user_time(text: str) -> dt.time | None:
    """'8:00 AM', '8am', '1:30 pm', '13:30' -> a time."""
    s = (text or "").strip().lower().replace(".", "")
    m = re.fullmatch(r"(\d{1,2})(?::(\d{2}))?\s*(am|pm|a|p)?", s)
    if not m:
        return None
    h, mi, ap = int(m.group(1)), int(m.group(2) or 0), m.group(3)
    if ap:
        if not 1 <= h <= 12:
            return None
        h = h % 12 + (12 if ap.startswith("p") else 0)
    if not (0 <= h < 24 and 0 <= mi < 60):
        return None
    return dt.time(h, mi)


def long_day(d: dt.date) -> str:
    """March 20, 2026"""
    return f"{MONTH_NAMES[d.month - 1]} {d.day}, {d.year}"
