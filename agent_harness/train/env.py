"""The GRPO environment: uigym's env as a TRL `environment_factory` class, one tool method per action.

    env = UIGymToolEnv(EnvSettings(max_pixels=28 * 28 * 256))
    first = env.reset(**row)                  # row: a dataset row with a "task" (JSON) -> [text, screenshot]
    result = env.click(x=41, y=12)            # -> [{"type": "text", ...}, {"type": "image", "image": PIL}]
    env.get_reward()                          # the verifier's score of the end state

TRL calls these methods synchronously, one rollout after another; each call runs the async env
(gym_core.AsyncUIEnv) on uigym's shared background event loop (gym_core.sync_env.LoopThread), so all
the environments of a process share one Chromium and one set of app servers, as in `uigym eval`.

What the model sees is what `uigym eval --format gym --agent-arg tool_screenshots=true` shows it: the
format's system prompt and tools (agent_harness.formats.gym_tools), the first screenshot with the task, and
after each tool call a tool result holding the text of agents.model.observation_text (URL, step, errors)
and the new screenshot, resized Qwen-style to at most `max_pixels` (coordinates are pixels of that image).

Public methods are tools (TRL exposes every public method but `reset` and `get_reward`), so every helper
here is private. The schemas TRL derives from these signatures and docstrings equal
agent_harness.formats.gym_tools.TOOLS (tests/train/test_env_tools.py).
"""

from __future__ import annotations

import json
import math
import threading
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable, Literal

from PIL import Image

from agent_harness.agents.model import observation_text
from agent_harness.agents.tool_model import TASK_FINISHED
from agent_harness.formats import FormatContext, ParseError, get_format
from gym_core.env import EnvConfig
from gym_core.envs import env_for, fits
from tasks.schema import WORKSPACE

OVER_TEXT = "The episode is over; no more actions are possible."


def resize_for_model(width: int, height: int, *, factor: int = 28, min_pixels: int = 56 * 56,
                     max_pixels: int = 28 * 28 * 1280) -> tuple[int, int]:
    """Qwen-VL's resize rule (agents.model.smart_resize): sides multiples of `factor` (patch x merge:
    28 for Qwen2.5-VL and UI-TARS, 32 for Qwen3-VL), area within [min_pixels, max_pixels]."""
    from agent_harness.agents.model import smart_resize

    return smart_resize(width, height, factor=factor, min_pixels=min_pixels, max_pixels=max_pixels)


@dataclass
class EnvSettings:
    """How the environment shows the screen and bounds an episode (shared by every instance)."""

    max_pixels: int = 28 * 28 * 1280
    min_pixels: int = 56 * 56
    factor: int = 28  # the model's patch size x merge size
    viewport: tuple[int, int] = (1280, 720)
    max_steps: int | None = None  # caps each task's max_steps (the token budget is computed from it)
    include_url: bool = True
    result_text_tokens: int = 96  # a tool result's text is cut to this many tokens (counted by `count_tokens`)
    restate_goal: bool = False  # tool mode: the task after each call's result (not counted in result_text_tokens)
    count_tokens: Callable[[str], int] | None = None
    app_urls: dict[str, str] = field(default_factory=dict)
    app_modules: dict[str, str] = field(default_factory=dict)
    headless: bool = True
    look: str | list[str] | None = None  # the apps' look in rollouts (EnvConfig.look), checked by apps.training_looks
    family: str | None = None  # the seed family rollout worlds are built from (EnvConfig.family, apps.check_family)
    variant: Any = None  # the episodes' variant (EnvConfig.variant), checked by gym_core.heldout_variants
    step_timeout_s: float = 120.0

    @property
    def image_size(self) -> tuple[int, int]:
        return resize_for_model(*self.viewport, factor=self.factor, min_pixels=self.min_pixels,
                                max_pixels=self.max_pixels)

    def format_context(self, task: Any = None) -> FormatContext:
        """The screen as the model sees it; a workspace task's is its three apps in tabs (FormatContext.tabs: the system
        prompt then says how to switch them, Ctrl+N, and to wait for answers, as the eval's says it)."""
        if getattr(task, "app", None) != WORKSPACE:
            return FormatContext(screen=self.viewport, image=self.image_size)
        from seed_data.workspace import APPS

        return FormatContext(screen=self.viewport, image=self.image_size, tabs=tuple(APPS))

    def family_for(self, task: Any) -> str | None:
        """The seed family a rollout of `task` builds its worlds from: `family` (--family) for a single-app task; a
        workspace task's worlds are the workspace family's own (its env refuses another)."""
        return None if task.app == WORKSPACE else self.family

    def cut_text(self, text: str) -> str:
        """`text` within `result_text_tokens` tokens: the last line (the step) is kept, earlier lines are cut."""
        count = self.count_tokens or (lambda s: len(s.encode()))
        if count(text) <= self.result_text_tokens:
            return text
        *head, last = text.split("\n")
        body = "\n".join(head)
        lo, hi = 0, len(body)
        while lo < hi:  # the longest prefix of the earlier lines that fits
            mid = (lo + hi + 1) // 2
            if count(body[:mid] + "...\n" + last) <= self.result_text_tokens:
                lo = mid
            else:
                hi = mid - 1
        out = (body[:lo] + "...\n" + last) if lo else last
        while count(out) > self.result_text_tokens and out:
            out = out[: max(0, len(out) - 8)]
        return out


# ----------------------------------------------------------------------------- the shared loop and runtime

_runtime_lock = threading.Lock()
_runtimes: dict[str, Any] = {}


def _loop():
    from gym_core.sync_env import LoopThread

    return LoopThread.get()


def _runtime(settings: EnvSettings):
    """One Runtime (Chromium + app servers) per settings of servers, living on the background loop."""
    key = json.dumps([settings.app_urls, settings.app_modules, settings.headless], sort_keys=True)
    with _runtime_lock:
        rt = _runtimes.get(key)
        if rt is None:
            from gym_core.runtime import Runtime
            from gym_core.server import ServerPool

            async def make():
                return Runtime(servers=ServerPool(urls=dict(settings.app_urls), modules=dict(settings.app_modules)),
                               headless=settings.headless)

            lt = _loop()
            rt = _runtimes[key] = lt.run(make())
            # The first runtime made here is the loop's own, so the loop's shutdown at exit closes its browser.
            Runtime.adopt(lt.loop, rt)
        return rt


def close_runtimes() -> None:
    """Close the browsers and app servers made for training (tests and the end of a run)."""
    with _runtime_lock:
        rts = list(_runtimes.values())
        _runtimes.clear()
    lt = _loop()
    for rt in rts:
        try:
            lt.run(rt.close(), timeout=30)
        except Exception:
            pass
        rt.servers.stop_all()


# ----------------------------------------------------------------------------- the environment

@dataclass
class EpisodeStats:
    task_id: str = ""
    app: str = ""
    difficulty: str = ""
    template: str = ""
    steps: int = 0
    tool_calls: int = 0
    tool_errors: int = 0  # calls the format could not read (bad arguments): a no-op step, as in eval
    action_errors: int = 0  # actions the env refused (last_action_error)
    calls_after_end: int = 0
    done_called: bool = False
    finished: bool = False
    reward: float | None = None


class RolloutEnv:
    """What every training environment shares: the row's task, the step budget, the reward (the verifier's,
    None when ungraded), the episode's metrics, the background loop. Only `reset` and `get_reward` are public
    here: TRL exposes a subclass's other public methods as the model's tools."""

    def __init__(self, settings: EnvSettings | None = None):
        self._settings = settings or EnvSettings()
        self._env: Any = None
        self._task = None
        self._reward: float | None = None
        self._ungraded = False
        self._stats = EpisodeStats()

    def _begin(self, row: dict, make_env: Callable[[Any, int], Any]):
        """Open the row's task: its env (made once by `make_env(task, max_steps)`), budget and counters."""
        from tasks import Task, load_task

        task = row.get("task")
        if isinstance(task, str) and task.strip().startswith("{"):
            task = Task.model_validate_json(task)
        elif isinstance(task, dict):
            task = Task.model_validate(task)
        elif row.get("task_id"):
            task = load_task(row["task_id"])
        else:
            raise ValueError("a training row needs a `task` (the task as JSON) or a `task_id`")
        s = self._settings
        max_steps = min(task.max_steps, s.max_steps) if s.max_steps else task.max_steps
        if self._env is not None and not fits(self._env, task):  # a workspace task after a single-app one, or back
            self._close()
        if self._env is None:
            self._env = make_env(task, max_steps)
        self._env.app = task.app
        self._env.config.max_steps = max_steps
        self._task, self._reward, self._ungraded = task, None, False
        self._stats = EpisodeStats(task_id=task.id, app=task.app, difficulty=task.difficulty,
                                   template=task.template or task.id)
        return task

    def get_reward(self) -> float | None:
        """The verifier's score: of the end state when the episode ended (done or the step limit), else of the
        state the rollout left (as if the episode were cut there). None when the episode could not be graded
        (a judged task whose judge gave no verdict): TRL then drops the rollout instead of learning a 0."""
        if self._reward is None and not self._ungraded:
            if self._env is None or self._task is None:
                return 0.0
            result = self._run(self._env.grade())
            self._note_grade(result.score, result.status == "graded")
        self._stats.reward = self._reward
        return self._reward

    def _note_grade(self, score: float, graded: bool) -> None:
        self._ungraded = not graded
        self._reward = float(score) if graded else None

    def _run(self, coro):
        return _loop().run(coro, timeout=self._settings.step_timeout_s)

    @property
    def episode(self) -> EpisodeStats:
        """What happened in the last rollout (read by the metrics and the curriculum)."""
        return self._stats

    def _close(self) -> None:
        if self._env is not None:
            try:
                self._run(self._env.close())
            except Exception:
                pass
            self._env = None


class UIGymToolEnv(RolloutEnv):
    """One rollout's environment (TRL makes one per generation and reuses it through `reset`)."""

    def __init__(self, settings: EnvSettings | None = None):
        super().__init__(settings)
        self._format = get_format("gym")
        self._ctx = self._settings.format_context()

    # ------------------------------------------------------------------ TRL's hooks
    def reset(self, **row: Any) -> list[dict]:
        """Start the row's task; returns the first observation (task text and screenshot) for the prompt."""
        s = self._settings
        def make(t, n):  # the app's screen, or the workspace's three apps in tabs
            config = EnvConfig(viewport=tuple(s.viewport), max_steps=n, look=s.look, family=s.family_for(t),
                               variant=s.variant)
            return env_for(t, "ui", config, _runtime(s), f"grpo-{uuid.uuid4().hex[:12]}")

        task = self._begin(row, make)
        self._ctx = s.format_context()
        obs, _ = self._run(self._env.reset(task=task))
        text = observation_text(obs, goal=task.goal, include_url=s.include_url)
        return [{"type": "text", "text": text}, {"type": "image", "image": self._image(obs)}]

    # ------------------------------------------------------------------ tools
    def click(self, x: int, y: int, button: Literal["left", "right", "middle"] = "left"):
        """Click at a point of the screenshot.

        Args:
            x: Horizontal coordinate, in screenshot pixels.
            y: Vertical coordinate, in screenshot pixels.
            button: The mouse button (default left).
        """
        args = {"x": x, "y": y} if button == "left" else {"x": x, "y": y, "button": button}
        return self._act("click", args)

    def double_click(self, x: int, y: int):
        """Double-click at a point of the screenshot.

        Args:
            x: Horizontal coordinate, in screenshot pixels.
            y: Vertical coordinate, in screenshot pixels.
        """
        return self._act("double_click", {"x": x, "y": y})

    def drag(self, x1: int, y1: int, x2: int, y2: int):
        """Press the left button at (x1, y1), move to (x2, y2) and release.

        Args:
            x1: Start x, in screenshot pixels.
            y1: Start y, in screenshot pixels.
            x2: End x, in screenshot pixels.
            y2: End y, in screenshot pixels.
        """
        return self._act("drag", {"x1": x1, "y1": y1, "x2": x2, "y2": y2})

    def scroll(self, x: int, y: int, dx: int = 0, dy: int = 0):
        """Scroll with the mouse wheel over a point.

        Args:
            x: Horizontal coordinate, in screenshot pixels.
            y: Vertical coordinate, in screenshot pixels.
            dx: Pixels to scroll right (negative: left).
            dy: Pixels to scroll down (negative: up).
        """
        return self._act("scroll", {"x": x, "y": y, "dx": dx, "dy": dy})

    def type_text(self, text: str):
        """Type text with the keyboard where the focus is (click a field first).

        Args:
            text: The text to type.
        """
        return self._act("type_text", {"text": text})

    def keypress(self, keys: list[str]):
        """Press keys together, as one chord.

        Args:
            keys: Key names, e.g. ["Enter"] or ["Control", "a"].
        """
        return self._act("keypress", {"keys": keys})

    def wait(self, ms: int = 1000):
        """Wait for the page to change.

        Args:
            ms: Milliseconds to wait (default 1000).
        """
        return self._act("wait", {"ms": ms})

    def done(self, answer: str = ""):
        """End the task. Give the answer when the task asks a question.

        Args:
            answer: The answer, when the task asks for one.
        """
        return self._act("done", {"answer": answer} if answer else {})

    # ------------------------------------------------------------------ internals
    def _image(self, obs: dict) -> Image.Image:
        im = Image.fromarray(obs["screenshot"])
        size = self._ctx.image
        return im if im.size == size else im.resize(size, Image.Resampling.BICUBIC)

    def _act(self, name: str, args: dict):
        st = self._stats
        st.tool_calls += 1
        if self._env is None or self._task is None:
            raise RuntimeError("reset() must come before any action")
        if self._env.done:
            st.calls_after_end += 1
            return [{"type": "text", "text": OVER_TEXT}]
        problems: list[str] = []
        try:
            action = self._format.action(name, args, self._ctx)
        except ParseError as e:
            st.tool_errors += 1
            problems.append(f"Your last reply could not be used: {e}")
            action = {"type": "screenshot"}  # a bad call costs a step, as an unreadable reply does in eval
        obs, reward, terminated, truncated, info = self._run(self._env.step(action))
        st.steps = self._env.steps
        if obs.get("last_action_error"):
            st.action_errors += 1
            problems.append(f"The last action failed: {obs['last_action_error']}")
        if terminated or truncated:
            self._note_grade(reward, info.get("graded", True))
            st.finished = True
            st.done_called = bool(terminated)
            st.reward = self._reward
            if terminated:
                return [{"type": "text", "text": TASK_FINISHED}]
            problems.append("The step limit is reached; the episode is over.")
        text = self._settings.cut_text(observation_text(obs, problems=problems, include_url=self._settings.include_url))
        return [{"type": "text", "text": text}, {"type": "image", "image": self._image(obs)}]


def image_tokens(settings: EnvSettings, merge: int = 2) -> int:
    """Image tokens of one screenshot for a Qwen-VL model: (w/factor) x (h/factor) (patches merged 2x2)."""
    w, h = settings.image_size
    return math.ceil(w / settings.factor) * math.ceil(h / settings.factor)
