"""#48: the CRM's sentence-tolerant answer matchers (tasks/templates/crm/_common.py phone_answer, name_answer).

A careful person answers "The main phone number is (509) 555-8054." or "Daniel Kim owns the most."; both must
grade 1, while a hedge (a second number, a second person) must still grade 0. Property-tested over phone
numbers, their usual spellings, the sentences around them and the seeded users' names.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from grading.lint import spec_holes
from grading.matchers import match, phone_digits, validate_matcher
from seed_data.crm import USERS
from tasks.templates.crm._common import name_answer, phone_answer

NAMES = [f"{first} {last}" for _, first, last, *_ in USERS]

digits10 = st.text(alphabet="0123456789", min_size=10, max_size=10)
# Sentence text around an answer: letters, spaces and punctuation, never a digit.
words = st.text(alphabet=st.sampled_from("abcdefghij XYZ,.:;!?'\"-()"), max_size=30)


def us_spellings(d: str) -> list[str]:
    a, b, c = d[:3], d[3:6], d[6:]
    return [f"({a}) {b}-{c}", f"{a}-{b}-{c}", f"{a}.{b}.{c}", f"{a} {b} {c}", d, f"+1 {a} {b} {c}", f"1-{a}-{b}-{c}",
            f"+1 ({a}) {b}\u2011{c}".replace("\u2011", "-")]


def closed(m: dict) -> bool:
    return spec_holes({"checks": [{"answer": m}], "unchanged_except": []}) == []


@settings(max_examples=200, deadline=None)
@given(digits10, st.integers(0, 7), words, words)
def test_phone_answer_takes_the_number_alone_or_in_a_sentence(d, k, before, after):
    stored = f"({d[:3]}) {d[3:6]}-{d[6:]}"
    m = phone_answer(stored)
    validate_matcher(m, "answer")
    assert closed(m)
    spelled = us_spellings(d)[k]
    assert match(spelled, m)
    # Where $phone (the bare-number rule) takes an answer, phone_answer does too.
    assert match(spelled, {"$phone": stored}) == (phone_digits(spelled) is not None)
    assert match(f"{before} {spelled}{after}", m)


@settings(max_examples=200, deadline=None)
@given(digits10, digits10, words)
def test_phone_answer_refuses_a_second_or_wrong_number(d, other, text):
    m = phone_answer(f"({d[:3]}) {d[3:6]}-{d[6:]}")
    a = f"({d[:3]}) {d[3:6]}-{d[6:]}"
    b = f"({other[:3]}) {other[3:6]}-{other[6:]}"
    assert not match(f"{a} or {b}", m)
    assert not match(f"{b}{text}{a}", m)
    assert not match(f"{a}, ext 2", m)
    if other != d and not (other.startswith("1") and other[1:] == d[:9]):
        assert not match(f"{text}{b}", m)


@given(st.text(alphabet="0123456789", min_size=6, max_size=12), words)
def test_phone_answer_keeps_an_international_number(d, text):
    stored = f"+{d[:2]} {d[2:6]} {d[6:]}"
    m = phone_answer(stored)
    assert match(stored, m) and match(f"It is {stored}.{text}", m)
    assert not match(f"{stored} or +{d[:2]} 0000", m)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(NAMES), words, words, st.sampled_from([str.lower, str.upper, str.title, lambda s: s]))
def test_name_answer_takes_the_name_alone_or_in_a_sentence(name, before, after, case):
    m = name_answer(name, [n for n in NAMES if n != name])
    validate_matcher(m, "answer")
    assert closed(m)
    assert match(case(name), m)
    assert match(f"{before} {name.replace(' ', '  ')} {after}", m)
    assert match(f"The top rep is {name}.", m)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(NAMES), st.sampled_from(NAMES), st.integers(0, 2), words)
def test_name_answer_refuses_a_second_person(name, other, part, text):
    m = name_answer(name, [n for n in NAMES if n != name])
    if other != name:
        hedge = [other, other.split()[0], other.split()[-1]][part]
        if hedge.casefold() not in {t.casefold() for t in name.split()}:
            assert not match(f"{name} or {hedge}", m)
            assert not match(f"{hedge}, {text} {name}", m)
    first, last = name.split()[0], name.split()[-1]
    assert not match(first, m) and not match(last, m)
    assert not match(f"{name}x", m) and not match(f"x{name}", m)


def test_bundled_crm_answers_use_them():
    """The bundled CRM tasks that ask for a phone or a rep's name grade with these matchers (and their
    harmless full-sentence variants exist)."""
    from tasks.loader import select_tasks

    for tid, pattern in (("crm/ret-account-phone-*", r"^\^\\D\*"), ("crm/ret-top-owner-by-stage-*", r"^\^\(\?!")):
        ts = select_tasks(tid)
        assert ts
        for t in ts:
            answer = t.verify["checks"][0]["answer"] if isinstance(t.verify, dict) else t.verify.checks[0].answer
            assert re.match(pattern, answer["$regex"])
            assert any(h.kind == "phrasing" for h in t.harmless)
