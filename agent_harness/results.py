"""The results file: one JSON row per finished episode in <out>/results.jsonl, and the row's shape.

Rows are appended under a file lock as episodes finish (a crash loses nothing done); reading skips a line
cut short by a crash, and `latest_results` keeps the last row per (agent, task, sample), so a retried
episode replaces its error. `EpisodeResult` is the row's schema: the runner, the scale backends and the
recorder all build rows through it.
"""

from __future__ import annotations

import fcntl
import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from agent_harness.trajectory import episode_dir
from tasks import Task
from tasks.fresh import generalisation_split

RESULTS = "results.jsonl"


class EpisodeResult(BaseModel):
    """One episode's row in results.jsonl (what reports, exports and training read)."""

    model_config = ConfigDict(extra="forbid")

    task_id: str
    app: str
    difficulty: str
    split: str
    generalisation: str
    seed: int
    template: str | None
    agent: str
    mode: str | None = None  # ui | tools | hybrid (None: an error row written before the env said)
    look: str | None = None  # the app's look the episode was shown (apps/_shared/looks.py); None: not known
    # The episode's variant (gym_core/variant.py: every axis's value and its label), as the reset drew it from the
    # sample; None in tools mode (no screen) and in rows written before variants.
    variant: dict | None = None
    # The seed family the episode's world was built from, as the app's reset said (EnvConfig.family, `uigym eval
    # --family`: "injected"); None: the app's own seeds.
    family: str | None = None
    sample: int
    reward: float
    passed: bool
    # A judged episode whose judge gave no verdict (none configured, timeout, malformed reply):
    # reward 0 but no grade; reports count it apart and training must drop it.
    ungraded: bool = False
    steps: int
    seconds: float
    error: str | None
    answer: Any = None
    tokens: int = 0
    episode_dir: str
    error_kind: str | None = None
    parse_errors: int = 0
    action_errors: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    model_calls: int = 0
    model_ms: float = 0.0
    # Injection tasks (Task.attack): whether the injected instruction was carried out; None for other tasks.
    attack_succeeded: bool | None = None
    # A task whose verify declares checkpoints (#38's long tasks): the share of its milestones the episode reached, 0
    # when a guard failed (grading.verify); None: no checkpoints. `partial_credit`: the run rewarded it (`uigym eval
    # --partial-credit`), so `reward` is this share and `passed` the binary pass.
    partial: float | None = None
    partial_credit: bool = False

    def row(self) -> dict[str, Any]:
        return self.model_dump()


def task_fields(task: Task) -> dict[str, Any]:
    """The columns a row takes from its task."""
    return {"task_id": task.id, "app": task.app, "difficulty": task.difficulty, "split": task.split,
            "generalisation": generalisation_split(task), "seed": task.seed, "template": task.template}


def error_kind(error: str | None) -> str | None:
    if not error:
        return None
    return error.split(":", 1)[0].strip() or "Error"


def error_row(task: Task, sample: int, label: str, out: Path, error: str, steps: int = 0,
              seconds: float = 0.0, mode: str | None = None) -> dict:
    """The row of an episode that ended in an error before it could report (crash, timeout, lost worker)."""
    return EpisodeResult(**task_fields(task), agent=label, mode=mode, sample=sample, reward=0.0, passed=False, steps=steps,
                         seconds=round(seconds, 3), error=error, error_kind=error_kind(error),
                         episode_dir=str(episode_dir(out, task.id, sample).relative_to(out))).row()


def is_graded(row: dict) -> bool:
    """Whether an episode got a grade. An ungraded one (a judged task whose judge gave no verdict) has
    reward 0 but is no failure: it counts in no pass rate or mean reward, only in its own `ungraded` count.
    An episode that ended in an error is graded (a failure)."""
    return not row.get("ungraded")


def graded(rows: list[dict]) -> list[dict]:
    """The rows that carry a grade: what every pass rate, mean reward and pass@k is computed over."""
    return [r for r in rows if is_graded(r)]


def pass_rate(rows: list[dict]) -> float | None:
    """Passed over graded episodes; None when no episode was graded."""
    g = graded(rows)
    return sum(1 for r in g if r.get("passed")) / len(g) if g else None


def needs_rerun(row: dict, retry_errors: bool) -> bool:
    """Whether a resumed eval plays this recorded episode again: with `retry_errors`, the ones that ended
    without a grade (an error, or ungraded: run again with a judge configured, they get one)."""
    return retry_errors and bool(row.get("error") or not is_graded(row))


def ungraded_reason(out: Path, row: dict) -> str | None:
    """Why an ungraded episode got no grade, from its trajectory's verifier report (None if unreadable)."""
    try:
        verify = json.loads((Path(out) / row.get("episode_dir", "") / "trajectory.json").read_text()).get("verify")
    except (OSError, ValueError, AttributeError):
        return None
    return (verify or {}).get("ungraded_reason") if isinstance(verify, dict) else None


def read_results(out: Path) -> list[dict]:
    path = Path(out) / RESULTS
    if not path.exists():
        return []
    rows = []
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line:
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            continue  # a line cut short by a crash: that episode simply runs again
    return rows


def latest_results(rows: list[dict]) -> list[dict]:
    """One row per (agent, task, sample): the last one written (a retried episode replaces its error)."""
    by_key: dict[tuple, dict] = {}
    for r in rows:
        by_key[(r.get("agent"), r.get("task_id"), r.get("sample", 0))] = r
    return list(by_key.values())


class ResultsWriter:
    """Appends rows to results.jsonl under an exclusive file lock (several evals may share a folder)."""

    def __init__(self, out: Path):
        self.path = Path(out) / RESULTS
        self.path.parent.mkdir(parents=True, exist_ok=True)

    def append(self, row: dict) -> None:
        line = json.dumps(row) + "\n"
        with self.path.open("a+b") as f:
            fcntl.flock(f, fcntl.LOCK_EX)
            try:
                # A line cut short by a crash must not swallow this one: start on a fresh line.
                f.seek(0, 2)
                if f.tell() > 0:
                    f.seek(-1, 2)
                    if f.read(1) != b"\n":
                        f.write(b"\n")
                f.write(line.encode())
                f.flush()
            finally:
                fcntl.flock(f, fcntl.LOCK_UN)


