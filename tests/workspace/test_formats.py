"""Tab switching in every action format: written as the browser's Ctrl+N, read back as that chord, which the
workspace env takes as the switch (agent_harness/formats/base.py's as_action, gym_core/workspace_env.py)."""

from __future__ import annotations

import pytest

from agent_harness.formats import FORMATS, FormatContext, RenderError
from gym_core.workspace_env import tab_shortcut
from seed_data.workspace import APPS


@pytest.mark.parametrize("fmt", sorted(FORMATS))
@pytest.mark.parametrize("tab", ["mail", "food", "crm", 1, 3])
def test_switch_tab_round_trips_as_the_tab_shortcut(fmt, tab):
    f, ctx = FORMATS[fmt], FormatContext()
    rendered = f.render({"type": "switch_tab", "tab": tab}, ctx)
    [action] = f.parse(rendered.reply(), ctx).actions
    want = APPS.index(tab) if isinstance(tab, str) else tab - 1
    assert action["type"] == "keypress" and tab_shortcut(action["keys"]) == want, (fmt, rendered, action)


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_a_tab_that_is_not_there_cannot_be_written(fmt):
    with pytest.raises(RenderError):
        FORMATS[fmt].render({"type": "switch_tab", "tab": "calendar"}, FormatContext())


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_an_sft_export_keeps_a_workspace_episodes_tab_switches_and_tells_its_tabs(fmt):
    """`uigym export sft` writes a recorded switch_tab as the format's Ctrl+N (a sample, not a skipped step, as it was
    before), and a workspace episode's prompt lists the tabs as the eval's did; a single-app episode's does not."""
    from agent_harness.export.prompts import EpisodePrompter
    from agent_harness.export.sft import _tabs, target_for

    tabs = _tabs({"app": "workspace", "mode": "ui"})
    assert tabs == tuple(APPS) and _tabs({"app": "workspace", "mode": "tools"}) == () and _tabs({"app": "mail"}) == ()
    prompter = EpisodePrompter(fmt, (1280, 720), tabs=tabs)
    rendered, parsed = target_for(prompter.format, {"type": "switch_tab", "tab": "crm"}, prompter.ctx)
    assert [tab_shortcut(a["keys"]) for a in parsed] == [APPS.index("crm")], rendered
    assert "Ctrl+1 to Ctrl+3" in prompter.agent.system_message()
    assert "Ctrl+1 to" not in EpisodePrompter(fmt, (1280, 720)).agent.system_message()
