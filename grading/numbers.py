"""Reading the numbers an answer states, in every form people write them.

One reader for every grader that takes numbers out of text (`$number`, `$numbers`, `extract_number`):
an answer's numbers are all the values it states, whatever the form, because an answer that names two
values is a hedge however the second one is spelled ("2 (or maybe three)", "2 or XXIV", "2 or ³").

Forms read (grading/README.md, "How numbers are read", is the reference):

- digits, as before: signs, currency symbols, thousands separators, decimals, percentages
  ("-$1,234.50", "12.5%"); any script's decimal digits ("٣", "३"); "2nd" is 2;
- fractions: "1/2", "1 1/2", "½", "1½" (a slash chain such as a date "3/14/2026" stays separate numbers);
- superscript and subscript digit runs ("³", "₁₂") and the other Unicode number characters
  (categories No and Nl: "①", "Ⅻ"), each read by `unicodedata`;
- English number words: cardinals, compounds and ordinals ("twenty-four", "one hundred and five",
  "two thousand and twenty-six", "second", "twenty-first"), "a hundred", "a dozen", "three point five",
  fractions in words ("two thirds", "one and a half"), "minus five"; a digit number with a scale word
  ("1.5 million", "2 thousand");
- Roman numerals: whole uppercase tokens of two letters or more in canonical form ("XXIV", not "IIII"),
  except common abbreviations that happen to be canonical ("MD", "CD", "CV", "DC", ...).

Not read: the pronoun "I" and other single letters; lowercase Roman numerals; number words inside other
words ("someone", "often", "tone"); vague quantities ("a couple", "a few", "several", "dozens",
"hundreds", "none"), which state no value and so can never be graded as one; "one" right after a word
that makes it a pronoun ("no one", "this one", "each one", "the first one", "one another").

Why not a library: text2num (3.1) rewrites text rather than reporting values, reads "hundreds" as 100
and "2 thousand" as two numbers and "no one" as a number; word2number reads one whole string only.
The grammar here is small and its property tests check it against num2words, an independent writer.
"""

from __future__ import annotations

import math
import re
import unicodedata
from typing import NamedTuple

__all__ = ["Reading", "read_numbers"]


class Reading(NamedTuple):
    """One number stated in a text: its value and the span of text that states it."""

    value: int | float
    start: int
    end: int
    form: str  # "digits", "words", "roman" or "symbol"


# ----------------------------------------------------------------------------- tables

_UNITS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen".split())}
_TENS = {w: 10 * i for i, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), 2)}
_ORD_UNITS = {w: i for i, w in enumerate(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth "
    "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth".split(), 1)}
_ORD_TENS = {w: 10 * i for i, w in enumerate(
    "twentieth thirtieth fortieth fiftieth sixtieth seventieth eightieth ninetieth".split(), 2)}
_SCALES = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12}
_ORD_SCALES = {"thousandth": 10**3, "millionth": 10**6, "billionth": 10**9, "trillionth": 10**12}
# Fraction words after a numerator: "one half", "a quarter", "two thirds", "3 quarters".
_DENOMINATORS = {"half": 2, "third": 3, "quarter": 4, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
                 "eighth": 8, "ninth": 9, "tenth": 10}
_DENOMINATORS_PLURAL = {"halves": 2, **{w + "s": d for w, d in _DENOMINATORS.items() if w != "half"}}
_ARTICLE = ("a", "an")
_NEGATORS = ("minus", "negative")
# "one" right after these is a pronoun ("no one", "this one", "each one", "the first one"), not 1.
_PRONOUN_ONE_AFTER = frozenset(
    "no each every any which this that another other last next same st nd rd th".split()) | set(_ORD_UNITS)

# Canonical Roman numerals (1..3999); tokens of two letters or more are read, single letters never
# ("I" is the pronoun; "Plan C", "size M", "Malcolm X" are labels).
_ROMAN_RE = re.compile(r"M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})")
_ROMAN_VALUES = {"M": 1000, "D": 500, "C": 100, "L": 50, "X": 10, "V": 5, "I": 1}
# Canonical numerals that are far more often abbreviations (a doctor, a disc, Washington, a résumé,
# carbon copy, a CI job, a size, a command line): not read as numbers.
_ROMAN_ABBREVIATIONS = frozenset(
    "CC CD CI CL CLI CM CV DC DI DIV DL DV DX LI LV MC MD MI MIX ML MM MV MX XL".split())

_SUPERSCRIPTS = "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079"
_SUBSCRIPTS = "\u2080\u2081\u2082\u2083\u2084\u2085\u2086\u2087\u2088\u2089"
_VULGAR_FRACTIONS = frozenset("\u00bc\u00bd\u00be" + "".join(map(chr, range(0x2150, 0x215F))))

# Digits, as the graders have always read them. A sign counts only when it is not glued to a word
# ("item-3" is 3, "-3" is -3); a currency symbol may sit on either side of the sign ("-$5", "$-5");
# thousands separators need groups of three. `\d` is any script's decimal digit.
_DIGITS = (
    r"(?:(?<![\w.])(?P<sign>[-\u2212]))?"
    r"(?:[$\u20ac\u00a3\u00a5]\s?(?P<sign2>-)?)?"
    r"(?P<num>(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)"
)
# A token is a digit number or a run of word characters that are not decimal digits: letters, and the
# Unicode number symbols (superscripts, fractions, circled numbers), split apart below.
_TOKEN_RE = re.compile(_DIGITS + r"|(?P<word>[^\W\d_]+)")
_JOIN_RE = re.compile(r"[^\S\n]*(?:-[^\S\n]*)?")  # what may sit between the words of one number
_SLASH_RE = re.compile(r"[^\S\n]?[/\u2044][^\S\n]?")


class _Tok(NamedTuple):
    kind: str  # "num" (digits), "sym" (a number character), "word"
    start: int
    end: int
    value: int | float | None  # for num and sym
    text: str  # the word as written (num/sym: the text)
    signed: bool = False  # a num written with its own sign


def _is_number_char(c: str) -> bool:
    return unicodedata.category(c) in ("No", "Nl")


def _clean(v: float) -> int | float:
    return int(v) if isinstance(v, float) and v.is_integer() and abs(v) < 2**53 else v


def _tokens(text: str) -> list[_Tok]:
    out: list[_Tok] = []
    for m in _TOKEN_RE.finditer(text):
        if m.group("num") is not None:
            raw = m.group("num").replace(",", "")
            num: int | float = float(raw) if "." in raw else int(raw)
            signed = bool(m.group("sign") or m.group("sign2"))
            out.append(_Tok("num", m.start(), m.end(), -num if signed else num, m.group(), signed))
            continue
        run_start = m.start()
        word = m.group("word")
        i = 0
        while i < len(word):  # split letters from number characters
            c = word[i]
            j = i + 1
            if not _is_number_char(c):
                while j < len(word) and not _is_number_char(word[j]):
                    j += 1
                out.append(_Tok("word", run_start + i, run_start + j, None, word[i:j]))
            elif c in _SUPERSCRIPTS or c in _SUBSCRIPTS:
                family = _SUPERSCRIPTS if c in _SUPERSCRIPTS else _SUBSCRIPTS
                while j < len(word) and word[j] in family:
                    j += 1
                value = int("".join(str(family.index(d)) for d in word[i:j]))
                out.append(_Tok("sym", run_start + i, run_start + j, value, word[i:j]))
            else:
                value = unicodedata.numeric(c, None)
                if value is not None:
                    out.append(_Tok("sym", run_start + i, run_start + j, _clean(value), c))
            i = j
    return out


class _Reader:
    """A small recursive-descent reader over the tokens of one text."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.toks = _tokens(text)

    # --- token helpers

    def word(self, i: int) -> str | None:
        if 0 <= i < len(self.toks) and self.toks[i].kind == "word":
            return self.toks[i].text.lower()
        return None

    def joined(self, i: int, commas: bool = False) -> bool:
        """Token i continues the number that token i-1 is part of (only spaces or a hyphen between)."""
        if not 0 < i < len(self.toks):
            return False
        gap = self.text[self.toks[i - 1].end:self.toks[i].start]
        if commas and gap.startswith(","):
            gap = gap[1:]
        return _JOIN_RE.fullmatch(gap) is not None

    def next_word(self, i: int, commas: bool = False) -> str | None:
        return self.word(i) if self.joined(i, commas) else None

    # --- the grammar of English numbers

    def small(self, i: int) -> tuple[int, int, bool] | None:
        """0..99 in words at token i: (value, next index, ordinal)."""
        w = self.word(i)
        if w in _UNITS:
            return _UNITS[w], i + 1, False
        if w in _ORD_UNITS:
            return _ORD_UNITS[w], i + 1, True
        if w in _ORD_TENS:
            return _ORD_TENS[w], i + 1, True
        if w in _TENS:
            nxt = self.next_word(i + 1)
            if nxt in _UNITS and 0 < _UNITS[nxt] < 10:
                return _TENS[w] + _UNITS[nxt], i + 2, False
            if nxt in _ORD_UNITS and _ORD_UNITS[nxt] < 10:
                return _TENS[w] + _ORD_UNITS[nxt], i + 2, True
            return _TENS[w], i + 1, False
        return None

    def group(self, i: int) -> tuple[int, int, bool] | None:
        """1..9999 in words ("five", "a hundred", "twelve hundred and five"): (value, next, ordinal)."""
        w = self.word(i)
        if w in _ARTICLE or w in ("hundred", "hundredth"):
            head = (1, i + 1 if w in _ARTICLE else i, False)
            if w in _ARTICLE and self.next_word(i + 1) not in ("hundred", "hundredth"):
                return None
        else:
            head = self.small(i)
            if head is None:
                return None
        value, j, ordinal = head
        nxt = self.next_word(j) if not ordinal and value > 0 else None
        if nxt not in ("hundred", "hundredth"):
            return head if w not in _ARTICLE else None
        value, j = value * 100, j + 1
        if nxt == "hundredth":
            return value, j, True
        k = j + 1 if self.next_word(j) == "and" else j
        if self.joined(k) and (rest := self.small(k)) is not None and rest[0] > 0:
            return value + rest[0], rest[1], rest[2]
        return value, j, False

    def cardinal(self, i: int) -> tuple[int | float, int, bool] | None:
        """A whole number in words, scales included ("two million, three hundred thousand and one")."""
        w = self.word(i)
        if w in _ARTICLE and self.next_word(i + 1) in _SCALES:
            g: tuple[int, int, bool] | None = (1, i + 1, False)
        elif w in _SCALES or w in _ORD_SCALES:
            g = (1, i, False)
        else:
            g = self.group(i)
        if g is None:
            return None
        total, last_scale = 0, math.inf
        value, j, ordinal = g
        while not ordinal:
            s = self.next_word(j) if j > i else self.word(j)
            scale = _SCALES.get(s or "") or _ORD_SCALES.get(s or "")
            if not scale or scale >= last_scale:
                break
            total += value * scale
            value, j, last_scale, ordinal = 0, j + 1, scale, s in _ORD_SCALES
            if ordinal:
                break
            k = j + 1 if self.next_word(j, commas=True) == "and" else j
            if self.joined(k, commas=True) and (rest := self.group(k)) is not None:
                value, j, ordinal = rest
            else:
                break
        return total + value, j, ordinal

    def suffixes(self, value: int | float, j: int, from_digits: bool) -> tuple[int | float, int]:
        """What may follow a number and change its value: a scale word after digits ("1.5 million"),
        "dozen", a fraction word ("two thirds"), "and a half", "point five"."""
        nxt = self.next_word(j)
        if from_digits and (nxt in _SCALES or nxt == "hundred"):
            value, j = value * (_SCALES.get(nxt) or 100), j + 1
            nxt = self.next_word(j)
        if nxt == "dozen":
            return value * 12, j + 1
        if nxt in _DENOMINATORS and value == 1 or nxt in _DENOMINATORS_PLURAL and value >= 2:
            return value / (_DENOMINATORS.get(nxt) or _DENOMINATORS_PLURAL[nxt]), j + 1
        if nxt == "and" and self.next_word(j + 1) in _ARTICLE and self.next_word(j + 2) == "half":
            return value + math.copysign(0.5, value) if value else 0.5, j + 3
        if not from_digits and nxt == "point" and isinstance(value, int):
            digits, k = "", j + 1
            while (d := self.next_word(k)) in _UNITS and _UNITS[d] < 10:
                digits, k = digits + str(_UNITS[d]), k + 1
            if digits:
                return float(f"{value}.{digits}"), k
        return value, j

    def roman(self, i: int) -> int | None:
        t = self.toks[i]
        w = t.text
        if len(w) < 2 or not w.isascii() or not w.isupper() or w in _ROMAN_ABBREVIATIONS:
            return None
        if not _ROMAN_RE.fullmatch(w):
            return None
        if t.start > 0 and self.text[t.start - 1].isalnum() or t.end < len(self.text) and self.text[t.end].isalnum():
            return None  # part of a longer token ("XIV3")
        vals = [_ROMAN_VALUES[c] for c in w]
        return sum(-v if k + 1 < len(vals) and v < vals[k + 1] else v for k, v in enumerate(vals))

    # --- digits that combine: fractions and mixed numbers

    def fraction(self, i: int) -> tuple[int | float, int] | None:
        """ "1/2", "1 1/2", "1½", "1 ½" starting at token i (a num): (value, next index)."""
        toks, text = self.toks, self.text
        a = toks[i]
        if a.kind != "num" or not isinstance(a.value, int):
            return None
        sign = -1 if a.value < 0 else 1
        if i + 1 < len(toks) and toks[i + 1].text in _VULGAR_FRACTIONS and \
                text[a.end:toks[i + 1].start] in ("", " "):
            return a.value + sign * toks[i + 1].value, i + 2
        whole, k = 0, i
        if i + 2 < len(toks) and text[a.end:toks[i + 1].start] == " " and self._slash(i + 1):
            whole, k = abs(a.value), i + 1  # a mixed number: "1 1/2"
        if not self._slash(k):
            return None
        num, den = toks[k], toks[k + 1]
        if den.value == 0:
            return None
        return sign * (whole + abs(num.value) / den.value), k + 2

    def _slash(self, i: int) -> bool:
        """Tokens i and i+1 are plain integers joined by one slash, not part of a longer chain."""
        toks, text = self.toks, self.text
        if i + 1 >= len(toks) or toks[i].kind != "num" or toks[i + 1].kind != "num":
            return False
        a, b = toks[i], toks[i + 1]
        if not (isinstance(a.value, int) and isinstance(b.value, int) and not b.signed):
            return False
        if not (a.text.lstrip("-\u2212").isdigit() and b.text.isdigit()):
            return False  # currency, thousands separators: not a fraction
        if not _SLASH_RE.fullmatch(text[a.end:b.start]):
            return False
        before, after = text[:a.start].rstrip(), text[b.end:].lstrip()
        return not (before.endswith(("/", "\u2044")) or after.startswith(("/", "\u2044")))

    # --- the whole text

    def read(self) -> list[Reading]:
        out: list[Reading] = []
        toks, i = self.toks, 0
        while i < len(toks):
            t = toks[i]
            negate = False
            start = t.start
            if t.kind == "word" and t.text.lower() in _NEGATORS and i + 1 < len(toks) and self.joined(i + 1) \
                    and not (toks[i + 1].kind == "num" and toks[i + 1].signed):
                negate, i, t = True, i + 1, toks[i + 1]
            got: tuple[int | float, int, str] | None = None
            if t.kind == "num":
                frac = self.fraction(i)
                if frac is not None:
                    got = (frac[0], frac[1], "digits")
                else:
                    got = (*self.suffixes(t.value, i + 1, from_digits=True), "digits")
            elif t.kind == "sym":
                got = (t.value, i + 1, "symbol")
            elif (card := self.cardinal(i)) is not None:
                value, j, ordinal = card
                if not ordinal:
                    value, j = self.suffixes(value, j, from_digits=False)
                if not self._pronoun_one(i, j):
                    got = (value, j, "words")
            elif self.word(i) in _ARTICLE and (self.next_word(i + 1) == "dozen" or self.next_word(i + 1) in _DENOMINATORS):
                got = (*self.suffixes(1, i + 1, from_digits=False), "words")  # "a dozen", "a half"
            elif self.word(i) == "half" and self.next_word(i + 1) in _ARTICLE and self.next_word(i + 2) == "dozen":
                got = (6, i + 3, "words")
            elif self.word(i) == "dozen":
                got = (12, i + 1, "words")
            elif (r := self.roman(i)) is not None:
                got = (r, i + 1, "roman")
            if got is None:
                i += 1
                continue
            value, j, form = got
            if negate:
                value = -value
            if not (form == "digits" and j == i + 1):  # a digit number as written keeps its type ("2.0")
                value = _clean(value)
            out.append(Reading(value, start, toks[j - 1].end, form))
            i = j
        return out

    def _pronoun_one(self, i: int, j: int) -> bool:
        if j != i + 1 or self.word(i) != "one":
            return False
        before = self.word(i - 1) if i > 0 and self.text[self.toks[i - 1].end:self.toks[i].start].isspace() else None
        return before in _PRONOUN_ONE_AFTER or self.next_word(j) == "another"


def read_numbers(text: str) -> list[Reading]:
    """Every number `text` states, in order, each with its span and form. Total: never raises."""
    if not isinstance(text, str) or not text:
        return []
    return _Reader(text).read()
