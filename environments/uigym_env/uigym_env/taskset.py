"""uigym's tasks as a verifiers taskset: one `UIGymTask` per uigym task, scored by uigym's own verifier.

The rows are uigym's task files (or a --env.taskset.tasks-dir of your own), picked as `uigym eval` picks
them: an id glob, an app, a split (train/test/heldout-seed/heldout-template/safety), a difficulty. Each row's
data carries the task id (`id`, `name`), its app, split and mode, and the whole task as JSON, so a
rollout never depends on looking the task up again.

The reward is the score uigym's verifier gave the end state of the rollout's world (uigym_env.harness
plays the episode and records the verdict, with its per-check report, in `trace.state`): nothing else is
added to it, so it is earned exactly as in `uigym eval`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import verifiers.v1 as vf
from pydantic import Field

Mode = Literal["ui", "tools"]


class UIGymTaskData(vf.TaskData):
    app: str
    mode: Mode = "ui"
    split: str = "train"
    task: dict[str, Any] = Field(default_factory=dict)
    """The uigym task (tasks.Task as JSON)."""


class UIGymState(vf.State):
    """What the episode left: uigym's verdict on the end state and a few counts. verifiers does not serialize
    trace.state, so the harness copies it to trace.info["uigym"] (kept in traces.jsonl)."""

    reward: float | None = None
    passed: bool | None = None
    verify: dict[str, Any] | None = None
    """uigym's per-check report (VerifyResult as JSON: status, score, checks with their explanations)."""
    steps: int = 0
    answer: str | None = None
    parse_errors: int = 0
    action_errors: int = 0
    world_id: str | None = None
    world_closed: bool = False


class UIGymTask(vf.Task[UIGymTaskData, UIGymState]):
    @vf.reward(weight=1.0)
    async def uigym_verifier(self, trace: vf.Trace) -> float:
        """The verifier's score of the end state, recorded when the episode ended."""
        state = trace.state
        if not isinstance(state, UIGymState) or state.reward is None:
            raise vf.TaskError(f"task {self.data.id}: the episode recorded no end-state verdict "
                               "(was it played by the uigym-env harness?)")
        return float(state.reward)

    @vf.metric
    async def steps(self, trace: vf.Trace) -> float:
        return float(trace.state.steps)

    @vf.metric
    async def parse_errors(self, trace: vf.Trace) -> float:
        return float(trace.state.parse_errors)

    @property
    def key(self) -> str:
        return self.data.id or self.hash  # uigym task ids are unique and durable


class UIGymTasksetConfig(vf.TasksetConfig):
    app: Literal["mail", "food", "crm", "workspace"] | None = None
    """Only this app's tasks (default: every app; "workspace": the cross-app tasks, played in the three apps' tabs or
    through their tools)."""
    mode: Mode = "ui"
    """ui: the screen, a real browser, the model's replies in an action format; tools: the app's tools."""
    tasks: str = "*"
    """Task id globs, comma-separated (as `uigym eval --tasks`)."""
    split: str | None = None
    """train | test | heldout-seed | heldout-template | safety (as `uigym eval --split`); default: all."""
    difficulty: str | None = None
    tasks_dir: Path | None = None
    """Load the task files under this folder instead of uigym's bundled tasks."""
    first_instances: bool = False
    """Keep one task per template (its first instance): a small sample of every app."""


class UIGymTaskset(vf.Taskset[UIGymTask, UIGymTasksetConfig]):
    def load(self) -> list[UIGymTask]:
        from tasks.loader import load_tasks, select_tasks

        c = self.config
        pool = load_tasks(c.tasks_dir) if c.tasks_dir is not None else None
        if c.tasks_dir is not None and not pool:
            raise ValueError(f"no task files under {c.tasks_dir}")
        chosen = select_tasks(c.tasks, app=c.app, split=c.split, difficulty=c.difficulty, tasks=pool)
        if c.first_instances:
            seen: set[str] = set()
            chosen = [t for t in chosen if not ((t.template or t.id) in seen or seen.add(t.template or t.id))]
        if not chosen:
            raise ValueError(f"no uigym task matches tasks={c.tasks!r} app={c.app!r} split={c.split!r} "
                             f"difficulty={c.difficulty!r}")
        return [UIGymTask(UIGymTaskData(id=t.id, name=t.id, prompt=t.goal, app=t.app, mode=c.mode, split=t.split,
                                        task=t.model_dump(mode="json")), self.config.task)
                for t in chosen]
