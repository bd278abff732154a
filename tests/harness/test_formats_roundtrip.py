"""Every format writes every action it can express so that its own parser reads back the same action,
under plain, resized and 0-1000 coordinates; and the texts are the ones the SFT export will train on."""

from __future__ import annotations

import pytest

from agent_harness.formats import FORMATS, FormatContext, RenderError, get_format, parse, render, sample_actions
from agent_harness.formats.base import WHEN_NOT_TO_ACT, as_action

SIZES = [("abs", None), ("abs", (1092, 616)), ("abs", (640, 360)), ("rel1000", None)]


def close(got: dict, want: dict, tol: int) -> bool:
    if got.keys() != want.keys():
        return False
    for k, v in want.items():
        if k in ("x", "y"):
            if abs(got[k] - v) > tol:
                return False
        elif k == "path":
            if len(got[k]) != len(v) or any(abs(a - b) > tol for p, q in zip(got[k], v) for a, b in zip(p, q)):
                return False
        elif got[k] != v:
            return False
    return True


@pytest.mark.parametrize("coords,image", SIZES, ids=[f"{c}-{i}" for c, i in SIZES])
@pytest.mark.parametrize("name", list(FORMATS))
def test_render_then_parse_gives_the_same_action(name, coords, image):
    fmt = get_format(name)
    ctx = FormatContext(screen=(1280, 720), image=image, coords=coords)
    mw = ctx.model_size[0]
    tol = max(1, round(1280 / mw / 2 + 0.5))  # one model pixel, in screen pixels
    rendered = 0
    for a in sample_actions():
        try:
            r = fmt.render(a, ctx, thought="I will do the next step.")
        except RenderError:
            continue
        rendered += 1
        # Read back both as a server with a tool parser returns it and as raw text.
        for reply in (r.reply(), r.text(), r.message()):
            got = fmt.parse(reply, FormatContext(screen=(1280, 720), image=image, coords=coords)).actions
            assert len(got) == 1 and close(got[0], as_action(a), tol), (name, a, reply, got)
    assert rendered >= 11  # every format expresses nearly all of uigym's actions


def test_module_level_render_and_parse():
    r = render("uitars", {"type": "click", "x": 640, "y": 360}, (1280, 720), (1092, 616))
    assert r.content.endswith("Action: click(start_box='(546,308)')")
    assert parse("uitars", r.content, (1280, 720), (1092, 616)) == [{"type": "click", "x": 640, "y": 360, "button": "left"}]
    many = render("json", [{"type": "click", "x": 1, "y": 2}, {"type": "type", "text": "hi"}])
    assert [tc.name for tc in many.tool_calls] == ["click", "type"]
    assert parse("json", many.message()) == [{"type": "click", "x": 1, "y": 2, "button": "left"},
                                             {"type": "type", "text": "hi"}]


@pytest.mark.parametrize("name", list(FORMATS))
def test_each_format_has_a_prompt_naming_the_screen(name):
    fmt = get_format(name)
    ctx = FormatContext(screen=(1280, 720), image=(1092, 616))
    text = fmt.system_prompt(ctx)
    assert "1092" in text and len(text) > 200
    if fmt.uses_tools:
        tools = fmt.tools(ctx)
        assert tools and all(t["type"] == "function" and t["function"]["parameters"]["type"] == "object" for t in tools)
    rel = fmt.system_prompt(FormatContext(screen=(1280, 720), coords="rel1000"))
    assert "1000" in rel
    # and every format tells the model when not to act, in the same words (the judgement tasks' refusal form)
    assert text.startswith(fmt.action_prompt(ctx).rstrip()) and text.endswith(WHEN_NOT_TO_ACT)


@pytest.mark.parametrize("name", list(FORMATS))
def test_a_screen_with_tabs_is_told_how_to_switch_and_wait(name):
    """The workspace env's three tabs: every format's prompt says Ctrl+N brings tab N to the front and that replies
    take a wait, before the when-not-to-act sentence; a one-app screen's prompt says neither."""
    from agent_harness.formats.base import tabs_and_waiting

    fmt = get_format(name)
    tabbed = fmt.system_prompt(FormatContext(screen=(1280, 720), tabs=("mail", "food", "crm")))
    assert tabs_and_waiting(("mail", "food", "crm")) in tabbed and tabbed.endswith(WHEN_NOT_TO_ACT)
    assert "1 mail, 2 food, 3 crm" in tabbed and "Ctrl+1 to Ctrl+3" in tabbed and "wait" in tabbed
    assert "Ctrl+1 to" not in fmt.system_prompt(FormatContext(screen=(1280, 720)))


def test_a_point_too_large_to_scale_is_a_parse_error():
    """1e308 is a finite number, infinite once scaled to the screen: a parse error, never an OverflowError (found by
    test_format_fuzz for pyautogui's `pyautogui.click(1e308, 96)`)."""
    from agent_harness.formats.base import ParseError

    ctx = FormatContext(screen=(1280, 720), image=(1280, 720))
    with pytest.raises(ParseError, match="beyond any screen"):
        ctx.to_screen(1e308, 96)
    with pytest.raises(ParseError):
        get_format("pyautogui").parse("```python\npyautogui.click(1e308, 96)\n```", ctx)


def test_coordinates_scale_between_model_image_and_screen():
    ctx = FormatContext(screen=(1280, 720), image=(640, 360))
    assert ctx.to_model(1279, 719) == (640, 360) and ctx.to_screen(320, 180) == (640, 360)
    assert ctx.to_screen(640, 360) == (1279, 719)  # the far edge is pulled onto the screen
    rel = FormatContext(screen=(1280, 720), coords="rel1000")
    assert rel.to_screen(500, 500) == (640, 360) and rel.to_model(1280 // 4, 720 // 4) == (250, 250)
    assert FormatContext(screen=(1280, 720)).to_screen(1500, 10) == (1500, 10)  # off-screen stays off (env refuses it)
    with pytest.raises(ValueError):
        FormatContext(coords="percent")
