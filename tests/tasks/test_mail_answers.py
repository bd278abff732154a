"""The mail answer checks that take a plain sentence (tasks/templates/mail/_answers.py), over their input
space: the value alone and in a sentence passes; beside a second candidate of its kind, in any order, fails;
and each is a closed answer matcher for grading/lint.py."""

from __future__ import annotations

import re
import string

from hypothesis import assume, given, settings, strategies as st

from grading.lint import _open_answer
from grading.matchers import match
from tasks.templates.mail._answers import HEDGES, code_answer, file_answer, name_answer, phone_answer

word = st.text(string.ascii_lowercase, min_size=1, max_size=8)
cap = st.builds(lambda a, b: a + b, st.sampled_from(string.ascii_uppercase), word)
names = st.builds(lambda a, b: f"{a} {b}", cap, cap)
phones = st.builds(lambda d: f"({d[:3]}) {d[3:6]}-{d[6:]}", st.text("0123456789", min_size=10, max_size=10))
seats = st.builds(lambda n, c: f"{n}{c}", st.integers(1, 60), st.sampled_from("ABCDEF"))
files = st.builds(lambda stem, ext: f"{stem}.{ext}", st.text(string.ascii_letters + string.digits + "_-", min_size=1, max_size=12),
                  st.sampled_from(["pdf", "docx", "xlsx", "png", "csv"]))
# Sentence words around the value: no digits, no dots, lowercase (what each matcher lets through).
filler = st.lists(word, max_size=5).map(" ".join)


def _hedges(gold: str, other: str) -> list[str]:
    return [f"{gold} or {other}", f"{other} or {gold}", f"Either {other} or {gold}", f"{other}, {gold}",
            f"{gold}, {other}", f"{other}\n{gold}", f"{gold}\n{other}"]


def _check(m: dict, gold: str, sentences: list[str], other: str) -> None:
    assert _open_answer(m) is None, "a closed answer matcher"
    assert match(gold, m)
    for s in sentences:
        assert match(s, m), s
    for h in _hedges(gold, other):
        assert not match(h, m), h


@settings(max_examples=150, deadline=None)
@given(phones, phones, filler)
def test_phone_answer(gold, other, words):
    d = lambda p: "".join(c for c in p if c.isdigit())  # noqa: E731
    assume(d(gold) != d(other))
    _check(phone_answer(gold), gold, [f"The number is {gold}.", f"{words} {gold} {words}".strip(),
                                      f"+1 {d(gold)[:3]}-{d(gold)[3:6]}-{d(gold)[6:]}", d(gold)], other)
    assert not match(gold[:-1], phone_answer(gold))


@settings(max_examples=150, deadline=None)
@given(seats, seats, filler)
def test_code_answer(gold, other, words):
    assume(gold != other)
    _check(code_answer(gold), gold, [f"Your seat is {gold}.", f"Seat {gold.lower()}", f"{words} {gold}".strip()], other)
    assert not match(f"1{gold}", code_answer(gold))


@settings(max_examples=150, deadline=None)
@given(files, files, filler)
def test_file_answer(gold, other, words):
    assume(gold.casefold() != other.casefold())
    _check(file_answer(gold), gold, [f"The file name is {gold}.", f"It's \u201c{gold}\u201d.", f"{words} {gold}".strip()],
           other)


@settings(max_examples=150, deadline=None)
@given(names, names, filler)
def test_name_answer(gold, other, words):
    assume(gold.casefold() != other.casefold() and gold.casefold() not in other.casefold())
    assume(not re.search(HEDGES, words))
    honest = [f"It was sent by {gold}.", f"{gold} sent it.", gold.lower(), f"The sender is {gold}",
              f"{words} {gold} {words}".strip()]
    assume(not any(other.casefold() in h.casefold() for h in honest))  # "By Ay" is in "sent by Ay Aa"
    m = name_answer(gold, [other])
    _check(m, gold, honest, other)
    assert not match(gold + "son", m)
    # Hedges written in lowercase: the joining word, or the rival's name, gives them away.
    for h in (f"{gold} or {other.lower()}", f"{gold.lower()}, {other.lower()}", f"{other.lower()} {gold}",
              f"{gold} / {words}", f"{gold} and {words}", f"maybe {gold}"):
        assert not match(h, m), h
    assert not match(f"{gold} or {words}", name_answer(gold)), "a hedge word fails even with no rivals given"
