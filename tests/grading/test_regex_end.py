"""`$regex`'s `$` is the end of the value: Python's `$` also matches before a final newline, so `^X$` would
have accepted "X\n" (issue #42: every regex check, fullmatch semantics)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from grading import match
from grading.matchers import strict_end

TOKENS = ["a", "b", "x", ".", "$", "^", "\\$", "\\n", "[$]", "[^]$]", "[]a]", "(a|b)", "*", "+", "?", "\\d", " "]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=8).map("".join), st.text("ab$x \n", max_size=8))
def test_strict_end_agrees_with_python_where_no_newline_ends_the_value(pattern, value):
    try:
        re.compile(pattern)
    except re.error:
        return
    strict = re.compile(strict_end(pattern))  # compiles whenever the pattern does
    if not value.endswith("\n"):
        assert bool(re.search(pattern, value)) == bool(strict.search(value))
    if strict.search(value):  # never more permissive than Python's $
        assert re.search(pattern, value)


@given(st.text(min_size=1, max_size=20).filter(lambda s: "\n" not in s))
def test_an_anchored_value_is_not_matched_with_a_newline_after_it(text):
    matcher = {"$regex": f"^{re.escape(text)}$"}
    assert match(text, matcher) and not match(text + "\n", matcher)


def test_the_m_option_keeps_line_ends():
    assert match("a\nb\nc", {"$regex": "^b$", "$options": "m"})


def test_a_tool_name_with_a_newline_is_refused_at_registration():
    import pytest

    from apps._shared.tools import ToolSet

    tools = ToolSet("x")

    def f() -> dict:
        """A tool."""
        return {}

    with pytest.raises(ValueError, match="snake_case"):
        tools.tool(f, name="star\n")
