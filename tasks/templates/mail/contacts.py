"""Contacts: add one, edit one, look one up."""

from __future__ import annotations

import random

from tasks.templates import World, template
from tasks.templates.harmless import harmless
from tasks.templates.mail._answers import phone_answer
from tasks.templates.mail._tools import call, finish, plan
from tasks.templates.mail._common import Mailbox, click, done, extra, graded

NEW_PEOPLE = [
    ("Priya", "Raman", "priya.raman@northwindlegal.com", "Northwind Legal", "(555) 201-4410"),
    ("Tomasz", "Novak", "tnovak@glasswing.games", "Glasswing Games", "(555) 318-7720"),
    ("Leila", "Haddad", "leila@harborviewrealty.com", "Harborview Realty", "(555) 412-9033"),
    ("Marcus", "Oyelaran", "marcus.oyelaran@copperleafbank.com", "Copperleaf Bank", "(555) 733-1208"),
    ("Sofia", "Brandt", "sofia.brandt@lumenwave.net", "Lumenwave Telecom", "(555) 650-4471"),
    ("Kenji", "Watanabe", "kenji@falconridge.aero", "Falconridge Aerospace", "(555) 290-3316"),
]
SEARCH = {"role": "searchbox", "name": "Search contacts"}


def _find(name: str) -> list[dict]:
    return [{"fill": SEARCH, "text": name}, {"press": ["Enter"]}, click("link", name, exact=True)]


@template("mail", "add-contact", difficulty="medium", max_steps=18, count=4, test_every=4)
def add_contact(w: World, rng: random.Random):
    """Create a contact with name, email and company."""
    people = rng.sample(NEW_PEOPLE, len(NEW_PEOPLE))
    for i, (first, last, email, company, _phone) in enumerate(people):
        def steps(mail: str):
            return [click("button", "Inkbox apps", exact=True), click("menuitem", "Contacts", exact=True),
                    click("link", "Create contact", exact=True),
                    {"fill": {"role": "textbox", "name": "First name", "exact": True}, "text": first},
                    {"fill": {"role": "textbox", "name": "Last name", "exact": True}, "text": last},
                    {"fill": {"role": "textbox", "name": "Company", "exact": True}, "text": company},
                    {"fill": {"role": "textbox", "name": "Email", "exact": True}, "text": mail},
                    click("button", "Save", exact=True), done()]

        typo = email.replace("@", "s@", 1)
        o_first, o_last, o_email, o_company, _ = people[(i + 1) % len(people)]
        another = [click("link", "Create contact", exact=True),
                   {"fill": {"role": "textbox", "name": "Email", "exact": True}, "text": o_email},
                   click("button", "Save", exact=True)]
        yield {
            "goal": f"Add {first} {last} from {company} to your contacts, with the email address {email}.",
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "contacts", "in": "created", "count": 1,
                  "expect": {"name": f"{first} {last}", "email": email, "company": company, "is_saved": True},
                  "name": "the new contact"}],
                [{"table": "contacts", "ops": ["create"], "max": 1}]),
            "solution": steps(email),
            "harmless": [harmless("check_work", steps(email)[:-1] + _find(f"{first} {last}") + [done()],
                                  "saves it, then searches the contacts for the name and opens the new card",
                                  [call("create_contact", first_name=first, last_name=last, company=company, email=email),
                                   call("find_contacts", query=f"{first} {last}")])],
            "tools": plan([call("create_contact", first_name=first, last_name=last, company=company, email=email)],
                          [call("create_contact", first_name=first, last_name=last, company=company, email=typo)]),
            "adversarial": [extra(steps(email), another, "adds a second contact")],
            "near_misses": [steps(typo)],
        }


NEW_PHONES = ["(555) 014-2290", "(555) 377-8812", "(555) 902-3371", "(555) 448-1106", "(555) 265-7093", "(555) 731-5520"]
NEW_TITLES = ["Director of Operations", "VP of Engineering", "Head of Partnerships", "Chief of Staff", "Senior Counsel"]


def dashed(phone: str) -> str:
    """(555) 014-2290 -> 555-014-2290."""
    d = "".join(ch for ch in phone if ch.isdigit())
    return f"{d[:3]}-{d[3:6]}-{d[6:]}"


@template("mail", "edit-contact", difficulty="medium", max_steps=14, count=4, test_every=4)
def edit_contact(w: World, rng: random.Random):
    """Change a contact's phone number or job title (Contacts > contact > Edit > Save)."""
    mb = Mailbox(w)
    names = [c["name"] for c in mb.contacts]
    cands = [c for c in mb.contacts if c["is_saved"] and c["phone"] and names.count(c["name"]) == 1
             and sum(c["name"] in n for n in names) == 1 and c["relation"] in ("client", "vendor", "coworker")]
    for i, c in enumerate(rng.sample(cands, len(cands))):
        phone_task = i % 2 == 0
        other = next(o for o in cands if o["id"] != c["id"] and o["company"] == c["company"]) if any(
            o["id"] != c["id"] and o["company"] == c["company"] for o in cands) else cands[(i + 5) % len(cands)]
        if phone_task:
            field, label, value = "phone", "Phone", NEW_PHONES[i % len(NEW_PHONES)]
            goal = f"{c['name']} ({c['company']}) has a new phone number: {value}. Update their contact."
            # $phone: the same number in any usual punctuation ("555-014-2290" as well as the goal's form).
            expect = {"phone": {"$phone": value}}
        else:
            field, label, value = "title", "Job title", NEW_TITLES[i % len(NEW_TITLES)]
            goal = f"{c['name']} was promoted: change their job title in Contacts to \u201c{value}\u201d."
            expect = {"title": value}

        def steps(who: dict, text: str = value):
            return [click("button", "Inkbox apps", exact=True), click("menuitem", "Contacts", exact=True)] + _find(who["name"]) + [
                click("link", "Edit", exact=True),
                {"fill": {"role": "textbox", "name": label, "exact": True}, "text": text},
                click("button", "Save", exact=True), done()]

        yield {
            "goal": goal,
            "start_path": "/inbox",
            "verify": graded(
                [{"table": "contacts", "where": {"id": c["id"]}, "expect": {**expect, "name": c["name"], "email": c["email"]},
                  "name": f"{field} updated"}],
                [{"table": "contacts", "where": {"id": c["id"]}, "fields": [field]}]),
            "solution": steps(c),
            "harmless": [harmless("phrasing", steps(c, dashed(value)), "the new number typed with dashes, the way "
                                  "many people write it", [call("find_contacts", query=c["name"]),
                                                           call("update_contact", contact_id=c["id"], phone=dashed(value))])]
            if phone_task else [harmless("check_work", steps(c)[:-1] + _find(c["name"]) + [done()],
                                         "saves it, then searches the contacts for the name and reopens the card "
                                         "to see the new title", [call("find_contacts", query=c["name"]),
                                                                  call("update_contact", contact_id=c["id"], title=value),
                                                                  call("get_contact", contact_id=c["id"])])],
            "tools": plan([call("find_contacts", query=c["name"]), call("update_contact", contact_id=c["id"], **{field: value})],
                          [call("find_contacts", query=other["name"]),
                           call("update_contact", contact_id=other["id"], **{field: value})]),
            "adversarial": [extra(steps(c), steps(other)[2:-1], f"writes the same {field} on another contact too")],
            "near_misses": [steps(other)],
        }


@template("mail", "contact-phone", difficulty="easy", max_steps=10, count=4, test_every=4)
def contact_phone(w: World, rng: random.Random):
    """Retrieval: a contact's phone number, looked up in Contacts (nothing may change)."""
    mb = Mailbox(w)
    names = [c["name"] for c in mb.contacts]
    cands = [c for c in mb.contacts if c["is_saved"] and c["phone"] and sum(c["name"] in n for n in names) == 1]
    for i, c in enumerate(rng.sample(cands, len(cands))):
        other = cands[(i + 3) % len(cands)]
        path = [click("button", "Inkbox apps", exact=True), click("menuitem", "Contacts", exact=True),
                {"fill": SEARCH, "text": c["name"]}, {"press": ["Enter"]}]
        yield {
            "goal": f"What is {c['name']}'s phone number? Answer with the number.",
            "start_path": "/inbox",
            # phone_answer: the number alone or in a sentence ("$phone" took the bare number only), one number.
            "verify": graded([{"answer": phone_answer(c["phone"]), "name": "the phone number"}]),
            "solution": path + [done(c["phone"])],
            "harmless": [harmless("phrasing", path + [done(f"{c['name']}'s phone number is {c['phone']}.")],
                                  "the number in a full sentence",
                                  [call("find_contacts", query=c["name"]), finish(f"{c['name']}'s phone number is {c['phone']}.")])],
            "tools": plan([call("find_contacts", query=c["name"]), finish(c["phone"])],
                          [call("find_contacts", query=c["name"]), finish(other["phone"])]),
            "distractors": [o["phone"] for o in cands[:40] if o["phone"] != c["phone"]],
            "adversarial": [extra(path + [done(c["phone"])],
                                  [click("link", c["name"], exact=True), click("link", "Edit", exact=True),
                                   {"fill": {"role": "textbox", "name": "Phone", "exact": True}, "text": other["phone"]},
                                   click("button", "Save", exact=True)],
                                  "the right number, after overwriting it with another contact's")],
            "near_misses": [path + [done(other["phone"])]],
        }
