"""The MCP server: the official `mcp` SDK's own client connects over streamable HTTP, lists the tools with
their schemas, completes a task the verifier grades 1, and cannot reach another world. On the toy app
(served as "mail"); `uigym mcp` itself is started as a process once."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import subprocess
import sys

import httpx
import pytest
import uvicorn
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from agent_harness.commands.mcp import READY
from agent_harness.mcp_server import build_server, streamable_http_app
from gym_core.server import ControlClient, ServerPool
from tasks import Task
from tests.harness.toy_tasks import APP_MODULES, TASKS, TOY_MODULE
from grading import verify

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture
async def served(tmp_path):
    """The toy app, worlds w1 (the task's) and w2 (another), and an MCP server bound to w1."""
    pool = ServerPool(home=str(tmp_path), modules=dict(APP_MODULES))
    server = await asyncio.to_thread(pool.get, "mail")
    task = Task.model_validate(TASKS[0])
    async with httpx.AsyncClient() as http:
        control = ControlClient(server, http)
        await control.reset("w1", task.seed, None, task.fixtures)
        await control.reset("w2", task.seed, None, task.fixtures)
        mcp = build_server(control, "w1", (await control.tools())["tools"], name="uigym-mail")
        try:
            async with http_served(mcp) as url:
                yield url, control, task
        finally:
            await asyncio.to_thread(pool.stop_all)


@contextlib.asynccontextmanager
async def http_served(mcp):
    """`mcp` (an MCP Server) at a free port of this process over streamable HTTP; yields its URL."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    uv = uvicorn.Server(uvicorn.Config(streamable_http_app(mcp), log_level="warning"))
    serving = asyncio.create_task(uv.serve(sockets=[sock]))
    while not uv.started:
        await asyncio.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/mcp"
    finally:
        uv.should_exit = True
        await serving


async def test_the_sdk_client_lists_tools_and_completes_a_task_graded_1(served):
    url, control, task = served
    start = await control.state("w1")
    other_before = await control.state("w2")
    async with streamable_http_client(url) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        tools = {t.name: t for t in (await session.list_tools()).tools}
        assert list(tools) == ["list_notes", "star_note", "add_notes"]
        star = tools["star_note"]
        assert star.input_schema["required"] == ["note_id"] and star.description.startswith("Star (or")
        assert star.input_schema["properties"]["note_id"]["type"] == "integer"

        listed = await session.call_tool("list_notes", {})
        assert not listed.is_error and any(n["title"] == "Note 1-2" for n in listed.structured_content["notes"])
        for call in task.tools.solution[:-1]:
            result = await session.call_tool(call.tool, call.args)
            assert not result.is_error, result.content

        # Another world is out of reach: no tool takes a world, and an extra argument naming one is refused.
        refused = await session.call_tool("star_note", {"note_id": 3, "world": "w2"})
        assert refused.is_error and "'world' is not an argument" in refused.content[0].text
        bad = await session.call_tool("star_note", {"note_id": "three"})
        assert bad.is_error and "valid integer" in bad.content[0].text
        unknown = await session.call_tool("drop_world", {})
        assert unknown.is_error and "unknown tool" in unknown.content[0].text

    end = await control.state("w1")
    assert verify(task.verify, start, end, None).score == 1.0
    assert await control.state("w2") == other_before


def test_uigym_mcp_serves_a_tasks_world_as_a_process(tmp_path):
    env = dict(os.environ, UIGYM_HOME=str(tmp_path), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "agent_harness.cli", "mcp", "--app", "mail", "--app-module",
                             TOY_MODULE, "--seed", "1", "--port", "0", "--world", "cli-w"], cwd=REPO, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith(READY), (line, proc.stderr.read() if proc.poll() is not None else "")
        url = line.split("url=")[1].split()[0]

        async def client():
            async with streamable_http_client(url) as (read, write), ClientSession(read, write) as session:
                await session.initialize()
                names = [t.name for t in (await session.list_tools()).tools]
                return names, await session.call_tool("star_note", {"note_id": 2})

        names, starred = asyncio.run(client())
        assert names == ["list_notes", "star_note", "add_notes"] and "world=cli-w" in line
        assert starred.structured_content == {"id": 2, "starred": True}
    finally:
        proc.terminate()
        proc.wait(30)


def test_uigym_mcp_refuses_a_task_of_another_app():
    r = subprocess.run([sys.executable, "-m", "agent_harness.cli", "mcp", "--app", "food", "--task",
                        "mail/star-latest-from-00"], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "is a mail task" in r.stderr

