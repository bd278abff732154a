"""Content digests of worlds and tasks, shared by the workspace tests (and the way to re-pin them)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any


def digest(value: Any) -> str:
    """A stable digest of rows or tasks: canonical JSON (sorted keys; dates, bytes and the like by str)."""
    text = json.dumps(value, sort_keys=True, default=str, ensure_ascii=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def app_world_digest(app: str, seed: int = 0) -> str:
    """The digest of an app's own (single-app) world for `seed` at the app's default clock, built by the very
    function its world store snapshots (AppSpec.build_world)."""
    import importlib

    spec = importlib.import_module(f"apps.{app}").SPEC
    return digest(spec.build_world(seed, spec.default_now))


TASK_PINS = Path(__file__).with_name("pinned_tasks.json")


def task_file_digests() -> dict[str, str]:
    """Each bundled task file's bytes, digested: {"mail/star-latest-from.json": digest}. Files, not the loaded
    tasks: a field added to the task model with a default changes every loaded task and no file."""
    root = Path(__file__).resolve().parents[2] / "tasks"
    return {f"{p.parent.name}/{p.name}": hashlib.sha256(p.read_bytes()).hexdigest()[:20]
            for app in ("mail", "food", "crm") for p in sorted((root / app).glob("*.json"))}


if __name__ == "__main__":  # python -m tests.workspace.hashes: print the worlds' digests, re-pin the task files
    for app in ("mail", "food", "crm"):
        print(app, app_world_digest(app))
    TASK_PINS.write_text(json.dumps(task_file_digests(), indent=1, sort_keys=True) + "\n")
    print(f"task files pinned in {TASK_PINS}")
