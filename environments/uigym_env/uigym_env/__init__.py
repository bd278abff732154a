"""uigym's clones (mail, food, crm) as a verifiers environment: `vf-eval uigym-env`.

The taskset (uigym's tasks, scored by uigym's verifier) and its harness (the episode played in a real
browser, or through the app's tools). `load_environment(...)` builds the env in Python.
"""

from uigym_env._names import graft

graft()  # before anything imports verifiers.v1 or uigym's graders: see _names

from uigym_env.env import UIGymEnv, UIGymEnvConfig  # noqa: E402
from uigym_env.harness import UIGymHarness, UIGymHarnessConfig  # noqa: E402
from uigym_env.loader import load_environment  # noqa: E402
from uigym_env.taskset import UIGymTask, UIGymTaskData, UIGymTaskset, UIGymTasksetConfig  # noqa: E402

__all__ = ["UIGymTaskset", "UIGymHarness", "UIGymEnv", "UIGymEnvConfig", "UIGymTask", "UIGymTaskData", "UIGymTasksetConfig",
           "UIGymHarnessConfig", "load_environment"]
