"""`uigym mcp` answers arguments no tool could take (an integer beyond SQLite's range, nesting deeper than
the tools' bound) with JSON-RPC's invalid-params error (-32602) and a clean message: not an internal error
(code 0) with a traceback in the log. A lone surrogate on the wire is already the SDK's parse error (-32700).
The world is unchanged and the session goes on."""

from __future__ import annotations

import json
import logging

import httpx
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS, PARSE_ERROR

from apps.tool_args import INT_MAX, INT_MIN, MAX_DEPTH
from tests.harness.test_mcp import served  # noqa: F401 - the fixture: the toy app's world w1 behind an MCP server


def nested(levels: int):
    v: object = 1
    for _ in range(levels):
        v = [v]
    return v


INVALID = [
    ({"note_id": INT_MAX + 1}, "out of range"),
    ({"note_id": INT_MIN - 1}, "out of range"),
    ({"note_id": 10**40}, "out of range"),
    ({"note_id": 2, "starred": nested(MAX_DEPTH)}, f"nested deeper than {MAX_DEPTH} levels"),
    ({"note_id": 2, "starred": nested(150)}, f"nested deeper than {MAX_DEPTH} levels"),
]


async def test_arguments_no_tool_could_take_are_invalid_params_without_a_traceback(served, caplog):  # noqa: F811
    url, control, _task = served
    before = await control.state("w1")
    caplog.set_level(logging.WARNING)
    async with streamable_http_client(url) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        for args, phrase in INVALID:
            with pytest.raises(MCPError) as refused:
                await session.call_tool("star_note", args)
            assert refused.value.code == INVALID_PARAMS, (args, refused.value.error)
            assert phrase in refused.value.message and "Traceback" not in refused.value.message
        # An ordinary mistake stays a tool error the model reads; the session goes on.
        mistyped = await session.call_tool("star_note", {"note_id": "three"})
        assert mistyped.is_error and "valid integer" in mistyped.content[0].text
        assert not (await session.call_tool("list_notes", {})).is_error
    assert await control.state("w1") == before
    logged = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not logged, [(r.name, r.getMessage()) for r in logged]


async def _raw_rpc(http: httpx.AsyncClient, url: str, body: str, session: str | None) -> tuple[dict | None, str | None]:
    """One JSON-RPC message as raw text (the SDK's client cannot send a lone surrogate: it encodes UTF-8)."""
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json",
               "MCP-Protocol-Version": "2025-06-18", **({"mcp-session-id": session} if session else {})}
    r = await http.post(url, content=body.encode("ascii"), headers=headers)
    assert r.status_code < 500, r.text
    session = r.headers.get("mcp-session-id", session)
    if not r.text.strip():
        return None, session
    if r.headers.get("content-type", "").startswith("text/event-stream"):
        data = [ln[5:].strip() for ln in r.text.splitlines() if ln.startswith("data:") and ln[5:].strip()]
        return json.loads(data[-1]), session
    return r.json(), session


async def test_a_lone_surrogate_on_the_wire_is_a_clean_json_rpc_error(served, caplog):  # noqa: F811
    url, control, _task = served
    before = await control.state("w1")
    caplog.set_level(logging.WARNING)
    async with httpx.AsyncClient(timeout=60) as http:
        init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}
        answer, session = await _raw_rpc(http, url, json.dumps(init), None)
        assert "result" in answer, answer
        await _raw_rpc(http, url, json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}), session)
        for args in ('{"note_id": 2, "starred": "\\ud800"}', '{"note_id": 2, "\\udfff": true}'):
            call = '{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "star_note", "arguments": %s}}'
            answer, _ = await _raw_rpc(http, url, call % args, session)
            # The SDK's JSON reader already refuses a lone surrogate as a parse error; were it let through,
            # the handler's check answers invalid params. Never an internal error (0, -32603).
            assert answer["error"]["code"] in (PARSE_ERROR, INVALID_PARAMS), answer
            assert "surrogate" in answer["error"]["message"] or "escape" in answer["error"]["message"], answer
        listed = '{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "list_notes", "arguments": {}}}'
        answer, _ = await _raw_rpc(http, url, listed, session)
        assert answer["result"]["isError"] is False, answer  # the session goes on
    assert await control.state("w1") == before
    logged = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not logged, [(r.name, r.getMessage()) for r in logged]
