"""grading.numbers: an answer's numbers are every value it states, in any form people write.

The forms are produced here by writers independent of the reader: num2words for English words and
ordinals, a greedy int -> Roman writer, and the Unicode digit tables; the reader must give back n.
"""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import assume, example, given, settings, strategies as st
from num2words import num2words

from grading import verify
from grading.numbers import read_numbers
from grading.values import distinct_numbers, extract_number, extract_numbers

SUPERSCRIPTS = "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079"
SUBSCRIPTS = "\u2080\u2081\u2082\u2083\u2084\u2085\u2086\u2087\u2088\u2089"
SCRIPT_ZEROS = {"arabic-indic": 0x0660, "devanagari": 0x0966, "bengali": 0x09E6, "fullwidth": 0xFF10,
                "thai": 0x0E50}
# Canonical numerals the reader leaves alone because they are usually abbreviations (grading/README.md).
ABBREVIATIONS = {"CC", "CD", "CI", "CL", "CLI", "CM", "CV", "DC", "DI", "DIV", "DL", "DV", "DX", "LI", "LV", "MC",
                 "MD", "MI", "MIX", "ML", "MM", "MV", "MX", "XL"}


def values(text: str) -> list:
    return [r.value for r in read_numbers(text)]


def to_roman(n: int) -> str:
    out = ""
    for v, s in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"),
                 (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while n >= v:
            out, n = out + s, n - v
    return out


def in_script(n: int, zero: int) -> str:
    return "".join(chr(zero + int(d)) for d in str(n))


def romanable(n: int) -> bool:
    return 2 <= n <= 3999 and len(to_roman(n)) >= 2 and to_roman(n) not in ABBREVIATIONS


def forms(n: int) -> dict[str, str]:
    """n written every way the reader promises to read it."""
    out = {
        "digits": str(n),
        "thousands": f"{n:,}",
        "words": num2words(n),
        "words-title": num2words(n).title(),
        "words-upper": num2words(n).upper(),
        "words-no-and-no-comma": num2words(n).replace(" and ", " ").replace(",", ""),
        "words-spaced-hyphen": num2words(n).replace("-", " "),
        "superscript": "".join(SUPERSCRIPTS[int(d)] for d in str(n)),
        "subscript": "".join(SUBSCRIPTS[int(d)] for d in str(n)),
        **{name: in_script(n, zero) for name, zero in SCRIPT_ZEROS.items()},
    }
    if n >= 1:
        out["ordinal-words"] = num2words(n, to="ordinal")
        out["ordinal-digits"] = num2words(n, to="ordinal_num")
    if romanable(n):
        out["roman"] = to_roman(n)
    return out


numbers = st.one_of(st.integers(0, 120), st.integers(0, 10**7))


@settings(deadline=None)
@given(numbers)
@example(0)
@example(1)
@example(24)
@example(105)
@example(2026)
@example(1_234_567)
def test_every_form_of_n_reads_as_exactly_n(n):
    for name, text in forms(n).items():
        assert values(text) == [n], (name, text)


@settings(deadline=None)
@given(st.integers(1, 3999))
def test_roman_numerals_read_unless_single_letter_or_abbreviation(n):
    r = to_roman(n)
    assert values(r) == ([n] if romanable(n) else [])
    assert values(r.lower()) == []  # only uppercase tokens
    assert values(f"{r}x") == [] and values(f"x{r}") == []  # never inside a longer word


CONNECTORS = [" or ", " (or maybe ", ", or possibly ", "; ", " - no, ", " or perhaps ", "? Maybe "]


def form_names(n: int) -> list[str]:
    return sorted(forms(n))


@st.composite
def hedges(draw):
    a = draw(numbers)
    b = draw(numbers.filter(lambda b: b != a))
    fa = draw(st.sampled_from(form_names(a)))
    fb = draw(st.sampled_from(form_names(b)))
    return a, b, forms(a)[fa] + draw(st.sampled_from(CONNECTORS)) + forms(b)[fb]


def number_spec(value) -> dict:
    return {"checks": [{"answer": {"$number": {"$approx": value, "$tol": 0.01}}}], "unchanged_except": []}


@settings(deadline=None)
@given(hedges())
@example((2, 3, "2 (or maybe three"))
@example((2, 24, "2 or XXIV"))
@example((2, 3, "2 or \u00b3"))
@example((2, 3, "2 or 3"))
def test_two_values_in_any_two_forms_are_two_numbers_and_a_hedge_scores_0(case):
    a, b, text = case
    assert sorted(distinct_numbers(text)) == sorted([a, b]), text
    for gold in (a, b):
        assert verify(number_spec(gold), {}, {}, text).score == 0, (gold, text)


@settings(deadline=None)
@given(numbers, st.data())
def test_one_value_in_two_forms_is_one_value_and_scores_1(n, data):
    fa, fb = data.draw(st.sampled_from(form_names(n))), data.draw(st.sampled_from(form_names(n)))
    text = f"{forms(n)[fa]} ({forms(n)[fb]})"
    assert distinct_numbers(text) == [n], text
    assert verify(number_spec(n), {}, {}, text).score == 1


# Words that state no number, the pronoun "I" and words holding number words inside them among them.
HARMLESS = ("open cases there are in total the account I counted today someone often tone anyone "
            "several couple few none Plan size Malcolm as of checked tab list it is think so").split()
SEPARATORS = [". ", " (", ", ", "! ", "\n", ": "]


@settings(deadline=None)
@given(numbers, st.data(), st.lists(st.sampled_from(HARMLESS), min_size=1, max_size=8),
       st.sampled_from(SEPARATORS), st.booleans())
def test_a_harmless_phrase_never_changes_the_reading(n, data, words, sep, before):
    text = forms(n)[data.draw(st.sampled_from(form_names(n)))]
    phrase = " ".join(words)
    combined = f"{phrase}{sep}{text}" if before else f"{text}{sep}{phrase}"
    assert values(combined) == values(text) == [n], combined


HONEST = ["There are {} open cases.", "{}.", "The answer is {}.", "I count {} open cases on the account.",
          "{} (I checked the Cases tab).", "Answer: {}", "It is {}, as of today."]


@settings(deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(HONEST), st.sampled_from(["digits", "words", "words-title"]))
@example(2, "There are {} open cases.", "words")
def test_honest_sentences_read_exactly_the_value(n, template, form):
    text = template.format(forms(n)[form])
    if form == "words-title" or template.startswith("{}"):
        text = text[0].upper() + text[1:]
    assert values(text) == [n], text


@settings(deadline=None)
@given(st.integers(-10**6, 10**6), st.integers(0, 99), st.sampled_from(["$", "\u20ac", "\u00a3", ""]))
def test_money_keeps_its_reading(whole, cents, symbol):
    sign = "-" if whole < 0 else ""
    text = f"{sign}{symbol}{abs(whole):,}.{cents:02d}"
    assert extract_numbers(text) == [pytest.approx(whole + (cents / 100 if whole >= 0 else -cents / 100))]
    assert extract_numbers(f"The total is {text}.") == extract_numbers(text)


@settings(deadline=None)
@given(st.integers(1, 999), st.integers(1, 999))
def test_slash_fractions_are_one_value_unless_a_chain(p, q):
    assert extract_numbers(f"{p}/{q}") == [pytest.approx(p / q)]
    assert extract_numbers(f"{p}/{q}/2026") == [p, q, 2026]  # a date is not a fraction


@settings(deadline=None)
@given(st.characters(categories=["No", "Nl"]))
def test_every_unicode_number_character_reads_as_its_value(c):
    assume(unicodedata.numeric(c, None) is not None)
    v = values(f"x {c} y")
    assert len(v) == 1 and v[0] == pytest.approx(unicodedata.numeric(c)), (c, unicodedata.name(c, "?"), v)


@pytest.mark.parametrize("text,expected", [
    # digits, as always
    ("$1,234.50", [1234.5]), ("-3", [-3]), ("12.5%", [12.5]), ("item-3", [3]), ("-$5.00", [-5.0]), ("$-5", [-5]),
    ("\u22127", [-7]), ("1,2", [1, 2]), (".5", [0.5]), ("2nd", [2]),
    # words
    ("two", [2]), ("There are two open cases.", [2]), ("one hundred and five", [105]), ("twenty-four", [24]),
    ("twenty four", [24]), ("twelve hundred", [1200]), ("two thousand and twenty-six", [2026]),
    ("a hundred", [100]), ("a dozen", [12]), ("two dozen", [24]), ("half a dozen", [6]),
    ("second", [2]), ("twenty-first", [21]), ("three point five", [3.5]), ("minus five", [-5]),
    ("one and a half", [1.5]), ("2 and a half", [2.5]), ("two thirds", [pytest.approx(2 / 3)]), ("a half", [0.5]),
    ("1.5 million", [1500000]), ("$2 thousand", [2000]),
    # symbols and fractions
    ("\u00b3", [3]), ("H\u2082O", [2]), ("\u00bd", [0.5]), ("1\u00bd", [1.5]), ("1 1/2", [1.5]), ("-1/2", [-0.5]),
    ("\u2460", [1]), ("\u216b", [12]), ("\u0663", [3]),
    # Roman
    ("XXIV", [24]), ("Henry VIII", [8]), ("MMXXVI", [2026]), ("IIII", []), ("VX", []),
    # not numbers
    ("I", []), ("I think so", []), ("someone", []), ("often", []), ("tone", []), ("anyone", []),
    ("Plan C", []), ("size M", []), ("Malcolm X", []), ("MD", []), ("a couple", []), ("a few", []), ("none", []),
    ("dozens", []), ("hundreds of cases", []), ("thousands", []), ("no one", []), ("this one", []),
    ("each one", []), ("the first one", [1]), ("one another", []), ("xxiv", []),
    # "one" elsewhere is 1, also where a reader may mean a pronoun (documented)
    ("one", [1]), ("One.", [1]), ("just the one", [1]), ("the older one", [1]), ("one of them", [1]),
])
def test_examples(text, expected):
    assert values(text) == expected


def test_a_repeated_value_is_one_value_and_two_values_are_a_hedge():
    assert distinct_numbers("2 (two)") == [2]
    assert distinct_numbers("$5 (five dollars)") == [5]
    assert distinct_numbers("2 (or maybe three)") == [2, 3]
    assert extract_number("two") == 2 and extract_number("two or 3") == 2


@settings(deadline=None, max_examples=300)
@given(st.text(max_size=60))
def test_total_on_any_text(text):
    for r in read_numbers(text):
        assert isinstance(r.value, (int, float)) and not isinstance(r.value, bool)
        assert 0 <= r.start < r.end <= len(text)
