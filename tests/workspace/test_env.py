"""The workspace env (gym_core/workspace_env.py): three apps over one workspace world, in tabs or as one tool list."""

from __future__ import annotations

import warnings

import gymnasium
import pytest
from gymnasium.utils.env_checker import check_env

import gym_core  # noqa: F401  (registers uigym/workspace*-v0)
from gym_core.actions import ActionError, parse_action, WORKSPACE_ACTION_TYPES
from gym_core.config import EnvConfig
from gym_core.workspace_env import AsyncWorkspaceEnv, looks_by_app, split_tool, tab_index, tab_shortcut
from seed_data import workspace as ws

SMALL = (640, 400)


# ------------------------------------------------------------------------------------------ no browser
def test_tab_names_numbers_and_shortcuts():
    assert [tab_index(t) for t in ("mail", "FOOD", " crm ", 1, "2", 3)] == [0, 1, 2, 0, 1, 2]
    for bad in (0, 4, "4", "calendar", True, None, 1.0):
        with pytest.raises(ActionError):
            tab_index(bad)
    assert tab_shortcut(["Control", "1"]) == 0 and tab_shortcut(["ctrl", "3"]) == 2 and tab_shortcut(["Meta", "2"]) == 1
    assert tab_shortcut(["Control", "4"]) is None and tab_shortcut(["Control", "a"]) is None
    assert tab_shortcut(["1"]) is None
    assert split_tool("crm_create_case") == ("crm", "create_case")
    for bad in ("create_case", "calendar_x", "mail_", "_x"):
        with pytest.raises(ActionError):
            split_tool(bad)


def test_a_look_goes_to_the_app_that_has_it():
    """A look named for the workspace reaches the tab whose app has it; the others keep their default (a named
    look was passed to all three apps, and two of them refused it)."""
    assert looks_by_app(None) == {"mail": None, "food": None, "crm": None}
    assert looks_by_app("outlook") == {"mail": "outlook", "food": None, "crm": None}
    assert looks_by_app("outlook,hubspot") == {"mail": "outlook", "food": None, "crm": "hubspot"}
    assert looks_by_app(["gmail", "outlook", "ubereats"]) == {"mail": ["gmail", "outlook"], "food": "ubereats",
                                                               "crm": None}
    assert looks_by_app("random") == dict.fromkeys(ws.APPS, "random")
    assert looks_by_app({"crm": "hubspot"}) == {"mail": None, "food": None, "crm": "hubspot"}
    with pytest.raises(ValueError, match="no app of the workspace has the look 'teams'.*mail: gmail, outlook"):
        looks_by_app("outlook,teams")
    with pytest.raises(ValueError, match="no app 'calendar'"):
        looks_by_app({"calendar": "x"})


def test_switch_tab_is_an_action_only_where_there_are_tabs():
    assert parse_action({"type": "switch_tab", "tab": "crm"}, WORKSPACE_ACTION_TYPES["ui"]).tab == "crm"
    assert parse_action({"type": "switch_tab", "tab": 2}, WORKSPACE_ACTION_TYPES["hybrid"]).tab == 2
    with pytest.raises(ActionError):
        parse_action({"type": "switch_tab", "tab": "crm"})  # a single-app env: no such action
    with pytest.raises(ActionError):
        parse_action({"type": "switch_tab", "tab": "crm"}, WORKSPACE_ACTION_TYPES["tools"])
    with pytest.raises(ActionError):
        parse_action({"type": "switch_tab"}, WORKSPACE_ACTION_TYPES["ui"])


async def test_tools_mode_lists_and_routes_the_three_apps_tools(runtime):
    env = AsyncWorkspaceEnv("tools", runtime=runtime)
    try:
        obs, info = await env.reset(seed=0)
        assert set(obs) == {"goal", "step", "last_action_error", "tool_result"}
        names = [t["function"]["name"] for t in info["tools"]]
        assert names[-2:] == ["wait", "done"] and len(names) == len(set(names))
        assert {n.split("_", 1)[0] for n in names[:-2]} == set(ws.APPS)
        assert {"mail_send_email", "crm_list_users", "crm_close_case", "food_list_stores"} <= set(names)
        assert {app: r["family"] for app, r in info["reset"].items()} == {a: "workspace" for a in ws.APPS}
        assert {r["now"] for r in info["reset"].values()} == {ws.NOW.isoformat()}
        # One cast: the CRM's users are the people of the mailbox.
        obs, *_ = await env.step({"type": "tool", "name": "crm_list_users", "args": {}})
        assert not obs["last_action_error"] and '"is_me":true' in obs["tool_result"]
        obs, *_ = await env.step({"type": "tool", "name": "calendar_list", "args": {}})
        assert "a workspace tool is named" in obs["last_action_error"]
        obs, *_ = await env.step({"type": "tool", "name": "food_no_such_tool", "args": {}})
        assert "unknown tool" in obs["last_action_error"]
        end = await env.end_state()
        assert set(end) == set(ws.APPS) and all(end[a]["_meta"]["family"] == "workspace" for a in ws.APPS)
        me = next(u for u in end["crm"]["users"] if u["id"] == 1)  # the CRM's "you" is the mailbox and the customer
        assert end["mail"]["account"][0]["email"] == me["email"] == end["food"]["users"][0]["email"]
        obs, reward, terminated, truncated, info = await env.step({"type": "done"})
        assert (reward, terminated, obs["step"]) == (0.0, True, 4)
        # A look reaches its own app's world only.
        obs, info = await env.reset(seed=0, look="hubspot")
        assert {app: e.look for app, e in env.envs.items()} == {"mail": "gmail", "food": "doordash", "crm": "hubspot"}
    finally:
        await env.close()


# --------------------------------------------------------------------------------------------- screen
async def test_screen_tabs_switch_by_action_and_shortcut_and_stay_on_their_origin(runtime):
    env = AsyncWorkspaceEnv("ui", config=EnvConfig(viewport=SMALL), runtime=runtime)
    try:
        obs, info = await env.reset(seed=0)
        assert (obs["tab"], info["tabs"], obs["url"]) == ("mail", list(ws.APPS), "/inbox")
        assert obs["screenshot"].shape == (SMALL[1], SMALL[0], 3)
        obs, *_ = await env.step({"type": "switch_tab", "tab": "crm"})
        assert (obs["tab"], obs["last_action_error"]) == ("crm", "") and obs["url"].startswith("/lightning/")
        obs, *_ = await env.step({"type": "keypress", "keys": ["Control", "2"]})
        assert obs["tab"] == "food" and not obs["last_action_error"]
        obs, *_ = await env.step({"type": "switch_tab", "tab": 7})
        assert obs["tab"] == "food" and "no tab 7" in obs["last_action_error"]
        obs, *_ = await env.step({"type": "switch_tab", "tab": 1})
        assert (obs["tab"], obs["url"]) == ("mail", "/inbox")
        # The guard holds for each tab: another app's origin is as unreachable as any other site.
        crm_url = env.envs["crm"].server.url
        await env.front.page.evaluate(f"location.href = {crm_url + '/lightning/page/home'!r}")
        obs, *_ = await env.step({"type": "wait", "ms": 200})
        assert "ERR_BLOCKED_BY_CLIENT" in obs["last_action_error"]
        # Reset again: every tab back to the start, mail in front.
        obs, info = await env.reset(seed=0)
        assert (obs["tab"], obs["step"], obs["url"]) == ("mail", 0, "/inbox") and env.opened == {"mail"}
    finally:
        await env.close()


async def test_a_tabs_overlays_add_their_closing_clicks_to_the_budget(runtime):
    """Under the overlays perturbation each tab's drawn overlays cost clicks to close: the workspace's step budget
    grows by all three tabs' (it grew by none), as a single-app env's does by its own."""
    from gym_core.perturb import extra_steps

    env = AsyncWorkspaceEnv("ui", config=EnvConfig(viewport=SMALL, perturb="overlays", max_steps=20), runtime=runtime)
    try:
        extras = []
        for seed in range(4):
            await env.reset(seed=seed)
            extra = sum(extra_steps(e.drawn) for e in env.envs.values())
            assert env.max_steps == 20 + extra
            extras.append(extra)
        assert any(extras), extras  # some draw put an overlay up
    finally:
        await env.close()


@pytest.mark.parametrize("env_id", [
    "uigym/workspace-hybrid-v0",
    pytest.param("uigym/workspace-v0", marks=pytest.mark.slow),
    pytest.param("uigym/workspace-tools-v0", marks=pytest.mark.slow),
])
def test_check_env(env_id):
    """Gymnasium's checker, through gym.make's passive checker (a warning fails). The hybrid id has the screen's
    observation and every action type of the other two modes, so it is the one in the default run; the screen
    and tools ids run under `-m slow` (each id starts app servers and a browser of its own: a minute on a busy
    2-core machine)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env = gymnasium.make(env_id, viewport=SMALL)
        try:
            obs, info = env.reset(seed=0)
            assert set(obs) == set(env.observation_space.spaces)
            env.action_space.seed(0)
            for _ in range(3):
                obs, _r, terminated, truncated, _i = env.step(env.action_space.sample())
                assert obs in env.observation_space
                if terminated or truncated:
                    env.reset(seed=0)
            check_env(env.unwrapped)
        finally:
            env.close()


async def test_a_model_agent_is_told_the_tabs_of_a_screen_with_tabs():
    """The eval's model agent reads the env's tabs (none in tools mode) into its format's context, so its system
    prompt says how to switch tabs and wait (agent_harness/formats/base.py tabs_and_waiting)."""
    from types import SimpleNamespace

    from agent_harness.agents.model import ModelAgent

    assert AsyncWorkspaceEnv("ui").tab_names == ws.APPS and AsyncWorkspaceEnv("hybrid").tab_names == ws.APPS
    assert AsyncWorkspaceEnv("tools").tab_names == ()
    env = SimpleNamespace(width=1280, height=720, tab_names=ws.APPS, config=SimpleNamespace(tools=False))
    agent = ModelAgent(model="m", base_url="http://127.0.0.1:9/v1")
    await agent.reset(env, None)
    assert agent.ctx.tabs == ws.APPS and "Ctrl+1 to Ctrl+3" in agent.system_message()
