"""pyautogui code: OSWorld-style replies, drags, scroll clicks, special words; code is parsed, never run."""

from __future__ import annotations

import pytest

from agent_harness.formats import SCROLL_CLICK_PX, FormatContext, ParseError, get_format

F = get_format("pyautogui")
CTX = FormatContext(screen=(1280, 720))


def p(text, ctx=CTX):
    return F.parse(text, ctx).actions


def test_osworld_style_reply():
    text = ("The search box is at the top. I'll click it and search.\n```python\nimport pyautogui\nimport time\n"
            "pyautogui.click(640, 52)\npyautogui.write('quarterly report')\npyautogui.press('enter')\n"
            "time.sleep(0.5)\n```")
    r = F.parse(text, CTX)
    assert r.actions == [{"type": "click", "x": 640, "y": 52, "button": "left"},
                         {"type": "type", "text": "quarterly report"}, {"type": "keypress", "keys": ["Enter"]},
                         {"type": "wait", "ms": 500}]
    assert r.thought.startswith("The search box")


def test_keywords_buttons_and_scroll():
    assert p("pyautogui.click(x=10, y=20, button='right')") == [{"type": "click", "x": 10, "y": 20, "button": "right"}]
    assert p("pyautogui.click(10, 20, clicks=2)") == [{"type": "double_click", "x": 10, "y": 20}]
    assert p("pyautogui.hotkey('ctrl', 'shift', 't')") == [{"type": "keypress", "keys": ["Control", "Shift", "t"]}]
    assert p("pyautogui.scroll(-5, x=640, y=400)") == [
        {"type": "scroll", "x": 640, "y": 400, "dx": 0, "dy": 5 * SCROLL_CLICK_PX}]
    assert p("pyautogui.typewrite(['a', 'enter'])") == [{"type": "keypress", "keys": ["a"]},
                                                        {"type": "keypress", "keys": ["Enter"]}]


def test_drags():
    assert p("pyautogui.moveTo(100, 100)\npyautogui.dragTo(400, 300, duration=0.5)") == [
        {"type": "drag", "path": [[100, 100], [400, 300]]}]
    assert p("pyautogui.moveTo(1, 1)\npyautogui.mouseDown()\npyautogui.moveTo(50, 60)\npyautogui.moveTo(90, 10)\n"
             "pyautogui.mouseUp()") == [{"type": "drag", "path": [[1, 1], [50, 60], [90, 10]]}]


def test_special_words_and_done_with_answer():
    assert p("DONE") == [{"type": "done"}]
    assert p("The form is submitted.\nDONE") == [{"type": "done"}]
    assert p("FAIL") == [{"type": "done", "answer": "FAIL"}]
    assert p("WAIT") == [{"type": "wait", "ms": 1000}]
    assert p("```python\ndone(answer='Ana Ruiz')\n```") == [{"type": "done", "answer": "Ana Ruiz"}]


@pytest.mark.parametrize("text, needle", [
    ("", "empty"),
    ("I would click on the inbox.", "no pyautogui code"),
    ("```python\nx = 3\n```", "only calls are allowed"),
    ("```python\nos.system('rm -rf /')\n```", "unknown call os.system"),
    ("```python\npyautogui.click(100, 200\n```", "not valid Python"),
    ("```python\npyautogui.click(a, b)\n```", "literal values"),
    ("```python\npyautogui.locateOnScreen('btn.png')\n```", "not available"),
    ("```python\npyautogui.tripleClick(1, 1)\n```", "tripleClick"),
    ("```python\npyautogui.press('hyper')\n```", "unknown key"),
    ("```python\npyautogui.click()\n```", "needs x and y"),
    ("```python\npyautogui.mouseDown(5, 5)\npyautogui.click(1, 1)\n```", "never released"),
])
def test_malformed(text, needle):
    with pytest.raises(ParseError, match=needle):
        p(text)
