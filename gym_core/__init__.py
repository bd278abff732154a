"""The environment: actions, observations, browser, app servers, reset; Gymnasium registration."""

import gymnasium

from gym_core.actions import Action, ActionError, parse_action
from gym_core.env import AsyncUIEnv, EnvConfig
from gym_core.runtime import Runtime

for _app in ("mail", "food", "crm"):
    _id = f"uigym/{_app}-v0"
    if _id not in gymnasium.registry:
        gymnasium.register(id=_id, entry_point="gym_core.sync_env:UIEnv", kwargs={"app": _app})

__all__ = ["AsyncUIEnv", "EnvConfig", "Runtime", "Action", "ActionError", "parse_action"]
