"""UIEnv: the Gymnasium (synchronous) face of AsyncUIEnv.

Every UIEnv of a process runs on one background event loop and shares one Chromium and one set of app
servers with the others, as async envs on one loop do. They live while any UIEnv is open: the first
UIEnv starts the loop (the browser and servers start at its first reset), and the last close() shuts the
browser, the app servers, the loop and its thread down, so nothing is left in the process.
"""

from __future__ import annotations

import asyncio
import atexit
import importlib
import threading
from typing import Any

import gymnasium as gym
import numpy as np

from gym_core.env import AsyncUIEnv, EnvConfig
from gym_core.runtime import Runtime
from gym_core.server import ServerPool
from gym_core.spaces import (ActionSpace, HybridActionSpace, ToolActionSpace, observation_space, screen_bounds,
                             tool_observation_space)
from gym_core.tool_env import AsyncToolEnv
from tasks import Task, select_tasks


class LoopThread:
    """uigym's background event loop in a daemon thread.

    UIEnvs hold it with acquire()/release(): the first acquire starts it, with a Runtime (Chromium) and a
    ServerPool (app servers) of its own for the UIEnvs; the last release closes them, then stops and
    closes the loop and joins the thread. get() (agent_harness.train, which runs its own runtimes on this
    loop) keeps the loop for the life of the process; shutdown() at exit closes whatever is left."""

    _instance: "LoopThread | None" = None
    _lock = threading.Lock()

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="uigym-loop", daemon=True)
        self.thread.start()
        self.users = 0  # open UIEnvs
        self.pinned = False  # get() was called: the loop lives until exit
        self.runtime: Runtime | None = None  # the UIEnvs' browser and app servers
        self.closed = False
        atexit.register(self.shutdown)

    @classmethod
    def _current(cls) -> "LoopThread":
        if cls._instance is None:
            cls._instance = LoopThread()
        return cls._instance

    @classmethod
    def get(cls) -> "LoopThread":
        with cls._lock:
            lt = cls._current()
            lt.pinned = True
            return lt

    @classmethod
    def acquire(cls) -> "LoopThread":
        with cls._lock:
            lt = cls._current()
            if lt.runtime is None:
                lt.runtime = lt.run(_make_runtime())
            lt.users += 1
            return lt

    def release(self) -> None:
        # Under the class lock: an acquire() waits for the teardown, then starts a new loop.
        with LoopThread._lock:
            self.users -= 1
            if self.users > 0:
                return
            if self.pinned:
                self._close_runtime()
                return
            if LoopThread._instance is self:
                LoopThread._instance = None
            self.shutdown()

    def run(self, coro, timeout: float | None = None):
        """Run `coro` on the loop and wait for it. If the caller stops waiting (KeyboardInterrupt, the
        timeout), the coroutine is cancelled and has unwound before this raises: a step must not go on
        in the background under a close() or reset() that comes next."""
        box: dict[str, asyncio.Task] = {}

        async def runner():
            box["task"] = asyncio.current_task()
            return await coro

        fut = asyncio.run_coroutine_threadsafe(runner(), self.loop)
        try:
            return fut.result(timeout)
        except BaseException:
            if not fut.done():
                fut.cancel()
                self._wait_cancelled(box, coro)
            raise

    def _wait_cancelled(self, box: dict, coro, grace: float = 10.0) -> None:
        async def settle():
            task = box.get("task")
            if task is None:  # cancelled before it started: `coro` never ran
                coro.close()
            elif not task.done():
                await asyncio.wait([task], timeout=grace)

        try:
            asyncio.run_coroutine_threadsafe(settle(), self.loop).result(grace + 5)
        except BaseException:  # noqa: BLE001 - the caller's own exception is the one to raise
            pass

    def _close_runtime(self) -> None:
        rt, self.runtime = self.runtime, None
        if rt is None:
            return
        try:
            self.run(rt.close(), timeout=30)
        except Exception:  # noqa: BLE001 - a browser already gone (crashed) is nothing left to close
            pass
        rt.servers.close()

    def shutdown(self) -> None:
        """Close the runtimes on this loop (browsers, Playwright, HTTP clients) and the UIEnvs' app
        servers, cancel what is left on the loop, stop and close it. Idempotent; also runs at exit."""
        if self.closed:
            return
        self.closed = True
        atexit.unregister(self.shutdown)
        if self.loop.is_running():
            self._close_runtime()
            rt = Runtime._by_loop.get(self.loop)  # agent_harness.train's, if it made one here
            if rt is not None:
                try:
                    self.run(rt.close(), timeout=20)
                except Exception:  # noqa: BLE001
                    pass
            for step in (_cancel_all_tasks, lambda: self.loop.shutdown_asyncgens(),
                         lambda: self.loop.shutdown_default_executor()):
                try:
                    self.run(step(), timeout=20)
                except Exception:  # noqa: BLE001
                    pass
            self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        if not self.thread.is_alive():
            self.loop.close()


async def _make_runtime() -> Runtime:
    # App servers of its own (not the process-wide default pool, which async envs on other loops may
    # be using), so the last UIEnv can stop them.
    return Runtime(servers=ServerPool())


async def _cancel_all_tasks() -> None:
    """What asyncio.run does before closing a loop: cancel the tasks still pending (a late request
    handler, a popup being closed) and let them unwind, so none is destroyed pending."""
    tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
    for t in tasks:
        t.cancel()
    if tasks:
        await asyncio.wait(tasks, timeout=10)


def _fresh_tasks(pattern: str, seeds, split: str | None, app: str | None, mode: str = "ui") -> list[Task]:
    """The instances proven in the proof `mode` needs (tools: the tools env; ui, hybrid: browsers)."""
    from tasks.fresh import validated_tasks

    found = [t for t in validated_tasks(pattern, seeds, split=split, mode=mode) if app is None or t.app == app]
    if not found:
        flag = " --mode tools" if mode == "tools" else ""
        raise ValueError(f"no proven fresh-world instance of {pattern!r} on seeds {seeds} for mode {mode}: prove "
                         f"them first with `uigym tasks validate{flag} --tasks '{pattern}' --seeds {seeds}`")
    return found


MODES = ("ui", "tools", "hybrid")


def tool_names(app: str | None) -> tuple[str, ...]:
    """The app's tool names (apps/<app>/tools.py), for the action space's samples; () for an env of any app."""
    if app is None:
        return ()
    from apps import load_app_module

    module = load_app_module(app).SPEC.tools
    return tuple(importlib.import_module(module).TOOLS.tools) if module else ()


class UIEnv(gym.Env):
    """reset(seed=None, options={"task": Task | id | dict}) -> (obs, info); step(action) -> 5-tuple.

    With no task in options, a task is drawn (seeded by `seed`) from `tasks` given at construction;
    with none of those either, the episode is free play in a world built from `seed`.

    `mode`: "ui" (the screen), "tools" (the app's tools only: text observations, no browser) or "hybrid"
    (the screen and the tools). In tool and hybrid modes reset's info carries `tools`, the OpenAI
    function list (with `done`).
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 2}

    def __init__(self, app: str | None = None, task: Task | str | None = None, tasks: str | list | None = None,
                 render_mode: str | None = "rgb_array", config: EnvConfig | None = None,
                 seeds: str | list[int] | None = None, split: str | None = None, mode: str = "ui", **config_kw):
        """`seeds` draws from fresh worlds: the proven instances of the templates `tasks` matches on those
        seeds (prove them first with `uigym tasks validate --seeds ...`; unproven ones are never served).
        `split` (train, test, heldout-seed, heldout-template) narrows either supply."""
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
        self.mode = mode
        self.config = (config or EnvConfig(**config_kw)).for_mode(mode)
        self.app = app
        self.render_mode = render_mode if mode != "tools" else None
        if seeds is not None:
            tasks = _fresh_tasks(tasks if isinstance(tasks, str) else f"{app or '*'}/*", seeds, split, app, mode)
        elif isinstance(tasks, str):
            tasks = select_tasks(tasks, app=app, split=split)
        self.tasks = list(tasks) if tasks else []
        self.fixed_task = task
        w, h = screen_bounds(self.config)  # the largest screen an episode may draw (EnvConfig.perturb's viewport)
        # Built from the config that builds the observation, so every option's key is declared.
        if mode == "tools":
            self.observation_space = tool_observation_space(self.config)
            self.action_space = ToolActionSpace(tool_names(app))
        else:
            self.observation_space = observation_space(self.config)
            self.action_space = HybridActionSpace(w, h, tool_names=tool_names(app)) if self.config.tools \
                else ActionSpace(w, h)
        self._closed = False
        self._loop = LoopThread.acquire()  # last: released by close()
        env_class = AsyncToolEnv if mode == "tools" else AsyncUIEnv
        self._env = env_class(app, self.config, runtime=self._loop.runtime)
        self._last_obs: dict | None = None

    @property
    def async_env(self) -> AsyncUIEnv | AsyncToolEnv:
        return self._env

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        self._check_open()
        super().reset(seed=seed)
        options = options or {}
        task = options.get("task", self.fixed_task)
        if task is None and self.tasks:
            task = self.tasks[int(self.np_random.integers(len(self.tasks)))]
        obs, info = self._loop.run(self._env.reset(task=task, seed=seed, start_path=options.get("start_path"),
                                                     look=options.get("look")))
        self._last_obs = obs
        return obs, info

    def step(self, action: Any):
        self._check_open()
        obs, reward, terminated, truncated, info = self._loop.run(self._env.step(action))
        self._last_obs = obs
        return obs, float(reward), terminated, truncated, info

    def render(self) -> np.ndarray | None:
        return None if self._last_obs is None else self._last_obs.get("screenshot")

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("this env is closed; make a new one")

    def close(self) -> None:
        """Close this env's browser context and world; the last open UIEnv's close also stops the shared
        browser, app servers and loop. Calling it again does nothing."""
        if self._closed:
            return
        self._closed = True
        try:
            self._loop.run(self._env.close(), timeout=30)
        except Exception:  # noqa: BLE001 - a context that will not close goes with the browser below
            pass
        finally:
            self._loop.release()
        super().close()
