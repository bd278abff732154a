"""Grading a finished run again with the current verifiers, without replaying it (`uigym rescore RUN`).

Each episode that ended with a grade saved its end as `end_written.json.gz` (agent_harness.episode.
save_end_written): the tables it wrote, its answer and the steps the process checks read. Rescoring resets
a world of the task's seed and fixtures to read the start state (the runtime caches it per seed), merges
the written tables over it as the env's `end_state` does, and calls `grading.verify` with the task's
current spec. Episodes without a saved end (an error, or a run from before it was saved) and tasks no
longer defined are kept as they were and listed as not rescored.
"""

from __future__ import annotations

import gzip
import json
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent_harness.episode import END_WRITTEN
from grading.written import merge_written
from agent_harness.results import latest_results, read_results
from tasks import Task


@dataclass
class Rescored:
    rows: list[dict] = field(default_factory=list)  # every row, rescored where it could be
    changed: list[tuple[dict, dict]] = field(default_factory=list)  # (old row, new row) whose verdict changed
    skipped: list[tuple[dict, str]] = field(default_factory=list)  # (row, why it was not rescored)


def verdict(row: dict) -> str:
    """pass | fail | ungraded | error."""
    if row.get("error"):
        return "error"
    if row.get("ungraded"):
        return "ungraded"
    return "pass" if row.get("passed") else "fail"


def merge_end(start: dict, saved_state: dict) -> dict:
    """The end state from the saved written tables (or their changed rows) over the start state, or whole when
    `_written` is None (the app could not name what was written and sent every table): grading.written's one merge."""
    return merge_written(start, saved_state)


def end_of(env: Any, saved_state: dict) -> dict:
    """The graded end state of a saved episode on `env` (reset to its task): one app's merged over its start, or for
    a workspace task (saved per app under `_apps`) each app's merged over its tab's start, joined as the workspace
    env grades (grading.joint_state)."""
    if "_apps" not in saved_state:
        return merge_end(env.start_state or {}, saved_state)
    from grading import joint_state

    return joint_state({app: merge_end(env.envs[app].start_state or {}, part)
                        for app, part in saved_state["_apps"].items()})


async def rescore_run(run: Path, tasks: dict[str, Task], runtime: Any, judge: Any = None) -> Rescored:
    """Every latest row of `run` graded again with `tasks`' specs (task id -> Task)."""
    from gym_core.env import EnvConfig
    from gym_core.envs import env_for, fits
    from grading import verify

    out = Rescored()
    env = None
    try:
        for row in latest_results(read_results(run)):
            saved_path = Path(run) / row.get("episode_dir", "") / END_WRITTEN
            task = tasks.get(row["task_id"])
            why = ("ended in an error" if row.get("error") else
                   "the task is no longer defined" if task is None else
                   f"no {END_WRITTEN} (run before rescoring was possible)" if not saved_path.exists() else None)
            if why:
                out.rows.append(row)
                out.skipped.append((row, why))
                continue
            saved = json.loads(gzip.decompress(saved_path.read_bytes()))
            if env is None or not fits(env, task):  # a workspace task is reset in the workspace env (its 3 worlds)
                if env is not None:
                    await env.close()
                env = env_for(task, "tools", EnvConfig(), runtime, f"rescore-{uuid.uuid4().hex[:8]}")
            await env.reset(task=task, seed=int(row.get("sample", 0)))
            end = end_of(env, saved["state"])
            result = verify(task.verify, env.start_state, end, saved.get("answer"),
                            trajectory=saved.get("trajectory"), judge=judge if task.verify.has_judge else None,
                            partial_credit=bool(row.get("partial_credit")))  # as the run rewarded it
            new = {**row, "reward": float(result.score), "passed": result.passed, "partial": result.partial,
                   "ungraded": result.status == "ungraded"}
            out.rows.append(new)
            if verdict(new) != verdict(row):
                out.changed.append((row, new))
    finally:
        if env is not None:
            await env.close()
    return out


def write_rescored(rows: list[dict], path: Path, overwrite: bool = False) -> Path:
    """The rescored rows as a new results file; an existing one is refused unless `overwrite`."""
    if path.exists() and not overwrite:
        raise FileExistsError(f"{path} exists: pass --out for another file, or --overwrite to replace it")
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path
