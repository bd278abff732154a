"""The environment's tools are the `gym` format's tools: TRL's schemas of the env methods equal the format's
(so SFT data, rollouts and `uigym eval --format gym` show the model the same tools), and the eval agent's
`tool_screenshots` layout is the rollouts' layout."""

from __future__ import annotations

import pytest

from agent_harness.formats import FormatContext, ParseError, get_format
from agent_harness.formats.gym_tools import TOOLS
from agent_harness.train.env import EnvSettings, UIGymToolEnv


def test_trl_sees_the_gym_format_tools():
    tf = pytest.importorskip("transformers.utils")
    env = UIGymToolEnv(EnvSettings())
    import inspect

    public = sorted(n for n, _ in inspect.getmembers(UIGymToolEnv, predicate=inspect.isfunction)
                    if not n.startswith("_") and n not in ("reset", "get_reward"))
    assert public == sorted(t["function"]["name"] for t in TOOLS)  # TRL exposes exactly these
    for t in TOOLS:
        assert tf.get_json_schema(getattr(env, t["function"]["name"])) == t


def test_gym_calls_map_to_uigym_actions_in_screen_pixels():
    fmt = get_format("gym")
    ctx = FormatContext(screen=(1280, 720), image=(640, 360))
    assert fmt.action("click", {"x": 100, "y": 50}, ctx) == {"type": "click", "x": 200, "y": 100, "button": "left"}
    assert fmt.action("drag", {"x1": 1, "y1": 2, "x2": 3, "y2": 4}, ctx)["path"] == [[2, 4], [6, 8]]
    assert fmt.action("type_text", {"text": "hi"}, ctx) == {"type": "type", "text": "hi"}
    assert fmt.action("done", {"answer": ""}, ctx) == {"type": "done"}
    assert fmt.action("keypress", {"keys": ["ctrl", "a"]}, ctx) == {"type": "keypress", "keys": ["Control", "a"]}
    with pytest.raises(ParseError, match="unknown tool"):
        fmt.action("move", {"x": 1, "y": 1}, ctx)
    with pytest.raises(ParseError, match="takes no argument"):
        fmt.action("click", {"x": 1, "y": 1, "z": 3}, ctx)


def test_tool_result_text_is_cut_to_its_token_budget():
    s = EnvSettings(result_text_tokens=20, count_tokens=lambda t: len(t.split()))
    text = "The last action failed: " + "very " * 50 + "long\nCurrent URL: /x\nStep 3. The screenshot shows it."
    cut = s.cut_text(text)
    assert len(cut.split()) <= 20 and cut.endswith("Step 3. The screenshot shows it.")
    assert s.cut_text("short\nStep 1.") == "short\nStep 1."


def test_eval_agent_tool_screenshots_layout_matches_the_rollouts():
    from agent_harness.export.prompts import EpisodePrompter

    p = EpisodePrompter("gym", (1280, 720), max_pixels=6272, history_images=10, tool_screenshots=True)
    first = p.observe(goal="Star the note.", url="/", step=0, error="", image=0)
    assert [m["role"] for m in first] == ["system", "user"]
    p.act(p.format.render({"type": "click", "x": 640, "y": 360}, p.ctx))
    second = p.observe(goal="Star the note.", url="/x", step=1, error="", image=1)
    assert [m["role"] for m in second] == ["system", "user", "assistant", "tool"]
    tool = second[-1]["content"]
    assert tool[0]["text"] == "Current URL: /x\nStep 1. The screenshot shows the browser now. What is the next action?"
    assert tool[1]["type"] == "image_url"
