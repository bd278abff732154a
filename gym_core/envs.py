"""Which env plays a task: a single-app task the mode's env (screen, tools, hybrid), a workspace task the workspace
env in that mode. The eval runner and task validation both take their envs from here, so a run over a mix of
single-app and workspace tasks swaps envs only where a task needs the other kind."""

from __future__ import annotations

from typing import Any

from gym_core.config import EnvConfig
from gym_core.env import AsyncUIEnv
from gym_core.runtime import Runtime
from gym_core.tool_env import AsyncToolEnv
from gym_core.workspace_env import AsyncWorkspaceEnv
from tasks.schema import WORKSPACE


def env_for(task: Any, mode: str, config: EnvConfig, runtime: Runtime, world_id: str):
    """A fresh env for `task` (None: a single-app one) in `mode` ("ui", "tools" or "hybrid")."""
    if getattr(task, "app", None) == WORKSPACE:
        return AsyncWorkspaceEnv(mode, config, runtime, world_id=world_id)
    if mode == "tools":
        return AsyncToolEnv(None, config, runtime=runtime, world_id=world_id)
    return AsyncUIEnv(None, config.for_mode(mode), runtime=runtime, world_id=world_id)


def fits(env: Any, task: Any) -> bool:
    """Whether `env` can play `task`: a workspace env plays workspace tasks, any other env the rest."""
    return isinstance(env, AsyncWorkspaceEnv) == (getattr(task, "app", None) == WORKSPACE)


__all__ = ["env_for", "fits"]
