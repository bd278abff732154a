"""Episode trajectories on disk: screenshots, actions, timings and the verifier's report.

    <out>/episodes/<task-id with / as __>/s<sample>/
        trajectory.json
        000.png        the screen after reset
        001.png ...    the screen after each step
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any


def episode_dir(out: Path, task_id: str, sample: int) -> Path:
    return Path(out) / "episodes" / task_id.replace("/", "__") / f"s{sample}"


@dataclass
class StepRecord:
    step: int
    action: Any
    error: str
    url: str
    ms: float
    screenshot: str
    text: str = ""
    usage: dict = field(default_factory=dict)
    parse_error: str = ""  # the model's reply could not be read as an action (the step was a no-op)
    tool_result: str = ""  # tool and hybrid modes: the call's JSON result, as the agent read it


@dataclass
class Trajectory:
    task_id: str | None
    app: str | None
    agent: str
    goal: str
    seed: int
    now: str | None
    sample: int = 0
    annotator: str | None = None
    first_screenshot: str = "000.png"
    steps: list[StepRecord] = field(default_factory=list)
    reward: float = 0.0
    answer: str | None = None
    verify: dict | None = None
    seconds: float = 0.0
    error: str | None = None
    viewport: tuple[int, int] = (1280, 720)
    start_url: str = ""  # the page after reset (path and query), what the agent was first told
    mode: str = "ui"  # ui | tools | hybrid: what the agent could do (tools: function calls, no screen)
    look: str | None = None  # the app's look the pages were shown in (apps/_shared/looks.py)
    variant: dict | None = None  # the episode's variant (gym_core/variant.py), as info["variant"] gave it
    tools: list = field(default_factory=list)  # tools and hybrid modes: the OpenAI function list it was given

    def save(self, directory: Path) -> Path:
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / "trajectory.json"
        tmp = path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(asdict(self), indent=1))
        tmp.replace(path)
        return path

    @classmethod
    def load(cls, path: Path) -> "Trajectory":
        data = json.loads(Path(path).read_text())
        steps = [StepRecord(**s) for s in data.pop("steps", [])]
        data["viewport"] = tuple(data.get("viewport", (1280, 720)))
        return cls(**data, steps=steps)
