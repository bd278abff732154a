"""UI-TARS / Qwen2.5-VL text actions, as the models write them (box tokens, points, escapes, 0-1000)."""

from __future__ import annotations

import pytest

from agent_harness.formats import SCROLL_STEP_PX, FormatContext, ParseError, get_format

F = get_format("uitars")
ABS = FormatContext(screen=(1280, 720), image=(1092, 616))  # Qwen's smart_resize of 1280x720 at 1280*28*28
REL = FormatContext(screen=(1280, 720), coords="rel1000")


def p(text, ctx=ABS):
    return F.parse(text, ctx).actions


def test_ui_tars_15_click_with_box_tokens_in_resized_pixels():
    text = ("Thought: The compose button is at the top left of the sidebar. I'll click it to start a new email.\n"
            "Action: click(start_box='<|box_start|>(75,117)<|box_end|>')")
    r = F.parse(text, ABS)
    assert r.actions == [{"type": "click", "x": 88, "y": 137, "button": "left"}]
    assert r.thought.startswith("The compose button")


def test_ui_tars_10_relative_coordinates_and_boxes():
    assert p("Thought: click the star\nAction: click(start_box='(500,500)')", REL) == [
        {"type": "click", "x": 640, "y": 360, "button": "left"}]
    assert p("Action: left_double(start_box='[100,100,300,300]')", REL) == [{"type": "double_click", "x": 256, "y": 144}]
    assert p("Action: click(point='<point>250 500</point>')", REL) == [
        {"type": "click", "x": 320, "y": 360, "button": "left"}]


def test_type_with_escapes_and_submit():
    text = "Thought: Enter the subject and send it.\nAction: type(content='It\\'s the \"Q3\" report\\n')"
    assert p(text) == [{"type": "type", "text": "It's the \"Q3\" report"}, {"type": "keypress", "keys": ["Enter"]}]


def test_unescaped_quote_inside_content_is_still_read():
    assert p("Action: type(content='I'm here')") == [{"type": "type", "text": "I'm here"}]


def test_hotkeys_scroll_drag_wait_finished():
    assert p("Action: hotkey(key='ctrl a')") == [{"type": "keypress", "keys": ["Control", "a"]}]
    assert p("Action: hotkey(key='enter')") == [{"type": "keypress", "keys": ["Enter"]}]
    assert p("Action: press(key='pagedown')") == [{"type": "keypress", "keys": ["PageDown"]}]
    assert p("Action: scroll(start_box='(546,308)', direction='down')") == [
        {"type": "scroll", "x": 640, "y": 360, "dx": 0, "dy": SCROLL_STEP_PX}]
    assert p("Action: drag(start_box='(0,0)', end_box='(546,308)')") == [{"type": "drag", "path": [[0, 0], [640, 360]]}]
    assert p("Thought: wait for it\nAction: wait()") == [{"type": "wait", "ms": 1000}]
    assert p("Action: finished(content='The flight leaves at 9:40.')") == [
        {"type": "done", "answer": "The flight leaves at 9:40."}]
    assert p("Action: finished()") == [{"type": "done"}]


def test_two_actions_in_one_reply():
    text = "Thought: focus then type\nAction: click(start_box='(10,10)')\n\ntype(content='hi')"
    assert [a["type"] for a in p(text)] == ["click", "type"]


@pytest.mark.parametrize("text, needle", [
    ("", "empty"),
    ("Thought: I am not sure what to do here.", "no 'Action:' line"),
    ("Thought: x\nAction: ", "holds no action"),
    ("Thought: x\nAction: teleport(start_box='(1,1)')", "unknown action 'teleport'"),
    ("Thought: x\nAction: click()", "needs start_box"),
    ("Thought: x\nAction: click(start_box='(12)')", "two numbers"),
    ("Thought: x\nAction: scroll(start_box='(1,1)', direction='diagonal')", "direction"),
    ("Thought: x\nAction: hotkey(key='hyper q')", "unknown key"),
    ("Thought: x\nAction: click(start_box='(1,1)'", "cannot read"),
    ("Thought: x\nAction: type(content=42)", "type needs content"),
])
def test_malformed(text, needle):
    with pytest.raises(ParseError, match=needle):
        p(text)
