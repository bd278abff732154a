"""What every mode of the env shares: the task, its world (reset through the control API), the step count,
the app's tools, and grading. AsyncUIEnv (the screen, and with tools on the hybrid mode) and AsyncToolEnv
(function calls only) are this plus their own way of acting and observing."""

from __future__ import annotations

import datetime as dt
import json
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from apps import app_looks, episode_look
from apps.tool_args import MalformedArgs, encode_args
from gym_core.actions import Action, ActionError, Done, ToolUse, action_to_dict, parse_action
from gym_core.config import EnvConfig
from gym_core.perturb import episode_key
from gym_core.variant import variant_look
from gym_core.runtime import Runtime
from gym_core.server import AppServer, ServerError, ToolCallError
from gym_core.spaces import GOAL_MAX_CHARS, TOOL_RESULT_MAX_CHARS, clip_text
from tasks import Task, load_task
from grading import verify
from grading.written import merge_written

# The env's own tool in tool and hybrid modes: it ends the episode (the `done` action), so a function-calling
# model can finish, and answer, the way it does everything else.
DONE_TOOL = {"type": "function", "function": {
    "name": "done",
    "description": "End the task. If the task asks a question, give the answer (just the value asked for).",
    "parameters": {"type": "object", "properties": {"answer": {"type": "string", "description": "the answer, if asked"}},
                   "additionalProperties": False}}}


@dataclass
class EpisodeStats:
    started: float = field(default_factory=time.perf_counter)
    recovered: int = 0


class EpisodeOver(RuntimeError):
    pass


def tool_result_text(result: Any) -> str:
    """A tool's result as the agent reads it: compact JSON, within the observation's bound."""
    return clip_text(json.dumps(result, ensure_ascii=False, separators=(",", ":")), TOOL_RESULT_MAX_CHARS)


class WorldEnv:
    # A seed family other than the app's own (AppSpec.families) and the clock of a reset without a task: set
    # by an env that builds its worlds from one, such as the workspace env (gym_core/workspace_env.py).
    family: str | None = None
    family_now: str | None = None

    def __init__(self, app: str | None = None, config: Any = None, runtime: Runtime | None = None,
                 world_id: str | None = None):
        self.app = app
        self.config = config or EnvConfig()
        self._runtime = runtime
        self.world_id = world_id or f"env-{uuid.uuid4().hex[:12]}"
        self.server: AppServer | None = None
        self.task: Task | None = None
        self.goal = ""
        self.steps = 0
        self.max_steps = self.config.default_max_steps
        self.done = False
        self.start_state: dict | None = None
        self.world_now: dt.datetime | None = None
        self.last_error = ""
        self.last_tool_result = ""
        self.last_png: bytes | None = None  # the screen after the last reset/step; None where there is none (tools)
        self.answer: str | None = None
        # One entry per step, for code (process) checks: {"step", "action", "url", "error"}.
        self.trajectory: list[dict] = []
        self._judge: Any = None
        self.stats = EpisodeStats()
        self._binding: dict = {}  # the world's cookie {name, value}, signed by the app (the control API's reset)
        self._tools: dict[str, list[dict]] = {}  # per app: the OpenAI tool list, with done

    @property
    def runtime(self) -> Runtime:
        if self._runtime is None:
            self._runtime = Runtime.current()
        return self._runtime

    # ------------------------------------------------------------------ reset
    def _take_task(self, task: Task | str | dict | None) -> tuple[Task | None, str]:
        if isinstance(task, str):
            task = load_task(task)
        elif isinstance(task, dict):
            task = Task.model_validate(task)
        if task is not None and len(task.goal) > GOAL_MAX_CHARS:  # the observation space's bound; not cut
            raise ValueError(f"task {task.id}: the goal is longer than {GOAL_MAX_CHARS} characters")
        app = task.app if task else self.app
        if app is None:
            raise ValueError(f"reset needs a task, or an env made for one app ({type(self).__name__}('mail'))")
        if self.app is not None and app != self.app:
            raise ValueError(f"this env is for the {self.app} app; task {task.id} is for {app}")
        return task, app

    async def _before_world_reset(self) -> None:
        """What must let go of the old world before it is reset (the UI's tab)."""

    def _episode_key(self, task: Task | None, seed: int | None) -> str:
        """What an episode's draws (its look, its screen perturbation) are made from (gym_core.perturb.episode_key):
        the task and seed, or for a reset without a seed the last seed given and the unseeded resets since, so
        reset(seed=s) then reset() draws the same every time (Gymnasium's check_env asks it)."""
        if seed is not None:
            self._key_seed, self._unseeded = seed, 0
        else:
            self._unseeded = getattr(self, "_unseeded", 0) + 1
        return episode_key(task.id if task else None, seed, getattr(self, "_key_seed", None), self._unseeded)

    async def _reset_world(self, task: Task | None, app: str, seed: int | None, look=None,
                           fixtures: list[dict] | None = None) -> dict:
        """Reset this env's world for `task` (or free play on `seed`, with `fixtures`: a workspace task's part for
        this app), fetch its start state, and start the episode's counters. Returns the control API's reset info.
        `look` (or EnvConfig.look) picks the look the pages show (apps/_shared/looks.py); a list or "random" is
        drawn from the task and `seed`."""
        if self.server is not None and self.server.app != app:
            await self._drop_world()
        self.task = task
        self.goal = task.goal if task else ""
        world_seed = task.seed if task else (seed or 0)
        now = task.now.isoformat() if task and task.now else (None if task else self.family_now)
        fixtures = task.fixtures if task else list(fixtures or [])
        self.server = await self.runtime.server(app)
        await self._before_world_reset()
        control = self.runtime.control(self.server)
        self.draw_key = self._episode_key(task, seed)
        want = look if look is not None else self.config.look
        if want is None:  # the variant's look axis (gym_core/variant.py), where no look is asked for
            want = variant_look(self.config.variant, app)
        self.look = episode_look(app, want, self.draw_key, task.template if task else None)
        # The default look is not named: a server serving another module under the app's name (a test or
        # third-party clone) has its own default.
        default = self.look == app_looks(app)[0]
        # The env's own family (the workspace env's worlds) first, else the config's (EnvConfig.family).
        chosen = self.family or self.config.family
        family = {"family": chosen} if chosen else {}
        reset_info = await control.reset(self.world_id, world_seed, now, fixtures, look=None if default else self.look,
                                         **family)
        self._binding = reset_info.pop("cookie")  # never in `info`: it is the key to the world
        self.world_now = dt.datetime.fromisoformat(reset_info["now"])

        key = [app, world_seed, reset_info["now"], fixtures, *family.values()]
        start = self.runtime.cached_start_state(key)
        if start is None:
            start = await control.state(self.world_id)
            self.runtime.store_start_state(key, start)
        self.start_state = start

        self.steps = 0
        self.done = False
        self.answer = None
        self.trajectory = []
        self.last_error = ""
        self.last_tool_result = ""
        self.stats = EpisodeStats()
        self.max_steps = self.config.max_steps or (task.max_steps if task else self.config.default_max_steps)
        return reset_info

    # ------------------------------------------------------------------- step
    # The step both modes share: count the step, parse the action (each mode allows its own types), let
    # the mode act, record it, grade at the end, observe. A mode fills in `_act`, `_observe`, `_page_url`
    # and, where the page must finish its requests before the world is read, `_before_grade`.
    allowed_actions: frozenset = frozenset()

    def _started(self) -> bool:
        return self.server is not None

    async def step(self, action: Any) -> tuple[dict, float, bool, bool, dict]:
        if not self._started():
            raise RuntimeError("call reset() before step()")
        if self.done:
            raise EpisodeOver("the episode is over; call reset() to start another")
        self.steps += 1
        self.last_error = ""
        parsed: Action | None = None
        terminated = False
        try:
            parsed = self._parse(action)
            if isinstance(parsed, Done):
                terminated = True
                self.answer = parsed.answer
            else:
                await self._act(parsed)
        except ActionError as e:
            self.last_error = str(e)
        truncated = not terminated and self.steps >= self.max_steps
        self.trajectory.append({"step": self.steps, "action": action_to_dict(parsed) if parsed is not None else None,
                                "url": self._page_url(), "error": self.last_error})
        reward = 0.0
        info_extra: dict[str, Any] = {}
        if terminated or truncated:
            await self._before_grade()
            info_extra = await self._finish()
            reward = info_extra.pop("reward")
        obs = await self._observe()
        info = self._info(**info_extra)
        info["action"] = action_to_dict(parsed) if parsed is not None else action
        return obs, reward, terminated, truncated, info

    def _parse(self, action: Any) -> Action:
        """The action, or ActionError for one this mode cannot take, whatever `action` is: a tool call's
        arguments must also be plain JSON a tool could take (apps/tool_args.py's `encode_args`: not too
        deep, integers SQLite can hold, valid Unicode), so a refused one is neither sent nor recorded."""
        try:
            parsed = parse_action(action, self.allowed_actions)
        except ActionError:
            raise
        except RecursionError:  # a JSON string nested deeper than the parser reads
            raise ActionError("the action is nested too deeply to read") from None
        except ValueError as e:  # the JSON reader's other limit: an integer over 4300 digits
            raise ActionError(f"the action cannot be read: {e}") from None
        if isinstance(parsed, ToolUse):
            try:
                encode_args(parsed.name, parsed.args)
            except MalformedArgs as e:
                self.last_tool_result = ""  # as for any refused call
                raise ActionError(str(e)) from None
        return parsed

    async def _act(self, action: Action) -> None:
        """Carry out one parsed action other than done; an ActionError is the agent's mistake, shown to it."""
        raise NotImplementedError

    async def _observe(self) -> dict[str, Any]:
        raise NotImplementedError

    def _page_url(self) -> str:
        return ""

    async def _before_grade(self) -> None:
        pass

    # ------------------------------------------------------------------ tools
    async def tools(self) -> list[dict]:
        """The app's tools in OpenAI function-calling form, and `done`: what a function-calling agent is given."""
        if self.server is None:
            raise RuntimeError("call reset() first: the tools are the app's")
        app = self.server.app
        if app not in self._tools:
            listed = await self.runtime.control(self.server).tools()
            self._tools[app] = [{"type": "function", "function": {
                "name": t["name"], "description": t["description"], "parameters": t["input_schema"]}}
                for t in listed["tools"]] + [DONE_TOOL]
        return self._tools[app]

    async def _call_tool(self, action: ToolUse) -> None:
        """Run one tool call in this env's world: its result (or its error) is what the agent reads next.
        Any refusal (ToolCallError: an unknown name, arguments beyond their bounds, an unknown id, from the
        client before sending or from the app) is the agent's mistake: an ActionError, the world unchanged."""
        url = self.server.url
        try:
            result = await self.runtime.control(self.server).call_tool(self.world_id, action.name, action.args)
        except ToolCallError as e:
            self.last_tool_result = ""
            raise ActionError(str(e)) from None
        except ServerError as e:
            # The app failed on the call (a 5xx: its bug, not the agent's; a tool's transaction is rolled back
            # on an exception): said to the agent, as a browser shows an error page, and the episode goes on.
            self.last_tool_result = ""
            raise ActionError(f"the app could not complete the call: {e}") from None
        finally:
            if self.server.url != url:  # the client found the server gone and sent the call to its restart
                self.stats.recovered += 1
        self.last_tool_result = tool_result_text(result)

    # ------------------------------------------------------------------ grade
    def _info(self, **extra) -> dict[str, Any]:
        return {
            "task_id": self.task.id if self.task else None,
            "app": self.server.app if self.server else self.app,
            "world": self.world_id,
            "now": self.world_now.isoformat() if self.world_now else None,
            "max_steps": self.max_steps,
            "look": getattr(self, "look", None),  # the app's look the pages are shown in (apps/_shared/looks.py)
            "recovered": self.stats.recovered,
            **extra,
        }

    async def state(self) -> dict:
        return await self.runtime.control(self.server).state(self.world_id)

    async def end_state(self) -> dict:
        """The world as it is now, for grading: the tables the episode wrote, read fresh (only their rows that differ
        from the start: grading.written.merge_written), and every other row and table as the start state has it (the
        same objects: the grader's diff skips them). Read whole when the app does not know what was written
        (apps/_shared/written.py)."""
        part = await self.runtime.control(self.server).state(self.world_id, written_only=True,
                                                             rows=self.start_state is not None)
        return merge_written(self.start_state, part)

    async def advance_clock(self, to: dt.datetime) -> int:
        """Move this world's frozen clock forward to `to` (the workspace env's wait): the app delivers what came due
        (a correspondent's answer). Returns how many things it delivered."""
        out = await self.runtime.control(self.server).clock(self.world_id, to.isoformat())
        self.world_now = dt.datetime.fromisoformat(out["now"])
        return int(out.get("delivered", 0))

    async def grading_state(self) -> dict:
        """The end state the task's verify reads (the workspace env's: its worlds' joint state)."""
        return await self.end_state()

    async def grade(self, answer: str | None = None):
        """The verifier's report on the world as it is now."""
        if self.task is None:
            from grading import VerifyResult

            return VerifyResult(score=0.0, passed=False, checks=[])
        end = await self.grading_state()
        judge = None
        if self.task.verify.has_judge:
            judge = self.config.judge
            if judge is None:
                from grading.judge import judge_from_env

                self._judge = self._judge or judge_from_env()
                judge = self._judge
        return verify(self.task.verify, self.start_state, end, answer if answer is not None else self.answer,
                      trajectory=self.trajectory, judge=judge, partial_credit=self.config.partial_credit)

    async def grade_if_done(self, answer: str | None = None):
        """The grade a `done` with `answer` would get if it were the next step, without taking it: the
        page's late requests land first and the trajectory the process checks read ends in that done, as
        the step's own grade would (agent_harness/validate.py grades a shorter probe on the way of a
        longer one that plays the same steps first)."""
        await self._before_grade()
        saved = self.trajectory
        done = {"step": self.steps + 1, "action": action_to_dict(Done(answer=answer)), "url": self._page_url(),
                "error": ""}
        self.trajectory = saved + [done]
        try:
            return await self.grade(answer)
        finally:
            self.trajectory = saved

    async def _finish(self) -> dict[str, Any]:
        """Grade the ended episode: the info keys the step adds."""
        self.done = True
        result = await self.grade()
        # graded False when a judge check got no verdict: the reward (0) is then no grade at all, and a
        # trainer must drop the episode, not learn from it.
        return {"reward": result.score, "verify": result.model_dump(), "graded": result.status == "graded"}

    # ------------------------------------------------------------------ close
    async def _drop_world(self) -> None:
        if self.server is not None:
            try:
                await self.runtime.control(self.server).drop(self.world_id)
            except Exception:
                pass

    async def close(self) -> None:
        """Drop this env's world (the screen env also closes its browser context first)."""
        await self._drop_world()
        self.server = None

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()


__all__ = ["WorldEnv", "EpisodeStats", "EpisodeOver", "DONE_TOOL", "ServerError", "tool_result_text"]
