"""Tool mode's seam on the toy app: typed tools, refused calls that change nothing, the control API's tool
routes, the tools env (no browser) and the hybrid env (screen + tools), graded by the same verifier."""

from __future__ import annotations

import gymnasium
import pytest
from gymnasium.utils.env_checker import check_env

from apps._shared.tools import MAX_STRING, ToolError, ToolSet
from gym_core import AsyncToolEnv, AsyncUIEnv, EnvConfig
from gym_core.runtime import Runtime
from gym_core.server import ServerPool
from gym_core.spaces import ToolActionSpace, tool_observation_space
from gym_core.sync_env import UIEnv
from tests.fixture_apps import toy
from tests.harness.toy_tasks import TASKS, TOY_MODULE

TOKEN = {"X-Gym-Token": "t"}


@pytest.fixture
def toy_app(tmp_path):
    app = toy.create_app({"UIGYM_HOME": str(tmp_path), "GYM_TOKEN": "t", "TESTING": True})
    app.extensions["uigym_worlds"].reset("w1", 1, None, [])
    app.extensions["uigym_worlds"].reset("w2", 1, None, [])
    return app


def state(app, wid="w1"):
    return app.extensions["uigym_worlds"].state(wid)


# ---------------------------------------------------------------------------------------- the ToolSet

def test_schemas_come_from_the_signatures_with_descriptions():
    described = {t["name"]: t for t in toy.TOOLS.describe()}
    assert list(described) == ["list_notes", "star_note", "add_notes"]
    star = described["star_note"]["input_schema"]
    assert star["required"] == ["note_id"] and star["properties"]["note_id"]["type"] == "integer"
    assert star["properties"]["starred"]["default"] is True and star["additionalProperties"] is False
    assert "the note's id" in star["properties"]["note_id"]["description"]
    assert described["star_note"]["description"].startswith("Star (or")
    fn = toy.TOOLS.openai()[1]
    assert fn["type"] == "function" and fn["function"]["name"] == "star_note" and fn["function"]["parameters"] == star


def test_a_tool_needs_a_docstring_typed_parameters_and_a_free_name():
    ts = ToolSet("x")
    with pytest.raises(ValueError, match="docstring"):
        def bare(a: int): ...
        ts.tool(bare)
    with pytest.raises(ValueError, match="snake_case"):
        ts.tool(lambda a: a)
    with pytest.raises(ValueError, match="needs a type"):
        def untyped(a):
            """doc"""
        ts.tool(untyped)
    with pytest.raises(ValueError, match="reserved 'done'"):
        def done() -> None:
            """doc"""
        ts.tool(done)


BAD_CALLS = [
    ("no_such_tool", {}, "unknown tool 'no_such_tool'"),
    ("star_note", {}, "'note_id' is required"),
    ("star_note", {"note_id": "two"}, "'note_id': Input should be a valid integer"),
    ("star_note", {"note_id": 2, "color": "red"}, "'color' is not an argument"),
    ("star_note", {"note_id": 99}, "no note with id 99"),
    ("star_note", [2], "must be a JSON object"),
    ("add_notes", {"titles": ["x" * (MAX_STRING + 1)]}, "longer than"),
    ("add_notes", {"titles": ["ok", "fine", " "]}, "nothing was added"),  # two flushed rows, rolled back
    ("add_notes", {"titles": []}, "'titles'"),
    ("add_notes", {"titles": [float("nan")]}, "plain JSON"),
]


@pytest.mark.parametrize("name, args, message", BAD_CALLS, ids=[f"{n}-{m[:20]}" for n, _, m in BAD_CALLS])
def test_a_refused_call_says_why_and_changes_nothing(toy_app, name, args, message):
    before = state(toy_app)
    with pytest.raises(ToolError, match=message.replace("(", r"\(")):
        toy.TOOLS.call(toy_app, "w1", name, args)
    assert state(toy_app) == before


def test_a_call_commits_in_its_own_world_only(toy_app):
    other = state(toy_app, "w2")
    assert toy.TOOLS.call(toy_app, "w1", "star_note", {"note_id": 2}) == {"id": 2, "starred": True}
    assert toy.TOOLS.call(toy_app, "w1", "add_notes", {"titles": ["A", "B"]}) == {"added": 2}
    notes = state(toy_app)["notes"]
    assert [n["starred"] for n in notes][:5] == [False, True, False, False, False] and len(notes) == 7
    assert state(toy_app, "w2") == other


# ---------------------------------------------------------------------------------- the control API

def test_control_api_lists_and_calls_tools_with_4xx_for_mistakes(toy_app):
    ctl = toy_app.extensions["uigym_control"].test_client()
    listed = ctl.get("/tools", headers=TOKEN).json
    assert listed["app"] == "toy" and [t["name"] for t in listed["tools"]] == ["list_notes", "star_note", "add_notes"]
    r = ctl.post("/worlds/w1/tools/star_note", json={"note_id": 3}, headers=TOKEN)
    assert r.status_code == 200 and r.json == {"result": {"id": 3, "starred": True}}
    before = state(toy_app)
    for path, body, code in [("/worlds/w1/tools/star_note", {"note_id": "x"}, 422),
                             ("/worlds/w1/tools/nope", {}, 422),
                             ("/worlds/nope/tools/list_notes", {}, 400),
                             ("/worlds/w1/tools/star_note", b"{not json", 400),
                             ("/worlds/w1/tools/star_note", [1, 2], 400)]:
        kw = {"data": body, "content_type": "application/json"} if isinstance(body, bytes) else {"json": body}
        r = ctl.post(path, headers=TOKEN, **kw)
        assert r.status_code == code and r.json["error"], (path, body, r.status_code, r.json)
    assert state(toy_app) == before
    assert ctl.post("/worlds/w1/tools/list_notes", json={}).status_code == 403  # the token is still the lock


# --------------------------------------------------------------------------------- the envs

@pytest.fixture
async def toy_runtime(tmp_path):
    """A runtime whose "mail" is the toy app (the toy tasks are "mail" tasks)."""
    rt = Runtime(servers=ServerPool(home=str(tmp_path), modules={"mail": TOY_MODULE}))
    yield rt
    await rt.close()
    rt.servers.close()


async def test_tools_env_plays_with_function_calls_and_no_browser(toy_runtime):
    env = AsyncToolEnv("mail", runtime=toy_runtime)
    try:
        obs, info = await env.reset(task=TASKS[0])
        assert set(obs) == {"goal", "step", "last_action_error", "tool_result"} and obs["goal"] == TASKS[0]["goal"]
        assert [t["function"]["name"] for t in info["tools"]] == ["list_notes", "star_note", "add_notes", "done"]
        obs, r, term, trunc, _ = await env.step({"type": "tool", "name": "list_notes"})
        assert '"title":"Note 1-2"' in obs["tool_result"] and obs["last_action_error"] == "" and r == 0.0
        obs, *_ = await env.step({"type": "tool", "name": "star_note", "args": {"note_id": 42}})
        assert "no note with id 42" in obs["last_action_error"] and obs["tool_result"] == ""
        obs, *_ = await env.step({"type": "click", "x": 1, "y": 1})
        assert "unknown action type 'click'" in obs["last_action_error"]
        obs, r, term, trunc, info = await env.step({"type": "tool", "name": "star_note", "args": {"note_id": 2}})
        assert obs["tool_result"] == '{"id":2,"starred":true}' and not (term or trunc)
        obs, r, term, trunc, info = await env.step({"type": "done"})
        assert term and r == 1.0 and info["graded"] and obs["step"] == 5
        assert not toy_runtime._browsers  # tool mode never started a browser
    finally:
        await env.close()


@pytest.mark.parametrize("which, expected", [("solution", 1.0), ("near_miss", 0.0), ("noop", 0.0)])
async def test_tools_env_grades_each_toy_task_with_its_verifier(toy_runtime, which, expected):
    from tasks import Task
    from tasks.schema import ToolCall

    for raw in TASKS:
        task = Task.model_validate(raw)
        calls = {"solution": task.tools.solution, "near_miss": task.tools.near_misses[0],
                 "noop": [ToolCall(tool="done")]}[which]
        env = AsyncToolEnv("mail", runtime=toy_runtime)
        try:
            await env.reset(task=task)
            for call in calls:
                action = {"type": "done", **call.args} if call.tool == "done" else \
                    {"type": "tool", "name": call.tool, "args": call.args}
                obs, reward, term, trunc, info = await env.step(action)
                assert obs["last_action_error"] == "", (task.id, call)
            assert term and reward == expected, (task.id, which, info["verify"])
        finally:
            await env.close()


async def test_hybrid_env_has_screen_and_tools_and_the_screen_follows_the_tools(runtime):
    env = AsyncUIEnv(TOY_MODULE, config=EnvConfig(tools=True, viewport=(640, 400)), runtime=runtime)
    try:
        obs, info = await env.reset(seed=1)
        assert "tool_result" in obs and info["tools"][-1]["function"]["name"] == "done"
        assert "Unstar Note 1-2" not in await env.page.content()
        obs, *_ = await env.step({"type": "tool", "name": "star_note", "args": {"note_id": 2}})
        assert obs["last_action_error"] == "" and obs["tool_result"] == '{"id":2,"starred":true}'
        assert "Unstar Note 1-2" in await env.page.content()  # the page was loaded again
        obs, *_ = await env.step({"type": "move", "x": 5, "y": 5})
        assert obs["last_action_error"] == "" and obs["tool_result"] == '{"id":2,"starred":true}'
    finally:
        await env.close()


def test_the_ui_env_refuses_tool_actions_unless_hybrid():
    from gym_core.actions import ActionError, parse_action

    with pytest.raises(ActionError, match="unknown action type 'tool'"):
        parse_action({"type": "tool", "name": "star_note"})


def test_tool_mode_spaces():
    space = ToolActionSpace(("list_notes", "star_note"), seed=3)
    drawn = [space.sample() for _ in range(40)]
    assert {a["type"] for a in drawn} == {"tool", "done"} and all(space.contains(a) for a in drawn)
    assert not space.contains({"type": "click", "x": 0, "y": 0})
    assert set(tool_observation_space(EnvConfig()).spaces) == {"goal", "step", "last_action_error", "tool_result"}


@pytest.mark.filterwarnings("error")
def test_check_env_on_a_tools_env_of_the_toy():
    if "uigymtest/toy-tools-v0" not in gymnasium.registry:
        gymnasium.register("uigymtest/toy-tools-v0", entry_point="gym_core.sync_env:UIEnv",
                           kwargs={"app": TOY_MODULE, "mode": "tools"})
    env = gymnasium.make("uigymtest/toy-tools-v0")
    try:
        assert env.unwrapped.render_mode is None
        assert env.action_space.tool_names == ("list_notes", "star_note", "add_notes")
        check_env(env.unwrapped)
    finally:
        env.close()


def test_registered_modes():
    assert gymnasium.spec("uigym/mail-tools-v0").kwargs == {"app": "mail", "mode": "tools"}
    assert gymnasium.spec("uigym/crm-hybrid-v0").kwargs == {"app": "crm", "mode": "hybrid"}
    with pytest.raises(ValueError, match="mode must be one of"):
        UIEnv("mail", mode="voice")
