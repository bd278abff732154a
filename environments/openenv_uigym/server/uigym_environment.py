"""uigym as an OpenEnv `Environment`: each session is one of uigym's own envs (AsyncUIEnv for the screen and the
hybrid mode, AsyncToolEnv for tools), on the server's event loop, so every session of a server shares one
Chromium and one app server per app (gym_core.runtime.Runtime), each session in its own world and its own
browser context.

This module translates and does nothing else: the task is picked with uigym's loader (`tasks.select_tasks`,
`tasks.load_task`), the action is parsed, performed, counted and graded by the env's own `step`
(gym_core/world_env.py), and the reward is the verifier's score that step computed. A session never sees the
control API (its token and port stay in this process), a task's gold solutions, or its verifier spec: the
observation is the goal, the screen or the tool results, and the state adds the verifier's *report* once the
episode is over.

Reset options (the OpenEnv client's `reset(**kwargs)`): `task` (a task id), `tasks` (id globs, comma separated,
as `uigym eval --tasks`), `split` (train, test, heldout-seed, heldout-template, safety), `seed` (the reset's seed: which
of the matching tasks, and the episode's draws), `episode_id`. Without `task`, one of the tasks that match
`tasks` and `split` (all of the server's app by default) is drawn from `seed` (at random without one).
"""

from __future__ import annotations

import asyncio
import base64
import random
import threading
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from openenv.core.env_server.interfaces import Environment
from openenv.core.env_server.types import EnvironmentMetadata

from gym_core.config import EnvConfig
from gym_core.env import AsyncUIEnv
from gym_core.runtime import Runtime
from gym_core.tool_env import AsyncToolEnv
from gym_core.world_env import EpisodeOver
from tasks import Task, TaskLoadError, load_task, load_tasks, select_tasks
from tasks.loader import SPLITS  # train, test, heldout-seed, heldout-template, safety: the loader's one list

try:  # the package installed (pip install -e environments/openenv_uigym) or run from its folder (OpenEnv's layout)
    from openenv_uigym.models import UIGymAction, UIGymObservation, UIGymState
except ImportError:  # pragma: no cover - `uvicorn server.app:app` inside the package folder (the Dockerfile's CMD)
    from models import UIGymAction, UIGymObservation, UIGymState  # type: ignore[no-redef]

MODES = ("ui", "tools", "hybrid")
APPS = ("mail", "food", "crm")
RESET_OPTIONS = ("task", "tasks", "split", "seed", "episode_id")
CLOSE_TIMEOUT_S = 30.0


@dataclass(frozen=True)
class Settings:
    """What one server serves: the app (None: any, each task's own), the mode, the observation's options."""

    app: Optional[str] = None
    mode: str = "ui"
    max_steps: Optional[int] = None
    a11y_tree: bool = False
    set_of_marks: bool = False
    tasks_dir: Optional[Path] = None

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {self.mode!r}")
        if self.app is not None and self.app not in APPS:
            raise ValueError(f"app must be one of {', '.join(APPS)}, not {self.app!r}")

    def env_config(self) -> EnvConfig:
        return EnvConfig(max_steps=self.max_steps, a11y_tree=self.a11y_tree, set_of_marks=self.set_of_marks,
                         tools=self.mode == "hybrid")


class ResetError(ValueError):
    """A reset the env cannot do (an unknown task, option or split): said to the client, the session open."""


class UIGymEnvironment(Environment[UIGymAction, UIGymObservation, UIGymState]):
    """One OpenEnv session: one uigym env, one world, one browser context (none in tools mode)."""

    SUPPORTS_CONCURRENT_SESSIONS = True
    # Sessions live on the server's event loop (reset_async/step_async), not in executor threads: Playwright's
    # async API and the shared Runtime are bound to that loop.
    REQUIRES_SINGLE_THREAD_EXECUTOR = False

    # Live sessions of this process (for /uigym/stats): the envs whose world and context are not closed yet.
    _live: "set[UIGymEnvironment]" = set()
    _live_lock = threading.Lock()
    _closing: "set[asyncio.Task]" = set()  # closes scheduled on the loop (OpenEnv's stateless HTTP routes)

    def __init__(self, settings: Settings | None = None):
        # Called by OpenEnv in a worker thread: nothing here may touch the event loop.
        super().__init__()
        self.settings = settings or Settings()
        self._env: AsyncUIEnv | AsyncToolEnv | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._state = UIGymState(mode=self.settings.mode, app=self.settings.app)

    # ------------------------------------------------------------------ metadata
    def get_metadata(self) -> EnvironmentMetadata:
        readme = Path(__file__).resolve().parent.parent / "README.md"
        return EnvironmentMetadata(
            name="uigym", version="0.1.0", author="uigym",
            description=("Computer-use tasks on faithful clones of mail, food-delivery and CRM web apps, graded from "
                         f"the end state (app: {self.settings.app or 'any'}, mode: {self.settings.mode})"),
            readme_content=readme.read_text() if readme.is_file() else None)

    # ------------------------------------------------------------------ reset
    def reset(self, seed: Optional[int] = None, episode_id: Optional[str] = None, **kwargs: Any) -> UIGymObservation:
        raise RuntimeError("uigym's environment is asynchronous: the server calls reset_async")

    def step(self, action: UIGymAction, timeout_s: Optional[float] = None, **kwargs: Any) -> UIGymObservation:
        raise RuntimeError("uigym's environment is asynchronous: the server calls step_async")

    def pick_task(self, seed: Optional[int], options: dict[str, Any]) -> Task:
        """The reset's task: `task` by id, else one of those `tasks` and `split` select for the server's app."""
        unknown = sorted(set(options) - set(RESET_OPTIONS))
        if unknown:
            raise ResetError(f"unknown reset option(s) {', '.join(map(repr, unknown))}; "
                             f"the options are {', '.join(RESET_OPTIONS)}")
        task_id, pattern, split = options.get("task"), options.get("tasks"), options.get("split")
        for name, value in (("task", task_id), ("tasks", pattern), ("split", split)):
            if value is not None and not isinstance(value, str):
                raise ResetError(f"reset option {name} must be a string, not {type(value).__name__}")
        if split is not None and split not in SPLITS:
            raise ResetError(f"unknown split {split!r}; the splits are {', '.join(SPLITS)}")
        pool = load_tasks(self.settings.tasks_dir) if self.settings.tasks_dir is not None else None
        if task_id is not None:
            if pattern is not None or split is not None:
                raise ResetError("give `task`, or `tasks`/`split` to draw one, not both")
            try:
                task = next(t for t in pool if t.id == task_id) if pool is not None else load_task(task_id)
            except (StopIteration, TaskLoadError) as e:
                raise ResetError(str(e).strip("'\"") or f"no task {task_id!r}") from None
        else:
            chosen = select_tasks(pattern or "*", app=self.settings.app, split=split, tasks=pool)
            if not chosen:
                raise ResetError(f"no task matches tasks={pattern or '*'!r}" + (f", split={split!r}" if split else "")
                                 + (f" for the {self.settings.app} app" if self.settings.app else ""))
            task = random.Random(seed).choice(chosen) if seed is not None else random.choice(chosen)
        if self.settings.app is not None and task.app != self.settings.app:
            raise ResetError(f"task {task.id} is a {task.app} task; this server serves {self.settings.app}")
        if self.settings.mode == "tools" and (task.tools is None or task.tools.unsupported):
            why = task.tools.unsupported if task.tools is not None else "it has no tool plan"
            raise ResetError(f"task {task.id} cannot be played in tools mode: {why}")
        return task

    async def reset_async(self, seed: Optional[int] = None, episode_id: Optional[str] = None,
                          **kwargs: Any) -> UIGymObservation:
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
            raise ResetError(f"seed must be a non-negative integer, not {seed!r}")
        task = self.pick_task(seed, kwargs)
        self._loop = asyncio.get_running_loop()
        if self._env is not None and self._env.server is not None and self._env.server.app != task.app:
            await self._env.close()  # another app's world and context: let them go before the new app's
            self._env = None
        if self._env is None:
            env_cls = AsyncToolEnv if self.settings.mode == "tools" else AsyncUIEnv
            self._env = env_cls(task.app, self.settings.env_config(), Runtime.current())
            with self._live_lock:
                self._live.add(self)
        obs, info = await self._env.reset(task=task, seed=seed)
        self._state = UIGymState(episode_id=episode_id or uuid.uuid4().hex, step_count=0, task_id=task.id,
                                 app=task.app, mode=self.settings.mode, seed=seed, look=info.get("look"),
                                 max_steps=info.get("max_steps"))
        return self._observation(obs, reward=None, done=False, tools=info.get("tools"))

    # ------------------------------------------------------------------ step
    async def step_async(self, action: UIGymAction, timeout_s: Optional[float] = None,
                         **kwargs: Any) -> UIGymObservation:
        if self._env is None or self._state.task_id is None:
            return self._refused("no episode: send a reset first (OpenEnv's HTTP /step is stateless: play an "
                                 "episode over the WebSocket session, the EnvClient)")
        if self._state.done:
            return self._refused("the episode is over; reset to start another", done=True)
        try:
            obs, reward, terminated, truncated, info = await self._env.step(action.to_env())
        except EpisodeOver as e:
            return self._refused(str(e), done=True)
        done = terminated or truncated
        self._state.step_count = self._env.steps
        if done:
            self._state.done, self._state.reward = True, float(reward)
            self._state.verify = info.get("verify")
        return self._observation(obs, reward=float(reward), done=done, truncated=truncated and not terminated)

    def _refused(self, why: str, done: bool = False) -> UIGymObservation:
        return UIGymObservation(goal=self._env.goal if self._env is not None else "", step=self._state.step_count,
                                last_action_error=why, done=done, reward=None)

    def _observation(self, obs: dict, *, reward: float | None, done: bool, truncated: bool = False,
                     tools: list | None = None) -> UIGymObservation:
        png = getattr(self._env, "last_png", None)
        marks = obs.get("marks")
        return UIGymObservation(
            screenshot=base64.b64encode(png).decode("ascii") if png else None,
            url=obs.get("url", ""), goal=obs.get("goal", ""), step=int(obs.get("step", 0)),
            last_action_error=obs.get("last_action_error", ""), tool_result=obs.get("tool_result"),
            a11y_tree=obs.get("a11y_tree"),
            marks=[{**m, "box": [int(v) for v in m["box"]]} for m in marks] if marks is not None else None,
            tools=tools, truncated=truncated, reward=reward, done=done)

    @property
    def state(self) -> UIGymState:
        return self._state

    # ------------------------------------------------------------------ close
    async def aclose(self) -> None:
        env, self._env = self._env, None
        try:
            if env is not None:
                await env.close()  # the browser context, then the world (gym_core: WorldEnv.close)
        finally:
            with self._live_lock:
                self._live.discard(self)

    def close(self) -> None:
        """OpenEnv closes a session from a worker thread (a dropped WebSocket, a reaped idle session): the env's
        context and world are closed on the loop they live on, and this waits for it. Called on the loop itself
        (OpenEnv's stateless HTTP routes), the close is scheduled there."""
        loop = self._loop
        if self._env is None or loop is None or loop.is_closed():
            with self._live_lock:
                self._live.discard(self)
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            task = loop.create_task(self.aclose())
            self._closing.add(task)  # the loop keeps only a weak reference to a task
            task.add_done_callback(self._closing.discard)
            return
        asyncio.run_coroutine_threadsafe(self.aclose(), loop).result(CLOSE_TIMEOUT_S)

    @classmethod
    def live_sessions(cls) -> int:
        with cls._live_lock:
            return len(cls._live)


__all__ = ["UIGymEnvironment", "Settings", "ResetError", "MODES", "APPS", "SPLITS", "RESET_OPTIONS"]
