"""The oracle through the OpenEnv client: a task's gold tool plan (`task.tools.solution`, the calls uigym's
tool oracle plays) sent as actions to a running server in tools or hybrid mode; prints the reward (1.0).

    python -m openenv_uigym.oracle --url http://127.0.0.1:8000 --task crm/complete-todays-task-00

The plan is read here, on the operator's side, from uigym's task files: the server never sends it. The
screen's oracle needs the page's DOM to aim (agent_harness/agents/oracle.py); tests/openenv records its actions
in-process and replays them through the client the same way (`play`).
"""

from __future__ import annotations

import argparse
import sys

from agent_harness.agents.tool_oracle import call_to_action
from tasks import TaskLoadError, load_task


def tool_plan(task_id: str) -> list[dict]:
    """The task's gold tool calls as uigym actions, ending with done."""
    task = load_task(task_id)
    if task.tools is None or not task.tools.solution:
        why = task.tools.unsupported if task.tools is not None else "it has no tool plan"
        raise ValueError(f"task {task_id} has no tool solution: {why}")
    return [call_to_action(c) for c in task.tools.solution]


def play(env, task_id: str, actions: list[dict], **reset_options):
    """Reset `env` (a sync UIGymEnv) to `task_id` and send `actions`; the last StepResult."""
    from openenv_uigym.models import UIGymAction

    result = env.reset(task=task_id, **reset_options)
    for action in actions:
        result = env.step(UIGymAction.model_validate(action))
        if result.done:
            break
    return result


def main(argv: list[str] | None = None) -> int:
    from openenv_uigym.client import UIGymEnv

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--url", required=True, help="the server, e.g. http://127.0.0.1:8000")
    p.add_argument("--task", required=True)
    args = p.parse_args(argv)
    try:
        actions = tool_plan(args.task)
    except (TaskLoadError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    with UIGymEnv(base_url=args.url).sync() as env:
        result = play(env, args.task, actions)
        print(f"{args.task}: reward {result.reward} done {result.done}")
    return 0 if result.reward == 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())
