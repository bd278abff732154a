"""Questions answered with done(answer): nothing may change."""

from __future__ import annotations

import random
from collections import defaultdict

from domain.crm import OPEN_STAGES
from tasks.templates import World, template
from tasks.templates.harmless import harmless
from tasks.templates.crm._common import (
    Crm, call, done, extra, find, finish, follow_elsewhere, link, name_answer, num_answer, open_record, phone_answer, tab,
    toggle_follow, tools,
)


def _collateral(crm: Crm, solution: list[dict], account: int | None = None) -> dict:
    """The right answer plus a side effect: a question changes nothing, so any change must fail. On the
    account's page the side effect is one click ((un)follow it), so the answer still fits the step budget."""
    if account is not None:
        return extra(solution, toggle_follow(crm, "Account", account), "answers right but also (un)follows the account")
    return extra(solution, follow_elsewhere(crm), "answers right but also follows an unrelated account")


def _phones_near(crm: Crm, a: dict) -> list[str]:
    own = [p for c in crm.contacts_by_acc[a["id"]] for p in (c["phone"], c["mobile"]) if p]
    rest = [x["phone"] for x in sorted(crm.accounts, key=lambda x: x["id"]) if x["phone"] and x["id"] != a["id"]]
    return [p for p in dict.fromkeys(own + rest[:40]) if p != a["phone"]]


@template("crm", "ret-account-phone", difficulty="easy", max_steps=10)
def ret_account_phone(w: World, rng: random.Random):
    """Look up an account's main phone number."""
    crm = Crm(w)
    cands = [a for a in crm.accounts if crm.unique(a["name"]) and a["phone"]]
    for a in rng.sample(cands, len(cands)):
        other = rng.choice([c for c in crm.contacts_by_acc[a["id"]] if c["phone"]] or [{"phone": "(000) 000-0000"}])
        yield {
            # Audit (#48): "Answer with the number only" graded by $phone refused "The main number is (509) 555-8054.";
            # phone_answer takes the number alone or in a sentence, and still no second number.
            "goal": f"What is the main phone number of the account {a['name']}? Answer with the number.",
            "start_path": "/lightning/page/home",
            "verify": {"checks": [{"answer": phone_answer(a["phone"])}], "unchanged_except": []},
            "solution": open_record(a["name"]) + [done(a["phone"])],
            "harmless": [harmless("phrasing", open_record(a["name"]) + [done(f"The main phone number is {a['phone']}.")],
                                  "the number in a sentence",
                                  [find("Account", a["name"]), call("get_record", object="Account", record_id=a["id"]),
                                   finish(f"The main phone number is {a['phone']}.")])],
            "near_misses": [open_record(a["name"]) + [done(other["phone"])]],
            "tools": tools(*[[find("Account", a["name"]), call("get_record", object="Account", record_id=a["id"]), finish(ans)]
                             for ans in (a["phone"], other["phone"])]),
            # The numbers on the account's page: its contacts' phones and mobiles, then other accounts' phones.
            "distractors": _phones_near(crm, a),
            "adversarial": [_collateral(crm, open_record(a["name"]) + [done(a["phone"])], a["id"])],
        }


@template("crm", "ret-account-open-pipeline", difficulty="medium", max_steps=15)
def ret_account_open_pipeline(w: World, rng: random.Random):
    """Total amount of an account's open opportunities (closed ones excluded)."""
    crm = Crm(w)
    cands = []
    for a in crm.accounts:
        opps = crm.opps_by_acc.get(a["id"], [])
        open_ = [o for o in opps if o["stage"] in OPEN_STAGES]
        closed = [o for o in opps if o["stage"] not in OPEN_STAGES and o["amount"]]
        if len(open_) >= 2 and closed and crm.unique(a["name"]) and all(o["amount"] for o in open_):
            cands.append((a, open_, closed))
    for a, open_, closed in rng.sample(cands, len(cands)):
        total = sum(o["amount"] for o in open_)
        everything = total + sum(o["amount"] for o in closed)
        yield {
            "goal": f"What is the total amount of all open opportunities (not Closed Won or Closed Lost) for {a['name']}? "
                    f"Answer with the dollar amount.",
            "start_path": "/lightning/page/home",
            "verify": {"checks": [{"answer": num_answer(total)}], "unchanged_except": []},
            "solution": open_record(a["name"]) + [done(f"${total:,}")],
            "harmless": [harmless("phrasing", open_record(a["name"]) + [done(f"The open opportunities add up to ${total:,}.")],
                                  "the amount in a sentence",
                                  [find("Account", a["name"]), call("get_record", object="Account", record_id=a["id"]),
                                   finish(f"The open opportunities add up to ${total:,}.")])],
            "near_misses": [open_record(a["name"]) + [done(f"${everything:,}")]],
            "tools": tools(*[[find("Account", a["name"]), call("get_record", object="Account", record_id=a["id"]), finish(f"${v:,}")]
                             for v in (total, everything)]),
            # Every amount on the account's page and the sums an agent could mistake for the answer.
            "distractors": [f"${v:,}" for v in dict.fromkeys([everything, total - open_[0]["amount"], sum(o["amount"] for o in closed)]
                                                            + [o["amount"] for o in open_ + closed]) if v != total],
            "adversarial": [_collateral(crm, open_record(a["name"]) + [done(f"${total:,}")], a["id"])],
        }


@template("crm", "ret-open-cases-count", difficulty="medium", max_steps=15)
def ret_open_cases_count(w: World, rng: random.Random):
    """How many of an account's cases are still open."""
    crm = Crm(w)
    cands = []
    for a in crm.accounts:
        cs = crm.cases_by_acc.get(a["id"], [])
        n_open = sum(1 for c in cs if c["status"] != "Closed")
        if n_open >= 1 and len(cs) > n_open and crm.unique(a["name"]):
            cands.append((a, n_open, len(cs)))
    for a, n_open, n_all in rng.sample(cands, len(cands)):
        yield {
            "goal": f"How many open (not closed) cases does {a['name']} have? Answer with a number.",
            "start_path": "/lightning/page/home",
            "verify": {"checks": [{"answer": num_answer(n_open, 0.01)}], "unchanged_except": []},
            "solution": open_record(a["name"]) + [done(str(n_open))],
            "harmless": [harmless("phrasing", open_record(a["name"]) + [done(f"It has {n_open} open cases.")],
                                  "the count in a sentence",
                                  [find("Account", a["name"]), call("get_record", object="Account", record_id=a["id"]),
                                   finish(f"It has {n_open} open cases.")])],
            "near_misses": [open_record(a["name"]) + [done(str(n_all))]],
            "tools": tools(*[[find("Account", a["name"]), call("get_record", object="Account", record_id=a["id"]), finish(str(n))]
                             for n in (n_open, n_all)]),
            "distractors": [str(n) for n in dict.fromkeys([n_all, n_all - n_open]) if n != n_open],
            "adversarial": [_collateral(crm, open_record(a["name"]) + [done(str(n_open))], a["id"])],
        }


@template("crm", "ret-top-owner-by-stage", difficulty="hard", max_steps=25)
def ret_top_owner_by_stage(w: World, rng: random.Random):
    """Which rep holds the most open pipeline in a given stage (a report grouped by owner answers it)."""
    crm = Crm(w)
    report = next(r for r in w.table("reports") if r["name"] == "Pipeline by Owner")
    stages = list(OPEN_STAGES)
    rng.shuffle(stages)
    for st in stages:
        tot: dict[int, int] = defaultdict(int)
        for o in crm.opps:
            if o["stage"] == st:
                tot[o["owner_id"]] += o["amount"] or 0
        ranked = sorted(tot.items(), key=lambda kv: (-kv[1], kv[0]))
        if len(ranked) < 2 or ranked[0][1] == ranked[1][1]:
            continue
        best, second = crm.uname(ranked[0][0]), crm.uname(ranked[1][0])
        sentence = f"{best} owns the largest total in {st}."
        run = [call("list_reports", search="Pipeline by Owner"),
               call("run_report", report_id=report["id"], filters=[{"field": "stage", "op": "equals", "value": st}], limit=0)]
        yield {
            "goal": f"Which sales rep owns the largest total amount of opportunities currently in the {st} stage? "
                    f"Answer with the person's full name.",
            "start_path": "/lightning/page/home",
            # Audit (#48): $ieq refused "Daniel Kim owns the largest total."; name_answer takes the name alone or in a
            # sentence, and no other user's name (a hedge) beside it.
            "verify": {"checks": [{"answer": name_answer(best, [crm.uname(u) for u in sorted(crm.users) if crm.uname(u) != best])}],
                       "unchanged_except": []},
            "solution": [link("Reports"), link("Pipeline by Owner"), done(best)],
            "harmless": [harmless("phrasing", [link("Reports"), link("Pipeline by Owner"), done(sentence)], "the name in a sentence",
                                  run + [finish(sentence)])],
            "near_misses": [[link("Reports"), link("Pipeline by Owner"), done(second)]],
            # The report groups open pipeline by owner; filtered to the stage, the owner with the largest group total answers.
            "tools": tools(*[run + [finish(who)] for who in (best, second)]),
            "distractors": [crm.uname(uid) for uid, _ in ranked[1:]],
            "adversarial": [_collateral(crm, [link("Reports"), link("Pipeline by Owner"), done(best)])],
        }
