"""`uigym mcp`: serve one world's tools over MCP (agent_harness/mcp_server.py)."""

from __future__ import annotations

from typing import Optional

import typer

READY = "UIGYM_MCP_READY"


def register(app: typer.Typer) -> None:
    @app.command("mcp")
    def mcp_cmd(
        app_name: Optional[str] = typer.Option(None, "--app", help="mail, food or crm (default: the task's app)"),
        world: str = typer.Option("mcp", help="the world's id: the only world this server's tools can touch"),
        task: Optional[str] = typer.Option(None, help="reset the world to this task's start (its seed, clock and "
                                                      "fixtures) and print its goal"),
        seed: int = typer.Option(0, help="without --task: the seed of the world's reset"),
        keep_world: bool = typer.Option(False, help="serve the world as it is (it must exist): no reset"),
        transport: str = typer.Option("http", help="http (streamable HTTP at /mcp) or stdio"),
        host: str = typer.Option("127.0.0.1"),
        port: int = typer.Option(8765, help="0 picks a free port (printed as UIGYM_MCP_READY url=...)"),
        app_url: Optional[str] = typer.Option(None, help="PAGE_URL,CONTROL_URL of a running clone (its token in "
                                                         "UIGYM_GYM_TOKEN); default: start one"),
        app_module: Optional[str] = typer.Option(None, help="serve this module under the app's name (test clones)"),
    ):
        """Serve the tools of ONE world of a clone as an MCP server (the official SDK): every call acts on
        --world and no other. Its end state is graded like any episode's (the control API's state)."""
        import asyncio
        import socket
        import sys

        import httpx
        import uvicorn

        from agent_harness.mcp_server import build_server, streamable_http_app
        from gym_core.server import ControlClient, ServerError, ServerPool
        from tasks import load_task

        if transport not in ("http", "stdio"):
            raise typer.BadParameter("http or stdio", param_hint="--transport")
        chosen = None
        if task is not None:
            try:
                chosen = load_task(task)
            except (KeyError, ValueError) as e:
                raise typer.BadParameter(str(e), param_hint="--task") from None
        name = app_name or (chosen.app if chosen else None)
        if name is None:
            raise typer.BadParameter("give --app or --task", param_hint="--app")
        if chosen is not None and chosen.app != name:
            raise typer.BadParameter(f"task {chosen.id} is a {chosen.app} task", param_hint="--app")
        log = sys.stderr  # stdout is the protocol's in stdio mode

        async def main() -> None:
            pool = ServerPool(urls={name: app_url} if app_url else None,
                              modules={name: app_module} if app_module else None)
            try:
                server = await asyncio.to_thread(pool.get, name)
                async with httpx.AsyncClient() as http:
                    control = ControlClient(server, http)
                    if not keep_world:
                        if chosen is not None:
                            await control.reset(world, chosen.seed, chosen.now.isoformat() if chosen.now else None,
                                                chosen.fixtures)
                        else:
                            await control.reset(world, seed, None, [])
                    listed = (await control.tools())["tools"]
                    mcp = build_server(control, world, listed, name=f"uigym-{name}")
                    if chosen is not None:
                        print(f"task {chosen.id}: {chosen.goal}", file=log)
                    if transport == "stdio":
                        await _stdio(mcp)
                        return
                    sock = socket.socket()
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                    sock.bind((host, port))
                    url = f"http://{host}:{sock.getsockname()[1]}/mcp"
                    config = uvicorn.Config(streamable_http_app(mcp, host=host), log_level="warning")
                    print(f"{READY} url={url} world={world} tools={len(listed)}", flush=True)
                    await uvicorn.Server(config).serve(sockets=[sock])
            except ServerError as e:
                print(f"error: {e}", file=log)
                raise typer.Exit(1) from None
            finally:
                await asyncio.to_thread(pool.stop_all)

        asyncio.run(main())


async def _stdio(mcp) -> None:
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read, write):
        await mcp.run(read, write, mcp.create_initialization_options())
