"""Deterministic world for the Inkbox mail clone: `build(seed, now) -> {table: [row, ...]}`.

Everything comes from a local Faker seeded with `seed`, one `random.Random(seed)` and the curated
vocab files in seed_data/vocab/mail/ (thread templates per kind: work, clients, family, friends,
calendar invites, invoices, newsletters, receipts, travel, shipping, promotions, social, updates,
spam). All dates are relative to `now`. Same (seed, now) -> identical rows.
"""

from __future__ import annotations

import datetime as dt
import json
import random
import re
import string
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from faker import Faker

VOCAB_DIR = Path(__file__).parent / "vocab" / "mail"

# How many conversations of each kind a world gets.
PLAN: list[tuple[str, int]] = [
    ("work", 54),
    ("clients", 16),
    ("calendar", 12),
    ("family", 12),
    ("friends", 16),
    ("invoices", 8),
    ("newsletters", 26),
    ("receipts", 14),
    ("travel", 8),
    ("shipping", 14),
    ("promotions", 34),
    ("social", 20),
    ("updates", 8),
    ("spam", 6),
]
CONVERSATIONAL = {"work", "clients", "family", "friends", "invoices"}
N_COWORKERS, N_CLIENTS, N_VENDORS, N_FAMILY, N_FRIENDS = 24, 18, 8, 6, 14
DAY_NUMS = [4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 24, 25, 26, 27, 28]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December"]
MIME_SIZES = {  # bytes, (low, high)
    "application/pdf": (38_000, 880_000),
    "image/jpeg": (1_200_000, 4_200_000),
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": (18_000, 210_000),
    "application/vnd.openxmlformats-officedocument.presentationml.presentation": (900_000, 5_400_000),
    "text/plain": (4_000, 52_000),
}


@lru_cache(maxsize=None)
def _vocab_text(name: str) -> str:
    return (VOCAB_DIR / f"{name}.json").read_text()


def vocab(name: str) -> dict[str, Any]:
    """A vocab file, parsed fresh (callers may not mutate shared state)."""
    return json.loads(_vocab_text(name))


def _slug(s: str) -> str:
    return re.sub(r"[^a-z]", "", s.lower())


def fmt_time(t: dt.datetime) -> str:
    return f"{(t.hour % 12) or 12}:{t.minute:02d} {'AM' if t.hour < 12 else 'PM'}"


@dataclass
class Person:
    name: str
    email: str
    relation: str = ""  # coworker|client|vendor|family|friend|me
    company: str = ""
    title: str = ""

    @property
    def first(self) -> str:
        return self.name.split()[0]


@dataclass
class Msg:
    sender: Person
    to: list[Person]
    cc: list[Person]
    subject: str
    body: str
    sent_at: dt.datetime
    attachments: list[dict] = field(default_factory=list)
    invite: dict | None = None


@dataclass
class Conv:
    kind: str
    category: str
    subject: str
    msgs: list[Msg]
    label: str | None = None
    important: bool = False
    spam: bool = False


class WorldBuilder:
    def __init__(self, seed: int, now: dt.datetime):
        self.seed = seed
        self.now = now.replace(microsecond=0, tzinfo=None)
        self.rng = random.Random(seed)
        self.fake = Faker("en_US")
        self.fake.seed_instance(seed)
        self.common = vocab("common")
        self.used_names: set[str] = set()
        self.used_emails: set[str] = set()

    # ------------------------------------------------------------------ people
    def _name(self) -> tuple[str, str]:
        for _ in range(200):
            first, last = self.fake.first_name(), self.fake.last_name()
            if f"{first} {last}" not in self.used_names:
                self.used_names.add(f"{first} {last}")
                return first, last
        raise RuntimeError("could not draw a unique name")

    def _email(self, first: str, last: str, domain: str, patterns: list[str]) -> str:
        f, l = _slug(first), _slug(last)
        for attempt in range(50):
            pat = self.rng.choice(patterns) if attempt < 10 else "{f}.{l}{n}"
            local = pat.format(f=f, l=l, fi=f[:1], n=self.rng.randint(2, 99))
            email = f"{local}@{domain}"
            if email not in self.used_emails:
                self.used_emails.add(email)
                return email
        raise RuntimeError("could not draw a unique e-mail")

    def make_people(self) -> None:
        rng = self.rng
        self.my_company = rng.choice(self.common["my_companies"])
        first, last = self._name()
        self.me = Person(f"{first} {last}", self._email(first, last, self.my_company["domain"], ["{f}.{l}"]), "me",
                         self.my_company["name"], rng.choice(self.common["titles_coworker"]))
        self.people: dict[str, list[Person]] = {}
        pub = self.common["public_domains"]

        def add(relation: str, n: int, company_fn, domain_fn, patterns, titles, last_name=None):
            out = []
            for _ in range(n):
                fst, lst = self._name()
                if last_name and rng.random() < 0.6:
                    self.used_names.discard(f"{fst} {lst}")
                    lst = last_name
                    if f"{fst} {lst}" in self.used_names or fst == first:
                        fst, lst = self._name()
                    self.used_names.add(f"{fst} {lst}")
                company = company_fn()
                out.append(Person(f"{fst} {lst}", self._email(fst, lst, domain_fn(company), patterns), relation,
                                  company["name"] if company else "", rng.choice(titles) if titles else ""))
            self.people[relation] = out

        companies = self.common["companies"]
        client_cos = rng.sample(companies, 12)
        vendor_cos = [c for c in companies if c not in client_cos]
        add("coworker", N_COWORKERS, lambda: self.my_company, lambda c: c["domain"], ["{f}.{l}", "{f}", "{fi}{l}"],
            self.common["titles_coworker"])
        add("client", N_CLIENTS, lambda: rng.choice(client_cos), lambda c: c["domain"], ["{f}.{l}", "{f}", "{fi}{l}"],
            self.common["titles_external"])
        add("vendor", N_VENDORS, lambda: rng.choice(vendor_cos), lambda c: c["domain"], ["{f}.{l}", "{fi}{l}"],
            self.common["titles_external"])
        add("family", N_FAMILY, lambda: None, lambda c: rng.choice(pub), ["{f}{l}", "{f}.{l}", "{f}{l}{n}"], None,
            last_name=last)
        add("friend", N_FRIENDS, lambda: None, lambda c: rng.choice(pub), ["{f}{l}", "{f}.{l}", "{f}{n}", "{fi}{l}{n}"],
            None)
        for p in self.people["family"] + self.people["friend"]:
            p.company = self.fake.company() if rng.random() < 0.7 else ""
            p.title = self.fake.job() if p.company else ""
        self.all_people = [p for rel in ("coworker", "client", "vendor", "family", "friend") for p in self.people[rel]]
        self.home_airport = rng.choice(vocab("travel")["airports"])
        self.card_last4 = f"{rng.randint(1000, 9999)}"

    # ------------------------------------------------------------------- times
    def thread_start(self, business: bool) -> dt.datetime:
        rng, now = self.rng, self.now
        r = rng.random()
        if r < 0.08:  # today (or the last hours)
            minutes = rng.randint(3, 10 * 60)
        elif r < 0.30:  # this week
            minutes = rng.randint(10 * 60, 7 * 24 * 60)
        elif r < 0.55:  # this month
            minutes = rng.randint(7 * 24 * 60, 30 * 24 * 60)
        else:  # the six months before
            minutes = rng.randint(30 * 24 * 60, 182 * 24 * 60)
        t = now - dt.timedelta(minutes=minutes)
        if business and not 8 <= t.hour < 19:
            t = t.replace(hour=rng.randint(8, 17), minute=rng.randint(0, 59))
            if t >= now:
                t -= dt.timedelta(days=1)
        return t.replace(second=rng.randint(0, 59))

    def next_time(self, t: dt.datetime) -> dt.datetime:
        r = self.rng.random()
        if r < 0.6:
            gap = dt.timedelta(minutes=self.rng.randint(4, 240))
        elif r < 0.9:
            gap = dt.timedelta(hours=self.rng.randint(4, 30), minutes=self.rng.randint(0, 59))
        else:
            gap = dt.timedelta(days=self.rng.randint(1, 4), minutes=self.rng.randint(0, 600))
        return (t + gap).replace(second=self.rng.randint(0, 59))

    # ----------------------------------------------------------------- context
    def context(self, start: dt.datetime, a: Person | None, b: Person | None, kind_vocab: dict) -> dict[str, Any]:
        rng, fake = self.rng, self.fake
        month = start.month
        wd = rng.sample(WEEKDAYS, 2)
        hour = rng.randint(9, 16)
        t1 = start.replace(hour=hour, minute=rng.choice([0, 15, 30, 45]))
        t2 = t1 + dt.timedelta(minutes=rng.choice([45, 60, 90, 120]))
        airports = [ap for ap in vocab("travel")["airports"] if ap != self.home_airport]
        dest = rng.choice(airports)
        trip = start + dt.timedelta(days=rng.randint(6, 40))
        delivery = start + dt.timedelta(days=rng.randint(1, 5))
        items = kind_vocab.get("items") or vocab("receipts")["items"]
        topics = kind_vocab.get("topics") or vocab("work")["topics"]
        ext = self.people["client"] + self.people["vendor"]
        a = a or rng.choice(self.all_people)
        b = b or rng.choice(self.all_people)
        return {
            "me_first": self.me.first,
            "me_first_lower": self.me.first.lower(),
            "me_name": self.me.name,
            "my_company": self.my_company["name"],
            "a_first": a.first, "a_name": a.name, "a_company": a.company or "a design studio", "a_title": a.title or "Designer",
            "b_first": b.first, "b_name": b.name,
            "client": rng.choice(ext).company,
            "project": rng.choice(self.common["projects"]),
            "product": rng.choice(self.common["products"]),
            "quarter": f"Q{(month - 1) // 3 + 1}",
            "weekday": wd[0], "weekday2": wd[1],
            "time": fmt_time(t1), "time2": fmt_time(t2),
            "month": MONTHS[month - 1], "next_month": MONTHS[month % 12], "prev_month": MONTHS[(month - 2) % 12],
            "next_year": str(start.year + 1),
            "amount": f"${rng.randint(4, 180) * 250:,}",
            "amount_small": f"${rng.randint(20, 240)}.{rng.choice(['00', '50', '99', '25'])}",
            "fare": f"${rng.randint(8, 140)}.{rng.randint(0, 99):02d}",
            "percent": str(rng.randint(3, 24)),
            "count": str(rng.randint(12, 64)),
            "invoice_no": f"INV-{rng.randint(10000, 99999)}",
            "quote_no": f"Q-{rng.randint(1000, 9999)}",
            "order_no": f"{rng.randint(100000, 999999)}",
            "tracking_no": "SW" + "".join(rng.choice(string.digits) for _ in range(12)),
            "confirmation": "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(6)),
            "flight_no": f"SK {rng.randint(100, 2999)}",
            "from_airport": self.home_airport[0], "to_airport": dest[0], "to_city": dest[1],
            "trip_date": f"{trip.strftime('%a')}, {trip.strftime('%b')} {trip.day}",
            "delivery_day": f"{delivery.strftime('%A')}, {delivery.strftime('%B')} {delivery.day}",
            "seat": f"{rng.randint(3, 34)}{rng.choice('ABCDEF')}",
            "city": rng.choice(self.common["cities"]),
            "restaurant": rng.choice(self.common["restaurants"]),
            "place": rng.choice(self.common["places"]),
            "room": rng.choice(self.common["meeting_rooms"]),
            "item": rng.choice(items),
            "gadget": rng.choice(kind_vocab.get("gadgets") or ["Wireless mouse"]),
            "device": rng.choice(kind_vocab.get("devices") or ["Mac"]),
            "topic": rng.choice(topics),
            "last4": self.card_last4,
            "issue": str(180 + (start - dt.datetime(2022, 1, 3)).days // 7),
            "img_no": str(rng.randint(1000, 9999)), "img_no2": str(rng.randint(1000, 9999)),
            "day_num": str(rng.choice(DAY_NUMS)),
            "candidate": fake.name(), "new_hire": f"{fake.first_name()} {fake.last_name()}",
        }

    def _attachments(self, specs: list[dict], ctx: dict) -> list[dict]:
        out = []
        for spec in specs:
            lo, hi = MIME_SIZES.get(spec["mime"], (10_000, 200_000))
            out.append({"filename": spec["filename"].format_map(ctx), "mime": spec["mime"],
                        "size": self.rng.randint(lo, hi)})
        return out

    # ----------------------------------------------------------- conversations
    def conversation(self, kind: str, kv: dict) -> Conv | None:
        rng = self.rng
        tpl = rng.choice(kv["threads"])
        pool = self.people[kv["with"]]
        a = rng.choice(pool)
        b = rng.choice([p for p in pool if p is not a]) if len(pool) > 1 else a
        start = self.thread_start(business=kind in ("work", "clients", "invoices"))
        ctx = self.context(start, a, b, kv)
        script = tpl["messages"]
        n = rng.choices(range(1, 7), weights=[2, 3, 3, 2, 1.2, 0.8])[0]
        cc = [b] if kind == "work" and b is not a and rng.random() < 0.3 else []
        subject = tpl["subject"].format_map(ctx)
        speaker = self.me if tpl.get("starter") == "me" else a
        msgs: list[Msg] = []
        t = start
        att_on = tpl.get("attachments_on", 0)
        for i in range(n):
            if i:
                t = self.next_time(t)
                if kind in ("work", "clients") and not 8 <= t.hour < 20:
                    t = (t + dt.timedelta(days=1)).replace(hour=rng.randint(8, 10), minute=rng.randint(0, 59))
                if t >= self.now - dt.timedelta(minutes=1):
                    break
            other = a if speaker is self.me else self.me
            mctx = dict(ctx, from_first=speaker.first, from_name=speaker.name, to_first=other.first)
            text = script[i] if i < len(script) else rng.choice(self.common["acks"])
            body = text.format_map(mctx)
            msgs.append(Msg(speaker, [other], list(cc), subject if i == 0 else f"Re: {subject}", body, t,
                            self._attachments(tpl.get("attachments", []), ctx) if i == att_on else []))
            speaker = other
        imp = rng.random() < kv.get("important", 0.3)
        label = kv.get("label") if rng.random() < kv.get("label_rate", 0.7) else None
        return Conv(kind, kv["category"], subject, msgs, label, imp)

    def invite(self, kv: dict) -> Conv:
        rng = self.rng
        a = rng.choice(self.people["coworker"])
        start = self.thread_start(business=True)
        ctx = self.context(start, a, None, kv)
        ev = rng.choice(kv["events"])
        title = ev["title"].format_map(ctx)
        day = (start + dt.timedelta(days=rng.randint(1, 9))).date()
        while day.weekday() >= 5:
            day += dt.timedelta(days=1)
        starts = dt.datetime.combine(day, dt.time(rng.randint(9, 16), rng.choice([0, 30])))
        ends = starts + dt.timedelta(minutes=ev["minutes"])
        when = (f"{starts.strftime('%a %b')} {starts.day}, {starts.year} "
                f"{fmt_time(starts).replace(':00', '').replace(' ', '').lower()} - "
                f"{fmt_time(ends).replace(':00', '').replace(' ', '').lower()}")
        location = ev["location"].format_map(ctx)
        subject = f"Invitation: {title} @ {when}"
        body = (f"{a.name} has invited you to this event.\n\n{title}\nWhen: {when}\n"
                f"Where: {location}\nOrganizer: {a.name} <{a.email}>\n\n{ev['description'].format_map(ctx)}")
        inv = {"title": title, "starts_at": starts, "ends_at": ends, "location": location,
               "organizer_email": a.email, "rsvp": "yes" if ends < self.now and rng.random() < 0.7 else None}
        msgs = [Msg(a, [self.me], [], subject, body, start, invite=inv)]
        if rng.random() < 0.3:
            t = self.next_time(start)
            if t < self.now:
                i = rng.randrange(len(kv["replies"]))
                msgs.append(Msg(self.me, [a], [], f"Re: {subject}",
                                kv["replies"][i].format_map(dict(ctx, from_first=self.me.first, to_first=a.first)), t))
                t2 = self.next_time(t)
                if t2 < self.now:
                    msgs.append(Msg(a, [self.me], [], f"Re: {subject}",
                                    kv["replies_back"][i].format_map(dict(ctx, from_first=a.first, to_first=self.me.first)), t2))
        return Conv("calendar", kv["category"], subject, msgs, kv.get("label") if rng.random() < 0.5 else None,
                    rng.random() < kv.get("important", 0.5))

    def automated(self, kind: str, kv: dict) -> Conv:
        rng = self.rng
        sender = rng.choice(kv["senders"])
        tpl = rng.choice(sender["templates"])
        start = self.thread_start(business=False)
        a = rng.choice(self.people["friend"] + self.people["coworker"]) if rng.random() < 0.5 else None
        if a is None:
            first, last = self.fake.first_name(), self.fake.last_name()
            a = Person(f"{first} {last}", "", "", self.fake.company(), self.fake.job())
        ctx = self.context(start, a, None, kv)
        subject = tpl["subject"].format_map(ctx)
        who = Person(sender["name"], sender["email"], "service")
        msg = Msg(who, [self.me], [], subject, tpl["body"].format_map(ctx), start,
                  self._attachments(tpl.get("attachments", []), ctx))
        label = kv.get("label") if rng.random() < kv.get("label_rate", 0.7) else None
        return Conv(kind, kv["category"], subject, [msg], label, rng.random() < kv.get("important", 0.0),
                    spam=kind == "spam")

    # -------------------------------------------------------------------- rows
    def build(self) -> dict[str, list[dict]]:
        rng, now = self.rng, self.now
        self.make_people()
        convs: list[Conv] = []
        for kind, count in PLAN:
            kv = vocab(kind)
            for _ in range(count):
                if kind in CONVERSATIONAL:
                    convs.append(self.conversation(kind, kv))
                elif kind == "calendar":
                    convs.append(self.invite(kv))
                else:
                    convs.append(self.automated(kind, kv))
        convs.sort(key=lambda c: (c.msgs[0].sent_at, c.subject))

        account = [{
            "id": 1, "name": self.me.name, "email": self.me.email, "signature": "",
            "signature_on_replies": True, "display_density": "default", "inbox_type": "default", "page_size": 50,
            "conversation_view": True, "reading_pane": "none", "show_snippets": True, "undo_send_seconds": 5,
            "default_reply": "reply", "send_and_archive": False, "keyboard_shortcuts": False,
            "tab_promotions": True, "tab_social": True, "tab_updates": True, "theme": "default",
            "vacation_enabled": False, "vacation_subject": "", "vacation_body": "", "vacation_start": None,
            "vacation_end": None, "vacation_contacts_only": False,
        }]

        contacts = []
        notes = self.common["contact_notes"]
        for i, p in enumerate(self.all_people, start=1):
            bday = None
            if p.relation in ("family", "friend") or rng.random() < 0.2:
                bday = dt.date(rng.randint(1950, 2002), rng.randint(1, 12), rng.randint(1, 28))
            contacts.append({
                "id": i, "name": p.name, "email": p.email, "company": p.company, "title": p.title,
                "phone": self.fake.numerify("(###) ###-####").replace("(0", "(2").replace("(1", "(3"),
                "address": self.fake.address().replace("\n", ", ") if p.relation in ("family", "friend") else "",
                "birthday": bday, "notes": rng.choice(notes) if rng.random() < 0.35 else "",
                "relation": p.relation, "is_starred": rng.random() < 0.12,
                "is_saved": not (p.relation == "vendor" and rng.random() < 0.5),
                "created_at": (now - dt.timedelta(days=rng.randint(190, 1500), minutes=rng.randint(0, 1439))).replace(second=0),
            })

        labels, label_ids = [], {}
        for i, lab in enumerate(self.common["labels"], start=1):
            label_ids[lab["key"]] = i
            labels.append({"id": i, "name": lab["name"], "color": lab["color"], "text_color": lab["text_color"],
                           "parent_id": label_ids.get(lab.get("parent")) if lab.get("parent") else None,
                           "show_in_list": True, "show_in_message_list": True})

        # Which conversations get which state.
        trashable = [i for i, c in enumerate(convs) if not c.spam and 2 <= (now - c.msgs[-1].sent_at).days <= 25]
        trashed = set(rng.sample(trashable, min(6, len(trashable))))

        threads, messages, message_labels, attachments, invites = [], [], [], [], []
        flat: list[tuple[int, Msg, Conv, int]] = []
        for tid, conv in enumerate(convs, start=1):
            threads.append({"id": tid, "subject": conv.subject, "category": conv.category, "is_muted": False})
            for pos, m in enumerate(conv.msgs):
                flat.append((tid, m, conv, pos))
        flat.sort(key=lambda x: (x[1].sent_at, x[0], x[3]))
        msg_ids = {(tid, pos): mid for mid, (tid, _m, _c, pos) in enumerate(flat, start=1)}

        star_rate = {"promotions": 0.02, "social": 0.0, "spam": 0.0, "newsletters": 0.03}
        thread_flags = {}
        for tid, conv in enumerate(convs, start=1):
            last = conv.msgs[-1].sent_at
            age = (now - last).total_seconds() / 86400
            archived = age > 10 and rng.random() < (0.45 if conv.kind in ("promotions", "social", "newsletters") else 0.3)
            starred_pos = None
            if rng.random() < star_rate.get(conv.kind, 0.09):
                others = [i for i, m in enumerate(conv.msgs) if m.sender is not self.me] or [0]
                starred_pos = rng.choice(others)
            thread_flags[tid] = (archived, starred_pos)

        for mid, (tid, m, conv, pos) in enumerate(flat, start=1):
            mine = m.sender is self.me
            archived, starred_pos = thread_flags[tid]
            later_mine = any(x.sender is self.me for x in conv.msgs[pos + 1:])
            age = (now - m.sent_at).total_seconds() / 86400
            if mine or later_mine:
                unread = False
            else:
                p = 0.72 if age < 1 else 0.38 if age < 7 else 0.12 if age < 30 else 0.04
                if conv.kind == "promotions":
                    p = max(p, 0.45)
                elif conv.kind in ("social", "newsletters"):
                    p = max(p, 0.3)
                elif conv.spam:
                    p = 0.8
                unread = rng.random() < p
            is_trashed = (tid - 1) in trashed
            messages.append({
                "id": mid, "thread_id": tid,
                "in_reply_to_id": msg_ids[(tid, pos - 1)] if pos else None,
                "from_name": m.sender.name, "from_email": m.sender.email,
                "to": [p.email for p in m.to], "cc": [p.email for p in m.cc], "bcc": [],
                "subject": m.subject, "body": m.body, "sent_at": m.sent_at,
                "is_read": not unread, "is_starred": pos == starred_pos,
                "is_important": conv.important and not conv.spam,
                "in_inbox": not mine and not archived and not conv.spam and not is_trashed,
                "is_sent": mine, "is_draft": False, "is_spam": conv.spam,
                "is_trashed": is_trashed,
                "trashed_at": (conv.msgs[-1].sent_at + dt.timedelta(hours=rng.randint(1, 30))) if is_trashed else None,
                "snoozed_until": None, "scheduled_at": None,
            })
            if is_trashed and messages[-1]["trashed_at"] >= now:
                messages[-1]["trashed_at"] = now - dt.timedelta(minutes=30)
            if conv.label:
                message_labels.append({"message_id": mid, "label_id": label_ids[conv.label]})
            for att in m.attachments:
                attachments.append({"message_id": mid, **att})
            if m.invite:
                invites.append({"message_id": mid, **m.invite})

        for rows in (message_labels, attachments, invites):
            for i, r in enumerate(rows, start=1):
                r["id"] = i
        return {
            "account": account,
            "contacts": contacts,
            "labels": labels,
            "threads": threads,
            "messages": messages,
            "message_labels": [{"id": r["id"], "message_id": r["message_id"], "label_id": r["label_id"]} for r in message_labels],
            "attachments": [{"id": r["id"], "message_id": r["message_id"], "filename": r["filename"], "mime": r["mime"],
                             "size": r["size"]} for r in attachments],
            "invites": [{"id": r["id"], **{k: v for k, v in r.items() if k != "id"}} for r in invites],
            "filters": [],
            "blocked_senders": [],
            "templates": [],
        }


def build(seed: int, now: dt.datetime) -> dict[str, list[dict]]:
    """The rows of a fresh Inkbox world for `(seed, now)`; deterministic."""
    return WorldBuilder(seed, now).build()
