"""The workspace seed family: one seed -> three worlds (mail, food, crm) that share one cast.

`build(seed, now) -> {"mail": rows, "food": rows, "crm": rows}`. The three single-app builders run as they
are (`seed_data.crm.build`, `seed_data.food.build_world`, `seed_data.mail.WorldBuilder`); this module only
casts their people and adds the rows that tie the worlds together:

- **me**: the CRM's user 1 (the rep the CRM calls "you") is the mail account's owner and Forkful's
  customer: one name, one e-mail (the CRM org's domain), one phone. The mail world's company is the
  CRM org; its first coworkers are the CRM's other users (same names, e-mails and titles).
- **clients**: each client company of the mail world is a CRM account, and each client correspondent is
  one of that account's contacts: the same name, e-mail, title, phone and (mailing) address in Contacts.
- **cases**: a few open CRM cases of those accounts have the customer's mail thread (the complaint, the
  rep's reply naming the case number, and for the older ones a follow-up); the case's contact is the
  correspondent and its origin is Email.
- **office**: the mail signature ends with the office address, which is Forkful's saved "Work" address.
- **orders**: Forkful's latest delivered orders have their receipts in the mailbox (order number, store,
  lines and total as the order row has them).

What ties the worlds is recorded in `links(seed, now)` (the cast's e-mails, the case threads, the
office address, the receipts), so tests and templates read the joins instead of guessing them.
Same (seed, now) -> the same three worlds. The single-app families are untouched: their builders are
called, never changed, and a single-app seed never goes through this module.
"""

from __future__ import annotations

import copy
import datetime as dt
import random
from collections import Counter
from functools import lru_cache
from typing import Any

import seed_data.crm as crm_seed
import seed_data.food as food_seed
import seed_data.mail as mail_seed
from domain.food import address_full, money
from seed_data.common import VOCAB_ROOT, slug

FAMILY = "workspace"
# One frozen clock for the three apps: a Thursday before lunch, late in Q1 (the CRM's quarter ends in 19 days).
NOW = dt.datetime(2026, 3, 12, 11, 45)
N_CASE_THREADS = 4
N_RECEIPTS = 3
FOOD_SENDER = ("Forkful", "receipts@forkful.com")
OPEN_CASE = ("New", "Working", "Escalated")
APPS = ("mail", "food", "crm")
# What correspondents answer (domain/correspondence.py) is drawn per person from these.
LUNCH_TIMES = ("12:00 PM", "12:30 PM", "1:00 PM", "1:30 PM")
DIETS = ("No dietary restrictions on our side.", "Two of us are vegetarian.", "One of us has a nut allergy.",
         "Please include a vegan option.")
# What a workspace snapshot is built from, beside the app's own seed code (AppSpec.family_modules): a
# change to any of them rebuilds the workspace snapshots of every app.
FINGERPRINT_MODULES = ["seed_data.workspace", "seed_data.mail", "seed_data.crm", "seed_data.food", "seed_data.common",
                       "domain.food", "domain.crm"]
VOCAB_DIRS = [VOCAB_ROOT / app for app in APPS]


def _split(name: str) -> tuple[str, str]:
    first, _, last = name.partition(" ")
    return first, last


def _recast(p: mail_seed.Person, name: str, email: str, company: str | None = None, title: str | None = None) -> None:
    p.name, p.email = name, email
    if company is not None:
        p.company = company
    if title is not None:
        p.title = title


class _Cast:
    """The joins the workspace makes, filled while the worlds are built."""

    def __init__(self, seed: int, now: dt.datetime, crm: dict, food: dict):
        self.seed, self.now, self.crm, self.food = seed, now, crm, food
        self.rng = random.Random(f"workspace:{seed}")  # its own stream: the apps' streams run as they would
        users = {u["id"]: u for u in crm["users"]}
        self.me_user = users[crm_seed.ME]
        self.me_name = f"{self.me_user['first_name']} {self.me_user['last_name']}"
        self.org = {"name": crm_seed.vocab("sales")["org"]["name"], "domain": crm_seed.vocab("sales")["org"]["domain"]}
        self.colleagues = [u for uid, u in sorted(users.items()) if uid != crm_seed.ME]
        self.office = food["addresses"][1] if food else None  # Forkful's "Work" address (food's address plan)
        assert self.office is None or self.office["label"] == "Work"
        self.contact_of: dict[str, dict] = {}  # mail e-mail -> CRM contact row
        self.account_of: dict[str, dict] = {}  # mail client company -> CRM account row
        self.case_threads: list[dict] = []
        self.receipts: list[dict] = []

    # --------------------------------------------------------------- people
    def cast_mail(self, b: mail_seed.WorldBuilder) -> None:
        """Rename the mail world's people right after `make_people`, before any message is written."""
        old_last = _split(b.me.name)[1]
        b.my_company = dict(self.org)
        _recast(b.me, self.me_name, self.me_user["email"], self.org["name"], self.me_user["title"])
        for p in b.people["coworker"]:
            p.company = self.org["name"]
            if p is not b.ap:
                p.email = f"{p.email.split('@')[0]}@{self.org['domain']}"
        b.ap.email = f"ap@{self.org['domain']}"
        for p, u in zip(b.people["coworker"], self.colleagues):  # AP is last: never a colleague's slot
            _recast(p, f"{u['first_name']} {u['last_name']}", u["email"], title=u["title"])
        new_last = _split(self.me_name)[1]
        for p in b.people["family"]:
            first, last = _split(p.name)
            if last == old_last:
                local, domain = p.email.split("@")
                p.name = f"{first} {new_last}"
                p.email = f"{local.replace(slug(old_last), slug(new_last))}@{domain}"
        self._cast_clients(b)

    def _cast_clients(self, b: mail_seed.WorldBuilder) -> None:
        crm = self.crm
        need = Counter(p.company for p in b.people["client"])
        names = Counter((c["first_name"], c["last_name"]) for c in crm["contacts"])
        others = {p.name for p in b.all_people if p.relation != "client"}  # one name, one person in the mailbox
        by_acc: dict[int, list[dict]] = {}
        for c in crm["contacts"]:
            # never one of the CRM's seeded duplicate people, nor a namesake of someone else in the mailbox
            if names[(c["first_name"], c["last_name"])] == 1 and f"{c['first_name']} {c['last_name']}" not in others:
                by_acc.setdefault(c["account_id"], []).append(c)
        open_cases = Counter(c["account_id"] for c in crm["cases"] if c["status"] in OPEN_CASE)
        taken_domains = {p.email.split("@")[1] for p in b.all_people if p.relation != "client"}
        accounts = [a for a in crm["accounts"] if a["website"] and a["account_number"]  # not a duplicate entry
                    and a["website"].removeprefix("www.") not in taken_domains]
        self.rng.shuffle(accounts)
        accounts.sort(key=lambda a: open_cases[a["id"]] == 0)  # accounts with open cases first (stable)
        used: set[int] = set()
        for company, n in sorted(need.items(), key=lambda kv: (-kv[1], kv[0])):
            acc = next(a for a in accounts if a["id"] not in used and len(by_acc.get(a["id"], [])) >= n)
            used.add(acc["id"])
            self.account_of[company] = acc
        seen: dict[int, int] = {}
        for p in b.people["client"]:
            acc = self.account_of[p.company]
            k = seen.get(acc["id"], 0)
            seen[acc["id"]] = k + 1
            c = by_acc[acc["id"]][k]
            _recast(p, f"{c['first_name']} {c['last_name']}", c["email"], acc["name"], c["title"])
            self.contact_of[p.email] = c
        b.client_companies = [{"name": a["name"], "domain": a["website"].removeprefix("www.")}
                              for a in self.account_of.values()]

    # -------------------------------------------------------------- threads
    def mail_threads(self, b: mail_seed.WorldBuilder) -> list[mail_seed.Conv]:
        """The customers' case threads and Forkful's receipts, as mail conversations."""
        return self._case_threads(b) + self._receipts(b)

    def _case_threads(self, b: mail_seed.WorldBuilder) -> list[mail_seed.Conv]:
        rng, now = self.rng, self.now
        people = {p.email: p for p in b.people["client"]}
        by_acc: dict[int, list[mail_seed.Person]] = {}
        for email, c in self.contact_of.items():
            by_acc.setdefault(c["account_id"], []).append(people[email])
        cases = [c for c in self.crm["cases"] if c["status"] in OPEN_CASE and c["account_id"] in by_acc
                 and c["created_at"] < now - dt.timedelta(hours=2)]
        cases.sort(key=lambda c: c["created_at"], reverse=True)
        convs = []
        for case in cases[:N_CASE_THREADS]:
            who = rng.choice(by_acc[case["account_id"]])
            contact = self.contact_of[who.email]
            acc = next(a for a in self.crm["accounts"] if a["id"] == case["account_id"])
            case["contact_id"], case["origin"] = contact["id"], "Email"
            subject = f"{case['subject']} ({acc['name']})"
            t1 = case["created_at"] - dt.timedelta(minutes=rng.randint(12, 50))
            t2 = case["created_at"] + dt.timedelta(minutes=rng.randint(3, 25))
            msgs = [
                mail_seed.Msg(who, [b.me], [], subject,
                              f"Hi {b.me.first},\n\nWe need your help: {case['subject'].rstrip('.').lower()}."
                              f"{' ' + case['description'] if case['description'] else ''}\n\nThis is affecting our team at {acc['name'].rstrip('.')}.\n\n"
                              f"Thanks,\n{who.name}\n{who.title}, {acc['name']}", t1),
                mail_seed.Msg(b.me, [who], [], f"Re: {subject}",
                              f"Hi {who.first},\n\nThanks for letting me know. I've opened case {case['case_number']} "
                              f"for this and our support team is on it. I'll keep you posted.\n\n{b.me.first}",
                              min(t2, now - dt.timedelta(minutes=5))),
            ]
            t3 = now - dt.timedelta(minutes=rng.randint(30, 300))
            if t3 > msgs[-1].sent_at + dt.timedelta(hours=6):
                msgs.append(mail_seed.Msg(who, [b.me], [], f"Re: {subject}",
                                          f"Hi {b.me.first},\n\nAny update on case {case['case_number']}? "
                                          f"The issue is still open on our side.\n\n{who.first}", t3))
            conv = mail_seed.Conv("case_thread", "primary", subject, msgs)
            conv.force = {"inbox": True}
            convs.append(conv)
            self.case_threads.append({"case_number": case["case_number"], "case_id": case["id"], "subject": subject,
                                      "account": acc["name"], "contact_email": who.email})
        return convs

    def _receipts(self, b: mail_seed.WorldBuilder) -> list[mail_seed.Conv]:
        food = self.food
        sender = mail_seed.Person(FOOD_SENDER[0], FOOD_SENDER[1], "service")
        stores = {s["id"]: s for s in food["stores"]}
        lines: dict[int, list[dict]] = {}
        for li in food["order_items"]:
            lines.setdefault(li["order_id"], []).append(li)
        done = sorted((o for o in food["orders"] if o["status"] in ("delivered", "picked_up")),
                      key=lambda o: o["placed_at"], reverse=True)[:N_RECEIPTS]
        convs = []
        for o in reversed(done):
            store = stores[o["store_id"]]["name"]
            items = "\n".join(f"{li['quantity']} x {li['name']}"
                              f"{' (' + li['options_text'] + ')' if li['options_text'] else ''}"
                              f"  {money(li['unit_price_cents'] * li['quantity'])}" for li in lines[o["id"]])
            where = o["address_text"] or "Pickup"
            subject = f"Your Forkful order from {store}"
            body = (f"Hi {b.me.first},\n\nThanks for your order #{o['id']} from {store}.\n\n{items}\n\n"
                    f"Subtotal {money(o['subtotal_cents'])}\nTotal {money(o['total_cents'])}\n\n"
                    f"{'Delivered to' if o['address_text'] else 'Picked up'}: {where}\n\nForkful")
            conv = mail_seed.Conv("receipts", "updates", subject,
                                  [mail_seed.Msg(sender, [b.me], [], subject, body, o["placed_at"] + dt.timedelta(minutes=1))],
                                  "receipts")
            conv.force = {"read": True}
            convs.append(conv)
            self.receipts.append({"order_id": o["id"], "store": store, "total_cents": o["total_cents"],
                                  "subject": subject})
        return convs

    # ----------------------------------------------------------------- rows
    def finish_mail(self, rows: dict, b: mail_seed.WorldBuilder) -> None:
        acct = rows["account"][0]
        acct["signature"] = f"{acct['signature']}\n{address_full(self.office)}"
        for c in rows["contacts"]:
            crm = self.contact_of.get(c["email"])
            if crm is not None:
                c["phone"] = crm["phone"]
                c["address"] = (f"{crm['mailing_street']}, {crm['mailing_city']}, {crm['mailing_state']} "
                                f"{crm['mailing_postal_code']}, {crm['mailing_country']}")
        rows["correspondents"] = self.correspondents(b)

    def correspondents(self, b: mail_seed.WorldBuilder) -> list[dict]:
        """The people who answer mail (apps/mail/services/correspondence.py): each client correspondent and
        coworker, with the facts their answers come from and their delay. Their own stream of draws, after every
        message is written: the worlds' other rows are the same with or without them."""
        rng = random.Random(f"workspace:{self.seed}:correspondents")
        people = [p for p in b.people["client"]] + [p for p in b.people["coworker"] if p is not b.ap]
        out = []
        for i, p in enumerate(sorted(people, key=lambda p: p.email), start=1):
            out.append({"id": i, "email": p.email.lower(), "name": p.name, "delay_minutes": rng.randint(3, 9),
                        "facts": {"phone": f"({rng.randint(201, 989)}) 555-{rng.randint(1000, 9999)}",
                                  "po_number": f"PO-{rng.randint(10000, 99999)}", "headcount": rng.randint(4, 12),
                                  "lunch_time": rng.choice(LUNCH_TIMES), "diet": rng.choice(DIETS)}})
        return out

    def finish_food(self) -> None:
        u = self.food["users"][0]
        u.update(first_name=self.me_user["first_name"], last_name=self.me_user["last_name"],
                 email=self.me_user["email"], phone=self.me_user["phone"])

    def links(self) -> dict[str, Any]:
        return {
            "me": {"name": self.me_name, "email": self.me_user["email"], "phone": self.me_user["phone"],
                   "crm_user_id": self.me_user["id"], "company": self.org["name"]},
            "office": {"address_id": self.office["id"], "address": address_full(self.office)},
            "contacts": {email: c["id"] for email, c in sorted(self.contact_of.items())},
            "accounts": {a["name"]: a["id"] for a in self.account_of.values()},
            "case_threads": self.case_threads,
            "receipts": self.receipts,
        }


class _CastMailBuilder(mail_seed.WorldBuilder):
    """Inkbox's own builder, its people cast from the workspace before any message is written."""

    def __init__(self, seed: int, now: dt.datetime, cast: _Cast):
        super().__init__(seed, now)
        self.cast = cast

    def make_people(self) -> None:
        super().make_people()
        self.cast.cast_mail(self)

    def drafts_and_scheduled(self) -> list[mail_seed.Conv]:
        return super().drafts_and_scheduled() + self.cast.mail_threads(self)


def _build(seed: int, now: dt.datetime, app: str | None = None) -> tuple[dict[str, dict], dict | None]:
    """The worlds of (seed, now), and their links: all three (app None), or only `app`'s, built with no more
    than it needs (food: Forkful's world and the CRM's users; crm: the CRM's world and the mail cast's people,
    no message; mail: everything). One app's world is the same rows either way (tests/workspace)."""
    if app == "food":
        org = crm_seed.Gen(seed, now)
        org.build_org()  # the CRM's users, me among them: nothing else of the CRM is needed
        crm = org.rows
    else:
        crm = crm_seed.build(seed, now)
    food = food_seed.build_world(seed, now) if app != "crm" else None
    cast = _Cast(seed, now, crm, food)
    if app == "food":
        cast.finish_food()
        return {"food": food}, None
    builder = _CastMailBuilder(seed, now, cast)
    if app == "crm":
        builder.make_people()
        cast._case_threads(builder)  # what the case threads change in the CRM, with the same draws as mail's
        return {"crm": crm}, None
    mail = builder.build()
    cast.finish_mail(mail, builder)
    cast.finish_food()
    return {"mail": mail, "food": food, "crm": crm}, cast.links()


@lru_cache(maxsize=4)
def _cached(seed: int, now: dt.datetime, app: str | None = None) -> tuple[dict[str, dict], dict | None]:
    return _build(seed, now, app)


def build(seed: int, now: dt.datetime) -> dict[str, dict[str, list[dict[str, Any]]]]:
    """The three worlds' rows for workspace seed `seed` at `now`: {"mail": ..., "food": ..., "crm": ...}.
    A fresh copy each call (a caller may change the rows it gets)."""
    return copy.deepcopy(_cached(seed, now.replace(microsecond=0), None)[0])


def build_app(app: str, seed: int, now: dt.datetime) -> dict[str, list[dict[str, Any]]]:
    """One app's rows of the workspace world (what that app's snapshot holds), built with only what it needs."""
    if app not in APPS:
        raise ValueError(f"no app {app!r} in the workspace: {', '.join(APPS)}")
    return copy.deepcopy(_cached(seed, now.replace(microsecond=0), None if app == "mail" else app)[0][app])


def links(seed: int, now: dt.datetime) -> dict[str, Any]:
    """What ties the three worlds of (seed, now) together: the cast's e-mails -> CRM contact ids, the
    client companies -> CRM account ids, the case threads, the office address, the receipts."""
    return copy.deepcopy(_cached(seed, now.replace(microsecond=0), None)[1])
