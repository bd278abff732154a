"""What an SFT export is asked for (ExportConfig) and what it counted (ExportStats)."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

from agent_harness.formats import get_format

SOURCES = ("human", "oracle", "model")
SPLIT_MODES = ("auto", "field", "hash")


@dataclass
class ExportConfig:
    runs: list[Path]
    out: Path
    format: str = "qwen"
    history: int = 3  # screenshots per sample: the current one and up to K-1 before it
    history_turns: int | None = None  # keep only the last N steps in the prompt (as the agent's --history-turns)
    only_passed: bool = False
    sources: list[str] | None = None  # keep only these sources (human, oracle, model)
    looks: list[str] | None = None  # keep only episodes shown in these looks (apps/_shared/looks.py)
    # leave out episodes shown in a held-out variant value (gym_core.heldout_variants), which `train sft` refuses
    train_variants: bool = False
    coords: str = "abs"
    max_pixels: int | None = None  # the model sees Qwen-resized screenshots (as eval's --max-pixels)
    image_size: tuple[int, int] | None = None  # or screenshots resized to WxH (as eval's --image-size)
    include_url: bool = True
    tool_screenshots: bool = False  # tool-call formats: the screenshot after a call is its tool result (RL layout)
    split: str = "auto"  # auto: the tasks' split field for apps that mark test tasks, else a hash of the task
    test_fraction: float = 0.1
    group_by: str = "task"  # hash split over task ids, or over templates (variants of one template stay together)
    keep_failed_actions: bool = False  # steps whose action the env refused (last_action_error)
    restate_goal: bool = False  # tool mode: the task after each call's result (as eval's --agent-arg restate_goal=true)
    closing_turn: bool = False  # tool mode: after a finished episode's `done`, a sample whose reply is empty
    dedupe: bool = True
    overwrite: bool = False

    def __post_init__(self):
        self.runs = [Path(r) for r in self.runs]
        self.out = Path(self.out)
        get_format(self.format)  # unknown names fail early
        if self.split not in SPLIT_MODES:
            raise ValueError(f"split must be one of {', '.join(SPLIT_MODES)}, not {self.split!r}")
        if self.group_by not in ("task", "template"):
            raise ValueError("group_by must be 'task' or 'template'")
        if self.history < 1:
            raise ValueError("history must be at least 1 (the current screenshot)")
        if self.sources:
            bad = [s for s in self.sources if s not in SOURCES]
            if bad:
                raise ValueError(f"unknown source(s) {bad}; sources are {', '.join(SOURCES)}")


@dataclass
class ExportStats:
    episodes: int = 0
    samples: dict[str, int] = field(default_factory=dict)
    skipped_episodes: Counter = field(default_factory=Counter)
    skipped_steps: Counter = field(default_factory=Counter)
    duplicates: int = 0
    images: int = 0
    out: str = ""

    def as_dict(self) -> dict:
        d = asdict(self)
        d["skipped_episodes"] = dict(self.skipped_episodes)
        d["skipped_steps"] = dict(self.skipped_steps)
        return d
