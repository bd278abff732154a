"""The environment: actions, observations, browser, app servers, reset; Gymnasium registration."""

import gymnasium

from apps import APP_MODULES
from gym_core.actions import Action, ActionError, parse_action
from gym_core.env import AsyncUIEnv, EnvConfig
from gym_core.runtime import Runtime
from gym_core.tool_env import AsyncToolEnv

# uigym/mail-v0 (the screen), uigym/mail-tools-v0 (the tools only), uigym/mail-hybrid-v0 (both); same for food, crm.
for _app in APP_MODULES:
    for _suffix, _mode in (("", "ui"), ("-tools", "tools"), ("-hybrid", "hybrid")):
        _id = f"uigym/{_app}{_suffix}-v0"
        if _id not in gymnasium.registry:
            gymnasium.register(id=_id, entry_point="gym_core.sync_env:UIEnv", kwargs={"app": _app, "mode": _mode})
# uigym/workspace-v0, -tools-v0, -hybrid-v0: the three apps over one cast, in tabs (gym_core/workspace_env.py).
for _suffix, _mode in (("", "ui"), ("-tools", "tools"), ("-hybrid", "hybrid")):
    _id = f"uigym/workspace{_suffix}-v0"
    if _id not in gymnasium.registry:
        gymnasium.register(id=_id, entry_point="gym_core.workspace_env:WorkspaceEnv", kwargs={"mode": _mode})

__all__ = ["AsyncUIEnv", "AsyncToolEnv", "EnvConfig", "Runtime", "Action", "ActionError", "parse_action"]
