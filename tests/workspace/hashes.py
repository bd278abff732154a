"""Content digests of worlds and tasks, shared by the workspace tests (and the way to re-pin them)."""

from __future__ import annotations

import hashlib
import json
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


def bundled_tasks_digest() -> str:
    from tasks.loader import load_tasks

    return digest(sorted((t.model_dump(mode="json") for t in load_tasks()), key=lambda t: t["id"]))


if __name__ == "__main__":  # python -m tests.workspace.hashes: print the digests to pin
    for app in ("mail", "food", "crm"):
        print(app, app_world_digest(app))
    print("tasks", bundled_tasks_digest())
