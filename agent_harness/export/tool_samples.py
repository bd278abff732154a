"""Tool-mode episodes -> SFT samples: one per call, the conversation a function-calling agent had up to it.

The prompt is what agents/tool_model.py sends (its system prompt, the goal, then each earlier call as an
assistant tool call and its result as a `tool` message, the task after it with `restate_goal`); the completion is the step's call, written the
Qwen/Hermes way (`<tool_call>{"name", "arguments"}</tool_call>`, export/prompts.to_dataset_messages) and the
`tools` column holds the function list the agent was given, so a chat template renders both as in eval.
No images: the columns stay the screen samples' (one schema for a mixed export).
"""

from __future__ import annotations

import hashlib
import json
from typing import Iterator

from agent_harness.agents.model import tool_result_text
from agent_harness.agents.tool_model import TASK_FINISHED, system_for, tool_result_message
from agent_harness.export.prompts import to_dataset_messages


def _call(action: dict, cid: str) -> dict | None:
    """The recorded env action as an OpenAI tool call; None for what a function-calling agent cannot do."""
    if not isinstance(action, dict):
        return None
    if action.get("type") == "done":
        args = {"answer": action["answer"]} if action.get("answer") is not None else {}
        return {"id": cid, "type": "function", "function": {"name": "done", "arguments": json.dumps(args)}}
    if action.get("type") == "tool":
        return {"id": cid, "type": "function",
                "function": {"name": action["name"], "arguments": json.dumps(action.get("args") or {})}}
    return None


def _sample(meta: dict, tools_json: str, step: int, messages: list[dict], completion: dict, action) -> dict:
    target = to_dataset_messages([completion])[0]["content"][0]["text"]
    prompt_sha = hashlib.sha256(json.dumps(messages, sort_keys=True).encode()).hexdigest()
    return {
        **meta, "tools": tools_json, "format": "tools",
        "step": step, "url": "", "last_action_error": "",
        "prompt": to_dataset_messages(messages), "completion": to_dataset_messages([completion]),
        "images": [], "target": target, "actions": json.dumps([action] if action else [], ensure_ascii=False),
        "recorded_action": json.dumps(action, ensure_ascii=False),
        "screenshot_sha": prompt_sha,  # no screen: the prompt itself keys duplicates
        "think_ms": 0.0,
    }


def tool_episode_samples(ep, meta: dict, stats, keep_failed_actions: bool = False,
                         restate_goal: bool = False, closing_turn: bool = False) -> Iterator[dict]:
    """One sample per call. With `closing_turn`, an episode its `done` finished gets one more: the `done`
    result (TASK_FINISHED, as GRPO's tool env answers it) and an empty reply, the end of the turn. TRL's tool
    loop generates a reply after the last call it runs, and that reply is trained on: a model never shown
    what follows `done` writes another call there (the SFT model of the README's run J did, 29 times in 30)."""
    traj = ep.traj
    app = meta.get("app") or ""
    messages: list[dict] = [{"role": "system", "content": system_for(app)}, {"role": "user", "content": traj.goal}]
    tools_json = json.dumps(traj.tools, ensure_ascii=False) if traj.tools else ""
    for s in traj.steps:
        cid = f"call_{s.step}"
        call = _call(s.action, cid)
        skip = ""
        if s.parse_error:
            skip = "unparsed model reply"
        elif call is None:
            skip = "not a tool call"
        elif s.error and not keep_failed_actions:
            skip = "action failed"
        if not skip:
            completion = {"role": "assistant", "content": "", "tool_calls": [call]}
            yield {**_sample(meta, tools_json, int(s.step), messages, completion, s.action),
                   "think_ms": float((s.usage or {}).get("think_ms", 0.0))}
        else:
            stats.skipped_steps[skip] += 1
        if call is not None:
            messages.append({"role": "assistant", "content": "", "tool_calls": [call]})
            result = tool_result_text(s.tool_result, s.error)
            messages.append({"role": "tool", "tool_call_id": cid,
                             "content": tool_result_message(result, traj.goal if restate_goal else None)})
    last = traj.steps[-1] if traj.steps else None
    if closing_turn and last is not None and isinstance(last.action, dict) and last.action.get("type") == "done" \
            and not last.error and not last.parse_error:
        messages[-1] = {**messages[-1], "content": TASK_FINISHED}
        yield _sample(meta, tools_json, int(last.step) + 1, messages, {"role": "assistant", "content": ""}, None)
