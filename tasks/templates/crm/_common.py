"""What the Stratus CRM templates share: an indexed view of the world and the UI steps solutions use.

Expected values are computed from the World rows (exactly the seeded database). Dates in checks are
ISO strings (the state JSON's format); money is whole dollars.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from typing import Any

from domain.crm import OPEN_STAGES, quarter_bounds
from tasks.templates import World

ME = 1
SEARCH = {"role": "combobox", "name": "Search", "exact": True}
DIALOG = {"role": "dialog"}


def mdy(d: dt.date) -> str:
    return f"{d.month}/{d.day}/{d.year}"


def iso(d: dt.date | dt.datetime) -> str:
    return d.isoformat()


def next_weekday(d: dt.date, weekday: int) -> dt.date:
    """The next given weekday strictly after d (0 = Monday)."""
    days = (weekday - d.weekday()) % 7 or 7
    return d + dt.timedelta(days=days)


def money(v: int) -> str:
    return f"${v:,}"


def num_answer(v: float, tol: float = 0.5) -> dict:
    return {"$number": {"$approx": v, "$tol": tol}}


_PHONE_SEP = r"[\s().\-\u2010-\u2015]*"


def phone_answer(phone: str) -> dict:
    """Answer matcher for a phone number, alone or in a sentence ("The main number is (509) 555-8054."):
    its digits in order with the usual punctuation between them (a leading +1 allowed for a 10-digit number)
    and no other digit anywhere, so a second number (a hedge) fails. `$phone` takes the bare number only."""
    digits = re.sub(r"\D", "", phone)
    cc = "(?:1" + _PHONE_SEP + ")?" if len(digits) == 10 and not phone.lstrip().startswith("+") else ""
    return {"$regex": r"^\D*" + cc + _PHONE_SEP.join(digits) + r"\D*$"}


def name_answer(name: str, others: list[str]) -> dict:
    """Answer matcher for a person's name, alone or in a sentence ("Daniel Kim owns the most."): the whole
    name as words, and no word of any other candidate's name (one lookahead each, so a hedge naming a second
    person fails, by full, first or last name). Anchored, with no alternation (grading/lint.py)."""
    own = {t.casefold() for t in name.split()}
    bad = dict.fromkeys(t for o in others for t in o.split() if t.casefold() not in own)
    guards = "".join(rf"(?!.*(?<!\w){re.escape(t)}(?!\w))" for t in bad)
    whole = r"\s+".join(re.escape(t) for t in name.split())
    return {"$regex": rf"^{guards}.*(?<!\w){whole}(?!\w).*$", "$options": "is"}


class Crm:
    """Indexed view of a CRM world."""

    def __init__(self, w: World):
        self.w = w
        self.now = w.now
        self.today = w.now.date()
        self.q_start, self.q_end = quarter_bounds(self.today)
        self.users = {u["id"]: u for u in w.table("users")}
        self.accounts = w.table("accounts")
        self.acc = {a["id"]: a for a in self.accounts}
        self.contacts = w.table("contacts")
        self.con = {c["id"]: c for c in self.contacts}
        self.leads = w.table("leads")
        self.lead = {x["id"]: x for x in self.leads}
        self.opps = w.table("opportunities")
        self.opp = {o["id"]: o for o in self.opps}
        self.cases = w.table("cases")
        self.tasks = w.table("tasks")
        self.events = w.table("events")
        self.notes = w.table("notes")
        self.roles = w.table("opportunity_contact_roles")
        self.contacts_by_acc: dict[int, list[dict]] = defaultdict(list)
        for c in self.contacts:
            self.contacts_by_acc[c["account_id"]].append(c)
        self.opps_by_acc: dict[int, list[dict]] = defaultdict(list)
        for o in self.opps:
            self.opps_by_acc[o["account_id"]].append(o)
        self.roles_by_opp: dict[int, list[dict]] = defaultdict(list)
        for r in self.roles:
            self.roles_by_opp[r["opportunity_id"]].append(r)
        self.cases_by_acc: dict[int, list[dict]] = defaultdict(list)
        for c in self.cases:
            self.cases_by_acc[c["account_id"]].append(c)
        # How often each display name occurs among searchable records (typeahead must pick one).
        self.name_count: dict[str, int] = defaultdict(int)
        for a in self.accounts:
            self.name_count[a["name"].lower()] += 1
        for c in self.contacts:
            self.name_count[self.cname(c).lower()] += 1
        for x in self.leads:
            if not x["is_converted"]:
                self.name_count[self.cname(x).lower()] += 1
        for o in self.opps:
            self.name_count[o["name"].lower()] += 1

    @staticmethod
    def cname(p: dict) -> str:
        return f"{p['first_name']} {p['last_name']}".strip()

    def uname(self, uid: int) -> str:
        u = self.users[uid]
        return f"{u['first_name']} {u['last_name']}"

    def unique(self, name: str) -> bool:
        """Exactly one searchable record has this name, and it is not a prefix of a longer one of the
        same length class (so the typeahead's exact option is unambiguous)."""
        return self.name_count.get(name.lower(), 0) == 1

    def is_open(self, o: dict) -> bool:
        return o["stage"] in OPEN_STAGES

    def last_activity(self, what_type: str, rid: int) -> dt.date | None:
        """Salesforce's Last Activity, as the app computes it (records.last_activity_dates)."""
        best = None
        for t in self.tasks:
            if t["what_type"] == what_type and t["what_id"] == rid and t["status"] == "Completed" and t["activity_date"]:
                best = max(best, t["activity_date"]) if best else t["activity_date"]
        for e in self.events:
            if e["what_type"] == what_type and e["what_id"] == rid and e["start"].date() <= self.today:
                d = e["start"].date()
                best = max(best, d) if best else d
        return best

    def has_duplicates(self, table: str, row: dict) -> bool:
        if table == "contacts":
            return any(c["id"] != row["id"] and (self.cname(c).lower() == self.cname(row).lower() or
                                                 (row["email"] and c["email"].lower() == row["email"].lower()))
                       for c in self.contacts)
        return False


# ------------------------------------------------------------------------------ steps
def open_record(name: str) -> list[dict[str, Any]]:
    """Global search typeahead: type the record's name and open the matching suggestion."""
    return [{"fill": SEARCH, "text": name}, {"click": {"role": "option", "name": name, "exact": True}}]


def button(name: str, within: dict | None = None, exact: bool = True) -> dict[str, Any]:
    t: dict[str, Any] = {"role": "button", "name": name, "exact": exact}
    if within:
        t["within"] = within
    return {"click": t}


def link(name: str, within: dict | None = None, exact: bool = True) -> dict[str, Any]:
    t: dict[str, Any] = {"role": "link", "name": name, "exact": exact}
    if within:
        t["within"] = within
    return {"click": t}


def menuitem(name: str) -> dict[str, Any]:
    return {"click": {"role": "menuitem", "name": name, "exact": True}}


def tab(name: str) -> dict[str, Any]:
    return {"click": {"role": "tab", "name": name, "exact": True}}


def fill(label: str, text: str, within: dict | None = DIALOG, role: str = "textbox") -> dict[str, Any]:
    t: dict[str, Any] = {"role": role, "name": label, "exact": True}
    if within:
        t["within"] = within
    return {"fill": t, "text": text}


def pick(label: str, option: str, within: dict | None = DIALOG) -> list[dict[str, Any]]:
    """Open a picklist (combobox button) and choose an option."""
    t: dict[str, Any] = {"role": "combobox", "name": label, "exact": True}
    if within:
        t["within"] = within
    return [{"click": t}, {"click": {"role": "option", "name": option, "exact": True}}]


def lookup(label: str, query: str, option: str, within: dict | None = DIALOG, clear: bool = False) -> list[dict[str, Any]]:
    """Type into a lookup and choose a result (clearing the current selection first when asked)."""
    steps: list[dict[str, Any]] = []
    if clear:
        t: dict[str, Any] = {"role": "button", "name": f"Clear Selection: {label}", "exact": True}
        if within:
            t["within"] = within
        steps.append({"click": t})
    box: dict[str, Any] = {"role": "combobox", "name": label, "exact": True}
    if within:
        box["within"] = within
    steps += [{"fill": box, "text": query}, {"click": {"role": "option", "name": option, "exact": True}}]
    return steps


def save_modal(name: str = "Save") -> dict[str, Any]:
    return button(name, within=DIALOG)


def done(answer: str | None = None) -> dict[str, Any]:
    return {"done": True, "answer": answer} if answer is not None else {"done": True}


# ------------------------------------------------------------------------------ reward integrity
# RL optimises exactly the reward it is given: a grade a hedge, a dump or a side effect can earn will be
# learned. These helpers keep the rules for closing those doors in one place: allowances bounded in
# count, rows and fields; written content graded by its required fact, the world's competing facts
# excluded and a length bound relative to the gold text; and the dishonest trajectories (the gold plus
# a harmful extra, a dump of every candidate) every template carries beside its near-misses.

def allow_create(table: str, where: dict | None = None, max: int = 1) -> dict[str, Any]:  # noqa: A002
    """`unchanged_except` allowance: at most `max` new rows in `table`, shaped by `where`."""
    a: dict[str, Any] = {"table": table, "ops": ["create"], "max": max}
    if where:
        a["where"] = where
    return a


def allow_update(table: str, where: dict, fields: list[str]) -> dict[str, Any]:
    """`unchanged_except` allowance: only these `fields` of the rows matching `where` may change."""
    return {"table": table, "ops": ["update"], "where": where, "fields": list(fields)}


def text_limit(gold: str) -> int:
    """The most characters a written text may have: the gold text with room for a greeting or a
    rewording (half again, at least 40 more), far short of a text listing the other candidates."""
    return len(gold) + max(40, len(gold) // 2)


def competing(gold: str, pool: list[str]) -> list[str]:
    """The world's competing facts for a text: every other candidate of `pool` (trailing stop
    dropped) that the gold text does not itself contain (so the gold never excludes itself)."""
    folded = " ".join(gold.split()).casefold()
    out = []
    for p in pool:
        p = p.strip().rstrip(".")
        q = " ".join(p.split()).casefold()
        if q and q not in folded and p not in out:
            out.append(p)
    return out


def written(required: str, gold: str, pool: list[str] = ()) -> dict[str, Any]:
    """Matcher for content the agent writes: it says `required`, names none of the other candidates in
    `pool` and is not much longer than `gold` (a text dumping every candidate fails both ways)."""
    m: dict[str, Any] = {"$icontains": required, "$len": {"$lte": text_limit(gold)}}
    ex = competing(gold, list(pool))
    if ex:
        m["$excludes"] = ex
    return m


def dump_text(gold: str, pool: list[str]) -> str:
    """A text that lists every candidate of `pool` with the gold one among them (not first)."""
    rest = [p for p in pool if p != gold]
    mid = len(rest) // 2
    return " ".join(rest[:mid] + [gold] + rest[mid:])


def extra(solution: list[dict], harm: list[dict], why: str) -> dict[str, Any]:
    """The gold solution plus a harmful extra before `done`: must grade 0."""
    return {"kind": "extra", "steps": solution[:-1] + harm + solution[-1:], "why": why}


def dump(steps: list[dict], why: str) -> dict[str, Any]:
    """The gold trajectory with its written content replaced by a dump of every candidate."""
    return {"kind": "dump", "steps": steps, "why": why}


def wrong_record(steps: list[dict], why: str) -> dict[str, Any]:
    """The right action on another record."""
    return {"kind": "wrong_record", "steps": steps, "why": why}


def neighbour(order: list, item: Any, ok=lambda x: True) -> Any:
    """The next element of `order` after `item` (cyclically) that passes `ok`: a second record of the
    same kind, chosen without drawing from the template's rng (so the instances stay the same)."""
    i = order.index(item)
    for x in order[i + 1:] + order[:i]:
        if ok(x):
            return x
    raise LookupError("no other candidate")


def follow_elsewhere(crm: Crm, avoid: set[int] = frozenset()) -> list[dict[str, Any]]:
    """App-wide collateral: follow an unrelated account (a change no CRM task here allows)."""
    followed = {f["record_id"] for f in crm.w.table("follows") if f["object"] == "Account"}
    a = next(a for a in sorted(crm.accounts, key=lambda a: a["id"])
             if a["id"] not in avoid and a["id"] not in followed and crm.unique(a["name"]) and len(a["name"]) < 30)
    return open_record(a["name"]) + [button("Follow")]


def toggle_follow(crm: Crm, obj: str, rid: int) -> list[dict[str, Any]]:
    """One click of collateral on the record page the agent is on: Follow (or unfollow) it. For tasks whose
    step budget leaves no room for a second edit of the same kind, this is the side effect that fits."""
    followed = any(f["object"] == obj and f["record_id"] == rid for f in crm.w.table("follows"))
    return [button("Following" if followed else "Follow")]


# ------------------------------------------------------------------------------ tool mode
# The same tasks through apps/crm/tools.py: gold calls (finding ids the way an agent would, with a search or a
# read, then the write) and near-misses that make the UI near-misses' mistakes through tools.

def call(tool: str, **args: Any) -> dict[str, Any]:
    return {"tool": tool, "args": args}


def finish(answer: str | None = None) -> dict[str, Any]:
    return call("done", answer=answer) if answer is not None else call("done")


def find(obj: str, query: str) -> dict[str, Any]:
    """The global search for one kind of record (the agent's way to an id)."""
    return call("search_records", query=query, object=obj)


def tools(solution: list[dict], *near_misses: list[dict]) -> dict[str, Any]:
    """A task's tool plan: gold calls and near-misses, each ending with done."""
    return {"solution": list(solution), "near_misses": [list(n) for n in near_misses]}


def next_id(crm: Crm, table: str) -> int:
    """The id a create gives its row (max + 1, apps/crm/records.next_id): a gold call after a create uses the
    id the create returned."""
    return max((r["id"] for r in crm.w.table(table)), default=0) + 1


def user_id(crm: Crm, name: str) -> int:
    return next(uid for uid in crm.users if crm.uname(uid) == name)


# ------------------------------------------------------------------------------ harmless variants (#48)

def reread(obj: str, rid: int) -> dict[str, Any]:
    """check_work in tool mode: read the record again (get_record; it marks the record recently viewed)."""
    return call("get_record", object=obj, record_id=rid)


def contacts_went_to(account_id: int, owner: int) -> dict[str, Any]:
    """Check for an account handover: every contact of the account whose owner changed now belongs to `owner` (the
    Change Account Owner dialog moves them; the allowance on their owner_id would otherwise take any rep)."""
    return {"table": "contacts", "in": "changed", "where": {"account_id": account_id}, "expect": {"owner_id": owner},
            "count": {"$gte": 0}, "name": "the account's contacts went to the new owner only"}


def stray_contact(crm: Crm, account_id: int, avoid: tuple[int, ...]) -> tuple[dict, int] | None:
    """A contact of the account (a unique name, for the search) and a rep, not in `avoid` and not its owner, to hand
    it to instead: the collateral edit of an account handover. None when the account has no such contact."""
    for c in sorted(crm.contacts_by_acc.get(account_id, []), key=lambda c: c["id"]):
        if crm.unique(crm.cname(c)):
            uid = next(u for u in (8, 9, 10, 14) if u not in avoid and u != c["owner_id"])
            return c, uid
    return None


def give_contact(crm: Crm, contact: dict, uid: int) -> list[dict[str, Any]]:
    """UI steps: open the contact and Change Owner to user `uid`."""
    user = crm.uname(uid)
    return open_record(crm.cname(contact)) + [button("Show more actions"), menuitem("Change Owner"),
                                              *lookup("Owner", user.split()[0], user), button("Change Owner", within=DIALOG)]
