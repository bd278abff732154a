"""The model agent against a scripted OpenAI-compatible endpoint, on the toy app: coordinates scaled
from the model's image, unparsable replies fed back as errors, history with the last K screenshots,
tool results, retries with backoff, and endpoint failures recorded as episode errors."""

from __future__ import annotations

import base64
import io
import json

from PIL import Image

from agent_harness.agents.model import ModelAgent
from agent_harness.runner import EvalConfig, run_eval
from agent_harness.trajectory import Trajectory
from gym_core import AsyncUIEnv
from tests.harness.fake_openai import FakeOpenAI, images_in, texts_in
from tests.harness.toy_tasks import APP_MODULES, toy_tasks

TASKS = {t.id: t for t in toy_tasks()}


async def star_button_center(runtime) -> tuple[int, int]:
    env = AsyncUIEnv("mail", runtime=runtime)  # the toy app, served as "mail"
    try:
        await env.reset(seed=1)
        b = await env.page.get_by_role("button", name="Star Note 1-2").bounding_box()
        return int(b["x"] + b["width"] / 2), int(b["y"] + b["height"] / 2)
    finally:
        await env.close()


def cfg(tmp_path, task_id, **agent_kwargs) -> EvalConfig:
    return EvalConfig(agent="openai", tasks=[TASKS[task_id]], out=tmp_path, workers=1, app_modules=APP_MODULES,
                      agent_kwargs={"backoff": 0.01, **agent_kwargs})


async def test_scaled_ui_tars_clicks_solve_the_task_and_bad_replies_are_fed_back(tmp_path, toy_runtime):
    x, y = await star_button_center(toy_runtime)
    mx, my = x // 2, y // 2  # the model sees a 640x360 image
    replies = [
        "I think the star is somewhere on the right.",  # no Action: line
        "Thought: The star button of Note 1-2 is next to its title.\n"
        f"Action: click(start_box='<|box_start|>({mx},{my})<|box_end|>')",
        "Thought: It is starred now.\nAction: finished(content='')",
    ]
    with FakeOpenAI(replies) as api:
        rows = await run_eval(cfg(tmp_path, "mail/toy-star-note-2", base_url=api.base_url, format="uitars",
                                  image_size="640x360", temperature=0.3, seed=7, max_tokens=99), runtime=toy_runtime)
        reqs = api.requests
    (row,) = rows
    assert row["reward"] == 1.0 and row["passed"] and row["error"] is None
    assert (row["steps"], row["parse_errors"], row["model_calls"], row["tokens"]) == (3, 1, 3, 330)
    traj = Trajectory.load(tmp_path / row["episode_dir"] / "trajectory.json")
    assert "no 'Action:' line" in traj.steps[0].parse_error and traj.steps[0].action == {"type": "screenshot"}
    assert abs(traj.steps[1].action["x"] - x) <= 2 and abs(traj.steps[1].action["y"] - y) <= 2
    assert traj.steps[1].text.startswith("Thought: The star button")
    assert traj.steps[1].usage["prompt_tokens"] == 100 and traj.steps[1].usage["latency_ms"] > 0

    assert len(reqs) == 3 and reqs[0]["model"] == "fake-vlm"  # asked the server which model it serves
    assert (reqs[0]["temperature"], reqs[0]["max_tokens"]) == (0.3, 99)
    assert len({r["seed"] for r in reqs}) == 3  # --seed 7 gives each request its own derived seed
    assert "tools" not in reqs[0]  # a text format
    system = reqs[0]["messages"][0]
    assert system["role"] == "system" and "640x360" in system["content"] and "click(start_box=" in system["content"]
    assert "Task: Star the note titled 'Note 1-2'." in texts_in(reqs[0])
    assert "could not be used: no 'Action:' line" in texts_in(reqs[1])
    url = reqs[0]["messages"][1]["content"][1]["image_url"]["url"]
    assert url.startswith("data:image/png;base64,")
    assert Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).size == (640, 360)


async def test_history_keeps_the_last_k_screenshots_and_answers_each_tool_call(tmp_path, toy_runtime):
    def call(name, args):
        return {"role": "assistant", "content": "", "tool_calls": [
            {"id": f"c{len(name)}{json.dumps(args)}", "type": "function",
             "function": {"name": name, "arguments": json.dumps(args)}}]}

    replies = [call("wait", {"ms": 0}), call("scroll", {"x": 640, "y": 360, "dy": 100}), call("wait", {"ms": 0}),
               call("done", {"answer": "Note 2-3"})]
    with FakeOpenAI(replies) as api:
        rows = await run_eval(cfg(tmp_path, "mail/toy-third-title", base_url=api.base_url, format="json",
                                  history_images=2, model="m1", api_key="sk-test"), runtime=toy_runtime)
        reqs = api.requests
    assert rows[0]["reward"] == 1.0 and rows[0]["answer"] == "Note 2-3"
    assert [images_in(r) for r in reqs] == [1, 2, 2, 2]
    assert texts_in(reqs[3]).count("[an earlier screenshot, omitted]") == 2
    assert {t["function"]["name"] for t in reqs[0]["tools"]} >= {"click", "type", "keypress", "done"}
    for body in reqs[1:]:
        msgs = body["messages"]
        for i, m in enumerate(msgs):
            if m["role"] == "assistant" and m.get("tool_calls"):
                assert msgs[i + 1]["role"] == "tool" and msgs[i + 1]["tool_call_id"] == m["tool_calls"][0]["id"]


async def test_retries_then_success_and_endpoint_failures_are_recorded(tmp_path, toy_runtime):
    with FakeOpenAI([503, 429, "Thought: done\nAction: finished(content='Note 2-3')"]) as api:
        (row,) = await run_eval(cfg(tmp_path / "a", "mail/toy-third-title", base_url=api.base_url, format="uitars",
                                    retries=3), runtime=toy_runtime)
    assert row["reward"] == 1.0
    traj = Trajectory.load(tmp_path / "a" / row["episode_dir"] / "trajectory.json")
    assert traj.steps[0].usage["retries"] == 2

    with FakeOpenAI([400]) as api:
        (row,) = await run_eval(cfg(tmp_path / "b", "mail/toy-third-title", base_url=api.base_url),
                                runtime=toy_runtime)
    assert row["reward"] == 0.0 and row["error_kind"] == "ModelError" and "HTTP 400" in row["error"]

    with FakeOpenAI([500, 500, 500]) as api:
        (row,) = await run_eval(cfg(tmp_path / "c", "mail/toy-third-title", base_url=api.base_url, retries=2),
                                runtime=toy_runtime)
    assert row["error_kind"] == "ModelError" and "after 3 tries" in row["error"]


def test_request_seeds_are_reproducible_and_differ_by_task_sample_and_call():
    """--samples N with --seed S must draw N independent replies: one seed for every request would make a
    seeded server (ours, vLLM) repeat the same reply for every sample and every task sharing a prompt."""
    from types import SimpleNamespace

    def seed(s, task, sample, call):
        agent = ModelAgent(seed=s)
        agent.task, agent.episode_sample, agent.n_calls = SimpleNamespace(id=task), sample, call
        return agent.request_seed()

    base = seed(0, "food/a", 0, 0)
    assert base == seed(0, "food/a", 0, 0) and 0 <= base < 2**31
    assert len({base, seed(1, "food/a", 0, 0), seed(0, "food/b", 0, 0), seed(0, "food/a", 1, 0),
                seed(0, "food/a", 0, 1)}) == 5
