"""Human demonstrations in the agent's own action space: `uigym record`.

    from agent_harness.record import RecordConfig, Recorder, RecordServer, replay_episode
    server = RecordServer(Recorder(RecordConfig(tasks=[task], out=Path("runs/demos"), annotator="ana")).start())
    print(server.url); server.serve_forever()

A local web page shows the live env screen at 1:1 and the goal; the person's clicks, drags, wheel,
typing and key chords on it are sent to the env as uigym actions; Done grades and saves the episode
like an eval episode (results.jsonl + episodes/). `replay_episode` plays a saved trajectory again
in a fresh world and compares the end state.
"""

from agent_harness.record.replay import ReplayResult, replay_episode
from agent_harness.record.server import RecordServer, create_app
from agent_harness.record.session import RecordConfig, Recorder, RecorderError, demonstrated

__all__ = ["RecordConfig", "Recorder", "RecorderError", "RecordServer", "ReplayResult", "create_app", "demonstrated",
           "replay_episode"]
