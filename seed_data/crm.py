"""Deterministic world for the Stratus CRM clone: `build(seed, now) -> {table: [row, ...]}`.

The org is "Lumen Data Systems", a B2B data-platform vendor whose reps sell to ~300 accounts in
many industries and regions. Everything comes from local Faker instances seeded with `seed`, one
`random.Random(seed)` and the curated vocab in seed_data/vocab/crm/ (places, company-name parts,
products, activity subjects, notes, case subjects, stage guidance). All dates are relative to
`now`. Same (seed, now) -> identical rows. Money is whole dollars.

Also here: `logo_png(name, size)`, the Pillow-drawn company logo of an account (deterministic).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import math
import random
import re
from typing import Any

from faker import Faker

from domain.crm import (
    LEAD_STATUSES, OPEN_STAGES, STAGE_FORECAST, STAGE_PROBABILITY, ascii_fold, company_base, normalize_company,
    quarter_bounds,
)

from seed_data.common import slug, vocab_dir, vocab_reader

VOCAB_DIR = vocab_dir("crm")
vocab = vocab_reader("crm")

N_ACCOUNTS = 300
N_CONTACTS = 1200
N_LEADS = 600
N_OPPS = 500
N_CASES = 360
ME = 1

ROLES = [
    (1, "CEO", None),
    (2, "VP, Sales", 1),
    (3, "VP, Customer Support", 1),
    (4, "Western Sales Director", 2),
    (5, "Eastern Sales Director", 2),
    (6, "International Sales Director", 2),
    (7, "Western Sales Team", 4),
    (8, "Eastern Sales Team", 5),
    (9, "International Sales Team", 6),
    (10, "Sales Development", 2),
    (11, "Customer Support, North America", 3),
    (12, "Marketing", 1),
]

# id, first, last, title, department, role, manager, quarterly goal
USERS = [
    (1, "Jordan", "Avery", "Senior Account Executive", "Sales", 7, 4, 750_000),
    (2, "Ava", "Thompson", "Chief Executive Officer", "Executive", 1, None, 0),
    (3, "Priya", "Raman", "VP of Sales", "Sales", 2, 2, 6_000_000),
    (4, "Marcus", "Chen", "Western Sales Director", "Sales", 4, 3, 2_400_000),
    (5, "Sofia", "Alvarez", "Eastern Sales Director", "Sales", 5, 3, 2_200_000),
    (6, "Henrik", "Larsen", "International Sales Director", "Sales", 6, 3, 1_600_000),
    (7, "Noah", "Patel", "Account Executive", "Sales", 7, 4, 600_000),
    (8, "Daniel", "Kim", "Account Executive", "Sales", 8, 5, 600_000),
    (9, "Olivia", "Brooks", "Account Executive", "Sales", 8, 5, 600_000),
    (10, "Emma", "Johansson", "Account Executive", "Sales", 9, 6, 550_000),
    (11, "Grace", "Liu", "Sales Development Representative", "Sales", 10, 3, 0),
    (12, "Mateo", "Rossi", "Customer Support Manager", "Support", 3, 2, 0),
    (13, "Hannah", "Schmidt", "Customer Support Agent", "Support", 11, 12, 0),
    (14, "Kenji", "Watanabe", "Account Executive", "Sales", 9, 6, 500_000),
    (15, "Chloe", "Martin", "Marketing Manager", "Marketing", 12, 2, 0),
]
SALES_REPS = [1, 7, 8, 9, 10, 14]
# Who owns accounts in each region (weights).
REGION_OWNERS = {
    "NA West": [(1, 48), (7, 34), (4, 8)],
    "NA Central": [(1, 22), (9, 30), (8, 30), (5, 8)],
    "NA East": [(8, 42), (9, 42), (5, 10), (1, 6)],
    "EMEA": [(10, 70), (6, 20), (1, 10)],
    "APAC": [(14, 75), (6, 25)],
    "LATAM": [(8, 50), (14, 30), (1, 20)],
}
LOCALES = {
    "United States": "en_US", "Canada": "en_CA", "United Kingdom": "en_GB", "Ireland": "en_IE",
    "France": "fr_FR", "Germany": "de_DE", "Switzerland": "de_CH", "Netherlands": "nl_NL",
    "Spain": "es_ES", "Italy": "it_IT", "Sweden": "sv_SE", "Denmark": "da_DK", "Australia": "en_AU",
    "New Zealand": "en_NZ", "India": "en_IN", "Brazil": "pt_BR", "Mexico": "es_MX",
    "Argentina": "es_AR", "Chile": "es_CL", "Colombia": "es_CO",
}


def weighted(rng: random.Random, pairs) -> Any:
    items = list(pairs.items()) if isinstance(pairs, dict) else list(pairs)
    total = sum(w for _, w in items)
    x = rng.random() * total
    for item, w in items:
        x -= w
        if x < 0:
            return item
    return items[-1][0]


class Gen:
    def __init__(self, seed: int, now: dt.datetime):
        self.seed = seed
        self.now = now.replace(microsecond=0)
        self.today = self.now.date()
        self.rng = random.Random(seed)
        self.places = vocab("places")
        self.comp = vocab("companies")
        self.sales = vocab("sales")
        self._fakers: dict[str, Faker] = {}
        self.names_used: set[str] = set()
        self.rows: dict[str, list[dict]] = {}
        self.q_start, self.q_end = quarter_bounds(self.today)

    # ----------------------------------------------------------------- helpers
    def faker(self, country: str) -> Faker:
        loc = LOCALES.get(country, "en_US")
        if loc not in self._fakers:
            f = Faker(loc)
            f.seed_instance(f"{self.seed}:{loc}")
            self._fakers[loc] = f
        return self._fakers[loc]

    def person_name(self, country: str) -> tuple[str, str]:
        f = self.faker(country)
        for _ in range(200):
            first = ascii_fold(f.first_name()).strip()
            last = ascii_fold(f.last_name()).strip()
            if not first or not last or " " in last or "'" in first:
                continue
            key = f"{first} {last}".lower()
            if key in self.names_used:
                continue
            self.names_used.add(key)
            return first, last
        raise RuntimeError("ran out of unique names")

    def dt_days_ago(self, lo: float, hi: float, work_hours: bool = True) -> dt.datetime:
        d = self.now - dt.timedelta(days=self.rng.uniform(lo, hi))
        if work_hours:
            d = d.replace(hour=self.rng.randint(8, 17), minute=self.rng.choice([0, 5, 10, 15, 20, 30, 40, 45, 50]),
                          second=0)
            if d > self.now:
                d = self.now - dt.timedelta(minutes=self.rng.randint(5, 120))
        return d.replace(microsecond=0, second=0)

    def phone(self, city: dict) -> str:
        r = self.rng
        if city["phone"].startswith("("):
            return f"{city['phone']} 555-{r.randint(100, 9999):04d}"
        return f"{city['phone']} {r.randint(1000, 9999)} {r.randint(1000, 9999)}"

    def postal(self, city: dict) -> str:
        p = city["postal"]
        if city["country"] == "United States":
            return p + f"{self.rng.randint(0, 99):02d}"
        if city["country"] == "Canada":
            return p + f" {self.rng.randint(1, 9)}{self.rng.choice('ABCEGHJKLMNPRSTVXY')}{self.rng.randint(1, 9)}"
        if city["country"] == "United Kingdom":
            return p + f" {self.rng.randint(1, 9)}{self.rng.choice('ABDEFGHJLNPQRSTUWXYZ')}{self.rng.choice('ABDEFGHJLNPQRSTUWXYZ')}"
        return p + "".join(str(self.rng.randint(0, 9)) for _ in range(max(0, 5 - len(p))))

    def street(self) -> str:
        return f"{self.rng.randint(1, 9800)} {self.rng.choice(self.places['streets'])}"

    def city_in(self, region: str) -> dict:
        return self.rng.choice([c for c in self.places["cities"] if c["region"] == region])

    # ------------------------------------------------------------------- build
    def run(self) -> dict[str, list[dict]]:
        self.build_org()
        self.build_accounts()
        self.build_contacts()
        self.build_opportunities()
        self.build_leads()
        self.build_cases()
        self.build_activities()
        self.build_notes()
        self.build_list_views()
        self.build_reports()
        self.build_misc()
        _build_products(self)  # defined below with its catalogue
        _build_files(self)
        return self.rows

    def build_org(self) -> None:
        domain = self.sales["org"]["domain"]
        self.rows["roles"] = [{"id": i, "name": n, "parent_id": p} for i, n, p in ROLES]
        users = []
        for uid, first, last, title, dept, role, mgr, goal in USERS:
            alias = (first[0] + last[:4]).lower()
            users.append({
                "id": uid, "first_name": first, "last_name": last, "alias": alias,
                "email": f"{first}.{last}@{domain}".lower(), "username": f"{first[0]}{last}@{domain}".lower(),
                "title": title, "department": dept, "phone": f"(415) 555-{1000 + uid * 37:04d}",
                "role_id": role, "manager_id": mgr, "is_active": True, "quarterly_goal": goal,
                "display_density": "comfy", "created_at": self.now - dt.timedelta(days=900 - uid * 20),
            })
            self.names_used.add(f"{first} {last}".lower())
        self.rows["users"] = users

    # ---------------------------------------------------------------- accounts
    def company_name(self, industry: str, city: dict, taken: set[str]) -> str:
        r = self.rng
        nouns = self.comp["industries"][industry]["nouns"]
        country = city["country"]
        for _ in range(500):
            roll = r.random()
            word = r.choice(self.comp["words"])
            noun = r.choice(nouns)
            if industry == "Education" and roll < 0.5:
                name = r.choice([f"University of {city['city']}", f"{city['city']} Community College",
                                 f"{word} College", f"{word} Academy", f"{city['city']} Institute of Technology"])
            elif industry == "Government" and roll < 0.7:
                name = r.choice([f"City of {city['city']}", f"{city['city']} Transit Authority",
                                 f"{city['city']} Port Authority", f"{word} County"])
            elif roll < 0.45:
                name = f"{word} {noun}"
            elif roll < 0.72:
                sfx = self.comp["suffix_by_country"].get(country) or ["Inc.", "Corp.", "LLC", "Co.", "Group"]
                name = f"{word} {noun} {r.choice(sfx)}"
            elif roll < 0.88:
                name = f"{ascii_fold(self.faker(country).last_name())} {noun}"
            else:
                f = self.faker(country)
                name = f"{ascii_fold(f.last_name())} & {ascii_fold(f.last_name())} {r.choice(['Partners', 'Associates', 'LLP', 'Group', noun])}"
            name = re.sub(r"\s+", " ", name).strip()
            key = normalize_company(name)
            if key in taken or len(name) > 48 or "'" in name:
                continue
            taken.add(key)
            return name
        raise RuntimeError("ran out of company names")

    def build_accounts(self) -> None:
        r = self.rng
        inds = {k: v["weight"] for k, v in self.comp["industries"].items()}
        taken: set[str] = set()
        self.company_keys = taken
        accounts = []
        dup_slots = sorted(r.sample(range(40, N_ACCOUNTS), 6))
        numbers = r.sample(range(100000, 999999), N_ACCOUNTS)
        for i in range(1, N_ACCOUNTS + 1):
            if (i - 1) in dup_slots:
                accounts.append(self._duplicate_account(accounts, i))
                continue
            region = weighted(r, self.places["region_weights"])
            city = self.city_in(region)
            industry = weighted(r, inds)
            name = self.company_name(industry, city, taken)
            employees = int(math.exp(r.uniform(math.log(12), math.log(90000))))
            employees = int(round(employees, -1 if employees < 1000 else -2)) or 10
            revenue = int(round(employees * r.uniform(90_000, 320_000), -5))
            created = self.dt_days_ago(60, 1400)
            acc_type = weighted(r, self.comp["types"])
            owner = weighted(r, REGION_OWNERS[region])
            accounts.append({
                "id": i, "name": name, "account_number": f"CD{numbers[i - 1]}", "type": acc_type,
                "industry": industry, "rating": r.choice(["Hot", "Warm", "Warm", "Cold", ""]),
                "phone": self.phone(city), "website": f"www.{slug(company_base(name))[:24]}.com",
                "annual_revenue": revenue if r.random() < 0.9 else None,
                "employees": employees if r.random() < 0.92 else None,
                "ownership": r.choice(["Public", "Private", "Private", "Subsidiary", ""]),
                "billing_street": self.street(), "billing_city": city["city"], "billing_state": city["state"],
                "billing_postal_code": self.postal(city), "billing_country": city["country"],
                "description": "" if r.random() < 0.6 else
                f"{industry} company headquartered in {city['city']}. " + r.choice([
                    "Long-time customer of the analytics platform.", "Evaluating a move off legacy BI tools.",
                    "Expanding into new regions this year.", "Strategic account for the IoT program.",
                    "Key reference customer in its industry.", "Procurement runs a formal RFP process."]),
                "parent_id": None, "owner_id": owner, "created_by_id": owner, "created_at": created,
                "updated_at": created + (self.now - created) * r.uniform(0.2, 0.98),
                "last_modified_by_id": owner, "last_viewed_at": None, "_region": region,
            })
            accounts[-1]["updated_at"] = accounts[-1]["updated_at"].replace(microsecond=0)
        # A few subsidiaries (Parent Account).
        parents = r.sample([a for a in accounts if a.get("_dup_of") is None and a["employees"] and a["employees"] > 2000], 8)
        for p in parents:
            kids = [a for a in accounts if a["industry"] == p["industry"] and a["id"] != p["id"]
                    and a.get("_dup_of") is None and a["parent_id"] is None and a["id"] not in {x["id"] for x in parents}]
            if kids:
                r.choice(kids)["parent_id"] = p["id"]
        self.accounts = accounts
        self.acc_by_id = {a["id"]: a for a in accounts}
        self.rows["accounts"] = [{k: v for k, v in a.items() if not k.startswith("_")} for a in accounts]

    def _duplicate_account(self, accounts: list[dict], i: int) -> dict:
        r = self.rng
        orig = r.choice([a for a in accounts if a.get("_dup_of") is None and a["name"].split()[-1] in
                         ("Inc.", "Corp.", "LLC", "Co.", "Group", "Ltd", "plc")] or accounts)
        base = company_base(orig["name"])
        variant = base if base != orig["name"] else base + " Inc."
        if variant == orig["name"] or normalize_company(variant) != normalize_company(orig["name"]):
            variant = orig["name"].replace(".", "") if "." in orig["name"] else orig["name"] + " Inc."
        created = self.dt_days_ago(5, 50)
        owner = r.choice([u for u in SALES_REPS if u != orig["owner_id"]])
        d = dict(orig)
        d.update({
            "id": i, "name": variant, "account_number": "", "type": "Prospect", "rating": "", "annual_revenue": None,
            "employees": None, "ownership": "", "description": "", "billing_street": "", "billing_postal_code": "",
            "owner_id": owner, "created_by_id": owner, "created_at": created, "updated_at": created,
            "last_modified_by_id": owner, "parent_id": None, "_dup_of": orig["id"],
        })
        return d

    # ---------------------------------------------------------------- contacts
    def new_contact(self, cid: int, acc: dict, created_lo: dt.datetime | None = None, name=None) -> dict:
        r = self.rng
        first, last = name or self.person_name(acc["billing_country"])
        title = r.choice(self.comp["titles"])
        dept = next((v for k, v in self.comp["departments"].items() if k in title), "")
        domain = acc["website"].removeprefix("www.") if acc["website"] else "example.com"
        city = next(c for c in self.places["cities"] if c["city"] == acc["billing_city"])
        lo = max(0.5, (self.now - acc["created_at"]).days - 1)
        created = self.dt_days_ago(0.5, lo) if created_lo is None else created_lo
        bday = None
        if r.random() < 0.55:
            bday = dt.date(r.randint(1958, 1999), r.randint(1, 12), r.randint(1, 28))
        return {
            "id": cid, "account_id": acc["id"], "salutation": r.choice(["", "", "Mr.", "Ms.", "Mrs.", "Dr."]),
            "first_name": first, "last_name": last, "title": title, "department": dept,
            "email": f"{slug(first)}.{slug(last)}@{domain}", "phone": self.phone(city),
            "mobile": self.phone(city) if r.random() < 0.5 else "",
            "mailing_street": acc["billing_street"], "mailing_city": acc["billing_city"],
            "mailing_state": acc["billing_state"], "mailing_postal_code": acc["billing_postal_code"],
            "mailing_country": acc["billing_country"],
            "lead_source": weighted(r, self.sales["lead_sources"]) if r.random() < 0.6 else "",
            "birthdate": bday, "reports_to_id": None, "description": "",
            "owner_id": acc["owner_id"], "created_by_id": acc["owner_id"], "created_at": created,
            "updated_at": created, "last_modified_by_id": acc["owner_id"], "last_viewed_at": None,
        }

    def build_contacts(self) -> None:
        r = self.rng
        accs = [a for a in self.accounts]
        counts = {a["id"]: (1 if a.get("_dup_of") else 2) for a in accs}
        remaining = N_CONTACTS - sum(counts.values()) - 12  # 12 duplicate contacts
        weights = [(a["id"], 1 + math.log10((a["employees"] or 50))) for a in accs if not a.get("_dup_of")]
        for _ in range(remaining):
            counts[weighted(r, weights)] += 1
        contacts = []
        cid = 1
        for a in accs:
            first_in_acc = None
            for k in range(counts[a["id"]]):
                c = self.new_contact(cid, a)
                if k == 0:
                    first_in_acc = c
                    c["title"] = r.choice(["Chief Executive Officer", "Chief Operating Officer", "VP, Operations",
                                           "Chief Information Officer", "Chief Technology Officer"])
                elif r.random() < 0.35 and first_in_acc:
                    c["reports_to_id"] = first_in_acc["id"]
                contacts.append(c)
                cid += 1
        # Duplicates: same person entered twice (same name, account and e-mail or phone).
        originals = r.sample([c for c in contacts if not self.acc_by_id[c["account_id"]].get("_dup_of")], 12)
        for o in originals:
            d = dict(o)
            created = self.dt_days_ago(2, 60)
            d.update({"id": cid, "title": "", "department": "", "mobile": "", "birthdate": None, "reports_to_id": None,
                      "lead_source": r.choice(["Web", "Trade Show", ""]), "created_at": created, "updated_at": created,
                      "owner_id": r.choice(SALES_REPS), "mailing_street": ""})
            if r.random() < 0.5:
                d["phone"] = ""
            d["created_by_id"] = d["last_modified_by_id"] = d["owner_id"]
            contacts.append(d)
            cid += 1
        # Interleave: shuffle ids would break "ids follow creation"; keep order, duplicates last.
        self.contacts = contacts
        self.contacts_by_acc: dict[int, list[dict]] = {}
        for c in contacts:
            self.contacts_by_acc.setdefault(c["account_id"], []).append(c)
        self.rows["contacts"] = contacts

    # ----------------------------------------------------------- opportunities
    def amount(self) -> int:
        v = math.exp(self.rng.uniform(math.log(6000), math.log(900000)))
        step = 500 if v < 50000 else 1000 if v < 200000 else 5000
        return int(round(v / step) * step)

    def opp_name(self, acc: dict, taken: set[str]) -> str:
        r = self.rng
        base = company_base(acc["name"])
        for _ in range(60):
            prod = r.choice(self.sales["products"])
            qual = r.choice([q for q in self.sales["qualifiers"] if q.split()[-1] not in prod])
            name = f"{base} - {prod}" if r.random() < 0.4 else f"{base} - {prod} {qual}"
            if name.lower() not in taken and len(name) <= 80:
                taken.add(name.lower())
                return name
        raise RuntimeError("no opportunity name")

    def build_opportunities(self) -> None:
        r = self.rng
        taken: set[str] = set()
        plan: list[str] = (["Closed Won"] * 140 + ["Closed Lost"] * 70 + ["Prospecting"] * 55 + ["Qualification"] * 55
                           + ["Needs Analysis"] * 55 + ["Proposal"] * 60 + ["Negotiation"] * 65)
        r.shuffle(plan)
        real_accounts = [a for a in self.accounts if not a.get("_dup_of")]
        acc_weights = [(a["id"], (3 if a["type"].startswith("Customer") else 1) * (1 + math.log10(a["employees"] or 50)))
                       for a in real_accounts]
        # "Key" accounts get a cluster of open deals closing this quarter (for multi-record tasks).
        key_accounts = r.sample([a for a in real_accounts if a["type"] != "Prospect"], 16)
        opps = []
        oid = 1
        cluster: list[tuple[dict, str, bool]] = []
        for a in key_accounts:
            for k in range(r.randint(3, 4)):
                cluster.append((a, r.choice(OPEN_STAGES[:4]), k < 3))
        for idx in range(N_OPPS):
            if idx < len(cluster):
                acc, stage, this_q = cluster[idx]
                plan.remove(stage)
            else:
                acc = self.acc_by_id[weighted(r, acc_weights)]
                stage = plan.pop()
                this_q = None
            opps.append(self._new_opp(oid, acc, stage, taken, this_q))
            oid += 1
        opps.sort(key=lambda o: o["created_at"])
        remap = {}
        for new_id, o in enumerate(opps, start=1):
            remap[o["id"]] = new_id
            o["id"] = new_id
        self.opps = opps
        self.opps_by_acc: dict[int, list[dict]] = {}
        for o in opps:
            self.opps_by_acc.setdefault(o["account_id"], []).append(o)
        # Contact roles.
        roles = []
        rid = 1
        for o in opps:
            cs = self.contacts_by_acc.get(o["account_id"], [])
            if not cs:
                continue
            n = min(len(cs), r.choice([1, 1, 2, 2, 3]))
            for k, c in enumerate(r.sample(cs, n)):
                roles.append({"id": rid, "opportunity_id": o["id"], "contact_id": c["id"],
                              "role": r.choice(self.sales["contact_roles"]) if k else "Decision Maker",
                              "is_primary": k == 0})
                rid += 1
        self.roles_by_opp: dict[int, list[dict]] = {}
        for cr in roles:
            self.roles_by_opp.setdefault(cr["opportunity_id"], []).append(cr)
        self.rows["opportunities"] = opps
        self.rows["opportunity_contact_roles"] = roles

    def _new_opp(self, oid: int, acc: dict, stage: str, taken: set[str], this_q: bool | None) -> dict:
        r = self.rng
        today = self.today
        if stage in ("Closed Won", "Closed Lost"):
            if r.random() < 0.3:
                close = self.q_start + dt.timedelta(days=r.randint(0, max(0, (today - self.q_start).days - 1)))
            else:
                close = today - dt.timedelta(days=r.randint(72, 560))
        elif this_q is True:
            close = today + dt.timedelta(days=r.randint(-8, (self.q_end - today).days))
        elif this_q is False:
            close = self.q_end + dt.timedelta(days=r.randint(5, 150))
        else:
            roll = r.random()
            if roll < 0.3:
                close = today + dt.timedelta(days=r.randint(-15, (self.q_end - today).days))
            elif roll < 0.65:
                close = self.q_end + dt.timedelta(days=r.randint(1, 91))
            else:
                close = self.q_end + dt.timedelta(days=r.randint(92, 280))
        created_days = r.randint(25, 220)
        created = dt.datetime.combine(close - dt.timedelta(days=created_days), dt.time(r.randint(8, 17), r.choice([0, 15, 30, 45])))
        if created > self.now - dt.timedelta(hours=2):
            created = self.dt_days_ago(1, 60)
        owner = acc["owner_id"] if r.random() < 0.85 else r.choice(SALES_REPS)
        amount = self.amount()
        if this_q is not None:
            amount = max(amount, r.choice([30000, 45000, 55000, 60000, 75000, 90000, 120000, 150000, 210000]))
            amount = int(round(amount / 1000) * 1000)
        updated = created + (self.now - created) * r.uniform(0.3, 0.99)
        return {
            "id": oid, "name": self.opp_name(acc, taken), "account_id": acc["id"],
            "amount": amount if r.random() < 0.97 or this_q is not None else None,
            "close_date": close, "stage": stage, "probability": STAGE_PROBABILITY[stage],
            "forecast_category": STAGE_FORECAST[stage], "type": weighted(r, self.sales["opp_types"]),
            "lead_source": weighted(r, self.sales["lead_sources"]) if r.random() < 0.8 else "",
            "next_step": r.choice(self.sales["next_steps"]) if stage in OPEN_STAGES else "",
            "description": "", "loss_reason": r.choice(self.sales["loss_reasons"]) if stage == "Closed Lost" else "",
            "owner_id": owner, "created_by_id": owner, "created_at": created,
            "updated_at": min(self.now, updated).replace(microsecond=0), "last_modified_by_id": owner,
            "last_viewed_at": None,
        }

    # ------------------------------------------------------------------- leads
    def build_leads(self) -> None:
        r = self.rng
        inds = {k: v["weight"] for k, v in self.comp["industries"].items()}
        plan = (["Open - Not Contacted"] * 205 + ["Working - Contacted"] * 185 + ["Closed - Converted"] * 125
                + ["Closed - Not Converted"] * 85)
        r.shuffle(plan)
        sources = list(self.sales["lead_sources"])
        leads = []
        real_accounts = [a for a in self.accounts if not a.get("_dup_of")]
        converted_pool = r.sample(real_accounts, 125)
        match_accounts = r.sample([a for a in real_accounts if a not in converted_pool], 40)
        lid = 1
        dups = sorted(r.sample(range(100, N_LEADS), 8))
        for i in range(N_LEADS):
            status = plan[i]
            if i in dups and leads:
                leads.append(self._duplicate_lead(lid, r.choice([x for x in leads if not x["is_converted"]]), status))
                lid += 1
                continue
            created = self.dt_days_ago(0.02, 420)
            if status == "Closed - Converted":
                acc = converted_pool.pop()
                cs = self.contacts_by_acc[acc["id"]]
                contact = r.choice(cs)
                opps = [o for o in self.opps_by_acc.get(acc["id"], []) if o["created_at"] > acc["created_at"]]
                opp = r.choice(opps) if opps and r.random() < 0.75 else None
                created = min(contact["created_at"], acc["created_at"]) - dt.timedelta(days=r.randint(3, 40))
                conv_date = (acc["created_at"]).date()
                lead = self._lead_row(lid, (contact["first_name"], contact["last_name"]), acc["name"],
                                      acc["industry"], acc["billing_city"], status, created, acc["owner_id"])
                lead.update({"email": contact["email"], "phone": contact["phone"], "title": contact["title"],
                             "is_converted": True, "converted_account_id": acc["id"],
                             "converted_contact_id": contact["id"],
                             "converted_opportunity_id": opp["id"] if opp else None, "converted_date": conv_date,
                             "updated_at": dt.datetime.combine(conv_date, dt.time(10, 0))})
                if opp and not opp["lead_source"]:
                    opp["lead_source"] = lead["lead_source"]
            else:
                if match_accounts and r.random() < 0.12:
                    acc = match_accounts.pop()
                    company, industry, city_name = acc["name"], acc["industry"], acc["billing_city"]
                else:
                    region = weighted(r, self.places["region_weights"])
                    city = self.city_in(region)
                    industry = weighted(r, inds)
                    company, city_name = self.company_name(industry, city, self.company_keys), city["city"]
                country = next(c for c in self.places["cities"] if c["city"] == city_name)["country"]
                owner = weighted(r, [(11, 32), (1, 24), (7, 9), (8, 9), (9, 9), (10, 8), (14, 5), (15, 4)])
                lead = self._lead_row(lid, self.person_name(country), company, industry, city_name, status, created, owner)
            leads.append(lead)
            lid += 1
        # Every source appears in every status.
        for k, status in enumerate(LEAD_STATUSES):
            of_status = [x for x in leads if x["status"] == status]
            for j, src in enumerate(sources):
                of_status[(j * 7 + k) % len(of_status)]["lead_source"] = src
        # A handful created today (Today's Leads) and this week.
        fresh = [x for x in leads if x["status"] == "Open - Not Contacted"][:6]
        for k, x in enumerate(fresh):
            x["created_at"] = x["updated_at"] = self.now.replace(hour=8, minute=5 * k + 2) if k < 4 else self.dt_days_ago(1, 5)
        self.leads = leads
        self.rows["leads"] = leads

    def _lead_row(self, lid, name, company, industry, city_name, status, created, owner) -> dict:
        r = self.rng
        first, last = name
        city = next(c for c in self.places["cities"] if c["city"] == city_name)
        employees = int(math.exp(r.uniform(math.log(10), math.log(20000))))
        dom = slug(company_base(company))[:20] or "example"
        return {
            "id": lid, "salutation": r.choice(["", "", "Mr.", "Ms.", "Dr."]), "first_name": first, "last_name": last,
            "company": company, "title": r.choice(self.comp["titles"]),
            "email": f"{slug(first)[:1]}{slug(last)}@{dom}.com", "phone": self.phone(city),
            "mobile": self.phone(city) if r.random() < 0.35 else "", "website": f"www.{dom}.com" if r.random() < 0.6 else "",
            "status": status, "lead_source": weighted(r, self.sales["lead_sources"]), "industry": industry,
            "rating": r.choice(["Hot", "Warm", "Cold", "", ""]),
            "annual_revenue": int(round(employees * r.uniform(80_000, 250_000), -5)) if r.random() < 0.6 else None,
            "employees": employees if r.random() < 0.7 else None,
            "street": self.street(), "city": city["city"], "state": city["state"], "postal_code": self.postal(city),
            "country": city["country"], "description": r.choice(self.sales["lead_descriptions"]),
            "is_converted": False, "converted_account_id": None, "converted_contact_id": None,
            "converted_opportunity_id": None, "converted_date": None, "owner_id": owner, "created_by_id": owner,
            "created_at": created, "updated_at": min(self.now, created + dt.timedelta(days=r.uniform(0, 30))).replace(microsecond=0),
            "last_modified_by_id": owner, "last_viewed_at": None,
        }

    def _duplicate_lead(self, lid: int, orig: dict, status: str) -> dict:
        d = dict(orig)
        created = self.dt_days_ago(1, 30)
        d.update({"id": lid, "status": "Open - Not Contacted", "title": "", "mobile": "", "rating": "",
                  "lead_source": self.rng.choice(["Web", "Webinar", "Trade Show"]), "created_at": created,
                  "updated_at": created, "description": "", "owner_id": self.rng.choice([11, 1, 7])})
        d["created_by_id"] = d["last_modified_by_id"] = d["owner_id"]
        return d

    # ------------------------------------------------------------------- cases
    def build_cases(self) -> None:
        r = self.rng
        plan = ["New"] * 55 + ["Working"] * 70 + ["Escalated"] * 20 + ["Closed"] * (N_CASES - 145)
        r.shuffle(plan)
        customers = [a for a in self.accounts if a["type"].startswith(("Customer", "Channel", "Technology")) and not a.get("_dup_of")]
        cases = []
        for i in range(N_CASES):
            status = plan[i]
            acc = r.choice(customers)
            contact = r.choice(self.contacts_by_acc[acc["id"]])
            ctype = weighted(r, {"Problem": 60, "Question": 30, "Feature Request": 10})
            subject = r.choice(self.sales["case_subjects"][ctype])
            created = self.dt_days_ago(0.1, 40 if status != "Closed" else 400)
            closed = None
            if status == "Closed":
                closed = min(self.now - dt.timedelta(minutes=30), created + dt.timedelta(hours=r.randint(2, 400)))
            owner = weighted(r, [(13, 50), (12, 20), (acc["owner_id"], 30)])
            cases.append({
                "id": i + 1, "case_number": f"{1001 + i:08d}", "account_id": acc["id"], "contact_id": contact["id"],
                "subject": subject, "description": r.choice(self.sales["case_descriptions"]), "status": status,
                "priority": weighted(r, {"High": 25, "Medium": 50, "Low": 25}),
                "origin": weighted(r, {"Phone": 35, "Email": 40, "Web": 25}), "type": ctype,
                "reason": r.choice(self.sales["case_reasons"]) if r.random() < 0.7 else "",
                "owner_id": owner, "created_by_id": owner, "created_at": created, "closed_at": closed,
                "updated_at": (closed or min(self.now, created + dt.timedelta(hours=r.randint(1, 72)))).replace(microsecond=0),
                "last_modified_by_id": owner, "last_viewed_at": None,
            })
        cases.sort(key=lambda c: c["created_at"])
        for k, c in enumerate(cases):
            c["id"] = k + 1
            c["case_number"] = f"{1001 + k:08d}"
        self.cases = cases
        self.rows["cases"] = cases

    # -------------------------------------------------------------- activities
    def _task(self, tasks, subject, subtype, owner, due, status, who, what, comment="", priority=None) -> dict:
        r = self.rng
        created = dt.datetime.combine(due, dt.time(9, 0)) - dt.timedelta(days=r.randint(1, 12)) if due else self.dt_days_ago(1, 30)
        if created > self.now:
            created = self.now - dt.timedelta(hours=r.randint(1, 48))
        done = status == "Completed"
        t = {
            "id": len(tasks) + 1, "subject": subject, "status": status,
            "priority": priority or weighted(r, {"High": 20, "Normal": 65, "Low": 15}), "activity_date": due,
            "description": comment, "task_subtype": subtype, "owner_id": owner,
            "who_type": who[0] if who else None, "who_id": who[1] if who else None,
            "what_type": what[0] if what else None, "what_id": what[1] if what else None,
            "completed_at": dt.datetime.combine(due, dt.time(r.randint(9, 17), r.choice([0, 15, 30, 45]))) if done and due else None,
            "created_by_id": owner, "created_at": created.replace(microsecond=0),
            "updated_at": created.replace(microsecond=0), "last_modified_by_id": owner, "last_viewed_at": None,
        }
        if t["completed_at"] and t["completed_at"] > self.now:
            t["completed_at"] = self.now - dt.timedelta(minutes=30)
        if t["completed_at"]:
            t["updated_at"] = max(t["updated_at"], t["completed_at"])
        tasks.append(t)
        return t

    def _event(self, events, subject, owner, start, who, what, location="", description="") -> dict:
        dur = self.rng.choice([30, 30, 60, 60, 90])
        e = {
            "id": len(events) + 1, "subject": subject, "start": start, "end": start + dt.timedelta(minutes=dur),
            "all_day": False, "location": location, "description": description, "owner_id": owner,
            "who_type": who[0] if who else None, "who_id": who[1] if who else None,
            "what_type": what[0] if what else None, "what_id": what[1] if what else None,
            "created_by_id": owner, "created_at": min(self.now, start - dt.timedelta(days=self.rng.randint(1, 20))),
            "updated_at": min(self.now, start - dt.timedelta(days=1)), "last_modified_by_id": owner,
            "last_viewed_at": None,
        }
        events.append(e)
        return e

    def build_activities(self) -> None:
        r = self.rng
        S = self.sales
        tasks: list[dict] = []
        events: list[dict] = []
        today = self.today

        def past_day(lo, hi):
            return today - dt.timedelta(days=r.randint(lo, hi))

        def slot(day: dt.date) -> dt.datetime:
            return dt.datetime.combine(day, dt.time(r.randint(8, 16), r.choice([0, 30])))

        for o in self.opps:
            roles = self.roles_by_opp.get(o["id"], [])
            who = ("Contact", roles[0]["contact_id"]) if roles else None
            what = ("Opportunity", o["id"])
            is_open = o["stage"] in OPEN_STAGES
            lo = max(1, (today - o["created_at"].date()).days)
            n_done = r.randint(0, 3) if is_open else r.choice([0, 0, 1, 2])
            for _ in range(n_done):
                if o["stage"] not in OPEN_STAGES:
                    day = min(o["close_date"], today - dt.timedelta(days=1)) - dt.timedelta(days=r.randint(0, 30))
                else:
                    day = past_day(1, min(lo, 120))
                sub = weighted(r, {"Call": 45, "Email": 25, "Task": 30})
                self._task(tasks, r.choice(S["task_subjects"][sub]), sub, o["owner_id"], day, "Completed", who, what,
                           r.choice(S["task_comments"]) if sub != "Email" else "Hi, following up on our conversation. Best regards.")
            if is_open:
                for _ in range(r.choice([0, 1, 1, 2])):
                    day = today + dt.timedelta(days=r.randint(-12, 25))
                    self._task(tasks, r.choice(S["task_subjects"]["Task"]), "Task", o["owner_id"], day,
                               r.choice(["Not Started", "Not Started", "In Progress", "Waiting on someone else"]), who, what)
                for _ in range(r.choice([0, 1, 1, 2])):
                    day = today + dt.timedelta(days=r.randint(-40, 30))
                    start = slot(day)
                    self._event(events, r.choice(S["event_subjects"]), o["owner_id"], start, who, what,
                                r.choice(S["event_locations"]))
        for lead in self.leads:
            if lead["status"] == "Working - Contacted":
                for _ in range(r.randint(1, 2)):
                    day = max(lead["created_at"].date(), past_day(1, 60))
                    if day >= today:
                        day = today - dt.timedelta(days=1)
                    sub = weighted(r, {"Call": 60, "Email": 40})
                    self._task(tasks, r.choice(S["task_subjects"][sub]), sub, lead["owner_id"], day, "Completed",
                               ("Lead", lead["id"]), None, r.choice(S["task_comments"]))
                if r.random() < 0.4:
                    self._task(tasks, "Follow up", "Task", lead["owner_id"], today + dt.timedelta(days=r.randint(-6, 14)),
                               "Not Started", ("Lead", lead["id"]), None)
            elif lead["status"] == "Open - Not Contacted" and r.random() < 0.15:
                self._task(tasks, "Intro call", "Call", lead["owner_id"], today + dt.timedelta(days=r.randint(-3, 10)),
                           "Not Started", ("Lead", lead["id"]), None)
        for a in self.accounts:
            if a.get("_dup_of") or r.random() < 0.55:
                continue
            cs = self.contacts_by_acc.get(a["id"], [])
            who = ("Contact", r.choice(cs)["id"]) if cs else None
            sub = weighted(r, {"Call": 40, "Email": 20, "Task": 40})
            day = past_day(1, 200)
            self._task(tasks, r.choice(S["task_subjects"][sub]), sub, a["owner_id"], day, "Completed", who,
                       ("Account", a["id"]), r.choice(S["task_comments"]))
            if r.random() < 0.3:
                self._event(events, r.choice(S["event_subjects"]), a["owner_id"], slot(past_day(1, 120)), who,
                            ("Account", a["id"]), r.choice(S["event_locations"]))
        for c in self.cases:
            if c["status"] != "Closed" and r.random() < 0.5:
                self._task(tasks, r.choice(["Call customer with update", "Send workaround steps", "Check logs with engineering"]),
                           "Task", c["owner_id"], today + dt.timedelta(days=r.randint(-5, 7)),
                           "Not Started", ("Contact", c["contact_id"]), ("Case", c["id"]))
        # The signed-in user's day: tasks due today, a few overdue, events today.
        my_open_opps = [o for o in self.opps if o["owner_id"] == ME and o["stage"] in OPEN_STAGES]
        today_subjects = r.sample(S["task_subjects"]["Task"], 8)
        for k, o in enumerate(r.sample(my_open_opps, 8)):
            roles = self.roles_by_opp.get(o["id"], [])
            who = ("Contact", roles[0]["contact_id"]) if roles else None
            self._task(tasks, today_subjects[k], "Task", ME, today,
                       "Not Started" if k % 3 else "In Progress", who, ("Opportunity", o["id"]),
                       priority="High" if k < 2 else "Normal")
        for k, o in enumerate(r.sample(my_open_opps, 5)):
            roles = self.roles_by_opp.get(o["id"], [])
            who = ("Contact", roles[0]["contact_id"]) if roles else None
            self._task(tasks, r.choice(S["task_subjects"]["Task"]), "Task", ME, today - dt.timedelta(days=r.randint(1, 9)),
                       "Not Started", who, ("Opportunity", o["id"]))
        for k, (hh, mm) in enumerate([(11, 0), (14, 30), (16, 0)]):
            o = my_open_opps[(k * 7) % len(my_open_opps)]
            roles = self.roles_by_opp.get(o["id"], [])
            who = ("Contact", roles[0]["contact_id"]) if roles else None
            self._event(events, ["Product demo", "Pricing discussion", "Technical deep dive"][k], ME,
                        dt.datetime.combine(today, dt.time(hh, mm)), who, ("Opportunity", o["id"]),
                        ["Zoom", "Customer HQ", "Microsoft Teams"][k])
        # Order by creation: ids follow time like Salesforce's.
        tasks.sort(key=lambda t: (t["created_at"], t["subject"]))
        for k, t in enumerate(tasks):
            t["id"] = k + 1
        events.sort(key=lambda e: (e["created_at"], e["start"]))
        for k, e in enumerate(events):
            e["id"] = k + 1
            e["created_at"] = e["created_at"].replace(microsecond=0)
            e["updated_at"] = max(e["created_at"], e["updated_at"]).replace(microsecond=0)
        self.tasks, self.events = tasks, events
        self.rows["tasks"] = tasks
        self.rows["events"] = events

    def build_notes(self) -> None:
        r = self.rng
        S = self.sales
        notes = []
        parents = ([("Opportunity", o["id"], o["owner_id"], o["created_at"]) for o in r.sample(self.opps, 130)]
                   + [("Account", a["id"], a["owner_id"], a["created_at"]) for a in r.sample(self.accounts, 70)]
                   + [("Contact", c["id"], c["owner_id"], c["created_at"]) for c in r.sample(self.contacts, 30)]
                   + [("Lead", x["id"], x["owner_id"], x["created_at"]) for x in r.sample([x for x in self.leads if not x["is_converted"]], 30)])
        for ptype, pid, owner, created in parents:
            lo = max(0.1, (self.now - created).total_seconds() / 86400 - 0.1)
            when = self.dt_days_ago(0.1, min(lo, 200))
            notes.append({"id": 0, "title": r.choice(S["note_titles"]), "body": r.choice(S["note_bodies"]),
                          "parent_type": ptype, "parent_id": pid, "owner_id": owner, "created_at": when, "updated_at": when})
        notes.sort(key=lambda n: (n["created_at"], n["parent_type"], n["parent_id"]))
        for k, n in enumerate(notes):
            n["id"] = k + 1
        self.rows["notes"] = notes

    # -------------------------------------------------------------- list views
    def build_list_views(self) -> None:
        created = self.now - dt.timedelta(days=900)
        F = lambda field, op, value: {"field": field, "op": op, "value": value}  # noqa: E731
        std = [
            ("Lead", "Recently Viewed", "RecentlyViewedLeads", "recent", "all", []),
            ("Lead", "All Open Leads", "AllOpenLeads", "filter", "all", [F("status", "not_equal", "Closed - Converted,Closed - Not Converted")]),
            ("Lead", "My Open Leads", "MyOpenLeads", "filter", "mine", [F("status", "not_equal", "Closed - Converted,Closed - Not Converted")]),
            ("Lead", "All Leads", "AllLeads", "filter", "all", []),
            ("Lead", "My Leads", "MyLeads", "filter", "mine", []),
            ("Lead", "Today's Leads", "TodaysLeads", "filter", "all", [F("created_at", "equals", "TODAY")]),
            ("Account", "Recently Viewed", "RecentlyViewedAccounts", "recent", "all", []),
            ("Account", "All Accounts", "AllAccounts", "filter", "all", []),
            ("Account", "My Accounts", "MyAccounts", "filter", "mine", []),
            ("Account", "New This Week", "NewThisWeek", "filter", "all", [F("created_at", "equals", "THIS_WEEK")]),
            ("Contact", "Recently Viewed", "RecentlyViewedContacts", "recent", "all", []),
            ("Contact", "All Contacts", "AllContacts", "filter", "all", []),
            ("Contact", "My Contacts", "MyContacts", "filter", "mine", []),
            ("Contact", "Birthdays This Month", "BirthdaysThisMonth", "filter", "all", [F("birthdate", "equals", "THIS_MONTH_ANY_YEAR")]),
            ("Opportunity", "Recently Viewed", "RecentlyViewedOpportunities", "recent", "all", []),
            ("Opportunity", "All Opportunities", "AllOpportunities", "filter", "all", []),
            ("Opportunity", "My Opportunities", "MyOpportunities", "filter", "mine", []),
            ("Opportunity", "All Open Opportunities", "AllOpenOpportunities", "filter", "all", [F("stage", "not_equal", "Closed Won,Closed Lost")]),
            ("Opportunity", "Closing This Month", "ClosingThisMonth", "filter", "all", [F("close_date", "equals", "THIS_MONTH"), F("stage", "not_equal", "Closed Won,Closed Lost")]),
            ("Opportunity", "Closing Next Month", "ClosingNextMonth", "filter", "all", [F("close_date", "equals", "NEXT_MONTH"), F("stage", "not_equal", "Closed Won,Closed Lost")]),
            ("Opportunity", "Won", "Won", "filter", "all", [F("stage", "equals", "Closed Won")]),
            ("Case", "Recently Viewed", "RecentlyViewedCases", "recent", "all", []),
            ("Case", "All Open Cases", "AllOpenCases", "filter", "all", [F("status", "not_equal", "Closed")]),
            ("Case", "My Open Cases", "MyOpenCases", "filter", "mine", [F("status", "not_equal", "Closed")]),
            ("Case", "All Cases", "AllCases", "filter", "all", []),
            ("Case", "All Closed Cases", "AllClosedCases", "filter", "all", [F("status", "equals", "Closed")]),
            ("Case", "Escalated Cases", "EscalatedCases", "filter", "all", [F("status", "equals", "Escalated")]),
            ("Task", "Recently Viewed", "RecentlyViewedTasks", "recent", "mine", []),
            ("Task", "My Tasks", "MyTasks", "filter", "mine", [F("status", "not_equal", "Completed")]),
            ("Task", "Today's Tasks", "TodaysTasks", "filter", "mine", [F("activity_date", "equals", "TODAY"), F("status", "not_equal", "Completed")]),
            ("Task", "Overdue Tasks", "OverdueTasks", "filter", "mine", [F("activity_date", "less", "TODAY"), F("status", "not_equal", "Completed")]),
            ("Task", "Open Tasks", "OpenTasks", "filter", "mine", [F("status", "not_equal", "Completed")]),
            ("Task", "Completed Tasks", "CompletedTasks", "filter", "mine", [F("status", "equals", "Completed")]),
            ("Task", "Delegated Tasks", "DelegatedTasks", "filter", "delegated", [F("status", "not_equal", "Completed")]),
        ]
        rows = []
        for k, (obj, name, api, kind, scope, filters) in enumerate(std, start=1):
            rows.append({"id": k, "object": obj, "name": name, "api_name": api, "kind": kind, "scope": scope,
                         "filters": filters, "filter_logic": "", "visibility": "all", "is_standard": True,
                         "owner_id": ME, "created_at": created, "updated_at": created})
        # Two of the signed-in user's own views.
        mine = [
            ("Opportunity", "My Big Deals", "My_Big_Deals", "mine", [F("amount", "greater", "100000"), F("stage", "not_equal", "Closed Won,Closed Lost")]),
            ("Lead", "Hot Web Leads", "Hot_Web_Leads", "all", [F("rating", "equals", "Hot"), F("lead_source", "equals", "Web")]),
        ]
        for obj, name, api, scope, filters in mine:
            when = self.now - dt.timedelta(days=40 + len(rows))
            rows.append({"id": len(rows) + 1, "object": obj, "name": name, "api_name": api, "kind": "filter",
                         "scope": scope, "filters": filters, "filter_logic": "", "visibility": "me",
                         "is_standard": False, "owner_id": ME, "created_at": when, "updated_at": when})
        self.rows["list_views"] = rows

    # ---------------------------------------------------------------- reports
    def build_reports(self) -> None:
        F = lambda field, op, value: {"field": field, "op": op, "value": value}  # noqa: E731
        opp_cols = ["name", "account_id", "owner_id", "stage", "amount", "close_date", "probability"]
        reps = [
            ("Opportunities by Stage", "Open pipeline grouped by stage", "Sales Reports", "Opportunity", opp_cols,
             [F("stage", "not_equal", "Closed Won,Closed Lost")], "all", "stage", "amount", "desc", "bar"),
            ("Pipeline by Owner", "Open opportunities by owner", "Sales Reports", "Opportunity", opp_cols,
             [F("stage", "not_equal", "Closed Won,Closed Lost")], "all", "owner_id", "amount", "desc", "bar"),
            ("Closed Won This Quarter", "Won deals closed this quarter", "Sales Reports", "Opportunity", opp_cols,
             [F("stage", "equals", "Closed Won"), F("close_date", "equals", "THIS_QUARTER")], "all", "owner_id", "close_date", "asc", "column"),
            ("Opportunities Closing This Quarter", "Open deals with close date this quarter", "Sales Reports", "Opportunity",
             opp_cols, [F("close_date", "equals", "THIS_QUARTER"), F("stage", "not_equal", "Closed Won,Closed Lost")],
             "all", None, "close_date", "asc", "none"),
            ("My Open Pipeline", "My open opportunities", "Private Reports", "Opportunity", opp_cols,
             [F("stage", "not_equal", "Closed Won,Closed Lost")], "mine", "stage", "close_date", "asc", "funnel"),
            ("Won vs Lost by Lead Source", "Closed opportunities by lead source", "Sales Reports", "Opportunity",
             ["name", "account_id", "lead_source", "stage", "amount", "close_date"],
             [F("stage", "equals", "Closed Won,Closed Lost")], "all", "lead_source", "amount", "desc", "bar"),
            ("Opportunities by Industry", "Open pipeline by account industry", "Sales Reports", "Opportunity",
             ["name", "account_id", "account.industry", "stage", "amount", "close_date"],
             [F("stage", "not_equal", "Closed Won,Closed Lost")], "all", "account.industry", "amount", "desc", "bar"),
            ("Leads by Source", "All open leads by lead source", "Marketing Reports", "Lead",
             ["name", "company", "status", "lead_source", "rating", "created_at"],
             [F("is_converted", "equals", "False")], "all", "lead_source", "created_at", "desc", "donut"),
            ("Leads by Status", "Leads by status", "Marketing Reports", "Lead",
             ["name", "company", "status", "lead_source", "owner_id", "created_at"], [], "all", "status", "created_at", "desc", "bar"),
            ("Lead Conversion This Year", "Converted leads", "Marketing Reports", "Lead",
             ["name", "company", "lead_source", "converted_date", "owner_id"], [F("status", "equals", "Closed - Converted")],
             "all", "lead_source", "converted_date", "desc", "column"),
            ("Open Cases by Priority", "Open cases", "Service Reports", "Case",
             ["case_number", "subject", "account_id", "status", "priority", "origin", "created_at"],
             [F("status", "not_equal", "Closed")], "all", "priority", "created_at", "asc", "donut"),
            ("Cases by Origin", "All cases by origin", "Service Reports", "Case",
             ["case_number", "subject", "account_id", "status", "priority", "origin", "created_at"], [], "all", "origin", "created_at", "desc", "bar"),
            ("Escalated Cases", "Escalated cases", "Service Reports", "Case",
             ["case_number", "subject", "account_id", "contact_id", "priority", "owner_id", "created_at"],
             [F("status", "equals", "Escalated")], "all", None, "created_at", "asc", "none"),
            ("Accounts by Industry", "All accounts by industry", "Sales Reports", "Account",
             ["name", "type", "industry", "billing_city", "billing_country", "annual_revenue", "owner_id"], [],
             "all", "industry", "name", "asc", "bar"),
            ("Customer Accounts by Country", "Customers by billing country", "Sales Reports", "Account",
             ["name", "type", "industry", "billing_city", "billing_country", "annual_revenue"],
             [F("type", "starts_with", "Customer")], "all", "billing_country", "annual_revenue", "desc", "bar"),
            ("Contacts by Account", "Contacts and their accounts", "Sales Reports", "Contact",
             ["name", "account_id", "title", "email", "phone", "owner_id"], [], "mine", "account_id", "name", "asc", "none"),
            ("Overdue Tasks", "Open tasks past their due date", "Private Reports", "Task",
             ["subject", "who", "what", "activity_date", "status", "priority", "owner_id"],
             [F("activity_date", "less", "TODAY"), F("status", "not_equal", "Completed")], "all", "owner_id", "activity_date", "asc", "bar"),
            ("Activities This Week", "Tasks due this week", "Sales Reports", "Task",
             ["subject", "who", "what", "activity_date", "status", "task_subtype", "owner_id"],
             [F("activity_date", "equals", "THIS_WEEK")], "all", "task_subtype", "activity_date", "asc", "column"),
            ("Closed Won by Month", "Won revenue over the last 12 months", "Sales Reports", "Opportunity", opp_cols,
             [F("stage", "equals", "Closed Won"), F("close_date", "equals", "LAST_N_DAYS:365")], "all", "close_month", "close_date", "asc", "line"),
            ("Large Open Deals", "Open opportunities over $250,000", "Sales Reports", "Opportunity", opp_cols,
             [F("amount", "greater", "250000"), F("stage", "not_equal", "Closed Won,Closed Lost")], "all", None, "amount", "desc", "none"),
        ]
        rows = []
        base = self.now - dt.timedelta(days=400)
        for k, (name, desc, folder, rtype, cols, filters, scope, group, sort, sdir, chart) in enumerate(reps, start=1):
            owner = ME if folder == "Private Reports" else [3, 4, 15, 12][k % 4] if folder != "Service Reports" else 12
            if folder == "Marketing Reports":
                owner = 15
            when = base + dt.timedelta(days=k * 9)
            rows.append({"id": k, "name": name, "description": desc, "folder": folder, "report_type": rtype,
                         "columns": cols, "filters": filters, "scope": scope, "group_by": group, "sort_by": sort,
                         "sort_dir": sdir, "chart": chart, "owner_id": owner, "created_at": when, "updated_at": when,
                         "last_run_at": self.now - dt.timedelta(days=k % 6, hours=k) if k % 3 else None})
        self.rows["reports"] = rows
        comps = lambda *c: [{"title": t, "report_id": rid, "chart": ch, "measure": m} for t, rid, ch, m in c]  # noqa: E731
        dashes = [
            ("Sales Pipeline", "Pipeline health for the whole sales team", "Sales Dashboards", 3, comps(
                ("Closed Won This Quarter", 3, "metric", "amount"), ("Open Pipeline by Stage", 1, "funnel", "amount"),
                ("Pipeline by Owner", 2, "bar", "amount"), ("Won Revenue by Month", 19, "line", "amount"),
                ("Pipeline by Industry", 7, "bar", "amount"), ("Large Open Deals", 20, "table", "amount"))),
            ("Service Overview", "Case volume and backlog", "Service Dashboards", 12, comps(
                ("Open Cases", 11, "metric", "count"), ("Open Cases by Priority", 11, "donut", "count"),
                ("Cases by Origin", 12, "column", "count"), ("Escalated Cases", 13, "table", "count"))),
            ("Lead Generation", "Marketing funnel", "Marketing Dashboards", 15, comps(
                ("Leads by Source", 8, "donut", "count"), ("Leads by Status", 9, "bar", "count"),
                ("Converted Leads by Source", 10, "column", "count"))),
            ("My Sales Performance", "My pipeline and activities", "Private Dashboards", ME, comps(
                ("My Open Pipeline", 5, "funnel", "amount"), ("My Open Pipeline Total", 5, "metric", "amount"),
                ("Overdue Tasks by Owner", 17, "bar", "count"))),
        ]
        self.rows["dashboards"] = [
            {"id": k, "name": n, "description": d, "folder": f, "components": c, "owner_id": o,
             "created_at": base + dt.timedelta(days=200 + k), "updated_at": base + dt.timedelta(days=200 + k),
             "last_viewed_at": None}
            for k, (n, d, f, o, c) in enumerate(dashes, start=1)]

    # ------------------------------------------------------------------- misc
    def build_misc(self) -> None:
        r = self.rng
        # Recently viewed by the signed-in user (drives Recently Viewed lists and recent items).
        def mark(rows, n, pool=None):
            pool = pool or rows
            for k, row in enumerate(r.sample(pool, n)):
                row["last_viewed_at"] = self.now - dt.timedelta(hours=k * 7 + r.randint(1, 6), minutes=r.randint(0, 59))
        mine_first = lambda rows: [x for x in rows if x["owner_id"] == ME] or rows  # noqa: E731
        mark(self.rows["accounts"], 14, mine_first(self.rows["accounts"]))
        mark(self.contacts, 12, mine_first(self.contacts))
        mark(self.leads, 10, [x for x in self.leads if not x["is_converted"] and x["owner_id"] in (ME, 11)])
        mark(self.opps, 14, [o for o in self.opps if o["owner_id"] == ME])
        mark(self.cases, 6)
        mark(self.tasks, 5, [t for t in self.tasks if t["owner_id"] == ME])
        for row in self.rows["accounts"] + self.contacts + self.leads + self.opps + self.cases + self.tasks:
            if row["last_viewed_at"] is not None:
                row["last_viewed_at"] = row["last_viewed_at"].replace(second=0, microsecond=0)
        # Follows and favourites.
        fav_opps = [o for o in self.opps if o["owner_id"] == ME and o["stage"] in OPEN_STAGES][:2]
        favs = [("Opportunities", "/lightning/o/Opportunity/list?filterName=MyOpportunities", "standard:opportunity")]
        favs += [(o["name"], f"/lightning/r/Opportunity/{o['id']}/view", "standard:opportunity") for o in fav_opps]
        favs += [("Sales Pipeline", "/lightning/r/Dashboard/1/view", "standard:dashboard")]
        self.rows["favorites"] = [{"id": k, "user_id": ME, "label": lbl, "url": url, "icon": icon, "sort_order": k,
                                   "created_at": self.now - dt.timedelta(days=60 - k)} for k, (lbl, url, icon) in enumerate(favs, 1)]
        follows = []
        for o in fav_opps + r.sample([o for o in self.opps if o["owner_id"] == ME], 4):
            if any(f["record_id"] == o["id"] for f in follows):
                continue
            follows.append({"id": len(follows) + 1, "user_id": ME, "object": "Opportunity", "record_id": o["id"],
                            "created_at": self.now - dt.timedelta(days=30 - len(follows))})
        self.rows["follows"] = follows
        notes = []
        my_opps = [o for o in self.opps if o["owner_id"] == ME]
        def add(title, body, url, icon, actor, hours, read):
            notes.append({"id": len(notes) + 1, "user_id": ME, "title": title, "body": body, "url": url, "icon": icon,
                          "actor_id": actor, "is_read": read, "created_at": self.now - dt.timedelta(hours=hours)})
        o1, o2, o3 = r.sample(my_opps, 3)
        ld = [x for x in self.leads if x["owner_id"] == ME and x["status"] == "Open - Not Contacted"]
        add("Marcus Chen mentioned you", f"Can you update the close plan on {o1['name']}?", f"/lightning/r/Opportunity/{o1['id']}/view", "standard:opportunity", 4, 1, False)
        add("New lead assigned to you", f"{ld[0]['first_name']} {ld[0]['last_name']} ({ld[0]['company']})", f"/lightning/r/Lead/{ld[0]['id']}/view", "standard:lead", 11, 2, False)
        add("Opportunity stage changed", f"{o2['name']} moved to {o2['stage']}", f"/lightning/r/Opportunity/{o2['id']}/view", "standard:opportunity", 7, 20, False)
        add("Approval requested", f"Discount approval for {o3['name']}", f"/lightning/r/Opportunity/{o3['id']}/view", "standard:opportunity", 3, 27, True)
        add("New lead assigned to you", f"{ld[1]['first_name']} {ld[1]['last_name']} ({ld[1]['company']})", f"/lightning/r/Lead/{ld[1]['id']}/view", "standard:lead", 11, 50, True)
        add("Report ready", "Pipeline by Owner was refreshed", "/lightning/r/Report/2/view", "standard:report", 3, 75, True)
        add("Dashboard shared with you", "Sales Pipeline", "/lightning/r/Dashboard/1/view", "standard:dashboard", 3, 120, True)
        self.rows["notifications"] = notes


# (name, code, family, list price in the Standard Price Book, Partner price or None, active)
PRODUCTS = [
    ("Analytics Cloud", "AC-100", "Software", 1500, 1275, True),
    ("Integration Hub", "IH-200", "Software", 2400, 2040, True),
    ("Security Suite", "SS-300", "Software", 1800, 1530, True),
    ("Data Warehouse", "DW-400", "Software", 3200, 2720, True),
    ("Mobile SDK", "MS-500", "Software", 600, 510, True),
    ("Field Service", "FS-600", "Software", 1100, 935, True),
    ("Cloud Storage 1 TB", "CS-700", "Software", 300, None, True),
    ("IoT Gateway", "HW-110", "Hardware", 850, 765, True),
    ("Edge Sensors", "HW-120", "Hardware", 240, 216, True),
    ("Premier Support", "SV-900", "Services", 5000, None, True),
    ("Implementation Services", "SV-910", "Services", 175, None, True),
    ("Training Workshop", "SV-920", "Services", 2500, 2000, True),
    ("Onboarding Package", "SV-930", "Services", 4000, None, True),
    ("Legacy Connector", "LC-050", "Software", 900, None, False),
]
PRICE_BOOKS = [(1, "Standard Price Book", "Every product at list price", True),
               (2, "Partner Price Book", "Reseller pricing (15% off software and hardware)", False)]


def _build_products(gen: "Gen") -> None:
    """The product catalogue and its price books. Fixed data, no draw from the world's rng: adding it left
    every other seeded row (and so every existing task) unchanged."""
    gen.rows["products"] = [{"id": k, "name": n, "product_code": c, "family": f, "description": f"{n} ({f.lower()})",
                             "is_active": act} for k, (n, c, f, _, _, act) in enumerate(PRODUCTS, 1)]
    gen.rows["price_books"] = [{"id": i, "name": n, "description": d, "is_standard": std, "is_active": True}
                               for i, n, d, std in PRICE_BOOKS]
    entries = []
    for k, (_, _, _, price, partner, act) in enumerate(PRODUCTS, 1):
        entries.append({"id": len(entries) + 1, "price_book_id": 1, "product_id": k, "unit_price": price, "is_active": act})
    for k, (_, _, _, price, partner, act) in enumerate(PRODUCTS, 1):
        if partner is not None:
            entries.append({"id": len(entries) + 1, "price_book_id": 2, "product_id": k, "unit_price": partner, "is_active": act})
    gen.rows["price_book_entries"] = entries


# (title, extension, what the preview shows, owner): the file library ("Owned by Me" = owner 1).
FILES = [
    ("Q1 Pricing Sheet", "pdf", "Stratus price list, Q1 2026. Analytics Cloud $1,500 per seat; Integration Hub $2,400; "
     "Security Suite $1,800; Premier Support $5,000 per year. Volume discounts from 25 seats.", ME),
    ("Q1 Pricing Sheet (draft)", "pdf", "DRAFT, not for customers. Q1 2026 price list under review by Finance.", ME),
    ("Master Services Agreement", "docx", "Master Services Agreement between Stratus and the Customer: term, fees, "
     "confidentiality, warranties, limitation of liability.", ME),
    ("Master Services Agreement - Redline", "docx", "Customer redline of the Master Services Agreement, clauses 7 and 9.", 7),
    ("Security Whitepaper", "pdf", "How Stratus protects customer data: encryption at rest and in transit, SOC 2 Type II, "
     "single sign-on, audit trails.", ME),
    ("Implementation Plan Template", "docx", "Phases: discovery, configuration, data migration, training, go-live. "
     "Owner, dates and sign-off per phase.", ME),
    ("ROI Calculator", "xlsx", "Inputs: seats, hours saved per week, hourly cost. Output: payback period and 3-year ROI.", ME),
    ("Product Roadmap 2026", "pdf", "H1: Edge Sensors v2, Mobile SDK offline mode. H2: Analytics Cloud forecasting.", 3),
    ("Customer Reference List", "xlsx", "Reference customers by industry and region, with contact permission.", 8),
    ("Data Processing Addendum", "pdf", "GDPR data processing terms: processor obligations, sub-processors, transfers.", ME),
    ("Onboarding Checklist", "txt", "1. Kick-off call  2. Admin accounts  3. Data import  4. Training  5. Go-live review", ME),
    ("Case Study - Logistics", "pdf", "How a regional carrier cut dispatch time by 30% with Field Service.", 4),
    ("Architecture Diagram", "png", "Integration Hub connecting ERP, CRM and the data warehouse.", ME),
    ("Support Escalation Matrix", "csv", "Severity,Response,Owner\nP1,1 hour,Support Lead\nP2,4 hours,Support Engineer\n"
     "P3,1 business day,Support Engineer", 12),
]


def _build_files(gen: "Gen") -> None:
    """The file library and a few files already shared to records. Its own random stream: the world's rng (and so
    every row seeded before and every existing task) is untouched."""
    rng = random.Random(f"crm-files:{gen.seed}")
    files = []
    for k, (title, ext, text, owner) in enumerate(FILES, 1):
        files.append({"id": k, "title": title, "extension": ext, "size": 18_000 + 731 * len(text) + 977 * k,
                      "description": "", "text": text, "data": None, "sha256": "", "owner_id": owner,
                      "created_at": (gen.now - dt.timedelta(days=90 - 5 * k)).replace(hour=10, minute=0, second=0)})
    gen.rows["files"] = files
    my_opps = sorted((o for o in gen.rows["opportunities"] if o["owner_id"] == ME and o["stage"] in OPEN_STAGES),
                     key=lambda o: o["id"])
    my_accounts = sorted((a for a in gen.rows["accounts"] if a["owner_id"] == ME), key=lambda a: a["id"])
    links = []
    for opp in rng.sample(my_opps, min(6, len(my_opps))):
        links.append(("Opportunity", opp["id"], 1))
    for acc in rng.sample(my_accounts, min(4, len(my_accounts))):
        links.append(("Account", acc["id"], 3))
    gen.rows["file_links"] = [{"id": i, "file_id": f, "parent_type": t, "parent_id": pid,
                               "created_at": gen.now - dt.timedelta(days=20 - i)} for i, (t, pid, f) in enumerate(links, 1)]


def build(seed: int, now: dt.datetime) -> dict[str, list[dict[str, Any]]]:
    return Gen(seed, now).run()


# ------------------------------------------------------------------------------- logos
LOGO_COLORS = ["#0B5CAB", "#2E844A", "#BA0517", "#DD7A01", "#7526E3", "#06A59A", "#C23934", "#3A49DA",
               "#107CAD", "#8A4B08", "#5A1BA9", "#1B5F5F", "#B60554", "#3E3E3C", "#0D9DDA", "#4A7B22"]


def _digest(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8")).digest()


def logo_png(name: str, size: int = 64) -> bytes:
    """A company logo: a coloured rounded square with a geometric mark and the initials."""
    from PIL import Image, ImageDraw, ImageFont

    size = max(16, min(int(size), 256))
    h = _digest(name)
    color = LOGO_COLORS[h[0] % len(LOGO_COLORS)]
    accent = LOGO_COLORS[(h[1] + 5) % len(LOGO_COLORS)]
    big = size * 4
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, big - 1, big - 1), radius=big // 6, fill=color)
    shape = h[2] % 4
    c = big // 2
    if shape == 0:
        d.ellipse((big * 0.58, big * 0.08, big * 0.92, big * 0.42), fill=accent)
    elif shape == 1:
        d.polygon([(big * 0.62, big * 0.08), (big * 0.94, big * 0.08), (big * 0.94, big * 0.40)], fill=accent)
    elif shape == 2:
        d.rectangle((0, big * 0.80, big, big * 0.88), fill=accent)
    else:
        d.polygon([(c, big * 0.06), (big * 0.16, big * 0.24), (big * 0.84, big * 0.24)], fill=accent)
    words = [w for w in re.split(r"[\s&]+", company_base(name)) if w and w[0].isalnum()]
    initials = "".join(w[0] for w in words[:2]).upper() or "?"
    try:
        font = ImageFont.load_default(int(big * (0.42 if len(initials) > 1 else 0.5)))
    except TypeError:  # Pillow < 10.1
        font = ImageFont.load_default()
    d.text((c, c + big * 0.03), initials, fill="#FFFFFF", font=font, anchor="mm")
    img = img.resize((size, size), Image.LANCZOS)
    buf = io.BytesIO()
    img.save(buf, "PNG", optimize=True)
    return buf.getvalue()


def file_png(title: str, text: str, width: int = 960, height: int = 540) -> bytes:
    """A seeded image file's picture: a simple block diagram of the components its description names."""
    from PIL import Image, ImageDraw, ImageFont

    img = Image.new("RGB", (width, height), "#FFFFFF")
    d = ImageDraw.Draw(img)
    try:
        font, small = ImageFont.load_default(28), ImageFont.load_default(18)
    except TypeError:  # Pillow < 10.1
        font = small = ImageFont.load_default()
    d.text((40, 30), title, fill="#181818", font=font)
    parts = [p.strip(" .") for p in re.split(r",| and | connecting ", text) if p.strip(" .")][:4] or [title]
    hub, rest = parts[0], parts[1:] or ["Data"]
    cx, cy = width // 2, height // 2 + 30
    d.rounded_rectangle((cx - 150, cy - 45, cx + 150, cy + 45), radius=12, fill="#0B5CAB")
    d.text((cx, cy), hub, fill="#FFFFFF", font=small, anchor="mm")
    for k, name in enumerate(rest):
        x = 60 + k * (width - 120) // max(1, len(rest)) + (width - 120) // max(1, len(rest)) // 2 - 110
        y = 110 if k % 2 == 0 else height - 110
        d.line((x + 110, y + 35 if y < cy else y - 35, cx, cy - 45 if y < cy else cy + 45), fill="#747474", width=3)
        d.rounded_rectangle((x, y - 35, x + 220, y + 35), radius=10, outline="#0B5CAB", width=3, fill="#EEF4FF")
        d.text((x + 110, y), name, fill="#0B5CAB", font=small, anchor="mm")
    buf = io.BytesIO()
    img.save(buf, "PNG", optimize=True)
    return buf.getvalue()
