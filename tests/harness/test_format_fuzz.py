"""A model reply no format can read is a ParseError, never another exception (issue 42): every action format,
fuzzed with hypothesis over replies made from its own rendered actions with their values swapped for
hostile ones (numbers beyond any float or past Python's 4300 digits, inf/nan, nesting deeper than the
JSON and Python parsers read, operator chains, lone surrogates, random text), as text and as tool calls.
What a format does read is a list of valid uigym actions, bounded in number."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_harness.formats import (
    FORMATS, FormatContext, ParseError, RenderError, Reply, ToolCall, render, sample_actions,
)
from gym_core.actions import ACTION_TYPES, parse_action

CTX = (1280, 720)
HOSTILE_TOKENS = st.sampled_from([
    "9" * 5000, "-" + "9" * 400, "1e999", "-1e999", "nan", "inf", "NaN", "Infinity", "1e308", "0x" + "f" * 300,
    "[" * 3000, "]" * 3000, "(" * 300, "{" * 3000, "[" * 3000 + "1" + "]" * 3000, '{"a":' * 3000 + "1" + "}" * 3000,
    "+".join(["1"] * 20000), "-" * 50000 + "1", "not " * 20000 + "1", "\ud800", "'\udfff'", '"\ud800"', "", "None",
    "True", "[]", "{}", "10**10**10", "1" * 20, "-1", "99999999999999999999", "'" * 7, "\\", "\x00",
]) | st.text(max_size=12)
NUMBER = re.compile(r"-?\d+(?:\.\d+)?|\"[^\"]*\"|'[^']*'")


def rendered(fmt: str) -> list[Reply]:
    """The format's own replies: each sample action it can write."""
    out = []
    for action in sample_actions():
        try:
            r = render(fmt, action, CTX)
        except RenderError:  # an action this format has no way to write
            continue
        out.append(Reply(content=r.content, tool_calls=list(r.tool_calls)))
    return out


RENDERED = {fmt: rendered(fmt) for fmt in FORMATS}


@st.composite
def hostile_reply(draw, fmt: str):
    """A reply the format wrote (one of its sample actions), a value of it swapped for a hostile token,
    as text or in a tool call's arguments; or hostile text; or a tool call with hostile arguments."""
    base = draw(st.sampled_from(RENDERED[fmt]))
    token = draw(HOSTILE_TOKENS)
    kind = draw(st.sampled_from(["content", "arguments", "raw", "call"]))

    def swap(text: str) -> str:
        spots = list(NUMBER.finditer(text))
        if not spots:
            return text + token
        m = spots[draw(st.integers(0, len(spots) - 1))]
        return text[:m.start()] + token + text[m.end():]

    if kind == "content" and base.content:
        return Reply(content=swap(base.content), tool_calls=base.tool_calls)
    if kind == "arguments" and base.tool_calls:
        tc = base.tool_calls[0]
        text = tc.arguments if isinstance(tc.arguments, str) else json.dumps(tc.arguments)
        return Reply(content=base.content, tool_calls=[ToolCall(name=tc.name, arguments=swap(text))])
    if kind == "call":
        name = base.tool_calls[0].name if base.tool_calls else draw(st.text(max_size=10))
        value = draw(st.sampled_from([2**64, 10**400, float("inf"), float("nan"), "\ud800", [[[[[1]]]]], {"a": {}}]))
        key = draw(st.sampled_from(["x", "y", "coordinate", "action", "text", "ms", "dx", "keys", "scroll_amount",
                                    "duration", "clicks", "start_box", "path"]))
        args = {**(base.tool_calls[0].args() if base.tool_calls else {}), key: value}
        return Reply(content=base.content, tool_calls=[ToolCall(name=name, arguments=args)])
    return Reply(content=draw(st.sampled_from(["", "Action: ", "pyautogui.", "<tool_call>", "```python\n", "```json\n"]))
                 + token + draw(st.sampled_from(["", ")", "')", "</tool_call>", "\n```", "}"])))


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_a_format_reads_any_reply_or_raises_parse_error(fmt):
    f = FORMATS[fmt]
    ctx = FormatContext(screen=CTX)
    outcomes = {"parsed": 0, "refused": 0}

    @settings(max_examples=60, derandomize=True, database=None, deadline=None, print_blob=False,
              suppress_health_check=list(HealthCheck))
    @given(hostile_reply(fmt))
    def fuzz(reply):
        try:
            parsed = f.parse(reply, ctx)
        except ParseError:
            outcomes["refused"] += 1
            return
        outcomes["parsed"] += 1
        assert 1 <= len(parsed.actions) <= 50, len(parsed.actions)
        for a in parsed.actions:
            parse_action(a, ACTION_TYPES)  # a valid action (ActionError otherwise)

    fuzz()
    assert outcomes["refused"] > 0  # the hostile values were really drawn


@pytest.mark.parametrize("fmt", sorted(FORMATS))
@pytest.mark.parametrize("reply", [
    "[" * 5000 + "]" * 5000, '{"a":' * 3000 + "1" + "}" * 3000, "<tool_call>" + "[" * 5000 + "</tool_call>",
    "pyautogui.click(" + "+".join(["1"] * 50000) + ")", "Action: click(start_box=" + "-" * 100000 + "1)",
    '{"type": "click", "x": ' + "1" * 5000 + ', "y": 1}', '{"type": "wait", "ms": 1e999}',
    "pyautogui.click(x=1e999, y=1)", "pyautogui.press('a', presses=10**9)", "pyautogui.click(1, 2, clicks=10**12)",
], ids=range(10))
def test_the_issues_replies_are_parse_errors(fmt, reply):
    try:
        parsed = FORMATS[fmt].parse(reply, FormatContext(screen=CTX))
    except ParseError:
        return
    assert len(parsed.actions) <= 50
