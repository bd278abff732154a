"""uigym's clones (mail, food, crm) as a verifiers environment: `vf-eval uigym-env`.

The taskset (uigym's tasks, scored by uigym's verifier) and its harness (the episode played in a real
browser, or through the app's tools). `load_environment(...)` builds the env in Python.
"""

from uigym_env.env import UIGymEnv, UIGymEnvConfig
from uigym_env.harness import UIGymHarness, UIGymHarnessConfig
from uigym_env.loader import load_environment
from uigym_env.taskset import UIGymTask, UIGymTaskData, UIGymTaskset, UIGymTasksetConfig

__all__ = ["UIGymTaskset", "UIGymHarness", "UIGymEnv", "UIGymEnvConfig", "UIGymTask", "UIGymTaskData", "UIGymTasksetConfig",
           "UIGymHarnessConfig", "load_environment"]
