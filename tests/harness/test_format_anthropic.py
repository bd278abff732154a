"""Anthropic computer-use tool input: xdotool keys, scroll clicks, drags, tool_use blocks in text."""

from __future__ import annotations

import json

import pytest

from agent_harness.formats import SCROLL_CLICK_PX, FormatContext, ParseError, Reply, ToolCall, get_format

F = get_format("anthropic")
CTX = FormatContext(screen=(1280, 720), image=(1280, 720))


def call(**inp):
    return ToolCall("computer", inp)


def p(reply, ctx=CTX):
    return F.parse(reply, ctx).actions


def test_claude_style_actions():
    acts = p(Reply(content="I'll open the compose window.", tool_calls=[
        call(action="left_click", coordinate=[88, 140]),
        call(action="type", text="Quarterly report"),
        call(action="key", text="ctrl+Return"),
        call(action="key", text="Page_Down"),
        call(action="scroll", coordinate=[640, 400], scroll_direction="down", scroll_amount=5),
        call(action="double_click", coordinate=[300, 300]),
        call(action="right_click", coordinate=[10, 10]),
        call(action="wait", duration=2),
        call(action="screenshot"),
    ]))
    assert acts == [
        {"type": "click", "x": 88, "y": 140, "button": "left"}, {"type": "type", "text": "Quarterly report"},
        {"type": "keypress", "keys": ["Control", "Enter"]}, {"type": "keypress", "keys": ["PageDown"]},
        {"type": "scroll", "x": 640, "y": 400, "dx": 0, "dy": 5 * SCROLL_CLICK_PX},
        {"type": "double_click", "x": 300, "y": 300}, {"type": "click", "x": 10, "y": 10, "button": "right"},
        {"type": "wait", "ms": 2000}, {"type": "screenshot"},
    ]


def test_drags_two_ways():
    assert p(Reply(tool_calls=[call(action="left_click_drag", start_coordinate=[10, 10], coordinate=[200, 20])])) == [
        {"type": "drag", "path": [[10, 10], [200, 20]]}]
    assert p(Reply(tool_calls=[call(action="mouse_move", coordinate=[10, 10]), call(action="left_mouse_down"),
                               call(action="mouse_move", coordinate=[50, 50]), call(action="mouse_move", coordinate=[90, 10]),
                               call(action="left_mouse_up")])) == [{"type": "drag", "path": [[10, 10], [50, 50], [90, 10]]}]
    ctx = FormatContext(screen=(1280, 720), cursor=(5, 5))
    assert p(Reply(tool_calls=[call(action="left_click_drag", coordinate=[20, 30])]), ctx) == [
        {"type": "drag", "path": [[5, 5], [20, 30]]}]


def test_tool_use_block_in_text_and_final_answer():
    block = {"type": "tool_use", "id": "toolu_01", "name": "computer", "input": {"action": "left_click", "coordinate": [5, 6]}}
    assert p("Clicking the first row.\n" + json.dumps(block)) == [{"type": "click", "x": 5, "y": 6, "button": "left"}]
    assert p("The invoice total is $42.10.") == [{"type": "done", "answer": "The invoice total is $42.10."}]
    assert p("DONE") == [{"type": "done"}]


@pytest.mark.parametrize("reply, needle", [
    (Reply(tool_calls=[call(action="triple_click", coordinate=[1, 1])]), "triple_click is not available"),
    (Reply(tool_calls=[call(action="left_click", coordinate=[1, 1], text="shift")]), "held key"),
    (Reply(tool_calls=[call(action="zoom", region=[0, 0, 10, 10])]), "unknown computer action 'zoom'"),
    (Reply(tool_calls=[call(action="scroll", coordinate=[1, 1], scroll_direction="sideways")]), "scroll_direction"),
    (Reply(tool_calls=[call(action="key")]), "key needs text"),
    (Reply(tool_calls=[call(action="mouse_move")]), "needs coordinate"),
    (Reply(tool_calls=[call(action="left_mouse_up")]), "without a mouse down"),
    (Reply(tool_calls=[call(action="left_mouse_down")]), "move the mouse"),
    (Reply(tool_calls=[ToolCall("computer", {"coordinate": [1, 2]})]), "needs an 'action'"),
    ("", "empty"),
])
def test_malformed(reply, needle):
    with pytest.raises(ParseError, match=needle):
        p(reply)
