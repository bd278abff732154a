"""A function-calling model in tool mode: any OpenAI-compatible chat endpoint, text-only models included.

The model gets the app's tools (the env's OpenAI function list, `done` among them) and the goal; each of its
tool calls is one env step, and the call's JSON result (or the app's error) goes back as that call's `tool`
message. A reply with several calls is played in order (a call that fails drops the rest, and the model
sees why). A reply with no call ends the episode with its text as the answer, as a chat model ends a turn.
With `--agent-arg restate_goal=true` each result is followed by the task (tool_result_message).
HTTP, retries, the default model and usage accounting are ModelAgent's.
"""

from __future__ import annotations

import json
import time
from typing import Any

from agent_harness.formats.base import WHEN_NOT_TO_ACT
from agent_harness.agents.model import ModelAgent, tool_result_text
from agent_harness.formats.base import Reply

SYSTEM = ("You operate the {app} app through its tools, for a user. Use the tools to find what you need and to "
          "make the change the task asks for; ids come from the search and list tools. Make exactly the changes "
          "asked for, nothing else. When the task is complete, call `done` (with `answer` set to just the value "
          "asked for, if the task asks a question). ") + WHEN_NOT_TO_ACT.replace("{", "{{").replace("}", "}}")
# The workspace env's tool list (gym_core/workspace_env.py): three apps' tools, app-prefixed, and `wait`.
WORKSPACE_SYSTEM = ("You operate three apps of one workspace through their tools, for a user: mail, food (Forkful) and "
                    "crm, each tool named <app>_<tool> (mail_send_email, crm_update_record, ...); the same people are "
                    "in all three. Use the tools to find what you need and to make the changes the task asks for; ids "
                    "come from the search and list tools, each app's its own. People you email answer a few minutes "
                    "later: call `wait` to let that time pass, then read the reply. Make exactly the changes asked "
                    "for, nothing else, in the app the task names. When the task is complete, call `done` (with "
                    "`answer` set to just the value asked for, if the task asks a question). ") + WHEN_NOT_TO_ACT


def system_for(app: str) -> str:
    """The tool-mode system prompt for `app`'s tools, or the workspace's three apps' (app "workspace")."""
    from tasks.schema import WORKSPACE

    return WORKSPACE_SYSTEM if app == WORKSPACE else SYSTEM.format(app=app)


# What a `done` call's result says where a conversation goes on after it: TRL's tool loop (GRPO in tool mode)
# generates one more reply after the last call it runs, and the SFT export's closing turn teaches that reply.
TASK_FINISHED = "The task is finished."


def tool_result_message(result: str, goal: str | None = None) -> str:
    """A call's result as the model reads it in its `tool` message. With `goal` (the agent's `restate_goal`), the
    task follows it, as a screen agent's prompt shows the task beside each new screen: the goal otherwise sits only
    in the first user turn, behind every earlier result (one place for eval, the SFT export and tool-mode GRPO)."""
    return f"{result}\n\nTask: {goal}" if goal else result


class ToolModelAgent(ModelAgent):
    name = "openai-tools"

    def __init__(self, *, restate_goal: bool = False, **kw):
        super().__init__(**kw)
        self.restate_goal = bool(restate_goal)  # the task after each call's result (tool_result_message)

    async def reset(self, env, task) -> None:
        self.env = env
        self.task = task
        self.tools: list[dict] = await env.tools()
        self.app = env.server.app if env.server else (task.app if task else "")
        self.turns: list[dict] = [{"role": "user", "content": task.goal if task else "Explore the app."}]
        self.queue: list[tuple[str, dict]] = []  # (call id, action) still to play from the last reply
        self.pending: str | None = None  # the call whose result the next observation holds
        self.n_calls = 0
        self.parse_errors = 0
        self.last_parse_error = ""
        self.last_text = ""
        self.last_usage = {}
        if self.model is None:
            self.model = await self._default_model()

    def system_message(self) -> str:
        return self.system_prompt_override or system_for(self.app)

    def _answer_pending(self, obs: dict) -> None:
        if self.pending is None:
            return
        error = obs.get("last_action_error") or ""
        content = tool_result_text(obs.get("tool_result"), error)
        goal = self.task.goal if self.restate_goal and self.task else None
        self.turns.append({"role": "tool", "tool_call_id": self.pending, "content": tool_result_message(content, goal)})
        self.pending = None
        if error and self.queue:  # the plan went wrong: the model sees why before anything else runs
            for tid, _ in self.queue:
                self.turns.append({"role": "tool", "tool_call_id": tid,
                                   "content": "Not run: an earlier call of this reply failed."})
            self.queue.clear()

    async def act(self, obs: dict) -> dict:
        self.last_parse_error = ""
        self._answer_pending(obs)
        if self.queue:
            self.pending, action = self.queue.pop(0)
            self.last_text, self.last_usage = "", {"queued": True}
            return action
        body: dict[str, Any] = {"model": self.model, "messages": [{"role": "system", "content": self.system_message()},
                                                                  *self.turns],
                                "tools": self.tools, "max_tokens": self.max_tokens, "temperature": self.temperature}
        if self.seed is not None:
            body["seed"] = self.request_seed()
        self._add_sampling_options(body)  # --top-p and --logprobs, as in screen mode (they were dropped here)
        body.update(self.extra_body)
        t0 = time.perf_counter()
        data, retries = await self._post("/chat/completions", body)
        self.n_calls += 1
        choice = (data.get("choices") or [{}])[0]
        reply = Reply.of(choice.get("message") or {})
        usage = data.get("usage") or {}
        self.last_usage = {"prompt_tokens": int(usage.get("prompt_tokens") or 0),
                           "completion_tokens": int(usage.get("completion_tokens") or 0),
                           "total_tokens": int(usage.get("total_tokens") or 0),
                           "latency_ms": round((time.perf_counter() - t0) * 1000, 1), "retries": retries,
                           "finish_reason": choice.get("finish_reason")}
        self._record_logprobs(choice)
        self.last_text = reply.content or ""
        if not reply.tool_calls:
            self.turns.append({"role": "assistant", "content": reply.content or ""})
            answer = (reply.content or "").strip()
            return {"type": "done", **({"answer": answer} if answer else {})}
        calls, actions = [], []
        for i, tc in enumerate(reply.tool_calls):
            tid = tc.id or f"call_{self.n_calls}_{i}"
            raw = tc.arguments if isinstance(tc.arguments, str) else json.dumps(tc.arguments or {})
            calls.append({"id": tid, "type": "function", "function": {"name": tc.name, "arguments": raw}})
            actions.append((tid, self._action(tc.name, raw)))
        self.turns.append({"role": "assistant", "content": reply.content or "", "tool_calls": calls})
        self.pending, action = actions[0]
        self.queue = actions[1:self.max_actions_per_reply]
        for tid, _ in actions[self.max_actions_per_reply:]:
            self.turns.append({"role": "tool", "tool_call_id": tid, "content": "Not run: too many calls in one reply."})
        return action

    def _action(self, name: str, raw: str) -> dict:
        try:
            args = json.loads(raw) if raw.strip() else {}
        except (json.JSONDecodeError, RecursionError, ValueError) as e:
            # Not JSON, nested deeper than the parser reads, or an integer past Python's 4300 digits: the
            # model's mistake, answered like any other unreadable arguments, never raised out of act().
            self.parse_errors += 1
            why = e.msg if isinstance(e, json.JSONDecodeError) else ("nested too deeply" if isinstance(e, RecursionError) else str(e))
            self.last_parse_error = f"the arguments of {name} are not JSON: {why}"
            args = {"__unreadable_arguments__": raw[:200]}  # the app refuses them and says so
        if name == "done":
            answer = args.get("answer") if isinstance(args, dict) else None
            return {"type": "done", **({"answer": str(answer)} if answer is not None else {})}
        return {"type": "tool", "name": name, "args": args if isinstance(args, dict) else {"value": args}}
