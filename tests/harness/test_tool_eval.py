"""`uigym eval --mode tools`: the tool oracle and a function-calling model (a scripted OpenAI-compatible
endpoint, text only) on the toy app, graded by the tasks' verifiers; trajectories keep the calls and results."""

from __future__ import annotations

import asyncio
import json

from agent_harness.runner import EvalConfig, run_eval
from agent_harness.trajectory import Trajectory
from tests.harness.fake_openai import FakeOpenAI
from tests.harness.toy_tasks import APP_MODULES, toy_tasks

TASKS = {t.id: t for t in toy_tasks()}


def call(name: str, args: dict, cid: str) -> dict:
    return {"id": cid, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}


async def test_the_tool_oracle_solves_every_toy_task_without_a_browser(tmp_path, toy_runtime):
    cfg = EvalConfig(agent="oracle", tasks=list(TASKS.values()), out=tmp_path, workers=2, app_modules=APP_MODULES,
                     mode="tools")
    rows = await run_eval(cfg)
    assert sorted((r["task_id"], r["reward"], r["mode"]) for r in rows) == sorted(
        (t, 1.0, "tools") for t in TASKS)
    traj = Trajectory.load(tmp_path / next(r for r in rows if r["task_id"] == "mail/toy-third-title")["episode_dir"]
                           / "trajectory.json")
    assert traj.mode == "tools" and [t["function"]["name"] for t in traj.tools][-1] == "done"
    assert traj.steps[0].action == {"type": "tool", "name": "list_notes", "args": {}}
    assert '"title":"Note 2-3"' in traj.steps[0].tool_result and traj.steps[0].screenshot == ""
    assert not list((tmp_path / rows[0]["episode_dir"]).glob("*.png"))

    from agent_harness.report import write_report

    write_report([tmp_path], tmp_path / "report")
    page = (tmp_path / "report" / "episodes" / "0" / "mail__toy-third-title__s0.html").read_text()
    assert "tool mode: no screen" in page and "tool result" in page and "Note 2-3" in page


async def test_a_function_calling_model_solves_a_task_and_reads_errors(tmp_path, toy_runtime):
    replies = [
        {"role": "assistant", "content": "", "tool_calls": [call("list_notes", {}, "c1")]},
        # Two calls in one reply: the first fails (a wrong id), so the second is not run.
        {"role": "assistant", "content": "", "tool_calls": [call("star_note", {"note_id": 99}, "c2"),
                                                             call("done", {}, "c3")]},
        {"role": "assistant", "content": "", "tool_calls": [call("star_note", {"note_id": 2}, "c4")]},
        {"role": "assistant", "content": "", "tool_calls": [call("done", {}, "c5")]},
    ]
    with FakeOpenAI(replies, model="text-only") as api:
        cfg = EvalConfig(agent="openai", tasks=[TASKS["mail/toy-star-note-2"]], out=tmp_path, workers=1,
                         app_modules=APP_MODULES, mode="tools", agent_kwargs={"base_url": api.base_url, "backoff": 0.01})
        (row,) = await run_eval(cfg)
        reqs = api.requests
    assert row["reward"] == 1.0 and row["error"] is None and row["steps"] == 4 and row["model_calls"] == 4
    first = reqs[0]
    assert [t["function"]["name"] for t in first["tools"]] == ["list_notes", "star_note", "add_notes", "done"]
    assert first["messages"][0]["role"] == "system" and first["messages"][1] == {
        "role": "user", "content": TASKS["mail/toy-star-note-2"].goal}
    assert not any(isinstance(m.get("content"), list) for r in reqs for m in r["messages"])  # text only
    tool_msgs = [m for m in reqs[2]["messages"] if m["role"] == "tool"]
    assert tool_msgs[0]["tool_call_id"] == "c1" and '"title":"Note 1-2"' in tool_msgs[0]["content"]
    assert tool_msgs[1]["tool_call_id"] == "c2" and "no note with id 99" in tool_msgs[1]["content"]
    assert tool_msgs[2]["tool_call_id"] == "c3" and tool_msgs[2]["content"].startswith("Not run")


async def test_restate_goal_puts_the_task_after_each_result_and_nowhere_else(tmp_path, toy_runtime):
    task = TASKS["mail/toy-star-note-2"]
    replies = [{"role": "assistant", "content": "", "tool_calls": [call("list_notes", {}, "c1")]},
               {"role": "assistant", "content": "", "tool_calls": [call("star_note", {"note_id": 99}, "c2")]},
               {"role": "assistant", "content": "", "tool_calls": [call("star_note", {"note_id": 2}, "c3")]},
               {"role": "assistant", "content": "", "tool_calls": [call("done", {}, "c4")]}]
    with FakeOpenAI(replies) as api:
        cfg = EvalConfig(agent="openai", tasks=[task], out=tmp_path, workers=1, app_modules=APP_MODULES, mode="tools",
                         agent_kwargs={"base_url": api.base_url, "backoff": 0.01, "restate_goal": True})
        (row,) = await run_eval(cfg)
        reqs = api.requests
    assert row["reward"] == 1.0
    msgs = reqs[-1]["messages"]
    tools = [m["content"] for m in msgs if m["role"] == "tool"]
    suffix = f"\n\nTask: {task.goal}"
    assert len(tools) == 3 and all(t.endswith(suffix) and t.count(task.goal) == 1 for t in tools)
    assert '"title":"Note 1-2"' in tools[0] and tools[1].startswith("Error: ") and "no note with id 99" in tools[1]
    assert msgs[1] == {"role": "user", "content": task.goal}  # the first turn is as without the option
    # the trajectory keeps the app's own result: the restated task is the prompt's, not the world's
    traj = Trajectory.load(tmp_path / row["episode_dir"] / "trajectory.json")
    assert task.goal not in traj.steps[0].tool_result and tools[0] == traj.steps[0].tool_result + suffix


async def test_a_text_reply_is_the_models_answer(tmp_path, toy_runtime):
    replies = [{"role": "assistant", "content": "", "tool_calls": [call("list_notes", {}, "c1")]},
               {"role": "assistant", "content": "Note 2-3"}]
    with FakeOpenAI(replies) as api:
        cfg = EvalConfig(agent="openai", tasks=[TASKS["mail/toy-third-title"]], out=tmp_path, workers=1,
                         app_modules=APP_MODULES, mode="tools", agent_kwargs={"base_url": api.base_url})
        (row,) = await run_eval(cfg)
    assert row["reward"] == 1.0 and row["answer"] == "Note 2-3"


async def test_hybrid_mode_runs_the_tool_oracle_beside_the_screen(tmp_path, toy_runtime):
    cfg = EvalConfig(agent="tool-oracle", tasks=[TASKS["mail/toy-star-note-2"]], out=tmp_path, workers=1,
                     app_modules=APP_MODULES, mode="hybrid")
    (row,) = await run_eval(cfg)
    assert row["reward"] == 1.0 and row["mode"] == "hybrid"
    assert (tmp_path / row["episode_dir"] / "000.png").exists()  # the screen is recorded too


async def test_tool_mode_episodes_export_as_function_calling_sft_samples(tmp_path, toy_runtime):
    from agent_harness.export import ExportConfig, export_sft

    run = tmp_path / "run"
    await run_eval(EvalConfig(agent="oracle", tasks=list(TASKS.values()), out=run, workers=2,
                              app_modules=APP_MODULES, mode="tools"))
    stats = await asyncio.to_thread(export_sft, ExportConfig(runs=[run], out=tmp_path / "sft", split="hash",
                                                              test_fraction=0.0))
    rows = [json.loads(line) for line in (tmp_path / "sft" / "train.jsonl").read_text().splitlines()]
    calls = sum(len(t.tools.solution) for t in TASKS.values())
    assert stats.samples["train"] == len(rows) == calls and stats.images == 0
    star = sorted((r for r in rows if r["task_id"] == "mail/toy-star-note-2"), key=lambda r: r["step"])
    assert [r["source"] for r in star] == ["oracle"] * 3 and all(r["images"] == [] for r in star)
    assert star[1]["target"] == '<tool_call>\n{"name": "star_note", "arguments": {"note_id": 2}}\n</tool_call>'
    prompt = star[1]["prompt"]
    assert [m["role"] for m in prompt] == ["system", "user", "assistant", "tool"]
    assert "list_notes" in prompt[2]["content"][0]["text"] and "Note 1-2" in prompt[3]["content"][0]["text"]
    assert [t["function"]["name"] for t in json.loads(star[1]["tools"])][-1] == "done"
    assert TASKS["mail/toy-star-note-2"].goal not in prompt[3]["content"][0]["text"]

    # --restate-goal: the same samples, each tool result followed by the task, as the agent's restate_goal sends it
    await asyncio.to_thread(export_sft, ExportConfig(runs=[run], out=tmp_path / "sft-goal", split="hash",
                                                      test_fraction=0.0, restate_goal=True))
    again = {(r["task_id"], r["step"]): r for r in map(json.loads, (tmp_path / "sft-goal" / "train.jsonl").open())}
    restated = again[("mail/toy-star-note-2", star[1]["step"])]
    assert restated["target"] == star[1]["target"] and len(again) == len(rows)
    text = restated["prompt"][3]["content"][0]["text"]
    assert text == prompt[3]["content"][0]["text"] + "\n\nTask: " + TASKS["mail/toy-star-note-2"].goal
    assert "restated after each call's result: yes" in (tmp_path / "sft-goal" / "README.md").read_text()

    # --closing-turn: one more sample per episode `done` finished: its result as GRPO's tool env words it (the
    # same constant), then an empty reply (the target is the end of the turn); the call samples are unchanged
    from agent_harness.agents.tool_model import TASK_FINISHED

    await asyncio.to_thread(export_sft, ExportConfig(runs=[run], out=tmp_path / "sft-close", split="hash",
                                                      test_fraction=0.0, closing_turn=True))
    closed = [json.loads(line) for line in (tmp_path / "sft-close" / "train.jsonl").read_text().splitlines()]
    closing = [r for r in closed if r["target"] == ""]
    assert len(closed) == len(rows) + len(TASKS) and len(closing) == len(TASKS)
    last = max(star, key=lambda r: r["step"])
    (star_close,) = [r for r in closing if r["task_id"] == "mail/toy-star-note-2"]
    assert star_close["step"] == last["step"] + 1 and star_close["actions"] == "[]"
    assert [m["role"] for m in star_close["prompt"]] == ["system", "user"] + ["assistant", "tool"] * 3
    assert star_close["prompt"][-2]["content"][0]["text"] == last["target"]  # the done call
    assert star_close["prompt"][-1]["content"][0]["text"] == TASK_FINISHED
    assert star_close["completion"] == [{"role": "assistant", "content": [{"type": "text", "text": ""}]}]
    assert sorted(r["target"] for r in closed if r["target"]) == sorted(r["target"] for r in rows)
    assert "a closing turn (an empty\n  reply after a finished episode's `done` result): yes" in \
        (tmp_path / "sft-close" / "README.md").read_text()


async def test_hybrid_mode_gives_a_screen_model_the_apps_tools_too(tmp_path, toy_runtime):
    replies = [
        {"role": "assistant", "content": "", "tool_calls": [call("star_note", {"note_id": 2}, "a1")]},
        {"role": "assistant", "content": "", "tool_calls": [call("screenshot", {}, "s1")]},
        {"role": "assistant", "content": "", "tool_calls": [call("done", {}, "d1")]},
    ]
    with FakeOpenAI(replies) as api:
        cfg = EvalConfig(agent="openai", tasks=[TASKS["mail/toy-star-note-2"]], out=tmp_path, workers=1,
                         app_modules=APP_MODULES, mode="hybrid",
                         agent_kwargs={"base_url": api.base_url, "format": "json"})
        (row,) = await run_eval(cfg)
        reqs = api.requests
    assert row["reward"] == 1.0 and row["error"] is None and row["mode"] == "hybrid"
    names = [t["function"]["name"] for t in reqs[0]["tools"]]
    assert {"click", "type", "star_note", "list_notes"} <= set(names) and names.count("done") == 1
    assert "app's tools" in reqs[0]["messages"][0]["content"]
    tool_msgs = [m for m in reqs[1]["messages"] if m["role"] == "tool"]
    assert tool_msgs[0]["tool_call_id"] == "a1" and tool_msgs[0]["content"] == '{"id":2,"starred":true}'
    assert any(isinstance(m.get("content"), list) for m in reqs[1]["messages"])  # the screen is still shown
