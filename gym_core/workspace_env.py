"""The workspace env: mail, food and crm in three browser tabs over one universe (the workspace seed family).

    env = AsyncWorkspaceEnv("ui")                      # or "tools", "hybrid"
    obs, info = await env.reset(seed=0)                # the three worlds of workspace seed 0, reset together
    await env.step({"type": "switch_tab", "tab": "crm"})             # or {"tab": 3}, or Ctrl+3
    await env.step({"type": "tool", "name": "crm_search_records", "args": {...}})   # tools, hybrid: app-prefixed

One env per app does the work (AsyncUIEnv in the screen and hybrid modes, AsyncToolEnv in tools mode), each
with its own world built from the workspace family (seed_data/workspace.py: one cast, one frozen clock) and,
on a screen, its own tab: its own browser context in the runtime's one Chromium, with the request guard and
world cookie of its app's origin (gym_core/tab.py). The apps are served on one host, and a cookie is scoped
by host, not port: one context for the three would give the three apps' world cookies one slot. The agent
sees one tab at a time (`obs["tab"]` names it, `info["tabs"]` lists them) and brings another to the front
with `switch_tab` or the browser's Ctrl+1..3 (Cmd on a Mac); every other action goes to the front tab.

A workspace task (app "workspace", tasks/workspace.py) is graded at `done` as a single-app task is, by its
verify over the worlds' joint state (grading/joint.py: tables `<app>.<table>`, so one `unchanged_except` is every
app's side-effect rule). Free play (`reset(seed=...)`): `done` gives reward 0. `end_state()` is {app: state}.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import json
import time
import uuid
from typing import Any

import numpy as np
from gymnasium import spaces as gym_spaces

from gym_core.actions import WORKSPACE_ACTION_TYPES, Action, ActionError, KeyPress, SwitchTab, ToolUse, Wait
from gym_core.config import EnvConfig
from gym_core.env import AsyncUIEnv
from gym_core.keys import normalize_keys
from gym_core.perturb import extra_steps
from gym_core.runtime import Runtime
from gym_core.spaces import (
    ERROR_MAX_CHARS, ActionSpace, FreeText, HybridActionSpace, ToolActionSpace, clip_text, observation_space,
    screen_bounds, tool_observation_space,
)
from gym_core.sync_env import LoopThread, UIEnv
from gym_core.sync_env import tool_names as app_tool_names
from gym_core.tool_env import AsyncToolEnv
from gym_core.world_env import DONE_TOOL, WorldEnv
from grading.joint import joint_state, split_table
from seed_data.workspace import APPS, FAMILY, NOW
from tasks import Task, load_task
from tasks.schema import WORKSPACE

# Time passes in the workspace only when the agent waits: a screen `wait` of ms moves the three worlds' clock on by
# ms x WORLD_TIME_PER_MS (a 10 s wait, the longest, is 10 minutes), and the `wait` tool by its minutes. The page itself
# waits at most PAGE_WAIT_MS of real time (nothing on a frozen clock happens in real time but the page settling).
WORLD_TIME_PER_MS = dt.timedelta(milliseconds=60)
PAGE_WAIT_MS = 500
QUIET_S = 0.2  # before the clock moves, the open tabs' requests have been over this long (AsyncWorkspaceEnv._quiet)
WAIT_TOOL = {"type": "function", "function": {
    "name": "wait",
    "description": "Let time pass (the people you wrote to answer after a while), then see what arrived.",
    "parameters": {"type": "object", "properties": {"minutes": {
        "type": "integer", "minimum": 1, "maximum": 60, "description": "how many minutes to wait"}},
        "required": ["minutes"], "additionalProperties": False}}}
TAB_KEYS = ("Control", "Meta")  # Ctrl+N (Cmd+N on a Mac) brings tab N to the front, as in a browser
TOOL_SEP = "_"  # a workspace tool's name: <app>_<the app's tool name>, e.g. mail_send_message


def tab_index(tab: Any) -> int:
    """A tab as the agent names it (an app's name, or its number from 1) -> its index; ActionError if none."""
    if isinstance(tab, str) and tab.strip().lower() in APPS:
        return APPS.index(tab.strip().lower())
    if isinstance(tab, str) and tab.strip().isdigit():
        tab = int(tab.strip())
    if isinstance(tab, int) and not isinstance(tab, bool) and 1 <= tab <= len(APPS):
        return tab - 1
    raise ActionError(f"no tab {tab!r}: name one of {', '.join(APPS)} or a number 1-{len(APPS)}")


def tab_shortcut(keys: list[str]) -> int | None:
    """The tab a chord brings to the front (Ctrl+1 -> 0), or None for any other chord."""
    try:
        keys = normalize_keys(keys)
    except Exception:  # noqa: BLE001 - not a chord of ours: the page gets it and says what is wrong
        return None
    if len(keys) == 2 and keys[0] in TAB_KEYS and keys[1].isdigit() and 1 <= int(keys[1]) <= len(APPS):
        return int(keys[1]) - 1
    return None


def looks_by_app(look: Any) -> dict[str, Any]:
    """The look each tab's app gets from the one the caller named (reset's `look`, EnvConfig.look): a dict
    {app: look} as given; "random" or "heldout" to every app (each draws its own); a look's id, a list of ids or
    "a,b": each app the ids that are its own looks (one: that look; several: drawn among them; none: its default).
    ValueError for an app the workspace has not, or an id no app of it has (the apps' looks are named)."""
    from apps import app_looks

    if look is None:
        return dict.fromkeys(APPS)
    if isinstance(look, dict):
        unknown = sorted(set(look) - set(APPS))
        if unknown:
            raise ValueError(f"no app {', '.join(map(repr, unknown))} in the workspace: its apps are {', '.join(APPS)}")
        return {app: look.get(app) for app in APPS}
    if look in ("random", "heldout"):
        return dict.fromkeys(APPS, look)
    names = [n.strip() for n in (look.split(",") if isinstance(look, str) else list(look)) if str(n).strip()]
    owned = {app: [n for n in names if n in app_looks(app)] for app in APPS}
    stray = [n for n in names if not any(n in mine for mine in owned.values())]
    if stray:
        raise ValueError(f"no app of the workspace has the look {', '.join(map(repr, stray))}; their looks: "
                         + "; ".join(f"{app}: {', '.join(app_looks(app))}" for app in APPS))
    return {app: (mine[0] if len(mine) == 1 else mine) if mine else None for app, mine in owned.items()}


def task_fixtures(task: Task | None) -> dict[str, list[dict]]:
    """A workspace task's fixtures by app: each names its table as `<app>.<table>` (as its verify does)."""
    out: dict[str, list[dict]] = {app: [] for app in APPS}
    for i, fx in enumerate(task.fixtures if task else []):
        try:
            app, table = split_table(str(fx.get("table", "")))
        except ValueError as e:
            raise ValueError(f"task {task.id}: fixture #{i}: {e}") from None
        if app not in out:
            raise ValueError(f"task {task.id}: fixture #{i}: no app {app!r} in the workspace")
        out[app].append({**fx, "table": table})
    return out


def split_tool(name: str) -> tuple[str, str]:
    """'crm_create_case' -> ('crm', 'create_case'); ActionError for a name of no app."""
    app, sep, tool = name.partition(TOOL_SEP)
    if not sep or app not in APPS or not tool:
        raise ActionError(f"unknown tool {name!r}: a workspace tool is named <app>{TOOL_SEP}<tool>, the app one of "
                          f"{', '.join(APPS)} (e.g. mail{TOOL_SEP}...); see the tool list")
    return app, tool


class AsyncWorkspaceEnv(WorldEnv):
    """Three apps over one workspace world, in tabs (screen, hybrid) or as one tool list (tools)."""

    def __init__(self, mode: str = "ui", config: EnvConfig | None = None, runtime: Runtime | None = None,
                 world_id: str | None = None):
        if mode not in WORKSPACE_ACTION_TYPES:
            raise ValueError(f"mode must be one of {', '.join(WORKSPACE_ACTION_TYPES)}, got {mode!r}")
        config = (config or EnvConfig()).for_mode(mode)
        if config.family is not None:  # its worlds are the workspace family's, one cast over the three apps
            raise ValueError(f"the workspace env builds its worlds from the workspace family; EnvConfig.family "
                             f"{config.family!r} is for single-app tasks")
        super().__init__(None, config, runtime, world_id or f"ws-{uuid.uuid4().hex[:12]}")
        self.mode = mode
        self.allowed_actions = WORKSPACE_ACTION_TYPES[mode]
        cls = AsyncToolEnv if mode == "tools" else AsyncUIEnv
        self.envs: dict[str, WorldEnv] = {}
        app_look = looks_by_app(self.config.look)  # each tab its own app's look (a ValueError names the choices)
        for app in APPS:
            env = cls(app, dataclasses.replace(self.config, look=app_look[app]), runtime,
                      world_id=f"{self.world_id}-{app}")
            env.family, env.family_now = FAMILY, NOW.isoformat()
            self.envs[app] = env
        self.active = 0
        self.opened: set[str] = set()  # the tabs whose page this episode has opened
        self._tool_list: list[dict] | None = None

    @property
    def tab(self) -> str:
        return APPS[self.active]

    @property
    def tab_names(self) -> tuple[str, ...]:
        """The browser's tabs in order (what Ctrl+1..N brings to the front); none in tools mode, which has no screen."""
        return () if self.mode == "tools" else tuple(APPS)

    @property
    def front(self) -> WorldEnv:
        return self.envs[self.tab]

    # What a privileged player (the oracle) reads of the screen: the front tab's.
    @property
    def page(self):
        return self.front.page

    @property
    def width(self) -> int:
        return self.front.width

    @property
    def height(self) -> int:
        return self.front.height

    @property
    def last_png(self) -> bytes | None:
        return None if self.mode == "tools" else self.front.last_png

    @last_png.setter
    def last_png(self, _value) -> None:  # WorldEnv.__init__ sets it; the front tab's is the one shown
        pass

    # ------------------------------------------------------------------ reset
    async def reset(self, *, task: Any = None, seed: int | None = None, start_path: str | None = None,
                    look: Any = None) -> tuple[dict, dict]:
        """The three worlds of workspace seed `seed` (0 when None), or of a workspace task (its seed and fixtures),
        reset together; the mail tab in front, at `start_path` (or the task's)."""
        task = self._workspace_task(task)
        self._episode_key(task, seed)
        world_seed = task.seed if task else (seed or 0)
        fixtures = task_fixtures(task)
        app_look = looks_by_app(look)
        self.active = 0
        self.opened = set()
        if self.mode == "tools":
            results = await asyncio.gather(*(env.reset(seed=world_seed, look=app_look[app], fixtures=fixtures[app])
                                             for app, env in self.envs.items()))
            resets = {app: info["reset"] for app, (_obs, info) in zip(APPS, results)}
        else:
            # Every world is reset (each tab parked first, so no page of the last episode reaches the new world);
            # the front tab's page opens now and each other tab's the first time it comes to the front, as a
            # browser restores a session's background tabs.
            infos = await asyncio.gather(*(self._reset_tab(env, world_seed, app_look[app], fixtures[app])
                                           for app, env in self.envs.items()))
            resets = dict(zip(APPS, infos))
            await self._open_tab(self.tab, start_path or (task.start_path if task else None))
        self.world_now = NOW
        self.task, self.goal = task, task.goal if task else ""
        self.steps, self.done, self.answer, self.trajectory = 0, False, None, []
        self.last_error, self.last_tool_result = "", ""
        self.max_steps = self.config.max_steps or (task.max_steps if task else self.config.default_max_steps)
        if self.mode != "tools":  # the clicks that close each tab's overlays come on top of the budget, as in one app
            self.max_steps += sum(extra_steps(env.drawn) for env in self.envs.values())
        self.start_state = joint_state({app: env.start_state for app, env in self.envs.items()})
        extra = {"tools": await self.tools()} if self.config.tools or self.mode == "tools" else {}
        return await self._observe(), self._info(reset=resets, **extra)

    def _workspace_task(self, task: Any) -> Task | None:
        if isinstance(task, str):
            task = load_task(task)
        elif isinstance(task, dict):
            task = Task.model_validate(task)
        if task is not None and task.app != WORKSPACE:
            raise ValueError(f"the workspace env plays workspace tasks; {task.id} is a {task.app} task")
        return task

    @staticmethod
    async def _reset_tab(env: AsyncUIEnv, seed: int, look: Any, fixtures: list[dict]) -> dict:
        """A tab's world reset to the workspace seed (and its part of the task's fixtures), its page not yet
        opened."""
        _task, info = await env.reset_unopened(seed=seed, look=look, fixtures=fixtures)
        return info

    async def _open_tab(self, app: str, path: str | None = None) -> None:
        """Open the tab's page (at the app's start, or `path`) the first time it comes to the front."""
        if app in self.opened:
            return
        env = self.envs[app]
        await env._open_page(env.server.url + (path or "/"), parked=env._parked)
        self.opened.add(app)

    # ------------------------------------------------------------------- step
    def _started(self) -> bool:
        return all(env.server is not None for env in self.envs.values()) and (
            self.mode == "tools" or self.front._started())

    async def _act(self, action: Action) -> None:
        tab = None
        if isinstance(action, SwitchTab):
            tab = tab_index(action.tab)
        elif isinstance(action, KeyPress) and self.mode != "tools":
            tab = tab_shortcut(action.keys)
        if tab is not None:
            self.active = tab
            await self._open_tab(self.tab)
            return
        passes = None
        if isinstance(action, Wait):  # the front page settles, then time passes for the three worlds (below)
            passes = WORLD_TIME_PER_MS * action.ms
            action = Wait(ms=min(action.ms, PAGE_WAIT_MS))
        elif isinstance(action, ToolUse) and action.name == WAIT_TOOL["function"]["name"]:
            minutes = action.args.get("minutes")
            if set(action.args) != {"minutes"} or not isinstance(minutes, int) or isinstance(minutes, bool) \
                    or not 1 <= minutes <= 60:
                raise ActionError("wait takes {\"minutes\": a whole number from 1 to 60}")
            delivered = await self._pass_time(dt.timedelta(minutes=minutes))
            self.last_tool_result = json.dumps({"now": self.world_now.isoformat(), "new_mail": delivered})
            return
        env = self.front
        if isinstance(action, ToolUse):
            app, name = split_tool(action.name)
            env, action = self.envs[app], ToolUse(name=name, args=action.args)
        env.last_error = ""
        try:
            if isinstance(action, ToolUse) and self.mode != "tools" and env.app not in self.opened:
                await env._call_tool(action)  # no page yet: it opens on the world the call left
            else:
                await env._act(action)
        finally:
            if env.last_error:  # what the tab's own recovery told it (a reopened page, an error page)
                self._tell(env.last_error)
            if isinstance(action, ToolUse):
                self.last_tool_result = env.last_tool_result
        if passes is not None:
            await self._quiet()
            await self._pass_time(passes)

    async def _quiet(self) -> None:
        """Until the open tabs have had no request in flight for QUIET_S: what the last actions set off reaches the
        apps before the clock moves, a request one response sets off included (mail's Send posts once the draft save
        in flight is in). Seen under load: the clock moved first, the question was sent 10 minutes late, and its
        answer never came within the task (the gold of ask-time-schedule-lunch scored 0). The page's request events
        can reach the env after its own round trips, hence a quiet period, not one look."""
        deadline = time.monotonic() + self.config.action_timeout_s
        tabs = [self.envs[app] for app in self.opened if self.envs[app].page is not None]
        quiet_from = time.monotonic()
        while tabs and time.monotonic() < deadline:
            if any(t._inflight for t in tabs):
                await asyncio.gather(*(t._drain(deadline) for t in tabs))
                quiet_from = time.monotonic()
            elif time.monotonic() - quiet_from >= QUIET_S:
                return
            await asyncio.sleep(0.01)

    async def _pass_time(self, delta: dt.timedelta) -> int:
        """The three worlds' clock moved on by `delta` (one clock: they stay equal); what came due is delivered (a
        correspondent's answer in the mailbox), and an open mail tab shows it, as a live inbox would."""
        to = (self.world_now or NOW) + delta
        counts = await asyncio.gather(*(env.advance_clock(to) for env in self.envs.values()))
        self.world_now = to
        mail = self.envs["mail"]
        if sum(counts) and self.mode != "tools" and "mail" in self.opened and mail.page is not None:
            await mail._goto(mail.page.url)
        return sum(counts)

    def _tell(self, text: str) -> None:
        if text not in self.last_error:
            self.last_error = f"{self.last_error}; {text}" if self.last_error else text

    def _page_url(self) -> str:
        return self.front._page_url()

    async def _before_grade(self) -> None:
        await asyncio.gather(*(env._before_grade() for env in self.envs.values()))

    async def _observe(self) -> dict[str, Any]:
        env = self.front
        env.steps, env.last_error, env.last_tool_result = self.steps, self.last_error, self.last_tool_result
        obs = await env._observe()
        obs.update(goal=self.goal, step=self.steps, last_action_error=clip_text(self.last_error, ERROR_MAX_CHARS))
        if self.mode != "tools":
            obs["tab"] = self.tab
        return obs

    def _info(self, **extra) -> dict[str, Any]:
        return {
            "task_id": self.task.id if self.task else None, "app": WORKSPACE, "tab": self.tab, "tabs": list(APPS),
            "worlds": {app: env.world_id for app, env in self.envs.items()},
            "now": (self.world_now or NOW).isoformat(), "max_steps": self.max_steps,
            "recovered": sum(env.stats.recovered for env in self.envs.values()),
            **extra,
        }

    # ------------------------------------------------------------------ tools
    async def tools(self) -> list[dict]:
        """The three apps' tools, each named <app>_<tool> and its description marked with its app, then `wait` (time
        passes) and done."""
        if self._tool_list is None:
            listed = await asyncio.gather(*(env.tools() for env in self.envs.values()))
            out = []
            for app, tools in zip(APPS, listed):
                for t in tools:
                    f = t["function"]
                    if f["name"] == DONE_TOOL["function"]["name"]:
                        continue
                    out.append({"type": "function", "function": {
                        **f, "name": f"{app}{TOOL_SEP}{f['name']}", "description": f"({app}) {f['description']}"}})
            self._tool_list = out + [WAIT_TOOL, DONE_TOOL]
        return self._tool_list

    # ------------------------------------------------------------------ grade
    async def end_state(self) -> dict:
        """The joint end state: {app: that world's end state}."""
        states = await asyncio.gather(*(env.end_state() for env in self.envs.values()))
        return dict(zip(APPS, states))

    async def grading_state(self) -> dict:
        """What a workspace task's verify reads: the joint end state, tables `<app>.<table>` (grading/joint.py)."""
        return joint_state(await self.end_state())

    # ------------------------------------------------------------------ close
    async def close(self) -> None:
        await asyncio.gather(*(env.close() for env in self.envs.values()), return_exceptions=True)


__all__ = ["AsyncWorkspaceEnv", "tab_index", "tab_shortcut", "split_tool", "task_fixtures", "TOOL_SEP"]


# ------------------------------------------------------------------------------------------ Gymnasium
TAB_NAME_MAX_CHARS = 16


def workspace_tool_names() -> tuple[str, ...]:
    """Every workspace tool's name (<app>_<tool>), for the action spaces' samples."""
    return tuple(f"{app}{TOOL_SEP}{name}" for app in APPS for name in app_tool_names(app))


class _TabSwitching:
    """An action space that also switches tabs: sample() draws switch_tab as one more type."""

    def sample(self, mask: Any = None, probability: Any = None) -> dict:
        weights = self._type_weights(mask, probability)
        r = self.np_random
        kind = int(r.choice(len(self.TYPES), p=weights))
        if self.TYPES[kind] == "switch_tab":
            return {"type": "switch_tab", "tab": APPS[int(r.integers(len(APPS)))]}
        one = np.zeros(len(self.TYPES), dtype=np.int8)
        one[kind] = 1
        return super().sample(mask=one)  # the single-app space's arguments for the drawn type


class WorkspaceActionSpace(_TabSwitching, ActionSpace):
    TYPES = WORKSPACE_ACTION_TYPES["ui"]


class WorkspaceHybridActionSpace(_TabSwitching, HybridActionSpace):
    TYPES = WORKSPACE_ACTION_TYPES["hybrid"]


class WorkspaceEnv(UIEnv):
    """The Gymnasium face of AsyncWorkspaceEnv: uigym/workspace-v0, -tools-v0, -hybrid-v0.

    reset(seed=s) resets the three worlds of workspace seed s; observations are the single-app env's plus
    `tab` (the app in front) on a screen; actions are the mode's plus `switch_tab` on a screen."""

    def __init__(self, render_mode: str | None = "rgb_array", config: EnvConfig | None = None, mode: str = "ui",
                 **config_kw):
        if mode not in WORKSPACE_ACTION_TYPES:
            raise ValueError(f"mode must be one of {', '.join(WORKSPACE_ACTION_TYPES)}, got {mode!r}")
        self.mode = mode
        self.config = (config or EnvConfig(**config_kw)).for_mode(mode)
        self.app = None
        self.render_mode = render_mode if mode != "tools" else None
        self.tasks, self.fixed_task = [], None
        w, h = screen_bounds(self.config)
        names = workspace_tool_names()
        if mode == "tools":
            self.observation_space = tool_observation_space(self.config)
            self.action_space = ToolActionSpace(names)
        else:
            self.observation_space = gym_spaces.Dict({**observation_space(self.config).spaces,
                                                    "tab": FreeText(TAB_NAME_MAX_CHARS)})
            self.action_space = (WorkspaceHybridActionSpace(w, h, tool_names=names) if self.config.tools
                                 else WorkspaceActionSpace(w, h))
        self._closed = False
        self._loop = LoopThread.acquire()  # last: released by close()
        self._env = AsyncWorkspaceEnv(mode, self.config, runtime=self._loop.runtime)
        self._last_obs = None


__all__ += ["WorkspaceEnv", "WorkspaceActionSpace", "WorkspaceHybridActionSpace", "workspace_tool_names"]
