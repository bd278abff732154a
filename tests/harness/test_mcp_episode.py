"""`uigym mcp` as a whole episode: the goal as an MCP prompt and resource, a `done` tool the env grades (the
grade given back only with --grade), calls refused after it, `next_task` for a task set, and the screen's tools
(screenshot, click, type, key, scroll) returning PNGs. Clients: the `mcp` SDK's own (streamable HTTP, in
process, on the toy app served as "mail") and the MCP Inspector's CLI, a client nobody here wrote, against
`uigym mcp` started as a process."""

from __future__ import annotations

import base64
import contextlib
import io
import json
import logging
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS
from PIL import Image

from agent_harness.commands.mcp import READY
from agent_harness.mcp_server import GOAL_URI, McpEpisodes, build_episode_server
from gym_core.config import EnvConfig
from gym_core.env import AsyncUIEnv
from gym_core.tool_env import AsyncToolEnv
from tests.harness.test_mcp import http_served, served  # noqa: F401 - served: a bare world's server (no task)
from tests.harness.toy_tasks import TOY_MODULE, toy_tasks, write_tasks_dir

REPO = Path(__file__).resolve().parents[2]
# The MCP Inspector's CLI, pinned, installed once into a cache folder (npm's registry; ~10 s the first time).
INSPECTOR = "@modelcontextprotocol/inspector@2.12.0"
NPM_CACHE = Path(os.environ.get("UIGYM_NPM_CACHE", Path.home() / ".cache" / "uigym-npm"))


@contextlib.asynccontextmanager
async def episode_server(runtime, tasks, *, grade: bool, screen: bool = False, max_steps: int | None = None):
    """An MCP server playing `tasks` in a world of its own (the toy app's, through `runtime`); yields the URL,
    the episodes (the test's view: the env, the grades the operator hears) and that list of grades."""
    heard: list[tuple[str, dict]] = []
    env_cls = AsyncUIEnv if screen else AsyncToolEnv
    env = env_cls("mail", EnvConfig(max_steps=max_steps), runtime, world_id=f"mcp-ep-{time.monotonic_ns()}")
    episodes = McpEpisodes(env, tasks, grade=grade, on_end=lambda t, v: heard.append((t.id, v)))
    await episodes.start()
    try:
        async with http_served(build_episode_server(episodes, name="uigym-mail")) as url:
            yield url, episodes, heard
    finally:
        await env.close()


@contextlib.asynccontextmanager
async def client(url: str):
    async with streamable_http_client(url) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


async def play(session: ClientSession, plan) -> object:
    """A task's tool plan (its `tools.solution`: app calls, then done), each call as the client sends it;
    returns done's result."""
    for call in plan[:-1]:
        result = await session.call_tool(call.tool, call.args)
        assert not result.is_error, result.content
    assert plan[-1].tool == "done"
    return await session.call_tool("done", plan[-1].args)


def no_errors_logged(caplog) -> None:
    logged = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not logged, [(r.name, r.getMessage()) for r in logged]


async def test_the_goal_is_served_done_is_graded_and_next_task_gives_a_fresh_world(toy_runtime, caplog):
    caplog.set_level(logging.WARNING)
    star, add, third = toy_tasks()
    async with episode_server(toy_runtime, [star, add, third], grade=True) as (url, episodes, heard), \
            client(url) as session:
        names = [t.name for t in (await session.list_tools()).tools]
        assert names == ["list_notes", "star_note", "add_notes", "done", "next_task"]
        [prompt] = (await session.list_prompts()).prompts
        assert prompt.name == "task"
        goal = (await session.get_prompt("task")).messages[0].content.text
        [resource] = (await session.list_resources()).resources
        assert str(resource.uri) == GOAL_URI
        assert goal == (await session.read_resource(GOAL_URI)).contents[0].text == star.goal

        # Not before the episode is over: each task is ended (and graded) before the next.
        early = await session.call_tool("next_task", {})
        assert early.is_error and "call done first" in early.content[0].text

        done = await play(session, star.tools.solution)
        assert not done.is_error
        ended = done.structured_content
        assert ended["ended"] and ended["score"] == 1.0 and ended["passed"] is True
        assert [c["passed"] for c in ended["checks"]] == [True, True] and "next_task" in ended["next"]
        assert heard[-1][0] == star.id and heard[-1][1]["score"] == 1.0

        # After done every call is refused, done included, with a clear message; the world is as it was.
        for name, args in (("star_note", {"note_id": 3}), ("list_notes", {}), ("done", {})):
            refused = await session.call_tool(name, args)
            assert refused.is_error and refused.content[0].text.startswith("the episode is over"), refused

        # The next task, in a fresh world: task 1's star is gone (both start from seed 1); the goal is task 2's.
        moved = await session.call_tool("next_task", {})
        assert not moved.is_error and moved.structured_content == {"task": 2, "of": 3, "goal": add.goal}
        assert (await session.read_resource(GOAL_URI)).contents[0].text == add.goal
        assert (await session.get_prompt("task")).messages[0].content.text == add.goal
        notes = (await session.call_tool("list_notes", {})).structured_content["notes"]
        assert not any(n["starred"] for n in notes)

        # A noop done is graded 0.
        noop = await session.call_tool("done", {})
        assert noop.structured_content["score"] == 0.0 and noop.structured_content["passed"] is False

        await session.call_tool("next_task", {})
        answered = await play(session, third.tools.solution)
        assert answered.structured_content["score"] == 1.0 and "next" not in answered.structured_content
        last = await session.call_tool("next_task", {})
        assert last.is_error and "no task after this one" in last.content[0].text
    assert [(t, v["score"]) for t, v in heard] == [(star.id, 1.0), (add.id, 0.0), (third.id, 1.0)]
    no_errors_logged(caplog)


async def test_without_grade_done_says_only_that_the_episode_ended(toy_runtime, caplog):
    caplog.set_level(logging.WARNING)
    star = toy_tasks()[0]
    async with episode_server(toy_runtime, [star], grade=False) as (url, _episodes, heard), client(url) as session:
        names = [t.name for t in (await session.list_tools()).tools]
        assert names == ["list_notes", "star_note", "add_notes", "done"]  # one task: no next_task
        done = await play(session, star.tools.solution)
        assert not done.is_error and done.structured_content == {"ended": True}
        text = " ".join(c.text for c in done.content)
        assert "score" not in text and "passed" not in text and "checks" not in text
        after = await session.call_tool("list_notes", {})
        assert after.is_error and "no task after this one" in after.content[0].text
    assert heard[0][1]["score"] == 1.0  # the operator's log hears it; the client does not
    no_errors_logged(caplog)


async def test_refusals_are_error_results_and_the_session_goes_on(toy_runtime, served, caplog):  # noqa: F811
    caplog.set_level(logging.WARNING)
    star = toy_tasks()[0]
    async with episode_server(toy_runtime, [star], grade=True, max_steps=20) as (url, _episodes, _heard), \
            client(url) as session:
        with pytest.raises(MCPError) as unknown:
            await session.get_prompt("secret")
        assert unknown.value.code == INVALID_PARAMS and "unknown prompt 'secret'" in unknown.value.message
        with pytest.raises(MCPError) as unknown:
            await session.read_resource("uigym://task/spec")
        assert unknown.value.code == INVALID_PARAMS and "unknown resource" in unknown.value.message
        with pytest.raises(MCPError) as deep:
            await session.call_tool("star_note", {"note_id": 10**40})
        assert deep.value.code == INVALID_PARAMS and "out of range" in deep.value.message
        for name, args, phrase in (("star_note", {"note_id": "two"}, "valid integer"),
                                   ("drop_world", {}, "unknown tool"),
                                   ("done", {"answer": 5}, "valid string"),
                                   ("done", {"score": 1}, "Extra inputs"),
                                   ("next_task", {}, "unknown tool")):  # one task: there is no next_task
            refused = await session.call_tool(name, args)
            assert refused.is_error and phrase in refused.content[0].text, (name, refused.content)
            assert "Traceback" not in refused.content[0].text
        assert not (await session.call_tool("list_notes", {})).is_error
    # A bare world (no task) has no goal: empty lists, not "method not found".
    bare_url, _control, _task = served
    async with client(bare_url) as session:
        assert (await session.list_prompts()).prompts == [] and (await session.list_resources()).resources == []
    no_errors_logged(caplog)


async def test_screen_mode_plays_a_task_by_coordinates_and_done_is_graded(toy_runtime, caplog):
    caplog.set_level(logging.WARNING)
    star = toy_tasks()[0]
    async with episode_server(toy_runtime, [star], grade=True, screen=True, max_steps=20) as (url, episodes, _), \
            client(url) as session:
        tools = {t.name: t for t in (await session.list_tools()).tools}
        assert list(tools) == ["screenshot", "click", "type", "key", "scroll", "double_click", "move", "drag", "wait",
                               "done"]
        assert tools["click"].input_schema["required"] == ["x", "y"]
        assert (await session.read_resource(GOAL_URI)).contents[0].text == star.goal

        shot = await session.call_tool("screenshot", {})
        [image] = shot.content
        assert not shot.is_error and image.type == "image" and image.mime_type == "image/png"
        png = base64.b64decode(image.data)
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and Image.open(io.BytesIO(png)).size == (1280, 720)

        # Bad arguments are error results (with the screen as it is), and the session goes on.
        for name, args, phrase in (("click", {"x": 5000, "y": 10}, "outside the 1280x720 screen"),
                                   ("click", {"x": "left", "y": 10}, "valid integer"),
                                   ("key", {"keys": ["Nope"]}, "unknown key"),
                                   ("click", {"x": 1, "y": 1, "type": "done"}, "'type' is not an argument"),
                                   ("drag", {"path": [[10, 10]]}, "at least 2"),
                                   ("wait", {"ms": 60_000}, "less than or equal to 10000")):
            refused = await session.call_tool(name, args)
            assert refused.is_error and phrase in refused.content[0].text, (name, refused.content)

        # The test finds the button (the client sees only pixels); the client clicks its centre.
        box = await episodes.env.page.get_by_role("button", name="Star Note 1-2").bounding_box()
        clicked = await session.call_tool("click", {"x": int(box["x"] + box["width"] / 2),
                                                    "y": int(box["y"] + box["height"] / 2)})
        assert not clicked.is_error and clicked.content[0].type == "image"
        assert not (await session.call_tool("scroll", {"x": 600, "y": 300, "dy": 100})).is_error
        # Every other screen tool is one env action that returns the screen (on blank page space: the star stays).
        for name, args in (("double_click", {"x": 1200, "y": 650}), ("move", {"x": 1100, "y": 600}),
                           ("drag", {"path": [[1100, 600], [1200, 650]]}), ("wait", {"ms": 10}), ("wait", {})):
            r = await session.call_tool(name, args)
            assert not r.is_error and r.content[-1].type == "image", (name, r.content)
        done = await session.call_tool("done", {})
        assert done.structured_content["score"] == 1.0 and done.structured_content["passed"] is True
        after = await session.call_tool("screenshot", {})
        assert after.is_error and "the episode is over" in after.content[0].text
    no_errors_logged(caplog)



# The oracle's screen actions (agent_harness/agents/oracle.py) as the screen tools' calls.
SCREEN_CALL = {"click": "click", "type": "type", "keypress": "key", "scroll": "scroll"}


async def test_screen_mode_plays_an_easy_mail_task_with_the_oracles_coordinates(runtime, caplog):
    """The real mail clone: the oracle (the test's privilege: it reads the page to find its targets) says
    where to click and what to type; the client does it through the screen tools, by coordinates only."""
    from agent_harness.agents.oracle import OracleAgent
    from tasks import load_task

    caplog.set_level(logging.WARNING)
    task = load_task("mail/star-latest-from-00")
    async with episode_server(runtime, [task], grade=True, screen=True) as (url, episodes, heard), \
            client(url) as session:
        assert (await session.get_prompt("task")).messages[0].content.text == task.goal
        shot = (await session.call_tool("screenshot", {})).content[0]
        assert Image.open(io.BytesIO(base64.b64decode(shot.data))).size == (episodes.env.width, episodes.env.height)
        oracle = OracleAgent()
        await oracle.reset(episodes.env, task)
        called = []
        while (action := await oracle.act({}))["type"] != "done":
            name = SCREEN_CALL[action.pop("type")]
            result = await session.call_tool(name, action)
            assert not result.is_error and result.content[-1].type == "image", (name, action, result.content)
            called.append(name)
        assert {"click", "type", "key"} <= set(called)
        done = await session.call_tool("done", {})
        assert done.structured_content["score"] == 1.0 and done.structured_content["passed"] is True
    assert heard == [(task.id, heard[0][1])] and heard[0][1]["score"] == 1.0
    no_errors_logged(caplog)

# ------------------------------------------------------------------------------------------ MCP Inspector
@pytest.fixture(scope="session")
def inspector() -> list[str]:
    """The Inspector's CLI command (`mcp-inspector --cli`), installed once into NPM_CACHE. Node and npm are
    required: a missing one fails the test (it is the only client here nobody in this project wrote)."""
    for tool in ("node", "npm"):
        assert shutil.which(tool), f"{tool} is not installed: the MCP Inspector test needs Node.js and npm"
    binary = NPM_CACHE / "node_modules" / ".bin" / "mcp-inspector"
    stamp = NPM_CACHE / "node_modules" / "@modelcontextprotocol" / "inspector" / "package.json"
    version = INSPECTOR.rsplit("@", 1)[1]
    if not binary.exists() or json.loads(stamp.read_text()).get("version") != version:
        r = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--prefix", str(NPM_CACHE), INSPECTOR],
                           capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stderr[-2000:]
    return [str(binary), "--cli"]


def test_the_mcp_inspector_cli_plays_an_episode_of_uigym_mcp(inspector, tmp_path):
    tasks_dir = write_tasks_dir(tmp_path / "tasks")
    env = dict(os.environ, UIGYM_HOME=str(tmp_path / "home"), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "agent_harness.cli", "mcp", "--app-module", TOY_MODULE,
                             "--tasks-dir", str(tasks_dir), "--tasks", "mail/toy-star-note-2,mail/toy-third-title",
                             "--grade", "--port", "0", "--world", "insp"], cwd=REPO, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # The Inspector keeps a catalog and storage under HOME: a folder of the test's.
    inspector_env = dict(os.environ, HOME=str(tmp_path), MCP_CATALOG_PATH=str(tmp_path / "mcp.json"))
    try:
        line = proc.stdout.readline()
        assert line.startswith(READY), (line, proc.stderr.read() if proc.poll() is not None else "")
        url = line.split("url=")[1].split()[0]
        spent: list[float] = []

        def call(*args: str) -> dict:
            t0 = time.perf_counter()
            r = subprocess.run([*inspector, url, "--transport", "http", *args], capture_output=True, text=True,
                               timeout=60, env=inspector_env)
            spent.append(time.perf_counter() - t0)
            assert r.stdout.lstrip().startswith("{"), (args, r.stdout, r.stderr)
            return json.JSONDecoder().raw_decode(r.stdout.lstrip())[0]  # its first JSON value: the answer

        tools = [t["name"] for t in call("--method", "tools/list")["tools"]]
        assert tools == ["list_notes", "star_note", "add_notes", "done", "next_task"]
        assert [p["name"] for p in call("--method", "prompts/list")["prompts"]] == ["task"]
        goal = call("--method", "resources/read", "--uri", GOAL_URI)["contents"][0]["text"]
        assert goal == "Star the note titled 'Note 1-2'."
        starred = call("--method", "tools/call", "--tool-name", "star_note", "--tool-arg", "note_id=2")
        assert starred["isError"] is False and starred["structuredContent"] == {"id": 2, "starred": True}
        done = call("--method", "tools/call", "--tool-name", "done")
        assert done["isError"] is False and done["structuredContent"]["score"] == 1
        refused = call("--method", "tools/call", "--tool-name", "list_notes")
        assert refused["isError"] is True and "the episode is over" in refused["content"][0]["text"]
        nxt = call("--method", "tools/call", "--tool-name", "next_task")
        assert nxt["structuredContent"]["goal"].startswith("What is the title of the third note?")
        answered = call("--method", "tools/call", "--tool-name", "done", "--tool-arg", "answer=Note 2-3")
        assert answered["structuredContent"]["score"] == 1
        print(f"\nMCP Inspector CLI: {len(spent)} calls, {sum(spent):.1f} s ({max(spent):.2f} s the longest)")
    finally:
        proc.terminate()
        proc.wait(30)
    err = proc.stderr.read()
    assert "score 1.0 (passed)" in err and "Traceback" not in err, err


async def test_uigym_mcp_plays_an_episode_over_stdio_without_grade(tmp_path):
    """A client that spawns the server (stdio: stdout is the protocol's, the operator's log is stderr)."""
    from mcp.client.stdio import StdioServerParameters, stdio_client

    tasks_dir = write_tasks_dir(tmp_path / "tasks")
    params = StdioServerParameters(command=sys.executable, cwd=str(REPO), args=[
        "-m", "agent_harness.cli", "mcp", "--app-module", TOY_MODULE, "--tasks-dir", str(tasks_dir),
        "--task", "mail/toy-add-note", "--transport", "stdio"],
        env=dict(os.environ, UIGYM_HOME=str(tmp_path / "home"), PYTHONUNBUFFERED="1"))
    add = toy_tasks()[1]
    with open(tmp_path / "stderr.txt", "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            assert (await session.get_prompt("task")).messages[0].content.text == add.goal
            done = await play(session, add.tools.solution)
            assert done.structured_content == {"ended": True}
    log = (tmp_path / "stderr.txt").read_text()
    assert "task mail/toy-add-note: score 1.0 (passed)" in log and "Traceback" not in log, log


def test_uigym_mcp_refuses_an_episode_on_a_kept_world():
    r = subprocess.run([sys.executable, "-m", "agent_harness.cli", "mcp", "--task", "mail/star-latest-from-00",
                        "--keep-world"], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "--keep-world serves a bare world" in r.stderr and "Traceback" not in r.stderr
