"""Cross-app templates over a client visit: the client asked by mail about their team's dietary needs (a
correspondent answers, domain/correspondence.py) and the answer kept as a note on their account in the CRM."""

from __future__ import annotations

import random

from domain.correspondence import asked
from seed_data.workspace import DIETS
from tasks.templates import World, template
from tasks.templates.crm.parts import Crm, allow_create, button, fill, open_record, save_modal
from tasks.templates.crm.parts import call as crm_call
from tasks.templates.crm.parts import find as crm_find
from tasks.templates.harmless import harmless
from tasks.templates.mail.parts import Mailbox
from tasks.templates.workspace.asking import ask, t_ask
from tasks.templates.workspace.common import asked_and_answered, calls, done, in_tab, links, plan, scoped, spec
from tasks.templates.workspace.orders import compose

TITLE = "Onsite lunch"


def account_note(account: str, title: str, body: str | None) -> list[dict]:
    """In the CRM tab: open the account, New Notes, the title and (if any) the text, saved."""
    return open_record(account) + [button("New Notes"), fill("Title", title), *([fill("Note", body)] if body else []),
                                   save_modal()]


@template("workspace", "ask-diet-account-note", difficulty="long", max_steps=60, count=5, test_every=5)
def ask_diet_account_note(w: World, rng: random.Random):
    """Ask a client by mail about their team's dietary needs for next week's onsite lunch, wait for the answer, and
    keep it as a note on their account in the CRM."""
    mb, crm = Mailbox(w.of("mail")), Crm(w.of("crm"))
    people = {p["email"]: p for p in w.table("mail.correspondents")}
    seen: set[int] = set()  # one person an account
    cands = []
    for email, cid in sorted(links(w)["contacts"].items()):
        c = crm.con[cid]
        a = crm.acc[c["account_id"]]
        if email in people and crm.unique(a["name"]) and a["id"] not in seen:
            seen.add(a["id"])
            cands.append((people[email], c, a))
    order = rng.sample(cands, len(cands))
    for person, contact, acc in order[:5]:
        diet = person["facts"]["diet"]
        other_p, _oc, other_a = next(x for x in order if x[0]["facts"]["diet"] != diet)
        first = contact["first_name"]
        subject = "Onsite lunch next week"
        text = f"Hi {first}, are there any dietary needs we should plan for at next week's onsite lunch?"
        assert asked(subject + "\n" + text) == ["diet"], "the question asks about dietary needs and nothing else"

        def note(a: dict, body: str | None) -> list[dict]:
            return account_note(a["name"], TITLE, body)

        def steps(who: dict = person, a: dict = acc, body: str | None = diet, said: str = text,
                  noted: bool = True) -> list[dict]:
            return ask(who["email"], subject, said) + (in_tab("crm", note(a, body)) if noted else []) + [done()]

        def tcalls(who: dict = person, a: dict = acc, body: str = diet, said: str = text,
                   noted: bool = True) -> list[dict]:
            out = t_ask(who["email"], subject, said)
            if noted:
                out += calls("crm", [crm_find("Account", a["name"]),
                                     crm_call("add_note", object="Account", record_id=a["id"], title=TITLE, body=body)])
            return out

        mail_part = asked_and_answered(person["email"])
        crm_checks = [{"table": "notes", "in": "created", "where": {"parent_type": "Account", "parent_id": acc["id"]},
                       "count": 1,
                       "expect": {"title": {"$ieq": TITLE},
                                  "body": {"$icontains": diet.rstrip("."), "$len": {"$lte": len(diet) + 80},
                                           "$excludes": [d.rstrip(".") for d in DIETS if d != diet]}},
                       "name": "the answer kept as a note on the client's account"}]
        gold = steps()
        letter = (f"Hi {first},\n\nAre there any dietary needs we should plan for at next week's onsite lunch?\n\n"
                  f"Thanks,\n{mb.me['name']}")
        yield {
            "goal": f"Email {crm.cname(contact)} of {acc['name']} ({person['email']}) to ask whether their team has any "
                    f"dietary needs for next week's onsite lunch, wait for the answer, then add a note titled "
                    f"\u201c{TITLE}\u201d to the {acc['name']} account in the CRM with their answer as its text.",
            "start_path": "/inbox",
            "verify": spec(scoped("mail", mail_part["checks"]) + scoped("crm", crm_checks),
                           scoped("mail", mail_part["unchanged_except"])
                           + scoped("crm", [allow_create("notes", {"parent_type": "Account", "parent_id": acc["id"]})]),
                           {"the answer asked for and come": scoped("mail", mail_part["checks"][:1]),
                            "the answer noted on the account": scoped("crm", crm_checks)}),
            "solution": gold,
            "near_misses": [steps(noted=False), steps(body=None), steps(who=other_p, body=other_p["facts"]["diet"])],
            "adversarial": [
                {"kind": "wrong_record", "steps": steps(a=other_a),
                 "why": f"the answer noted on another account ({other_a['name']})"},
                {"kind": "wrong_app", "steps": ask(person["email"], subject, text)
                 + compose(mb.me["email"], TITLE, f"{acc['name']}: {diet}") + [done()],
                 "why": "the answer noted in an email to yourself: nothing kept on the account in the CRM"},
                {"kind": "dump", "steps": steps(body=" ".join(DIETS)),
                 "why": "the note lists every answer a client could give"},
                {"kind": "extra", "steps": gold[:-1] + note(acc, diet) + [done()],
                 "why": "the same note added twice"},
            ],
            "harmless": [
                harmless("courtesy", steps(said=letter), "the question as a letter: a greeting and a sign-off",
                         tcalls(said=letter)),
                harmless("check_work", gold[:-1] + open_record(acc["name"]) + [done()],
                         "opens the account again to see the note in its Notes list",
                         [*tcalls(), {"tool": "crm_get_record", "args": {"object": "Account", "record_id": acc["id"]}}]),
            ],
            "tools": plan(tcalls(), tcalls(noted=False), tcalls(body=""),
                          tcalls(who=other_p, body=other_p["facts"]["diet"])),
        }
