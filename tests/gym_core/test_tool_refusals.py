"""An episode never crashes on what an agent sends (issue 42): every malformed tool call, through a real
env's step (the tools env on the mail clone, the hybrid env on the toy app), costs one step and is reported
in `last_action_error`; the world is unchanged, and the episode goes on."""

from __future__ import annotations

import json

import pytest

from apps.tool_args import INT_MAX, INT_MIN, MAX_DEPTH, ToolError
from gym_core import AsyncToolEnv, AsyncUIEnv, EnvConfig
from gym_core.runtime import Runtime
from gym_core.server import ControlClient, ServerPool, ToolCallError
from gym_core.spaces import tool_observation_space
from tests.fixture_apps import toy
from tests.harness.toy_tasks import TOY_MODULE


def nested(levels: int, leaf=1):
    v = leaf
    for _ in range(levels):
        v = [v]
    return v


def tool(name: str, **args) -> dict:
    return {"type": "tool", "name": name, "args": args}


DEEP_JSON_ACTION = '{"type": "tool", "name": "read_conversation", "args": {"thread_id": %s}}' % ("[" * 50_000 + "]" * 50_000)

# (action, a phrase of the error): what the agent sends, on the mail clone's tools.
MAIL_HOSTILE = [
    (tool("."), "unknown tool '.'"),
    (tool(".."), "unknown tool '..'"),
    (tool("star/../../health"), "unknown tool 'star/../../health'"),
    (tool("%2e%2e"), "unknown tool"),
    (tool("名前"), "unknown tool"),
    (tool("done"), "unknown tool 'done'"),  # the env's own done is an action, not an app tool
    ({"type": "tool", "name": ""}, "bad tool action"),
    (tool("read_conversation", thread_id=INT_MAX + 1), "out of range"),
    (tool("read_conversation", thread_id=INT_MIN - 1), "out of range"),
    (tool("archive", thread_ids=[1, 2**64]), "out of range"),
    (tool("read_conversation", thread_id="9" * 30), "out of range"),  # a string the int field reads
    (tool("read_conversation", thread_id=nested(MAX_DEPTH)), f"nested deeper than {MAX_DEPTH} levels"),
    (tool("read_conversation", thread_id=nested(5000)), f"nested deeper than {MAX_DEPTH} levels"),
    (tool("search_mail", query="caf\ud800e"), "lone surrogate"),
    ({"type": "tool", "name": "search_mail", "args": {"query": "x", "\udfff": 1}}, "lone surrogate"),
    (tool("search_mail", query=float("nan")), "NaN"),
    (tool("search_mail", query={1, 2}), "not set"),
    (tool("search_mail", query=1j), "not complex"),
    (tool("search_mail", query=object()), "not object"),
    (DEEP_JSON_ACTION, "nested too deeply"),
    ('{"type": "tool", "name": "read_conversation", "args": {"thread_id": 123456789012345678901234567890}}', "out of range"),
    ('{"type": "tool", "name": "read_conversation", "args": {"thread_id": %s}}' % ("9" * 5000), "cannot be read"),
    (tool("read_conversation", thread_id=10**5000), "out of range"),  # over 4300 digits: no repr, still a message
    (tool("read_conversation", thread_id=999_999), "999999"),  # an ordinary mistake, for comparison
]


@pytest.fixture
async def mail_runtime(tmp_path):
    rt = Runtime(servers=ServerPool(home=str(tmp_path)))
    yield rt
    await rt.close()
    rt.servers.close()


async def test_the_tools_env_reports_every_malformed_call_and_goes_on(mail_runtime):
    env = AsyncToolEnv("mail", runtime=mail_runtime)
    space = tool_observation_space(env.config)
    try:
        await env.reset(seed=0)
        before = await env.state()
        for i, (action, phrase) in enumerate(MAIL_HOSTILE, start=1):
            obs, reward, term, trunc, info = await env.step(action)
            assert phrase in obs["last_action_error"], (action if isinstance(action, dict) else action[:80], obs)
            assert obs["step"] == i and obs["tool_result"] == "" and reward == 0.0 and not term
            assert space.contains(obs), obs["last_action_error"]
            json.dumps(env.trajectory[-1])  # what an episode records stays plain JSON
        assert await env.state() == before  # nothing a refused call sent changed the world
        obs, *_ = await env.step(tool("list_labels"))
        assert obs["last_action_error"] == "" and obs["tool_result"].startswith("[")  # the episode goes on
        obs, reward, term, trunc, info = await env.step({"type": "done"})
        assert term and obs["step"] == len(MAIL_HOSTILE) + 2
    finally:
        await env.close()


async def test_the_control_client_checks_the_name_and_arguments_before_it_sends(mail_runtime):
    """No URL is built from a name the app does not list; arguments no tool could take are not sent."""
    server = await mail_runtime.server("mail")
    sent: list[str] = []

    import httpx

    async def record(request: httpx.Request):
        sent.append(request.url.path)

    async with httpx.AsyncClient(event_hooks={"request": [record]}) as http:
        control = ControlClient(server, http)
        await control.reset("w", 0, None, [])
        sent.clear()
        for name, args in [("..", {}), ("star/../../health", {}), (".", {}), (None, {}), (3, {}),
                           ("read_conversation", {"thread_id": 2**63}), ("read_conversation", {"x": nested(3000)}),
                           ("read_conversation", [1]), ("search_mail", {"query": "\ud800"})]:
            with pytest.raises(ToolCallError):
                await control.call_tool("w", name, args)
        assert sent == ["/tools"]  # the tool list, fetched once; no call was sent
        with pytest.raises(ToolCallError, match="999999"):
            await control.call_tool("w", "read_conversation", {"thread_id": 999_999})
        assert sent[-1] == "/worlds/w/tools/read_conversation"


async def test_the_hybrid_env_reports_malformed_calls_and_goes_on(runtime):
    env = AsyncUIEnv(TOY_MODULE, config=EnvConfig(tools=True, viewport=(640, 400)), runtime=runtime)
    try:
        await env.reset(seed=1)
        before = await env.state()
        cases = [(tool(".."), "unknown tool '..'"), (tool("star/../../health"), "unknown tool"),
                 (tool("star_note", note_id=2**63), "out of range"),
                 (tool("star_note", note_id=nested(40)), "nested deeper"),
                 (tool("add_notes", titles=["\udc00"]), "lone surrogate"),
                 ('{"type": "tool", "name": "star_note", "args": %s}' % ("{" * 3000), "not valid JSON"),
                 ('{"type": "tool", "name": "star_note", "args": {"note_id": %s}}' % ("[" * 50_000 + "]" * 50_000),
                  "nested too deeply")]
        for i, (action, phrase) in enumerate(cases, start=1):
            obs, reward, term, trunc, _ = await env.step(action)
            assert phrase in obs["last_action_error"] and obs["step"] == i and not (term or trunc), obs["last_action_error"]
        assert await env.state() == before
        obs, *_ = await env.step(tool("star_note", note_id=2))
        assert obs["last_action_error"] == "" and obs["tool_result"] == '{"id":2,"starred":true}'
    finally:
        await env.close()


def test_the_seam_refuses_an_int_field_read_from_a_long_digit_string():
    """pydantic reads "999...9" into an int field: the seam checks the validated value's range too."""
    with pytest.raises(ToolError, match="out of range"):
        toy.TOOLS.check("star_note", {"note_id": "9" * 30})
    assert toy.TOOLS.check("star_note", {"note_id": str(INT_MAX)})[1]["note_id"] == INT_MAX


async def test_a_tool_call_after_the_app_server_crashed_reaches_the_restarted_one(runtime):
    """The app server dies mid-episode: the next tool call is sent to the server the pool restarts, on the same
    world (what the episode did before is kept), counted as a recovery; the episode goes on."""
    env = AsyncUIEnv(TOY_MODULE, config=EnvConfig(tools=True, viewport=(640, 400)), runtime=runtime)
    try:
        await env.reset(seed=1)
        obs, *_ = await env.step(tool("star_note", note_id=1))
        assert obs["last_action_error"] == ""
        env.server.proc.kill()
        env.server.proc.wait()
        obs, _, term, trunc, info = await env.step(tool("star_note", note_id=2))
        assert obs["tool_result"] == '{"id":2,"starred":true}', obs["tool_result"]
        # The screen's tab belonged to the dead server's origin: reopened on the new one, and said so.
        assert "recovered by reopening the page at /" in obs["last_action_error"], obs["last_action_error"]
        assert not (term or trunc) and env.server.alive() and env.stats.recovered >= 1
        obs, *_ = await env.step(tool("star_note", note_id=3))
        assert obs["last_action_error"] == "" and obs["url"] == "/"
        notes = (await env.state())["notes"]
        assert [n["starred"] for n in notes[:4]] == [True, True, True, False]
    finally:
        await env.close()


async def test_the_tools_env_sends_a_call_again_to_a_restarted_app_server():
    """Tool mode (no screen): the same crash, the call reaches the restarted server, nothing to tell the agent."""
    from gym_core.runtime import Runtime

    rt = Runtime()
    env = AsyncToolEnv(TOY_MODULE, runtime=rt)
    try:
        await env.reset(seed=2)
        env.server.proc.kill()
        env.server.proc.wait()
        obs, *_ = await env.step(tool("star_note", note_id=1))
        assert obs["last_action_error"] == "" and obs["tool_result"] == '{"id":1,"starred":true}', obs
        assert env.stats.recovered == 1 and (await env.state())["notes"][0]["starred"] is True
    finally:
        await env.close()
        await rt.close()


async def test_an_app_failure_on_a_call_is_told_to_the_agent_and_the_episode_goes_on(monkeypatch):
    """A 5xx from the app on a tool call (its bug, not the agent's) is the step's last_action_error, not an
    exception out of step."""
    from gym_core.runtime import Runtime
    from gym_core.server import ServerError

    rt = Runtime()
    env = AsyncToolEnv(TOY_MODULE, runtime=rt)
    try:
        await env.reset(seed=2)

        async def boom(self, world, name, args):
            raise ServerError(f"POST /worlds/{world}/tools/{name} -> 500: Internal Server Error")

        with monkeypatch.context() as m:
            m.setattr(ControlClient, "call_tool", boom)
            obs, _, term, trunc, _ = await env.step(tool("star_note", note_id=1))
        assert obs["last_action_error"].startswith("the app could not complete the call: POST")
        assert "500" in obs["last_action_error"] and not (term or trunc) and obs["tool_result"] == ""
        obs, *_ = await env.step(tool("star_note", note_id=1))
        assert obs["last_action_error"] == "" and obs["tool_result"] == '{"id":1,"starred":true}'
    finally:
        await env.close()
        await rt.close()


async def test_an_external_app_server_that_is_gone_is_a_server_error_not_a_crash():
    """The control client cannot restart a server it did not start: the call is a ServerError, which the env
    turns into the step's last_action_error."""
    import httpx as _httpx

    from gym_core.server import AppServer, ServerError

    srv = AppServer("toy", url="http://127.0.0.1:9", control_url="http://127.0.0.1:9")  # nothing listens there
    async with _httpx.AsyncClient() as client:
        with pytest.raises(ServerError, match="cannot be reached at http://127.0.0.1:9"):
            await ControlClient(srv, client).state("w")
