"""A recording session: one annotator, one env, a list of tasks; every input becomes a uigym action.

The Recorder owns an AsyncUIEnv on its own event loop (a thread), so the web page's requests
(Flask threads) hand it actions one at a time. A finished episode is graded by the task's verifier
and saved like an eval episode:

    <out>/results.jsonl                                  one row per demonstration (agent "human:<annotator>")
    <out>/episodes/<task>/s<sample>/trajectory.json       actions, timings (think_ms / env_ms), grade, annotator
                                   000.png 001.png ...   the screen after reset and after each step
                                   task.json             the task as recorded (for replay)
                                   state_diff.json       what the demonstration changed in the world

so `uigym report`, `uigym export sft` and `replay_episode` read it like any run. Restarting an
episode throws the unfinished one away; nothing else can be undone (as in the real app).
"""

from __future__ import annotations

import asyncio
import json
import shutil
import threading
import time
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent_harness.results import ResultsWriter, error_row, latest_results, read_results
from agent_harness.trajectory import StepRecord, Trajectory, episode_dir
from gym_core.actions import ActionError, action_to_dict, parse_action
from gym_core.env import AsyncUIEnv, EnvConfig
from gym_core.runtime import Runtime, default_server_pool
from tasks import Task


class RecorderError(RuntimeError):
    """A request the recorder refuses (shown to the annotator)."""


@dataclass
class RecordConfig:
    tasks: list[Task]
    out: Path
    annotator: str = "anonymous"
    queue: bool = False  # walk the annotator through `tasks`; otherwise record tasks[0] (again and again)
    redo: bool = False  # queue: also tasks that already have a passing human demonstration in `out`
    env_config: EnvConfig = field(default_factory=EnvConfig)
    app_urls: dict[str, str] = field(default_factory=dict)
    app_modules: dict[str, str] = field(default_factory=dict)
    headless: bool = True
    step_timeout_s: float = 120.0

    @property
    def label(self) -> str:
        return f"human:{self.annotator}"


def demonstrated(out: Path, human_only: bool = True) -> set[str]:
    """Task ids with a passing human demonstration in `out`."""
    from agent_harness.export.sft import source_of

    return {r["task_id"] for r in latest_results(read_results(out))
            if r.get("passed") and not r.get("error") and (not human_only or source_of(r.get("agent")) == "human")}


@dataclass
class _Episode:
    task: Task
    sample: int
    traj: Trajectory
    shots: dict[str, bytes] = field(default_factory=dict)
    started: float = field(default_factory=time.perf_counter)
    screen_at: float = field(default_factory=time.perf_counter)
    finished: bool = False
    result: dict | None = None


def _summary(action: dict) -> str:
    t = action.get("type")
    if t in ("click", "double_click", "move"):
        extra = f" {action['button']}" if action.get("button", "left") != "left" else ""
        return f"{t}{extra} ({action['x']}, {action['y']})"
    if t == "drag":
        (x0, y0), (x1, y1) = action["path"][0], action["path"][-1]
        return f"drag ({x0}, {y0}) → ({x1}, {y1})"
    if t == "scroll":
        return f"scroll ({action['x']}, {action['y']}) by ({action.get('dx', 0)}, {action.get('dy', 0)})"
    if t == "type":
        return f"type {json.dumps(action['text'], ensure_ascii=False)}"
    if t == "keypress":
        return "key " + "+".join(action["keys"])
    if t == "done":
        answer = action.get("answer")
        return "done" + (f" — answer {json.dumps(answer, ensure_ascii=False)}" if answer else "")
    return str(t)


class Recorder:
    def __init__(self, cfg: RecordConfig):
        if not cfg.tasks:
            raise ValueError("no task to record")
        self.cfg = cfg
        self.out = Path(cfg.out)
        self.out.mkdir(parents=True, exist_ok=True)
        self.writer = ResultsWriter(self.out)
        self.loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self.runtime: Runtime | None = None
        self._own_pool = False
        self.env: AsyncUIEnv | None = None
        self.ep: _Episode | None = None
        self.version = 0  # bumps with every new screen
        self.message = ""
        done = demonstrated(self.out) if cfg.queue and not cfg.redo else set()
        self.done_before = [t.id for t in cfg.tasks if t.id in done]
        self.todo = [t for t in cfg.tasks if t.id not in done] if cfg.queue else list(cfg.tasks[:1])
        self.index = 0
        self.finished_now: list[str] = []  # tasks demonstrated in this session
        self.skipped: list[str] = []

    # ----------------------------------------------------------------- loop
    def start(self) -> "Recorder":
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="uigym-recorder", daemon=True)
        self._thread.start()
        self._call(self._init(), timeout=300)
        if self.todo:
            self._call(self._begin(self.todo[0]), timeout=300)
        return self

    def _call(self, coro, timeout: float | None = None):
        fut = asyncio.run_coroutine_threadsafe(coro, self.loop)
        try:
            return fut.result(timeout or self.cfg.step_timeout_s)
        except FutureTimeout:
            fut.cancel()
            raise RecorderError("the environment did not answer in time; press Restart") from None

    def _env_call(self, coro, timeout: float | None = None):
        """_call for the page's requests: a failure of the env is a message for the annotator."""
        try:
            return self._call(coro, timeout)
        except RecorderError:
            raise
        except Exception as e:  # noqa: BLE001 - a crashed browser or app server must not kill the page
            raise RecorderError(f"the environment failed ({type(e).__name__}: {e}); press Restart") from e

    async def _init(self) -> None:
        cfg = self.cfg
        if cfg.app_urls or cfg.app_modules:
            import os

            from gym_core.server import ServerPool

            pool = ServerPool(urls=dict(cfg.app_urls), modules=dict(cfg.app_modules),
                              token=os.environ.get("UIGYM_GYM_TOKEN") if cfg.app_urls else None)
            self._own_pool = True
        else:
            pool = default_server_pool()
        self.runtime = Runtime(servers=pool, headless=cfg.headless)
        self.env = AsyncUIEnv(None, cfg.env_config, runtime=self.runtime, world_id=f"record-{id(self) % 100000}")

    def close(self) -> None:
        self._release(self.ep)
        if self.loop is None:
            return
        try:
            self._call(self._close(), timeout=60)
        except Exception:  # noqa: BLE001 - closing is best effort
            pass
        self.loop.call_soon_threadsafe(self.loop.stop)
        if self._thread is not None:
            self._thread.join(10)
        self.loop.close()
        self.loop = None

    async def _close(self) -> None:
        if self.env is not None:
            await self.env.close()
        if self.runtime is not None:
            await self.runtime.close()
            if self._own_pool:
                await asyncio.to_thread(self.runtime.servers.stop_all)

    # -------------------------------------------------------------- episodes
    def _claim_sample(self, task: Task) -> int:
        """The next free sample number of the task in `out`; its episode folder is created at once, so
        annotators recording the same task into one folder never write over each other."""
        used = {int(r.get("sample", 0)) for r in read_results(self.out)
                if r.get("task_id") == task.id and r.get("agent") == self.cfg.label}
        s = 0
        while True:
            if s not in used:
                try:
                    episode_dir(self.out, task.id, s).mkdir(parents=True)
                    return s
                except FileExistsError:
                    pass
            s += 1

    def _release(self, ep: _Episode | None) -> None:
        """Give back the folder of an episode that was not finished."""
        if ep is None or ep.finished:
            return
        edir = episode_dir(self.out, ep.task.id, ep.sample)
        if edir.is_dir() and not (edir / "trajectory.json").exists():
            shutil.rmtree(edir, ignore_errors=True)

    async def _begin(self, task: Task, sample: int | None = None) -> None:
        env = self.env
        obs, info = await env.reset(task=task)
        sample = self._claim_sample(task) if sample is None else sample
        traj = Trajectory(task_id=task.id, app=task.app, agent=self.cfg.label, goal=task.goal, seed=task.seed,
                          now=info.get("now"), sample=sample, annotator=self.cfg.annotator,
                          viewport=env.config.viewport, start_url=obs["url"], look=getattr(env, "look", None))
        self.ep = _Episode(task=task, sample=sample, traj=traj)
        self.ep.shots[traj.first_screenshot] = env.last_png
        self.version += 1
        self.message = ""

    async def _step(self, action: dict, think_ms: float | None) -> None:
        ep, env = self.ep, self.env
        t_req = time.perf_counter()
        think = float(think_ms) if think_ms is not None else (t_req - ep.screen_at) * 1000
        obs, reward, terminated, truncated, info = await env.step(action)
        env_ms = (time.perf_counter() - t_req) * 1000
        shot = f"{env.steps:03d}.png"
        ep.shots[shot] = env.last_png
        ep.traj.steps.append(StepRecord(
            step=env.steps, action=info.get("action"), error=obs["last_action_error"], url=obs["url"],
            ms=round(think + env_ms, 1), screenshot=shot,
            usage={"think_ms": round(think, 1), "env_ms": round(env_ms, 1)},
        ))
        self.version += 1
        ep.screen_at = time.perf_counter()
        if terminated or truncated:
            ep.traj.verify = info.get("verify")
            ep.traj.reward = float(reward)
            ep.traj.answer = env.answer
            await self._finish()

    async def _finish(self) -> None:
        from grading import diff_states

        ep, env = self.ep, self.env
        traj = ep.traj
        traj.seconds = round(time.perf_counter() - ep.started, 3)
        end = await env.state()
        diff = diff_states(env.start_state, end)
        edir = episode_dir(self.out, ep.task.id, ep.sample)

        def save() -> None:
            edir.mkdir(parents=True, exist_ok=True)
            for name, png in ep.shots.items():
                (edir / name).write_bytes(png)
            (edir / "task.json").write_text(ep.task.model_dump_json(indent=1, exclude_none=True))
            (edir / "state_diff.json").write_text(json.dumps(diff, indent=1, default=str, sort_keys=True))
            traj.save(edir)

        await asyncio.to_thread(save)
        row = error_row(ep.task, ep.sample, self.cfg.label, self.out, error="", steps=len(traj.steps),
                        seconds=traj.seconds)
        row.update(error=None, error_kind=None, reward=traj.reward, passed=traj.reward >= 1.0, answer=traj.answer,
                   action_errors=sum(1 for s in traj.steps if s.error), annotator=self.cfg.annotator,
                   look=traj.look)
        self.writer.append(row)
        ep.finished = True
        ep.result = row
        if row["passed"] and ep.task.id not in self.finished_now:
            self.finished_now.append(ep.task.id)

    # ------------------------------------------------------------ the API
    def _current(self) -> _Episode:
        if self.ep is None or self.index >= len(self.todo):
            raise RecorderError("there is no task to record (the queue is done)")
        return self.ep

    def act(self, action: Any, think_ms: float | None = None) -> dict:
        """Play one action from the page; returns the new state."""
        with self._lock:
            ep = self._current()
            if ep.finished:
                raise RecorderError("this episode is over: restart it, or go to the next task")
            try:
                parsed = action_to_dict(parse_action(action))
            except ActionError as e:
                raise RecorderError(f"not sent to the app: {e}") from None
            self._env_call(self._step(parsed, think_ms))
            return self.state()

    def done(self, answer: str | None = None, think_ms: float | None = None) -> dict:
        answer = answer if answer else None  # an empty answer field is no answer
        return self.act({"type": "done", **({"answer": answer} if answer is not None else {})}, think_ms)

    def restart(self) -> dict:
        """Start the current task again in a fresh world: the unfinished episode is discarded; after a
        finished one, this records another demonstration (the next sample)."""
        with self._lock:
            ep = self._current()
            sample = None if ep.finished else ep.sample
            self._env_call(self._begin(ep.task, sample), timeout=300)
            return self.state()

    def next(self, skip: bool = False) -> dict:
        """Go to the next task of the queue (skip: leave the current one without recording it)."""
        with self._lock:
            ep = self._current()
            if not ep.finished and not skip:
                raise RecorderError("finish the task (Done) or skip it")
            if not ep.finished:
                self.skipped.append(ep.task.id)
                self._release(ep)
            self.index += 1
            if self.index < len(self.todo):
                self._env_call(self._begin(self.todo[self.index]), timeout=300)
            else:
                self.ep = None
                self.version += 1
            return self.state()

    def screen(self) -> bytes | None:
        with self._lock:
            if self.ep is None:
                return None
            last = self.ep.traj.steps[-1].screenshot if self.ep.traj.steps else self.ep.traj.first_screenshot
            return self.ep.shots.get(last)

    def state(self) -> dict:
        ep = self.ep
        queue = {"position": min(self.index + 1, len(self.todo)), "todo": len(self.todo),
                 "total": len(self.cfg.tasks), "done_before": len(self.done_before),
                 "done_now": len(self.finished_now), "skipped": len(self.skipped)}
        base = {"annotator": self.cfg.annotator, "mode": "queue" if self.cfg.queue else "single", "queue": queue,
                "version": self.version, "out": str(self.out)}
        if ep is None:
            return {**base, "status": "all_done", "task": None}
        env = self.env
        steps = ep.traj.steps
        last = steps[-1] if steps else None
        result = None
        if ep.finished and ep.result is not None:
            v = ep.traj.verify or {}
            result = {"reward": ep.traj.reward, "passed": ep.result["passed"], "answer": ep.traj.answer,
                      "truncated": (steps[-1].action or {}).get("type") != "done" if steps else False,
                      "checks": [{"name": c.get("name"), "passed": c.get("passed"), "detail": c.get("detail")}
                                 for c in v.get("checks", [])],
                      "episode_dir": ep.result["episode_dir"], "seconds": ep.traj.seconds}
        return {
            **base,
            "status": "finished" if ep.finished else "recording",
            "task": {"id": ep.task.id, "app": ep.task.app, "difficulty": ep.task.difficulty, "goal": ep.task.goal},
            "sample": ep.sample,
            "step": len(steps), "max_steps": env.max_steps,
            "url": last.url if last else ep.traj.start_url,
            "last_action_error": last.error if last else "",
            "actions": [{"step": s.step, "text": _summary(s.action or {}), "error": s.error} for s in steps[-8:]],
            "screen": {"width": env.width, "height": env.height},
            "result": result,
        }
