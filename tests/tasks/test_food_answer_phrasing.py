"""Forkful's name and time answers take the value alone or in a sentence, and refuse a second candidate
(#48: `$ieq` and `^time$` refused "The highest-rated one is X." and "It closes at 9:00 PM today.")."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given, settings, strategies as st

from grading.lint import spec_holes
from grading.matchers import match
from tasks.loader import load_file
from tasks.templates.answer_text import HEDGES
from tasks.templates.base import World
from tasks.templates.food.retrieval import name_answer

NAMES = sorted({s["name"] for s in World.build("food", 0).table("stores")})
PROSE = st.sampled_from(["", "The answer is ", "I checked: ", "It's ", "The highest-rated one is ",
                         "Cheapest nearby:\n"])
TAIL = st.sampled_from(["", ".", "!", " (4.8 stars).", " - it has the best rating.", "\nThanks"])


def _spaced(name: str, data) -> str:
    """The name as a person might type it: any case, runs of spaces, a curly apostrophe."""
    name = name.replace("'", data.draw(st.sampled_from(["'", "’"])))
    words = name.split()
    out = words[0]
    for w in words[1:]:
        out += data.draw(st.sampled_from([" ", "  "])) + w
    return data.draw(st.sampled_from([str, str.lower, str.upper]))(out)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_name_alone_or_in_a_sentence_passes_and_a_rival_fails(data):
    gold = data.draw(st.sampled_from(NAMES))
    rivals = data.draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=6))
    m = name_answer(gold, rivals)
    assert not spec_holes({"checks": [{"answer": m}]})
    said = data.draw(PROSE) + _spaced(gold, data) + data.draw(TAIL)
    assert match(said, m), (said, m)
    # a rival named beside the gold (a hedge, a list) fails, unless the gold name itself contains it
    rival = data.draw(st.sampled_from(rivals))
    contained = " ".join(rival.split()).casefold() in " ".join(gold.split()).casefold()
    assert match(f"{rival}, {gold}", m) is contained
    own_hedge = bool(re.search(HEDGES, gold, re.IGNORECASE))  # "Salt & Pepper": its name may not refuse it
    for hedge in (f"{said} or {rival}", f"Either {rival} or {gold}"):
        assert match(hedge, m) is (contained and own_hedge), (hedge, m)
    # a hedge needs no rival: a joining or weighing word gives it away, whatever its case
    for hedge in (f"{said} or some other place", f"Maybe {gold}", f"{gold} / {gold.lower()} place"):
        assert match(hedge, m) is own_hedge, (hedge, m)


def test_a_longer_store_name_that_contains_the_gold_is_not_the_gold():
    m = name_answer("Sushi House", ["Ocean Sushi House"])
    assert match("Sushi House", m) and match("It's Sushi House.", m)
    assert not match("Ocean Sushi House", m)
    assert not match("Sushi Houses", m)


def test_closing_time_answer_takes_a_sentence_and_refuses_a_second_time():
    tasks = load_file(Path(__file__).resolve().parents[2] / "tasks" / "food" / "lookup-closing-time.json")
    assert tasks
    for t in tasks:
        pat = t.verify.checks[0].answer
        gold = t.solution[-1].answer
        assert match(gold, pat) and match(f"It closes at {gold} today.", pat), (t.id, pat)
        assert match(gold.lower(), pat)
        other = re.sub(r"^\d+", lambda x: str(int(x.group()) % 12 + 1), gold)
        assert not match(f"{gold} or {other}", pat) and not match(f"It closes at {other}.", pat), (t.id, other)
