"""Deterministic world for the Inkbox mail clone: `build(seed, now) -> {table: [row, ...]}`.

Everything comes from a local Faker seeded with `seed`, one `random.Random(seed)` and the curated
vocab files in seed_data/vocab/mail/ (thread templates per kind: work, clients, family, friends,
calendar invites, invoices, newsletters, receipts, travel, shipping, promotions, social, updates,
spam). All dates are relative to `now`. Same (seed, now) -> identical rows.
"""

from __future__ import annotations

import datetime as dt
import random
import string
from dataclasses import dataclass, field
from typing import Any

from faker import Faker

from seed_data.common import slug, vocab_dir, vocab_reader

VOCAB_DIR = vocab_dir("mail")
vocab = vocab_reader("mail")

# How many conversations of each kind a world gets (about 2,100 messages over 18 months).
PLAN: list[tuple[str, int]] = [
    ("work", 250),
    ("clients", 96),
    ("calendar", 56),
    ("family", 52),
    ("friends", 70),
    ("newsletters", 150),
    ("receipts", 100),
    ("travel", 44),
    ("shipping", 80),
    ("promotions", 170),
    ("social", 96),
    ("updates", 66),
    ("spam", 24),
]
CONVERSATIONAL = {"work", "clients", "family", "friends", "invoices"}
N_COWORKERS, N_CLIENTS, N_FAMILY, N_FRIENDS, N_OTHERS = 62, 50, 10, 38, 24
HISTORY_DAYS = 548  # 18 months
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

_PDF, _JPG, _XLSX, _PPTX, _TXT = ("application/pdf", "image/jpeg",
                                  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
                                  "application/vnd.openxmlformats-officedocument.presentationml.presentation",
                                  "text/plain")
# My files (compose's "Insert from Files"), each name distinct so a task can ask for one by name.
MY_FILES = [
    ("Q2 Budget Forecast.xlsx", _XLSX), ("Headcount Plan 2026.xlsx", _XLSX), ("Expense Report - February.xlsx", _XLSX),
    ("Offsite Agenda.pdf", _PDF), ("Project Timeline.pdf", _PDF), ("Signed NDA.pdf", _PDF),
    ("Travel Itinerary.pdf", _PDF), ("Product Roadmap.pptx", _PPTX), ("Quarterly Review Deck.pptx", _PPTX),
    ("Team Photo.jpg", _JPG), ("Whiteboard Sketch.jpg", _JPG), ("Meeting Notes.txt", _TXT),
    ("Release Checklist.txt", _TXT), ("Vendor Comparison.xlsx", _XLSX),
]


def fmt_time(t: dt.datetime) -> str:
    return f"{(t.hour % 12) or 12}:{t.minute:02d} {'AM' if t.hour < 12 else 'PM'}"


@dataclass
class Person:
    name: str
    email: str
    relation: str = ""  # coworker|client|vendor|family|friend|other|me|service
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
    force: dict = field(default_factory=dict)  # draft, scheduled, unread, read, inbox
    meta: dict = field(default_factory=dict)  # what the seed knows about it (not stored)


class WorldBuilder:
    def __init__(self, seed: int, now: dt.datetime):
        self.seed = seed
        self.now = now.replace(microsecond=0, tzinfo=None)
        self.rng = random.Random(seed)
        self.fake = Faker("en_US")
        self.fake.seed_instance(seed)
        self.common = vocab("common")
        self.airports = [tuple(a) for a in vocab("travel")["airports"]]
        self.receipt_items = vocab("receipts")["items"]
        self.work_topics = vocab("work")["topics"]
        self.used_names: set[str] = set()
        self.used_emails: set[str] = set()
        self.used_flights: set[str] = set()

    # ------------------------------------------------------------------ people
    def _name(self) -> tuple[str, str]:
        for _ in range(400):
            first, last = self.fake.first_name(), self.fake.last_name()
            if f"{first} {last}" not in self.used_names and first.isalpha() and last.isalpha():
                self.used_names.add(f"{first} {last}")
                return first, last
        raise RuntimeError("could not draw a unique name")

    def _email(self, first: str, last: str, domain: str, patterns: list[str]) -> str:
        f, l = slug(first), slug(last)
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
                         self.my_company["name"], rng.choice(self.common["titles_coworker"][:8]))
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
        client_cos = rng.sample(companies, 18)
        self.client_companies = client_cos
        add("coworker", N_COWORKERS, lambda: self.my_company, lambda c: c["domain"], ["{f}.{l}", "{f}", "{fi}{l}"],
            self.common["titles_coworker"])
        add("client", N_CLIENTS, lambda: rng.choice(client_cos), lambda c: c["domain"], ["{f}.{l}", "{f}", "{fi}{l}"],
            self.common["titles_external"])
        add("family", N_FAMILY, lambda: None, lambda c: rng.choice(pub), ["{f}{l}", "{f}.{l}", "{f}{l}{n}"], None,
            last_name=last)
        add("friend", N_FRIENDS, lambda: None, lambda c: rng.choice(pub), ["{f}{l}", "{f}.{l}", "{f}{n}", "{fi}{l}{n}"],
            None)
        # Personal contacts carry no employer: every company in Contacts is one that writes to me.
        # Accounts payable: the shared finance mailbox invoices get forwarded to.
        ap = Person("Accounts Payable", f"ap@{self.my_company['domain']}", "coworker", self.my_company["name"],
                    "Finance team")
        self.used_emails.add(ap.email)
        self.ap = ap
        self.people["coworker"].append(ap)
        # Vendors: two people per vendor company (billing, account manager).
        self.vendors = []
        vend = vocab("vendors")["vendors"]
        for v in vend:
            billing_first, billing_last = self._name()
            am_first, am_last = self._name()
            billing = Person(f"{billing_first} {billing_last}",
                             self._email(billing_first, billing_last, v["domain"], ["{f}.{l}", "{fi}{l}"]), "vendor",
                             v["name"], "Billing Specialist")
            am = Person(f"{am_first} {am_last}", self._email(am_first, am_last, v["domain"], ["{f}.{l}", "{f}"]),
                        "vendor", v["name"], "Account Manager")
            self.vendors.append({**v, "billing": billing, "am": am})
        self.people["vendor"] = [p for v in self.vendors for p in (v["billing"], v["am"])]
        # Other contacts: people who wrote once (recruiters, organizers, neighbours...).
        kinds = self.common["other_contact_kinds"]
        others = []
        for i in range(N_OTHERS):
            kind = kinds[i % len(kinds)]
            fst, lst = self._name()
            if kind["title"] == "Neighbor":
                company, domain = "", rng.choice(pub)
            else:
                co = rng.choice([c for c in companies if c not in client_cos])
                company, domain = co["name"], co["domain"]
            p = Person(f"{fst} {lst}", self._email(fst, lst, domain, ["{f}.{l}", "{f}{l}"]), "other", company,
                       kind["title"])
            others.append((p, kind))
        self.others = others
        self.people["other"] = [p for p, _ in others]
        self.all_people = [p for rel in ("coworker", "client", "vendor", "family", "friend", "other")
                           for p in self.people[rel]]
        self.home_airport = rng.choice(self.airports)
        self.card_last4 = f"{rng.randint(1000, 9999)}"

    # ------------------------------------------------------------------- times
    def thread_start(self, business: bool) -> dt.datetime:
        rng, now = self.rng, self.now
        r = rng.random()
        if r < 0.025:  # today (or the last hours)
            minutes = rng.randint(3, 10 * 60)
        elif r < 0.11:  # this week
            minutes = rng.randint(10 * 60, 7 * 24 * 60)
        elif r < 0.24:  # this month
            minutes = rng.randint(7 * 24 * 60, 30 * 24 * 60)
        elif r < 0.45:  # the three months before
            minutes = rng.randint(30 * 24 * 60, 120 * 24 * 60)
        else:  # back to 18 months
            minutes = rng.randint(120 * 24 * 60, HISTORY_DAYS * 24 * 60)
        t = now - dt.timedelta(minutes=minutes)
        if business and not 8 <= t.hour < 19:
            t = t.replace(hour=rng.randint(8, 17), minute=rng.randint(0, 59))
            if t >= now:
                t -= dt.timedelta(days=1)
        if business and t.weekday() >= 5 and rng.random() < 0.85:
            t -= dt.timedelta(days=t.weekday() - 4)
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
        airports = [ap for ap in self.airports if ap != self.home_airport]
        dest = rng.choice(airports)
        trip = start + dt.timedelta(days=rng.randint(6, 40))
        delivery = start + dt.timedelta(days=rng.randint(1, 5))
        items = kind_vocab.get("items") or self.receipt_items
        topics = kind_vocab.get("topics") or self.work_topics
        ext = self.people["client"]
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
    def conversation(self, kind: str, kv: dict, a: Person | None = None) -> Conv:
        rng = self.rng
        tpl = rng.choice(kv["threads"])
        pool = [p for p in self.people[kv["with"]] if p is not self.ap]
        a = a or rng.choice(pool)
        b = rng.choice([p for p in pool if p is not a]) if len(pool) > 1 else a
        start = self.thread_start(business=kind in ("work", "clients"))
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
            if speaker is a and kind == "clients" and a.company and a.company not in body:
                body += f"\n\n{a.name}\n{a.title}, {a.company}"  # a client's email signature
            msgs.append(Msg(speaker, [other], list(cc), subject if i == 0 else f"Re: {subject}", body, t,
                            self._attachments(tpl.get("attachments", []), ctx) if i == att_on else []))
            speaker = other
        imp = rng.random() < kv.get("important", 0.3)
        label = kv.get("label") if rng.random() < kv.get("label_rate", 0.7) else None
        if kind == "work" and label and "{project}" in tpl["subject"] and rng.random() < 0.5:
            label = "projects"
        if kind == "friends" and rng.random() < 0.3:
            label = "personal"
        if label and start < self.now - dt.timedelta(days=365) and rng.random() < 0.3:
            label = "archive2024"
        return Conv(kind, kv["category"], subject, msgs, label, imp)

    def invite(self, kv: dict) -> Conv:
        rng = self.rng
        a = rng.choice(self.people["coworker"][:-1])
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
        a = rng.choice(self.people["friend"] + self.people["coworker"][:-1]) if rng.random() < 0.5 else None
        if a is None:
            first, last = self.fake.first_name(), self.fake.last_name()
            a = Person(f"{first} {last}", "", "", self.fake.company(), self.fake.job())
        ctx = self.context(start, a, None, kv)
        if "{flight_no}" in tpl["body"]:
            while ctx["flight_no"] in self.used_flights:
                ctx["flight_no"] = f"SK {rng.randint(100, 2999)}"
            self.used_flights.add(ctx["flight_no"])
        subject = tpl["subject"].format_map(ctx)
        who = Person(sender["name"], sender["email"], "service")
        msg = Msg(who, [self.me], [], subject, tpl["body"].format_map(ctx), start,
                  self._attachments(tpl.get("attachments", []), ctx))
        label = kv.get("label") if rng.random() < kv.get("label_rate", 0.7) else None
        return Conv(kind, kv["category"], subject, [msg], label, rng.random() < kv.get("important", 0.0),
                    spam=kind == "spam")

    # ------------------------------------------------------- vendor invoices
    @staticmethod
    def _month_end(year: int, month: int) -> dt.date:
        nxt = dt.date(year + (month == 12), month % 12 + 1, 1)
        return nxt - dt.timedelta(days=1)

    @staticmethod
    def _long(d: dt.date) -> str:
        return f"{MONTHS[d.month - 1]} {d.day}, {d.year}"

    def vendor_series(self) -> list[Conv]:
        """Every vendor bills monthly (or quarterly) with a PDF; each contract's end month differs, so
        exactly one vendor's contract ends this month, one next month, and so on."""
        rng, now = self.rng, self.now
        vv = vocab("vendors")
        offsets = list(range(len(self.vendors)))
        rng.shuffle(offsets)
        convs: list[Conv] = []
        used_numbers: set[int] = set()
        for v, k in zip(self.vendors, offsets):
            y, m = now.year, now.month + k
            y, m = y + (m - 1) // 12, (m - 1) % 12 + 1
            end = self._month_end(y, m)
            v["contract_end"] = end
            billing, am = v["billing"], v["am"]
            months = rng.randint(6, 14)
            day = rng.randint(1, 6)
            for back in range(0, min(months * v["cycle"], 17), v["cycle"]):
                yy, mm = now.year, now.month - back
                while mm < 1:
                    yy, mm = yy - 1, mm + 12
                sent = dt.datetime(yy, mm, day, rng.randint(7, 11), rng.randint(0, 59), rng.randint(0, 59))
                if sent >= now - dt.timedelta(hours=2):
                    continue
                # The contract term containing this invoice (yearly, ending at `end`).
                term_end = end
                while True:
                    nm = term_end.month % 12 + 1
                    term_start = dt.date(term_end.year - 1 + (nm == 1), nm, 1)
                    if term_start <= sent.date():
                        break
                    term_end = self._month_end(term_end.year - 1, term_end.month)
                lo, hi = v["amount"]
                total_cents = rng.randint(lo * 100, hi * 100)
                total_cents -= total_cents % 5
                parts = rng.sample(v["lines"], min(len(v["lines"]), rng.randint(2, 3)))
                cuts = sorted(rng.sample(range(1, total_cents), len(parts) - 1))
                amounts = [b - a for a, b in zip([0, *cuts], [*cuts, total_cents])]
                lines = "\n".join(f"{p}: ${c / 100:,.2f}" for p, c in zip(parts, amounts))
                while True:
                    no = rng.randint(10000, 99999)
                    if no not in used_numbers:
                        used_numbers.add(no)
                        break
                period = f"{MONTHS[mm - 1]} {yy}" if v["cycle"] == 1 else \
                    f"{MONTHS[mm - 1]}-{MONTHS[(mm + 1) % 12]} {yy}"
                due = (sent + dt.timedelta(days=30)).date()
                ctx = {"invoice_no": f"INV-{no}", "vendor": v["name"], "service": v["service"], "period": period,
                       "lines": lines, "amount": f"${total_cents / 100:,.2f}", "due": self._long(due),
                       "term_start": self._long(term_start), "term_end": self._long(term_end),
                       "to_first": self.me.first, "from_name": billing.name, "from_first": billing.first}
                subject = vv["invoice"]["subject"].format_map(ctx)
                msgs = [Msg(billing, [self.me], [], subject, vv["invoice"]["body"].format_map(ctx), sent,
                            [{"filename": f"Invoice-INV-{no}.pdf", "mime": "application/pdf",
                              "size": rng.randint(38_000, 240_000)}])]
                if rng.random() < 0.3:
                    i = rng.randrange(3)
                    t = self.next_time(sent)
                    if t < now:
                        rctx = dict(ctx, to_first=billing.first, from_first=self.me.first)
                        msgs.append(Msg(self.me, [billing], [], f"Re: {subject}", vv["invoice"]["reply_me"][i].format_map(rctx), t))
                        t2 = self.next_time(t)
                        if t2 < now and rng.random() < 0.7:
                            bctx = dict(ctx, to_first=self.me.first, from_first=billing.first)
                            msgs.append(Msg(billing, [self.me], [], f"Re: {subject}", vv["invoice"]["reply_back"][i].format_map(bctx), t2))
                conv = Conv("invoices", "primary", subject, msgs, "invoices" if rng.random() < 0.85 else None,
                            back == 0 and rng.random() < 0.5)
                conv.meta = {"vendor": v["name"], "invoice_no": f"INV-{no}", "amount": ctx["amount"]}
                convs.append(conv)
            # Renewal notice from the account manager, about six weeks before the end (when that is past).
            notice = dt.datetime.combine(end - dt.timedelta(days=rng.randint(38, 50)), dt.time(rng.randint(9, 15), rng.randint(0, 59)))
            if notice < now - dt.timedelta(hours=3):
                cctx = {"vendor": v["name"], "service": v["service"], "my_company": self.my_company["name"],
                        "term_end": self._long(end), "term_end_short": f"{MONTHS[end.month - 1]} {end.day}",
                        "to_first": self.me.first, "from_name": am.name, "from_first": am.first}
                subject = vv["contract"]["subject"].format_map(cctx)
                msgs = [Msg(am, [self.me], [], subject, vv["contract"]["body"].format_map(cctx), notice)]
                t = self.next_time(notice)
                if t < now and rng.random() < 0.6:
                    msgs.append(Msg(self.me, [am], [], f"Re: {subject}",
                                    vv["contract"]["reply_me"].format_map(dict(cctx, to_first=am.first, from_first=self.me.first)), t))
                    t2 = self.next_time(t)
                    if t2 < now:
                        msgs.append(Msg(am, [self.me], [], f"Re: {subject}",
                                        vv["contract"]["reply_back"].format_map(dict(cctx, to_first=self.me.first, from_first=am.first)), t2))
                conv = Conv("contracts", "primary", subject, msgs, "finance", True)
                convs.append(conv)
        return convs

    # ------------------------------------------- questions about known dates
    def questions(self) -> list[Conv]:
        rng, now = self.rng, self.now
        qv = vocab("questions")
        convs = []
        coworkers = self.people["coworker"][:-1]
        used_projects: set[str] = set()
        for ev in qv["events"]:
            a, b = rng.sample(coworkers, 2)
            when = (now + dt.timedelta(days=rng.randint(8, 40))).date()
            while when.weekday() >= 5:
                when += dt.timedelta(days=1)
            announced = now - dt.timedelta(days=rng.randint(4, 20), minutes=rng.randint(0, 600))
            announced = announced.replace(hour=rng.randint(9, 16))
            ctx = self.context(announced, a, b, {})
            while ctx["project"] in used_projects:
                ctx["project"] = rng.choice(self.common["projects"])
            used_projects.add(ctx["project"])
            ctx["date_long"] = f"{when.strftime('%A')}, {MONTHS[when.month - 1]} {when.day}"
            team = rng.sample([p for p in coworkers if p not in (a, b)], 3)
            subj = ev["announce_subject"].format_map(ctx)
            body = ev["announce_body"].format_map(dict(ctx, from_first=a.first, to_first=self.me.first))
            ann = Conv("announce", "primary", subj, [Msg(a, [self.me, b, *team], [], subj, body, announced)], "work", True)
            asked = now - dt.timedelta(hours=rng.randint(1, 40), minutes=rng.randint(0, 59))
            qsubj = ev["question_subject"].format_map(ctx)
            qbody = ev["question_body"].format_map(dict(ctx, from_first=b.first, to_first=self.me.first))
            q = Conv("question", "primary", qsubj, [Msg(b, [self.me], [], qsubj, qbody, asked)], None, False)
            q.force = {"unread": True, "inbox": True}
            ann.force = {"read": True}
            q.meta = {"event": ev["key"], "name": ev["name"].format_map(ctx), "date": when.isoformat(),
                      "asker": b.email, "announcer": a.email, "announce_subject": subj}
            ann.meta = {"event": ev["key"], "date": when.isoformat()}
            convs += [ann, q]
        # Upcoming trips, and a friend asking about one of them.
        tv = vocab("travel")
        conf_tpl = next(t for s in tv["senders"] for t in s["templates"] if "{seat}" in t["body"])
        sender = next(s for s in tv["senders"] if conf_tpl in s["templates"])
        dests = rng.sample([ap for ap in self.airports if ap != self.home_airport], 3)
        friends = rng.sample(self.people["friend"], 3)
        for dest, friend in zip(dests, friends):
            booked = now - dt.timedelta(days=rng.randint(5, 25), hours=rng.randint(0, 12))
            trip = (now + dt.timedelta(days=rng.randint(6, 35))).date()
            ctx = self.context(booked, friend, None, tv)
            while ctx["flight_no"] in self.used_flights:
                ctx["flight_no"] = f"SK {rng.randint(100, 2999)}"
            self.used_flights.add(ctx["flight_no"])
            ctx.update(to_airport=dest[0], to_city=dest[1], trip_date=f"{trip.strftime('%a')}, {trip.strftime('%b')} {trip.day}")
            subj = conf_tpl["subject"].format_map(ctx)
            conf = Conv("travel", "updates", subj, [Msg(Person(sender["name"], sender["email"], "service"), [self.me], [],
                                                        subj, conf_tpl["body"].format_map(ctx), booked,
                                                        self._attachments(conf_tpl.get("attachments", []), ctx))],
                        "travel", True)
            asked = now - dt.timedelta(hours=rng.randint(2, 60))
            qsubj = qv["trip_question"]["subject"].format_map(ctx)
            q = Conv("trip_question", "primary", qsubj,
                     [Msg(friend, [self.me], [], qsubj, qv["trip_question"]["body"].format_map(
                         dict(ctx, to_first=self.me.first, from_first=friend.first)), asked)], None, False)
            q.force = {"inbox": True}
            q.meta = {"flight_no": ctx["flight_no"], "trip_date": trip.isoformat(), "city": dest[1]}
            convs += [conf, q]
        return convs

    def other_mail(self) -> list[Conv]:
        convs = []
        for p, kind in self.others:
            start = self.thread_start(business=True)
            ctx = self.context(start, p, None, {})
            subj = self.rng.choice(kind["subjects"]).format_map(ctx)
            body = kind["body"].format_map(dict(ctx, from_first=p.first, from_name=p.name, to_first=self.me.first))
            if p.company and p.company not in body:
                body += f"\n{p.title}, {p.company}"
            msgs = [Msg(p, [self.me], [], subj, body, start)]
            convs.append(Conv("other", "primary", subj, msgs, None, False))
        return convs

    def everyone_writes(self, convs: list[Conv]) -> list[Conv]:
        """Every contact has mail: people the plan left out get a conversation of their kind, so searching any
        contact's name finds something."""
        seen = {p.email for c in convs if c.kind not in ("draft", "scheduled")
                for m in c.msgs for p in (m.sender, *m.to, *m.cc)}
        kinds = {"coworker": "work", "client": "clients", "family": "family", "friend": "friends"}
        out = []
        for p in self.all_people:
            if p.email in seen or p is self.ap:
                continue
            if p.relation in kinds:
                out.append(self.conversation(kinds[p.relation], vocab(kinds[p.relation]), a=p))
            elif p.relation == "vendor":
                v = next(v for v in self.vendors if p in (v["billing"], v["am"]))
                start = self.thread_start(business=True)
                subj = f"Quarterly check-in: {v['name']}"
                body = (f"Hi {self.me.first},\n\nI hope all is well with the {v['service']}. Do you have 20 minutes next "
                        f"week for our quarterly check-in? I'd like to hear what's working and what isn't.\n\nBest,\n"
                        f"{p.name}\n{p.title}, {v['name']}")
                msgs = [Msg(p, [self.me], [], subj, body, start)]
                t = self.next_time(start)
                if t < self.now:
                    msgs.append(Msg(self.me, [p], [], f"Re: {subj}", f"Hi {p.first},\n\nSure - Tuesday afternoon works. "
                                    f"Send an invite whenever you're ready.\n\n{self.me.first}", t))
                out.append(Conv("vendor_checkin", "primary", subj, msgs, None, False))
        return out

    def drafts_and_scheduled(self) -> list[Conv]:
        rng, now = self.rng, self.now
        cw = self.people["coworker"][:-1]
        fr = self.people["friend"]
        specs = [
            ("draft", [rng.choice(cw)], "Offsite agenda", "Hi team,\n\nHere's a first pass at the agenda for the offsite:\n\n1. Welcome and goals\n2. "),
            ("draft", [rng.choice(fr)], "Catching up", "Hey! It's been way too long. Are you free for coffee next week?"),
            ("draft", [], "Notes for the quarterly review", "Wins:\n- \n\nRisks:\n- "),
            ("draft", [rng.choice(self.people["client"])], "Follow-up on pricing", "Hi,\n\nThanks again for your time today. As discussed, "),
            ("draft", [rng.choice(cw)], "", "Can you send me the link to the dashboard?"),
            ("scheduled", [rng.choice(cw)], "Happy work anniversary!", "Happy anniversary! Thanks for everything you do for the team."),
            ("scheduled", [rng.choice(self.people["family"])], "Happy birthday!", "Happy birthday! Hope you have a wonderful day. Love you!"),
            ("scheduled", [rng.choice(self.people["client"])], "Checking in", "Hi,\n\nJust checking in to see how the rollout is going. Let me know if you need anything from us.\n\nBest"),
        ]
        convs = []
        for i, (kind, to, subject, body) in enumerate(specs):
            if kind == "draft":
                t = now - dt.timedelta(days=rng.randint(0, 9), hours=rng.randint(1, 20), minutes=rng.randint(0, 59))
            else:
                day = (now + dt.timedelta(days=rng.randint(1, 12))).date()
                t = dt.datetime.combine(day, dt.time(rng.choice([8, 9, 13]), 0))
            msg = Msg(self.me, to, [], subject, body, t.replace(microsecond=0))
            c = Conv(kind, "primary", subject, [msg], None, False)
            c.force = {kind: True}
            convs.append(c)
        return convs

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
        convs += self.vendor_series()
        convs += self.questions()
        convs += self.other_mail()
        convs += self.drafts_and_scheduled()
        convs += self.everyone_writes(convs)
        convs = [c for c in convs if c.msgs]
        convs.sort(key=lambda c: (c.msgs[0].sent_at, c.subject))

        signature = f"{self.me.name}\n{self.me.title} | {self.my_company['name']}"
        account = [{
            "id": 1, "name": self.me.name, "email": self.me.email, "signature": signature,
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
                "phone": "" if p is self.ap else
                self.fake.numerify("(###) ###-####").replace("(0", "(2").replace("(1", "(3"),
                "address": self.fake.address().replace("\n", ", ") if p.relation in ("family", "friend") else "",
                "birthday": bday, "notes": rng.choice(notes) if rng.random() < 0.3 and p.relation != "other" else "",
                "relation": p.relation, "is_starred": p.relation in ("family",) or rng.random() < 0.08,
                "is_saved": p.relation != "other" and not (p.relation == "vendor" and rng.random() < 0.3),
                "has_photo": p is not self.ap and rng.random() < 0.35,
                "created_at": (now - dt.timedelta(days=rng.randint(190, 1500), minutes=rng.randint(0, 1439))).replace(second=0),
            })

        labels, label_ids = [], {}
        for i, lab in enumerate(self.common["labels"], start=1):
            label_ids[lab["key"]] = i
            labels.append({"id": i, "name": lab["name"], "color": lab["color"], "text_color": lab["text_color"],
                           "parent_id": label_ids.get(lab.get("parent")) if lab.get("parent") else None,
                           "show_in_list": True, "show_in_message_list": True})

        # Seeded filters (their effect is already applied to the seeded mail) and a blocked sender.
        filter_rules = [
            {"from_contains": "receipts@rideway.app", "apply_label_id": label_ids["receipts"]},
            {"from_contains": "notify@chirper.social", "skip_inbox": True},
        ]
        blocked = ["winner@prize-claims-now.biz"]

        # Which conversations get which state.
        trashable = [i for i, c in enumerate(convs) if not c.spam and not getattr(c, "force", None)
                     and c.kind not in ("other", "vendor_checkin")
                     and 2 <= (now - c.msgs[-1].sent_at).days <= 25]
        trashed = set(rng.sample(trashable, min(14, len(trashable))))
        snoozable = [i for i, c in enumerate(convs) if c.kind in ("work", "clients", "friends", "family")
                     and 1 <= (now - c.msgs[-1].sent_at).days <= 12 and i not in trashed]
        snoozed = rng.sample(snoozable, min(6, len(snoozable)))
        snooze_times = [now.replace(hour=17, minute=0, second=0) if now.hour < 17 else
                        (now + dt.timedelta(days=1)).replace(hour=8, minute=0, second=0)]
        for d in (1, 2, 4, 6, 9):
            snooze_times.append((now + dt.timedelta(days=d)).replace(hour=8, minute=0, second=0))
        snooze_at = {i: snooze_times[k % len(snooze_times)] for k, i in enumerate(snoozed)}

        threads, messages, message_labels, attachments, invites = [], [], [], [], []
        flat: list[tuple[int, Msg, Conv, int]] = []
        for tid, conv in enumerate(convs, start=1):
            threads.append({"id": tid, "subject": conv.subject, "category": conv.category, "is_muted": False})
            for pos, m in enumerate(conv.msgs):
                flat.append((tid, m, conv, pos))
        flat.sort(key=lambda x: (x[1].sent_at, x[0], x[3]))
        msg_ids = {(tid, pos): mid for mid, (tid, _m, _c, pos) in enumerate(flat, start=1)}

        star_rate = {"promotions": 0.01, "social": 0.0, "spam": 0.0, "newsletters": 0.02, "shipping": 0.02,
                     "question": 0.0, "trip_question": 0.0, "draft": 0.0, "scheduled": 0.0}
        archive_rate = {"promotions": 0.55, "social": 0.55, "newsletters": 0.55, "receipts": 0.5, "shipping": 0.6,
                        "updates": 0.5, "invoices": 0.7}
        thread_flags = {}
        for tid, conv in enumerate(convs, start=1):
            last = conv.msgs[-1].sent_at
            age = (now - last).total_seconds() / 86400
            force = getattr(conv, "force", {})
            archived = age > 10 and rng.random() < archive_rate.get(conv.kind, 0.4)
            if force.get("inbox"):
                archived = False
            if conv.kind == "social" and conv.msgs[0].sender.email == "notify@chirper.social":
                archived = True  # the seeded "skip the inbox" filter
            starred_pos = None
            if rng.random() < star_rate.get(conv.kind, 0.06):
                others = [i for i, m in enumerate(conv.msgs) if m.sender is not self.me] or [0]
                starred_pos = rng.choice(others)
            thread_flags[tid] = (archived, starred_pos)

        for mid, (tid, m, conv, pos) in enumerate(flat, start=1):
            mine = m.sender is self.me
            force = getattr(conv, "force", {})
            archived, starred_pos = thread_flags[tid]
            later_mine = any(x.sender is self.me for x in conv.msgs[pos + 1:])
            age = (now - m.sent_at).total_seconds() / 86400
            if mine or later_mine:
                unread = False
            else:
                p = 0.72 if age < 1 else 0.38 if age < 7 else 0.1 if age < 30 else 0.02
                if conv.kind == "promotions":
                    p = max(p, 0.45 if age < 60 else 0.1)
                elif conv.kind in ("social", "newsletters"):
                    p = max(p, 0.3 if age < 60 else 0.06)
                elif conv.spam:
                    p = 0.8
                unread = rng.random() < p
            if force.get("unread"):
                unread = True
            if force.get("read"):
                unread = False
            is_trashed = (tid - 1) in trashed
            is_draft, is_sched = bool(force.get("draft")), bool(force.get("scheduled"))
            blocked_sender = m.sender.email in blocked
            messages.append({
                "id": mid, "thread_id": tid,
                "in_reply_to_id": msg_ids[(tid, pos - 1)] if pos else None,
                "from_name": m.sender.name, "from_email": m.sender.email,
                "to": [p.email for p in m.to], "cc": [p.email for p in m.cc], "bcc": [],
                "subject": m.subject, "body": m.body, "body_html": "", "sent_at": m.sent_at,
                "is_read": not unread, "is_starred": pos == starred_pos,
                "is_important": conv.important and not conv.spam,
                "in_inbox": not mine and not archived and not conv.spam and not is_trashed and not blocked_sender,
                "is_sent": mine and not is_draft and not is_sched, "is_draft": is_draft,
                "is_spam": conv.spam or blocked_sender,
                "is_trashed": is_trashed,
                "trashed_at": (conv.msgs[-1].sent_at + dt.timedelta(hours=rng.randint(1, 30))) if is_trashed else None,
                "snoozed_until": snooze_at.get(tid - 1) if not mine else None,
                "scheduled_at": m.sent_at if is_sched else None, "undone_at": None,
            })
            if is_trashed and messages[-1]["trashed_at"] >= now:
                messages[-1]["trashed_at"] = now - dt.timedelta(minutes=30)
            label = conv.label
            if m.sender.email == "receipts@rideway.app":
                label = "receipts"  # the seeded filter's label
            if label and not is_draft and not is_sched:
                message_labels.append({"message_id": mid, "label_id": label_ids[label]})
            for att in m.attachments:
                attachments.append({"message_id": mid, **att})
            if m.invite:
                invites.append({"message_id": mid, **m.invite})

        for rows in (message_labels, attachments, invites):
            for i, r in enumerate(rows, start=1):
                r["id"] = i
        filters = []
        for i, f in enumerate(filter_rules, start=1):
            row = {"id": i, "from_contains": "", "to_contains": "", "subject_contains": "", "has_words": "",
                   "doesnt_have": "", "has_attachment": False, "skip_inbox": False, "mark_read": False, "star": False,
                   "apply_label_id": None, "forward_to": "", "delete": False, "never_spam": False,
                   "mark_important": None, "category": ""}
            row.update(f)
            filters.append(row)
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
            "filters": filters,
            "blocked_senders": [{"id": i, "email": e, "blocked_at": now - dt.timedelta(days=40 + i)}
                                for i, e in enumerate(blocked, start=1)],
            "templates": [],
            "files": self._files(),
        }

    def _files(self) -> list[dict]:
        """My files for compose's "Insert from Files": their own random stream, so no other row moves."""
        rng = random.Random(f"mail-files:{self.seed}")
        names = list(MY_FILES)
        rng.shuffle(names)
        out = []
        for i, (name, mime) in enumerate(names, start=1):
            lo, hi = MIME_SIZES.get(mime, (10_000, 200_000))
            out.append({"id": i, "name": name, "mime": mime, "size": rng.randint(lo, min(hi, 2_000_000)),
                        "modified_at": self.now - dt.timedelta(days=rng.randint(1, 120), minutes=rng.randint(0, 1439)),
                        "uploaded": False})
        return out


def build(seed: int, now: dt.datetime) -> dict[str, list[dict]]:
    """The rows of a fresh Inkbox world for `(seed, now)`; deterministic."""
    return WorldBuilder(seed, now).build()
