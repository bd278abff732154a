"""Qwen2.5-VL computer_use tool calls, as its cookbook agent emits them."""

from __future__ import annotations

import pytest

from agent_harness.formats import FormatContext, ParseError, Reply, ToolCall, get_format

F = get_format("qwen")
CTX = FormatContext(screen=(1280, 720), image=(1092, 616))


def p(reply, ctx=CTX):
    return F.parse(reply, ctx).actions


def test_tool_call_text_from_the_model():
    text = ('<tool_call>\n{"name": "computer_use", "arguments": {"action": "left_click", "coordinate": [546, 308]}}\n'
            "</tool_call>")
    assert p(text) == [{"type": "click", "x": 640, "y": 360, "button": "left"}]


def test_key_type_scroll_drag_answer_terminate():
    acts = p(Reply(tool_calls=[
        ToolCall("computer_use", {"action": "key", "keys": ["ctrl", "l"]}),
        ToolCall("computer_use", {"action": "type", "text": "hello"}),
        ToolCall("computer_use", {"action": "mouse_move", "coordinate": [546, 308]}),
        ToolCall("computer_use", {"action": "scroll", "pixels": -300}),
        ToolCall("computer_use", {"action": "mouse_move", "coordinate": [0, 0]}),
        ToolCall("computer_use", {"action": "left_click_drag", "coordinate": [546, 308]}),
        ToolCall("computer_use", {"action": "answer", "text": "42"}),
        ToolCall("computer_use", {"action": "terminate", "status": "success"}),
    ]))
    assert acts == [{"type": "keypress", "keys": ["Control", "l"]}, {"type": "type", "text": "hello"},
                    {"type": "scroll", "x": 640, "y": 360, "dx": 0, "dy": 300},
                    {"type": "drag", "path": [[0, 0], [640, 360]]}, {"type": "done", "answer": "42"}]


def test_scroll_uses_the_cursor_from_earlier_steps():
    ctx = FormatContext(screen=(1280, 720), cursor=(100, 200))
    assert p(Reply(tool_calls=[ToolCall("computer_use", {"action": "scroll", "pixels": 200})]), ctx) == [
        {"type": "scroll", "x": 100, "y": 200, "dx": 0, "dy": -200}]


@pytest.mark.parametrize("reply, needle", [
    ("", "empty"),
    ("I will click the button.", "no computer_use tool call"),
    ("<tool_call>{\"name\": \"computer_use\", \"arguments\": {\"action\": \"fly\"}}</tool_call>", "unknown computer_use"),
    ("<tool_call>{\"name\": \"computer_use\", \"arguments\": {\"action\": \"left_click_drag\"}}</tool_call>",
     "where to drop"),
    ("<tool_call>{\"name\": \"computer_use\", \"arguments\": {\"coordinate\": [1, 2]}}</tool_call>", "needs an 'action'"),
    ("<tool_call>{\"name\": \"computer_use\", \"arguments\": {\"action\": \"left_click\"}}</tool_call>",
     "needs coordinate"),
    ("<tool_call>{\"name\": \"computer_use\", \"arguments\": {\"action\": \"left_click\", \"coordinate\": [1]}}"
     "</tool_call>", "must be \\[x, y\\]"),
])
def test_malformed(reply, needle):
    with pytest.raises(ParseError, match=needle):
        p(reply)
