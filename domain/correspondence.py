"""How a simulated correspondent answers an e-mail (the workspace's people, README "Correspondents who answer"):
by rules over the facts the world holds about them, no language model, so one seed gives one set of replies.

`reply_text(facts, question, ...)` reads the question's words for the topics it knows (a purchase order number, a
phone number to reach them, a headcount, a delivery time, dietary needs) and answers each from `facts`; a question it
cannot place (a '?' and no topic) gets a holding answer; a message that asks nothing gets no reply (None). The mail
app's send (apps/mail/services/correspondence.py) and the task templates that grade the answer both call it.
"""

from __future__ import annotations

import re

# (topic, what in the question asks for it, the fact it answers from, the sentence)
TOPICS: tuple[tuple[str, re.Pattern, str, str], ...] = (
    ("po_number", re.compile(r"\b(po|p\.o\.|purchase[- ]order)\b", re.I), "po_number",
     "Our purchase order number is {}."),
    ("phone", re.compile(r"\b(phone|best number|number to reach|reach you)\b", re.I), "phone",
     "The best number to reach me is {}."),
    ("headcount", re.compile(r"\bhow many\b", re.I), "headcount", "We will be {} people."),
    ("lunch_time", re.compile(r"\b(what|which) time\b", re.I), "lunch_time", "{} works best for us."),
    ("diet", re.compile(r"\b(diet|dietary|allerg\w*|vegetarian|vegan)\b", re.I), "diet", "{}"),
)
HOLDING = "Thanks for your note. Let me check on that and get back to you."
FORWARD_MARK = "---------- Forwarded message"


def asked(question: str) -> list[str]:
    """The topics a message asks about, in TOPICS' order (the quoted text of a forward is not the question)."""
    text = question.split(FORWARD_MARK, 1)[0]
    return [name for name, pattern, _fact, _say in TOPICS if pattern.search(text)]


def reply_text(facts: dict, question: str, *, to_first: str, from_first: str) -> str | None:
    """The correspondent's answer to `question` (subject and body), from `facts`, signed with their first name; None
    when the message asks nothing (no topic and no '?')."""
    text = question.split(FORWARD_MARK, 1)[0]
    lines = [say.format(facts[fact]) for name, _p, fact, say in TOPICS
             if name in asked(text) and facts.get(fact) not in (None, "")]
    if not lines:
        if "?" not in text:
            return None
        lines = [HOLDING]
    return f"Hi {to_first},\n\n" + " ".join(lines) + f"\n\nBest,\n{from_first}"


__all__ = ["HOLDING", "TOPICS", "asked", "reply_text"]
