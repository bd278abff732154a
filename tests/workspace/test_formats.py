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
