"""UIEnv: the Gymnasium (synchronous) face of AsyncUIEnv.

Every UIEnv of a process runs on one background event loop, so they share one Chromium, exactly
as async envs do.
"""

from __future__ import annotations

import asyncio
import atexit
import threading
from typing import Any

import gymnasium as gym
import numpy as np

from gym_core.env import AsyncUIEnv, EnvConfig
from gym_core.spaces import ActionSpace, observation_space
from tasks import Task, select_tasks


class _LoopThread:
    _instance: "_LoopThread | None" = None
    _lock = threading.Lock()

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="uigym-loop", daemon=True)
        self.thread.start()
        atexit.register(self.shutdown)

    @classmethod
    def get(cls) -> "_LoopThread":
        with cls._lock:
            if cls._instance is None:
                cls._instance = _LoopThread()
            return cls._instance

    def run(self, coro, timeout: float | None = None):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def shutdown(self) -> None:
        from gym_core.runtime import Runtime

        rt = Runtime._by_loop.get(self.loop)
        if rt is not None and self.loop.is_running():
            try:
                self.run(rt.close(), timeout=20)
            except Exception:
                pass
        self.loop.call_soon_threadsafe(self.loop.stop)


def _fresh_tasks(pattern: str, seeds, split: str | None, app: str | None) -> list[Task]:
    from tasks.fresh import validated_tasks

    found = [t for t in validated_tasks(pattern, seeds, split=split) if app is None or t.app == app]
    if not found:
        raise ValueError(f"no proven fresh-world instance of {pattern!r} on seeds {seeds}: prove them first with "
                         f"`uigym tasks validate --tasks '{pattern}' --seeds {seeds}`")
    return found


class UIEnv(gym.Env):
    """reset(seed=None, options={"task": Task | id | dict}) -> (obs, info); step(action) -> 5-tuple.

    With no task in options, a task is drawn (seeded by `seed`) from `tasks` given at construction;
    with none of those either, the episode is free play in a world built from `seed`.
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 2}

    def __init__(self, app: str | None = None, task: Task | str | None = None, tasks: str | list | None = None,
                 render_mode: str | None = "rgb_array", config: EnvConfig | None = None,
                 seeds: str | list[int] | None = None, split: str | None = None, **config_kw):
        """`seeds` draws from fresh worlds: the proven instances of the templates `tasks` matches on those
        seeds (prove them first with `uigym tasks validate --seeds ...`; unproven ones are never served).
        `split` (train, test, heldout-seed, heldout-template) narrows either supply."""
        self.config = config or EnvConfig(**config_kw)
        self.app = app
        self.render_mode = render_mode
        if seeds is not None:
            tasks = _fresh_tasks(tasks if isinstance(tasks, str) else f"{app or '*'}/*", seeds, split, app)
        elif isinstance(tasks, str):
            tasks = select_tasks(tasks, app=app, split=split)
        self.tasks = list(tasks) if tasks else []
        self.fixed_task = task
        w, h = self.config.viewport
        max_steps = self.config.max_steps or 500
        self.observation_space = observation_space(w, h, max_steps)
        self.action_space = ActionSpace(w, h)
        self._loop = _LoopThread.get()
        self._env = AsyncUIEnv(app, self.config)
        self._last_obs: dict | None = None

    @property
    def async_env(self) -> AsyncUIEnv:
        return self._env

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        options = options or {}
        task = options.get("task", self.fixed_task)
        if task is None and self.tasks:
            task = self.tasks[int(self.np_random.integers(len(self.tasks)))]
        obs, info = self._loop.run(self._env.reset(task=task, seed=seed, start_path=options.get("start_path")))
        self._last_obs = obs
        return obs, info

    def step(self, action: Any):
        obs, reward, terminated, truncated, info = self._loop.run(self._env.step(action))
        self._last_obs = obs
        return obs, float(reward), terminated, truncated, info

    def render(self) -> np.ndarray | None:
        return None if self._last_obs is None else self._last_obs["screenshot"]

    def close(self) -> None:
        if self._env is not None:
            try:
                self._loop.run(self._env.close(), timeout=30)
            except Exception:
                pass
        super().close()
