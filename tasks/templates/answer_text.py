"""What a sentence answer may not hold, for every template that takes the value in a plain sentence.

"It was sent by Laura Cook." is an answer; "Laura Cook or kyle blair" is a hedge whatever its case, and so
is "maybe Sakura Sushi". A sentence-tolerant answer check starts with `no_hedge()`: a negative lookahead
refusing the words and marks that join or weigh candidates (grading.lint counts an alternation inside a
negative lookaround as closed: it only refuses more).
"""

from __future__ import annotations

import re

HEDGES = r"(?:\b(?:or|and|either|nor|maybe|perhaps|possibly|probably|likely|versus|vs)\b|[/&|;+])"


def no_hedge(value: str = "") -> str:
    """A lookahead for the start of an anchored pattern: the text holds none of HEDGES (case-insensitive).
    Empty where the value itself holds one ("Salt & Pepper Grill"): its own name must not refuse it, and
    the check's other parts (the rivals it excludes) still hold."""
    if re.search(HEDGES, value, re.IGNORECASE):
        return ""
    return rf"(?!(?i:.*{HEDGES}))"
