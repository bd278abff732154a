"""The environment `vf-eval uigym-env` runs: verifiers' single-agent env with uigym's defaults.

The seat's defaults are uigym's harness and a subprocess runtime: the harness runs in-process (the world
lives in uigym's app servers and Chromium on this host, not in a sandbox), so a run needs no Prime
sandbox. The env closes this process's uigym browsers and app servers when it stops.
"""

from __future__ import annotations

import verifiers.v1 as vf

from uigym_env.harness import close_runtimes


class UIGymEnvConfig(vf.SingleAgentEnvConfig):
    # harness unset: it resolves to the one this package exports (uigym-env), by the taskset id
    agent: vf.AgentConfig = vf.AgentConfig(runtime=vf.SubprocessConfig())


class UIGymEnv(vf.SingleAgentEnv, vf.Env[UIGymEnvConfig]):
    async def stop(self) -> None:
        await close_runtimes()
        await super().stop()
