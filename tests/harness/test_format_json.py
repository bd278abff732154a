"""uigym JSON tool calls: what models and servers really send, and what goes wrong."""

from __future__ import annotations

import pytest

from agent_harness.formats import FormatContext, ParseError, Reply, ToolCall, get_format

F = get_format("json")
CTX = FormatContext(screen=(1280, 720))


def p(reply, ctx=CTX):
    return F.parse(reply, ctx).actions


def test_server_tool_calls_with_json_text_arguments():
    msg = {"role": "assistant", "content": "The Star button is on the right of the row.",
           "tool_calls": [{"id": "call_1", "type": "function",
                           "function": {"name": "click", "arguments": "{\"x\": 1180, \"y\": 231}"}}]}
    assert p(msg) == [{"type": "click", "x": 1180, "y": 231, "button": "left"}]
    assert F.parse(msg, CTX).thought.startswith("The Star button")


def test_hermes_tool_call_in_text_from_a_server_without_a_tool_parser():
    text = ("I need to type the recipient first.\n<tool_call>\n{\"name\": \"type\", \"arguments\": "
            "{\"text\": \"ana@example.com\"}}\n</tool_call>")
    assert p(text) == [{"type": "type", "text": "ana@example.com"}]


def test_several_tool_calls_and_a_think_block():
    text = ("<think>select all then delete</think><tool_call>{\"name\": \"keypress\", \"arguments\": {\"keys\": "
            "[\"ctrl\", \"A\"]}}</tool_call>\n<tool_call>{\"name\": \"keypress\", \"arguments\": {\"keys\": "
            "[\"Delete\"]}}</tool_call>")
    r = F.parse(text, CTX)
    assert r.actions == [{"type": "keypress", "keys": ["Control", "a"]}, {"type": "keypress", "keys": ["Delete"]}]
    assert "select all" in r.thought


def test_bare_action_object_in_a_fence_and_python_style_quotes():
    assert p("```json\n{\"type\": \"scroll\", \"x\": 640, \"y\": 400, \"dy\": 500}\n```") == [
        {"type": "scroll", "x": 640, "y": 400, "dx": 0, "dy": 500}]
    assert p("<tool_call>{'name': 'done', 'arguments': {'answer': 'March 14'}}</tool_call>") == [
        {"type": "done", "answer": "March 14"}]


def test_scaled_coordinates_and_drag_path():
    ctx = FormatContext(screen=(1280, 720), image=(640, 360))
    assert p(Reply(tool_calls=[ToolCall("drag", {"path": [[10, 20], [300, 200]]})]), ctx) == [
        {"type": "drag", "path": [[20, 40], [600, 400]]}]


@pytest.mark.parametrize("reply, needle", [
    ("", "empty"),
    ("I think I should click the inbox.", "no tool call"),
    ("<tool_call>{\"name\": \"click\", \"arguments\": {\"x\": 10,}</tool_call>", "not valid JSON"),
    ("<tool_call>{\"name\": \"teleport\", \"arguments\": {}}</tool_call>", "unknown tool 'teleport'"),
    ("<tool_call>{\"name\": \"click\", \"arguments\": {\"x\": 10}}</tool_call>", "needs x and y"),
    ("<tool_call>{\"name\": \"click\", \"arguments\": {\"x\": \"left\", \"y\": 3}}</tool_call>", "must be a number"),
    ("<tool_call>{\"name\": \"keypress\", \"arguments\": {\"keys\": [\"Hyper\"]}}</tool_call>", "unknown key"),
    ("<tool_call>{\"name\": \"drag\", \"arguments\": {\"path\": [[1, 2]]}}</tool_call>", "at least two points"),
    ("<tool_call>{\"arguments\": {}}</tool_call>", "must hold"),
    (Reply(tool_calls=[ToolCall("type", "{\"text\": ")]), "not valid JSON"),
])
def test_malformed_replies_are_parse_errors_for_the_model(reply, needle):
    with pytest.raises(ParseError, match=needle):
        p(reply)
