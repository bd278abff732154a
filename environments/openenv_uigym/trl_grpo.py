"""GRPO with TRL over uigym's OpenEnv server: TRL's `environment_factory`, each rollout one OpenEnv session.

    uigym openenv serve --mode tools --app crm --port 8000 &             # the environment server
    python -m openenv_uigym.trl_grpo --url http://127.0.0.1:8000 --tasks 'crm/complete-todays-task-*' \
        --model tiny --steps 2                                           # CPU: the tiny random model, a plumbing run

Each rollout's environment (`OpenEnvToolEnv`) holds one WebSocket session of the server: `reset(**row)` resets it
to the row's task and returns the goal and the names of the app's tools (the list the server sends;
`describe_tool` gives one's description and parameters), the policy's tool calls go through `call_tool`, `done` ends the episode, and `get_reward()` is the server's reward: the verifier's score of
the world the calls left (a rollout that never said done is ended there, and graded as it stands). The trainer
never sees a task's solution or verifier spec: only the goal, the tool results and the reward.

The server must allow at least the trainer's generation batch of sessions at once (`--max-concurrent-envs`,
default 64): TRL pools the environments, one per rollout in flight.

UI mode on a GPU (a sketch of the same loop for a vision-language policy; not run in CI): serve
`uigym openenv serve --mode ui`, and give the environment one method per screen action (`click(x, y)`,
`type_text(text)`, `keypress(keys)`, `scroll(x, y, dy)`, `done(answer)`), each sending `UIGymAction(type=...)` and
returning the new screenshot as an image part (`[{"type": "image", "image": PIL.Image}]`: TRL 1.16 takes
multimodal tool results), with `--model Qwen/Qwen2.5-VL-3B-Instruct`, `use_vllm=True` (colocate) and a
generation batch that the server's `--max-concurrent-envs` covers. The README's "Use with OpenEnv / TRL" has the
commands.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

try:
    from openenv_uigym.client import UIGymEnv
    from openenv_uigym.models import UIGymAction
except ImportError:  # pragma: no cover - run from the package folder
    from client import UIGymEnv  # type: ignore[no-redef]
    from models import UIGymAction  # type: ignore[no-redef]

SYSTEM = ("You operate the {app} app through its tools. Call one tool at a time with call_tool(name, arguments); "
          "when the task is finished call done, with the answer if the task asks a question.")


def environment_class(base_url: str):
    """A TRL `environment_factory` class whose instances each hold one session of the server at `base_url`."""

    class OpenEnvToolEnv:
        url = base_url

        def __init__(self):
            self._client = UIGymEnv(base_url=self.url, message_timeout_s=120).sync()
            self._client.connect()
            self._result = None
            self.episodes = 0

        def reset(self, task: str | None = None, seed: int | None = None, **row: Any) -> str:
            options = {k: v for k, v in (("task", task), ("seed", seed)) if v is not None}
            self._result = self._client.reset(**options)
            self.episodes += 1
            obs = self._result.observation
            self._tools = {t["function"]["name"]: t["function"] for t in (obs.tools or [])
                           if t["function"]["name"] != "done"}
            return (f"Task: {obs.goal}\n\nThe app's tools (describe_tool gives one's parameters): "
                    + ", ".join(self._tools))

        def describe_tool(self, name: str) -> str:
            """What one of the app's tools does and the arguments it takes.

            Args:
                name: the tool's name, from the list in the task
            """
            tool = getattr(self, "_tools", {}).get(name)
            if tool is None:
                return f"Error: no tool {name!r}"
            return json.dumps({"description": " ".join(tool["description"].split()), "parameters": tool["parameters"]})

        def call_tool(self, name: str, arguments: str) -> str:
            """Call one of the app's tools.

            Args:
                name: the tool's name, from the list in the task
                arguments: the tool's arguments as a JSON object, e.g. {"query": "from:ana"}
            """
            if self._result is None or self._result.done:
                return "Error: the episode is over"
            try:
                args = json.loads(arguments) if arguments.strip() else {}
            except json.JSONDecodeError as e:
                return f"Error: the arguments are not JSON: {e.msg}"
            if not isinstance(args, dict):
                return "Error: the arguments must be a JSON object"
            self._result = self._client.step(UIGymAction(type="tool", name=name, args=args))
            obs = self._result.observation
            return f"Error: {obs.last_action_error}" if obs.last_action_error else (obs.tool_result or "")

        def done(self, answer: str = "") -> str:
            """End the task.

            Args:
                answer: the answer, if the task asks a question; else empty
            """
            if self._result is None or self._result.done:
                return "the episode is over"
            self._result = self._client.step(UIGymAction(type="done", answer=answer or None))
            return "the task is finished"

        def get_reward(self) -> float:
            """The verifier's score of the end state (the episode is ended here if the policy never said done)."""
            if self._result is None:
                return 0.0
            if not self._result.done:
                self.done()
            return float(self._result.reward or 0.0)

        def _close(self) -> None:
            self._client.close()

    return OpenEnvToolEnv


def task_rows(task_ids: list[str], app: str) -> list[dict]:
    """The training dataset: one row per task, its prompt the system line (the goal comes from reset)."""
    return [{"prompt": [{"role": "system", "content": SYSTEM.format(app=app)}, {"role": "user", "content": ""}],
             "task": t} for t in task_ids]


def build_trainer(base_url: str, task_ids: list[str], app: str, *, model: str = "tiny", out: str = "runs/openenv-grpo",
                  steps: int = 2, num_generations: int = 2, max_completion_length: int = 32, max_turns: int = 2,
                  use_vllm: bool = False):
    """TRL's GRPOTrainer over the OpenEnv server: the env class above as `environment_factory`."""
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer

    from agent_harness.train.grpo import load_model, load_processor

    if model == "tiny":  # the project's tiny random Qwen2.5-VL, built locally (no download)
        from agent_harness.models import cached_tiny_qwen25vl

        model = str(cached_tiny_qwen25vl())
    processor = load_processor(model)
    args = GRPOConfig(output_dir=out, max_steps=steps, per_device_train_batch_size=num_generations,
                      num_generations=num_generations, max_completion_length=max_completion_length,
                      max_tool_calling_iterations=max_turns, generation_kwargs={"max_new_tokens": max_completion_length},
                      learning_rate=1e-4, logging_steps=1, save_strategy="no", report_to="none", use_vllm=use_vllm,
                      dataloader_num_workers=0, remove_unused_columns=False, use_cpu=not use_vllm)
    return GRPOTrainer(model=load_model(model), reward_funcs=[], args=args,
                       train_dataset=Dataset.from_list(task_rows(task_ids, app)), processing_class=processor,
                       environment_factory=environment_class(base_url))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="GRPO (TRL) over uigym's OpenEnv server, tool mode")
    p.add_argument("--url", required=True)
    p.add_argument("--tasks", required=True, help="task ids or globs, comma separated (one app)")
    p.add_argument("--model", default="tiny", help="'tiny' (CPU plumbing) or a local model folder")
    p.add_argument("--steps", type=int, default=2)
    p.add_argument("--num-generations", type=int, default=2)
    p.add_argument("--max-completion-length", type=int, default=32)
    p.add_argument("--vllm", action="store_true", help="generate with vLLM (colocated; a GPU)")
    p.add_argument("--out", default="runs/openenv-grpo")
    a = p.parse_args(argv)
    from tasks import select_tasks

    chosen = select_tasks(a.tasks)
    apps = sorted({t.app for t in chosen})
    if len(apps) != 1:
        print(f"error: --tasks must match tasks of one app (matched {len(chosen)} of {apps or 'none'})", file=sys.stderr)
        return 2
    trainer = build_trainer(a.url, [t.id for t in chosen], apps[0], model=a.model, out=a.out, steps=a.steps,
                            num_generations=a.num_generations, max_completion_length=a.max_completion_length,
                            use_vllm=a.vllm)
    trainer.train()
    for h in trainer.state.log_history:
        if "reward" in h:
            print(json.dumps({k: h[k] for k in ("step", "reward", "reward_std") if k in h}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
