"""`load_environment(...)`: the uigym env from Python keywords, through verifiers' own loader."""

from __future__ import annotations

from typing import Any

import verifiers.v1 as vf

ENV_ID = "uigym-env"


def env_config(app: str | None = None, mode: str = "ui", tasks: str = "*", split: str | None = None,
               max_turns: int | None = None, image_size: str | None = None, format: str = "json",
               tasks_dir: str | None = None, first_instances: bool = False, difficulty: str | None = None,
               **harness: Any) -> vf.EnvConfig:
    """The EnvConfig `vf-eval uigym-env --env.taskset.app mail ...` would build; `harness` are further
    UIGymHarnessConfig fields (app_modules, max_pixels, history_images, save_dir, ...)."""
    if mode not in ("ui", "tools"):
        raise ValueError(f"mode must be 'ui' or 'tools', not {mode!r}")
    taskset = {"id": ENV_ID, "app": app, "mode": mode, "tasks": tasks, "split": split, "difficulty": difficulty,
               "tasks_dir": tasks_dir, "first_instances": first_instances}
    harness_cfg = {"id": ENV_ID, "max_turns": max_turns, "image_size": image_size, "format": format, **harness}
    return vf.resolve_env_config({"taskset": taskset, "agent": {"harness": harness_cfg}})


def load_environment(**kwargs: Any) -> vf.Env:
    """vf.load_environment on env_config(**kwargs): `load_environment(app="mail", split="test", max_turns=15)`."""
    return vf.load_environment(env_config(**kwargs))
