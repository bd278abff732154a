"""The oracle: plays a task's gold solution through env.step, as screen coordinates.

Each semantic step (click a role/name, fill a field, press keys...) becomes one or more uigym
actions: scrolls until the target is on screen, then the click at its centre. With `jitter` (0..1)
the oracle varies like a person: a random point well inside the target (within `jitter` of its
half-size from the centre) and scroll distances up to `jitter` shorter or longer (it scrolls again
until the target is in view), drawn per task and sample (`uigym eval --agent oracle --agent-arg
jitter=0.3 --samples 4` gives four different valid demonstrations of each task). So every task is
proven solvable in the agent's own action space.
"""

from __future__ import annotations

import random
from typing import AsyncIterator

from agent_harness.agents.base import Agent
from agent_harness.locate import clear_box, locate, scroll_plan
from gym_core.perturb import OVERLAY_KINDS, covering_dismiss, modal_dismiss, point_dismiss
from tasks import SolutionStep, Target
from tasks.looks import steps_in_look_by_step
from tasks.workspace import is_workspace, segments


MAX_OVERLAYS = len(OVERLAY_KINDS) + 1  # dismissals one target may need (a chat panel minimised, then hidden)


class OracleAgent(Agent):
    name = "oracle"
    privileged = True

    def __init__(self, steps: list[SolutionStep] | None = None, jitter: float = 0.0, seed: int = 0, **kw):
        super().__init__(**kw)
        self.fixed_steps = steps
        self.jitter = jitter
        self.seed = seed

    async def reset(self, env, task) -> None:
        await super().reset(env, task)
        steps = self.fixed_steps if self.fixed_steps is not None else (task.solution if task else [])
        # The steps address the app's default look; in another look they are taken in its terms (tasks/looks.py),
        # each remembering the task step it comes from (`position` counts task steps).
        look = getattr(env, "look", None)
        lang = getattr(getattr(env, "variant", None), "lang", None)  # the UI language renames the targets too
        n_steps = len(steps)
        app = task.app if task is not None else getattr(getattr(env, "server", None), "app", None)
        if is_workspace(task):  # each tab's run of steps in the look its app is shown in
            pairs = []
            for tab, run in segments(steps):
                sub = env.envs[tab]
                in_look = self._in_look(tab, [s for _, s in run], getattr(sub, "look", None),
                                        getattr(getattr(sub, "variant", None), "lang", None))
                pairs += [(run[j][0], s) for j, s in in_look]
        elif app and (look or lang):  # a task's steps, or QA's scripted ones on the env's app
            pairs = steps_in_look_by_step(app, steps, look, lang)
        else:
            pairs = list(enumerate(steps))
        steps = [s for _, s in pairs]
        self._origin = [i for i, _ in pairs]
        sample = int(self.episode_sample or 0)  # set by the runner
        self.rng = random.Random(f"{self.seed}:{task.id if task else ''}" + (f":{sample}" if sample else ""))
        self._plan = self._actions(list(steps))
        self._n_steps = n_steps
        # The index of the solution step the last action came from: every step before it has been given
        # whole (agent_harness/validate.py grades a shorter probe there, before that action is taken).
        self.position = 0

    @staticmethod
    def _in_look(app: str, steps: list[SolutionStep], look: str | None,
                 lang: str | None = None) -> list[tuple[int, SolutionStep]]:
        """`steps` of one tab in `look` of its app (and its UI language), each with its index in `steps` (a
        switch_tab step as it is)."""
        out: list[tuple[int, SolutionStep]] = []
        for j, s in enumerate(steps):
            out += [(j, s)] if s.switch_tab is not None or not (look or lang) else \
                [(j, t) for _, t in steps_in_look_by_step(app, [s], look, lang)]
        return out

    async def act(self, obs: dict) -> dict:
        try:
            return await self._plan.__anext__()
        except StopAsyncIteration:
            self.position = self._n_steps
            return {"type": "done"}

    # ------------------------------------------------------------------
    async def _point(self, target: Target) -> AsyncIterator[dict | tuple[int, int]]:
        """Yields scroll actions until the target is in view, then its click point (a tuple). An overlay
        (EnvConfig.perturb) covering the point it would click or scroll at is dismissed first, with a click on
        its close button, as a person would, and the target is found again."""
        env = self.env
        w, h = self._viewport()
        for _ in range(8 + MAX_OVERLAYS):
            found = await locate(env.page, target)
            try:
                plan = scroll_plan(found, w, h)
                if plan is None:
                    b = clear_box(found, w, h)
                    if self.jitter > 0:
                        fx = 0.5 + self.rng.uniform(-self.jitter, self.jitter) / 2
                        fy = 0.5 + self.rng.uniform(-self.jitter, self.jitter) / 2
                        point = int(b.x + b.width * fx), int(b.y + b.height * fy)
                    else:
                        point = b.center
                    close = await covering_dismiss(found.handle, *point)
                else:
                    mx, my, dy = plan
                    close = await covering_dismiss(found.handle, mx, my)
            finally:
                await found.release()
            if close is not None:
                yield self._click(*close)
                continue
            if plan is None:
                yield self._screen(*point)
                return
            if self.jitter > 0:
                dy = int(round(dy * self.rng.uniform(1 - self.jitter, 1 + self.jitter))) or dy
            sx, sy = self._screen(mx, my)
            yield {"type": "scroll", "x": sx, "y": sy, "dx": 0, "dy": int(round(dy * self._zoom())) or dy}
        raise RuntimeError(f"could not scroll {target.describe()} into view")

    # The oracle reads the page (CSS pixels); its actions are points of the screen. They differ at a browser zoom
    # (the episode's variant, gym_core/variant.py): the env maps them, AsyncUIEnv.to_screen.
    def _zoom(self) -> float:
        return float(getattr(self.env, "zoom", 1.0) or 1.0)

    def _viewport(self) -> tuple[int, int]:
        size = getattr(self.env, "css_size", None)
        return tuple(size) if size else (self.env.width, self.env.height)

    def _screen(self, x: float, y: float) -> tuple[int, int]:
        to_screen = getattr(self.env, "to_screen", None)
        return to_screen(x, y) if to_screen is not None else (int(x), int(y))

    def _click(self, x: float, y: float) -> dict:
        sx, sy = self._screen(x, y)
        return {"type": "click", "x": sx, "y": sy}

    async def _uncover(self, x: int, y: int) -> AsyncIterator[dict]:
        """Close the overlays (EnvConfig.perturb) lying over the point (x, y), one click each."""
        for _ in range(MAX_OVERLAYS):
            close = await point_dismiss(self.env.page, x, y)
            if close is None:
                return
            yield self._click(*close)

    async def _free_keys(self) -> AsyncIterator[dict]:
        """A modal overlay (EnvConfig.perturb) traps the keys: it is closed before keys are typed or pressed. One that
        came up after the field was clicked (a variant's overlay mid-episode) took the focus: the field the oracle was
        typing in is clicked again, as a person clicks back into it."""
        close = await modal_dismiss(self.env.page)
        if close is not None:
            yield self._click(*close)
            if getattr(self, "_field", None) is not None:
                async for a in self._at(self._field, "click"):
                    yield a

    async def _at(self, target: Target, kind: str) -> AsyncIterator[dict]:
        async for p in self._point(target):
            if isinstance(p, dict):
                yield p
            else:
                x, y = p
                yield {"type": kind, "x": x, "y": y}

    async def _actions(self, steps: list[SolutionStep]) -> AsyncIterator[dict]:
        self._field = None
        for i, s in enumerate(steps):
            self.position = self._origin[i] if i < len(getattr(self, "_origin", ())) else i
            if s.kind not in ("fill", "type", "press"):
                self._field = None
            self.last_text = f"oracle: {s.kind}"
            k = s.kind
            if k in ("click", "double_click", "hover"):
                kind = {"click": "click", "double_click": "double_click", "hover": "move"}[k]
                async for a in self._at(getattr(s, k), kind):
                    yield a
            elif k == "fill":
                async for a in self._at(s.fill, "click"):
                    yield a
                self._field = s.fill  # the field the keys go to (_free_keys clicks it again after a modal)
                async for a in self._free_keys():
                    yield a
                yield {"type": "keypress", "keys": ["Control", "a"]}
                freed = False
                async for a in self._free_keys():
                    freed = True
                    yield a
                if freed:  # the modal came up after the selection: select again
                    yield {"type": "keypress", "keys": ["Control", "a"]}
                if s.text:
                    yield {"type": "type", "text": s.text}
                else:
                    yield {"type": "keypress", "keys": ["Delete"]}
            elif k == "type":
                async for a in self._free_keys():
                    yield a
                yield {"type": "type", "text": s.type}
            elif k == "press":
                async for a in self._free_keys():
                    yield a
                yield {"type": "keypress", "keys": list(s.press)}
            elif k == "scroll":
                if s.scroll is not None:
                    async for p in self._point(s.scroll):
                        if isinstance(p, dict):
                            yield p
                else:
                    w, h = self._viewport()
                    async for a in self._uncover(w // 2, h // 2):
                        yield a
                    sx, sy = self._screen(w // 2, h // 2)
                    yield {"type": "scroll", "x": sx, "y": sy, "dx": 0, "dy": int(round((s.dy or 0) * self._zoom()))}
            elif k == "drag":
                src = dst = None
                async for p in self._point(s.drag["from"]):
                    if isinstance(p, dict):
                        yield p
                    else:
                        src = p
                found = await locate(self.env.page, s.drag["to"])
                await found.release()
                if found.box is None:
                    raise RuntimeError(f"{s.drag['to'].describe()} has no box to drop on")
                dst = found.box.center
                async for a in self._uncover(*dst):
                    yield a
                dst = self._screen(*dst)  # src is a screen point already (_point)
                mid = ((src[0] + dst[0]) // 2, (src[1] + dst[1]) // 2)
                yield {"type": "drag", "path": [list(src), list(mid), list(dst)]}
            elif k == "wait":
                yield {"type": "wait", "ms": s.wait}
            elif k == "switch_tab":
                yield {"type": "switch_tab", "tab": s.switch_tab}
            elif k == "done":
                yield {"type": "done", "answer": s.answer} if s.answer is not None else {"type": "done"}
                return
