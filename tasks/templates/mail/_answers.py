"""Answer checks that take the value alone or in a plain sentence, and nothing else (issue #48).

"Answer with the file name" is met by "report.pdf" and by "The file name is report.pdf." alike; a strict
`$ieq` / `$phone` scored the sentence 0. Each matcher here is an anchored `$regex` without alternation (a
closed matcher for grading/lint.py): the value once, in words that cannot carry a second candidate of its
kind, so the hedges and shotguns of tasks/templates/adversarial.py still score 0. What keeps a second
candidate out is the kind's own mark: other digits for a phone number or a seat, another dotted name for a
file, another capitalised word for a person's name.
"""

from __future__ import annotations

import re
from typing import Any

from tasks.templates.answer_text import HEDGES, no_hedge  # noqa: F401 - HEDGES re-exported for tests


def _regex(pattern: str, options: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {"$regex": pattern}
    if options:
        out["$options"] = options
    return out


def phone_answer(phone: str) -> dict[str, Any]:
    """The number with any usual punctuation (+1 allowed), amid words without digits:
    "(555) 014-2290", "Craig's number is 555.014.2290." pass; a second number anywhere fails."""
    digits = re.sub(r"\D", "", phone)
    if len(digits) == 11 and digits.startswith("1"):
        digits = digits[1:]
    body = r"[\s().-]*".join(digits)
    return _regex(rf"^\D*(?:\+?1[\s().-]*)?{body}\D*$")


def code_answer(code: str) -> dict[str, Any]:
    """A short code with digits (a seat "14C"), as a whole word amid words without digits:
    "14C", "Seat 14C." pass; "14C or 14A" fails."""
    return _regex(rf"^\D*(?<!\w){re.escape(code)}(?!\w)\D*$", "i")


def file_answer(name: str) -> dict[str, Any]:
    """A file name, ending the answer (closing quotes and a full stop allowed), after words without a dot:
    "q3.pdf", "The file name is “q3.pdf”." pass; "a.pdf or q3.pdf" and "q3.pdf, a.pdf" fail."""
    return _regex(rf"^[^.]*?(?<![\w.-]){re.escape(name)}[\s\"'\u201d\u2019.!]*$", "i")




def name_answer(name: str, others: list[str] = ()) -> dict[str, Any]:
    """A person's name (any case) in a sentence whose other words are lowercase but the first, holding no
    word that joins or weighs candidates and none of `others` (the world's other people, any case):
    "Laura Cook", "It was sent by Laura Cook.", "Laura Cook sent it." pass; "Laura Cook or Kyle Blair",
    "Laura Cook or kyle blair", "Kyle Blair, Laura Cook", "laura cook, kyle blair" and a list on several
    lines fail."""
    out = _regex(rf"^{no_hedge(name)}\s*(?:[A-Z]?[^A-Z\n]*?\s)?(?i:{re.escape(name)})(?!\w)[^A-Z\n]*$")
    rivals = sorted({o for o in others if o and o.casefold() != name.casefold() and name.casefold() not in o.casefold()})
    if rivals:
        out["$excludes"] = rivals
    return out
