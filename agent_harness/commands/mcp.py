"""`uigym mcp`: serve one world's tools over MCP (agent_harness/mcp_server.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

READY = "UIGYM_MCP_READY"
MODES = {"tools": "tools", "ui": "ui", "screen": "ui"}


def register(app: typer.Typer) -> None:
    @app.command("mcp")
    def mcp_cmd(
        app_name: Optional[str] = typer.Option(None, "--app", help="mail, food or crm (default: the task's app)"),
        world: str = typer.Option("mcp", help="the world's id: the only world this server's tools can touch"),
        task: Optional[str] = typer.Option(None, help="play this task: its world reset to the task's start (seed, "
                                                      "clock, fixtures), its goal as the prompt 'task' and the "
                                                      "resource uigym://task/goal, and a `done` tool that ends it"),
        tasks: Optional[str] = typer.Option(None, help="play these tasks in order (a glob or a comma list, as "
                                                       "`uigym eval --tasks`; one app): `next_task` starts the next "
                                                       "in a fresh world"),
        tasks_dir: Optional[Path] = typer.Option(None, help="tasks from this folder (<dir>/<app>/*.json) instead of "
                                                            "the bundled ones"),
        grade: bool = typer.Option(False, "--grade", help="`done` returns the grade (score, passed, each check's "
                                                          "report); without it the client only hears the episode "
                                                          "ended (the grade goes to this process's stderr)"),
        mode: str = typer.Option("tools", help="tools (the app's tools) or ui/screen (screenshot, click, type, "
                                               "key, scroll: the screen env's actions, PNG results)"),
        max_steps: Optional[int] = typer.Option(None, help="the episode's step budget (default: the task's)"),
        seed: int = typer.Option(0, help="without --task: the seed of the world's reset"),
        keep_world: bool = typer.Option(False, help="serve the world as it is (it must exist): no reset, no task"),
        transport: str = typer.Option("http", help="http (streamable HTTP at /mcp) or stdio"),
        host: str = typer.Option("127.0.0.1"),
        port: int = typer.Option(8765, help="0 picks a free port (printed as UIGYM_MCP_READY url=...)"),
        app_url: Optional[str] = typer.Option(None, help="PAGE_URL,CONTROL_URL of a running clone (its token in "
                                                         "UIGYM_GYM_TOKEN); default: start one"),
        app_module: Optional[str] = typer.Option(None, help="serve this module under the app's name (test clones)"),
    ):
        """Serve the tools of ONE world of a clone as an MCP server (the official SDK): every call acts on
        --world and no other. With --task or --tasks it serves episodes: the goal, the tools (or with --mode ui
        the screen's), `done`, and `next_task` for a set; each call is a step of the env's episode, graded by
        the env as any episode is. Without a task, the world's tools only (its end state graded by the caller)."""
        import asyncio
        import socket
        import sys

        import httpx
        import uvicorn

        from agent_harness.mcp_server import McpEpisodes, build_episode_server, build_server, streamable_http_app
        from gym_core.server import ControlClient, ServerError, ServerPool
        from tasks import TaskLoadError, load_task, load_tasks, select_tasks

        if transport not in ("http", "stdio"):
            raise typer.BadParameter("http or stdio", param_hint="--transport")
        if mode not in MODES:
            raise typer.BadParameter("tools, ui or screen", param_hint="--mode")
        screen = MODES[mode] == "ui"
        if task is not None and tasks is not None:
            raise typer.BadParameter("give --task or --tasks, not both", param_hint="--tasks")
        if keep_world and (task or tasks or screen):
            raise typer.BadParameter("an episode starts from its task's reset: --keep-world serves a bare world",
                                     param_hint="--keep-world")
        chosen: list = []
        try:
            if task is not None:
                pool = load_tasks(tasks_dir) if tasks_dir is not None else None
                found = [t for t in pool if t.id == task] if pool is not None else [load_task(task)]
                if not found:
                    raise KeyError(f"no task {task!r} in {tasks_dir}")
                chosen = found
            elif tasks is not None:
                chosen = select_tasks(tasks, app=app_name, tasks=load_tasks(tasks_dir) if tasks_dir else None)
                if not chosen:
                    raise KeyError(f"no task matches {tasks!r}")
        except (KeyError, ValueError, TaskLoadError) as e:
            raise typer.BadParameter(str(e).strip("'\""), param_hint="--tasks" if tasks else "--task") from None
        apps = sorted({t.app for t in chosen})
        if len(apps) > 1:
            raise typer.BadParameter(f"the tasks are of several apps ({', '.join(apps)}): one server serves one app",
                                     param_hint="--tasks")
        name = app_name or (apps[0] if apps else None)
        if name is None:
            raise typer.BadParameter("give --app or --task", param_hint="--app")
        if apps and apps[0] != name:
            raise typer.BadParameter(f"task {chosen[0].id} is a {chosen[0].app} task", param_hint="--app")
        log = sys.stderr  # stdout is the protocol's in stdio mode

        def ended(t, verify: dict) -> None:
            # The operator's record of each episode, whatever the client is told (--grade).
            if t is not None:
                print(f"task {t.id}: score {verify.get('score')} ({'passed' if verify.get('passed') else 'failed'})",
                      file=log, flush=True)

        async def main() -> None:
            from gym_core.config import EnvConfig
            from gym_core.env import AsyncUIEnv
            from gym_core.runtime import Runtime
            from gym_core.tool_env import AsyncToolEnv

            pool = ServerPool(urls={name: app_url} if app_url else None,
                              modules={name: app_module} if app_module else None)
            runtime = env = None
            try:
                if chosen or screen:
                    runtime = Runtime(servers=pool)
                    env_cls = AsyncUIEnv if screen else AsyncToolEnv
                    env = env_cls(name, EnvConfig(max_steps=max_steps), runtime, world_id=world)
                    episodes = McpEpisodes(env, chosen or [None], grade=grade, on_end=ended, seed=seed)
                    await episodes.start()
                    mcp = build_episode_server(episodes, name=f"uigym-{name}")
                    count = len(await episodes.tool_list())
                    if chosen:
                        print(f"task {chosen[0].id}: {chosen[0].goal}" + (f" (1 of {len(chosen)})" if len(chosen) > 1
                                                                          else ""), file=log, flush=True)
                    await _serve(mcp, transport, host, port, world, count)
                    return
                server = await asyncio.to_thread(pool.get, name)
                async with httpx.AsyncClient() as http:
                    control = ControlClient(server, http)
                    if not keep_world:
                        await control.reset(world, seed, None, [])
                    listed = (await control.tools())["tools"]
                    mcp = build_server(control, world, listed, name=f"uigym-{name}")
                    await _serve(mcp, transport, host, port, world, len(listed))
            except ServerError as e:
                print(f"error: {e}", file=log)
                raise typer.Exit(1) from None
            finally:
                if runtime is not None:
                    try:
                        if env is not None:
                            await env.close()
                    finally:
                        await runtime.close()
                await asyncio.to_thread(pool.stop_all)

        async def _serve(mcp, transport: str, host: str, port: int, world: str, tools: int) -> None:
            if transport == "stdio":
                await _stdio(mcp)
                return
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((host, port))
            url = f"http://{host}:{sock.getsockname()[1]}/mcp"
            config = uvicorn.Config(streamable_http_app(mcp, host=host), log_level="warning")
            print(f"{READY} url={url} world={world} tools={tools}", flush=True)
            await uvicorn.Server(config).serve(sockets=[sock])

        asyncio.run(main())


async def _stdio(mcp) -> None:
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read, write):
        await mcp.run(read, write, mcp.create_initialization_options())
