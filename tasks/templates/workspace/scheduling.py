"""Cross-app templates over when things happen: a coworker asked by mail what time suits them (a correspondent
answers, domain/correspondence.py), and the Forkful order scheduled for that time."""

from __future__ import annotations

import datetime as dt
import random

from domain import food as logic
from domain.correspondence import asked
from tasks.templates import World, template
from tasks.templates.food.orders import open_stores, order_expect, pick_line
from tasks.templates.food.parts import (
    add_line, call as food_call, checkout_address, click as food_click, created_order, fw, goto_store, order_allow,
    order_line, place, t_add, t_checkout_address, to_checkout, toggle_notification, user_update,
)
from tasks.templates.harmless import harmless
from tasks.templates.mail.parts import Mailbox
from tasks.templates.workspace.asking import ask, t_ask
from tasks.templates.workspace.common import asked_and_answered, calls, done, in_tab, plan, scoped, spec
from tasks.templates.workspace.orders import line_text


def at(day: dt.date, clock: str) -> dt.datetime:
    """'12:30 PM' on `day`."""
    return dt.datetime.combine(day, dt.datetime.strptime(clock, "%I:%M %p").time())


@template("workspace", "ask-time-schedule-lunch", difficulty="long", max_steps=60, count=5, test_every=5)
def ask_time_schedule_lunch(w: World, rng: random.Random):
    """Ask a coworker by mail what time suits tomorrow's team lunch, wait for the answer, then schedule the Forkful
    order for delivery to the office in the window that starts then."""
    f, mb = fw(w.of("food")), Mailbox(w.of("mail"))
    work = next(a for a in f.addr.values() if a["label"] == "Work")
    tomorrow = f.now.date() + dt.timedelta(days=1)
    coworkers = {c["email"] for c in mb.contacts if c["relation"] == "coworker"}
    mates = [p for p in w.table("mail.correspondents") if p["email"] in coworkers]
    people = rng.sample(mates, len(mates))
    times = sorted({p["facts"]["lunch_time"] for p in mates})
    # open tomorrow at every time a coworker may answer, and half an hour later (the near-miss's window)
    stores = [s for s in open_stores(f) if all(
        at(tomorrow, t) + dt.timedelta(minutes=m) in logic.schedule_slots(s, f.now, tomorrow) for t in times for m in (0, 30))]
    for k, s in enumerate(rng.sample(stores, 5)):
        person = people[k]
        other = next(p for p in people if p["facts"]["lunch_time"] != person["facts"]["lunch_time"])
        slot, wrong_slot = at(tomorrow, person["facts"]["lunch_time"]), at(tomorrow, other["facts"]["lunch_time"])
        it, opts, rows = pick_line(f, s, rng)
        q = rng.choice([3, 4, 5])
        first = person["name"].split()[0]
        subject = "Team lunch tomorrow"
        text = f"Hi {first}, I'm setting up tomorrow's team lunch. What time works best for you?"
        assert asked(subject + "\n" + text) == ["lunch_time"], "the question asks for the time and nothing else"

        def order(when: dt.datetime | None) -> list[dict]:
            out = goto_store(s) + add_line(f, it, opts, q) + to_checkout() + checkout_address("Work")
            if when is not None:
                out += [food_click("radio", "Schedule", exact=True), food_click("tab", "Tomorrow", exact=True),
                        food_click("radio", logic.slot_label(when), exact=True),
                        food_click("button", "Set delivery time", exact=True)]
            return out + place()

        def steps(when: dt.datetime | None = slot, said: str = text, ordered: bool = True) -> list[dict]:
            return ask(person["email"], subject, said) + (in_tab("food", order(when)) if ordered else []) + [done()]

        def tcalls(when: dt.datetime | None = slot, said: str = text, ordered: bool = True) -> list[dict]:
            out = t_ask(person["email"], subject, said)
            if ordered:
                out += calls("food", [food_call("get_store", store_id=s["id"]), *t_add(it, [r["id"] for r in rows], q),
                                      *t_checkout_address(work["id"])]
                             + ([food_call("list_delivery_times"),
                                 food_call("set_checkout_options", delivery_option="scheduled",
                                           scheduled_for=when.isoformat(timespec="minutes"))] if when else [])
                             + [food_call("get_checkout"), food_call("place_order")])
            return out

        mail_part = asked_and_answered(person["email"])
        food_checks = created_order(order_expect(f, s, f.unit(it, rows) * q, option="scheduled", scheduled=slot,
                                                 addr=work), 1) + [order_line(it["id"], [r["id"] for r in rows], q)]
        gold = steps()
        letter = (f"Hi {first},\n\nI'm setting up tomorrow's team lunch. What time works best for you?\n\n"
                  f"Thanks,\n{mb.me['name']}")
        yield {
            "goal": f"Ask {person['name']} ({person['email']}) by email what time works best for tomorrow's team lunch, "
                    f"wait for the answer, then schedule a Forkful order of {q} \u00d7 {line_text(it, opts)} from "
                    f"{s['name']} for delivery to the office (your Work address) tomorrow, in the 30-minute window "
                    f"that starts at that time.",
            "start_path": "/inbox",
            "verify": spec(scoped("mail", mail_part["checks"]) + scoped("food", food_checks),
                           scoped("mail", mail_part["unchanged_except"])
                           + scoped("food", order_allow(s["id"], [it["id"]], 1, user_update("current_address_id"))),
                           {"the time asked for and come": scoped("mail", mail_part["checks"][:1]),
                            "the lunch scheduled for then": scoped("food", food_checks)}),
            "solution": gold,
            "near_misses": [steps(when=slot + dt.timedelta(minutes=30)), steps(when=None), steps(ordered=False)],
            "adversarial": [
                {"kind": "wrong_record", "steps": steps(when=wrong_slot),
                 "why": f"scheduled for {other['facts']['lunch_time']}, another coworker's time, not the answer"},
                {"kind": "extra", "steps": gold[:-1] + toggle_notification() + [done()],
                 "why": "the gold, then an unasked-for Forkful notification switch flipped"},
                {"kind": "extra", "steps": gold[:-1] + order(wrong_slot) + [done()],
                 "why": f"hedging the time: a second order scheduled for {other['facts']['lunch_time']} too"},
            ],
            "harmless": [harmless("courtesy", steps(said=letter), "the question as a letter: a greeting and a sign-off",
                                  tcalls(said=letter))],
            "tools": plan(tcalls(), tcalls(when=slot + dt.timedelta(minutes=30)), tcalls(when=None),
                          tcalls(ordered=False)),
        }
