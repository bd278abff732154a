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
        n_steps = len(steps)
        app = task.app if task is not None else getattr(getattr(env, "server", None), "app", None)
        if app and look:  # a task's steps, or QA's scripted ones on the env's app
            pairs = steps_in_look_by_step(app, steps, look)
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
        for _ in range(8 + MAX_OVERLAYS):
            found = await locate(env.page, target)
            try:
                plan = scroll_plan(found, env.width, env.height)
                if plan is None:
                    b = clear_box(found, env.width, env.height)
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
                yield {"type": "click", "x": close[0], "y": close[1]}
                continue
            if plan is None:
                yield point
                return
            if self.jitter > 0:
                dy = int(round(dy * self.rng.uniform(1 - self.jitter, 1 + self.jitter))) or dy
            yield {"type": "scroll", "x": mx, "y": my, "dx": 0, "dy": dy}
        raise RuntimeError(f"could not scroll {target.describe()} into view")

    async def _uncover(self, x: int, y: int) -> AsyncIterator[dict]:
        """Close the overlays (EnvConfig.perturb) lying over the point (x, y), one click each."""
        for _ in range(MAX_OVERLAYS):
            close = await point_dismiss(self.env.page, x, y)
            if close is None:
                return
            yield {"type": "click", "x": close[0], "y": close[1]}

    async def _free_keys(self) -> AsyncIterator[dict]:
        """A modal overlay (EnvConfig.perturb) traps the keys: it is closed before keys are typed or pressed."""
        close = await modal_dismiss(self.env.page)
        if close is not None:
            yield {"type": "click", "x": close[0], "y": close[1]}

    async def _at(self, target: Target, kind: str) -> AsyncIterator[dict]:
        async for p in self._point(target):
            if isinstance(p, dict):
                yield p
            else:
                x, y = p
                yield {"type": kind, "x": x, "y": y}

    async def _actions(self, steps: list[SolutionStep]) -> AsyncIterator[dict]:
        for i, s in enumerate(steps):
            self.position = self._origin[i] if i < len(getattr(self, "_origin", ())) else i
            self.last_text = f"oracle: {s.kind}"
            k = s.kind
            if k in ("click", "double_click", "hover"):
                kind = {"click": "click", "double_click": "double_click", "hover": "move"}[k]
                async for a in self._at(getattr(s, k), kind):
                    yield a
            elif k == "fill":
                async for a in self._at(s.fill, "click"):
                    yield a
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
                    env = self.env
                    async for a in self._uncover(env.width // 2, env.height // 2):
                        yield a
                    yield {"type": "scroll", "x": env.width // 2, "y": env.height // 2, "dx": 0, "dy": s.dy or 0}
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
                mid = ((src[0] + dst[0]) // 2, (src[1] + dst[1]) // 2)
                yield {"type": "drag", "path": [list(src), list(mid), list(dst)]}
            elif k == "wait":
                yield {"type": "wait", "ms": s.wait}
            elif k == "done":
                yield {"type": "done", "answer": s.answer} if s.answer is not None else {"type": "done"}
                return
