"""OpenAI computer-use actions (computer_call): tool calls, Responses-style items in text, the final message."""

from __future__ import annotations

import json

import pytest

from agent_harness.formats import FormatContext, ParseError, Reply, ToolCall, get_format

F = get_format("openai")
CTX = FormatContext(screen=(1280, 720), image=(1024, 576))


def p(reply, ctx=CTX):
    return F.parse(reply, ctx).actions


def test_computer_tool_call_is_scaled_to_the_screen():
    msg = {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function", "function": {
        "name": "computer", "arguments": json.dumps({"action": {"type": "click", "button": "left", "x": 512, "y": 288}})}}]}
    assert p(msg) == [{"type": "click", "x": 640, "y": 360, "button": "left"}]


def test_responses_api_output_items_in_text():
    items = [{"type": "reasoning", "summary": []},
             {"type": "computer_call", "call_id": "call_9", "action": {"type": "scroll", "x": 500, "y": 300,
                                                                        "scroll_x": 0, "scroll_y": -400},
              "pending_safety_checks": []}]
    assert p(json.dumps(items)) == [{"type": "scroll", "x": 625, "y": 375, "dx": 0, "dy": -400}]


def test_keys_drag_wheel_and_wait():
    acts = p(Reply(tool_calls=[
        ToolCall("computer", {"action": {"type": "keypress", "keys": ["CTRL", "A"]}}),
        ToolCall("computer", {"type": "drag", "path": [{"x": 0, "y": 0}, {"x": 100, "y": 50}, {"x": 200, "y": 100}]}),
        ToolCall("computer", {"action": {"type": "click", "button": "wheel", "x": 10, "y": 10}}),
        ToolCall("computer", {"action": {"type": "wait"}}),
        ToolCall("computer", {"action": {"type": "keypress", "keys": ["ESC"]}}),
    ]))
    assert acts == [{"type": "keypress", "keys": ["Control", "a"]},
                    {"type": "drag", "path": [[0, 0], [125, 62], [250, 125]]},
                    {"type": "click", "x": 12, "y": 12, "button": "middle"},
                    {"type": "wait", "ms": 1000}, {"type": "keypress", "keys": ["Escape"]}]


def test_a_reply_without_a_computer_call_ends_the_task_with_its_text():
    assert p("The meeting is on March 14.") == [{"type": "done", "answer": "The meeting is on March 14."}]
    assert p("DONE") == [{"type": "done"}]
    assert p({"role": "assistant", "content": "Done."}) == [{"type": "done"}]


@pytest.mark.parametrize("reply, needle", [
    ("", "empty"),
    (Reply(tool_calls=[ToolCall("computer", {"action": {"type": "click", "button": "back", "x": 1, "y": 1}})]),
     "not supported"),
    (Reply(tool_calls=[ToolCall("computer", {"action": {"type": "zoom"}})]), "unknown computer action type 'zoom'"),
    (Reply(tool_calls=[ToolCall("computer", {"action": {"type": "move", "x": 5}})]), "must be a number"),
    (Reply(tool_calls=[ToolCall("computer", {"action": {"type": "drag", "path": [{"x": 1, "y": 1}]}})]),
     "at least two points"),
    (Reply(tool_calls=[ToolCall("browser", {"url": "x"})]), "unknown tool 'browser'"),
    (Reply(tool_calls=[ToolCall("computer", "{not json")]), "not valid JSON"),
])
def test_malformed(reply, needle):
    with pytest.raises(ParseError, match=needle):
        p(reply)
