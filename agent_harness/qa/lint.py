"""Goal-text lint: a task's goal may name only what its world has (or what the task itself asks to create),
and may state only dates its frozen clock backs.

Pure functions over plain data, so they are tested without a browser:

    problems = lint_goal(goal, known_text, now)   # -> ["names 'Ana Ruis', which ...", ...]
"""

from __future__ import annotations

import calendar
import datetime as dt
import json
import re
from typing import Any

from agent_harness.qa.queries import fold

MONTHS = {m.lower(): i for i, m in enumerate(calendar.month_name) if m}
MONTHS.update({m.lower(): i for i, m in enumerate(calendar.month_abbr) if m})
MONTHS["sept"] = 9
WEEKDAYS = {d.lower(): i for i, d in enumerate(calendar.day_name)}
WEEKDAYS.update({d.lower(): i for i, d in enumerate(calendar.day_abbr)})

# Capitalised words that are grammar or UI, never a thing in the world.
COMMON = {
    "a", "an", "the", "i", "in", "on", "at", "to", "for", "from", "of", "by", "with", "and", "or", "then", "if",
    "it", "its", "this", "that", "these", "those", "my", "your", "our", "their", "all", "any", "each", "every",
    "no", "not", "yes", "ok", "please", "find", "open", "go", "star", "unstar", "mark", "move", "send", "reply",
    "forward", "archive", "delete", "remove", "add", "create", "make", "set", "change", "update", "edit", "rename",
    "order", "buy", "search", "filter", "sort", "show", "list", "tell", "what", "which", "who", "when", "where",
    "how", "many", "much", "is", "are", "was", "were", "there", "answer", "report", "give", "count", "total",
    "label", "assign", "schedule", "book", "cancel", "check", "uncheck", "select", "choose", "pick", "write",
    "compose", "draft", "save", "submit", "log", "close", "convert", "qualify", "clear", "empty", "use", "put",
    "leave", "keep", "only", "also", "after", "before", "between", "latest", "last", "first", "next", "newest",
    "oldest", "most", "least", "today", "tomorrow", "yesterday", "am", "pm", "utc", "email", "emails", "note",
}

CONNECTORS = {"of", "de", "la", "del", "van", "von", "da", "di", "&", "the", "and"}

QUOTED = re.compile(r"\"([^\"]{2,80})\"|“([^”]{2,80})”|(?:(?<=\s)|^)'([^']{2,80})'(?=[\s.,;:!?)]|$)")
EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
WORD = re.compile(r"[A-Za-zÀ-ÖØ-öø-ÿ][\w'’.-]*")

_M = r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
_WD = r"(?:((?:mon|tue|wed|thu|fri|sat|sun)[a-z]*),?\s+)?"
DATE_PATTERNS = [
    ("iso", re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")),
    ("mdy", re.compile(_WD + _M + r"\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(\d{4}))?\b", re.IGNORECASE)),
    ("dmy", re.compile(_WD + r"(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + _M + r"(?:,?\s+(\d{4}))?\b", re.IGNORECASE)),
    ("us", re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b")),
]


def known_text(*parts: Any) -> str:
    """Everything a goal may refer to, folded: the world's values, the task's own expectations, page text."""
    out: list[str] = []

    def walk(v: Any) -> None:
        if isinstance(v, dict):
            for k, x in v.items():
                if k == "_meta":
                    continue
                walk(x)
        elif isinstance(v, (list, tuple)):
            for x in v:
                walk(x)
        elif isinstance(v, str):
            out.append(v)
        elif v is not None and not isinstance(v, bool):
            out.append(str(v))

    for p in parts:
        walk(p)
    return fold("\n".join(out))


def _names(goal: str) -> list[tuple[str, bool]]:
    """Capitalised runs ("Ana Ruiz", "Bank of America") and whether each began a sentence."""
    runs: list[tuple[list[str], bool]] = []
    cur: list[str] = []
    cur_start = False
    sentence_start = True
    for tok in re.findall(r"[\w'’.&-]+|[^\w\s]", goal):
        if not re.match(r"[\w&]", tok):
            if cur:
                runs.append((cur, cur_start))
            cur = []
            sentence_start = tok in ".!?:;"
            continue
        word = tok.rstrip(".")
        ends = tok.endswith(".") and not re.fullmatch(r"[A-Z]\.", tok)
        if word[:1].isupper() and not (sentence_start and word.lower() in COMMON):
            if not cur:
                cur_start = sentence_start
            cur.append(word)
        elif cur and word.lower() in CONNECTORS:
            cur.append(word)
        else:
            if cur:
                runs.append((cur, cur_start))
            cur = []
        sentence_start = ends
        if ends and cur:
            runs.append((cur, cur_start))
            cur = []
    if cur:
        runs.append((cur, cur_start))
    names = []
    for r, at_start in runs:
        while r and r[-1].lower() in CONNECTORS:
            r = r[:-1]
        while r and r[0].lower() in COMMON:
            r, at_start = r[1:], False
        if not r:
            continue
        if at_start and len(r) == 1:
            continue  # a sentence's first word: grammar, not a name
        name = re.sub(r"['’]s$", "", " ".join(r))
        if name.lower() in COMMON or name.lower() in MONTHS or name.lower() in WEEKDAYS:
            continue
        names.append((name, at_start))
    return names


def _month(s: str) -> int:
    s = s.lower().rstrip(".")
    return MONTHS[s] if s in MONTHS else MONTHS[s[:3]]


def _date(kind: str, m: re.Match, now: dt.datetime) -> tuple[dt.date | None, str | None, bool]:
    """(date, weekday named or None, year given)."""
    try:
        if kind == "iso":
            return dt.date(int(m[1]), int(m[2]), int(m[3])), None, True
        if kind == "us":
            return dt.date(int(m[3]), int(m[1]), int(m[2])), None, True
        if kind == "mdy":
            wd, mon, day, year = m[1], _month(m[2]), int(m[3]), m[4]
        else:
            wd, day, mon, year = m[1], int(m[2]), _month(m[3]), m[4]
    except (ValueError, KeyError):
        return None, None, False
    if year:
        try:
            return dt.date(int(year), mon, day), wd, True
        except ValueError:
            return None, wd, True
    # No year: the occurrence nearest to now.
    best = None
    for y in (now.year - 1, now.year, now.year + 1):
        try:
            d = dt.date(y, mon, day)
        except ValueError:
            continue
        if best is None or abs((d - now.date()).days) < abs((best - now.date()).days):
            best = d
    return best, wd, False


def lint_goal(goal: str, known: str, now: dt.datetime, window_days: int = 45) -> list[str]:
    """Problems with a goal's text: names and quoted strings its world (or its own verify/solution) lacks,
    dates the frozen clock does not back, weekdays that do not match their date."""
    problems: list[str] = []
    checked: set[str] = set()

    def present(s: str) -> bool:
        f = fold(s).strip(" .,;:!?\"'")
        return not f or f in known

    for m in QUOTED.finditer(goal):
        s = next(g for g in m.groups() if g)
        checked.add(fold(s))
        if not present(s):
            problems.append(f"quotes {s!r}, which is neither in its world nor in what the task checks")
    for e in EMAIL.findall(goal):
        checked.add(fold(e))
        if not present(e):
            problems.append(f"names the address {e!r}, which is neither in its world nor in what the task checks")
    spans = [m.span() for _, p in DATE_PATTERNS for m in p.finditer(goal)]
    goal_wo_dates = goal
    for a, b in sorted(spans, reverse=True):
        goal_wo_dates = goal_wo_dates[:a] + " , " + goal_wo_dates[b:]
    for name, at_start in _names(QUOTED.sub(" , ", EMAIL.sub(" , ", goal_wo_dates))):
        if at_start and present(name.split(" ", 1)[1]):
            continue  # "Unsubscribe Acme": a verb, then the name
        f = fold(name)
        if f in checked or any(f in c for c in checked):
            continue
        checked.add(f)
        if present(name):
            continue
        # "Ana and Bob", "Acme's Q3 deal": each capitalised part must be there.
        parts = [p for p in re.split(r"\s+(?:" + "|".join(sorted(CONNECTORS - {'&'})) + r")\s+", name) if p]
        missing = [p for p in parts if not present(p)]
        if len(parts) > 1 and not missing:
            continue
        words = name.split()
        if len(words) > 1 and all(present(w) for w in words if w.lower() not in CONNECTORS):
            continue
        problems.append(f"names {name!r}, which is neither in its world nor in what the task checks")

    today = now.date()
    for kind, pat in DATE_PATTERNS:
        for m in pat.finditer(goal):
            d, wd, _year_given = _date(kind, m, now)
            text = m.group(0).strip()
            if d is None:
                problems.append(f"{text!r} is not a real date")
                continue
            if wd and WEEKDAYS.get(wd.lower()[:3]) != d.weekday():
                problems.append(f"{text!r}: {d.isoformat()} is a {calendar.day_name[d.weekday()]}, "
                                f"not a {wd.capitalize()}")
            in_world = d.isoformat() in known
            near = abs((d - today).days) <= window_days
            if not in_world and not near:
                problems.append(f"{text!r} ({d.isoformat()}) is not backed by the task's frozen now "
                                f"({now.date().isoformat()}) nor by any date in its world")
    for m in re.finditer(r"\b(?:in|of|during|since)\s+((?:19|20)\d{2})\b", goal):
        y = int(m[1])
        if y != today.year and f"{y}-" not in known:
            problems.append(f"the year {y} is neither the frozen now's ({today.year}) nor in its world")
    return problems


def task_known(task, state_text: str, page_text: str, terms: list[str]) -> str:
    """The text a task's goal may draw on: its world's state (`known_text(state)`, shared by the tasks of
    one world: folding a food world takes ~0.25 s), its verify spec and solution, its start page, and the
    app's declared goal terms."""
    verify = json.loads(task.verify.model_dump_json()) if hasattr(task.verify, "model_dump_json") else task.verify

    def steps(xs) -> list:
        return [s.model_dump(exclude_none=True) if hasattr(s, "model_dump") else s for s in xs]

    solution = steps(task.solution)
    # A judgement task's goal names, on purpose, what its world lacks (a contact who does not exist) or what must not
    # be done (an outside address): its near-misses and adversarial variants are those, acted out.
    if JUDGEMENT_TAGS & set(getattr(task, "tags", ()) or ()):
        solution += [steps(nm) for nm in task.near_misses] + [steps(a.steps) for a in task.adversarial]
    return " ".join([known_text(verify, solution, task.fixtures, terms), state_text, fold(page_text)])


JUDGEMENT_TAGS = frozenset({"infeasible", "harmful"})
