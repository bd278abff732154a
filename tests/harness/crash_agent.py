"""An agent that kills its own process on one task (to test worker crashes), the oracle elsewhere."""

from __future__ import annotations

import os

from agent_harness.agents.oracle import OracleAgent


class CrashOnAddNote(OracleAgent):
    name = "crash-on-add-note"

    async def act(self, obs):
        if self.task is not None and self.task.id == "mail/toy-add-note":
            os._exit(3)  # as a segfault or the OOM killer would
        return await super().act(obs)
